// Tests of the brute-force oracle itself (tests/support/brute_force_oracle.h) against values
// worked out by hand. Every value test runs twice: with states merged (the default) and as the
// literal one-state-per-derivation enumeration; the two must agree with the hand values.
#include "brute_force_oracle.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace {

using gwb::Grammar;
using gwb::RuleId;
using gwb::testing::bruteForceParse;
using gwb::testing::grammarFromText;
using gwb::testing::OracleOptions;
using gwb::testing::OracleResult;
using gwb::testing::splitWords;
using gwb::testing::treeFromDerivation;

constexpr double kTol = 1e-12;

// The id of the rule whose text (Grammar::ruleText, e.g. "S -> 'a' S") is `text`.
RuleId ruleId(const Grammar& grammar, const std::string& text) {
  for (std::size_t i = 0; i < grammar.ruleCount(); ++i) {
    const auto id = static_cast<RuleId>(i);
    if (grammar.ruleText(id) == text) return id;
  }
  ADD_FAILURE() << "no rule " << text;
  return 0;
}

double expectedCount(const OracleResult& result, const Grammar& grammar, const std::string& rule) {
  return result.expectedRuleCounts.at(static_cast<std::size_t>(ruleId(grammar, rule)));
}

void expectVector(const std::vector<double>& actual, const std::vector<double>& expected,
                  const char* what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], kTol) << what << "[" << i << "]";
}

class OracleTest : public ::testing::TestWithParam<bool> {
 protected:
  OracleResult parse(const Grammar& grammar, std::string_view sentence) const {
    OracleOptions options;
    options.mergeEquivalentStates = GetParam();
    OracleResult result = bruteForceParse(grammar, splitWords(sentence), options);
    EXPECT_TRUE(result.converged) << "sentence: " << sentence;
    EXPECT_LT(result.unexploredMass, 1e-13) << "sentence: " << sentence;
    return result;
  }
};

INSTANTIATE_TEST_SUITE_P(Modes, OracleTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? std::string("Merged") : std::string("Enumerated");
                         });

// S -> a S 0.4 | b 0.6: P(a^k b) = 0.4^k·0.6, P(yield starts with a^k) = 0.4^k.
TEST_P(OracleTest, GeometricGrammar) {
  const Grammar g = grammarFromText("S -> 'a' S 0.4 | 'b' 0.6");

  const OracleResult aab = parse(g, "a a b");
  expectVector(aab.prefixProbability, {1.0, 0.4, 0.16, 0.096}, "prefix");
  expectVector(aab.stringProbability, {0.0, 0.0, 0.0, 0.096}, "string");
  EXPECT_NEAR(aab.viterbiProbability, 0.096, kTol);
  EXPECT_EQ(aab.viterbiTree, "(S a (S a (S b)))");
  EXPECT_TRUE(aab.viterbiExact);
  EXPECT_EQ(aab.viterbiTiedTrees.size(), 1u);
  EXPECT_NEAR(expectedCount(aab, g, "S -> 'a' S"), 2.0, kTol);
  EXPECT_NEAR(expectedCount(aab, g, "S -> 'b'"), 1.0, kTol);
  EXPECT_NEAR(aab.terminationProbability.at(static_cast<std::size_t>(*g.start())), 1.0, kTol);

  const OracleResult aaaa = parse(g, "a a a a");
  expectVector(aaaa.prefixProbability, {1.0, 0.4, 0.16, 0.064, 0.0256}, "prefix");
  expectVector(aaaa.stringProbability, {0.0, 0.0, 0.0, 0.0, 0.0}, "string");
  EXPECT_EQ(aaaa.viterbiProbability, 0.0);
  EXPECT_EQ(aaaa.viterbiTree, "");
  EXPECT_TRUE(aaaa.viterbiTiedTrees.empty());
  for (double c : aaaa.expectedRuleCounts) EXPECT_EQ(c, 0.0);

  const OracleResult ba = parse(g, "b a");
  expectVector(ba.prefixProbability, {1.0, 0.6, 0.0}, "prefix");
  expectVector(ba.stringProbability, {0.0, 0.6, 0.0}, "string");

  const OracleResult empty = parse(g, "");
  expectVector(empty.prefixProbability, {1.0}, "prefix");
  expectVector(empty.stringProbability, {0.0}, "string");
}

// A -> B 0.5 | x 0.5, B -> A 0.3 | y 0.7. Going round the cycle A -> B -> A costs 0.15, so
// P(x) = Σ_k 0.15^k·0.5 = 0.5/0.85 = 10/17 and P(y) = Σ_k 0.15^k·0.5·0.7 = 7/17. The number k of
// round trips is geometric with E[k] = 0.15/0.85 = 3/17; "y" uses A -> B once more.
TEST_P(OracleTest, UnitCycle) {
  const Grammar g = grammarFromText(
      "A -> B 0.5 | 'x' 0.5\n"
      "B -> A 0.3 | 'y' 0.7\n");

  const OracleResult x = parse(g, "x");
  expectVector(x.prefixProbability, {1.0, 10.0 / 17.0}, "prefix");
  expectVector(x.stringProbability, {0.0, 10.0 / 17.0}, "string");
  EXPECT_NEAR(x.viterbiProbability, 0.5, kTol);
  EXPECT_EQ(x.viterbiTree, "(A x)");
  EXPECT_NEAR(expectedCount(x, g, "A -> B"), 3.0 / 17.0, kTol);
  EXPECT_NEAR(expectedCount(x, g, "B -> A"), 3.0 / 17.0, kTol);
  EXPECT_NEAR(expectedCount(x, g, "A -> 'x'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(x, g, "B -> 'y'"), 0.0, kTol);

  const OracleResult y = parse(g, "y");
  expectVector(y.prefixProbability, {1.0, 7.0 / 17.0}, "prefix");
  expectVector(y.stringProbability, {0.0, 7.0 / 17.0}, "string");
  EXPECT_NEAR(y.viterbiProbability, 0.35, kTol);
  EXPECT_EQ(y.viterbiTree, "(A (B y))");
  EXPECT_NEAR(expectedCount(y, g, "A -> B"), 20.0 / 17.0, kTol);
  EXPECT_NEAR(expectedCount(y, g, "B -> A"), 3.0 / 17.0, kTol);
  EXPECT_NEAR(expectedCount(y, g, "B -> 'y'"), 1.0, kTol);

  const OracleResult xy = parse(g, "x y");
  expectVector(xy.prefixProbability, {1.0, 10.0 / 17.0, 0.0}, "prefix");
  expectVector(xy.stringProbability, {0.0, 10.0 / 17.0, 0.0}, "string");
}

// S -> a S b 0.3 | ε 0.7: the language a^k b^k with P = 0.3^k·0.7.
TEST_P(OracleTest, EpsilonRuleNested) {
  const Grammar g = grammarFromText("S -> 'a' S 'b' 0.3 | ε 0.7");

  const OracleResult ab = parse(g, "a b");
  // Starts with a: every k ≥ 1 (0.3); starts with "a b": only k = 1 (0.21).
  expectVector(ab.prefixProbability, {1.0, 0.3, 0.21}, "prefix");
  expectVector(ab.stringProbability, {0.7, 0.0, 0.21}, "string");
  EXPECT_NEAR(ab.viterbiProbability, 0.21, kTol);
  EXPECT_EQ(ab.viterbiTree, "(S a (S) b)");
  EXPECT_NEAR(expectedCount(ab, g, "S -> 'a' S 'b'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(ab, g, "S -> ε"), 1.0, kTol);

  const OracleResult empty = parse(g, "");
  expectVector(empty.stringProbability, {0.7}, "string");
  EXPECT_EQ(empty.viterbiTree, "(S)");
}

// S -> A A c, A -> a 0.4 | ε 0.6. Yields: "c" 0.36, "a c" 2·0.24 (two tied trees), "a a c" 0.16.
TEST_P(OracleTest, EpsilonRulesWithTiedTrees) {
  const Grammar g = grammarFromText(
      "S -> A A 'c' 1.0\n"
      "A -> 'a' 0.4 | 0.6   # the second alternative is A -> ε\n");

  const OracleResult ac = parse(g, "a c");
  expectVector(ac.prefixProbability, {1.0, 0.64, 0.48}, "prefix");
  expectVector(ac.stringProbability, {0.0, 0.0, 0.48}, "string");
  EXPECT_NEAR(ac.viterbiProbability, 0.24, kTol);
  // Tie-break: leftmost derivations [S, A -> a, A -> ε] < [S, A -> ε, A -> a] by rule id.
  ASSERT_EQ(ac.viterbiTiedTrees.size(), 2u);
  EXPECT_EQ(ac.viterbiTree, "(S (A a) (A) c)");
  EXPECT_EQ(ac.viterbiTiedTrees[1], "(S (A) (A a) c)");
  EXPECT_EQ(ac.viterbiRules, (std::vector<RuleId>{ruleId(g, "S -> A A 'c'"), ruleId(g, "A -> 'a'"),
                                                  ruleId(g, "A -> ε")}));
  EXPECT_NEAR(expectedCount(ac, g, "S -> A A 'c'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(ac, g, "A -> 'a'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(ac, g, "A -> ε"), 1.0, kTol);

  const OracleResult c = parse(g, "c");
  expectVector(c.prefixProbability, {1.0, 0.36}, "prefix");
  expectVector(c.stringProbability, {0.0, 0.36}, "string");
  EXPECT_EQ(c.viterbiTree, "(S (A) (A) c)");
  EXPECT_NEAR(expectedCount(c, g, "A -> ε"), 2.0, kTol);
}

// A -> A a 0.3 | a 0.7: a^k has the single derivation of probability 0.7·0.3^(k-1), and
// P(yield starts with a^i) = Σ_{k≥i} 0.7·0.3^(k-1) = 0.3^(i-1) for i ≥ 1.
TEST_P(OracleTest, LeftRecursion) {
  const Grammar g = grammarFromText("A -> A 'a' 0.3 | 'a' 0.7");

  const OracleResult aaa = parse(g, "a a a");
  expectVector(aaa.prefixProbability, {1.0, 1.0, 0.3, 0.09}, "prefix");
  expectVector(aaa.stringProbability, {0.0, 0.7, 0.21, 0.063}, "string");
  EXPECT_NEAR(aaa.viterbiProbability, 0.063, kTol);
  EXPECT_EQ(aaa.viterbiTree, "(A (A (A a) a) a)");
  EXPECT_NEAR(expectedCount(aaa, g, "A -> A 'a'"), 2.0, kTol);
  EXPECT_NEAR(expectedCount(aaa, g, "A -> 'a'"), 1.0, kTol);
}

// "I saw the man with the telescope": NP attachment 0.3·0.7·0.2·(0.5·0.6)·(0.5·0.4) = 0.00252,
// VP attachment 0.3·0.3·0.7·(0.5·0.6)·(0.5·0.4) = 0.00378; posteriors 0.4 and 0.6.
// Prefixes: the subject is exactly I with 0.3 (an NP starting with I: 0.3/0.8 = 0.375); an NP
// starts with "the" with 0.5/0.8 = 0.625 and with "the man" with 0.375. After "I saw the man",
// "with" follows if the object NP has a PP (Σ_{k≥1} 0.2^k·0.3 = 0.075) or it is exactly "the man"
// (0.3) under at least one VP -> VP PP (0.3): 0.3·(0.075 + 0.09) = 0.0495.
TEST_P(OracleTest, PpAttachment) {
  const Grammar g = grammarFromText(
      "S -> NP VP 1.0\n"
      "NP -> NP PP 0.2 | Det N 0.5 | 'I' 0.3\n"
      "VP -> V NP 0.7 | VP PP 0.3\n"
      "PP -> P NP 1.0\n"
      "Det -> 'the' 1.0\n"
      "N -> 'man' 0.6 | 'telescope' 0.4\n"
      "V -> 'saw' 1.0\n"
      "P -> 'with' 1.0\n");

  const OracleResult r = parse(g, "I saw the man with the telescope");
  expectVector(r.prefixProbability,
               {1.0, 0.375, 0.3, 0.1875, 0.1125, 0.0495, 0.0495 * 0.625, 0.0495 * 0.25}, "prefix");
  expectVector(r.stringProbability, {0.0, 0.0, 0.0, 0.0, 0.063, 0.0, 0.0, 0.0063}, "string");
  EXPECT_NEAR(r.viterbiProbability, 0.00378, kTol);
  EXPECT_EQ(r.viterbiTree,
            "(S (NP I) (VP (VP (V saw) (NP (Det the) (N man))) "
            "(PP (P with) (NP (Det the) (N telescope)))))");
  EXPECT_TRUE(r.viterbiExact);
  EXPECT_EQ(r.viterbiTiedTrees.size(), 1u);
  EXPECT_EQ(treeFromDerivation(g, r.viterbiRules), r.viterbiTree);

  EXPECT_NEAR(expectedCount(r, g, "S -> NP VP"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "NP -> NP PP"), 0.4, kTol);
  EXPECT_NEAR(expectedCount(r, g, "NP -> Det N"), 2.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "NP -> 'I'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "VP -> V NP"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "VP -> VP PP"), 0.6, kTol);
  EXPECT_NEAR(expectedCount(r, g, "PP -> P NP"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "Det -> 'the'"), 2.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "N -> 'man'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "N -> 'telescope'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "V -> 'saw'"), 1.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "P -> 'with'"), 1.0, kTol);
  // Consistent grammar: the Z-free partial-derivation sums are the prefix probabilities.
  expectVector(r.prefixDerivationMass, r.prefixProbability, "prefixDerivationMass");

  // The NP-attachment tree is the runner-up: 0.4 of the mass.
  const OracleResult np = parse(g, "I saw the man");
  EXPECT_NEAR(np.stringProbability.back(), 0.063, kTol);
  EXPECT_EQ(np.viterbiTree, "(S (NP I) (VP (V saw) (NP (Det the) (N man))))");
}

// S -> S S 0.6 | a 0.4 is inconsistent: Z = 0.4 + 0.6·Z² has least root 2/3, so only 2/3 of the
// mass is on finite derivations. P(a) = 0.4, P(aa) = 0.6·0.4² = 0.096, P(aaa) = 2·0.6²·0.4³.
TEST(BruteForceOracle, InconsistentGrammarUsesTerminationProbability) {
  const Grammar g = grammarFromText("S -> S S 0.6 | 'a' 0.4");
  const double p3 = 2 * 0.36 * 0.064;
  const OracleResult r = bruteForceParse(g, splitWords("a a a"));
  EXPECT_TRUE(r.converged);
  EXPECT_LT(r.unexploredMass, 1e-13);
  EXPECT_NEAR(r.terminationProbability.at(static_cast<std::size_t>(*g.start())), 2.0 / 3.0, kTol);
  // Every yield is a^k, so P(starts with a^i) = 2/3 - Σ_{k<i} P(a^k).
  expectVector(r.prefixProbability,
               {2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0 - 0.4, 2.0 / 3.0 - 0.4 - 0.096}, "prefix");
  expectVector(r.stringProbability, {0.0, 0.4, 0.096, p3}, "string");
  EXPECT_NEAR(r.viterbiProbability, p3 / 2, kTol);
  ASSERT_EQ(r.viterbiTiedTrees.size(), 2u);
  EXPECT_EQ(r.viterbiTree, "(S (S (S a) (S a)) (S a))");
  EXPECT_EQ(r.viterbiTiedTrees[1], "(S (S a) (S (S a) (S a)))");
  EXPECT_NEAR(expectedCount(r, g, "S -> S S"), 2.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "S -> 'a'"), 3.0, kTol);
  // The partial derivations S =>*L a ν have total probability Σ_k 0.6^k·0.4 = 1 > 2/3 (only
  // approximately reached: the search is steered by Z-weighted mass, see the header).
  EXPECT_NEAR(r.prefixDerivationMass[0], 1.0, kTol);
  EXPECT_NEAR(r.prefixDerivationMass[1], 1.0, 1e-6);
}

// S -> S S 0.5 | a 0.5 is critical: consistent (Z = 1) but Z is a double root, so the fixed
// point is only found to ~1e-10 and reported as not converged; the Z-free prefix sums are exact.
TEST(BruteForceOracle, CriticalGrammar) {
  const Grammar g = grammarFromText("S -> S S 0.5 | 'a' 0.5");
  const OracleResult r = bruteForceParse(g, splitWords("a a a"));
  EXPECT_FALSE(r.terminationConverged);
  EXPECT_FALSE(r.converged);
  EXPECT_LT(r.unexploredMass, 1e-13);
  EXPECT_NEAR(r.terminationProbability.at(static_cast<std::size_t>(*g.start())), 1.0, 1e-8);
  expectVector(r.prefixDerivationMass, {1.0, 1.0, 0.5, 0.375}, "prefixDerivationMass");
  for (std::size_t i = 0; i < r.prefixProbability.size(); ++i)
    EXPECT_NEAR(r.prefixProbability[i], r.prefixDerivationMass[i], 1e-8);
  expectVector(r.stringProbability, {0.0, 0.5, 0.125, 0.0625}, "string");
}

// A -> A A 0.2 | ε 0.5 | a 0.3: ε-rules inside a binary cycle (merged mode only: plain
// enumeration of the ε-subtrees does not converge in reasonable time). With E = P(A =>* ε) =
// (1 - √0.6)/0.4 (least root of E = 0.5 + 0.2E²): P(a) = 0.3 + 0.4·E·P(a) = 0.3/√0.6, and the
// expected number of A -> A A nodes (each adds one ε leaf) works out to exactly 1/3.
TEST(BruteForceOracle, EpsilonInsideBinaryCycle) {
  const Grammar g = grammarFromText("A -> A A 0.2 | ε 0.5 | 'a' 0.3");
  const OracleResult r = bruteForceParse(g, splitWords("a"));
  EXPECT_TRUE(r.converged);
  EXPECT_LT(r.unexploredMass, 1e-13);
  const double e = (1 - std::sqrt(0.6)) / 0.4;
  expectVector(r.prefixProbability, {1.0, 1.0 - e}, "prefix");  // every yield is a^k
  expectVector(r.stringProbability, {e, 0.3 / std::sqrt(0.6)}, "string");
  EXPECT_NEAR(r.viterbiProbability, 0.3, kTol);
  EXPECT_EQ(r.viterbiTree, "(A a)");
  EXPECT_NEAR(expectedCount(r, g, "A -> A A"), 1.0 / 3.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "A -> ε"), 1.0 / 3.0, kTol);
  EXPECT_NEAR(expectedCount(r, g, "A -> 'a'"), 1.0, kTol);
}

// X never terminates (X -> X b only), so S -> X carries no finite mass: Z(S) = 0.5.
TEST_P(OracleTest, UnproductiveNonterminal) {
  const Grammar g = grammarFromText(
      "S -> 'a' 0.5 | X 0.5\n"
      "X -> X 'b' 1.0\n");
  const OracleResult r = parse(g, "a");
  expectVector(r.prefixProbability, {0.5, 0.5}, "prefix");
  expectVector(r.stringProbability, {0.0, 0.5}, "string");
  EXPECT_EQ(
      r.terminationProbability.at(static_cast<std::size_t>(*g.symbols().findNonterminal("X"))),
      0.0);
}

// Fragment and multi-terminal rules: S -> a B c, B -> b b 0.5 | ε 0.5.
TEST_P(OracleTest, MixedRightHandSides) {
  const Grammar g = grammarFromText(
      "S -> 'a' B 'c' 1.0\n"
      "B -> 'b' 'b' 0.5 | ε 0.5\n");
  const OracleResult r = parse(g, "a b b c");
  expectVector(r.prefixProbability, {1.0, 1.0, 0.5, 0.5, 0.5}, "prefix");
  expectVector(r.stringProbability, {0.0, 0.0, 0.0, 0.0, 0.5}, "string");
  EXPECT_EQ(r.viterbiTree, "(S a (B b b) c)");
}

TEST_P(OracleTest, UnknownWordMatchesNothing) {
  const Grammar g = grammarFromText("S -> 'a' S 0.4 | 'b' 0.6");
  const OracleResult r = parse(g, "a zebra b");
  expectVector(r.prefixProbability, {1.0, 0.4, 0.0, 0.0}, "prefix");
  expectVector(r.stringProbability, {0.0, 0.0, 0.0, 0.0}, "string");
}

// Both modes must agree on grammars too tangled to work out by hand: left recursion over a
// nullable symbol, left recursion through a unit cycle, coordination ambiguity.
TEST(BruteForceOracle, MergedAndEnumeratedModesAgree) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"S -> S C 'a' 0.3 | 'b' 0.7\nC -> ε 0.6 | 'c' 0.4", "b a c a"},
      {"S -> T 'x' 0.3 | 'y' 0.7\nT -> S 0.6 | 'y' 'x' 0.2 | 0.2", "y x x"},
      {"S -> NP VP 1.0\nNP -> NP 'and' NP 0.2 | 'dogs' 0.8\nVP -> 'bark' 0.6 | VP 'and' VP 0.4",
       "dogs and dogs bark"},
  };
  for (const auto& [text, sentence] : cases) {
    SCOPED_TRACE(text + " / " + sentence);
    const Grammar g = grammarFromText(text);
    OracleOptions merged;
    OracleOptions enumerated;
    enumerated.mergeEquivalentStates = false;
    const OracleResult a = bruteForceParse(g, splitWords(sentence), merged);
    const OracleResult b = bruteForceParse(g, splitWords(sentence), enumerated);
    ASSERT_TRUE(a.converged);
    ASSERT_TRUE(b.converged);
    expectVector(a.prefixProbability, b.prefixProbability, "prefix");
    expectVector(a.stringProbability, b.stringProbability, "string");
    expectVector(a.expectedRuleCounts, b.expectedRuleCounts, "counts");
    EXPECT_GT(a.stringProbability.back(), 0.0);
    EXPECT_NEAR(a.viterbiProbability, b.viterbiProbability, kTol);
    EXPECT_EQ(a.viterbiTree, b.viterbiTree);
    EXPECT_EQ(a.viterbiTiedTrees, b.viterbiTiedTrees);
    EXPECT_LE(a.expansions, b.expansions);
  }
}

// Stopped early, the values are lower bounds within unexploredMass of the truth.
TEST(BruteForceOracle, ExpansionCapReportsTheBound) {
  const Grammar g = grammarFromText("A -> A 'a' 0.3 | 'a' 0.7");
  OracleOptions options;
  options.maxExpansions = 5;
  const OracleResult r = bruteForceParse(g, splitWords("a a a"), options);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.expansions, 5);
  EXPECT_GT(r.unexploredMass, 1e-6);
  const std::vector<double> truePrefix = {1.0, 1.0, 0.3, 0.09};
  const std::vector<double> trueString = {0.0, 0.7, 0.21, 0.063};
  for (std::size_t i = 0; i < truePrefix.size(); ++i) {
    EXPECT_LE(r.prefixProbability[i], truePrefix[i] + kTol);
    EXPECT_GE(r.prefixProbability[i] + r.unexploredMass, truePrefix[i] - kTol);
    EXPECT_LE(r.stringProbability[i], trueString[i] + kTol);
    EXPECT_GE(r.stringProbability[i] + r.unexploredMass, trueString[i] - kTol);
  }
}

TEST(BruteForceOracle, GrammarFromText) {
  const Grammar g = grammarFromText(
      "# a comment line\n"
      "\n"
      "S -> NP VP 0.9 | \"it's\" 0.1\n"
      "NP -> 'the' N 0.5|N 0.25 | ε 0.25  # trailing comment\n"
      "N -> 'a\\'b' 1\n");
  ASSERT_TRUE(g.start().has_value());
  EXPECT_EQ(g.symbols().name(*g.start()), "S");
  ASSERT_EQ(g.ruleCount(), 6u);
  EXPECT_EQ(g.ruleText(0), "S -> NP VP");
  EXPECT_EQ(g.rule(0).probability, 0.9);
  EXPECT_EQ(g.rule(0).sourceLine, 3);
  EXPECT_EQ(g.ruleText(1), "S -> 'it\\'s'");
  EXPECT_EQ(g.ruleText(2), "NP -> 'the' N");
  EXPECT_EQ(g.ruleText(3), "NP -> N");
  EXPECT_EQ(g.ruleText(4), "NP -> ε");
  EXPECT_TRUE(g.rule(4).rhs.empty());
  EXPECT_EQ(g.ruleText(5), "N -> 'a\\'b'");
  EXPECT_TRUE(g.symbols().findTerminal("a'b").has_value());

  EXPECT_THROW(grammarFromText("S NP 1.0"), std::invalid_argument);
  EXPECT_THROW(grammarFromText("S -> NP"), std::invalid_argument);
  EXPECT_THROW(grammarFromText("S -> 'a 1.0"), std::invalid_argument);
  EXPECT_THROW(grammarFromText("S -> 'a' 0.5 | 'a' 0.5"), std::invalid_argument);
  EXPECT_THROW(grammarFromText("S -> A ε 1.0"), std::invalid_argument);
  try {
    grammarFromText("S -> 'a' 1.0\nS -> 'b'\n");
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("line 2:", 0), 0u) << e.what();
  }
}

TEST(BruteForceOracle, TreeFromDerivationRejectsBadDerivations) {
  const Grammar g = grammarFromText("S -> A 'c' 1.0\nA -> 'a' 1.0");
  EXPECT_EQ(treeFromDerivation(g, {0, 1}), "(S (A a) c)");
  EXPECT_THROW(treeFromDerivation(g, {0}), std::invalid_argument);        // incomplete
  EXPECT_THROW(treeFromDerivation(g, {1}), std::invalid_argument);        // wrong LHS
  EXPECT_THROW(treeFromDerivation(g, {0, 1, 1}), std::invalid_argument);  // too many rules
}

TEST(BruteForceOracle, RejectsBadGrammars) {
  Grammar noStart = grammarFromText("S -> 'a' 1.0");
  noStart.clearStart();
  EXPECT_THROW(bruteForceParse(noStart, splitWords("a")), std::invalid_argument);
  // Z = 0.6 + 0.6·Z² has no real root: the mass diverges.
  EXPECT_THROW(bruteForceParse(grammarFromText("S -> S S 0.6 | 'a' 0.6"), splitWords("a")),
               std::invalid_argument);
  EXPECT_THROW(bruteForceParse(grammarFromText("S -> 'a' -0.5"), splitWords("a")),
               std::invalid_argument);
}

}  // namespace
