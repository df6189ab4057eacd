// Grammar induction: EM and Variational Bayes over expected rule counts (Luong, Frank & Johnson
// 2013, sections 4.3, 5 and 6; Kurihara & Sato 2006).
//
// One iteration is an E-step and an M-step:
//
//   E-step   parse every sentence with the current probabilities θ and add E[c(r) | w] for every
//            rule (inside_outside.h); −log p(x) = Σ_w −log P(w). Sentences with no parse are
//            left out of both and reported as failures (a sentence with a word that is no
//            terminal of the grammar, when it has no unknown-word model, is not even parsed).
//   M-step   EM: θ_r = c_r / Σ_{r' with the same LHS} c_r' (relative frequency).
//            VB: α*_r = α_r + c_r,  θ_r = exp(ψ(α*_r) − ψ(Σ_{r' same LHS} α*_r')) — the
//            mean-field weights, which deliberately do not sum to one per LHS.
//
// The objective is −log p(x) for EM and a free energy for VB. The paper's (section 6, after
// Kurihara & Sato 2006), as Earleyx computes and reports it in its .obj files:
//
//   F = −log p(x) + Σ_X [log Γ(Σ_{r∈X} α*_r) − log Γ(Σ_{r∈X} α_r)]
//                 − Σ_r [log Γ(α*_r) − log Γ(α_r)]  +  Σ_r c_r (ψ(α*_r) − ψ(Σ_{r'∈X} α*_r'))
//
// with −log p(x) under the θ used in the E-step and the last term (the Dirichlet KL's
// Σ (α* − α) E[log θ]) under the posterior just computed, i.e. c_r log θ_r with the NEW θ. The
// paper prints that last term with a minus sign; Earleyx's code, its traces and the KL of
// Dirichlets all have a plus.
//
// The exact variational free energy of the pair (q(trees) from this E-step, q(θ) = Dir(α*))
// has c_r log θ_r under the E-STEP's θ instead: F_var = F + Σ_r c_r (log θ_E − log θ_new). VB
// is coordinate descent on F_var, which therefore never goes up; Earleyx's F can (it mixes two
// iterations: on samples/pp-attachment it rises at iteration 2, and Earleyx would stop there).
// Both agree at a fixed point. Both are recorded; VbObjective chooses which one is the
// objective that stopping looks at (F_var by default, F in the Earleyx preset).
//
// Stopping (checked after each iteration k, objective O_k, as Earleyx does): the objective went
// up — (O_k − O_{k−1})/|O_k| > increaseTolerance — stops at once (Earleyx: "Objective
// increased! Stop"; that iteration is left out of its .obj but its re-estimated probabilities
// are what it writes, and so do we); else k = maxIterations stops; else O_k = 0 or the relative
// change (O_{k−1} − O_k)/|O_k| < tolerance stops (converged). Earleyx checks the tolerance only
// when no maximum is given; we stop at whichever comes first.
//
// Rules with probability 0 are dead: they take no part in the M-step and stay 0 (pruning sets
// rules whose re-estimated θ is below `pruneThreshold` to 0).
//
// Earleyx compatibility (InductionOptions::earleyx()): to reproduce its traces exactly, three
// of its choices can be switched on.
// (1) Its special functions: MALLET's digamma keeps only ψ(z) ≈ log z − 1/(2z) after shifting z
//     up to ≥ 9.5 (the further series coefficients are Java integer divisions, 1/12 == 0):
//     errors up to ~1e-3, and a jump of 1.67e-4 where z + k crosses 9.5; and MALLET's log Γ
//     (Cody's ALGAMA), operation for operation. We put that jump at the exact half-integer (z + k
//     ≥ 9.5 − 1e-9 counts as reached) so that rounding noise in the counts cannot flip it;
//     Earleyx's own traces show both sides (see induction_test.cpp).
// (2) Only rules with a positive expected count take part in an M-step (also in the per-LHS
//     sums of α and α*); the others keep their probability. "Positive" means in exact
//     arithmetic: counts below the double range (which Earleyx keeps as logs) count too, so this
//     mode runs one extra E-step with uniform probabilities (countSupport) at the start and
//     whenever rules die.
// (3) F rather than F_var as the VB objective.
//
// Threads: the E-step splits the sentences into chunks of a FIXED size in tokens (never
// depending on the thread count), sums each chunk in sentence order into its own vector, and
// adds the chunk vectors to the total in chunk order. Results are therefore bitwise identical for
// any number of threads. At most a few chunks per thread are in flight, so memory is bounded by
// O(threads · rules) plus one chart per thread (accumulateExpectedCounts parses into the
// thread's chart, which it keeps for the next sentence up to 64 MiB).
//
// Cancel: the driver polls an std::atomic<bool> between sentences. A cancelled iteration is
// discarded; the result holds the grammar of the last completed M-step (or the initial one),
// always a valid grammar.
//
// Where the pieces live: ψ and log Γ in special_functions.h, the rule-pattern language of prior
// overrides in rule_pattern.h, the sentence reader in sentence_file.h, the four writers in
// induction_output.h; the options and controls in induction_options.h, priors and
// initialisation in induction_priors.h, the E-step in induction_estep.h, the M-step in
// induction_mstep.h; the driver here.
#pragma once

#include <string>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/induction_estep.h"
#include "gwb/earley/induction_mstep.h"
#include "gwb/earley/induction_options.h"
#include "gwb/earley/induction_priors.h"
#include "gwb/earley/inside_outside.h"
#include "gwb/earley/rule_pattern.h"
#include "gwb/earley/sentence_file.h"  // the sentences the driver learns from
#include "gwb/earley/special_functions.h"

namespace gwb {

enum class StopReason {
  Converged,  // relative change below tolerance (or objective 0)
  MaxIterations,
  ObjectiveIncreased,
  Cancelled,
  Failed,  // an error: bad options, a grammar that does not compile, no sentence parses
};
const char* stopReasonName(StopReason reason);  // "converged", "max-iterations", ...

struct InductionResult {
  Grammar grammar;  // the learned grammar: VB rules carry the prior α they were trained with
  std::vector<IterationRecord> records;  // every completed iteration, the increased one too
  StopReason stopReason = StopReason::Failed;
  std::string message;      // why it stopped, in words
  Diagnostics diagnostics;  // problems with options, priors, initialisation or the grammar
  bool ok() const { return stopReason != StopReason::Failed; }
};

// Runs EM or VB from `grammar` (its start symbol must be set) on `sentences`.
InductionResult induceGrammar(Grammar grammar,
                              const std::vector<std::vector<std::string>>& sentences,
                              const InductionOptions& options,
                              const InductionControl& control = {});

}  // namespace gwb
