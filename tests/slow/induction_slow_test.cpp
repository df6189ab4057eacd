// Slow induction tests (label `slow`): the first VB iteration on the whole social-cue corpus and
// on the discourse grammar's 25- and 50-utterance concatenations, against Earleyx's numbers
// (../shared/reference/earleyx/unigram.vb.iteration1.obj, discourse.vb-iteration1.tsv).
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "gwb/common/number_format.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"

namespace gwb {
namespace {

Grammar loadGrammar(const std::string& path, const std::string& root) {
  GrammarReadOptions options;
  options.root = root;
  options.runChecks = false;
  GrammarLoad load = loadGrammarFile(path, options);
  EXPECT_TRUE(load.ok()) << path;
  return std::move(load.grammar);
}

std::vector<std::vector<std::string>> readSentences(const std::string& path) {
  std::vector<std::vector<std::string>> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    out.push_back(tokenize(line));
  }
  return out;
}

double relativeError(double actual, double expected) {
  return std::abs(actual - expected) / std::abs(expected);
}

// One Earleyx-compatible VB iteration; the free energy needs MALLET's digamma and log Γ.
IterationRecord firstVbIteration(const std::string& grammar, const std::string& root,
                                 const std::vector<std::vector<std::string>>& sentences,
                                 NumericMode mode, int threads) {
  InductionOptions options = InductionOptions::earleyx(InductionMethod::Vb);
  options.maxIterations = 1;
  options.mode = mode;
  options.threads = threads;
  const InductionResult result = induceGrammar(loadGrammar(grammar, root), sentences, options);
  EXPECT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(result.records.size(), 1u);
  if (result.records.empty()) return {};
  return result.records[0];
}

TEST(InductionSlowTest, FirstVbIterationOnTheWholeSocialCorpus) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/unigram.grammar");
  GWB_REQUIRE_SHARED(inputPath, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(referencePath, "reference/earleyx/unigram.vb.iteration1.obj");
  std::ifstream reference(referencePath);
  std::string word;
  int iteration = 0;
  double negLogProb = 0.0, freeEnergy = 0.0;
  ASSERT_TRUE(reference >> word >> iteration >> negLogProb >> freeEnergy);
  const auto sentences = readSentences(inputPath);
  ASSERT_EQ(sentences.size(), 4763u);
  const IterationRecord r =
      firstVbIteration(grammarPath, "Sentence", sentences, NumericMode::Scaled, 2);
  EXPECT_EQ(r.failures, 0u);
  EXPECT_LT(relativeError(r.negLogLikelihood, negLogProb), 1e-9) << r.negLogLikelihood;
  // With MALLET's log Γ (Cody's ALGAMA) the free energy is Earleyx's to 1e-12 relative; with
  // a Lanczos log Γ it was 0.00235 (1.6e-8 relative) off.
  EXPECT_LE(relativeError(r.freeEnergy, freeEnergy), 1e-12)
      << formatProbability(r.freeEnergy) << " vs " << formatProbability(freeEnergy);
}

TEST(InductionSlowTest, FirstVbIterationOfTheDiscourseGrammar) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(referencePath, "reference/earleyx/discourse.vb-iteration1.tsv");
  std::ifstream reference(referencePath);
  std::string line;
  int rows = 0;
  while (std::getline(reference, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("input", 0) == 0) continue;
    std::istringstream fields(line);
    std::string input;
    std::size_t tokens = 0;
    double negLogProb = 0.0, freeEnergy = 0.0;
    ASSERT_TRUE(fields >> input >> tokens >> negLogProb >> freeEnergy) << line;
    SCOPED_TRACE(input);
    GWB_REQUIRE_SHARED(inputPath, "data/earleyx/" + input);
    const auto sentences = readSentences(inputPath);
    ASSERT_EQ(sentences.size(), 1u);
    ASSERT_EQ(sentences[0].size(), tokens);
    for (const NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
      SCOPED_TRACE(numericModeName(mode));
      const IterationRecord r = firstVbIteration(grammarPath, "Discourse", sentences, mode, 1);
      EXPECT_LT(relativeError(r.negLogLikelihood, negLogProb), 1e-9) << r.negLogLikelihood;
      // 1e-12 relative with MALLET's log Γ (a Lanczos log Γ was exactly 2^-12 off).
      EXPECT_LE(relativeError(r.freeEnergy, freeEnergy), 1e-12)
          << formatProbability(r.freeEnergy) << " vs " << formatProbability(freeEnergy);
    }
    ++rows;
  }
  EXPECT_EQ(rows, 2);
}

}  // namespace
}  // namespace gwb
