// The Earley parser against the brute-force oracle (tests/support/brute_force_oracle.h):
// prefix probabilities, string probabilities of every prefix, Viterbi probability and tree,
// in both numeric modes, with and without look-ahead, on tiny grammars chosen to exercise unit
// cycles, left recursion, ε-rules, multi-terminal and fragment rules, and ambiguity.
#include "gwb/earley/earley_parser.h"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/earley/tokenize.h"
#include "test_grammars.h"

namespace gwb {
namespace {

struct OracleCase {
  const char* name;
  const char* grammar;  // grammarFromText syntax; first LHS is the start symbol
  std::vector<const char*> sentences;
};

const OracleCase kCases[] = {
    {"pp_attachment",
     testing::kPpAttachmentGrammar,
     {"i saw the man with the telescope", "john saw a man in the park", "i walked", "i saw",
      "the man saw john with a telescope"}},
    {"unit_cycle", testing::kUnitCycleGrammar, {"a", "b", "x", "x x x", "x x x x"}},
    {"catalan_left_recursion", "R -> R R 0.3 | 'x' 0.7\n", {"x", "x x", "x x x", "x x x x"}},
    {"epsilon_rules",
     "S -> NP VP 1.0\n"
     "NP -> Det Adj N 1.0\n"
     "VP -> V Adv 1.0\n"
     "Det -> 'the' 0.6 | 'a' 0.4\n"
     "Adj -> 0.6 | 'big' 0.25 | Adj Adj 0.15\n"
     "N -> 'dog' 0.5 | 'cat' 0.5\n"
     "V -> 'barks' 0.5 | 'sleeps' 0.5\n"
     "Adv -> 0.7 | 'loudly' 0.3\n",
     {"the dog barks", "a big dog sleeps loudly", "the big big cat barks"}},
    {"nullable_unit_and_left_corner",
     "S -> A S 0.3 | B 0.5 | 0.2\n"
     "A -> 0.4 | 'a' 0.6\n"
     "B -> A 'b' 0.5 | S 'c' 0.5\n",
     {"", "b", "a b", "c", "a c b", "b c"}},
    {"multi_terminal_and_fragment",
     "S -> 'a' 'b' 0.2 | X 'c' Y 0.5 | 'a' X 0.3\n"
     "X -> 'a' 0.5 | 'a' 'b' 0.3 | X 'b' 0.2\n"
     "Y -> 'd' 1.0\n",
     {"a b", "a c d", "a b c d", "a a b", "a b b c d"}},
    // A discourse in miniature: a right-recursive spine of utterances, each with a topic, the
    // topic chain through unit rules (D -> Da), utterances that end inside a right-recursive
    // word list, so that many prefixes are whole strings (string probabilities by end weights).
    {"right_recursive_discourse",
     "D -> Da 0.5 | Db 0.5\n"
     "Da -> Sa Da 0.3 | Sa Db 0.2 | Sa 0.5\n"
     "Db -> Sb Da 0.25 | Sb Db 0.25 | Sb 0.5\n"
     "Sa -> 'ta' Ws 1.0\n"
     "Sb -> 'tb' Ws 0.6 | 'tb' 0.4\n"
     "Ws -> W Ws 0.4 | W 0.6\n"
     "W -> 'x' 0.5 | 'y' 0.5\n",
     {"ta x", "tb tb", "ta x tb y x ta x", "tb tb ta x y", "ta y y tb x tb"}},
    // Right recursion through a unit cycle (S -> A -> S) and a fragment rule ending in a
    // terminal, so that a spine can end in a multi-word scanned item.
    {"right_recursion_through_unit_cycle",
     "S -> A 0.2 | 'a' S 0.4 | 'a' 0.2 | 'c' S 'b' 0.2\n"
     "A -> S 0.5 | 'b' 0.3 | 'a' 'b' 0.2\n",
     {"a", "a a b", "c a b b", "a c a b b a"}},
};

class EarleyOracleTest : public ::testing::TestWithParam<OracleCase> {};

void expectClose(double actual, double expected, double relative, const std::string& what) {
  if (expected == 0.0) {
    EXPECT_EQ(actual, 0.0) << what;
  } else {
    EXPECT_NEAR(actual / expected, 1.0, relative) << what << ": " << actual << " vs " << expected;
  }
}

TEST_P(EarleyOracleTest, AgreesWithBruteForceEnumeration) {
  const OracleCase& c = GetParam();
  const Grammar grammar = testing::grammarFromText(c.grammar);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled) << (diagnostics.empty() ? "" : toString(diagnostics.items()[0]));
  EarleyParser parser(*compiled);
  for (const char* sentence : c.sentences) {
    const std::vector<std::string> words = tokenize(sentence);
    const testing::OracleResult oracle = testing::bruteForceParse(grammar, words);
    ASSERT_TRUE(oracle.converged) << sentence;
    for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
      for (bool lookahead : {true, false}) {
        for (int everyPrefix : {0, 1, 2}) {  // no, by end weights, by completing at every word
          const std::string where = std::string(sentence) + " [" + numericModeName(mode) +
                                    (lookahead ? ", look-ahead" : "") +
                                    (everyPrefix == 1   ? ", every prefix"
                                     : everyPrefix == 2 ? ", every word"
                                                        : "") +
                                    "]";
          SCOPED_TRACE(where);
          ParseOptions options;
          options.mode = mode;
          options.lookahead = lookahead;
          options.prefixStringProbabilities = everyPrefix > 0;
          if (everyPrefix == 2)
            options.stringProbabilityMethod = StringProbabilityMethod::CompleteEveryWord;
          const ParseResult result = parser.parse(words, options);
          const std::size_t n = words.size();
          ASSERT_EQ(result.logPrefixProbability.size(), n + 1);
          if (everyPrefix == 1) {
            // End weights add no chart item: the chart is the one without string probabilities.
            ParseOptions plain = options;
            plain.prefixStringProbabilities = false;
            EXPECT_EQ(result.items, parser.parse(words, plain).items);
          }
          for (std::size_t i = 1; i <= n; ++i) {
            expectClose(std::exp(result.logPrefixProbability[i]), oracle.prefixProbability[i],
                        1e-12, "prefix " + std::to_string(i));
            if (everyPrefix || i == n)
              expectClose(std::exp(result.logStringProbability[i]), oracle.stringProbability[i],
                          1e-12, "string " + std::to_string(i));
          }
          EXPECT_EQ(result.success, oracle.stringProbability[n] > 0);
          if (!result.success) continue;
          expectClose(std::exp(result.viterbiLogProbability), oracle.viterbiProbability, 1e-12,
                      "viterbi");
          const std::string tree = result.viterbiTree.toPtb();
          const auto& tied = oracle.viterbiTiedTrees;
          EXPECT_NE(std::find(tied.begin(), tied.end(), tree), tied.end())
              << "tree " << tree << " is not among the oracle's best: " << oracle.viterbiTree;
          // Expected rule counts from the outside pass (inside-outside, eq. 1 of the paper).
          std::vector<double> counts(grammar.ruleCount(), 0.0);
          parser.parseWithCounts(words, options, counts);
          for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
            const double expected = oracle.expectedRuleCounts[static_cast<std::size_t>(id)];
            if (expected < 1e-13) {
              EXPECT_NEAR(counts[static_cast<std::size_t>(id)], 0.0, 1e-12) << grammar.ruleText(id);
            } else {
              EXPECT_NEAR(counts[static_cast<std::size_t>(id)] / expected, 1.0, 1e-12)
                  << grammar.ruleText(id);
            }
          }
        }
      }
    }
  }
}

TEST(EarleyParserTest, AWordTheGrammarDoesNotKnowEndsTheParseThere) {
  const Grammar grammar = testing::grammarFromText("S -> 'a' S 0.5 | 'a' 0.5\n");
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  for (bool lookahead : {true, false}) {
    ParseOptions options;
    options.lookahead = lookahead;
    const ParseResult result = EarleyParser(*compiled).parse({"a", "b", "a"}, options);
    EXPECT_FALSE(result.success);
    EXPECT_EQ(result.failedAt, 1);
    EXPECT_NEAR(result.logPrefixProbability[1], 0.0, 1e-15);
    EXPECT_EQ(result.logPrefixProbability[2], -std::numeric_limits<double>::infinity());
  }
}

std::string repeated(const std::string& symbol, std::size_t count) {
  std::string out;
  for (std::size_t k = 0; k < count; ++k) out += (k ? " " : "") + symbol;
  return out;
}

// Rules of any length parse right: a nullable symbol at position 0 and a word at position
// L − 1 (a 32-bit mask of dropped positions once lost positions ≥ 32), and a long rule whose
// dot passes 256 beside a short one in the same set (fixed bit fields in the item key once
// made the two items one).
TEST(EarleyParserTest, RulesOfAnyLengthAgreeWithTheOracle) {
  struct LongCase {
    std::string grammar;
    std::vector<std::string> sentences;
  };
  std::vector<LongCase> cases;
  for (std::size_t length : {31, 32, 33, 34, 64, 65, 66, 200}) {
    const std::string as = repeated("'a'", length - 2);
    const std::string words = repeated("a", length - 2);
    cases.push_back({"S -> E " + as + " 'b' 0.6 | E " + as + " 0.4\nE -> 0.5 | 'e' 0.5\n",
                     {words + " b", words, "e " + words + " b", "e " + words, words + " b b"}});
  }
  cases.push_back({"S -> " + repeated("'a'", 256) + " D 'y' 0.5 | B 'c' 0.5\nB -> " +
                       repeated("'a'", 256) + " 'd' 1.0\nD -> 'd' 1.0\n",
                   {repeated("a", 256) + " d c", repeated("a", 256) + " d y"}});
  for (const LongCase& c : cases) {
    const Grammar grammar = testing::grammarFromText(c.grammar);
    Diagnostics diagnostics;
    const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
    ASSERT_TRUE(compiled) << c.grammar;
    EarleyParser parser(*compiled);
    for (const std::string& sentence : c.sentences) {
      const std::vector<std::string> words = tokenize(sentence);
      SCOPED_TRACE(std::to_string(words.size()) + " words: " + sentence.substr(0, 12) + "..." +
                   sentence.substr(sentence.size() - 6));
      const testing::OracleResult oracle = testing::bruteForceParse(grammar, words);
      ASSERT_TRUE(oracle.converged);
      for (bool lookahead : {true, false}) {
        ParseOptions options;
        options.lookahead = lookahead;
        const ParseResult result = parser.parse(words, options);
        EXPECT_EQ(result.success, oracle.stringProbability[words.size()] > 0) << lookahead;
        if (!result.success) continue;
        expectClose(std::exp(result.logProbability), oracle.stringProbability[words.size()], 1e-12,
                    "string probability");
        EXPECT_EQ(result.viterbiTree.toPtb(), oracle.viterbiTree);
      }
    }
  }
}

// A unit cycle of mass close to one: R_U = (I − P_U)^-1 has condition number ~1/(1 − p), and
// the plain inverse lost ~log10 of it in digits (log P = −8e-8 where the exact value is 0). The
// exact value for the given doubles, q / (1 − p), is computed here in long double (1 − p is
// exact in double for p in [1/2, 1]).
TEST(EarleyParserTest, NearSingularUnitCycleIsSolvedAccurately) {
  for (const double p : {0.999999, 1.0 - std::ldexp(1.0, -20), 0.9999999999, 0.99999999}) {
    const double q = 1.0 - p;
    for (const double otherWeight : {1.0, 0.75}) {
      std::ostringstream text;
      text.precision(17);
      text << "S -> A 1.0\nA -> B " << p << " | 'a' " << q << "\nB -> A " << otherWeight
           << " | 'b' " << 1.0 - otherWeight << "\n";
      SCOPED_TRACE(text.str());
      const Grammar grammar = testing::grammarFromText(text.str());
      Diagnostics diagnostics;
      const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
      ASSERT_TRUE(compiled);
      // P(a) = R_U(S, A) q = q / (1 − p w) with w = P(B → A).
      const long double exact =
          static_cast<long double>(q) / (1.0L - static_cast<long double>(p) * otherWeight);
      const double exactLog = static_cast<double>(std::log(exact));
      for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
        ParseOptions options;
        options.mode = mode;
        const ParseResult result = EarleyParser(*compiled).parse({"a"}, options);
        ASSERT_TRUE(result.success);
        EXPECT_NEAR(result.logProbability, exactLog, 1e-13) << numericModeName(mode);
        EXPECT_NEAR(result.logPrefixProbability[1], exactLog, 1e-13) << numericModeName(mode);
      }
    }
  }
}

// A three-symbol unit cycle of mass 1 − 1e-7 (condition number ~1e7): the plain LU inverse was
// off by 3e-10 in log P, iterative refinement brings it to rounding level.
TEST(EarleyParserTest, NearSingularThreeSymbolUnitCycleIsRefined) {
  const double p1 = 0.5, p2 = 0.4999999, q = 1e-7, b1 = 0.7, b2 = 0.3;
  std::ostringstream text;
  text.precision(17);
  text << "A -> B " << p1 << " | C " << p2 << " | 'a' " << q << "\nB -> A " << b1 << " | C " << b2
       << "\nC -> A 1.0\n";
  const Grammar grammar = testing::grammarFromText(text.str());
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  // Every way round the cycle returns to A: R_U(A, A) = 1 / (1 − p1 (b1 + b2) − p2).
  const long double cycle =
      static_cast<long double>(p1) * (static_cast<long double>(b1) + static_cast<long double>(b2)) +
      static_cast<long double>(p2);
  const auto exactLog = static_cast<double>(std::log(static_cast<long double>(q) / (1.0L - cycle)));
  const ParseResult result = EarleyParser(*compiled).parse({"a"});
  ASSERT_TRUE(result.success);
  EXPECT_NEAR(result.logProbability, exactLog, 2e-11);
}

INSTANTIATE_TEST_SUITE_P(TinyGrammars, EarleyOracleTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<OracleCase>& param) {
                           return std::string(param.param.name);
                         });

}  // namespace
}  // namespace gwb
