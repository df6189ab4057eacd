#include "gwb/earley/induction.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "gwb/common/distribution.h"

namespace gwb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::size_t index(RuleId id) { return static_cast<std::size_t>(id); }

}  // namespace

const char* stopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::Converged: return "converged";
    case StopReason::MaxIterations: return "max-iterations";
    case StopReason::ObjectiveIncreased: return "objective-increased";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::Failed: return "failed";
  }
  return "?";
}

namespace {

// What is wrong with the run's set-up, or "".
std::string optionsProblem(const Grammar& grammar,
                           const std::vector<std::vector<std::string>>& sentences,
                           const InductionOptions& options) {
  if (!grammar.start()) return "the grammar has no start symbol";
  if (sentences.empty()) return "there are no sentences to learn from";
  if (options.threads < 1) return "threads must be at least 1";
  if (options.chunkTokens < 1) return "the chunk size must be at least 1 token";
  if (!(options.tolerance >= 0.0)) return "the tolerance must be a number ≥ 0";
  if (!(options.increaseTolerance >= 0.0)) return "the increase tolerance must be ≥ 0";
  if (options.maxIterations < 0) return "the maximum number of iterations must be ≥ 0";
  if (!(options.pruneThreshold >= 0.0)) return "the pruning threshold must be ≥ 0";
  return "";
}

// Whether iteration `iteration` (objective O, previous O') ends the run, and why; in the order
// Earleyx checks: a rise, the maximum, then convergence.
std::optional<StopReason> stopDecision(double objective, double previous, int iteration, bool vb,
                                       const InductionOptions& options, std::string& message) {
  std::ostringstream text;
  text.precision(17);
  std::optional<StopReason> stop;
  if (!std::isfinite(objective)) {
    text << (vb ? "the free energy" : "−log p(x)") << " is not finite";
    stop = StopReason::Failed;
  } else if (iteration > 1 &&
             (objective - previous) > options.increaseTolerance * std::abs(objective)) {
    text << "the objective increased from " << previous << " to " << objective;
    stop = StopReason::ObjectiveIncreased;
  } else if (options.maxIterations > 0 && iteration >= options.maxIterations) {
    text << "reached " << options.maxIterations << " iteration(s)";
    stop = StopReason::MaxIterations;
  } else if (objective == 0.0) {
    text << "the objective is 0";
    stop = StopReason::Converged;
  } else if (const double change = (previous - objective) / std::abs(objective);
             change < options.tolerance) {
    text.precision(6);
    text << "relative change " << change << " < " << options.tolerance;
    stop = StopReason::Converged;
  }
  if (stop) message = text.str();
  return stop;
}

}  // namespace

// ---- The driver ----

InductionResult induceGrammar(Grammar grammar,
                              const std::vector<std::vector<std::string>>& sentences,
                              const InductionOptions& options, const InductionControl& control) {
  InductionResult result;
  Diagnostics& diagnostics = result.diagnostics;
  const auto fail = [&](std::string message) {
    result.stopReason = StopReason::Failed;
    result.message = std::move(message);
    result.grammar = std::move(grammar);
    return std::move(result);
  };

  if (const std::string problem = optionsProblem(grammar, sentences, options); !problem.empty()) {
    return fail(problem);
  }

  const bool vb = options.method == InductionMethod::Vb;
  std::vector<double> priors;
  if (vb) {
    priors = resolvePriors(grammar, options, diagnostics);
    if (diagnostics.hasErrors()) return fail("bad Dirichlet priors");
    for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id)
      grammar.setPrior(id, priors[index(id)]);
  }
  if (!initializeProbabilities(grammar, options, diagnostics) || diagnostics.hasErrors())
    return fail("cannot initialise the rule probabilities");

  // Keep mode: which rules any parse can use, recomputed whenever rules die.
  std::vector<char> support;
  std::size_t supportLiveRules = std::numeric_limits<std::size_t>::max();
  const auto liveRuleCount = [&] {
    std::size_t live = 0;
    for (const Rule& rule : grammar.rules()) {
      if (rule.probability > 0.0) ++live;
    }
    return live;
  };

  double previous = kInfinity;
  int firstIteration = 1;
  if (control.resume != nullptr) {
    // Going on after a checkpoint: its θ, objective and records are where the run stood.
    const InductionCheckpoint& from = *control.resume;
    if (from.probabilities.size() != grammar.ruleCount())
      return fail("the checkpoint has " + std::to_string(from.probabilities.size()) +
                  " rule probabilities, the grammar " + std::to_string(grammar.ruleCount()) +
                  " rules");
    for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id)
      grammar.setProbability(id, from.probabilities[index(id)]);
    previous = from.objective;
    result.records = from.records;
    firstIteration = from.iteration + 1;
  }
  Distribution* const ranks = control.distribution;
  std::optional<CompiledGrammar> compiled;  // of `grammar`, which stays where it is
  for (int iteration = firstIteration;; ++iteration) {
    bool cancelNow = control.cancel != nullptr && control.cancel->load();
    // Every rank must take the same way: one that stops alone would leave the others waiting.
    if (ranks != nullptr && ranks->size() > 1) cancelNow = !ranks->allTrue(!cancelNow);
    if (cancelNow) {
      result.stopReason = StopReason::Cancelled;
      result.message = "cancelled before iteration " + std::to_string(iteration);
      break;
    }
    const auto start = std::chrono::steady_clock::now();
    // Only probabilities change between iterations: reweight the last iteration's compiled
    // grammar in place unless rules died (or it has ε-rules), and compile afresh otherwise.
    if (!compiled || !compiled->reweight(grammar)) {
      compiled.reset();
      Diagnostics compileDiagnostics;
      compiled = CompiledGrammar::compile(grammar, compileDiagnostics, "grammar");
      if (!compiled) diagnostics.append(compileDiagnostics);
    }
    if (!compiled) {
      result.stopReason = StopReason::Failed;
      result.message =
          "the grammar of iteration " + std::to_string(iteration) + " does not compile";
      break;
    }
    bool cancelled = false;
    if (options.unobservedRules == UnobservedRules::Keep && liveRuleCount() != supportLiveRules) {
      support = countSupport(grammar, sentences, options, control, &cancelled);
      supportLiveRules = liveRuleCount();
    }
    ExpectationResult expected;
    const auto expectationStart = std::chrono::steady_clock::now();
    if (!cancelled) {
      expected = runExpectationStep(*compiled, sentences, options, control, iteration);
    }
    const auto expectationEnd = std::chrono::steady_clock::now();
    if (cancelled || expected.cancelled) {
      result.stopReason = StopReason::Cancelled;
      result.message = "cancelled during iteration " + std::to_string(iteration) +
                       "; the grammar is that of iteration " + std::to_string(iteration - 1);
      break;
    }
    if (expected.failedSentences.size() == sentences.size()) {
      result.stopReason = StopReason::Failed;
      result.message =
          "no sentence parses with the grammar of iteration " + std::to_string(iteration);
      break;
    }
    const MaximizationResult maximized = maximizationStep(
        grammar, expected.counts, priors, expected.negLogLikelihood, options, &support);
    IterationRecord record;
    record.iteration = iteration;
    record.negLogLikelihood = expected.negLogLikelihood;
    record.freeEnergy = vb ? maximized.freeEnergy : kNaN;
    record.variationalFreeEnergy = vb ? maximized.variationalFreeEnergy : kNaN;
    record.objective = !vb                                           ? expected.negLogLikelihood
                       : options.vbObjective == VbObjective::Earleyx ? record.freeEnergy
                                                                     : record.variationalFreeEnergy;
    record.liveRules = maximized.liveRules;
    record.failures = expected.failedSentences.size();
    record.failedSentences = std::move(expected.failedSentences);
    record.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record.expectationSeconds =
        std::chrono::duration<double>(expectationEnd - expectationStart).count();

    const double objective = record.objective;
    if (vb && std::isfinite(expected.negLogLikelihood) && !std::isfinite(objective)) {
      result.stopReason = StopReason::Failed;
      result.message = "iteration " + std::to_string(iteration) +
                       ": the variational update is not finite (a digamma or log-gamma of the "
                       "priors and counts overflowed)";
      result.records.push_back(std::move(record));
      break;
    }
    const std::optional<StopReason> stop =
        stopDecision(objective, previous, iteration, vb, options, result.message);
    if (stop) {
      result.stopReason = *stop;
      record.objectiveIncreased = *stop == StopReason::ObjectiveIncreased;
    }
    if (control.observer != nullptr) control.observer->onIteration(record, grammar);
    result.records.push_back(std::move(record));
    if (stop) break;
    previous = objective;
    if (control.onCheckpoint) {
      InductionCheckpoint checkpoint;
      checkpoint.iteration = iteration;
      checkpoint.probabilities.reserve(grammar.ruleCount());
      for (const Rule& rule : grammar.rules()) checkpoint.probabilities.push_back(rule.probability);
      checkpoint.objective = objective;
      checkpoint.records = result.records;
      control.onCheckpoint(checkpoint);
    }
  }
  result.grammar = std::move(grammar);
  return result;
}

}  // namespace gwb
