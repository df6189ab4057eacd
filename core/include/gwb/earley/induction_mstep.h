// The M-step of induction (see induction.h): EM's relative frequencies or VB's mean-field
// weights from the expected counts, with the free energies, pruning and the live-rule count.
#pragma once

#include <cstddef>
#include <vector>

#include "gwb/earley/grammar.h"
#include "gwb/earley/induction_options.h"

namespace gwb {

struct MaximizationResult {
  std::size_t liveRules = 0;
  double freeEnergy = 0.0;             // VB only: Earleyx's F (see the top of this header)
  double variationalFreeEnergy = 0.0;  // VB only: with c_r log θ_r under the E-step's θ
};
// Re-estimates `grammar` in place from `counts`. VB needs `priors` and the E-step's −log p(x)
// (for the free energy). UnobservedRules::Keep re-estimates the rules with a positive count or a
// nonzero `support` entry (see countSupport).
MaximizationResult maximizationStep(Grammar& grammar, const std::vector<double>& counts,
                                    const std::vector<double>& priors, double negLogLikelihood,
                                    const InductionOptions& options,
                                    const std::vector<char>* support = nullptr);

}  // namespace gwb
