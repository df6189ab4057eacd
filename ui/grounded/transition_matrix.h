// The numbers behind the topic-transition heatmap (Luong, Frank & Johnson 2013, section 7.1):
// which values a cell shows, in which topic order, and the difference between two grammars.
//
// Values. A cell (t, t') shows one of
//   rule probabilities  P(Discourse.t → Sentence.t Discourse.t') as stored in the grammar
//                       (core's TopicTransitions::transition);
//   rescaled rows       each row divided by its sum (TopicTransitions::stochastic): the chain
//                       given that the discourse goes on;
//   expected counts     E[c(Discourse.t → Sentence.t Discourse.t')] summed over the recordings
//                       of a corpus, each recording parsed as one string (inside-outside,
//                       core's expectedTransitionCounts) — how often the grammar uses the
//                       transition to explain the data.
// Orders. Topics are listed in grammar order, by frequency (descending; ties keep grammar
// order) or by clustering. Frequency is the expected number of utterances about the topic when
// counts are known (row sum plus ending count), else the grammar's occupancy (the share of
// utterances its chain generates). Clustering is average-linkage (UPGMA) agglomeration of the
// topics' profiles — a topic's row of the rescaled matrix followed by its column, so topics that
// go to and come from the same places sit together — under Euclidean distance; when two clusters
// merge, the four ways of joining their leaf orders (each reversed or not) are tried and the one
// whose touching ends are closest kept, a greedy version of optimal leaf ordering. Ties break by
// index, so the order is deterministic. Every order is a permutation of 0..n−1.
// Difference. Two grammars' matrices are aligned by topic name over the union of their topics
// (the first grammar's order, then topics only the second has); a topic a grammar lacks counts as
// 0 there. The difference is first − second, cell by cell.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gwb/common/eigen.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_transitions.h"
#include "gwb/grounded/transition_counts.h"

namespace gwb::ui {

enum class TransitionValues { RuleProbabilities, RescaledRows, ExpectedCounts };
enum class TopicOrder { Grammar, Frequency, Clustering };

// The values of the heatmap (topics in the transitions' order); counts needed for
// ExpectedCounts (a zero matrix without them).
Eigen::MatrixXd transitionValues(const TopicTransitions& transitions, TransitionValues values,
                                 const TransitionCounts* counts);
// Topic frequencies for TopicOrder::Frequency (see above). When the occupancy is not defined
// (no topic can end) the stationary distribution stands in, and *note (if given) says so and
// whether that is unique; it is cleared otherwise.
Eigen::VectorXd topicFrequencies(const TopicTransitions& transitions,
                                 const TransitionCounts* counts, std::string* note = nullptr);

std::vector<std::size_t> frequencyOrder(const Eigen::VectorXd& frequencies);
// Order of the rows of a square matrix by clustering of the profiles of its rescaled rows
// and columns (see above).
std::vector<std::size_t> clusterOrder(const Eigen::MatrixXd& matrix);

struct AlignedMatrices {
  std::vector<std::string> topics;  // the union (see above)
  Eigen::MatrixXd first;
  Eigen::MatrixXd second;
  Eigen::MatrixXd difference() const { return first - second; }
};
AlignedMatrices alignMatrices(const std::vector<std::string>& firstTopics,
                              const Eigen::MatrixXd& first,
                              const std::vector<std::string>& secondTopics,
                              const Eigen::MatrixXd& second);

// CSV of a matrix shown in `order`: a header `from,<t1>,<t2>,...`, then a row per topic, values
// as shortest round-trip numbers. Topics holding ',' or '"' are quoted.
std::string matrixCsv(const std::vector<std::string>& topics, const Eigen::MatrixXd& matrix,
                      const std::vector<std::size_t>& order);

}  // namespace gwb::ui
