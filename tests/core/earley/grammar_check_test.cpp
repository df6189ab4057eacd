#include "gwb/earley/grammar_check.h"

#include <gtest/gtest.h>

#include "gwb/earley/grammar_io.h"

namespace gwb {
namespace {

std::vector<std::string> check(const std::string& nltk) {
  GrammarReadOptions options;
  options.format = GrammarFormat::Nltk;
  options.runChecks = false;
  const GrammarLoad load = readGrammar(nltk, "g.cfg", options);
  EXPECT_TRUE(load.ok());
  std::vector<std::string> out;
  for (const Diagnostic& d : checkGrammar(load.grammar, "g.cfg")) out.push_back(toString(d));
  return out;
}

TEST(GrammarCheckTest, CleanGrammarHasNoWarnings) {
  EXPECT_TRUE(check("S -> NP VP [1]\nNP -> 'a' [1]\nVP -> 'b' [0.5] | VP NP [0.5]\n").empty());
}

TEST(GrammarCheckTest, ReportsSumsUndefinedUnreachableAndNonGenerating) {
  const auto warnings = check(
      "S -> A B [0.9]\n"  // line 1: S sums to 0.9
      "A -> 'a' [1]\n"    // line 2
      "B -> B C [1]\n"    // line 3: B never terminates; C has no rules
      "D -> 'd' [1]\n");  // line 4: unreachable
  const std::vector<std::string> expected = {
      "g.cfg:1: warning: probabilities of S sum to 0.9 over 1 rules, not 1",
      "g.cfg:3: warning: nonterminal C is used here but has no rules",
      "g.cfg:4: warning: nonterminal D is unreachable from the start symbol S",
      "g.cfg:1: warning: nonterminal S derives no string of terminals (non-generating)",
      "g.cfg:3: warning: nonterminal B derives no string of terminals (non-generating)",
  };
  EXPECT_EQ(warnings, expected);
}

TEST(GrammarCheckTest, EpsilonRulesGenerate) {
  EXPECT_TRUE(check("S -> A A [1]\nA -> [0.5] | 'a' [0.5]\n").empty());
}

TEST(GrammarCheckTest, CapsEachKindAndSummarisesTheRest) {
  std::string text = "S -> 'x' [1]\n";
  for (int i = 0; i < 25; ++i) text += "U" + std::to_string(i) + " -> 'u' [1]\n";
  const auto warnings = check(text);
  ASSERT_EQ(warnings.size(), 21u);
  EXPECT_EQ(warnings.back(), "g.cfg: warning: ... and 5 more unreachable nonterminals");
}

}  // namespace
}  // namespace gwb
