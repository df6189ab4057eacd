// The n best parses: the first is the parser's Viterbi tree, they come in order, and on a small
// grammar with finitely many parses they are all of them, summing to the string probability.
#include "ui/kbest_parses.h"

#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "session_fixtures.h"

namespace gwb::ui {
namespace {

using testing::grammarFromNltk;
using testing::loadSampleGrammar;
using testing::parseSentence;

struct Case {
  const char* grammar;  // a sample file name, or NLTK text
  const char* sentence;
  std::size_t parses;   // how many trees the sentence has (0: infinitely many)
};

TEST(KBestParsesTest, FirstIsViterbiInOrderAndAllSumToTheStringProbability) {
  const Case cases[] = {
      {"pp-attachment.cfg", "i saw the man with the telescope", 2},
      {"pp-attachment.cfg", "john saw a man in the park with a telescope", 4},
      {"pp-attachment.cfg", "i saw john", 1},
      {"optional-words.cfg", "the dog barks", 1},
      {"optional-words.cfg", "a big dog barks loudly", 1},
      // Unit cycles: infinitely many trees, ever less probable.
      {"unit-cycle.cfg", "a", 0},
      // Five binary trees, all equally probable.
      {"S -> S S [0.3] | 'a' [0.7]\n", "a a a a", 5},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.grammar) + " / " + c.sentence);
    const std::string name = c.grammar;
    const auto grammar = name.find("->") == std::string::npos ? loadSampleGrammar(name)
                                                              : grammarFromNltk(name);
    const auto session = parseSentence(grammar, c.sentence);
    ASSERT_TRUE(session->result().success);
    const std::size_t n = c.parses == 0 ? 6 : c.parses + 3;
    const KBestResult best = kBestParses(*grammar, session->words(), n);
    EXPECT_TRUE(best.complete);
    ASSERT_FALSE(best.parses.empty());
    // The Viterbi tree comes first (when there is no tie for first place).
    const bool tie = best.parses.size() > 1 &&
                     best.parses[1].logProbability > best.parses[0].logProbability - 1e-12;
    if (!tie) {
      EXPECT_EQ(best.parses.front().tree.toPtb(), session->result().viterbiTree.toPtb());
    }
    EXPECT_NEAR(best.parses.front().logProbability, session->result().viterbiLogProbability,
                1e-9);
    std::set<std::string> distinct;
    double total = 0.0;
    for (std::size_t i = 0; i < best.parses.size(); ++i) {
      const RankedParse& p = best.parses[i];
      distinct.insert(p.tree.toPtb());
      EXPECT_EQ(p.tree.leaves(), session->words());
      if (i > 0) {
        EXPECT_LE(p.logProbability, best.parses[i - 1].logProbability + 1e-12);
      }
      total += std::exp(p.logProbability);
    }
    EXPECT_EQ(distinct.size(), best.parses.size());
    if (c.parses > 0) {
      EXPECT_EQ(best.parses.size(), c.parses);
      EXPECT_NEAR(std::log(total), session->result().logProbability, 1e-9);
    } else {
      EXPECT_EQ(best.parses.size(), n);
      EXPECT_LT(std::log(total), session->result().logProbability);
    }
  }
}

TEST(KBestParsesTest, NoParseAndUnknownWords) {
  const auto grammar = loadSampleGrammar();
  EXPECT_TRUE(kBestParses(*grammar, {"saw", "i"}, 3).parses.empty());
  EXPECT_TRUE(kBestParses(*grammar, {"i", "saw", "zebras"}, 3).parses.empty());
  // A bounded search on a sentence without parse and with a unit cycle gives up cleanly.
  const auto cycle = loadSampleGrammar("unit-cycle.cfg");
  const KBestResult none = kBestParses(*cycle, {"a", "b"}, 3, 5000);
  EXPECT_TRUE(none.parses.empty());
}

}  // namespace
}  // namespace gwb::ui
