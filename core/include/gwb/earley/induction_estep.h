// The E-step of induction (see induction.h): the expected rule counts Σ_w E[c(r) | w] and
// −log p(x) over a corpus, on several threads with a sum that does not depend on their number;
// and the support of those counts (countSupport), which Earleyx's Keep mode needs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/induction_options.h"

namespace gwb {

struct ExpectationResult {
  std::vector<double> counts;  // Σ_w E[c(r) | w], by RuleId
  double negLogLikelihood = 0.0;
  std::vector<std::size_t> failedSentences;
  bool cancelled = false;
};
ExpectationResult runExpectationStep(const CompiledGrammar& grammar,
                                     const std::vector<std::vector<std::string>>& sentences,
                                     const InductionOptions& options,
                                     const InductionControl& control = {}, int iteration = 0);

// The rules some parse of some sentence can use (by RuleId), whatever their probabilities: the
// support of the expected counts in exact arithmetic, found by an E-step on the grammar with
// uniform probabilities over its live rules. (With the real θ, counts below ~1e-308 underflow
// to 0; Earleyx, in log space, still sees them as observed.)
std::vector<char> countSupport(const Grammar& grammar,
                               const std::vector<std::vector<std::string>>& sentences,
                               const InductionOptions& options,
                               const InductionControl& control = {}, bool* cancelled = nullptr);

}  // namespace gwb
