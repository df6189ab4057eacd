// The compiled grammar: closures, ε-removal weights, look-ahead sets, divergence errors,
// unknown-word signatures.
#include "gwb/earley/compiled_grammar.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/earley/earley_parser.h"

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

TEST(CompiledGrammarTest, CompletionTargetsNumberTheDottedRulesAfterANonterminalDensely) {
  // Fragment rules mix terminals and nonterminals: only a dot right after a nonterminal (or
  // GOAL) is a place completion reaches, and those are numbered 0..count−1, grouped by that
  // nonterminal (the parser's dense item index is keyed by them). Each dotted rule also knows
  // what advancing it makes (dottedAdvance, read for completion's records).
  const Grammar g = testing::grammarFromText(
      "S -> NP VP 0.6 | VP 0.4\nNP -> 'the' N 0.5 | N 0.5\nVP -> V NP 'x' 0.7 | V 0.3\n"
      "N -> 'dog' 1.0\nV -> 'saw' 1.0\n");
  Diagnostics d;
  const auto cg = compile(g, d);
  ASSERT_TRUE(cg);
  std::vector<std::pair<SymbolId, std::int32_t>> targets;  // (symbol before the dot, number)
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(cg->rules().size()); ++id) {
    const CompiledRule& rule = cg->rule(id);
    EXPECT_EQ(cg->completionTarget(id, 0), -1) << cg->ruleText(id);
    for (std::int32_t dot = 1; dot <= static_cast<std::int32_t>(rule.rhs.size()); ++dot) {
      const SymbolId before = rule.rhs[static_cast<std::size_t>(dot - 1)];
      const bool afterNonterminal = before == cg->goal() || cg->symbols().isNonterminal(before);
      const std::int32_t target = cg->completionTarget(id, dot);
      if (!afterNonterminal) {
        EXPECT_EQ(target, -1) << cg->ruleText(id) << " dot " << dot;
        continue;
      }
      ASSERT_GE(target, 0) << cg->ruleText(id) << " dot " << dot;
      targets.emplace_back(before, target);
    }
    // What advancing (rule, dot) makes, and its dotted rules' numbers.
    for (std::int32_t dot = 0; dot < static_cast<std::int32_t>(rule.rhs.size()); ++dot) {
      EXPECT_EQ(cg->dottedIndex(id, dot),
                cg->rhsOffset(id) + static_cast<std::size_t>(id) + static_cast<std::size_t>(dot));
      const CompiledGrammar::DottedAdvance& advance = cg->dottedAdvance(id, dot);
      EXPECT_EQ(advance.target, cg->completionTarget(id, dot + 1)) << cg->ruleText(id);
      const auto next = static_cast<std::size_t>(dot) + 1;
      if (next < rule.rhs.size()) {
        EXPECT_EQ(advance.after, rule.rhs[next]);
        const bool nonterminal =
            rule.rhs[next] == cg->goal() || cg->symbols().isNonterminal(rule.rhs[next]);
        EXPECT_EQ(advance.kind, nonterminal ? AdvanceKind::Nonterminal : AdvanceKind::Terminal)
            << cg->ruleText(id) << " dot " << dot;
      } else {
        EXPECT_EQ(advance.after, rule.lhs);
        const AdvanceKind finished = rule.lhs == cg->goal() ? AdvanceKind::Goal
                                     : rule.unit            ? AdvanceKind::Unit
                                                            : AdvanceKind::Finished;
        EXPECT_EQ(advance.kind, finished) << cg->ruleText(id);
      }
    }
  }
  // S→NP VP: 2, S→VP: 1, NP→'the' N: 1, NP→N: 1, VP→V NP 'x': 2, VP→V: 1, GOAL→S: 1.
  ASSERT_EQ(targets.size(), 9u);
  EXPECT_EQ(cg->completionTargetCount(), targets.size());
  std::sort(targets.begin(), targets.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  for (std::size_t k = 0; k < targets.size(); ++k) {
    EXPECT_EQ(targets[k].second, static_cast<std::int32_t>(k));  // each number once
    // Grouped: a symbol's targets are consecutive numbers.
    if (k > 0 && targets[k].first != targets[k - 1].first) {
      for (std::size_t j = 0; j < k; ++j) EXPECT_NE(targets[j].first, targets[k].first);
    }
  }
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

// Unit cycles of mass near 1 against their closed forms, to 1e-12 relative. With A -> B a,
// B -> A b: R(A, A) = R(B, B) = 1 / (1 − ab), R(A, B) = a / (1 − ab), R(B, A) = b / (1 − ab);
// 1 − ab is computed in long double from the doubles the grammar holds.
TEST(CompiledGrammarTest, UnitCycleClosuresMatchTheirClosedForms) {
  const struct {
    double a;
    double b;
  } cases[] = {{0.5, 0.999999},
               {0.5, 0.999999999999},
               {1.0, 1.0 - std::ldexp(1.0, -30)},
               {0.999999, 0.999999},
               {0.3, 0.4}};
  for (const auto& c : cases) {
    std::ostringstream text;
    text.precision(17);
    text << "S -> A 1.0\nA -> B " << c.a << " | 'a' " << 1.0 - c.a << "\nB -> A " << c.b
         << " | 'b' " << 1.0 - c.b << "\n";
    SCOPED_TRACE(text.str());
    const Grammar grammar = testing::grammarFromText(text.str());
    Diagnostics d;
    const auto cg = compile(grammar, d);
    ASSERT_TRUE(cg);
    const long double gap = 1.0L - static_cast<long double>(c.a) * static_cast<long double>(c.b);
    const auto relative = [](double value, long double exact) {
      return static_cast<double>(std::abs((static_cast<long double>(value) - exact) / exact));
    };
    EXPECT_LT(relative(leftCorner(*cg, "A", "A"), 1.0L / gap), 1e-12);
    EXPECT_LT(relative(leftCorner(*cg, "B", "B"), 1.0L / gap), 1e-12);
    EXPECT_LT(relative(leftCorner(*cg, "A", "B"), c.a / gap), 1e-12);
    EXPECT_LT(relative(leftCorner(*cg, "B", "A"), c.b / gap), 1e-12);
    EXPECT_LT(relative(leftCorner(*cg, "S", "B"), c.a / gap), 1e-12);
  }
}

// A cycle of unit rules that all have probability 1 never ends: I − P is singular. That is an
// error, not NaN or a hang.
TEST(CompiledGrammarTest, UnitCycleOfProbabilityOneIsAClearError) {
  for (const char* text : {"S -> A 1.0\nA -> B 1.0\nB -> A 1.0\n", "S -> S 1.0\n",
                           "S -> A 1.0 | 'a' 1.0\nA -> B 1.0\nB -> C 1.0\nC -> A 1.0\n"}) {
    SCOPED_TRACE(text);
    Diagnostics d;
    EXPECT_FALSE(compile(testing::grammarFromText(text), d));
    ASSERT_TRUE(d.hasErrors());
    EXPECT_NE(d.items()[0].message.find("singular"), std::string::npos) << d.items()[0].message;
  }
}

// A cycle of mass 1 − 1e-10 is solved accurately, but its value hangs on the last digits of the
// rule probabilities (condition number ~2e10): a warning says so. A well-conditioned one gets
// none.
TEST(CompiledGrammarTest, IllConditionedClosuresAreReported) {
  Diagnostics nearSingular;
  ASSERT_TRUE(compile(
      testing::grammarFromText("S -> A 1.0\nA -> B 1.0\nB -> A 0.9999999999 | 'b' 0.0000000001\n"),
      nearSingular));
  ASSERT_EQ(nearSingular.warningCount(), 1)
      << (nearSingular.empty() ? "" : toString(nearSingular.items()[0]));
  const std::string message = nearSingular.items()[0].message;
  EXPECT_NE(message.find("unit-production closure is ill-conditioned for"), std::string::npos)
      << message;
  EXPECT_NE(message.find("A"), std::string::npos) << message;
  Diagnostics fine;
  ASSERT_TRUE(compile(
      testing::grammarFromText("S -> A 1.0\nA -> B 1.0\nB -> A 0.999 | 'b' 0.001\n"), fine));
  EXPECT_TRUE(fine.empty());
}

// A -> A A p | ε p | 'b' 1 − 2p with p = 1/2 − 1e-10: e(A) = p + p e(A)² has the least root
// (1 − √((1 − 2p)(1 + 2p))) / 2p ≈ 0.99998, and plain iteration contracts by 2p·e ≈ 1 − 2e-5 a
// round: it gave up after 100,000 rounds ("do not converge"). Newton's method gets it to
// rounding level, and the expected rule counts of ε-derivations (linear in e) with it.
TEST(CompiledGrammarTest, NearCriticalEpsilonCycleCompilesWithTheExactValue) {
  for (const double delta : {1e-10, 1e-7, 1e-3, 0.25}) {
    const double p = 0.5 - delta;
    std::ostringstream text;
    text.precision(17);
    text << "S -> A 'a' 1.0\nA -> A A " << p << " | " << p << " | 'b' " << 1.0 - 2.0 * p << "\n";
    SCOPED_TRACE(text.str());
    const Grammar grammar = testing::grammarFromText(text.str());
    Diagnostics d;
    const auto cg = compile(grammar, d);
    ASSERT_TRUE(cg) << (d.empty() ? "" : toString(d.items()[0]));
    EXPECT_EQ(d.warningCount(), 0);
    const long double lp = p;
    const long double root = std::sqrt((1.0L - 2.0L * lp) * (1.0L + 2.0L * lp));
    const long double exact = (1.0L - root) / (2.0L * lp);
    const SymbolId a = *cg->symbols().findNonterminal("A");
    EXPECT_LT(std::abs((cg->nullProbability(a) - exact) / exact), 1e-12L);
    // n(A -> A A) = w / (1 − 2w), n(A -> ε) = (p / e) / (1 − 2w) with w = p·e = (1 − root) / 2.
    const long double w = (1.0L - root) / 2.0L;
    const auto& counts = cg->nullDerivationCounts(a);
    ASSERT_EQ(counts.size(), 2u);
    EXPECT_LT(std::abs((counts[0].second - w / root) / (w / root)), 1e-9L);
    EXPECT_LT(std::abs((counts[1].second - (lp / exact) / root) / ((lp / exact) / root)), 1e-9L);
  }
}

// A critical ε-cycle (e = 1/2 + e²/2: a double root at 1) has infinite expected ε-derivations
// and no well-defined compiled weights: an error saying so, not a hang.
TEST(CompiledGrammarTest, CriticalEpsilonCycleIsAClearError) {
  for (const char* text : {"S -> A 'a' 1.0\nA -> A A 0.5 | 0.5\n", "S -> S S 0.5 | 0.5\n"}) {
    SCOPED_TRACE(text);
    Diagnostics d;
    EXPECT_FALSE(compile(testing::grammarFromText(text), d));
    ASSERT_TRUE(d.hasErrors());
    EXPECT_NE(d.items()[0].message.find("are critical"), std::string::npos) << d.items()[0].message;
  }
}

// ε-mass without a fixed point (e = 0.6 + 0.6 e² has no real root) is an error, not a hang.
TEST(CompiledGrammarTest, DivergentEpsilonMassIsAClearError) {
  Diagnostics d;
  EXPECT_FALSE(compile(testing::grammarFromText("S -> S S 0.6 | 0.6 | 'a' 0.1\n"), d));
  ASSERT_TRUE(d.hasErrors());
  EXPECT_NE(d.items()[0].message.find("deriving ε diverge"), std::string::npos)
      << d.items()[0].message;
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

// Bit for bit: every weight, closure entry, unit chain and look-ahead of `a` equals `b`'s.
void expectSameCompilation(const CompiledGrammar& a, const CompiledGrammar& b) {
  ASSERT_EQ(a.rules().size(), b.rules().size());
  for (std::size_t k = 0; k < a.rules().size(); ++k) {
    const CompiledRule& x = a.rules()[k];
    const CompiledRule& y = b.rules()[k];
    EXPECT_EQ(x.lhs, y.lhs);
    EXPECT_EQ(std::vector<SymbolId>(x.rhs.begin(), x.rhs.end()),
              std::vector<SymbolId>(y.rhs.begin(), y.rhs.end()));
    EXPECT_EQ(x.source, y.source);
    EXPECT_EQ(x.probability, y.probability) << a.ruleText(static_cast<std::int32_t>(k));
    EXPECT_EQ(x.viterbiWeight, y.viterbiWeight);
    EXPECT_EQ(x.logProbability, y.logProbability);
    EXPECT_EQ(x.logViterbiWeight, y.logViterbiWeight);
  }
  ASSERT_EQ(a.symbolCount(), b.symbolCount());
  for (std::size_t z = 0; z < a.symbolCount(); ++z) {
    const auto s = static_cast<SymbolId>(z);
    ASSERT_EQ(a.leftCorner(s).size(), b.leftCorner(s).size());
    for (std::size_t k = 0; k < a.leftCorner(s).size(); ++k) {
      EXPECT_EQ(a.leftCorner(s)[k].symbol, b.leftCorner(s)[k].symbol);
      EXPECT_EQ(a.leftCorner(s)[k].value, b.leftCorner(s)[k].value);
      EXPECT_EQ(a.leftCorner(s)[k].logValue, b.leftCorner(s)[k].logValue);
    }
    ASSERT_EQ(a.unitInto(s).size(), b.unitInto(s).size());
    for (std::size_t k = 0; k < a.unitInto(s).size(); ++k) {
      EXPECT_EQ(a.unitInto(s)[k].from, b.unitInto(s)[k].from);
      EXPECT_EQ(a.unitInto(s)[k].sum, b.unitInto(s)[k].sum);
      EXPECT_EQ(a.unitInto(s)[k].best, b.unitInto(s)[k].best);
      EXPECT_EQ(a.unitInto(s)[k].logSum, b.unitInto(s)[k].logSum);
      EXPECT_EQ(a.unitInto(s)[k].logBest, b.unitInto(s)[k].logBest);
    }
    for (std::size_t t = 0; t < a.symbolCount(); ++t)
      EXPECT_EQ(a.bestUnitChain(s, static_cast<SymbolId>(t)),
                b.bestUnitChain(s, static_cast<SymbolId>(t)));
  }
  EXPECT_EQ(a.unitRules(), b.unitRules());
}

// Left recursion, a unit cycle whose best chain flips with the weights, lexical rules.
constexpr const char* kReweightGrammar =
    "S -> L 0.3 | A 0.3 | A L 0.4\nL -> L 'x' 0.4 | 'x' 0.6\n"
    "A -> B 0.3 | 'a' 0.2 | C 0.5\nB -> A 0.4 | 'b' 0.6\nC -> B 0.9 | 'c' 0.1\n";

// New probabilities for every rule, renormalised per left-hand side.
void drawProbabilities(Grammar& g, std::mt19937_64& random) {
  for (SymbolId lhs : g.lhsSymbols()) {
    double sum = 0.0;
    for (RuleId id : g.rulesWithLhs(lhs)) {
      g.setProbability(id, 0.05 + static_cast<double>(random() % 1000) / 1000.0);
      sum += g.rule(id).probability;
    }
    for (RuleId id : g.rulesWithLhs(lhs)) g.setProbability(id, g.rule(id).probability / sum);
  }
}

TEST(CompiledGrammarTest, ReweightEqualsAFreshCompileBitForBit) {
  Grammar g = testing::grammarFromText(kReweightGrammar);
  Diagnostics d;
  auto reweighted = compile(g, d);
  ASSERT_TRUE(reweighted);
  std::mt19937_64 random(7);
  const std::vector<std::string> words = {"a", "x", "x"};
  for (int round = 0; round < 20; ++round) {
    SCOPED_TRACE(round);
    drawProbabilities(g, random);
    ASSERT_TRUE(reweighted->reweight(g));
    const auto fresh = compile(g, d);
    ASSERT_TRUE(fresh);
    expectSameCompilation(*reweighted, *fresh);
    // And parses agree, inside and Viterbi.
    ParseOptions options;
    options.viterbi = true;
    const ParseResult x = EarleyParser(*reweighted).parse(words, options);
    const ParseResult y = EarleyParser(*fresh).parse(words, options);
    ASSERT_TRUE(x.success && y.success);
    EXPECT_EQ(x.logProbability, y.logProbability);
    EXPECT_EQ(x.viterbiLogProbability, y.viterbiLogProbability);
  }
}

TEST(CompiledGrammarTest, ReweightRefusesChangedRulesAndEpsilonGrammars) {
  Grammar g = testing::grammarFromText(kReweightGrammar);
  Diagnostics d;
  auto cg = compile(g, d);
  ASSERT_TRUE(cg);
  const double before = cg->rule(0).probability;
  // A rule dies (probability 0): the compiled rules change, so it refuses and changes nothing.
  g.setProbability(0, 0.0);
  EXPECT_FALSE(cg->reweight(g));
  EXPECT_EQ(cg->rule(0).probability, before);
  // Compiled with the rule dead, it refuses the rule coming back.
  auto withoutRule = compile(g, d);
  ASSERT_TRUE(withoutRule);
  EXPECT_TRUE(withoutRule->reweight(g));
  g.setProbability(0, 0.25);
  EXPECT_FALSE(withoutRule->reweight(g));
  // A rule added (even with probability 0: it may be an unknown-word rule).
  EXPECT_TRUE(cg->reweight(g));
  Rule extra;
  extra.lhs = *g.symbols().findNonterminal("A");
  extra.rhs = {g.symbols().intern("a", SymbolKind::Terminal)};
  extra.rhs.push_back(extra.rhs[0]);
  extra.probability = 0.0;
  g.addRule(extra);
  EXPECT_FALSE(cg->reweight(g));
  // Another grammar object, even an equal one: only the grammar compiled from is accepted.
  const Grammar same = testing::grammarFromText(kReweightGrammar);
  auto fresh = compile(same, d);
  ASSERT_TRUE(fresh);
  EXPECT_FALSE(fresh->reweight(testing::grammarFromText(kReweightGrammar)));
  EXPECT_TRUE(fresh->reweight(same));
  // ε-rules fold probabilities into compiled rules: always compiled afresh.
  const Grammar epsilon = testing::grammarFromText("S -> A 'b' 1.0\nA -> 'a' 0.6 | 0.4\n");
  auto withEpsilon = compile(epsilon, d);
  ASSERT_TRUE(withEpsilon);
  EXPECT_FALSE(withEpsilon->reweight(epsilon));
  EXPECT_FALSE(d.hasErrors());
}

TEST(CompiledGrammarTest, ReweightReportsAClosureThatNowDiverges) {
  Grammar g = testing::grammarFromText("S -> A 1.0\nA -> B 0.5 | 'a' 0.5\nB -> A 0.5 | 'b' 0.5\n");
  Diagnostics d;
  auto cg = compile(g, d);
  ASSERT_TRUE(cg);
  // A <-> B with mass 1 each way: I − P_U is singular.
  g.setProbability(1, 1.0);
  g.setProbability(2, 1e-300);
  g.setProbability(3, 1.0);
  g.setProbability(4, 1e-300);
  EXPECT_FALSE(cg->reweight(g));
  Diagnostics fresh;
  EXPECT_FALSE(compile(g, fresh));
  EXPECT_TRUE(fresh.hasErrors());
}

// Right-hand sides are views into the compiled grammar's own storage: a copy must view its
// own, a move keeps the storage (and the views) valid.
TEST(CompiledGrammarTest, CopiesAndMovesKeepRightHandSidesValid) {
  const Grammar g = testing::grammarFromText(kReweightGrammar);
  Diagnostics d;
  auto original = compile(g, d);
  ASSERT_TRUE(original);
  std::vector<std::vector<SymbolId>> expected;
  for (const CompiledRule& r : original->rules()) expected.emplace_back(r.rhs.begin(), r.rhs.end());
  const SymbolId* originalStorage = original->rule(0).rhs.data();

  CompiledGrammar copy = *original;
  CompiledGrammar assigned = *compile(testing::grammarFromText("S -> 'a' 1.0\n"), d);
  assigned = *original;
  original.reset();  // the views of the copies must not point into freed memory (ASan checks)
  for (const CompiledGrammar* cg : {&copy, &assigned}) {
    ASSERT_EQ(cg->rules().size(), expected.size());
    EXPECT_NE(cg->rule(0).rhs.data(), originalStorage);
    for (std::size_t k = 0; k < expected.size(); ++k) {
      const ConstSpan<SymbolId> rhs = cg->rule(static_cast<std::int32_t>(k)).rhs;
      EXPECT_EQ(std::vector<SymbolId>(rhs.begin(), rhs.end()), expected[k]);
    }
  }
  const SymbolId* copyStorage = copy.rule(0).rhs.data();
  const CompiledGrammar moved = std::move(copy);
  EXPECT_EQ(moved.rule(0).rhs.data(), copyStorage);
  ParseOptions options;
  EXPECT_TRUE(EarleyParser(moved).parse({"a", "x"}, options).success);
  EXPECT_TRUE(EarleyParser(assigned).parse({"a", "x"}, options).success);
}

}  // namespace
}  // namespace gwb
