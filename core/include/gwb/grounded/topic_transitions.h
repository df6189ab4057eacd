// Topic transitions of a discourse grammar (Luong, Frank & Johnson 2013, sections 3.2 and 7.1).
//
// The discourse grammar is a bigram Markov chain over utterance topics T' = T ∪ {None}:
// Discourse → Discourse.t picks the first topic, Discourse.t → Sentence.t Discourse.t' moves
// from t to t', Discourse.t → Sentence.t ends. This reads those rules off any grammar that has
// them (generated, or learned by EM/VB) into Eigen matrices:
//
//   transition(t, t')  P(Discourse.t → Sentence.t Discourse.t'), as stored in the grammar
//   ending(t)          P(Discourse.t → Sentence.t)
//   initial(t)         P(Discourse → Discourse.t)
//
// Topics are in order of their Discourse.t rules in the grammar. Learned VB grammars hold
// mean-field weights that do not sum to one per LHS, so `stochastic()` rescales each row of
// `transition` to sum to one (a row with no mass stays zero): the chain given that the discourse
// goes on. The paper's "car → car 0.72" are rule probabilities; with one ending per recording
// the two differ little. The stationary distribution π = π P of the stochastic matrix is found
// by least squares on [Pᵀ − I; 1ᵀ] π = [0; 1]. It exists and is unique exactly when P is
// stochastic (every topic has a transition) and has one closed class; `stationaryDistribution()`
// says which case holds — several closed classes (e.g. absorbing topics) leave many stationary
// distributions, and a topic with no transition leaves the chain, and π, undefined. Learned
// grammars make that chain nearly decomposable: a topic with a large ending probability and tiny
// exits (rings, mickey in the authors' grammar) becomes a trap once the ending is rescaled away.
// `occupancy()` keeps the endings: with each row of [transition | ending] rescaled to sum to one
// and Q its transition part, the expected number of utterances about each topic in a discourse
// that starts from `initial` is v = initialᵀ (I − Q)⁻¹, normalised to sum to one — the topic mix
// the grammar generates.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "gwb/earley/grammar.h"

namespace gwb {

// The stationary distribution of the rescaled chain, with whether it is well defined.
struct StationaryDistribution {
  enum class Status {
    Unique,     // one closed class: π is the stationary distribution
    NotUnique,  // several closed classes: π is one of many (any mix of theirs)
    Undefined,  // some topic has no transition (or there are no topics): π is empty
  };
  Status status = Status::Undefined;
  Eigen::VectorXd pi;
  std::string explanation;  // why not unique or undefined; empty when unique
};
const char* stationaryStatusName(StationaryDistribution::Status status);

// The share of utterances about each topic (see occupancy()), and where it came from. When no
// discourse can end (no topic has an ending, so I − Q is singular) there is no occupancy: the
// stationary distribution of the rescaled chain stands in, with its status; an undefined one
// leaves every share 0.
struct Occupancy {
  Eigen::VectorXd share;    // one per topic, summing to one (all 0 when undefined)
  bool fromEndings = true;  // false: `share` is the stationary distribution
  StationaryDistribution::Status stationaryStatus = StationaryDistribution::Status::Unique;
  std::string explanation;  // why the stationary distribution stands in; empty otherwise
};

struct TopicTransitions {
  std::vector<std::string> topics;  // T', in grammar order
  Eigen::MatrixXd transition;       // T' × T'
  Eigen::VectorXd ending;
  Eigen::VectorXd initial;

  Eigen::MatrixXd stochastic() const;
  // π; empty when undefined, one of many when not unique (see stationaryDistribution()).
  Eigen::VectorXd stationary() const;
  StationaryDistribution stationaryDistribution() const;
  // Falls back to the stationary distribution when no topic can end (I − Q singular), and
  // says so (see Occupancy).
  Occupancy occupancyDistribution() const;
  Eigen::VectorXd occupancy() const { return occupancyDistribution().share; }
  std::optional<std::size_t> indexOf(const std::string& topic) const;
};

// nullopt and *error when the grammar has no Discourse.t → Sentence.t Discourse.t' rule.
std::optional<TopicTransitions> topicTransitions(const Grammar& grammar,
                                                 std::string* error = nullptr);

struct TopicTransition {
  std::string from;
  std::string to;
  double probability = 0.0;
};

// The `count` largest entries of `matrix` (ties: row then column order).
std::vector<TopicTransition> topTransitions(const TopicTransitions& transitions,
                                            const Eigen::MatrixXd& matrix, std::size_t count);
// The `count` largest entries of each row, rows in topic order.
std::vector<TopicTransition> topTransitionsPerTopic(const TopicTransitions& transitions,
                                                    const Eigen::MatrixXd& matrix,
                                                    std::size_t count);

// CSV: a header `from,<t1>,<t2>,...,end`, then a row per topic with its row of `matrix` and its
// entry of `ending` (shortest round-trip numbers). Topics holding ',' or '"' are quoted.
void writeTopicMatrixCsv(const std::vector<std::string>& topics, const Eigen::MatrixXd& matrix,
                         const Eigen::VectorXd& ending, std::ostream& out);
// writeTopicMatrixCsv of the transition and ending probabilities.
void writeTransitionsCsv(const TopicTransitions& transitions, std::ostream& out);

}  // namespace gwb
