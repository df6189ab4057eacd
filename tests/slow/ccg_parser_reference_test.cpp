// The CKY parser on the 280 Geo880 test sentences against figures stored from the parser as it
// was before its speed work (tests/data/ccg/geo280-parser-reference.tsv): the lexicon
// bench/bench_ccg.cpp times, built by the same helper (tests/support/geo_workload.h: UBL's
// fixed entity lexicon, co-occurrence lexemes from geo600.dev.giza_probs, ten FUBL-shaped
// templates), with three logical-form features weighted, parsed at beams 10 and 20 and with word
// skipping. Every figure — entries kept and pruned, log Z, the k best scores and the best logical
// form, P(z | x) of the best and of the gold form, digests of the unconditional and conditional
// feature expectations — must agree to 1e-12 (relative to the figure's size).
//
// The stored file was written by the old parser with GWB_WRITE_CCG_REFERENCE=PATH set: then the
// test writes PATH instead of comparing (a tool for the next change that is meant to alter the
// numbers; say why in its commit).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "geo_workload.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "shared_data.h"

namespace gwb::ccg {
namespace {

std::vector<std::string> splitOn(const std::string& line, const std::string& separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t pos; (pos = line.find(separator, start)) != std::string::npos;) {
    out.push_back(line.substr(start, pos - start));
    start = pos + separator.size();
  }
  out.push_back(line.substr(start));
  return out;
}

// A stable pseudo-random weight in [-1, 1) for a feature name (FNV-1a), for expectation digests.
double featureProbe(const std::string& name) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  return static_cast<double>(h >> 11) / static_cast<double>(1ULL << 52) - 1.0;
}

double digest(const FeatureCounts& counts) {
  double sum = 0;
  for (const auto& [name, value] : counts) sum += featureProbe(name) * value;
  return sum;
}

std::string number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

struct Config {
  std::string name;
  int beam;
  bool skipWords;
  bool keepPruned;
  std::size_t sentences;  // the first this many
};

const Config kConfigs[] = {
    {"beam10", 10, false, false, 280},
    {"beam20", 20, false, true, 280},
    {"beam10-skip", 10, true, false, 60},
};

// One line of figures per (configuration, sentence), tab-separated.
std::vector<std::string> figures(const FactoredLexicon& lexicon, const Config& config,
                                 const SemanticExample& example, std::size_t index) {
  CkyOptions options;
  options.beam = config.beam;
  options.skipWords = config.skipWords;
  options.keepPrunedEntries = config.keepPruned;
  CkyChart chart(lexicon, example.words, options);
  std::size_t pruned = 0;
  for (int b = 0; b < chart.length(); ++b) {
    for (int e = b + 1; e <= chart.length(); ++e) {
      for (const ChartEntry& entry : chart.cell(b, e).entries) pruned += entry.pruned ? 1 : 0;
    }
  }
  std::vector<std::string> out = {config.name, std::to_string(index),
                                  std::to_string(chart.entryCount()), std::to_string(pruned),
                                  chart.hasParse() ? "1" : "0"};
  if (!chart.hasParse()) return out;
  out.push_back(number(chart.logPartition()));
  const std::vector<Derivation> best = chart.kBest(3);
  for (const Derivation& derivation : best) out.push_back(number(derivation.score));
  for (std::size_t i = best.size(); i < 3; ++i) out.emplace_back("-");
  out.push_back(number(chart.logProbability(best.front().logicalForm)));
  out.push_back(std::to_string(chart.logicalForms().size()));
  out.push_back(number(digest(chart.expectations())));
  const double gold = chart.logProbability(example.logicalForm);
  out.push_back(number(gold));
  const Term& form = example.logicalForm;
  out.push_back(std::isinf(gold) ? "-" : number(digest(chart.expectations(&form))));
  out.push_back(toString(best.front().logicalForm));
  return out;
}

TEST(CcgParserReferenceTest, Geo280AgreesWithTheStoredFigures) {
  for (const std::string& file : testing::geoWorkloadFiles()) {
    GWB_REQUIRE_SHARED(path, file);
  }
  std::string error;
  std::optional<testing::GeoWorkload> workload =
      testing::loadGeoWorkload(testing::sharedDir(), &error);
  ASSERT_TRUE(workload) << error;
  ASSERT_EQ(workload->test.size(), 280u);
  ASSERT_EQ(workload->entries, 4279u);
  FactoredLexicon& lexicon = workload->lexicon;
  const std::vector<SemanticExample>& examples = workload->test;
  // Some logical-form features weighted, so that they take part in every figure.
  lexicon.setWeight("lf-arg:next_to:t,var,1", 0.5);
  lexicon.setWeight("lf-type:loc:t,e,1", -0.25);
  lexicon.setWeight("conj:1,next_to:t,state:t", 0.75);

  std::vector<std::vector<std::string>> lines;
  for (const Config& config : kConfigs) {
    for (std::size_t i = 0; i < config.sentences; ++i) {
      lines.push_back(figures(lexicon, config, examples[i], i));
    }
  }

  if (const char* writePath = std::getenv("GWB_WRITE_CCG_REFERENCE")) {
    std::ofstream out(writePath);
    out << "# config\tsentence\tkept\tpruned\tparsed\tlogZ\tbest1\tbest2\tbest3\tlogP(best)\t"
           "forms\tE-digest\tlogP(gold)\tE|gold-digest\tbest logical form\n";
    for (const auto& fields : lines) {
      for (std::size_t f = 0; f < fields.size(); ++f) out << (f ? "\t" : "") << fields[f];
      out << "\n";
    }
    ASSERT_TRUE(out.good()) << writePath;
    GTEST_SKIP() << "wrote " << writePath;
  }

  std::ifstream stored(testing::sourceDir() + "/tests/data/ccg/geo280-parser-reference.tsv");
  ASSERT_TRUE(stored.good());
  std::vector<std::vector<std::string>> expected;
  for (std::string line; std::getline(stored, line);) {
    if (!line.empty() && line[0] != '#') expected.push_back(splitOn(line, "\t"));
  }
  ASSERT_EQ(expected.size(), lines.size());
  int compared = 0;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const auto& want = expected[l];
    const auto& got = lines[l];
    SCOPED_TRACE(want[0] + " sentence " + want[1]);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t f = 0; f < want.size(); ++f) {
      const bool numeric = f >= 5 && f + 1 < want.size() && want[f] != "-" && f != 10;
      if (!numeric) {
        EXPECT_EQ(got[f], want[f]) << "field " << f;
        continue;
      }
      const double a = std::stod(want[f]);
      const double b = std::stod(got[f]);
      if (std::isinf(a) || std::isinf(b)) {
        EXPECT_EQ(a, b) << "field " << f;
      } else {
        EXPECT_NEAR(b, a, 1e-12 * std::max(1.0, std::fabs(a))) << "field " << f;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 2000);
}

}  // namespace
}  // namespace gwb::ccg
