// Recording a parse and replaying it: every step's state equals what the parser did.
#include "gwb/earley/parse_trace.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/earley/tokenize.h"
#include "test_grammars.h"

namespace gwb {
namespace {

const char* const kGrammar = testing::kPpAttachmentGrammar;

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
  trace.finish(chart, options);
  options.observer = nullptr;
  const ParseResult plain = parser.parse(words, options);
  EXPECT_EQ(traced.logProbability, plain.logProbability);
  EXPECT_EQ(traced.viterbiTree.toPtb(), plain.viterbiTree.toPtb());
  ASSERT_GT(trace.stepCount(), 30u);
  EXPECT_EQ(trace.event(0).kind, OperationKind::Init);

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
    const ParseEvent e = trace.event(step);
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
  trace.finish(chart, options);
  EXPECT_NEAR(result.logProbability, 0.0, 1e-15);
  std::vector<ParseEvent> updates;
  for (std::size_t step = 0; step < trace.stepCount(); ++step) {
    const ParseEvent e = trace.event(step);
    if (e.kind == OperationKind::Complete && !e.created) updates.push_back(e);
  }
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
  trace.finish(chart, options);
  std::size_t listed = 0;
  for (std::size_t r = 0; r < chart.setCount(); ++r) {
    for (std::size_t k = 0; k < chart.set(r).size(); ++k) {
      const ItemRef ref{static_cast<std::int32_t>(r), static_cast<std::int32_t>(k)};
      const std::vector<std::size_t> steps = trace.stepsOf(ref);
      ASSERT_FALSE(steps.empty());
      EXPECT_EQ(steps.front(), trace.creationStep(ref));
      for (std::size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(trace.event(steps[i]).item, ref);
        if (i > 0) {
          EXPECT_LT(steps[i - 1], steps[i]);
        }
      }
      listed += steps.size();
    }
  }
  EXPECT_EQ(listed, trace.stepCount());
  for (std::size_t step = 0; step < trace.stepCount(); ++step) {
    const ParseEvent e = trace.event(step);
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
  observer.finish(chart, options);
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

// Hands every operation both to the trace and to a plain list: the oracle for the replay.
class RecordEverything : public ParseObserver {
 public:
  explicit RecordEverything(ParseTrace& trace) : trace_(trace) {}
  void onEvent(const ParseEvent& event, const EarleyChart& chart) override {
    trace_.onEvent(event, chart);
    events.push_back(event);
  }
  std::vector<ParseEvent> events;

 private:
  ParseTrace& trace_;
};

void expectSameEvent(const ParseEvent& a, const ParseEvent& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.item, b.item);
  EXPECT_EQ(a.predecessor, b.predecessor);
  EXPECT_EQ(a.child, b.child);
  EXPECT_EQ(a.predictedFrom, b.predictedFrom);
  EXPECT_EQ(a.via, b.via);
  EXPECT_EQ(a.created, b.created);
  // Bit for bit: the replay makes the same sums in the same order.
  EXPECT_EQ(a.forwardBefore, b.forwardBefore);
  EXPECT_EQ(a.innerBefore, b.innerBefore);
  EXPECT_EQ(a.viterbiBefore, b.viterbiBefore);
  EXPECT_EQ(a.forwardAfter, b.forwardAfter);
  EXPECT_EQ(a.innerAfter, b.innerAfter);
  EXPECT_EQ(a.viterbiAfter, b.viterbiAfter);
}

struct ReplayCase {
  NumericMode mode;
  bool lookahead;
  const char* sentence;
};

class ParseTraceReplayTest : public ::testing::TestWithParam<ReplayCase> {};

// The trace keeps no operation, yet every one it hands back — each set made again on demand —
// is the operation the parse made: for both numeric modes, with and without look-ahead, for a
// sentence, an unfinished prefix and a sentence that fails at an unknown word.
TEST_P(ParseTraceReplayTest, EveryOperationMadeAgainIsTheParsesOwn) {
  const ReplayCase c = GetParam();
  const Grammar grammar = testing::grammarFromText(kGrammar);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  ParseTrace trace;
  RecordEverything oracle(trace);
  ParseOptions options;
  options.mode = c.mode;
  options.lookahead = c.lookahead;
  options.observer = &oracle;
  EarleyChart chart;
  EarleyParser(*compiled).parse(tokenize(c.sentence), options, chart);
  trace.finish(chart, options);
  ASSERT_EQ(trace.stepCount(), oracle.events.size());
  ASSERT_GT(trace.stepCount(), 5u);
  // Backwards, so that the cache is exercised out of order too.
  for (std::size_t step = trace.stepCount(); step-- > 0;) {
    SCOPED_TRACE(step);
    const ParseEvent& expected = oracle.events[step];
    expectSameEvent(trace.event(step), expected);
    EXPECT_EQ(trace.kindOfStep(step), expected.kind);
    EXPECT_EQ(trace.setOfStep(step), static_cast<std::size_t>(expected.item.set));
    const auto state = trace.stateAt(expected.item, step);
    ASSERT_TRUE(state);
    EXPECT_EQ(state->forward, expected.forwardAfter);
    EXPECT_EQ(state->inner, expected.innerAfter);
    EXPECT_EQ(state->viterbi, expected.viterbiAfter);
    EXPECT_EQ(state->lastStep, step);
  }
  // The breakpoint index answers as a scan of the operations does.
  for (std::size_t r = 0; r < chart.setCount(); ++r) {
    for (const OperationKind kind :
         {OperationKind::Predict, OperationKind::Scan, OperationKind::Complete}) {
      for (SymbolId y = 0; y < static_cast<SymbolId>(compiled->symbolCount()); ++y) {
        bool found = false;
        for (const ParseEvent& e : oracle.events)
          found = found || (static_cast<std::size_t>(e.item.set) == r && e.kind == kind &&
                            compiled->rule(chart.item(e.item).rule).lhs == y);
        EXPECT_EQ(trace.setHasOperation(r, kind, y), found) << r << " " << y;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    ModesAndSentences, ParseTraceReplayTest,
    ::testing::Values(ReplayCase{NumericMode::Scaled, true, "i saw the man with the telescope"},
                      ReplayCase{NumericMode::Log, true, "i saw the man with the telescope"},
                      ReplayCase{NumericMode::Scaled, false, "i saw the man with the telescope"},
                      ReplayCase{NumericMode::Log, false, "john saw a man in the park"},
                      ReplayCase{NumericMode::Scaled, true, "i saw the man with"},
                      ReplayCase{NumericMode::Scaled, false, "i saw the zebra"}));

// Memory, deterministically: a highly ambiguous grammar makes many more operations than items
// (every completion that adds mass is one). The trace keeps a few bytes per item, not per
// operation; a set made again costs at most kDetailBytesPerOperation per operation; and a set
// over the budget is refused with an error instead of being made.
TEST(ParseTraceMemoryTest, BytesPerOperationAreBounded) {
  const Grammar grammar = testing::grammarFromText("S -> S S 0.4 | 'a' 0.6\n");
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  ParseTrace trace;
  ParseOptions options;
  options.observer = &trace;
  EarleyChart chart;
  const std::vector<std::string> words(100, "a");
  const ParseResult result = EarleyParser(*compiled).parse(words, options, chart);
  ASSERT_TRUE(result.success);
  trace.finish(chart, options);
  const std::size_t operations = trace.stepCount();
  ASSERT_GT(operations, 10 * result.items);  // many more operations than items
  // What is kept for the whole parse: under one byte per operation here.
  EXPECT_LT(trace.recordedBytes(), operations);
  EXPECT_LE(trace.recordedBytes(), 8 * result.items + 128 * chart.setCount());

  const std::size_t set = trace.largestSet();
  EXPECT_GE(set, 90u);  // the sets grow with the words before them
  const std::size_t setOperations = trace.operationsOfSet(set);
  EXPECT_LE(trace.detailBytes(set),
            ParseTrace::kDetailBytesPerOperation * setOperations + 4 * (chart.set(set).size() + 1));
  static_cast<void>(trace.event(trace.firstStepOfSet(set)));
  EXPECT_EQ(trace.replays(), 1u);
  EXPECT_LE(trace.cachedBytes(), trace.detailBytes(set));
  static_cast<void>(trace.event(trace.firstStepOfSet(set + 1) - 1));  // the same set: cached
  EXPECT_EQ(trace.replays(), 1u);

  // A budget below the largest set: refused, and said so before anything is made.
  trace.setDetailBudget(trace.detailBytes(set) - 1);
  EXPECT_FALSE(trace.everySetFits());
  EXPECT_FALSE(trace.detailFits(set));
  EXPECT_TRUE(trace.detailFits(1));
  trace.setDetailBudget(trace.detailBytes(1) / 2);
  trace.finish(chart, options);  // empties the cache
  EXPECT_THROW(static_cast<void>(trace.event(trace.stepCount() - 1)), std::length_error);
  EXPECT_EQ(trace.replays(), 1u);
  // Items of earlier sets and the finished chart need no set made again.
  const ItemRef goal{100, 0};
  EXPECT_TRUE(trace.stateAt(goal, trace.stepCount() - 1));
}

}  // namespace
}  // namespace gwb
