// The batch service (batch.h) and parseBatch (batch_parse.h): results in input order, the same
// for 1 and 4 threads bit for bit, progress reported once per item and never concurrently,
// cancellation, and an exception in one item carried back unchanged. Run under ThreadSanitizer
// in CI (labels core and threads). No test depends on timing: the cancel bounds hold however
// the threads are scheduled.
#include "gwb/earley/batch_parse.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/common/batch.h"
#include "gwb/earley/kbest.h"
#include "gwb/earley/tokenize.h"

namespace gwb {
namespace {

// Records what the observer was told, and checks that no two calls overlap.
class RecordingObserver : public BatchObserver {
 public:
  void onItemFinished(std::size_t item, std::size_t finished, std::size_t total) override {
    EXPECT_FALSE(inside_.exchange(true)) << "two progress calls at once";
    items.push_back(item);
    counts.push_back(finished);
    totals.push_back(total);
    if (cancelAfter > 0 && finished == cancelAfter) cancel = true;
    inside_ = false;
  }
  std::vector<std::size_t> items;
  std::vector<std::size_t> counts;
  std::vector<std::size_t> totals;
  std::size_t cancelAfter = 0;
  std::atomic<bool> cancel{false};

 private:
  std::atomic<bool> inside_{false};
};

TEST(BatchTest, EveryItemOnceInItsOwnSlotWithOrderedProgress) {
  for (const int threads : {1, 2, 4, 9}) {
    const std::size_t n = 100;
    std::vector<std::size_t> slot(n, 0);
    std::vector<int> workedOn(n, 0);
    std::atomic<int> workers{0};
    RecordingObserver observer;
    BatchControl control;
    control.threads = threads;
    control.observer = &observer;
    const BatchOutcome outcome = runBatch(n, control, [&]() -> BatchWorker {
      ++workers;
      return [&](std::size_t item) {
        slot[item] = item * item;
        ++workedOn[item];
      };
    });
    EXPECT_EQ(outcome.finished, n) << threads;
    EXPECT_FALSE(outcome.cancelled);
    EXPECT_LE(workers.load(), threads);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(slot[i], i * i);
      EXPECT_EQ(workedOn[i], 1) << i;
    }
    ASSERT_EQ(observer.counts.size(), n);
    std::vector<int> reported(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_EQ(observer.counts[k], k + 1);
      EXPECT_EQ(observer.totals[k], n);
      ++reported[observer.items[k]];
    }
    EXPECT_EQ(reported, std::vector<int>(n, 1));
    if (threads == 1) {  // inline, in input order
      for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(observer.items[k], k);
    }
  }
}

TEST(BatchTest, NothingToDo) {
  BatchControl control;
  control.threads = 4;
  int made = 0;
  const BatchOutcome outcome = runBatch(0, control, [&]() -> BatchWorker {
    ++made;
    return [](std::size_t) {};
  });
  EXPECT_EQ(outcome.finished, 0u);
  EXPECT_FALSE(outcome.cancelled);
  EXPECT_EQ(made, 0);
}

TEST(BatchTest, CancelStopsNewItems) {
  for (const int threads : {1, 4}) {
    const std::size_t n = 1000;
    std::vector<int> workedOn(n, 0);
    RecordingObserver observer;
    observer.cancelAfter = 3;
    BatchControl control;
    control.threads = threads;
    control.observer = &observer;
    control.cancel = &observer.cancel;
    const BatchOutcome outcome = runBatch(
        n, control, [&]() -> BatchWorker { return [&](std::size_t item) { ++workedOn[item]; }; });
    EXPECT_TRUE(outcome.cancelled);
    // Once the flag is up, each other thread finishes at most the item it holds.
    EXPECT_GE(outcome.finished, 3u);
    EXPECT_LE(outcome.finished, 3u + static_cast<std::size_t>(threads - 1)) << threads;
    std::size_t total = 0;
    for (const int w : workedOn) total += static_cast<std::size_t>(w);
    EXPECT_EQ(total, outcome.finished);
    if (threads == 1) {
      EXPECT_EQ(workedOn[0] + workedOn[1] + workedOn[2], 3);
    }
  }
  // Cancelled before it starts: nothing is done.
  std::atomic<bool> cancel{true};
  BatchControl control;
  control.threads = 4;
  control.cancel = &cancel;
  const BatchOutcome outcome =
      runBatch(10, control, []() -> BatchWorker { return [](std::size_t) { FAIL(); }; });
  EXPECT_EQ(outcome.finished, 0u);
  EXPECT_TRUE(outcome.cancelled);
}

TEST(BatchTest, AnItemsExceptionReachesTheCaller) {
  for (const int threads : {1, 4}) {
    std::atomic<std::size_t> after{0};
    BatchControl control;
    control.threads = threads;
    try {
      runBatch(500, control, [&]() -> BatchWorker {
        return [&](std::size_t item) {
          if (item == 7) throw std::runtime_error("item 7 is bad");
          if (item > 7 + static_cast<std::size_t>(threads) * 2) ++after;
        };
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 7 is bad");
    }
    if (threads == 1) {
      EXPECT_EQ(after.load(), 0u);
    }
    // The type is kept: an allocation failure stays a std::bad_alloc.
    EXPECT_THROW(runBatch(20, control,
                          []() -> BatchWorker {
                            return [](std::size_t item) {
                              if (item == 11) throw std::bad_alloc();
                            };
                          }),
                 std::bad_alloc);
  }
}

const char* const kAmbiguous =
    "S -> NP VP 1.0\n"
    "NP -> Det N 0.5 | NP PP 0.2 | 'i' 0.2 | 'john' 0.1\n"
    "VP -> V NP 0.6 | V NP PP 0.3 | V 0.1\n"
    "PP -> P NP 1.0\n"
    "Det -> 'the' 0.7 | 'a' 0.3\n"
    "N -> 'man' 0.4 | 'telescope' 0.3 | 'park' 0.3\n"
    "V -> 'saw' 0.7 | 'walked' 0.3\n"
    "P -> 'with' 0.6 | 'in' 0.4\n";

std::vector<std::vector<std::string>> sentences() {
  const char* const lines[] = {"i saw the man with the telescope",
                               "john saw a man in the park",
                               "i walked",
                               "the man saw",
                               "saw the",  // no parse
                               "",
                               "the man saw john with a telescope in the park",
                               "i saw"};
  std::vector<std::vector<std::string>> out;
  for (int round = 0; round < 5; ++round)
    for (const char* line : lines) out.push_back(tokenize(line));
  return out;
}

bool bitwiseEqual(const ParseResult& a, const ParseResult& b) {
  const auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  const auto sameAll = [&](const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same(x[i], y[i])) return false;
    return true;
  };
  return a.success == b.success && a.cancelled == b.cancelled && a.failedAt == b.failedAt &&
         a.items == b.items && same(a.logProbability, b.logProbability) &&
         same(a.viterbiLogProbability, b.viterbiLogProbability) &&
         sameAll(a.logPrefixProbability, b.logPrefixProbability) &&
         sameAll(a.surprisal, b.surprisal) &&
         sameAll(a.logStringProbability, b.logStringProbability) &&
         a.viterbiTree.toPtb() == b.viterbiTree.toPtb();
}

TEST(BatchParseTest, ResultsInInputOrderAndTheSameForAnyThreadCount) {
  const Grammar grammar = testing::grammarFromText(kAmbiguous);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const auto input = sentences();
  for (const NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
    BatchParseOptions options;
    options.parse.mode = mode;
    options.parse.prefixStringProbabilities = true;
    options.control.threads = 1;
    const BatchParse one = parseBatch(*compiled, input, options);
    options.control.threads = 4;
    const BatchParse four = parseBatch(*compiled, input, options);
    ASSERT_EQ(one.results.size(), input.size());
    ASSERT_EQ(four.results.size(), input.size());
    EXPECT_EQ(one.outcome.finished, input.size());
    EXPECT_EQ(four.outcome.finished, input.size());
    EarleyParser parser(*compiled);
    for (std::size_t i = 0; i < input.size(); ++i) {
      // Sentence i's own parse, in its own slot.
      EXPECT_TRUE(bitwiseEqual(one.results[i], parser.parse(input[i], options.parse))) << i;
      EXPECT_TRUE(bitwiseEqual(one.results[i], four.results[i])) << i;
    }
    EXPECT_FALSE(one.results[4].success);
    EXPECT_FALSE(one.results[0].viterbiTree.empty());
  }
}

TEST(BatchParseTest, TreesOnlyWhenAskedAndTheChartForEachSentence) {
  const Grammar grammar = testing::grammarFromText(kAmbiguous);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const auto input = sentences();
  BatchParseOptions options;
  options.parse.viterbi = false;
  options.control.threads = 3;
  std::vector<std::vector<RankedParse>> kbest(input.size());
  std::mutex mutex;
  std::size_t inspected = 0;
  options.inspectChart = [&](std::size_t item, const ParseResult& result,
                             const EarleyChart& chart) {
    if (result.success) kbest[item] = kBestParses(chart, 2);
    const std::lock_guard<std::mutex> lock(mutex);
    ++inspected;
  };
  const BatchParse batch = parseBatch(*compiled, input, options);
  EXPECT_EQ(inspected, input.size());
  EarleyParser parser(*compiled);
  EarleyChart chart;
  for (std::size_t i = 0; i < input.size(); ++i) {
    EXPECT_TRUE(batch.results[i].viterbiTree.empty()) << i;
    const ParseResult alone = parser.parse(input[i], options.parse, chart);
    const std::vector<RankedParse> expected =
        alone.success ? kBestParses(chart, 2) : std::vector<RankedParse>{};
    ASSERT_EQ(kbest[i].size(), expected.size()) << i;
    for (std::size_t k = 0; k < expected.size(); ++k)
      EXPECT_EQ(kbest[i][k].tree.toPtb(), expected[k].tree.toPtb()) << i;
  }
}

TEST(BatchParseTest, CancelledSentencesAreMarked) {
  const Grammar grammar = testing::grammarFromText(kAmbiguous);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const auto input = sentences();
  RecordingObserver observer;
  observer.cancelAfter = 2;
  BatchParseOptions options;
  options.control.threads = 1;
  options.control.observer = &observer;
  options.control.cancel = &observer.cancel;
  const BatchParse batch = parseBatch(*compiled, input, options);
  EXPECT_TRUE(batch.outcome.cancelled);
  EXPECT_EQ(batch.outcome.finished, 2u);
  EXPECT_TRUE(batch.results[0].success);
  EXPECT_FALSE(batch.results[0].cancelled);
  for (std::size_t i = 2; i < input.size(); ++i) {
    EXPECT_TRUE(batch.results[i].cancelled) << i;
    EXPECT_FALSE(batch.results[i].success) << i;
  }
}

TEST(BatchParseTest, AParseObserverIsRefused) {
  const Grammar grammar = testing::grammarFromText(kAmbiguous);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  struct Silent : ParseObserver {
    void onEvent(const ParseEvent&, const EarleyChart&) override {}
  } silent;
  BatchParseOptions options;
  options.parse.observer = &silent;
  EXPECT_THROW(parseBatch(*compiled, sentences(), options), std::invalid_argument);
}

}  // namespace
}  // namespace gwb
