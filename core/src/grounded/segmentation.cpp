#include "gwb/grounded/segmentation.h"

#include <cmath>
#include <cstdlib>
#include <numeric>

namespace gwb {

namespace {

bool checkWindow(const Boundaries& reference, const Boundaries& hypothesis, int k,
                 std::string* error) {
  if (reference.size() != hypothesis.size()) {
    if (error) {
      *error = "the segmentations have different lengths (" + std::to_string(reference.size()) +
               " and " + std::to_string(hypothesis.size()) + " boundary slots)";
    }
    return false;
  }
  if (k < 1 || static_cast<std::size_t>(k) > reference.size()) {
    if (error) {
      *error = "window " + std::to_string(k) + " does not fit " + std::to_string(reference.size()) +
               " boundary slots (need 1 <= k <= slots)";
    }
    return false;
  }
  return true;
}

// Boundaries in slots [i, i + k) for every window i, by a running sum.
std::vector<int> windowCounts(const Boundaries& b, int k) {
  const std::size_t windows = b.size() - static_cast<std::size_t>(k) + 1;
  std::vector<int> counts(windows, 0);
  int running = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(k); ++i) running += b[i] != 0U ? 1 : 0;
  for (std::size_t i = 0; i < windows; ++i) {
    counts[i] = running;
    if (i + 1 < windows) {
      running -= b[i] != 0U ? 1 : 0;
      running += b[i + static_cast<std::size_t>(k)] != 0U ? 1 : 0;
    }
  }
  return counts;
}

}  // namespace

double roundHalfEven(double value) {
  const double floor = std::floor(value);
  const double diff = value - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1.0;
  return std::fmod(floor, 2.0) == 0.0 ? floor : floor + 1.0;
}

std::optional<WindowScore> pk(const Boundaries& reference, const Boundaries& hypothesis, int k,
                              std::string* error) {
  if (!checkWindow(reference, hypothesis, k, error)) return std::nullopt;
  const std::vector<int> r = windowCounts(reference, k);
  const std::vector<int> h = windowCounts(hypothesis, k);
  WindowScore score;
  score.window = k;
  score.windows = r.size();
  for (std::size_t i = 0; i < r.size(); ++i)
    if ((r[i] > 0) != (h[i] > 0)) ++score.errors;
  return score;
}

std::optional<WindowScore> windowDiff(const Boundaries& reference, const Boundaries& hypothesis,
                                      int k, bool weighted, std::string* error) {
  if (!checkWindow(reference, hypothesis, k, error)) return std::nullopt;
  const std::vector<int> r = windowCounts(reference, k);
  const std::vector<int> h = windowCounts(hypothesis, k);
  WindowScore score;
  score.window = k;
  score.windows = r.size();
  for (std::size_t i = 0; i < r.size(); ++i) {
    const int difference = std::abs(r[i] - h[i]);
    score.errors += static_cast<std::size_t>(weighted ? difference : (difference > 0 ? 1 : 0));
  }
  return score;
}

Boundaries boundariesFromMasses(const std::vector<int>& masses) {
  Boundaries b;
  for (std::size_t s = 0; s < masses.size(); ++s) {
    for (int u = 1; u < masses[s]; ++u) b.push_back(0);
    if (masses[s] > 0 && s + 1 < masses.size()) b.push_back(1);
  }
  return b;
}

std::vector<int> massesFromBoundaries(const Boundaries& boundaries) {
  std::vector<int> masses;
  int current = 1;
  for (std::uint8_t slot : boundaries) {
    if (slot != 0U) {
      masses.push_back(current);
      current = 1;
    } else {
      ++current;
    }
  }
  masses.push_back(current);
  return masses;
}

Boundaries boundariesFromString(std::string_view text, char boundary) {
  Boundaries b;
  b.reserve(text.size());
  for (char c : text) b.push_back(c == boundary ? 1 : 0);
  return b;
}

int segevalDefaultWindow(const std::vector<int>& referenceMasses) {
  if (referenceMasses.empty()) return 2;
  const double total = std::accumulate(referenceMasses.begin(), referenceMasses.end(), 0.0);
  const double mean = total / static_cast<double>(referenceMasses.size());
  const int k = static_cast<int>(roundHalfEven(mean / 2.0));
  return k > 1 ? k : 2;
}

std::optional<int> nltkDefaultWindow(const Boundaries& reference) {
  std::size_t count = 0;
  for (std::uint8_t slot : reference) count += slot != 0U ? 1 : 0;
  if (count == 0) return std::nullopt;
  return static_cast<int>(
      roundHalfEven(static_cast<double>(reference.size()) / (static_cast<double>(count) * 2.0)));
}

Boundaries boundariesFromLabels(const std::vector<std::string>& labels) {
  Boundaries b;
  for (std::size_t i = 0; i + 1 < labels.size(); ++i)
    b.push_back(labels[i] != labels[i + 1] ? 1 : 0);
  return b;
}

std::optional<SegmentationComparison> compareLabelings(const std::vector<std::string>& reference,
                                                       const std::vector<std::string>& hypothesis,
                                                       std::optional<int> window,
                                                       std::string* error) {
  if (reference.size() != hypothesis.size()) {
    if (error) {
      *error = "the labellings have different lengths (" + std::to_string(reference.size()) +
               " and " + std::to_string(hypothesis.size()) + ")";
    }
    return std::nullopt;
  }
  const Boundaries r = boundariesFromLabels(reference);
  const Boundaries h = boundariesFromLabels(hypothesis);
  const int k = window ? *window : segevalDefaultWindow(massesFromBoundaries(r));
  SegmentationComparison c;
  c.units = reference.size();
  for (std::size_t i = 0; i < reference.size(); ++i)
    if (reference[i] == hypothesis[i]) ++c.equal;
  auto p = pk(r, h, k, error);
  if (!p) return std::nullopt;
  auto w = windowDiff(r, h, k, false, error);
  if (!w) return std::nullopt;
  c.pk = *p;
  c.windowDiff = *w;
  return c;
}

SegmentationComparison poolComparisons(const std::vector<SegmentationComparison>& parts) {
  SegmentationComparison pooled;
  bool first = true;
  for (const SegmentationComparison& c : parts) {
    pooled.units += c.units;
    pooled.equal += c.equal;
    pooled.pk.errors += c.pk.errors;
    pooled.pk.windows += c.pk.windows;
    pooled.windowDiff.errors += c.windowDiff.errors;
    pooled.windowDiff.windows += c.windowDiff.windows;
    if (first) {
      pooled.pk.window = c.pk.window;
      pooled.windowDiff.window = c.windowDiff.window;
      first = false;
    } else if (pooled.pk.window != c.pk.window) {
      pooled.pk.window = 0;
      pooled.windowDiff.window = 0;
    }
  }
  return pooled;
}

}  // namespace gwb
