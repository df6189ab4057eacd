// Every number the earley domain writes for another program reads back to the same double: the
// number formats themselves (shortest round-trip text, Java's Double.toString form), the grammar
// writers (Earleyx .iogrammar with its prior column, NLTK .pcfg), and induction's curve CSV and
// Earleyx .obj trace. (gwb parse writes its .surprisal/.prefix/.stringprob files with
// formatJavaDouble and its TSV, summary and .kbest with formatProbability.)
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/common/number_format.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction_output.h"

namespace gwb {
namespace {

double readBack(const std::string& text) {
  if (text == "Infinity" || text == "inf") return INFINITY;
  if (text == "-Infinity" || text == "-inf") return -INFINITY;
  return std::strtod(text.c_str(), nullptr);
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Awkward doubles: neighbours of round numbers, extremes, subnormals, the free energies and
// log probabilities of the issue, and random bit patterns.
std::vector<double> awkwardDoubles() {
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                0.1,
                                1.0 / 3.0,
                                2.0 / 3.0,
                                147994.0224306339,
                                147994.02243063806,
                                -211204.39275711923,
                                1e10,
                                1e10 + 0.5,
                                5e-324,
                                2.2250738585072014e-308,
                                1.7976931348623157e308,
                                std::nextafter(1.0, 2.0),
                                std::nextafter(0.1, 0.0),
                                123456789012345678.0,
                                INFINITY,
                                -INFINITY};
  std::mt19937_64 random(19);
  while (values.size() < 5000) {
    const std::uint64_t bits = random();
    double d = 0.0;
    std::memcpy(&d, &bits, sizeof d);
    if (std::isfinite(d)) values.push_back(d);
  }
  return values;
}

TEST(OutputRoundTripTest, NumberFormatsReadBackToTheSameDouble) {
  for (const double value : awkwardDoubles()) {
    const std::string shortest = formatProbability(value);
    const std::string java = formatJavaDouble(value);
    EXPECT_TRUE(sameBits(readBack(shortest), value)) << shortest;
    EXPECT_TRUE(sameBits(readBack(java), value)) << java;
  }
}

TEST(OutputRoundTripTest, GrammarWritersKeepEveryProbabilityAndPrior) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::string text;
  std::vector<double> probabilities, priors;
  for (int k = 0; k < 200; ++k) {
    const double p = k % 7 == 0 ? std::ldexp(unit(random), -900) : unit(random);
    const double prior = k % 5 == 0 ? 1e10 + unit(random) : unit(random) * 3;
    probabilities.push_back(p);
    priors.push_back(prior);
    text += formatProbability(prior) + " S->[_w" + std::to_string(k) +
            "] : " + formatProbability(p) + "\n";
  }
  GrammarReadOptions earleyx;
  earleyx.root = "S";
  earleyx.runChecks = false;
  const GrammarLoad loaded = readGrammar(text, "in.grammar", earleyx);
  ASSERT_TRUE(loaded.ok());
  std::ostringstream earleyxOut, nltkOut;
  ASSERT_TRUE(writeEarleyx(loaded.grammar, earleyxOut));
  writeNltk(loaded.grammar, nltkOut);
  GrammarReadOptions nltk = earleyx;
  nltk.format = GrammarFormat::Nltk;
  for (const auto& [written, options] :
       {std::pair{earleyxOut.str(), earleyx}, std::pair{nltkOut.str(), nltk}}) {
    const GrammarLoad again = readGrammar(written, "out", options);
    ASSERT_TRUE(again.ok()) << written.substr(0, 400);
    ASSERT_EQ(again.grammar.ruleCount(), probabilities.size());
    for (RuleId id = 0; id < static_cast<RuleId>(probabilities.size()); ++id) {
      const Rule& rule = again.grammar.rule(id);
      EXPECT_TRUE(sameBits(rule.probability, probabilities[static_cast<std::size_t>(id)]))
          << again.grammar.ruleText(id);
      ASSERT_TRUE(rule.prior.has_value());
      EXPECT_TRUE(sameBits(*rule.prior, priors[static_cast<std::size_t>(id)]))
          << again.grammar.ruleText(id);
    }
  }
}

TEST(OutputRoundTripTest, InductionCurveAndObjectiveTraceKeepEveryDigit) {
  const std::vector<double> values = awkwardDoubles();
  std::vector<IterationRecord> records;
  for (std::size_t k = 0; k + 5 < 200; k += 5) {
    IterationRecord r;
    r.iteration = static_cast<int>(records.size()) + 1;
    r.negLogLikelihood = std::abs(values[k + 20]);
    r.freeEnergy = values[k + 21];
    r.variationalFreeEnergy = values[k + 22];
    r.objective = values[k + 23];
    r.seconds = std::abs(values[k + 24]);
    records.push_back(r);
  }
  records[0].negLogLikelihood = 142884.66456536856;
  records[0].objective = 147994.0224306339;
  std::ostringstream csv, obj;
  writeCurveCsv(records, csv);
  writeEarleyxObjectives(records, obj);
  std::istringstream csvIn(csv.str()), objIn(obj.str());
  std::string line;
  std::getline(csvIn, line);  // header
  for (const IterationRecord& r : records) {
    ASSERT_TRUE(std::getline(csvIn, line));
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
    ASSERT_GE(fields.size(), 7u) << line;
    EXPECT_TRUE(sameBits(readBack(fields[1]), r.negLogLikelihood)) << line;
    EXPECT_TRUE(sameBits(readBack(fields[2]), r.freeEnergy)) << line;
    EXPECT_TRUE(sameBits(readBack(fields[3]), r.variationalFreeEnergy)) << line;
    EXPECT_TRUE(sameBits(readBack(fields[4]), r.objective)) << line;
    EXPECT_TRUE(sameBits(readBack(fields[6]), r.seconds)) << line;
    std::string word, nll, objective;
    int iteration = 0;
    ASSERT_TRUE(objIn >> word >> iteration >> nll >> objective);
    EXPECT_EQ(iteration, r.iteration);
    EXPECT_TRUE(sameBits(readBack(nll), r.negLogLikelihood)) << nll;
    EXPECT_TRUE(sameBits(readBack(objective), r.objective)) << objective;
  }
}

}  // namespace
}  // namespace gwb
