// Lazy k-best parsing against the brute-force oracle's list of every tree above a threshold
// (tests/support/brute_force_oracle.h): the same trees with the same probabilities in the same
// order, on tiny grammars with ambiguity, unit rules and cycles, ε-rules with several
// ε-derivations, and left recursion; and on a WSJ sentence, where the best tree must be the
// parser's Viterbi tree.
#include "gwb/earley/kbest.h"

#include <cmath>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"
#include "test_grammars.h"

namespace gwb {
namespace {

struct KBestCase {
  const char* name;
  const char* grammar;  // grammarFromText syntax; first LHS is the start symbol
  const char* sentence;
  std::size_t k;
};

const KBestCase kCases[] = {
    {"pp_attachment", testing::kPpAttachmentGrammar, "john saw a man in the park with a telescope",
     20},
    {"unit_cycle", testing::kUnitCycleGrammar, "a", 12},
    {"unit_cycle_b", "S -> A 0.5 | B 0.5\nA -> B 0.3 | 'a' 0.7\nB -> A 0.4 | 'b' 0.6\n", "b", 12},
    {"catalan", "R -> R R 0.3 | 'x' 0.7\n", "x x x x x", 20},
    {"epsilon_rules",
     "S -> NP VP 1.0\n"
     "NP -> Det Adj N 1.0\n"
     "VP -> V Adv 1.0\n"
     "Det -> 'the' 0.6 | 'a' 0.4\n"
     "Adj -> 0.6 | 'big' 0.25 | Adj Adj 0.15\n"
     "N -> 'dog' 0.5 | 'cat' 0.5\n"
     "V -> 'barks' 0.5 | 'sleeps' 0.5\n"
     "Adv -> 0.7 | 'loudly' 0.3\n",
     "the big dog barks", 15},
    {"nullable_unit_and_left_corner",
     "S -> A S 0.3 | B 0.5 | 0.2\n"
     "A -> 0.4 | 'a' 0.6\n"
     "B -> A 'b' 0.5 | S 'c' 0.5\n",
     "a b c", 15},
    {"empty_sentence",
     "S -> A S 0.3 | B 0.5 | 0.2\nA -> 0.4 | 'a' 0.6\nB -> A 'b' 0.5 | S 'c' 0.5\n", "", 10},
    {"several_epsilon_derivations",
     "S -> E 'a' F 1.0\n"
     "E -> 0.5 | F 0.3 | 'e' 0.2\n"
     "F -> 0.6 | G G 0.3 | 'f' 0.1\n"
     "G -> 0.9 | 'g' 0.1\n",
     "a", 12},
    {"finitely_many",
     "S -> 'a' X 0.5 | Y 'b' 0.3 | 'a' 'b' 0.2\nX -> 'b' 1.0\nY -> 'a' 0.7 | Z 0.3\nZ -> 'a' 1.0\n",
     "a b", 10},
    {"multi_terminal_and_fragment",
     "S -> 'a' 'b' 0.2 | X 'c' Y 0.5 | 'a' X 0.3\n"
     "X -> 'a' 0.5 | 'a' 'b' 0.3 | X 'b' 0.2\n"
     "Y -> 'd' 1.0\n",
     "a b b c d", 10},
};

class KBestOracleTest : public ::testing::TestWithParam<KBestCase> {};

TEST_P(KBestOracleTest, SameTreesProbabilitiesAndOrderAsTheOracle) {
  const KBestCase& c = GetParam();
  const Grammar grammar = testing::grammarFromText(c.grammar);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const std::vector<std::string> words = tokenize(c.sentence);
  for (bool lookahead : {true, false}) {
    for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
      SCOPED_TRACE(std::string(lookahead ? "look-ahead, " : "") + numericModeName(mode));
      ParseOptions options;
      options.lookahead = lookahead;
      options.mode = mode;
      EarleyChart chart;
      const ParseResult result = EarleyParser(*compiled).parse(words, options, chart);
      ASSERT_TRUE(result.success);
      const std::vector<RankedParse> best = kBestParses(chart, c.k);
      ASSERT_FALSE(best.empty());
      if (!words.empty()) {
        // The Viterbi tree, or one tied with it (catalan: all 14 trees are equally probable).
        EXPECT_NEAR(best[0].logProbability, result.viterbiLogProbability, 1e-12);
        bool viterbiAmongBest = false;
        for (const RankedParse& p : best)
          viterbiAmongBest |= p.logProbability > best[0].logProbability - 1e-12 &&
                              p.tree.toPtb() == result.viterbiTree.toPtb();
        EXPECT_TRUE(viterbiAmongBest) << result.viterbiTree.toPtb();
      }
      // Every tree at least as probable as the last one returned (a little below, so that
      // rounding cannot hide one).
      const double floor = std::exp(best.back().logProbability) * (1 - 1e-9);
      const std::vector<testing::OracleTree> all =
          testing::allTreesAbove(grammar, words, best.size() < c.k ? 1e-300 : floor);
      if (best.size() < c.k) {
        EXPECT_EQ(best.size(), all.size()) << "k-best stopped early";
      }
      ASSERT_GE(all.size(), best.size());
      std::set<std::string> oracleTrees;
      for (const testing::OracleTree& t : all) oracleTrees.insert(t.tree);
      std::set<std::string> seen;
      for (std::size_t i = 0; i < best.size(); ++i) {
        const std::string tree = best[i].tree.toPtb();
        SCOPED_TRACE("rank " + std::to_string(i) + ": " + tree);
        EXPECT_TRUE(seen.insert(tree).second) << "a tree came twice";
        EXPECT_TRUE(oracleTrees.count(tree)) << "not a tree of the sentence";
        EXPECT_NEAR(std::exp(best[i].logProbability) / all[i].probability, 1.0, 1e-12)
            << "the oracle's tree of this rank: " << all[i].tree;
        if (i > 0) {
          EXPECT_LE(best[i].logProbability, best[i - 1].logProbability);
        }
        const auto match = std::find_if(
            all.begin(), all.end(), [&](const testing::OracleTree& t) { return t.tree == tree; });
        if (match != all.end()) {
          EXPECT_NEAR(std::exp(best[i].logProbability) / match->probability, 1.0, 1e-12);
        }
      }
      // Beyond the k: the same trees again through the lazy object, asked out of order.
      KBestParses lazy(chart);
      for (std::size_t i = best.size(); i-- > 0;) {
        const auto parse = lazy.parse(i);
        ASSERT_TRUE(parse);
        EXPECT_EQ(parse->tree.toPtb(), best[i].tree.toPtb());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TinyGrammars, KBestOracleTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<KBestCase>& param) {
                           return std::string(param.param.name);
                         });

TEST(KBestTest, NoParseGivesNoTrees) {
  const Grammar grammar = testing::grammarFromText("S -> 'a' S 0.5 | 'a' 0.5\n");
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  EarleyChart chart;
  EXPECT_FALSE(EarleyParser(*compiled).parse({"a", "b"}, {}, chart).success);
  EXPECT_TRUE(kBestParses(chart, 5).empty());
  EXPECT_TRUE(kBestParses(EarleyChart{}, 5).empty());
}

// A 14-word WSJ sentence: the best tree is the Viterbi tree, then distinct trees of
// non-increasing probability, each below the sentence's probability.
TEST(KBestTest, WsjSentenceStartsWithTheViterbiTree) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/wsj500unk.grammar");
  const GrammarLoad load = loadGrammarFile(grammarPath);
  ASSERT_TRUE(load.ok());
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(load.grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const std::vector<std::string> words =
      tokenize("The company said it expects to report a loss for the third quarter .");
  ASSERT_EQ(words.size(), 14U);
  EarleyChart chart;
  const ParseResult result = EarleyParser(*compiled).parse(words, {}, chart);
  ASSERT_TRUE(result.success);
  const std::vector<RankedParse> best = kBestParses(chart, 10);
  ASSERT_EQ(best.size(), 10U);
  EXPECT_EQ(best[0].tree.toPtb(), result.viterbiTree.toPtb());
  EXPECT_NEAR(best[0].logProbability, result.viterbiLogProbability, 1e-9);
  std::set<std::string> seen;
  double mass = 0.0;
  for (std::size_t i = 0; i < best.size(); ++i) {
    EXPECT_TRUE(seen.insert(best[i].tree.toPtb()).second) << i;
    EXPECT_EQ(best[i].tree.leaves(), words) << i;
    if (i > 0) {
      EXPECT_LE(best[i].logProbability, best[i - 1].logProbability);
    }
    mass += std::exp(best[i].logProbability);
  }
  EXPECT_LT(mass, std::exp(result.logProbability) * (1 + 1e-9));
}

}  // namespace
}  // namespace gwb
