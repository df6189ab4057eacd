// The Dirichlet priors α of an induction run (the rule's prior column, the default, the
// pattern overrides of rule_pattern.h) and the starting probabilities θ (InitMethod).
#pragma once

#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/induction_options.h"

namespace gwb {

// The α of every rule (by RuleId): prior column, default, overrides. Errors (a prior ≤ 0) go to
// `diagnostics`.
std::vector<double> resolvePriors(const Grammar& grammar, const InductionOptions& options,
                                  Diagnostics& diagnostics);

// Sets the starting probabilities (InitMethod). FromGrammar: a rule whose LHS, RHS and symbol
// kinds equal a rule of `options.initFrom` takes its probability; every LHS with at least one
// such rule is then renormalised to sum to one (unmatched rules keep their given θ before
// that). Notes on how many rules matched go to `diagnostics`.
bool initializeProbabilities(Grammar& grammar, const InductionOptions& options,
                             Diagnostics& diagnostics);

}  // namespace gwb
