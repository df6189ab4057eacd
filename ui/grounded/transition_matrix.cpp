#include "ui/grounded/transition_matrix.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>
#include <sstream>

namespace gwb::ui {

namespace {

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string shortest(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

}  // namespace

Eigen::MatrixXd transitionValues(const TopicTransitions& transitions, TransitionValues values,
                                 const TransitionCounts* counts) {
  switch (values) {
    case TransitionValues::RuleProbabilities: return transitions.transition;
    case TransitionValues::RescaledRows: return transitions.stochastic();
    case TransitionValues::ExpectedCounts:
      if (counts && counts->transition.rows() == transitions.transition.rows())
        return counts->transition;
      return Eigen::MatrixXd::Zero(transitions.transition.rows(), transitions.transition.cols());
  }
  return transitions.transition;
}

Eigen::VectorXd topicFrequencies(const TopicTransitions& transitions,
                                 const TransitionCounts* counts, std::string* note) {
  if (note) note->clear();
  if (counts && counts->transition.rows() == transitions.transition.rows())
    return counts->transition.rowwise().sum() + counts->ending;
  Occupancy occupancy = transitions.occupancyDistribution();
  if (note && !occupancy.fromEndings) *note = occupancy.explanation;
  return std::move(occupancy.share);
}

std::vector<std::size_t> frequencyOrder(const Eigen::VectorXd& frequencies) {
  std::vector<std::size_t> order(static_cast<std::size_t>(frequencies.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return frequencies(static_cast<Eigen::Index>(a)) > frequencies(static_cast<Eigen::Index>(b));
  });
  return order;
}

std::vector<std::size_t> clusterOrder(const Eigen::MatrixXd& matrix) {
  const Eigen::Index n = matrix.rows();
  if (n == 0) return {};
  // Profiles: the rescaled row, then the column of the rescaled matrix.
  Eigen::MatrixXd p = matrix;
  for (Eigen::Index r = 0; r < n; ++r) {
    const double sum = p.row(r).sum();
    if (sum > 0.0) p.row(r) /= sum;
  }
  Eigen::MatrixXd profiles(n, 2 * n);
  profiles.leftCols(n) = p;
  profiles.rightCols(n) = p.transpose();
  Eigen::MatrixXd distance(n, n);
  for (Eigen::Index a = 0; a < n; ++a)
    for (Eigen::Index b = 0; b < n; ++b)
      distance(a, b) = (profiles.row(a) - profiles.row(b)).norm();

  std::vector<std::vector<std::size_t>> clusters;
  for (Eigen::Index i = 0; i < n; ++i) clusters.push_back({static_cast<std::size_t>(i)});
  const auto d = [&](std::size_t a, std::size_t b) {
    return distance(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b));
  };
  const auto average = [&](const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
    double sum = 0.0;
    for (const std::size_t x : a)
      for (const std::size_t y : b) sum += d(x, y);
    return sum / static_cast<double>(a.size() * b.size());
  };
  while (clusters.size() > 1) {
    std::size_t bestA = 0;
    std::size_t bestB = 1;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t a = 0; a < clusters.size(); ++a) {
      for (std::size_t b = a + 1; b < clusters.size(); ++b) {
        const double value = average(clusters[a], clusters[b]);
        if (value < best) {
          best = value;
          bestA = a;
          bestB = b;
        }
      }
    }
    std::vector<std::size_t> left = clusters[bestA];
    std::vector<std::size_t> right = clusters[bestB];
    // Join the ends that are closest: A·B, A·rev(B), rev(A)·B, rev(A)·rev(B).
    const double ab = d(left.back(), right.front());
    const double aRb = d(left.back(), right.back());
    const double rAb = d(left.front(), right.front());
    const double rArb = d(left.front(), right.back());
    const double smallest = std::min({ab, aRb, rAb, rArb});
    if (smallest < ab) {
      if (smallest == aRb) {
        std::reverse(right.begin(), right.end());
      } else if (smallest == rAb) {
        std::reverse(left.begin(), left.end());
      } else {
        std::reverse(left.begin(), left.end());
        std::reverse(right.begin(), right.end());
      }
    }
    left.insert(left.end(), right.begin(), right.end());
    clusters[bestA] = std::move(left);
    clusters.erase(clusters.begin() + static_cast<std::ptrdiff_t>(bestB));
  }
  return clusters.front();
}

AlignedMatrices alignMatrices(const std::vector<std::string>& firstTopics,
                              const Eigen::MatrixXd& first,
                              const std::vector<std::string>& secondTopics,
                              const Eigen::MatrixXd& second) {
  AlignedMatrices out;
  out.topics = firstTopics;
  for (const std::string& t : secondTopics)
    if (std::find(out.topics.begin(), out.topics.end(), t) == out.topics.end())
      out.topics.push_back(t);
  const auto n = static_cast<Eigen::Index>(out.topics.size());
  const auto place = [&](const std::vector<std::string>& topics, const Eigen::MatrixXd& m) {
    std::vector<Eigen::Index> at;
    for (const std::string& t : topics)
      at.push_back(static_cast<Eigen::Index>(std::find(out.topics.begin(), out.topics.end(), t) -
                                             out.topics.begin()));
    Eigen::MatrixXd placed = Eigen::MatrixXd::Zero(n, n);
    for (std::size_t i = 0; i < topics.size(); ++i)
      for (std::size_t j = 0; j < topics.size(); ++j)
        placed(at[i], at[j]) = m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    return placed;
  };
  out.first = place(firstTopics, first);
  out.second = place(secondTopics, second);
  return out;
}

std::string matrixCsv(const std::vector<std::string>& topics, const Eigen::MatrixXd& matrix,
                      const std::vector<std::size_t>& order) {
  std::ostringstream out;
  out << "from";
  for (const std::size_t j : order) out << ',' << csvField(topics[j]);
  out << '\n';
  for (const std::size_t i : order) {
    out << csvField(topics[i]);
    for (const std::size_t j : order)
      out << ',' << shortest(matrix(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)));
    out << '\n';
  }
  return out.str();
}

}  // namespace gwb::ui
