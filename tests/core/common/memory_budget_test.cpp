#include "gwb/common/memory_budget.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"

namespace gwb {
namespace {

// Sets a budget for one test and restores "no limit" afterwards.
class BudgetScope {
 public:
  explicit BudgetScope(std::uint64_t bytes) { setMemoryBudget(bytes); }
  ~BudgetScope() { setMemoryBudget(0); }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;
};

TEST(MemoryBudgetTest, ParsesSizes) {
  const struct {
    const char* text;
    std::optional<std::uint64_t> bytes;
  } cases[] = {
      {"1048576", 1048576},
      {"0", 0},
      {"512M", 512ULL << 20},
      {"512m", 512ULL << 20},
      {"4G", 4ULL << 30},
      {"4GB", 4ULL << 30},
      {"4GiB", 4ULL << 30},
      {"1.5G", 3ULL << 29},
      {"2T", 2ULL << 40},
      {"64K", 64ULL << 10},
      {"100B", 100},
      {"", std::nullopt},
      {"G", std::nullopt},
      {"-1G", std::nullopt},
      {"4X", std::nullopt},
      {"4 G", std::nullopt},
      {"1.2.3M", std::nullopt},
      {"99999999999T", std::nullopt},
  };
  for (const auto& c : cases) {
    std::string error;
    EXPECT_EQ(parseByteSize(c.text, &error), c.bytes) << c.text;
    if (!c.bytes) {
      EXPECT_NE(error.find("expected a size such as 512M"), std::string::npos);
    }
  }
}

TEST(MemoryBudgetTest, FormatsSizes) {
  const struct {
    std::uint64_t bytes;
    const char* text;
  } cases[] = {{312, "312 bytes"},
               {1024, "1 KiB"},
               {512ULL << 20, "512 MiB"},
               {3ULL << 29, "1.5 GiB"},
               {4ULL << 40, "4 TiB"}};
  for (const auto& c : cases) EXPECT_EQ(formatBytes(c.bytes), c.text);
}

TEST(MemoryBudgetTest, DefaultIsAShareOfPhysicalMemory) {
  const std::uint64_t physical = physicalMemoryBytes();
  ASSERT_GT(physical, 0u);
  EXPECT_GT(defaultMemoryBudget(), 0u);
  EXPECT_LE(defaultMemoryBudget(), physical);
}

TEST(MemoryBudgetTest, ReservingOverTheBudgetThrowsWithTheContext) {
  const BudgetScope budget(1000);
  reserveMemory(600, "the first thing");
  EXPECT_EQ(reservedMemory(), 600u);
  try {
    const MemoryContext outer("parsing line 3 of in.txt");
    const MemoryContext inner("a sentence of 812 words");
    reserveMemory(600, "the Earley chart");
    FAIL() << "no exception";
  } catch (const MemoryBudgetExceeded& e) {
    EXPECT_STREQ(e.what(),
                 "out of memory while parsing line 3 of in.txt, a sentence of 812 words: the "
                 "Earley chart would need 1.2 KiB, over the memory budget of 1000 bytes");
  }
  EXPECT_EQ(reservedMemory(), 600u);  // the failed reservation took nothing
  releaseMemory(600);
  EXPECT_EQ(reservedMemory(), 0u);
}

// A plain std::bad_alloc carries no context of its own: the message names the contexts that
// the exception unwound through.
TEST(MemoryBudgetTest, APlainAllocationFailureIsDescribedByTheContextItLeft) {
  try {
    const MemoryContext outer("reading the grammar big.grammar");
    throw std::bad_alloc();
  } catch (const std::bad_alloc& e) {
    EXPECT_EQ(outOfMemoryMessage(e),
              "out of memory while reading the grammar big.grammar (std::bad_alloc)");
  }
  EXPECT_EQ(currentMemoryContext(), "");
}

// The chart of S -> S S | a over 200 words holds Θ(n²) items, several MiB: a 1 MiB budget stops
// it with MemoryBudgetExceeded instead of letting it grow, and the reservation is returned.
TEST(MemoryBudgetTest, AnEarleyChartOverBudgetStopsWithAClearError) {
  const Grammar grammar = testing::grammarFromText("S -> S S 0.4 | 'a' 0.6\n");
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const std::vector<std::string> words(200, "a");
  {
    const BudgetScope budget(1 << 20);
    try {
      EarleyParser(*compiled).parse(words);
      FAIL() << "no exception";
    } catch (const MemoryBudgetExceeded& e) {
      EXPECT_NE(std::string(e.what()).find("the Earley chart would need"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("over the memory budget of 1 MiB"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(reservedMemory(), 0u);
  }
  // Within budget the same parse succeeds.
  EXPECT_TRUE(EarleyParser(*compiled).parse(words).success);
  EXPECT_EQ(reservedMemory(), 0u);
}

// A sentence too long for its chart's state sets is refused before anything is allocated.
TEST(MemoryBudgetTest, AnOversizedSentenceIsRefusedUpFront) {
  const Grammar grammar = testing::grammarFromText("S -> 'a' 1.0\n");
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const std::vector<std::string> words(100000, "b");
  const BudgetScope budget(64 << 10);
  try {
    EarleyParser(*compiled).parse(words);
    FAIL() << "no exception";
  } catch (const MemoryBudgetExceeded& e) {
    EXPECT_NE(std::string(e.what()).find("the Earley chart of 100000 words would need"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gwb
