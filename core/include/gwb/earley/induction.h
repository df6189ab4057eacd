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
//     errors up to ~1e-3, and a jump of 1.67e-4 where z + k crosses 9.5; and MALLET's Lanczos
//     log Γ. We put that jump at the exact half-integer (z + k ≥ 9.5 − 1e-9 counts as reached)
//     so that rounding noise in the counts cannot flip it; Earleyx's own traces show both sides
//     (see induction_test.cpp).
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
// O(threads · rules) plus one chart per thread (accumulateExpectedCounts frees its chart).
//
// Cancel: the driver polls an std::atomic<bool> between sentences. A cancelled iteration is
// discarded; the result holds the grammar of the last completed M-step (or the initial one),
// always a valid grammar.
//
// Where the pieces live: ψ and log Γ in special_functions.h, the rule-pattern language of prior
// overrides in rule_pattern.h, the sentence reader in sentence_file.h, the four writers in
// induction_output.h; priors, initialisation, the E-step, the M-step and the driver here.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/inside_outside.h"
#include "gwb/earley/rule_pattern.h"
#include "gwb/earley/sentence_file.h"  // the sentences the driver learns from
#include "gwb/earley/special_functions.h"

namespace gwb {

enum class InductionMethod { Em, Vb };
const char* inductionMethodName(InductionMethod method);  // "em" / "vb"
std::optional<InductionMethod> parseInductionMethod(std::string_view name);

// Which rules an M-step re-estimates.
enum class UnobservedRules {
  Reestimate,  // every live rule: EM gives a rule with no expected count θ = 0; VB gives it
               // exp(ψ(α) − ψ(Σα*)). An LHS with no expected count at all keeps its θ (EM).
  Keep,        // Earleyx: rules no parse can use keep θ and are left out of the sums
};

// Which free energy is the VB objective (see above).
enum class VbObjective {
  Earleyx,      // F as Earleyx computes and reports it
  Variational,  // F_var, the exact (monotone) variational free energy
};

enum class InitMethod {
  Given,        // the probabilities in the grammar
  Uniform,      // uniform per LHS plus seeded noise: θ_r ∝ 1 + noise·u_r, u_r ~ U[0, 1)
  FromGrammar,  // θ from another grammar, rules matched by text (see initializeProbabilities)
};

struct InductionOptions {
  InductionMethod method = InductionMethod::Vb;
  int maxIterations = 0;             // 0: no limit (stop on convergence or increase only)
  double tolerance = 1e-7;           // converged when the relative change is below this
  double increaseTolerance = 1e-12;  // a relative increase up to this is rounding, not a rise
  // Dirichlet priors (VB): a rule's prior column, else defaultPrior; then the overrides, in
  // order, the last match winning.
  double defaultPrior = 1.0;
  std::vector<PriorOverride> priorOverrides;
  double pruneThreshold = 0.0;  // re-estimated θ below this becomes 0 (the rule dies)
  InitMethod init = InitMethod::Given;
  std::uint64_t seed = 1;             // InitMethod::Uniform
  double noise = 0.1;                 // InitMethod::Uniform
  const Grammar* initFrom = nullptr;  // InitMethod::FromGrammar; must outlive the run
  NumericMode mode = NumericMode::Scaled;
  int threads = 1;
  // An E-step work unit is the fewest consecutive sentences with at least this many tokens
  // (one long discourse is a unit of its own). Part of the result's definition (the summation
  // order), so it is never derived from `threads`.
  std::size_t chunkTokens = 1024;
  VbObjective vbObjective = VbObjective::Variational;
  SpecialFunctions specialFunctions = SpecialFunctions::Exact;
  UnobservedRules unobservedRules = UnobservedRules::Reestimate;

  // The settings that reproduce Earleyx's `-io em|vb` traces (stopTol 1e-7, α = 1 default,
  // MALLET special functions, unobserved rules kept, its F as the VB objective).
  static InductionOptions earleyx(InductionMethod method);
};

// One iteration, as reported to observers and written to the curve.
struct IterationRecord {
  int iteration = 0;              // 1-based
  double negLogLikelihood = 0.0;  // −log p(x) under the θ of this E-step (failures left out)
  double freeEnergy = 0.0;        // VB: F after this iteration's counts, as Earleyx; EM: NaN
  double variationalFreeEnergy = 0.0;  // VB: the exact F of this E-step and M-step; EM: NaN
  double objective = 0.0;              // EM: negLogLikelihood; VB: as InductionOptions::vbObjective
  std::size_t liveRules = 0;           // rules with θ > 0 after the M-step (Earleyx's numRules: in
                                       // Keep mode, the re-estimated rules that survived pruning)
  double seconds = 0.0;                // wall time of the iteration (compile, E-step, M-step)
  double expectationSeconds = 0.0;     // the E-step's share of it (the part that runs in parallel)
  std::size_t failures = 0;            // sentences with no parse
  std::vector<std::size_t> failedSentences;  // their 0-based indices
  bool objectiveIncreased = false;           // the run stopped here because the objective went up
};

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

// Receives progress. Calls are serialised by the driver, but may come from any of its threads.
class InductionObserver {
 public:
  virtual ~InductionObserver() = default;
  // Within the E-step of `iteration`: `done` of `total` sentences parsed.
  virtual void onProgress(int /*iteration*/, std::size_t /*done*/, std::size_t /*total*/) {}
  // After each iteration's M-step; `grammar` holds the re-estimated probabilities.
  virtual void onIteration(const IterationRecord& /*record*/, const Grammar& /*grammar*/) {}
};

// The E-step for one sentence: adds E[c(r) | words] (by grammar RuleId) to `counts` and returns
// whether it parsed and log P(words). Called concurrently from several threads.
using ExpectationStep = std::function<ExpectedCounts(
    const CompiledGrammar&, const std::vector<std::string>&, NumericMode, std::vector<double>&)>;

struct InductionControl {
  InductionObserver* observer = nullptr;
  const std::atomic<bool>* cancel = nullptr;  // set it to stop at the next sentence
  ExpectationStep expectationStep;            // empty: accumulateExpectedCounts
};

// Runs EM or VB from `grammar` (its start symbol must be set) on `sentences`.
InductionResult induceGrammar(Grammar grammar,
                              const std::vector<std::vector<std::string>>& sentences,
                              const InductionOptions& options,
                              const InductionControl& control = {});

// ---- The pieces, for tests and for callers that drive iterations themselves. ----

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

// The rules some parse of some sentence can use (by RuleId), whatever their probabilities: the
// support of the expected counts in exact arithmetic, found by an E-step on the grammar with
// uniform probabilities over its live rules. (With the real θ, counts below ~1e-308 underflow
// to 0; Earleyx, in log space, still sees them as observed.)
std::vector<char> countSupport(const Grammar& grammar,
                               const std::vector<std::vector<std::string>>& sentences,
                               const InductionOptions& options,
                               const InductionControl& control = {}, bool* cancelled = nullptr);

}  // namespace gwb
