// Interned symbols: dense ids in order of first appearance, two name spaces, lookups that
// survive the index growing (tens of thousands of words) and copying.
#include "gwb/common/symbol_table.h"

#include <string>

#include <gtest/gtest.h>

namespace gwb {
namespace {

TEST(SymbolTableTest, TwoNameSpacesOneDenseIdSpace) {
  SymbolTable symbols;
  EXPECT_FALSE(symbols.findTerminal("the"));
  const SymbolId the = symbols.intern("the", SymbolKind::Terminal);
  const SymbolId theNt = symbols.intern("the", SymbolKind::Nonterminal);
  EXPECT_EQ(the, 0);
  EXPECT_EQ(theNt, 1);
  EXPECT_EQ(symbols.intern("the", SymbolKind::Terminal), the);
  EXPECT_EQ(symbols.findTerminal("the"), the);
  EXPECT_EQ(symbols.findNonterminal("the"), theNt);
  EXPECT_TRUE(symbols.isTerminal(the));
  EXPECT_TRUE(symbols.isNonterminal(theNt));
  EXPECT_FALSE(symbols.findNonterminal("The"));
  EXPECT_EQ(symbols.intern("", SymbolKind::Terminal), 2);  // the empty name is a name too
  EXPECT_EQ(symbols.findTerminal(""), 2);
  EXPECT_FALSE(symbols.findNonterminal(""));
  EXPECT_EQ(symbols.size(), 3u);
  EXPECT_EQ(symbols.terminalCount(), 2u);
  EXPECT_EQ(symbols.nonterminalCount(), 1u);
}

TEST(SymbolTableTest, ManyNamesShortAndLongSurviveGrowthAndCopies) {
  SymbolTable symbols;
  const auto nameOf = [](int k) {
    // Short names (in-place strings) and long ones sharing long prefixes.
    return k % 3 == 0 ? "w" + std::to_string(k)
                      : "a-rather-long-shared-prefix-for-collisions-" + std::to_string(k);
  };
  constexpr int kCount = 20000;
  for (int k = 0; k < kCount; ++k) {
    const SymbolKind kind = k % 2 == 0 ? SymbolKind::Terminal : SymbolKind::Nonterminal;
    ASSERT_EQ(symbols.intern(nameOf(k), kind), k);
  }
  const SymbolTable copy = symbols;
  for (const SymbolTable* table : {static_cast<const SymbolTable*>(&symbols), &copy}) {
    for (int k = 0; k < kCount; ++k) {
      const std::string name = nameOf(k);
      const bool terminal = k % 2 == 0;
      ASSERT_EQ(terminal ? table->findTerminal(name) : table->findNonterminal(name), k) << name;
      ASSERT_FALSE(terminal ? table->findNonterminal(name) : table->findTerminal(name)) << name;
      ASSERT_EQ(table->name(k), name);
    }
    EXPECT_FALSE(table->findTerminal("w-1"));
    EXPECT_EQ(table->terminalCount(), kCount / 2u);
    EXPECT_EQ(table->nonterminalCount(), kCount / 2u);
  }
}

TEST(SymbolTableTest, AMovedFromTableIsEmptyAndUsable) {
  SymbolTable symbols;
  symbols.intern("dog", SymbolKind::Terminal);
  symbols.intern("NP", SymbolKind::Nonterminal);
  SymbolTable moved = std::move(symbols);
  EXPECT_EQ(moved.findTerminal("dog"), 0);
  // NOLINTNEXTLINE(bugprone-use-after-move): a moved-from table must still be usable
  EXPECT_FALSE(symbols.findTerminal("dog"));
  EXPECT_EQ(symbols.terminalCount(), 0u);
  EXPECT_EQ(symbols.nonterminalCount(), 0u);
  EXPECT_EQ(symbols.size(), 0u);
  EXPECT_EQ(symbols.intern("cat", SymbolKind::Terminal), 0);
  EXPECT_EQ(symbols.findTerminal("cat"), 0);
}

}  // namespace
}  // namespace gwb
