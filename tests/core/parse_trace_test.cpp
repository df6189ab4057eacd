// Recording a parse and replaying it: every step's state equals what the parser did.
#include "gwb/parse_trace.h"

#include <cmath>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"

namespace gwb {
namespace {

const char* const kGrammar =
    "S -> NP VP 1.0\n"
    "NP -> Det N 0.5 | NP PP 0.2 | 'i' 0.2 | 'john' 0.1\n"
    "VP -> V NP 0.6 | V NP PP 0.3 | V 0.1\n"
    "PP -> P NP 1.0\n"
    "Det -> 'the' 0.7 | 'a' 0.3\n"
    "N -> 'man' 0.4 | 'telescope' 0.3 | 'park' 0.3\n"
    "V -> 'saw' 0.7 | 'walked' 0.3\n"
    "P -> 'with' 0.6 | 'in' 0.4\n";

class ParseTraceTest : public ::testing::TestWithParam<bool> {};

TEST_P(ParseTraceTest, ReplayReproducesEveryStepForwardAndBackward) {
  const Grammar grammar = testing::grammarFromText(kGrammar);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  EarleyParser parser(*compiled);
  const auto words = tokenize("i saw the man with the telescope");

  ParseTrace trace;
  ParseOptions options;
  options.lookahead = GetParam();
  options.observer = &trace;
  EarleyChart chart;
  const ParseResult traced = parser.parse(words, options, chart);
  trace.finish(chart);
  options.observer = nullptr;
  const ParseResult plain = parser.parse(words, options);
  EXPECT_EQ(traced.logProbability, plain.logProbability);
  EXPECT_EQ(traced.viterbiTree.toPtb(), plain.viterbiTree.toPtb());
  ASSERT_GT(trace.stepCount(), 30u);
  EXPECT_EQ(trace.events().front().kind, OperationKind::Init);

  // After the last step, the replayed chart is the parser's chart.
  const std::size_t last = trace.stepCount() - 1;
  std::size_t items = 0;
  for (std::size_t r = 0; r < chart.setCount(); ++r) {
    ASSERT_EQ(trace.visibleItems(r, last), chart.set(r).size());
    for (std::size_t k = 0; k < chart.set(r).size(); ++k) {
      const ItemRef ref{static_cast<std::int32_t>(r), static_cast<std::int32_t>(k)};
      const auto state = trace.stateAt(ref, last);
      ASSERT_TRUE(state);
      EXPECT_EQ(state->forward, chart.item(ref).forward);
      EXPECT_EQ(state->inner, chart.item(ref).inner);
      EXPECT_EQ(state->viterbi, chart.item(ref).viterbi);
      ++items;
    }
  }
  EXPECT_EQ(items, traced.items);

  // Each step: the item did not exist before its creating step; an update starts from the
  // state the replay shows one step earlier; a step never touches a set other than its own.
  int updates = 0;
  for (std::size_t step = 1; step < trace.stepCount(); ++step) {
    const ParseEvent& e = trace.events()[step];
    const auto before = trace.stateAt(e.item, step - 1);
    const auto after = trace.stateAt(e.item, step);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->forward, e.forwardAfter);
    if (e.created) {
      EXPECT_FALSE(before) << step;
      EXPECT_EQ(trace.creationStep(e.item), step);
    } else {
      ++updates;
      ASSERT_TRUE(before) << step;
      EXPECT_EQ(before->forward, e.forwardBefore);
      EXPECT_EQ(before->inner, e.innerBefore);
      EXPECT_EQ(before->viterbi, e.viterbiBefore);
    }
    EXPECT_GE(trace.setOfStep(step), trace.setOfStep(step - 1));
  }
  EXPECT_GE(updates, 0);
  EXPECT_EQ(trace.firstStepOfSet(0), 0u);
  const std::size_t firstScan = trace.nextStepOfKind(0, OperationKind::Scan);
  EXPECT_EQ(trace.setOfStep(firstScan), 1u);
}

// Two constituents reaching one item through unit chains: the second completion updates the
// item the first one created, and the event shows the values before and after.
TEST(ParseTraceUpdateTest, AnUpdateShowsTheValuesBeforeAndAfter) {
  const Grammar grammar =
      testing::grammarFromText("S -> X 1.0\nX -> A 0.5 | B 0.5\nA -> 'w' 1.0\nB -> 'w' 1.0\n");
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  ParseTrace trace;
  ParseOptions options;
  options.mode = NumericMode::Log;
  options.observer = &trace;
  EarleyChart chart;
  const ParseResult result = EarleyParser(*compiled).parse({"w"}, options, chart);
  trace.finish(chart);
  EXPECT_NEAR(result.logProbability, 0.0, 1e-15);
  std::vector<ParseEvent> updates;
  for (const ParseEvent& e : trace.events())
    if (e.kind == OperationKind::Complete && !e.created) updates.push_back(e);
  ASSERT_EQ(updates.size(), 1u);
  EXPECT_NEAR(updates[0].innerBefore, std::log(0.5), 1e-15);
  EXPECT_NEAR(updates[0].innerAfter, 0.0, 1e-15);
  EXPECT_EQ(chart.itemText(updates[0].item), "[0, 1] GOAL -> S .");
}

// stepsOf lists exactly the events whose item is the given one, in order; a predict event names
// the predicted nonterminal (the item's LHS).
TEST(ParseTraceStepsTest, StepsOfListsEveryEventOfAnItem) {
  const Grammar grammar = testing::grammarFromText(kGrammar);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  ParseTrace trace;
  ParseOptions options;
  options.observer = &trace;
  EarleyChart chart;
  EarleyParser(*compiled).parse(tokenize("i saw the man with the telescope"), options, chart);
  trace.finish(chart);
  std::size_t listed = 0;
  for (std::size_t r = 0; r < chart.setCount(); ++r) {
    for (std::size_t k = 0; k < chart.set(r).size(); ++k) {
      const ItemRef ref{static_cast<std::int32_t>(r), static_cast<std::int32_t>(k)};
      const std::vector<std::size_t>& steps = trace.stepsOf(ref);
      ASSERT_FALSE(steps.empty());
      EXPECT_EQ(steps.front(), trace.creationStep(ref));
      for (std::size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(trace.events()[steps[i]].item, ref);
        if (i > 0) {
          EXPECT_LT(steps[i - 1], steps[i]);
        }
      }
      listed += steps.size();
    }
  }
  EXPECT_EQ(listed, trace.stepCount());
  for (const ParseEvent& e : trace.events()) {
    if (e.kind != OperationKind::Predict) continue;
    EXPECT_EQ(e.predictedFrom, compiled->rule(chart.item(e.item).rule).lhs);
  }
}

// An observer that asks to stop after set 3: the parse ends there, reports it was cancelled,
// and claims no parse.
class StopAfter : public ParseTrace {
 public:
  explicit StopAfter(int position) : position_(position) {}
  void onSetFinished(int position, const EarleyChart& chart) override {
    ParseTrace::onSetFinished(position, chart);
    last_ = position;
  }
  bool stopRequested() const override { return last_ >= position_; }
  int last() const { return last_; }

 private:
  int position_;
  int last_ = 0;
};

TEST(ParseTraceStopTest, AnObserverCanStopTheParse) {
  const Grammar grammar = testing::grammarFromText(kGrammar);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  StopAfter observer(3);
  ParseOptions options;
  options.observer = &observer;
  EarleyChart chart;
  const ParseResult result =
      EarleyParser(*compiled).parse(tokenize("i saw the man with the telescope"), options, chart);
  observer.finish(chart);
  EXPECT_TRUE(result.cancelled);
  EXPECT_FALSE(result.success);
  EXPECT_EQ(observer.last(), 3);
  EXPECT_TRUE(chart.set(4).empty());
  EXPECT_FALSE(chart.set(3).empty());
  EXPECT_TRUE(std::isfinite(result.logPrefixProbability[3]));
  EXPECT_EQ(observer.visibleItems(4, observer.stepCount() - 1), 0u);

  options.observer = nullptr;
  EXPECT_FALSE(EarleyParser(*compiled).parse(tokenize("i saw john"), options).cancelled);
}

INSTANTIATE_TEST_SUITE_P(WithAndWithoutLookahead, ParseTraceTest, ::testing::Bool());

}  // namespace
}  // namespace gwb
