#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/lexicon_evaluation.h"
#include "gwb/ds/semantic_corpus.h"
#include "shared_data.h"

namespace gwb::ds {
namespace {

TEST(DsLexiconEvaluationTest, SummarisesMacroAndMicroFigures) {
  std::vector<ItemEvaluation> items(2);
  items[0].outcome = ParseOutcome::Parsed;
  items[0].mapping.score = 2;
  items[0].mapping.hypothesisSize = 2;
  items[0].mapping.goldSize = 4;
  items[1].outcome = ParseOutcome::Failed;  // uncovered: counts 0, its gold fields count
  items[1].mapping.goldSize = 4;
  const EvaluationSummary s = summarize(items);
  EXPECT_EQ(s.items, 2);
  EXPECT_EQ(s.covered, 1);
  EXPECT_EQ(s.complete, 1);
  EXPECT_DOUBLE_EQ(s.macroPrecision, 0.5);  // (1 + 0) / 2
  EXPECT_DOUBLE_EQ(s.macroRecall, 0.25);    // (0.5 + 0) / 2
  EXPECT_DOUBLE_EQ(s.macroF, (2 * 1 * 0.5 / 1.5) / 2);
  EXPECT_DOUBLE_EQ(s.microPrecision, 1.0);  // 2 / 2
  EXPECT_DOUBLE_EQ(s.microRecall, 0.25);    // 2 / 8
  EXPECT_DOUBLE_EQ(s.microF, 2 * 0.25 / 1.25);
}

// Eshghi, Hough & Purver 2013, Table 1, as the authors' 2014 code scores their own learned
// lexicons (../shared/reference/dylan/README.md): coverage 59/85/92%, F .550/.785/.855.
TEST(DsLexiconEvaluationTest, ReproducesTheAuthorsTable1OnTheirLexicons) {
  GWB_REQUIRE_SHARED(seed, "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
  GWB_REQUIRE_SHARED(test, "data/dylan/childes-eve/CHILDESconversion100TestFinal.txt");
  Diagnostics diagnostics;
  const std::vector<SemanticExample> corpus = loadSemanticCorpus(test, diagnostics);
  ASSERT_EQ(corpus.size(), 100u);
  struct Row {
    int top;
    double coverage;
    double f;
  };
  for (const Row& row : {Row{1, 0.59, 0.550}, Row{2, 0.85, 0.785}, Row{3, 0.92, 0.855}}) {
    GWB_REQUIRE_SHARED(lexicon, "data/dylan/2013-ttr-learner-output/lexicon.lex-top-" +
                                    std::to_string(row.top) + ".txt");
    DsGrammarLoad load = loadDsGrammar(seed.substr(0, seed.rfind('/')));
    ASSERT_TRUE(load.ok());
    useLearnedLexicon(load.grammar, loadLearnedLexicon(lexicon, diagnostics));
    LexiconEvaluationOptions options;
    options.threads = 2;
    const std::vector<ItemEvaluation> items = evaluateLexicon(load.grammar, corpus, options);
    ASSERT_EQ(items.size(), corpus.size());
    const EvaluationSummary s = summarize(items);
    EXPECT_NEAR(s.coverage(), row.coverage, 0.01 + 1e-9) << "top-" << row.top;
    EXPECT_NEAR(s.macroF, row.f, 0.01) << "top-" << row.top;
    // Precision and recall stay close, as in the authors' figures.
    EXPECT_NEAR(s.macroPrecision, s.macroRecall, 0.01) << "top-" << row.top;
    // Complete trees are a strict part of the covered items.
    EXPECT_LT(s.complete, s.covered);
    EXPECT_GT(s.complete, 0);
    if (row.top == 2) {
      // The same figures, item by item, on one thread.
      options.threads = 1;
      const std::vector<ItemEvaluation> serial = evaluateLexicon(load.grammar, corpus, options);
      ASSERT_EQ(serial.size(), items.size());
      for (std::size_t i = 0; i < items.size(); ++i) {
        EXPECT_EQ(serial[i].outcome, items[i].outcome) << items[i].sentence;
        EXPECT_EQ(serial[i].mapping.score, items[i].mapping.score) << items[i].sentence;
      }
    }
  }
  EXPECT_TRUE(diagnostics.empty());
}

}  // namespace
}  // namespace gwb::ds
