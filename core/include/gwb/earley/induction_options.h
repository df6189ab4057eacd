// The settings and controls of a grammar-induction run (EM or Variational Bayes; the model is
// described in induction.h): the method and its options, the record of one iteration, and the
// observer, cancel flag and E-step hook a caller hands the driver.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/inside_outside.h"
#include "gwb/earley/rule_pattern.h"
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

class Distribution;  // gwb/common/distribution.h

// Where a run stands after an iteration: enough to go on as if it had never stopped
// (induction_checkpoint.h reads and writes it).
struct InductionCheckpoint {
  int iteration = 0;                     // iterations finished
  std::vector<double> probabilities;     // θ by RuleId after that iteration's M-step
  double objective = 0.0;                // that iteration's (the next stop test compares with it)
  std::vector<IterationRecord> records;  // iterations 1..iteration
  std::string run;  // the caller's description of the run; a resume must match it
};

struct InductionControl {
  InductionObserver* observer = nullptr;
  const std::atomic<bool>* cancel = nullptr;  // set it to stop at the next sentence
  ExpectationStep expectationStep;            // empty: accumulateExpectedCounts
  // The ranks the E-step is spread over (distribution.h); null: this process alone. Every rank
  // calls induceGrammar with the same grammar, sentences and options, and gets the same result.
  Distribution* distribution = nullptr;
  // Where an interrupted run goes on (induction_checkpoint.h): null starts afresh.
  const InductionCheckpoint* resume = nullptr;
  // Called after every iteration that does not end the run, with what --resume needs.
  std::function<void(const InductionCheckpoint&)> onCheckpoint;
};

}  // namespace gwb
