// The compiled grammar: closures, ε-removal weights, look-ahead sets, divergence errors,
// unknown-word signatures.
#include "gwb/compiled_grammar.h"

#include <cmath>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"

namespace gwb {
namespace {

std::optional<CompiledGrammar> compile(const Grammar& grammar, Diagnostics& diagnostics) {
  return CompiledGrammar::compile(grammar, diagnostics, "g");
}

double leftCorner(const CompiledGrammar& cg, const std::string& from, const std::string& to) {
  const SymbolId z = *cg.symbols().findNonterminal(from);
  const SymbolId y = *cg.symbols().findNonterminal(to);
  for (const ClosureEntry& e : cg.leftCorner(z))
    if (e.symbol == y) return e.value;
  return 0.0;
}

TEST(CompiledGrammarTest, LeftCornerClosureSumsTheGeometricSeries) {
  // L -> L 'x' 0.4 | 'x' 0.6: R_L(L, L) = 1 / (1 - 0.4); S -> L: R_L(S, L) = 0.5 / 0.6.
  const Grammar g = testing::grammarFromText(
      "S -> L 0.5 | A 0.5\nL -> L 'x' 0.4 | 'x' 0.6\n"
      "A -> B 0.3 | 'a' 0.7\nB -> A 0.4 | 'b' 0.6\n");
  Diagnostics d;
  const auto cg = compile(g, d);
  ASSERT_TRUE(cg);
  EXPECT_NEAR(leftCorner(*cg, "L", "L"), 1 / 0.6, 1e-15);
  EXPECT_NEAR(leftCorner(*cg, "S", "L"), 0.5 / 0.6, 1e-15);
  // A <-> B unit cycle: R(A, A) = 1 / (1 - 0.12), R(A, B) = 0.3 / 0.88, R(S, B) = 0.5 * 0.3 / 0.88.
  EXPECT_NEAR(leftCorner(*cg, "A", "A"), 1 / 0.88, 1e-15);
  EXPECT_NEAR(leftCorner(*cg, "A", "B"), 0.3 / 0.88, 1e-15);
  EXPECT_NEAR(leftCorner(*cg, "S", "B"), 0.15 / 0.88, 1e-15);
  EXPECT_EQ(leftCorner(*cg, "L", "S"), 0.0);
  // The best unit chain from S to B is S -> A -> B.
  const auto chain =
      cg->bestUnitChain(*cg->symbols().findNonterminal("S"), *cg->symbols().findNonterminal("B"));
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(cg->ruleText(chain[0]), "S -> A");
  EXPECT_EQ(cg->ruleText(chain[1]), "A -> B");
}

TEST(CompiledGrammarTest, DivergentClosuresAreClearErrors) {
  for (const char* text :
       {"S -> S S 1.0 | 'a' 0.5\n", "S -> A 1.0\nA -> B 1.0\nB -> A 1.0 | 'b' 0.5\n"}) {
    SCOPED_TRACE(text);
    Diagnostics d;
    EXPECT_FALSE(compile(testing::grammarFromText(text), d));
    ASSERT_TRUE(d.hasErrors());
    EXPECT_NE(d.items()[0].message.find("diverges"), std::string::npos) << d.items()[0].message;
  }
}

TEST(CompiledGrammarTest, EpsilonRemovalKeepsMassAndMarksDroppedSymbols) {
  // Adj -> ε 0.6 | 'big' 0.4: e(Adj) = 0.6; NP -> Det Adj N becomes NP -> Det Adj N (weight
  // 1 · 0.4 / 1) and NP -> Det Adj:ε N (weight 0.6).
  const Grammar g = testing::grammarFromText(
      "NP -> Det Adj N 1.0\nDet -> 'the' 1.0\nAdj -> 0.6 | 'big' 0.4\nN -> 'dog' 1.0\n");
  Diagnostics d;
  const auto cg = compile(g, d);
  ASSERT_TRUE(cg);
  EXPECT_TRUE(cg->hasEpsilonRules());
  EXPECT_NEAR(cg->nullProbability(*g.symbols().findNonterminal("Adj")), 0.6, 1e-15);
  std::map<std::string, double> weights;
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(cg->rules().size()); ++id)
    weights[cg->ruleText(id)] = cg->rule(id).probability;
  EXPECT_NEAR(weights.at("NP -> Det Adj N"), 0.4, 1e-15);
  EXPECT_NEAR(weights.at("NP -> Det Adj:ε N"), 0.6, 1e-15);
  EXPECT_EQ(weights.count("Adj -> "), 0u);  // the ε-rule itself is gone
}

TEST(CompiledGrammarTest, FirstAndFollowSets) {
  const Grammar g = testing::grammarFromText(
      "S -> NP VP 1.0\nNP -> 'the' N 1.0\nN -> 'dog' 1.0\nVP -> 'barks' 1.0\n");
  Diagnostics d;
  const auto cg = compile(g, d);
  ASSERT_TRUE(cg);
  const auto nt = [&](const char* n) { return *g.symbols().findNonterminal(n); };
  const auto t = [&](const char* n) { return *g.symbols().findTerminal(n); };
  EXPECT_TRUE(cg->canStartWith(nt("S"), t("the")));
  EXPECT_FALSE(cg->canStartWith(nt("S"), t("dog")));
  EXPECT_TRUE(cg->canBeFollowedBy(nt("NP"), t("barks")));
  EXPECT_TRUE(cg->canBeFollowedBy(nt("N"), t("barks")));
  EXPECT_FALSE(cg->canBeFollowedBy(nt("N"), t("dog")));
  EXPECT_TRUE(cg->canBeFollowedBy(nt("VP"), CompiledGrammar::kEndOfInput));
  EXPECT_FALSE(cg->canBeFollowedBy(nt("NP"), CompiledGrammar::kEndOfInput));
}

TEST(CompiledGrammarTest, UnknownWordSignaturesFollowEarleyx) {
  const struct {
    const char* word;
    const char* signature;
  } cases[] = {{"blue-footed", "UNK-LC-DASHd"},
               {"China-blue", "UNK-INIT-DASHe"},
               {"IBM", "UNK-ALLC"},
               {"1987", "UNK-NUM"},
               {"3rd", "UNK-LC-DIG"},
               {"cat", "UNK-LC"},
               {"Boobies", "UNK-INITs"},
               {"-", "UNK-DASH"}};
  for (const auto& c : cases) EXPECT_EQ(unknownWordSignature(c.word), c.signature) << c.word;
}

}  // namespace
}  // namespace gwb
