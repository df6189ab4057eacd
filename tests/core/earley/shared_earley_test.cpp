// The parser on real grammars and corpora, against Earleyx's reference outputs
// (../shared/reference/earleyx) and across numeric modes and look-ahead.
#include <cmath>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gwb/common/atomic_file.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"

namespace gwb {
namespace {

struct LoadedGrammar {
  GrammarLoad load;
  std::optional<CompiledGrammar> compiled;
};

std::unique_ptr<LoadedGrammar> loadCompiled(const std::string& path, const std::string& root) {
  auto out = std::make_unique<LoadedGrammar>();
  GrammarReadOptions options;
  options.root = root;
  options.runChecks = false;
  out->load = loadGrammarFile(path, options);
  EXPECT_TRUE(out->load.ok());
  Diagnostics diagnostics;
  out->compiled = CompiledGrammar::compile(out->load.grammar, diagnostics, path);
  EXPECT_TRUE(out->compiled);
  return out;
}

// An Earleyx output file: "# id", "word value" lines, "#! Done".
std::vector<std::pair<std::string, double>> readMeasure(const std::string& path) {
  std::vector<std::pair<std::string, double>> values;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    values.emplace_back(line.substr(0, space), std::stod(line.substr(space + 1)));
  }
  return values;
}

std::vector<std::string> readLine(const std::string& path, int lineNumber) {
  std::ifstream in(path);
  std::string line;
  for (int k = 0; k < lineNumber; ++k) std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return tokenize(line);
}

TEST(SharedEarleyTest, DenseWsjSurprisalAndStringProbabilitiesMatchEarleyx) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/wsj500unk.grammar");
  GWB_REQUIRE_SHARED(textPath, "data/earleyx/data/text.10");
  GWB_REQUIRE_SHARED(surprisalPath, "reference/earleyx/wsj500unk.text10-line5.surprisal");
  GWB_REQUIRE_SHARED(stringPath, "reference/earleyx/wsj500unk.text10-line5.stringprob");
  const auto grammar = loadCompiled(grammarPath, "");
  ASSERT_TRUE(grammar->compiled);
  ASSERT_TRUE(grammar->compiled->hasUnknownWordModel());
  const auto words = readLine(textPath, 5);
  const auto surprisal = readMeasure(surprisalPath);
  const auto stringProbability = readMeasure(stringPath);
  ASSERT_EQ(words.size(), 18u);
  ASSERT_EQ(surprisal.size(), 18u);
  EarleyParser parser(*grammar->compiled);
  for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
    SCOPED_TRACE(numericModeName(mode));
    ParseOptions options;
    options.mode = mode;
    options.prefixStringProbabilities = true;
    const ParseResult result = parser.parse(words, options);
    ASSERT_TRUE(result.success);
    EXPECT_NEAR(result.logProbability, -94.91727077, 1e-8);
    for (std::size_t i = 0; i < words.size(); ++i) {
      EXPECT_EQ(surprisal[i].first, words[i]);
      EXPECT_NEAR(result.surprisal[i] / surprisal[i].second, 1.0, 1e-9) << words[i];
      const double expected = stringProbability[i].second;
      const double actual = std::exp(result.logStringProbability[i + 1]);
      if (expected == 0.0) {
        EXPECT_EQ(actual, 0.0) << words[i];
      } else {
        EXPECT_NEAR(actual / expected, 1.0, 1e-9) << words[i];
      }
    }
  }
}

TEST(SharedEarleyTest, DiscourseLogProbabilitiesMatchEarleyx) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  const auto grammar = loadCompiled(grammarPath, "Discourse");
  ASSERT_TRUE(grammar->compiled);
  EarleyParser parser(*grammar->compiled);
  const struct {
    const char* file;
    std::size_t tokens;
    double negLogProb;
  } cases[] = {{"data/earleyx/data/socialall.ortho.yld.25.concat", 259, 1144.3147621893484},
               {"data/earleyx/data/socialall.ortho.yld.50.concat", 483, 2162.461627145698}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    GWB_REQUIRE_SHARED(path, c.file);
    const auto words = readLine(path, 1);
    ASSERT_EQ(words.size(), c.tokens);
    for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
      ParseOptions options;
      options.mode = mode;
      const ParseResult result = parser.parse(words, options);
      ASSERT_TRUE(result.success) << numericModeName(mode);
      EXPECT_NEAR(-result.logProbability / c.negLogProb, 1.0, 1e-9) << numericModeName(mode);
      EXPECT_EQ(result.viterbiTree.leaves(), words);
    }
  }
}

// Look-ahead pruning changes nothing but the work done: prefix probabilities, the string's
// probability, the Viterbi score and tree are those of plain Earley.
TEST(SharedEarleyTest, LookaheadPruningPreservesEveryResultOnTheDiscourseGrammar) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(path, "data/earleyx/data/socialall.ortho.yld.25.concat");
  const auto grammar = loadCompiled(grammarPath, "Discourse");
  ASSERT_TRUE(grammar->compiled);
  EarleyParser parser(*grammar->compiled);
  const auto words = readLine(path, 1);
  ParseOptions pruned;
  ParseOptions plain;
  plain.lookahead = false;
  const ParseResult a = parser.parse(words, pruned);
  const ParseResult b = parser.parse(words, plain);
  ASSERT_TRUE(a.success && b.success);
  EXPECT_LT(a.items * 3, b.items);  // the pruning does real work
  EXPECT_NEAR(a.logProbability, b.logProbability, 1e-9 * std::abs(b.logProbability));
  EXPECT_NEAR(a.viterbiLogProbability, b.viterbiLogProbability,
              1e-9 * std::abs(b.viterbiLogProbability));
  EXPECT_EQ(a.viterbiTree.toPtb(), b.viterbiTree.toPtb());
  for (std::size_t i = 0; i <= words.size(); ++i)
    EXPECT_NEAR(a.logPrefixProbability[i], b.logPrefixProbability[i],
                1e-9 * (1 + std::abs(b.logPrefixProbability[i])));
}

// String probabilities of every prefix of a discourse by end weights (no chart item added, so
// linear in its length) are those of the textbook method, which completes the whole
// right-recursive spine at every word, to 1e-12; the charts are those of a parse without them.
TEST(SharedEarleyTest, DiscourseStringProbabilitiesByEndWeightsMatchCompletingAtEveryWord) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(path, "data/earleyx/data/socialall.ortho.yld.50.concat");
  const auto grammar = loadCompiled(grammarPath, "Discourse");
  ASSERT_TRUE(grammar->compiled);
  EarleyParser parser(*grammar->compiled);
  const auto words = readLine(path, 1);
  for (NumericMode mode : {NumericMode::Scaled, NumericMode::Log}) {
    SCOPED_TRACE(numericModeName(mode));
    ParseOptions endWeights;
    endWeights.mode = mode;
    endWeights.prefixStringProbabilities = true;
    ParseOptions everyWord = endWeights;
    everyWord.stringProbabilityMethod = StringProbabilityMethod::CompleteEveryWord;
    ParseOptions without = endWeights;
    without.prefixStringProbabilities = false;
    const ParseResult a = parser.parse(words, endWeights);
    const ParseResult b = parser.parse(words, everyWord);
    ASSERT_TRUE(a.success && b.success);
    EXPECT_EQ(a.items, parser.parse(words, without).items);
    EXPECT_GT(2 * b.items, 3 * a.items);  // the spine completed at every word
    int wholeStrings = 0;
    for (std::size_t i = 1; i <= words.size(); ++i) {
      if (std::isinf(b.logStringProbability[i])) {
        EXPECT_EQ(a.logStringProbability[i], b.logStringProbability[i]) << i;
        continue;
      }
      ++wholeStrings;
      EXPECT_NEAR(a.logStringProbability[i], b.logStringProbability[i],
                  1e-12 * std::abs(b.logStringProbability[i]))
          << i;
    }
    EXPECT_GT(wholeStrings, 200);  // 210 of the 483 prefixes are whole discourses
    EXPECT_EQ(a.viterbiTree.toPtb(), b.viterbiTree.toPtb());
  }
}

// Every recording of the social-cue corpus parses as one discourse, with a finite log
// probability that does not depend on the numeric mode.
TEST(SharedEarleyTest, EveryRecordingParsesWithModeIndependentProbability) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(tablePath, "data/social-cues/recordings.tsv");
  const auto grammar = loadCompiled(grammarPath, "Discourse");
  ASSERT_TRUE(grammar->compiled);
  EarleyParser parser(*grammar->compiled);
  std::ifstream table(tablePath);
  std::string line;
  std::getline(table, line);  // header
  int recordings = 0;
  while (std::getline(table, line)) {
    const std::string id = line.substr(0, line.find('\t'));
    SCOPED_TRACE(id);
    const auto words =
        readLine(testing::sharedPath("data/social-cues/recordings/" + id + ".concat"), 1);
    ParseOptions scaled;
    ParseOptions logSpace;
    logSpace.mode = NumericMode::Log;
    scaled.viterbi = logSpace.viterbi = false;
    const ParseResult a = parser.parse(words, scaled);
    const ParseResult b = parser.parse(words, logSpace);
    ASSERT_TRUE(a.success);
    EXPECT_TRUE(std::isfinite(a.logProbability));
    EXPECT_NEAR(a.logProbability / b.logProbability, 1.0, 1e-9);
    ++recordings;
  }
  EXPECT_EQ(recordings, 24);
}

}  // namespace
}  // namespace gwb
