#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/word_hypotheses.h"

namespace gwb::ds {
namespace {

PathStep lex(const std::string& a) { return {true, a}; }
PathStep comp(const std::string& a) { return {false, a}; }

std::string show(const std::vector<std::vector<std::string>>& splits) {
  std::string out;
  for (const auto& s : splits) {
    out += "(";
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::string piece = s[i];
      for (char& c : piece)
        if (c == '\n') c = '+';
      out += (i > 0 ? " | " : "") + piece;
    }
    out += ")";
  }
  return out;
}

TEST(DsWordHypothesesTest, SplitsLexicalRunsIntoOneHypothesisPerWord) {
  const struct {
    std::vector<PathStep> path;
    std::size_t words;
    const char* expected;
  } cases[] = {
      // A computational step always separates words.
      {{lex("a"), lex("b"), comp("completion"), lex("d")}, 2, "(a+b | d)"},
      {{lex("a"), lex("b"), comp("completion"), lex("d")}, 3, "(a | b | d)"},
      {{lex("a"), lex("b"), comp("completion"), lex("d")}, 4, ""},
      {{lex("a"), lex("b"), comp("completion"), lex("d")}, 1, ""},
      // One run of three steps into two words: two places to cut.
      {{comp("intro"), lex("a"), lex("b"), lex("c")}, 2, "(a | b+c)(a+b | c)"},
      {{lex("a"), lex("b"), lex("c")}, 3, "(a | b | c)"},
      {{comp("x")}, 1, ""},
  };
  for (const auto& c : cases)
    EXPECT_EQ(show(splitAtWordBoundaries(c.path, c.words, 0)), c.expected) << "words: " << c.words;
  bool truncated = false;
  EXPECT_EQ(
      splitAtWordBoundaries({lex("a"), lex("b"), lex("c"), lex("d")}, 2, 2, &truncated).size(), 2u);
  EXPECT_TRUE(truncated);
}

// The step assignments are the same splits: each step's word, computational steps -1.
TEST(DsWordHypothesesTest, AssignsEachLexicalStepToItsWord) {
  const std::vector<PathStep> path = {comp("intro"), lex("a"), lex("b"), comp("completion"),
                                      lex("c")};
  const std::vector<std::vector<int>> assignments = wordAssignments(path, 3, 0);
  ASSERT_EQ(assignments.size(), 1u);
  EXPECT_EQ(assignments[0], (std::vector<int>{-1, 0, 1, -1, 2}));
  const std::vector<std::vector<int>> two = wordAssignments(path, 2, 0);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0], (std::vector<int>{-1, 0, 0, -1, 1}));
  EXPECT_EQ(wordActions(path, two[0], 2), (std::vector<std::string>{"a\nb", "c"}));
  const std::vector<PathStep> run = {lex("a"), lex("b"), lex("c"), lex("d")};
  for (std::size_t words = 1; words <= 4; ++words) {
    const auto splits = splitAtWordBoundaries(run, words, 0);
    const auto steps = wordAssignments(run, words, 0);
    ASSERT_EQ(splits.size(), steps.size()) << words;
    for (std::size_t i = 0; i < splits.size(); ++i)
      EXPECT_EQ(wordActions(run, steps[i], words), splits[i]) << words << " " << i;
  }
}

TEST(DsWordHypothesesTest, CollectsHypothesesUpToRelabelling) {
  const std::string john = "IF    ?Ty(e)\nTHEN  ttrput([x==john : e|head==x : e])\nELSE  abort";
  const std::string john7 = "IF    ?Ty(e)\nTHEN  ttrput([x7==john : e|head==x7 : e])\nELSE  abort";
  const std::string runs = "IF    ?Ty(e>t)\nTHEN  put(Ty(e>t))\nELSE  abort";
  // Two paths that differ only in labels give one tuple of two hypotheses.
  const ExampleHypotheses h = collectWordHypotheses(
      {"john", "runs"}, {{lex(john), comp("completion"), lex(runs)}, {lex(john7), lex(runs)}}, 0);
  ASSERT_EQ(h.tuples.size(), 1u);
  ASSERT_EQ(h.hypotheses.size(), 2u);
  EXPECT_EQ(h.hypotheses[0].action, john);
  EXPECT_EQ(h.tuples[0], (std::vector<std::size_t>{0, 1}));
  EXPECT_FALSE(h.budgetHit);
  EXPECT_TRUE(h.note.empty());

  // The budget: one tuple kept, the note says so.
  const ExampleHypotheses capped =
      collectWordHypotheses({"a", "b"}, {{lex("p"), lex("q"), lex("r")}}, 1);
  EXPECT_EQ(capped.tuples.size(), 1u);
  EXPECT_TRUE(capped.budgetHit);
  EXPECT_EQ(capped.hypotheses.size(), 2u);  // only the kept tuple's hypotheses
  EXPECT_NE(capped.note.find("budget of 1"), std::string::npos);

  const ExampleHypotheses none = collectWordHypotheses({"a", "b"}, {}, 10);
  EXPECT_TRUE(none.tuples.empty());
  EXPECT_EQ(none.note, "no action sequence reaches the target record type");
}

}  // namespace
}  // namespace gwb::ds
