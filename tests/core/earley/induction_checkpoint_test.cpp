// Checkpoints of induction runs (induction_checkpoint.h): the text round-trips every double
// exactly, a cut-short file is refused, and a run resumed from any checkpoint ends bitwise as
// the uninterrupted run — for VB, and for EM in Earleyx's Keep mode (whose support of the counts
// is recomputed on resume).
#include "gwb/earley/induction_checkpoint.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"

namespace gwb {
namespace {

Grammar ppGrammar() {
  GrammarReadOptions options;
  options.runChecks = false;
  GrammarLoad load = loadGrammarFile(testing::sourceDir() + "/samples/pp-attachment.cfg", options);
  EXPECT_TRUE(load.ok());
  return std::move(load.grammar);
}

std::vector<std::vector<std::string>> ppSentences() {
  std::vector<std::vector<std::string>> sentences;
  for (const char* line :
       {"i saw the man with the telescope", "john saw a man in the park with a telescope",
        "the man walked", "i saw john", "the man saw i"})
    sentences.push_back(tokenize(line));
  return sentences;
}

TEST(InductionCheckpoint, TextRoundTripsEveryDoubleExactly) {
  InductionCheckpoint checkpoint;
  checkpoint.iteration = 2;
  checkpoint.run = "method=vb seed=3";
  checkpoint.objective = 0.1 + 0.2;
  checkpoint.probabilities = {1.0 / 3.0, 0.0, 5e-324, 1e308, std::nextafter(1.0, 2.0)};
  IterationRecord first;
  first.iteration = 1;
  first.negLogLikelihood = 12.345678901234567;
  first.freeEnergy = std::numeric_limits<double>::quiet_NaN();
  first.variationalFreeEnergy = -std::numeric_limits<double>::infinity();
  first.objective = 12.345678901234567;
  first.liveRules = 17;
  first.failures = 2;
  first.failedSentences = {3, 9};
  IterationRecord second = first;
  second.iteration = 2;
  second.failures = 0;
  second.failedSentences.clear();
  second.objectiveIncreased = true;
  checkpoint.records = {first, second};

  std::string error;
  const auto read = parseInductionCheckpoint(formatInductionCheckpoint(checkpoint), &error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->iteration, 2);
  EXPECT_EQ(read->run, checkpoint.run);
  EXPECT_EQ(read->objective, checkpoint.objective);
  EXPECT_EQ(read->probabilities, checkpoint.probabilities);
  ASSERT_EQ(read->records.size(), 2u);
  EXPECT_EQ(read->records[0].negLogLikelihood, first.negLogLikelihood);
  EXPECT_TRUE(std::isnan(read->records[0].freeEnergy));
  EXPECT_EQ(read->records[0].variationalFreeEnergy, first.variationalFreeEnergy);
  EXPECT_EQ(read->records[0].failedSentences, (std::vector<std::size_t>{3, 9}));
  EXPECT_TRUE(read->records[1].objectiveIncreased);
}

// A checkpoint of one iteration with the given rule probabilities, as text.
std::string oneIterationCheckpoint(std::vector<double> probabilities) {
  InductionCheckpoint checkpoint;
  checkpoint.iteration = 1;
  checkpoint.records.resize(1);
  checkpoint.records[0].iteration = 1;
  checkpoint.probabilities = std::move(probabilities);
  return formatInductionCheckpoint(checkpoint);
}

TEST(InductionCheckpoint, ACutShortFileIsRefusedWithTheLine) {
  const std::string text = oneIterationCheckpoint({0.5, 0.5});
  std::string error;
  EXPECT_FALSE(parseInductionCheckpoint(text.substr(0, text.size() - 4), &error));
  EXPECT_NE(error.find("'end'"), std::string::npos) << error;
  EXPECT_FALSE(parseInductionCheckpoint("not a checkpoint\n", &error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
  // A damaged count is an error at the first missing line, not an allocation of its size
  // (std::length_error or bad_alloc before the fix).
  std::string huge = text;
  huge.replace(huge.find("probabilities 2"), 15, "probabilities 18446744073709551615");
  EXPECT_FALSE(parseInductionCheckpoint(huge, &error));
  EXPECT_EQ(error, "line 9: expected a probability (a hexadecimal float)");
}

// Defects the bad-input corpus (tests/data/bad-input/induction-checkpoint) found: a checkpoint
// with a byte-order mark or CRLF / CR-only line ends was "not a checkpoint of this version", and a
// probability NaN, infinite or negative was read into θ.
TEST(InductionCheckpoint, LinesEndAsInEveryReaderAndProbabilitiesAreNumbers) {
  const std::vector<double> probabilities = {0.5, 0.25};
  const std::string text = oneIterationCheckpoint(probabilities);
  std::string error;
  const auto bom = parseInductionCheckpoint("\xEF\xBB\xBF" + text, &error);
  ASSERT_TRUE(bom) << error;
  EXPECT_EQ(bom->probabilities, probabilities);
  for (const char* ends : {"\r\n", "\r"}) {
    std::string other;
    for (char c : text) other += c == '\n' ? std::string(ends) : std::string(1, c);
    const auto read = parseInductionCheckpoint(other, &error);
    ASSERT_TRUE(read) << error;
    EXPECT_EQ(read->probabilities, probabilities);
    EXPECT_EQ(read->records.size(), 1u);
  }
  EXPECT_FALSE(parseInductionCheckpoint(std::string("\xFF\xFEg\0w\0b\0", 8), &error));
  EXPECT_EQ(error,
            "line 1: the file is UTF-16 encoded; expected UTF-8 (or ASCII) text: save it as UTF-8");
  for (const char* bad : {"nan", "inf", "-0x1p-1"}) {
    std::string damaged = text;
    damaged.replace(damaged.find("0x1p-2"), 6, bad);
    EXPECT_FALSE(parseInductionCheckpoint(damaged, &error)) << bad;
    EXPECT_EQ(error, "line 8: expected a probability (a finite hexadecimal float >= 0), found '" +
                         std::string(bad) + "'");
  }
}

// Text after a line's value was ignored: `iteration 1x` was iteration 1, `record ... 0 junk` had
// no failures, an increase flag of 7 was true.
TEST(InductionCheckpoint, ALineWithTextAfterItsValuesIsRefused) {
  const std::string text = oneIterationCheckpoint({1.0});
  std::string error;
  ASSERT_TRUE(parseInductionCheckpoint(text, &error)) << error;
  const std::string record =
      text.substr(text.find("record "), text.find("\nprobabilities") - text.find("record "));
  struct Damage {
    std::string good;
    std::string bad;
    int line;
  };
  const Damage damages[] = {
      {"iteration 1\n", "iteration 1x\n", 3},
      {"objective 0x0p+0\n", "objective 0x0p+0 1\n", 4},
      {record, record + " junk", 5},
      {record, record.substr(0, record.size() - 3) + "7 0", 5},
      {"probabilities 1\n", "probabilities 1 2\n", 6},
  };
  for (const Damage& d : damages) {
    std::string damaged = text;
    ASSERT_NE(damaged.find(d.good), std::string::npos) << d.good;
    damaged.replace(damaged.find(d.good), d.good.size(), d.bad);
    EXPECT_FALSE(parseInductionCheckpoint(damaged, &error)) << d.bad;
    EXPECT_EQ(error.substr(0, 7), "line " + std::to_string(d.line) + ":") << d.bad << ": " << error;
  }
}

void expectResumeIsUninterrupted(InductionOptions options) {
  options.maxIterations = 7;
  options.chunkTokens = 5;  // several chunks
  options.init = InitMethod::Uniform;
  options.seed = 4;
  std::vector<InductionCheckpoint> checkpoints;
  InductionControl control;
  control.onCheckpoint = [&](const InductionCheckpoint& c) { checkpoints.push_back(c); };
  const InductionResult whole = induceGrammar(ppGrammar(), ppSentences(), options, control);
  ASSERT_TRUE(whole.ok()) << whole.message;
  ASSERT_GE(whole.records.size(), 4u);
  ASSERT_EQ(checkpoints.size(), whole.records.size() - 1);  // after every iteration but the last
  for (const InductionCheckpoint& saved : checkpoints) {
    std::string error;
    const auto read = parseInductionCheckpoint(formatInductionCheckpoint(saved), &error);
    ASSERT_TRUE(read) << error;
    InductionControl resume;
    resume.resume = &*read;
    const InductionResult resumed = induceGrammar(ppGrammar(), ppSentences(), options, resume);
    ASSERT_TRUE(resumed.ok()) << resumed.message;
    ASSERT_EQ(resumed.records.size(), whole.records.size()) << "from " << saved.iteration;
    for (std::size_t k = 0; k < whole.records.size(); ++k) {
      EXPECT_EQ(resumed.records[k].objective, whole.records[k].objective)
          << "iteration " << k + 1 << ", resumed after " << saved.iteration;
    }
    for (RuleId id = 0; id < static_cast<RuleId>(whole.grammar.ruleCount()); ++id) {
      EXPECT_EQ(resumed.grammar.rule(id).probability, whole.grammar.rule(id).probability)
          << "rule " << id << ", resumed after " << saved.iteration;
    }
    EXPECT_EQ(resumed.stopReason, whole.stopReason);
  }
}

TEST(InductionCheckpoint, ResumedVbRunEndsAsTheUninterruptedOne) {
  InductionOptions options;
  options.method = InductionMethod::Vb;
  options.defaultPrior = 0.5;
  expectResumeIsUninterrupted(options);
}

TEST(InductionCheckpoint, ResumedEarleyxEmRunEndsAsTheUninterruptedOne) {
  expectResumeIsUninterrupted(InductionOptions::earleyx(InductionMethod::Em));
}

TEST(InductionCheckpoint, ACheckpointOfAnotherGrammarIsRefused) {
  InductionCheckpoint other;
  other.iteration = 1;
  other.probabilities = {1.0};
  InductionControl control;
  control.resume = &other;
  InductionOptions options;
  options.maxIterations = 2;
  const InductionResult result = induceGrammar(ppGrammar(), ppSentences(), options, control);
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.message.find("checkpoint has 1 rule probabilities"), std::string::npos)
      << result.message;
}

}  // namespace
}  // namespace gwb
