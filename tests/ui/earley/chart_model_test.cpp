// The chart model against the recorded parse: at every step, forward and back, each column
// shows exactly the items of its state set that exist, with the values the parser had.
#include "ui/earley/chart_model.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "model_tester.h"
#include "qt_printers.h"
#include "session_fixtures.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {
namespace {

using testing::kAmbiguous;
using testing::loadSampleGrammar;
using testing::parseSentence;

// Compares every cell of the model with the trace after `applied` operations.
void expectModelShowsStep(const ChartModel& model, const ParseSession& session,
                          std::size_t applied) {
  const gwb::ParseTrace& trace = session.trace();
  ASSERT_EQ(model.applied(), applied);
  ASSERT_EQ(model.columnCount(), static_cast<int>(session.setCount()));
  int longest = 0;
  for (std::size_t set = 0; set < session.setCount(); ++set) {
    const std::size_t exist = applied == 0 ? 0 : trace.visibleItems(set, applied - 1);
    ASSERT_EQ(model.shownInSet(static_cast<int>(set)), static_cast<int>(exist))
        << "set " << set << " after " << applied;
    longest = std::max(longest, static_cast<int>(exist));
    for (std::size_t k = 0; k < exist; ++k) {
      const gwb::ItemRef ref{static_cast<std::int32_t>(set), static_cast<std::int32_t>(k)};
      const QModelIndex cell = model.index(static_cast<int>(k), static_cast<int>(set));
      const auto state = trace.stateAt(ref, applied - 1);
      ASSERT_TRUE(state);
      EXPECT_EQ(cell.data(ChartModel::SetRole).toInt(), ref.set);
      EXPECT_EQ(cell.data(ChartModel::IndexRole).toInt(), ref.index);
      EXPECT_EQ(cell.data(ChartModel::ForwardRole).toDouble(), state->forward);
      EXPECT_EQ(cell.data(ChartModel::InnerRole).toDouble(), state->inner);
      EXPECT_EQ(cell.data(ChartModel::ViterbiRole).toDouble(), state->viterbi);
      EXPECT_EQ(cell.data(Qt::DisplayRole).toString(), session.itemText(ref));
      EXPECT_EQ(cell.data(ChartModel::IsCurrentRole).toBool(), state->lastStep == applied - 1);
    }
  }
  EXPECT_EQ(model.rowCount(), longest);
}

struct StepCase {
  bool lookahead;
  gwb::NumericMode mode;
};

class ChartModelStepTest : public ::testing::TestWithParam<StepCase> {};

TEST_P(ChartModelStepTest, EveryStepForwardThenBackShowsTheParserState) {
  const auto session =
      parseSentence(loadSampleGrammar(), kAmbiguous, GetParam().lookahead, GetParam().mode);
  ASSERT_TRUE(session->result().success);
  ChartModel model;
  testing::CheckedModelTester tester(&model);
  model.setSession(session);
  const std::size_t steps = session->stepCount();
  ASSERT_GT(steps, 30u);
  expectModelShowsStep(model, *session, 0);
  for (std::size_t applied = 1; applied <= steps; ++applied) {
    model.setApplied(applied, applied - 1);
    expectModelShowsStep(model, *session, applied);
    // The operation just applied shows the parser's values after it, independently of the
    // trace's index: straight from the event the parser emitted.
    const gwb::ParseEvent& e = session->trace().event(applied - 1);
    const QModelIndex cell = model.indexOfItem(e.item);
    ASSERT_TRUE(cell.isValid()) << applied;
    EXPECT_EQ(cell.data(ChartModel::ForwardRole).toDouble(), e.forwardAfter);
    EXPECT_EQ(cell.data(ChartModel::InnerRole).toDouble(), e.innerAfter);
    EXPECT_EQ(cell.data(ChartModel::ViterbiRole).toDouble(), e.viterbiAfter);
    EXPECT_TRUE(cell.data(ChartModel::IsNewRole).toBool());
    EXPECT_EQ(cell.data(ChartModel::OperationRole).toInt(), static_cast<int>(e.kind));
  }
  // The finished chart is the parser's chart.
  for (std::size_t set = 0; set < session->setCount(); ++set) {
    const auto& items = session->chart().set(set);
    ASSERT_EQ(model.shownInSet(static_cast<int>(set)), static_cast<int>(items.size()));
    for (std::size_t k = 0; k < items.size(); ++k) {
      const QModelIndex cell = model.index(static_cast<int>(k), static_cast<int>(set));
      EXPECT_EQ(cell.data(ChartModel::ForwardRole).toDouble(), items[k].forward);
      EXPECT_EQ(cell.data(ChartModel::InnerRole).toDouble(), items[k].inner);
    }
  }
  for (std::size_t applied = steps; applied-- > 0;) {
    model.setApplied(applied, applied);
    expectModelShowsStep(model, *session, applied);
  }
  // Random jumps, as "run to position" and clicking on the step slider make.
  std::mt19937 random(7);
  std::uniform_int_distribution<std::size_t> any(0, steps);
  for (int jump = 0; jump < 60; ++jump) {
    const std::size_t applied = any(random);
    model.setApplied(applied, applied);
    expectModelShowsStep(model, *session, applied);
  }
}

INSTANTIATE_TEST_SUITE_P(ModesAndLookahead, ChartModelStepTest,
                         ::testing::Values(StepCase{true, gwb::NumericMode::Scaled},
                                           StepCase{false, gwb::NumericMode::Scaled},
                                           StepCase{true, gwb::NumericMode::Log},
                                           StepCase{false, gwb::NumericMode::Log}),
                         [](const ::testing::TestParamInfo<StepCase>& p) {
                           return std::string(p.param.lookahead ? "Lookahead" : "Textbook") +
                                  (p.param.mode == gwb::NumericMode::Log ? "Log" : "Scaled");
                         });

TEST(ChartModelTest, LogValuesAgreeAcrossNumericModes) {
  const auto grammar = loadSampleGrammar();
  const auto scaled = parseSentence(grammar, kAmbiguous, true, gwb::NumericMode::Scaled);
  const auto logs = parseSentence(grammar, kAmbiguous, true, gwb::NumericMode::Log);
  ChartModel a;
  ChartModel b;
  a.setSession(scaled, scaled->stepCount());
  b.setSession(logs, logs->stepCount());
  ASSERT_EQ(a.columnCount(), b.columnCount());
  for (int set = 0; set < a.columnCount(); ++set) {
    ASSERT_EQ(a.shownInSet(set), b.shownInSet(set));
    for (int row = 0; row < a.shownInSet(set); ++row) {
      const QModelIndex x = a.index(row, set);
      const QModelIndex y = b.index(row, set);
      EXPECT_EQ(x.data().toString(), y.data().toString());
      EXPECT_NEAR(x.data(ChartModel::LogForwardRole).toDouble(),
                  y.data(ChartModel::LogForwardRole).toDouble(), 1e-9);
      EXPECT_NEAR(x.data(ChartModel::LogInnerRole).toDouble(),
                  y.data(ChartModel::LogInnerRole).toDouble(), 1e-9);
    }
  }
}

TEST(ChartModelTest, FiltersHidePredictedItemsAndOtherSymbols) {
  const auto session = parseSentence(loadSampleGrammar(), kAmbiguous);
  ChartModel model;
  testing::CheckedModelTester tester(&model);
  model.setSession(session, session->stepCount());
  const auto countWhere = [&](auto predicate) {
    int count = 0;
    for (std::size_t set = 0; set < session->setCount(); ++set)
      for (std::size_t k = 0; k < session->chart().set(set).size(); ++k)
        count +=
            predicate(gwb::ItemRef{static_cast<std::int32_t>(set), static_cast<std::int32_t>(k)})
                ? 1
                : 0;
    return count;
  };
  const auto shownTotal = [&] {
    int total = 0;
    for (int set = 0; set < model.columnCount(); ++set) total += model.shownInSet(set);
    return total;
  };
  const int all = shownTotal();

  ChartModel::Filter filter;
  filter.hidePredicted = true;
  model.setFilter(filter);
  const int unpredicted =
      countWhere([&](gwb::ItemRef ref) { return !session->chart().item(ref).predicted; });
  EXPECT_EQ(shownTotal(), unpredicted);
  EXPECT_LT(unpredicted, all);
  for (int set = 0; set < model.columnCount(); ++set)
    for (int row = 0; row < model.shownInSet(set); ++row)
      EXPECT_FALSE(model.index(row, set).data(ChartModel::PredictedRole).toBool());

  filter = {};
  filter.symbol = QStringLiteral("NP");
  model.setFilter(filter);
  const auto np = session->compiled().symbols().findNonterminal("NP");
  ASSERT_TRUE(np);
  EXPECT_EQ(shownTotal(), countWhere([&](gwb::ItemRef ref) { return session->lhs(ref) == *np; }));
  for (int set = 0; set < model.columnCount(); ++set)
    for (int row = 0; row < model.shownInSet(set); ++row)
      EXPECT_TRUE(model.index(row, set).data().toString().contains(QStringLiteral("NP \u2192")));

  filter.symbol = QStringLiteral("NoSuchSymbol");
  model.setFilter(filter);
  EXPECT_EQ(shownTotal(), 0);
  EXPECT_EQ(model.rowCount(), 0);

  filter = {};
  filter.hideZero = true;  // nothing in this chart has zero forward probability
  model.setFilter(filter);
  EXPECT_EQ(shownTotal(), all);
  model.setFilter({});
  EXPECT_EQ(shownTotal(), all);
}

TEST(ChartModelTest, SelectingACompletedItemMarksItsAntecedents) {
  const auto session = parseSentence(loadSampleGrammar(), kAmbiguous);
  ChartModel model;
  model.setSession(session, session->stepCount());
  const std::vector<gwb::ParseEvent> events = testing::allEvents(*session);
  int checked = 0;
  for (const gwb::ParseEvent& e : events) {
    if (e.kind != gwb::OperationKind::Complete || !e.created) continue;
    model.setSelectedItem(e.item);
    const QModelIndex selected = model.indexOfItem(e.item);
    EXPECT_EQ(selected.data(ChartModel::RelationRole).toInt(),
              static_cast<int>(ChartModel::Relation::Selected));
    for (const gwb::ItemRef& antecedent : {e.predecessor, e.child}) {
      EXPECT_EQ(model.indexOfItem(antecedent).data(ChartModel::RelationRole).toInt(),
                static_cast<int>(ChartModel::Relation::Antecedent))
          << session->itemText(antecedent).toStdString();
    }
    ++checked;
  }
  EXPECT_GT(checked, 10);
  // A predicted item's antecedents wait for a symbol that can begin with its left-hand side.
  for (const gwb::ParseEvent& e : events) {
    if (e.kind != gwb::OperationKind::Predict) continue;
    const auto antecedents = model.antecedents(e.item);
    ASSERT_FALSE(antecedents.empty());
    for (const gwb::ItemRef& a : antecedents) {
      EXPECT_EQ(a.set, e.item.set);
      EXPECT_FALSE(session->chart().item(a).predicted);
    }
  }
  model.setSelectedItem({});
  EXPECT_EQ(model.index(0, 0).data(ChartModel::RelationRole).toInt(),
            static_cast<int>(ChartModel::Relation::None));
}

TEST(ChartModelTest, NumbersFollowTheChosenFormat) {
  const auto session = parseSentence(loadSampleGrammar(), "i saw john");
  ChartModel model;
  model.setSession(session, session->stepCount());
  // The goal item [0, 3] GOAL -> S . is the string's probability: 0.2·0.6·0.7·0.1 = 0.0084.
  gwb::ItemRef goal;
  const auto& last = session->chart().set(3);
  for (std::size_t k = 0; k < last.size(); ++k)
    if (last[k].rule == session->compiled().goalRule() && last[k].dot == 1)
      goal = {3, static_cast<std::int32_t>(k)};
  ASSERT_TRUE(goal.valid());
  const QModelIndex cell = model.indexOfItem(goal);
  EXPECT_NEAR(std::exp(cell.data(ChartModel::LogInnerRole).toDouble()), 0.2 * 0.6 * 0.7 * 0.1,
              1e-12);
  EXPECT_TRUE(cell.data(ChartModel::ValuesTextRole).toString().contains(QStringLiteral("0.0084")));
  model.setNumberFormat(NumberFormat::LogProbability);
  EXPECT_TRUE(
      cell.data(ChartModel::ValuesTextRole).toString().contains(formatLog(std::log(0.0084))));
  model.setNumberFormat(NumberFormat::Scaled);
  // Scaled: the values as the parser stores them (γ divided by the prefix ratios of its span).
  const QString scaled = cell.data(ChartModel::ValuesTextRole).toString();
  EXPECT_TRUE(scaled.contains(formatPlain(cell.data(ChartModel::InnerRole).toDouble(), 3)))
      << scaled.toStdString();
  EXPECT_NE(cell.data(ChartModel::InnerRole).toDouble(), 0.0084);
}

}  // namespace
}  // namespace gwb::ui
