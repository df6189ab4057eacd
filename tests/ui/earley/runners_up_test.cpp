// The parse-tree view's runners-up (lazy k-best off the session's chart, gwb/earley/kbest.h): the
// first is the parser's Viterbi tree, they come in order, and on a small grammar with finitely
// many parses they are all of them, summing to the string probability. A sentence of any length
// has them (the view once offered them only up to 20 words).
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "session_fixtures.h"
#include "ui/earley/parse_tree_view.h"

namespace gwb::ui {
namespace {

using testing::grammarFromNltk;
using testing::loadSampleGrammar;
using testing::parseSentence;

struct Case {
  const char* grammar;  // a sample file name, or NLTK text
  const char* sentence;
  std::size_t parses;  // how many trees the sentence has (0: more than the view offers)
};

TEST(RunnersUpTest, FirstIsViterbiInOrderAndAllSumToTheStringProbability) {
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
      // 25 words: 42 binary trees of the PPs, more than the view offers.
      {"pp-attachment.cfg",
       "john saw a man in the park with a telescope in the park with a telescope in the park "
       "with a telescope",
       0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.grammar) + " / " + c.sentence);
    const std::string name = c.grammar;
    const auto grammar =
        name.find("->") == std::string::npos ? loadSampleGrammar(name) : grammarFromNltk(name);
    const auto session = parseSentence(grammar, c.sentence);
    ASSERT_TRUE(session->result().success);
    ParseTreeView view;
    view.setSession(session);
    const std::vector<RankedParse>& parses = view.parses();
    ASSERT_FALSE(parses.empty());
    EXPECT_EQ(parses.front().tree.toPtb(), session->result().viterbiTree.toPtb());
    EXPECT_NEAR(parses.front().logProbability, session->result().viterbiLogProbability, 1e-9);
    std::set<std::string> distinct;
    double total = 0.0;
    for (std::size_t i = 0; i < parses.size(); ++i) {
      const RankedParse& p = parses[i];
      distinct.insert(p.tree.toPtb());
      EXPECT_EQ(p.tree.leaves(), session->words());
      if (i > 0) {
        EXPECT_LE(p.logProbability, parses[i - 1].logProbability + 1e-12);
      }
      total += std::exp(p.logProbability);
    }
    EXPECT_EQ(distinct.size(), parses.size());
    if (c.parses > 0) {
      EXPECT_EQ(parses.size(), c.parses);
      EXPECT_NEAR(std::log(total), session->result().logProbability, 1e-9);
    } else {
      // As many as the view offers, and the parser's Viterbi tree put first when k-best chose
      // a tree tied with it.
      EXPECT_GE(parses.size(), 10U);
      EXPECT_LE(parses.size(), 11U);
      EXPECT_LT(std::log(total), session->result().logProbability);
    }
  }
}

TEST(RunnersUpTest, NoParseNoRunnersUp) {
  for (const char* sentence : {"saw i", "i saw zebras"}) {
    ParseTreeView view;
    view.setSession(parseSentence(loadSampleGrammar(), sentence));
    EXPECT_TRUE(view.parses().empty()) << sentence;
  }
}

}  // namespace
}  // namespace gwb::ui
