// Agenda mode in the stepper: the student picks tasks (double-click, Enter, the Process button,
// a click on an arc), strategies pick for them, the arc view draws the agenda's chart, and
// whatever the order the sentence probability is the standard parse's — with corrections
// shown when an order used a value before it was final.
#include "ui/earley/agenda_panel.h"

#include <cmath>

#include <QApplication>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "session_fixtures.h"
#include "ui/earley/arc_view.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/stepper_view.h"

namespace gwb::ui {
namespace {

using testing::kAmbiguous;
using testing::loadSampleGrammar;

class AgendaPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.resize(1200, 800);
    view_.setGrammar(loadSampleGrammar());
    view_.setSentence(QString::fromLatin1(kAmbiguous));
    ASSERT_TRUE(view_.waitForParse());
    ASSERT_TRUE(view_.session());
    panel_ = view_.agendaPanel();
    ASSERT_NE(panel_, nullptr);
  }
  double standardProbability() const { return std::exp(view_.session()->result().logProbability); }
  StepperView view_;
  AgendaPanel* panel_ = nullptr;
};

TEST_F(AgendaPanelTest, StartsWithTheAxiomAndDrawsTheAgendaChart) {
  EXPECT_FALSE(panel_->isActive());
  EXPECT_EQ(panel_->engine(), nullptr);
  // Off: the arc view shows the stepper's chart (at step 0, the axiom).
  panel_->setActive(true);
  ASSERT_NE(panel_->engine(), nullptr);
  QTreeWidget* list = panel_->agendaList();
  ASSERT_EQ(list->topLevelItemCount(), 1);
  EXPECT_EQ(list->topLevelItem(0)->text(0), QStringLiteral("predict from [0, 0] GOAL \u2192 . S"));
  ASSERT_EQ(view_.arcView()->arcs().size(), 1u);
  // Enter on the current task runs it: S's rules and NP's are predicted at 0.
  list->setFocus();
  list->setCurrentItem(list->topLevelItem(0));
  QTest::keyClick(list, Qt::Key_Return);
  ASSERT_TRUE(panel_->lastReport().has_value());
  EXPECT_EQ(panel_->lastReport()->task.kind, gwb::AgendaTaskKind::Predict);
  EXPECT_GT(panel_->lastReport()->created.size(), 1u);
  EXPECT_EQ(view_.arcView()->arcs().size(), panel_->engine()->items().size());
  EXPECT_TRUE(panel_->explanationView()->toPlainText().contains(QStringLiteral("Added:")));
  // The new items are drawn filled ("fresh"); the axiom is not.
  int fresh = 0;
  for (const ChartArc& arc : view_.arcView()->arcs()) fresh += arc.fresh ? 1 : 0;
  EXPECT_EQ(fresh, static_cast<int>(panel_->lastReport()->created.size()));
  // Switching off hands the arc view back to the stepper's chart.
  view_.stepper()->runToEnd();
  panel_->setActive(false);
  EXPECT_EQ(view_.arcView()->arcs().size(), view_.session()->chart().itemCount());
}

TEST_F(AgendaPanelTest, EveryStrategyEndsWithTheStandardParsesProbability) {
  panel_->setActive(true);
  for (gwb::AgendaStrategy strategy : gwb::agendaStrategies()) {
    SCOPED_TRACE(gwb::agendaStrategyName(strategy));
    panel_->restart();
    panel_->setStrategy(strategy);
    EXPECT_EQ(panel_->engine()->steps(), 0);
    panel_->runToEnd();
    ASSERT_TRUE(panel_->engine()->finished());
    EXPECT_FALSE(panel_->engine()->failed());
    EXPECT_NEAR(panel_->engine()->sentenceProbability() / standardProbability(), 1.0, 1e-12);
    const QString text = panel_->explanationView()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Finished."))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Why the numbers stay right")));
    EXPECT_EQ(panel_->agendaList()->topLevelItemCount(), 0);
  }
}

TEST_F(AgendaPanelTest, AStudentsOrderThatUsesAValueEarlyShowsTheCorrection) {
  panel_->setActive(true);
  panel_->setStrategy(gwb::AgendaStrategy::Earley);
  // Earley's order up to the last word, then complete with the earliest origin first: [0, 7]
  // S is completed before its VP has all its mass, and is corrected later.
  while (panel_->engine()->position() < 7) panel_->stepByStrategy();
  bool sawCorrection = false;
  while (!panel_->engine()->finished()) {
    const auto& agenda = panel_->engine()->agenda();
    int pick = 0;
    for (std::size_t k = 0; k < agenda.size(); ++k) {
      const auto origin = [&](std::size_t j) {
        return panel_->engine()->items()[static_cast<std::size_t>(agenda[j].item)].origin;
      };
      if (origin(k) < origin(static_cast<std::size_t>(pick))) pick = static_cast<int>(k);
    }
    // A double-click on the row runs it.
    QTreeWidget* list = panel_->agendaList();
    QTreeWidgetItem* row = list->topLevelItem(pick);
    ASSERT_NE(row, nullptr);
    emit list->itemActivated(row, 0);
    ASSERT_TRUE(panel_->lastReport().has_value());
    if (!panel_->lastReport()->corrected.empty()) {
      sawCorrection = true;
      EXPECT_TRUE(panel_->explanationView()->toPlainText().contains(QStringLiteral("Corrected")));
    }
  }
  EXPECT_TRUE(sawCorrection);
  EXPECT_NEAR(panel_->engine()->sentenceProbability() / standardProbability(), 1.0, 1e-12);
}

TEST_F(AgendaPanelTest, ClickingAnArcSelectsItsTaskAndDescribesTheItem) {
  view_.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view_, 600000));
  panel_->setActive(true);
  panel_->setStrategy(gwb::AgendaStrategy::Earley);
  panel_->finishPosition();  // position 0: predict, scan 'i' as NP → i
  ASSERT_EQ(panel_->engine()->position(), 1);
  // Position 1's tasks are those of items: complete with [0, 1] NP → i ., ...
  const gwb::AgendaEarley& engine = *panel_->engine();
  std::int32_t target = -1;
  int row = -1;
  for (std::size_t k = 0; k < engine.agenda().size(); ++k)
    if (engine.agenda()[k].item >= 0) {
      target = engine.agenda()[k].item;
      row = static_cast<int>(k);
    }
  ASSERT_GE(target, 0);
  ArcView* arcs = view_.arcView();
  arcs->setSelectedKey(target);  // scrolls it into view
  QTest::mouseClick(arcs->canvas(), Qt::LeftButton, {}, arcs->arcRect(target).center());
  EXPECT_EQ(panel_->agendaList()->currentItem(), panel_->agendaList()->topLevelItem(row));
  EXPECT_TRUE(panel_->explanationView()->toPlainText().contains(QStringLiteral("Selected")));
  EXPECT_TRUE(panel_->explanationView()->toPlainText().contains(QStringLiteral("On the agenda")));
  // A double-click on the arc runs its task.
  const int steps = engine.steps();
  QTest::mouseDClick(arcs->canvas(), Qt::LeftButton, {}, arcs->arcRect(target).center());
  EXPECT_EQ(panel_->engine()->steps(), steps + 1);
  // The stepper's selection no longer drives the arc view while agenda mode is on.
  view_.stepper()->runToEnd();
  view_.selectItem({7, 0});
  EXPECT_EQ(arcs->arcs().size(), panel_->engine()->items().size());
}

TEST_F(AgendaPanelTest, ANewParseRestartsAgendaMode) {
  panel_->setActive(true);
  panel_->runToEnd();
  EXPECT_TRUE(panel_->engine()->finished());
  view_.setSentence(QStringLiteral("i walked"));
  ASSERT_TRUE(view_.waitForParse());
  ASSERT_NE(panel_->engine(), nullptr);
  EXPECT_EQ(panel_->engine()->steps(), 0);
  EXPECT_EQ(panel_->engine()->words().size(), 2u);
  // A word the grammar lacks: the run stops with the engine's message.
  view_.setSentence(QStringLiteral("i saw a unicorn"));
  ASSERT_TRUE(view_.waitForParse());
  ASSERT_NE(panel_->engine(), nullptr);
  panel_->runToEnd();
  EXPECT_TRUE(panel_->engine()->failed());
  EXPECT_EQ(panel_->engine()->failedAt(), 3);
  EXPECT_TRUE(panel_->explanationView()->toPlainText().contains(QStringLiteral("unicorn")));
}

TEST_F(AgendaPanelTest, ALongSentenceGetsAMessageInsteadOfAnEngine) {
  QStringList words;
  for (std::size_t k = 0; k <= AgendaPanel::kMaxWords; ++k) words << QStringLiteral("i");
  view_.setSentence(words.join(QLatin1Char(' ')));
  ASSERT_TRUE(view_.waitForParse());
  panel_->setActive(true);
  EXPECT_EQ(panel_->engine(), nullptr);
  EXPECT_TRUE(panel_->explanationView()->toPlainText().contains(
      QStringLiteral("up to %1 words").arg(AgendaPanel::kMaxWords)));
  // A short one again: agenda mode starts.
  view_.setSentence(QStringLiteral("i walked"));
  ASSERT_TRUE(view_.waitForParse());
  EXPECT_NE(panel_->engine(), nullptr);
}

}  // namespace
}  // namespace gwb::ui
