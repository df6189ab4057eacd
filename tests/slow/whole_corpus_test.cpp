// Slow tests (label `slow`: run in the main CI stage, not under the sanitizers): the whole
// social-cue corpus as one 51,665-token discourse.
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"

namespace gwb {
namespace {

TEST(WholeCorpusTest, ParsesAsOneDiscourseInBothModesWithADeepViterbiTree) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld.concat");
  GrammarReadOptions options;
  options.root = "Discourse";
  options.runChecks = false;
  const GrammarLoad load = loadGrammarFile(grammarPath, options);
  ASSERT_TRUE(load.ok());
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(load.grammar, diagnostics);
  ASSERT_TRUE(compiled);
  std::ifstream in(corpusPath);
  std::string line;
  std::getline(in, line);
  const auto words = tokenize(line);
  ASSERT_EQ(words.size(), 51665u);

  EarleyParser parser(*compiled);
  ParseOptions scaled;
  const ParseResult a = parser.parse(words, scaled);
  ParseOptions logSpace;
  logSpace.mode = NumericMode::Log;
  logSpace.viterbi = false;
  const ParseResult b = parser.parse(words, logSpace);
  ASSERT_TRUE(a.success);
  ASSERT_TRUE(b.success);
  EXPECT_TRUE(std::isfinite(a.logProbability));
  EXPECT_LT(a.logProbability, -709.0 * 100);  // far beyond what a plain double product holds
  EXPECT_NEAR(a.logProbability / b.logProbability, 1.0, 1e-9);
  EXPECT_NEAR(a.viterbiLogProbability / b.viterbiLogProbability, 1.0, 1e-9);
  EXPECT_LT(a.viterbiLogProbability, a.logProbability);
  // The Viterbi tree: every word, right-branching over 4,763 utterances, printed without
  // recursion.
  EXPECT_EQ(a.viterbiTree.leaves(), words);
  EXPECT_GT(a.viterbiTree.depth(), 4763);
  const std::string ptb = a.viterbiTree.toPtb(true);
  EXPECT_EQ(ptb.substr(0, 14), "( (Discourse (");
  std::string error;
  const ParseTree back = parsePtb(ptb, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(back.leaves(), words);
}

}  // namespace
}  // namespace gwb
