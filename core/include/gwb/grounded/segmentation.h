// Discourse segmentation agreement: a=b, Pk (Beeferman et al. 1999) and WindowDiff (Pevzner &
// Hearst 2002), as the paper's section 7.4 uses them, computed exactly as NLTK
// (nltk.metrics.segmentation) and segeval (segeval.window) do.
//
// A segmentation of N units is a boundary string of N − 1 slots: slot i is set when a segment
// ends after unit i. With a window of k slots, there are L − k + 1 windows over a string of L
// slots (windows i = 0 .. L − k, each covering slots i .. i+k−1):
//
//   Pk          a window is an error when reference and hypothesis disagree on whether it holds
//               any boundary (the two units at its ends are, or are not, in one segment);
//   WindowDiff  a window is an error when they put a different number of boundaries in it.
//
// Both are error rates in [0, 1] (errors / windows); the paper reports 100 × (1 − error).
// segeval's position/mass form (windows i = 0 .. N−k−1 comparing units i and i+k) is the same
// count over the N − 1 slots, and NLTK's boundary strings are used as given.
//
// Default windows differ between the two libraries, and both round half to even (Python 3):
//   segeval  k = round(mean reference segment size / 2), at least 2;
//   NLTK Pk  k = round(len(reference) / (2 × number of reference boundaries)).
// Label sequences (one topic per utterance) become segmentations by putting a boundary wherever
// the label changes, and use segeval's default. Everything is checked against
// ../shared/reference/segmentation/vectors.tsv.
//
// Errors (a window of 0 or longer than the string, strings of different lengths, no boundary
// for NLTK's default) are values: nullopt and a message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gwb {

// Boundary slots: 1 = a segment ends after this unit.
using Boundaries = std::vector<std::uint8_t>;

struct WindowScore {
  std::size_t errors = 0;
  std::size_t windows = 0;
  int window = 0;  // k
  double error() const {
    return windows == 0 ? 0.0 : static_cast<double>(errors) / static_cast<double>(windows);
  }
  double agreement() const { return 100.0 * (1.0 - error()); }  // the paper's figures
};

std::optional<WindowScore> pk(const Boundaries& reference, const Boundaries& hypothesis, int k,
                              std::string* error = nullptr);
// With `weighted`, a window adds |difference in boundary counts| instead of 1 (NLTK's option).
std::optional<WindowScore> windowDiff(const Boundaries& reference, const Boundaries& hypothesis,
                                      int k, bool weighted = false, std::string* error = nullptr);

// Conversions. Masses are segment sizes (2,3,6: three segments of 2, 3 and 6 units).
Boundaries boundariesFromMasses(const std::vector<int>& masses);  // N − 1 slots
std::vector<int> massesFromBoundaries(const Boundaries& boundaries);
// NLTK's strings: '1' = boundary, anything else = none.
Boundaries boundariesFromString(std::string_view text, char boundary = '1');

// The default windows (see above). nltkDefaultWindow is nullopt when there is no boundary
// (NLTK divides by zero).
int segevalDefaultWindow(const std::vector<int>& referenceMasses);
std::optional<int> nltkDefaultWindow(const Boundaries& reference);
// Python 3's round() for a double (half to even).
double roundHalfEven(double value);

// ---- Label sequences ----

// One topic label per unit; a boundary wherever the label changes.
Boundaries boundariesFromLabels(const std::vector<std::string>& labels);

struct SegmentationComparison {
  std::size_t units = 0;
  std::size_t equal = 0;  // units with the same label (a=b)
  WindowScore pk;
  WindowScore windowDiff;
  double aEqualsB() const {
    return units == 0 ? 0.0 : 100.0 * static_cast<double>(equal) / static_cast<double>(units);
  }
};

// Compares two labellings of the same units. `window`: k, or segeval's default from the
// reference. nullopt and *error on different lengths or a window that does not fit.
std::optional<SegmentationComparison> compareLabelings(const std::vector<std::string>& reference,
                                                       const std::vector<std::string>& hypothesis,
                                                       std::optional<int> window = std::nullopt,
                                                       std::string* error = nullptr);

// Pools per-recording comparisons: sums of equal units, of window errors and of windows (each
// recording keeps its own window), so that long recordings weigh more. `window` is 0 in the
// pooled scores when the recordings' windows differ.
SegmentationComparison poolComparisons(const std::vector<SegmentationComparison>& parts);

}  // namespace gwb
