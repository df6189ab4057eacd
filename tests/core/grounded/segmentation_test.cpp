#include "gwb/grounded/segmentation.h"

#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "gwb/common/atomic_file.h"
#include "shared_data.h"

namespace gwb {
namespace {

// "0100x100" = "0100" repeated 100 times (the notation of vectors.tsv).
std::string expand(const std::string& text) {
  const std::size_t x = text.rfind('x');
  if (x == std::string::npos) return text;
  std::string out;
  const int times = std::stoi(text.substr(x + 1));
  for (int i = 0; i < times; ++i) out += text.substr(0, x);
  return out;
}

std::vector<int> masses(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) out.push_back(std::stoi(part));
  return out;
}

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, '\t')) fields.push_back(field);
  return fields;
}

TEST(SegmentationTest, EveryReferenceVectorPasses) {
  GWB_REQUIRE_SHARED(path, "reference/segmentation/vectors.tsv");
  std::string text;
  ASSERT_TRUE(readWholeFile(path, &text));
  std::stringstream in(text);
  std::string line;
  int rows = 0;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    const std::vector<std::string> f = splitTabs(line);
    ASSERT_GE(f.size(), 6u) << line;
    const std::string& metric = f[0];
    const std::string& format = f[1];
    Boundaries reference;
    Boundaries hypothesis;
    int k = 0;
    const bool byDefault = f[4].rfind("default", 0) == 0;
    if (format == "boundary") {
      reference = boundariesFromString(expand(f[2]));
      hypothesis = boundariesFromString(expand(f[3]));
      if (byDefault) k = *nltkDefaultWindow(reference);
    } else {
      ASSERT_EQ(format, "mass") << line;
      reference = boundariesFromMasses(masses(f[2]));
      hypothesis = boundariesFromMasses(masses(f[3]));
      if (byDefault) k = segevalDefaultWindow(masses(f[2]));
    }
    if (byDefault) {
      // "default(6)": the window the library picks by default.
      EXPECT_EQ(k, std::stoi(f[4].substr(8))) << line;
    } else {
      k = std::stoi(f[4]);
    }
    std::string error;
    const auto score = metric == "pk" ? pk(reference, hypothesis, k, &error)
                                      : windowDiff(reference, hypothesis, k, false, &error);
    ASSERT_TRUE(score) << line << ": " << error;
    EXPECT_DOUBLE_EQ(score->error(), std::stod(f[5])) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 24);
}

TEST(SegmentationTest, RoundsHalfToEvenAsPythonDoes) {
  const std::pair<double, double> cases[] = {{0.5, 0.0},    {1.5, 2.0}, {2.5, 2.0},   {3.5, 4.0},
                                             {2.4999, 2.0}, {2.6, 3.0}, {-0.5, -0.0}, {7.0, 7.0}};
  for (const auto& [value, expected] : cases) EXPECT_EQ(roundHalfEven(value), expected) << value;
  // segeval: mean 5 / 2 = 2.5 → 2; mean 7 / 2 = 3.5 → 4; a window is at least 2.
  EXPECT_EQ(segevalDefaultWindow({5, 5}), 2);
  EXPECT_EQ(segevalDefaultWindow({7, 7}), 4);
  EXPECT_EQ(segevalDefaultWindow({1, 1, 1}), 2);
  EXPECT_EQ(nltkDefaultWindow(boundariesFromString("000000")), std::nullopt);
}

TEST(SegmentationTest, MassesAndBoundariesRoundTrip) {
  const std::vector<std::vector<int>> cases = {{2, 3, 6}, {1}, {12}, {1, 1, 1, 1}, {5, 1, 1, 5}};
  for (const auto& m : cases) {
    const Boundaries b = boundariesFromMasses(m);
    int units = 0;
    for (int s : m) units += s;
    EXPECT_EQ(static_cast<int>(b.size()), units - 1);
    EXPECT_EQ(massesFromBoundaries(b), m);
  }
}

TEST(SegmentationTest, BadWindowsAndLengthsAreErrors) {
  std::string error;
  EXPECT_FALSE(pk(boundariesFromString("0101"), boundariesFromString("010"), 2, &error));
  EXPECT_EQ(error, "the segmentations have different lengths (4 and 3 boundary slots)");
  EXPECT_FALSE(
      windowDiff(boundariesFromString("01"), boundariesFromString("10"), 3, false, &error));
  EXPECT_EQ(error, "window 3 does not fit 2 boundary slots (need 1 <= k <= slots)");
  EXPECT_FALSE(pk(boundariesFromString("01"), boundariesFromString("10"), 0, &error));
  EXPECT_FALSE(compareLabelings({"a", "b"}, {"a"}, std::nullopt, &error));
  EXPECT_EQ(error, "the labellings have different lengths (2 and 1)");
}

// Oracle: Pk and WindowDiff straight from their definitions over units (Beeferman et al.;
// Pevzner & Hearst), sharing nothing with the boundary-string implementation.
struct OracleScores {
  double pk;
  double windowDiff;
};
OracleScores oracle(const std::vector<std::string>& ref, const std::vector<std::string>& hyp,
                    int k) {
  const auto sameSegment = [](const std::vector<std::string>& labels, std::size_t i,
                              std::size_t j) {
    for (std::size_t u = i; u < j; ++u)
      if (labels[u] != labels[u + 1]) return false;
    return true;
  };
  const auto boundariesBetween = [](const std::vector<std::string>& labels, std::size_t i,
                                    std::size_t j) {
    int count = 0;
    for (std::size_t u = i; u < j; ++u) count += labels[u] != labels[u + 1] ? 1 : 0;
    return count;
  };
  int pkErrors = 0;
  int wdErrors = 0;
  int windows = 0;
  for (std::size_t i = 0; i + static_cast<std::size_t>(k) < ref.size(); ++i) {
    const std::size_t j = i + static_cast<std::size_t>(k);
    pkErrors += sameSegment(ref, i, j) != sameSegment(hyp, i, j) ? 1 : 0;
    wdErrors += boundariesBetween(ref, i, j) != boundariesBetween(hyp, i, j) ? 1 : 0;
    ++windows;
  }
  return {static_cast<double>(pkErrors) / windows, static_cast<double>(wdErrors) / windows};
}

TEST(SegmentationTest, LabelComparisonsAgreeWithTheDefinitions) {
  std::mt19937 random(7);
  const char* topics[] = {"car", "truck", "None"};
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 5 + random() % 40;
    std::vector<std::string> ref;
    std::vector<std::string> hyp;
    for (std::size_t i = 0; i < n; ++i) {
      // Runs: keep the previous label most of the time.
      ref.push_back(i > 0 && random() % 4 != 0 ? ref.back() : topics[random() % 3]);
      hyp.push_back(random() % 5 == 0 ? topics[random() % 3] : ref.back());
    }
    const int k = 1 + static_cast<int>(random() % 4);
    std::string error;
    const auto c = compareLabelings(ref, hyp, k, &error);
    ASSERT_TRUE(c) << error;
    const OracleScores o = oracle(ref, hyp, k);
    EXPECT_DOUBLE_EQ(c->pk.error(), o.pk);
    EXPECT_DOUBLE_EQ(c->windowDiff.error(), o.windowDiff);
    std::size_t equal = 0;
    for (std::size_t i = 0; i < n; ++i) equal += ref[i] == hyp[i] ? 1 : 0;
    EXPECT_EQ(c->equal, equal);
  }
}

TEST(SegmentationTest, PoolingSumsWindowsAcrossRecordings) {
  const auto a = compareLabelings({"car", "car", "car", "dog", "dog", "dog"},
                                  {"car", "car", "dog", "dog", "dog", "dog"}, 2);
  const auto b = compareLabelings({"pig", "pig", "pig", "pig"}, {"pig", "dog", "dog", "pig"}, 2);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->pk.errors, 2u);
  EXPECT_EQ(a->pk.windows, 4u);
  EXPECT_EQ(b->pk.errors, 2u);
  EXPECT_EQ(b->pk.windows, 2u);
  const SegmentationComparison pooled = poolComparisons({*a, *b});
  EXPECT_EQ(pooled.units, 10u);
  EXPECT_EQ(pooled.equal, 7u);
  EXPECT_DOUBLE_EQ(pooled.aEqualsB(), 70.0);
  EXPECT_DOUBLE_EQ(pooled.pk.error(), 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(pooled.pk.agreement(), 100.0 * (1.0 - 4.0 / 6.0));
  EXPECT_EQ(pooled.pk.window, 2);
}

}  // namespace
}  // namespace gwb
