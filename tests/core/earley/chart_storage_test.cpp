// Chart memory: ChartStorage hands out stable, correctly filled memory across blocks and reuses
// it after rewind(); a chart parsed into again, a copied chart, and parses following each other
// on one thread (which share the per-symbol scratch arrays) give bit-for-bit the results and
// items of a first parse into a new chart on a new thread. AppendBuffer (the open set's waiting
// list) keeps its elements in order through growth, resize, swap and clear.
#include "gwb/earley/chart_storage.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/earley/earley_chart.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/tokenize.h"
#include "test_grammars.h"

namespace gwb {
namespace {

TEST(ChartStorageTest, StoresValuesAcrossBlocksAndReusesThemAfterRewind) {
  ChartStorage storage;
  std::vector<const int*> stored;
  std::vector<std::vector<int>> expected;
  // Sizes from one value to ~12 MB: small blocks, a huge-page-sized block, requests larger
  // than the block the growth rule would pick.
  for (std::size_t size : {1u, 7u, 1000u, 20000u, 3000000u, 5u, 600000u}) {
    std::vector<int> values(size);
    for (std::size_t k = 0; k < size; ++k) values[k] = static_cast<int>(k * 2654435761u);
    stored.push_back(storage.store(values));
    expected.push_back(std::move(values));
  }
  EXPECT_EQ(storage.store(std::vector<int>{}), nullptr);
  for (std::size_t i = 0; i < stored.size(); ++i) {
    ASSERT_NE(stored[i], nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(stored[i]) % alignof(int), 0u);
    EXPECT_EQ(std::memcmp(stored[i], expected[i].data(), expected[i].size() * sizeof(int)), 0)
        << "block " << i;
  }
  const std::size_t mapped = storage.capacityBytes();
  EXPECT_GE(mapped, storage.usedBytes());
  storage.rewind();
  EXPECT_EQ(storage.usedBytes(), 0u);
  for (const auto& values : expected) storage.store(values);
  EXPECT_EQ(storage.capacityBytes(), mapped) << "the same requests again need no new memory";

  ChartStorage moved(std::move(storage));
  EXPECT_EQ(moved.capacityBytes(), mapped);
  EXPECT_EQ(storage.capacityBytes(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
}

// Arrays handed out in place (completion's records): constructed by default, aligned, and left
// where they are while later arrays take new blocks.
struct TestRecord {
  double value = 1.5;
  std::int32_t index = -1;
};

// NOLINTBEGIN(cppcoreguidelines-pro-bounds-pointer-arithmetic): arrays handed out as pointers
// True when array `a` of `count` records holds a's numbers (and marks them when `mark`).
bool checkRecords(TestRecord* array, std::size_t count, std::size_t a, bool mark) {
  for (std::size_t k = 0; k < count; ++k) {
    const auto expected = static_cast<std::int32_t>(a * 1000000 + k);
    if (mark) {
      if (array[k].value != 1.5 || array[k].index != -1) return false;
      array[k].index = expected;
    } else if (array[k].index != expected) {
      return false;
    }
  }
  return true;
}
// NOLINTEND(cppcoreguidelines-pro-bounds-pointer-arithmetic)

TEST(ChartStorageTest, AllocatesArraysThatStayWhereTheyAre) {
  ChartStorage storage("test records");
  EXPECT_EQ(storage.allocateArray<TestRecord>(0), nullptr);
  std::vector<std::pair<TestRecord*, std::size_t>> arrays;
  for (const std::size_t count : {3U, 5000U, 200000U, 1U, 700000U}) {
    auto* const array = storage.allocateArray<TestRecord>(count);
    ASSERT_NE(array, nullptr);
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): an address's alignment
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(array) % alignof(TestRecord), 0U);
    EXPECT_TRUE(checkRecords(array, count, arrays.size(), true)) << "constructed by default";
    arrays.emplace_back(array, count);
  }
  for (std::size_t a = 0; a < arrays.size(); ++a)
    EXPECT_TRUE(checkRecords(arrays[a].first, arrays[a].second, a, false)) << "array " << a;
}

// The open region (a set's items built in place): it grows within its block, moves to a new
// block with its contents when the block runs out, and once closed keeps exactly its bytes, with
// the next values stored right after them and nothing stored before it disturbed.
TEST(ChartStorageTest, OpenRegionGrowsMovesAndClosesToItsContents) {
  ChartStorage storage;
  const std::vector<int> before(100, 7);
  const int* const stored = storage.store(before);
  std::size_t room = 0;
  auto* region = static_cast<int*>(storage.openRegion(16 * sizeof(int), alignof(int), &room));
  ASSERT_NE(region, nullptr);
  EXPECT_GE(room, 16 * sizeof(int));
  EXPECT_EQ(static_cast<const void*>(region), static_cast<const void*>(stored + before.size()))
      << "the region starts where the stored values end";
  // Fill it past several blocks' worth (the first block is 64 KiB): it must move and keep its
  // values each time.
  std::size_t used = 0;
  std::size_t capacity = room / sizeof(int);
  int moves = 0;
  for (std::size_t k = 0; k < 200000; ++k) {
    if (used == capacity) {
      int* const moved = static_cast<int*>(
          storage.growRegion(region, used * sizeof(int), used * sizeof(int), alignof(int), &room));
      if (moved != region) ++moves;
      region = moved;
      capacity = room / sizeof(int);
      ASSERT_GE(capacity, 2 * used);
    }
    region[used++] = static_cast<int>(k * 2654435761U);
  }
  EXPECT_GE(moves, 1);
  for (std::size_t k = 0; k < used; ++k)
    ASSERT_EQ(region[k], static_cast<int>(k * 2654435761U)) << "value " << k;
  storage.closeRegion(region, used * sizeof(int));
  const std::vector<int> after{1, 2, 3};
  const int* const next = storage.store(after);
  EXPECT_EQ(next, region + used) << "the next values follow the closed region's";
  EXPECT_EQ(std::memcmp(next, after.data(), sizeof(int) * after.size()), 0);
  EXPECT_EQ(std::memcmp(stored, before.data(), sizeof(int) * before.size()), 0);
  for (std::size_t k = 0; k < used; ++k)
    ASSERT_EQ(region[k], static_cast<int>(k * 2654435761U)) << "value " << k;
  EXPECT_LE(storage.usedBytes(), storage.capacityBytes());
  EXPECT_GE(storage.usedBytes(), (before.size() + used + after.size()) * sizeof(int));
}

const char* const kGrammar = testing::kPpAttachmentGrammar;

// The PP-attachment grammar, compiled (the compiled grammar points into `grammar`: not movable).
struct PpGrammar {
  PpGrammar() {
    Diagnostics diagnostics;
    compiled = CompiledGrammar::compile(grammar, diagnostics);
  }
  PpGrammar(const PpGrammar&) = delete;
  PpGrammar& operator=(const PpGrammar&) = delete;
  PpGrammar(PpGrammar&&) = delete;
  PpGrammar& operator=(PpGrammar&&) = delete;
  ~PpGrammar() = default;
  const Grammar grammar = testing::grammarFromText(kGrammar);
  std::optional<CompiledGrammar> compiled;
};

void expectSameItems(const EarleyChart& actual, const EarleyChart& expected) {
  ASSERT_EQ(actual.setCount(), expected.setCount());
  for (std::size_t r = 0; r < expected.setCount(); ++r) {
    ASSERT_EQ(actual.set(r).size(), expected.set(r).size()) << "set " << r;
    for (std::size_t k = 0; k < expected.set(r).size(); ++k) {
      const EarleyItem& a = actual.set(r)[k];
      const EarleyItem& e = expected.set(r)[k];
      EXPECT_EQ(a.rule, e.rule);
      EXPECT_EQ(a.dot, e.dot);
      EXPECT_EQ(a.origin, e.origin);
      EXPECT_EQ(a.forward, e.forward);
      EXPECT_EQ(a.inner, e.inner);
      EXPECT_EQ(a.viterbi, e.viterbi);
      EXPECT_EQ(a.bestPredecessor, e.bestPredecessor);
      EXPECT_EQ(a.bestChild, e.bestChild);
    }
  }
}

void expectSameResult(const ParseResult& actual, const ParseResult& expected) {
  EXPECT_EQ(actual.success, expected.success);
  EXPECT_EQ(actual.items, expected.items);
  EXPECT_EQ(actual.logProbability, expected.logProbability);
  EXPECT_EQ(actual.viterbiLogProbability, expected.viterbiLogProbability);
  EXPECT_EQ(actual.logPrefixProbability, expected.logPrefixProbability);
}

using Pairs = AppendBuffer<std::pair<int, int>>;

// 1,000 pairs (k, -k): past the first room (64) and several doublings.
Pairs thousandPairs() {
  Pairs buffer;
  for (int k = 0; k < 1000; ++k) buffer.push_back({k, -k});
  return buffer;
}

TEST(AppendBufferTest, KeepsItsElementsInOrderThroughGrowth) {
  EXPECT_TRUE(Pairs().empty());
  const Pairs buffer = thousandPairs();
  ASSERT_EQ(buffer.size(), 1000U);
  EXPECT_EQ(buffer.end() - buffer.begin(), 1000);
  for (int k = 0; k < 1000; ++k)
    EXPECT_EQ(buffer[static_cast<std::size_t>(k)], std::make_pair(k, -k));
}

TEST(AppendBufferTest, ResizeKeepsTheFrontAndMakesRoomToWrite) {
  Pairs buffer = thousandPairs();
  buffer.resize(10);
  buffer.resize(5000);
  ASSERT_EQ(buffer.size(), 5000U);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(buffer[static_cast<std::size_t>(k)].first, k);
  buffer[4999] = {7, 7};
  EXPECT_EQ(buffer[4999], std::make_pair(7, 7));
}

TEST(AppendBufferTest, SwapsClearsAndCopiesDeeply) {
  Pairs buffer = thousandPairs();
  Pairs other;
  other.push_back({42, 43});
  buffer.swap(other);
  ASSERT_EQ(buffer.size(), 1U);
  EXPECT_EQ(buffer[0], std::make_pair(42, 43));
  ASSERT_EQ(other.size(), 1000U);
  EXPECT_EQ(other[3].second, -3);
  // Cleared, it is empty and takes new elements from the front.
  other.clear();
  EXPECT_TRUE(other.empty());
  other.push_back({1, 2});
  Pairs copy = other;
  copy.push_back({3, 4});
  copy[0] = {9, 9};
  ASSERT_EQ(other.size(), 1U);
  EXPECT_EQ(*other.begin(), std::make_pair(1, 2));
}

TEST(ChartReuseTest, ParsesIntoAReusedChartAndOnABusyThreadMatchAFirstParse) {
  const PpGrammar pp;
  ASSERT_TRUE(pp.compiled);
  const std::vector<std::vector<std::string>> sentences = {
      tokenize("i saw the man with the telescope"), tokenize("john walked"),
      tokenize("the man saw john in the park with a telescope"), tokenize("i saw the man saw")};

  for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
    ParseOptions options;
    options.mode = mode;
    // References: each sentence parsed first thing on a thread of its own, into a new chart.
    std::vector<ParseResult> references(sentences.size());
    std::vector<EarleyChart> referenceCharts(sentences.size());
    for (std::size_t i = 0; i < sentences.size(); ++i) {
      std::thread([&, i] {
        references[i] = EarleyParser(*pp.compiled).parse(sentences[i], options, referenceCharts[i]);
      }).join();
    }
    // The same sentences, one chart for all, on this thread after parses in the other mode.
    ParseOptions other = options;
    other.mode = mode == NumericMode::Log ? NumericMode::Scaled : NumericMode::Log;
    EarleyParser(*pp.compiled).parse(sentences[2], other);
    EarleyChart chart;
    for (std::size_t i = 0; i < sentences.size(); ++i) {
      SCOPED_TRACE(std::string(numericModeName(mode)) + " sentence " + std::to_string(i));
      const ParseResult result = EarleyParser(*pp.compiled).parse(sentences[i], options, chart);
      expectSameResult(result, references[i]);
      expectSameItems(chart, referenceCharts[i]);
      // A copy is deep: it keeps its items after the original is parsed into again.
      const EarleyChart copy = chart;
      EarleyParser(*pp.compiled).parse(sentences[(i + 1) % sentences.size()], options, chart);
      expectSameItems(copy, referenceCharts[i]);
      EXPECT_EQ(copy.itemCount(), references[i].items);
    }
  }
}

// Completion's working memory stays with the chart: parsing the same sentence into it again maps
// nothing new; a copy starts without it; released, the next parse maps it again and gives the
// same results.
TEST(ChartReuseTest, TheChartKeepsCompletionsWorkingMemoryUntilReleased) {
  const PpGrammar pp;
  ASSERT_TRUE(pp.compiled);
  const auto words = tokenize("the man saw john in the park with a telescope");
  EarleyChart chart;
  EXPECT_EQ(chart.workingBytes(), 0U);
  const ParseResult first = EarleyParser(*pp.compiled).parse(words, {}, chart);
  ASSERT_TRUE(first.success);
  const std::size_t working = chart.workingBytes();
  EXPECT_GT(working, 0U) << "completion made records";
  const EarleyChart copy = chart;
  EXPECT_EQ(copy.workingBytes(), 0U);
  expectSameResult(EarleyParser(*pp.compiled).parse(words, {}, chart), first);
  EXPECT_EQ(chart.workingBytes(), working);
  chart.releaseWorkingMemory();
  EXPECT_EQ(chart.workingBytes(), 0U);
  expectSameItems(chart, copy);  // the items stay
  expectSameResult(EarleyParser(*pp.compiled).parse(words, {}, chart), first);
  EXPECT_EQ(chart.workingBytes(), working);
}

// Expected counts parse into the thread's kept chart: after other sentences, in the other mode,
// on the same thread, a sentence's counts are bit for bit those of a first call on a new thread.
TEST(ChartReuseTest, ExpectedCountsOnABusyThreadMatchAFirstCall) {
  const PpGrammar pp;
  ASSERT_TRUE(pp.compiled);
  const auto words = tokenize("i saw the man with the telescope");
  for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
    ParseOptions options;
    options.mode = mode;
    std::vector<double> reference(pp.grammar.ruleCount(), 0.0);
    std::thread([&] {
      EarleyParser(*pp.compiled).parseWithCounts(words, options, reference);
    }).join();
    ParseOptions other = options;
    other.mode = mode == NumericMode::Log ? NumericMode::Scaled : NumericMode::Log;
    std::vector<double> scratch(pp.grammar.ruleCount(), 0.0);
    EarleyParser(*pp.compiled)
        .parseWithCounts(tokenize("the man saw john in the park with a telescope"), other, scratch);
    EarleyParser(*pp.compiled).parseWithCounts(tokenize("john walked"), options, scratch);
    std::vector<double> counts(pp.grammar.ruleCount(), 0.0);
    EarleyParser(*pp.compiled).parseWithCounts(words, options, counts);
    EXPECT_EQ(counts, reference) << numericModeName(mode);
  }
}

// A parse stopped by its observer leaves the thread's scratch arrays clean for the next one.
class StopAfterFirstWord : public ParseObserver {
 public:
  void onEvent(const ParseEvent& /*event*/, const EarleyChart& /*chart*/) override {}
  void onSetFinished(int position, const EarleyChart& /*chart*/) override { stop_ = position >= 1; }
  bool stopRequested() const override { return stop_; }

 private:
  bool stop_ = false;
};

TEST(ChartReuseTest, ACancelledParseDoesNotDisturbTheNext) {
  const PpGrammar pp;
  ASSERT_TRUE(pp.compiled);
  const auto words = tokenize("the man saw john in the park");
  ParseResult reference;
  std::thread([&] { reference = EarleyParser(*pp.compiled).parse(words); }).join();

  StopAfterFirstWord stopper;
  ParseOptions stopping;
  stopping.observer = &stopper;
  EXPECT_TRUE(EarleyParser(*pp.compiled).parse(words, stopping).cancelled);
  expectSameResult(EarleyParser(*pp.compiled).parse(words), reference);
}

}  // namespace
}  // namespace gwb
