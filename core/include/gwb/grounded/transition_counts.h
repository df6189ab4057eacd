// Expected topic-transition counts of a discourse grammar over a corpus (Luong, Frank & Johnson
// 2013, section 7.1): how often the grammar uses each transition to explain the data, where
// topic_transitions.h gives the probabilities it stores.
//
//   transition(t, t')  E[c(Discourse.t → Sentence.t Discourse.t')]
//   ending(t)          E[c(Discourse.t → Sentence.t)]
//   initial(t)         E[c(Discourse → Discourse.t)]
//
// summed over the recordings of the corpus, each recording parsed as one string (inside-outside,
// inside_outside.h). Topics are those of the TopicTransitions given, in its order; a rule the
// grammar lacks counts 0. A recording with no parse adds nothing and is counted in `failures`.
// Recordings are parsed on the batch service (batch.h); each recording's counts are kept apart
// and summed afterwards in recording order, so the sums are bitwise the same for any number of
// threads.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "gwb/common/batch.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_transitions.h"

namespace gwb {

// The rule Discourse.from → Sentence.from Discourse.to (nullopt when the grammar lacks it).
std::optional<RuleId> transitionRule(const Grammar& grammar, const std::string& from,
                                     const std::string& to);
// Discourse.topic → Sentence.topic.
std::optional<RuleId> endingRule(const Grammar& grammar, const std::string& topic);
// Discourse → Discourse.topic.
std::optional<RuleId> initialRule(const Grammar& grammar, const std::string& topic);

struct TransitionCounts {
  Eigen::MatrixXd transition;  // topics × topics
  Eigen::VectorXd ending;
  Eigen::VectorXd initial;
  std::size_t strings = 0;   // recordings parsed
  std::size_t failures = 0;  // recordings with no parse (left out)
  bool cancelled = false;    // stopped by the cancel flag: the sums cover `strings` recordings
};

// See the header comment. `cues` are the cues kept in the input strings (those the grammar was
// made with). `compiled` must be compiled from the grammar `transitions` was read from.
TransitionCounts expectedTransitionCounts(const CompiledGrammar& compiled,
                                          const TopicTransitions& transitions,
                                          const SocialCorpus& corpus,
                                          const std::vector<Recording>& recordings,
                                          const std::vector<std::string>& cues,
                                          const BatchControl& control = {});

// CSV: a header `from,<t1>,<t2>,...,end`, then a row per topic with its expected transition and
// ending counts (shortest round-trip numbers), as writeTransitionsCsv writes probabilities.
void writeTransitionCountsCsv(const std::vector<std::string>& topics,
                              const TransitionCounts& counts, std::ostream& out);

}  // namespace gwb
