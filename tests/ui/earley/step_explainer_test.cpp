// Explanations of each operation: the headline names the items and shows the arithmetic, and
// that arithmetic, recomputed from the chart (prediction masses from the waiting items,
// constituents summed from their finished items, unit closures), gives what the parser did.
#include "ui/earley/step_explainer.h"

#include <cmath>
#include <iostream>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "qt_printers.h"
#include "session_fixtures.h"
#include "ui/common/value_format.h"

namespace gwb::ui {
namespace {

using testing::grammarFromNltk;
using testing::kAmbiguous;
using testing::loadSampleGrammar;
using testing::parseSentence;

struct HeadlineCase {
  std::size_t step;
  NumberFormat format;
  const char* headline;
};

TEST(StepExplainerTest, HeadlinesOfTheAmbiguousSentence) {
  const auto session = parseSentence(loadSampleGrammar(), kAmbiguous);
  const HeadlineCase cases[] = {
      {0, NumberFormat::Probability,
       "init: the axiom [0, 0] GOAL \u2192 . S starts the parse; \u03b1 = \u03b3 = 1"},
      {2, NumberFormat::Probability,
       "predict: [0, 0] NP \u2192 . NP PP, because [0, 0] GOAL \u2192 . S waits for S, which "
       "can begin with NP; \u03b1 = 1.25 \u00d7 0.2 = 0.25, \u03b3 = P(NP \u2192 NP PP) = 0.2"},
      {3, NumberFormat::Probability,
       "scan: the word \u2018i\u2019 at position 0 is NP \u2192 'i'; [0, 1] NP \u2192 'i' . "
       "gets \u03b1 = 1.25 \u00d7 0.2 = 0.25, \u03b3 = 0.2"},
      {4, NumberFormat::Probability,
       "complete: [0, 1] NP \u2192 'i' . advances [0, 0] S \u2192 . NP VP to [0, 1] S \u2192 "
       "NP . VP; \u03b3 = 1 \u00d7 0.2 = 0.2"},
      {14, NumberFormat::Probability,
       "complete: [2, 3] Det \u2192 'the' . advances [2, 2] NP \u2192 . Det N to [2, 3] NP "
       "\u2192 Det . N; \u03b3 = 0.5 \u00d7 0.7 = 0.35"},
      {14, NumberFormat::LogProbability,
       "complete: [2, 3] Det \u2192 'the' . advances [2, 2] NP \u2192 . Det N to [2, 3] NP "
       "\u2192 Det . N; ln \u03b3 = -0.693 + -0.357 = -1.050"},
  };
  for (const HeadlineCase& c : cases) {
    EXPECT_EQ(explainStep(*session, c.step, c.format).headline, QString::fromUtf8(c.headline))
        << "step " << c.step;
  }
  // Scaled values: the scan divides by the prefix ratio, and says so.
  const Explanation scaled = explainStep(*session, 3, NumberFormat::Scaled);
  EXPECT_TRUE(scaled.headline.contains(QStringLiteral("\u00f7 0.25")))
      << scaled.headline.toStdString();
  EXPECT_TRUE(scaled.toPlainText().contains(QStringLiteral("Scaled arithmetic")));
  // The last scan of a word reports the prefix probability and the surprisal.
  EXPECT_TRUE(
      explainStep(*session, 3, NumberFormat::Probability)
          .toPlainText()
          .contains(QStringLiteral("surprisal of \u2018i\u2019 is 1.386 nats (2.000 bits)")));
  // Look-ahead is explained where it prunes, and not in textbook mode.
  EXPECT_TRUE(explainStep(*session, 1, NumberFormat::Probability)
                  .toPlainText()
                  .contains(QStringLiteral("Look-ahead is on")));
  const auto textbook = parseSentence(loadSampleGrammar(), kAmbiguous, false);
  EXPECT_FALSE(explainStep(*textbook, 1, NumberFormat::Probability)
                   .toPlainText()
                   .contains(QStringLiteral("Look-ahead")));
}

struct ArithmeticCase {
  const char* name;
  const char* grammar;  // empty: the PP-attachment sample
  const char* sentence;
  bool lookahead;
  gwb::NumericMode mode;
};

class StepArithmeticTest : public ::testing::TestWithParam<ArithmeticCase> {};

// For every operation, the explanation's factors multiply to its result, and the result is
// what the parser computed: the new item's α (predict, scan) or the γ the completion added.
TEST_P(StepArithmeticTest, ExplanationsAgreeWithTheParser) {
  const ArithmeticCase& c = GetParam();
  const auto grammar = *c.grammar ? grammarFromNltk(c.grammar) : loadSampleGrammar();
  const auto session = parseSentence(grammar, c.sentence, c.lookahead, c.mode);
  ASSERT_TRUE(session->result().success);
  int checked = 0;
  int updates = 0;
  for (std::size_t step = 0; step < session->stepCount(); ++step) {
    const gwb::ParseEvent& e = session->trace().event(step);
    const Explanation x = explainStep(*session, step, NumberFormat::Probability);
    ASSERT_FALSE(x.headline.isEmpty());
    if (e.kind == gwb::OperationKind::Init) continue;
    if (e.kind == gwb::OperationKind::Scan && e.predecessor.valid()) continue;
    double sum = 0.0;
    for (double f : x.factors) sum += f;
    EXPECT_NEAR(sum, x.result, 1e-9) << x.headline.toStdString();
    if (e.kind == gwb::OperationKind::Complete) {
      const double after = session->logInner(e.item, e.innerAfter);
      if (e.created) {
        EXPECT_NEAR(x.result, after, 1e-9) << step << ": " << x.headline.toStdString();
      } else {
        const double before = session->logInner(e.item, e.innerBefore);
        EXPECT_NEAR(std::exp(x.result), std::exp(after) - std::exp(before), 1e-9 * std::exp(after))
            << step << ": " << x.headline.toStdString();
        ++updates;
      }
    } else {
      EXPECT_NEAR(x.result, session->logForward(e.item, e.forwardAfter), 1e-9)
          << step << ": " << x.headline.toStdString();
    }
    ++checked;
  }
  EXPECT_GT(checked, 5);
  if (std::string(c.name) == "UnitChains") {
    EXPECT_GT(updates, 0);
  }
}

const char* const kUnitChains =
    "S -> X [1.0]\nX -> A [0.5] | B [0.5]\nA -> 'w' [0.6] | A 'w' [0.4]\n"
    "B -> 'w' [0.3] | 'w' B [0.7]\n";

INSTANTIATE_TEST_SUITE_P(
    Grammars, StepArithmeticTest,
    ::testing::Values(
        ArithmeticCase{"PpLookahead", "", "i saw the man with the telescope", true,
                       gwb::NumericMode::Scaled},
        ArithmeticCase{"PpTextbook", "", "john saw a man in the park with a telescope", false,
                       gwb::NumericMode::Log},
        ArithmeticCase{"UnitChains", kUnitChains, "w w w", true, gwb::NumericMode::Scaled},
        ArithmeticCase{"UnitChainsTextbook", kUnitChains, "w w", false, gwb::NumericMode::Log},
        ArithmeticCase{"LeftRecursion", "S -> L [1.0]\nL -> L 'x' [0.4] | 'x' [0.6]\n", "x x x x",
                       true, gwb::NumericMode::Scaled}),
    [](const ::testing::TestParamInfo<ArithmeticCase>& p) { return p.param.name; });

TEST(StepExplainerTest, ItemExplanationListsItsHistoryAndAntecedents) {
  const auto session = parseSentence(loadSampleGrammar(), kAmbiguous);
  // The item of the 17th operation (a completion) after the whole parse.
  const gwb::ParseEvent& e = session->trace().event(16);
  ASSERT_EQ(e.kind, gwb::OperationKind::Complete);
  const Explanation x =
      explainItem(*session, e.item, session->stepCount(), NumberFormat::Probability);
  EXPECT_TRUE(x.headline.startsWith(session->itemText(e.item))) << x.headline.toStdString();
  EXPECT_TRUE(x.headline.contains(QStringLiteral("\u201cthe man\u201d")))
      << x.headline.toStdString();
  const QString text = x.toPlainText();
  EXPECT_TRUE(text.contains(QStringLiteral("complete at step 17"))) << text.toStdString();
  EXPECT_TRUE(text.contains(session->itemText(e.predecessor))) << text.toStdString();
  // Before it exists there is nothing to explain.
  EXPECT_TRUE(explainItem(*session, e.item, 16, NumberFormat::Probability).headline.isEmpty());
}

// Deep into a long sentence an explanation quotes the words around the current position, not
// the whole prefix: the first few, an ellipsis, the last ones, and how many there are.
TEST(StepExplainerTest, LongSpansAreElidedAroundTheCurrentPosition) {
  std::string sentence = "i saw the man";
  for (int k = 0; k < 12; ++k) sentence += k % 2 == 0 ? " with the telescope" : " in the park";
  const auto session = parseSentence(loadSampleGrammar(), sentence);
  ASSERT_TRUE(session->result().success);
  const std::size_t n = session->words().size();
  ASSERT_EQ(n, 40u);
  // The goal item [0, 40] covers every word.
  gwb::ItemRef goal;
  for (std::size_t k = 0; k < session->chart().set(n).size(); ++k) {
    const gwb::ItemRef ref{static_cast<std::int32_t>(n), static_cast<std::int32_t>(k)};
    if (session->lhs(ref) == session->compiled().goal() && session->isFinished(ref)) goal = ref;
  }
  ASSERT_TRUE(goal.valid());
  const Explanation x =
      explainItem(*session, goal, session->stepCount(), NumberFormat::Probability);
  EXPECT_TRUE(
      x.headline.contains(QStringLiteral("\u201ci saw the \u2026 with the telescope in "
                                         "the park\u201d (40 words)")))
      << x.headline.toStdString();
  // A short span is quoted whole.
  const gwb::ParseEvent e = session->trace().event(16);
  EXPECT_FALSE(explainItem(*session, e.item, session->stepCount(), NumberFormat::Probability)
                   .headline.contains(QStringLiteral("\u2026")));
}

// How a parse without a sentence ended: the word that could not be scanned, or the end.
TEST(StepExplainerTest, OutcomeNamesTheWordOrTheEnd) {
  const auto grammar = loadSampleGrammar();
  EXPECT_EQ(explainOutcome(*parseSentence(grammar, "i saw the man with")).headline,
            QStringLiteral("No parse: the sentence ended before a complete parse"));
  const Explanation unknown = explainOutcome(*parseSentence(grammar, "i saw the zebra"));
  EXPECT_EQ(unknown.headline,
            QStringLiteral("No parse: word 4, \u2018zebra\u2019, could not be scanned"));
  EXPECT_TRUE(unknown.toPlainText().contains(QStringLiteral("no rule for")))
      << unknown.toPlainText().toStdString();
  const Explanation misplaced = explainOutcome(*parseSentence(grammar, "the saw"));
  EXPECT_EQ(misplaced.headline,
            QStringLiteral("No parse: word 2, \u2018saw\u2019, could not be scanned"));
  EXPECT_TRUE(misplaced.toPlainText().contains(QStringLiteral("knows \u2018saw\u2019")));
  EXPECT_TRUE(explainOutcome(*parseSentence(grammar, kAmbiguous))
                  .headline.startsWith(QStringLiteral("Parsed: P = ")));
}

// Probabilities too small to read as decimals are shown as powers of ten.
TEST(ValueFormatTest, ReadableProbabilitiesUseLogFiguresBelowAMillionth) {
  EXPECT_EQ(formatReadableProbabilityFromLog(std::log(0.35)), QStringLiteral("0.35"));
  EXPECT_EQ(formatReadableProbabilityFromLog(std::log(2e-6)), QStringLiteral("2e-06"));
  EXPECT_EQ(formatReadableProbabilityFromLog(std::log(7.3) - 210 * std::log(10.0)),
            QStringLiteral("10^-209.14"));
  EXPECT_EQ(formatReadableProbabilityFromLog(-9000.0), QStringLiteral("10^-3908.65"));
  EXPECT_EQ(formatReadableProbabilityFromLog(-std::numeric_limits<double>::infinity()),
            QStringLiteral("0"));
}

}  // namespace
}  // namespace gwb::ui
