#include "gwb/earley/induction.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <ostream>
#include <random>
#include <sstream>
#include <unordered_map>

#include "common/parallel.h"
#include "common/text_lines.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/number_format.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"

namespace gwb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::size_t index(RuleId id) { return static_cast<std::size_t>(id); }

// A word that is no terminal of the grammar, with no unknown-word model to stand in: the
// sentence cannot parse, and is not handed to the E-step at all.
bool hasUnknownWord(const CompiledGrammar& grammar, const std::vector<std::string>& words) {
  if (grammar.hasUnknownWordModel()) return false;
  const SymbolTable& symbols = grammar.symbols();
  return std::any_of(words.begin(), words.end(),
                     [&](const std::string& w) { return !symbols.findTerminal(w).has_value(); });
}

// The text of a rule that identifies it across grammars: LHS, then each RHS symbol with its kind.
std::string ruleKey(const Grammar& grammar, RuleId id) {
  const SymbolTable& symbols = grammar.symbols();
  const Rule& rule = grammar.rule(id);
  std::string key = symbols.name(rule.lhs);
  for (SymbolId s : rule.rhs) {
    key += '\0';
    key += symbols.isTerminal(s) ? 'T' : 'N';
    key += symbols.name(s);
  }
  return key;
}

}  // namespace

// ---- Names ----

const char* inductionMethodName(InductionMethod method) {
  return method == InductionMethod::Em ? "em" : "vb";
}

std::optional<InductionMethod> parseInductionMethod(std::string_view name) {
  if (name == "em") return InductionMethod::Em;
  if (name == "vb") return InductionMethod::Vb;
  return std::nullopt;
}

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

InductionOptions InductionOptions::earleyx(InductionMethod method) {
  InductionOptions options;
  options.method = method;
  options.tolerance = 1e-7;
  options.defaultPrior = 1.0;
  options.specialFunctions = SpecialFunctions::Earleyx;
  options.unobservedRules = UnobservedRules::Keep;
  options.vbObjective = VbObjective::Earleyx;
  return options;
}

// ---- Priors and initialisation ----

std::vector<double> resolvePriors(const Grammar& grammar, const InductionOptions& options,
                                  Diagnostics& diagnostics) {
  std::vector<double> priors(grammar.ruleCount(), options.defaultPrior);
  if (!isSupportedPrior(options.defaultPrior))
    diagnostics.error("", 0, 0,
                      "the default prior: " + unsupportedPriorMessage(options.defaultPrior));
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    const Rule& rule = grammar.rule(id);
    if (rule.prior) priors[index(id)] = *rule.prior;
  }
  for (const PriorOverride& override : options.priorOverrides) {
    if (!isSupportedPrior(override.value)) {
      diagnostics.error("", 0, 0,
                        "prior for '" + override.pattern.text() +
                            "': " + unsupportedPriorMessage(override.value));
      continue;
    }
    std::size_t matched = 0;
    for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
      if (override.pattern.matches(grammar, id)) {
        priors[index(id)] = override.value;
        ++matched;
      }
    }
    if (matched == 0) {
      diagnostics.warning("", 0, 0,
                          "prior pattern '" + override.pattern.text() + "' matches no rule");
      continue;
    }
    diagnostics.note("", 0, 0,
                     "prior " + formatProbability(override.value) + " on " +
                         std::to_string(matched) + " rule(s) matching '" + override.pattern.text() +
                         "'");
  }
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    if (!isSupportedPrior(priors[index(id)])) {
      diagnostics.error(
          "", grammar.rule(id).sourceLine, 0,
          "rule " + grammar.ruleText(id) + ": " + unsupportedPriorMessage(priors[index(id)]));
    }
  }
  return priors;
}

bool initializeProbabilities(Grammar& grammar, const InductionOptions& options,
                             Diagnostics& diagnostics) {
  switch (options.init) {
    case InitMethod::Given: return true;
    case InitMethod::Uniform: {
      if (!(options.noise >= 0.0) || !std::isfinite(options.noise)) {
        diagnostics.error("", 0, 0, "the initialisation noise must be a number ≥ 0");
        return false;
      }
      // mt19937_64 is fully specified by the standard; the uniform variate is built by hand
      // (std::uniform_real_distribution is not), so a seed gives the same grammar everywhere.
      std::mt19937_64 random(options.seed);
      for (SymbolId lhs : grammar.lhsSymbols()) {
        const std::vector<RuleId>& rules = grammar.rulesWithLhs(lhs);
        std::vector<double> weights;
        weights.reserve(rules.size());
        double sum = 0.0;
        for (std::size_t k = 0; k < rules.size(); ++k) {
          const double u = static_cast<double>(random() >> 11) * 0x1.0p-53;
          weights.push_back(1.0 + options.noise * u);
          sum += weights.back();
        }
        for (std::size_t k = 0; k < rules.size(); ++k)
          grammar.setProbability(rules[k], weights[k] / sum);
      }
      return true;
    }
    case InitMethod::FromGrammar: {
      if (options.initFrom == nullptr) {
        diagnostics.error("", 0, 0, "initialisation from a grammar, but no grammar was given");
        return false;
      }
      const Grammar& source = *options.initFrom;
      std::unordered_map<std::string, double> byKey;
      byKey.reserve(source.ruleCount());
      for (RuleId id = 0; id < static_cast<RuleId>(source.ruleCount()); ++id)
        byKey.emplace(ruleKey(source, id), source.rule(id).probability);
      std::size_t matched = 0;
      std::vector<char> touched(grammar.symbols().size(), 0);
      for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
        const auto found = byKey.find(ruleKey(grammar, id));
        if (found == byKey.end()) continue;
        grammar.setProbability(id, found->second);
        touched[static_cast<std::size_t>(grammar.rule(id).lhs)] = 1;
        ++matched;
      }
      std::size_t renormalised = 0;
      for (SymbolId lhs : grammar.lhsSymbols()) {
        if (touched[static_cast<std::size_t>(lhs)] == 0) continue;
        const double sum = grammar.lhsProbabilitySum(lhs);
        if (!(sum > 0.0)) continue;
        for (RuleId id : grammar.rulesWithLhs(lhs))
          grammar.setProbability(id, grammar.rule(id).probability / sum);
        ++renormalised;
      }
      diagnostics.note("", 0, 0,
                       std::to_string(matched) + " of " + std::to_string(grammar.ruleCount()) +
                           " rule(s) took their probability from the initial grammar (" +
                           std::to_string(source.ruleCount()) + " rules); " +
                           std::to_string(renormalised) + " left-hand side(s) renormalised");
      if (matched == 0)
        diagnostics.warning("", 0, 0, "no rule of the initial grammar matches a rule of this one");
      return true;
    }
  }
  return false;
}

// ---- E-step ----

namespace {

// Chunk c is sentences [starts[c], starts[c + 1]): the fewest consecutive sentences with at
// least `chunkTokens` tokens (a long discourse is a chunk of its own).
std::vector<std::size_t> chunkStarts(const std::vector<std::vector<std::string>>& sentences,
                                     std::size_t chunkTokens) {
  std::vector<std::size_t> starts;
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    if (tokens == 0) starts.push_back(i);
    tokens += sentences[i].size();
    if (tokens >= std::max<std::size_t>(1, chunkTokens)) tokens = 0;
  }
  starts.push_back(sentences.size());
  return starts;
}

}  // namespace

ExpectationResult runExpectationStep(const CompiledGrammar& grammar,
                                     const std::vector<std::vector<std::string>>& sentences,
                                     const InductionOptions& options,
                                     const InductionControl& control, int iteration) {
  const std::size_t ruleCount = grammar.grammar().ruleCount();
  const std::size_t total = sentences.size();
  const std::vector<std::size_t> starts = chunkStarts(sentences, options.chunkTokens);
  const std::size_t chunkCount = starts.size() - 1;
  const std::size_t threads = std::max<std::size_t>(
      1, std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.threads)),
                               std::max<std::size_t>(1, chunkCount)));
  const ExpectationStep step =
      control.expectationStep ? control.expectationStep : ExpectationStep(accumulateExpectedCounts);

  ExpectationResult result;
  result.counts.assign(ruleCount, 0.0);

  // Chunk c is computed in slot c % window and may start only once chunk c − window has been
  // added to the total, which bounds memory to `window` count vectors. A wide window keeps
  // every thread busy while one works through a long chunk (a whole recording, for the
  // discourse grammar) that the in-order reduction has to wait for. Among the chunks the window
  // admits, the one with the most tokens starts first, so that the last to finish are short
  // (the 24 recordings differ eightfold in length); the sums are still taken in chunk order.
  struct Slot {
    std::vector<double> counts;
    double negLogLikelihood = 0.0;
    std::vector<std::size_t> failed;
    bool ready = false;
  };
  const std::size_t window = 8 * threads;
  std::vector<Slot> slots(window);
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::size_t> chunkTokens(chunkCount, 0);
  for (std::size_t c = 0; c < chunkCount; ++c) {
    for (std::size_t i = starts[c]; i < starts[c + 1]; ++i) chunkTokens[c] += sentences[i].size();
  }
  std::vector<char> started(chunkCount, 0);
  std::size_t startedCount = 0;
  std::size_t firstNotStarted = 0;
  std::size_t reduced = 0;
  bool stop = false;
  bool cancelled = false;
  std::mutex progressMutex;
  std::size_t done = 0;

  // Parses the sentences of `chunk` into `slot`; false when cancelled.
  const auto computeChunk = [&](std::size_t chunk, Slot& slot) {
    slot.counts.assign(ruleCount, 0.0);
    slot.negLogLikelihood = 0.0;
    slot.failed.clear();
    for (std::size_t i = starts[chunk]; i < starts[chunk + 1]; ++i) {
      if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed)) {
        return false;
      }
      const ExpectedCounts counted = hasUnknownWord(grammar, sentences[i])
                                         ? ExpectedCounts{}
                                         : step(grammar, sentences[i], options.mode, slot.counts);
      if (counted.parsed && std::isfinite(counted.logProbability)) {
        slot.negLogLikelihood -= counted.logProbability;
      } else {
        slot.failed.push_back(i);
      }
      if (control.observer != nullptr) {
        std::lock_guard<std::mutex> lock(progressMutex);
        control.observer->onProgress(iteration, ++done, total);
      }
    }
    return true;
  };
  // With `mutex` held: adds every finished chunk that is next in order to the total, so the
  // sum is the same whichever thread computed which chunk.
  const auto drainReadyChunks = [&] {
    while (reduced < chunkCount && slots[reduced % window].ready) {
      Slot& next = slots[reduced % window];
      for (std::size_t r = 0; r < ruleCount; ++r) result.counts[r] += next.counts[r];
      result.negLogLikelihood += next.negLogLikelihood;
      result.failedSentences.insert(result.failedSentences.end(), next.failed.begin(),
                                    next.failed.end());
      next.ready = false;
      ++reduced;
    }
  };
  // With `mutex` held: the longest chunk not started that the window admits, or chunkCount.
  const auto chunkToStart = [&] {
    std::size_t best = chunkCount;
    const std::size_t end = std::min(chunkCount, reduced + window);
    for (std::size_t c = firstNotStarted; c < end; ++c) {
      if (started[c] == 0 && (best == chunkCount || chunkTokens[c] > chunkTokens[best])) best = c;
    }
    return best;
  };
  const auto worker = [&]() {
    try {
      for (;;) {
        std::size_t chunk = chunkCount;
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] {
            if (stop || startedCount == chunkCount) return true;
            chunk = chunkToStart();
            return chunk < chunkCount;
          });
          if (stop || startedCount == chunkCount) return;
          started[chunk] = 1;
          ++startedCount;
          while (firstNotStarted < chunkCount && started[firstNotStarted] != 0) ++firstNotStarted;
        }
        Slot& slot = slots[chunk % window];
        if (!computeChunk(chunk, slot)) {
          std::lock_guard<std::mutex> lock(mutex);
          stop = true;
          cancelled = true;
          changed.notify_all();
          return;
        }
        std::lock_guard<std::mutex> lock(mutex);
        slot.ready = true;
        drainReadyChunks();
        changed.notify_all();
      }
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        stop = true;  // the other threads stop at their next chunk
        changed.notify_all();
      }
      throw;  // runOnThreads hands the first one to the caller
    }
  };
  parallel::runOnThreads(static_cast<int>(threads), worker);
  result.cancelled = cancelled;
  return result;
}

// ---- M-step ----

namespace {

// EM: relative frequencies per LHS over the rules that take part. Marks the rules it set.
void emUpdate(Grammar& grammar, const std::vector<double>& counts,
              const std::vector<char>& takesPart, std::vector<char>& updated) {
  for (SymbolId lhs : grammar.lhsSymbols()) {
    double sum = 0.0;
    for (RuleId id : grammar.rulesWithLhs(lhs)) {
      if (takesPart[index(id)] != 0) sum += counts[index(id)];
    }
    if (!(sum > 0.0)) continue;  // nothing observed: keep θ
    for (RuleId id : grammar.rulesWithLhs(lhs)) {
      if (takesPart[index(id)] == 0) continue;
      grammar.setProbability(id, counts[index(id)] / sum);
      updated[index(id)] = 1;
    }
  }
}

// VB: mean-field weights and the free energies. Marks the rules it set.
//   F = −log p(x) − Σ_r [lgΓ(α*) − lgΓ(α)] + Σ_X [lgΓ(Σα*) − lgΓ(Σα)] + Σ_r c_r log θ_new,
// summed in that order (Earleyx's); F_var adds Σ_r c_r (log θ_E-step − log θ_new).
// The rules' special functions run on `threads` threads; every sum is then taken on this
// thread in rule order, so the result is the same for any thread count.
void vbUpdate(Grammar& grammar, const std::vector<double>& counts,
              const std::vector<double>& priors, double negLogLikelihood, SpecialFunctions kind,
              const std::vector<char>& takesPart, int threads, std::vector<char>& updated,
              MaximizationResult& out) {
  constexpr std::size_t kGrain = 2048;  // rules per thread at the least
  const std::size_t ruleCount = grammar.ruleCount();
  struct LhsSums {
    double prior = 0.0;
    double count = 0.0;
    double posterior = 0.0;
    bool any = false;
    double logGammaTerm = 0.0;  // lgΓ(Σα*) − lgΓ(Σα)
    double digammaSum = 0.0;    // ψ(Σα*)
  };
  std::vector<LhsSums> sums(grammar.symbols().size());
  const auto sumsOf = [&](SymbolId lhs) -> LhsSums& { return sums[static_cast<std::size_t>(lhs)]; };
  for (RuleId id = 0; id < static_cast<RuleId>(ruleCount); ++id) {
    if (takesPart[index(id)] == 0) continue;
    const double prior = priors[index(id)];
    const double count = counts[index(id)];
    LhsSums& lhs = sumsOf(grammar.rule(id).lhs);
    lhs.prior += prior;
    lhs.count += count;
    lhs.posterior += prior + count;
    lhs.any = true;
  }
  const std::vector<SymbolId>& lhsSymbols = grammar.lhsSymbols();
  for (SymbolId symbol : lhsSymbols) {
    LhsSums& lhs = sumsOf(symbol);
    if (!lhs.any) continue;
    lhs.logGammaTerm = kind == SpecialFunctions::Earleyx
                           ? earleyxLogGamma(lhs.posterior) - earleyxLogGamma(lhs.prior)
                           : logGammaDifference(lhs.prior, lhs.count, kind);
    lhs.digammaSum = digamma(lhs.posterior, kind);
  }
  // Per rule: lgΓ(α*) − lgΓ(α), log θ_new and log θ_E-step.
  std::vector<double> logGammaTerms(ruleCount, 0.0);
  std::vector<double> logTheta(ruleCount, 0.0);
  std::vector<double> logThetaBefore(ruleCount, 0.0);
  parallel::forEachRange(ruleCount, threads, kGrain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      if (takesPart[r] == 0) continue;
      const auto id = static_cast<RuleId>(r);
      const double prior = priors[r];
      const double posterior = prior + counts[r];
      logGammaTerms[r] = logGammaDifference(prior, counts[r], kind);
      logTheta[r] = digamma(posterior, kind) - sumsOf(grammar.rule(id).lhs).digammaSum;
      logThetaBefore[r] = std::log(grammar.rule(id).probability);
    }
  });

  double freeEnergy = negLogLikelihood;
  for (std::size_t r = 0; r < ruleCount; ++r) {
    if (takesPart[r] != 0) freeEnergy -= logGammaTerms[r];
  }
  for (SymbolId symbol : lhsSymbols) {
    const LhsSums& lhs = sumsOf(symbol);
    if (lhs.any) freeEnergy += lhs.logGammaTerm;
  }
  double eStepCorrection = 0.0;
  for (std::size_t r = 0; r < ruleCount; ++r) {
    if (takesPart[r] == 0) continue;
    // Earleyx multiplies by α* − α rather than c (the same number but for rounding).
    const double weight =
        kind == SpecialFunctions::Earleyx ? (priors[r] + counts[r]) - priors[r] : counts[r];
    if (weight != 0.0) {
      freeEnergy += weight * logTheta[r];
      eStepCorrection += weight * (logThetaBefore[r] - logTheta[r]);
    }
    grammar.setProbability(static_cast<RuleId>(r), std::exp(logTheta[r]));
    updated[r] = 1;
  }
  out.freeEnergy = freeEnergy;
  out.variationalFreeEnergy = freeEnergy + eStepCorrection;
}

}  // namespace

MaximizationResult maximizationStep(Grammar& grammar, const std::vector<double>& counts,
                                    const std::vector<double>& priors, double negLogLikelihood,
                                    const InductionOptions& options,
                                    const std::vector<char>* support) {
  const bool keep = options.unobservedRules == UnobservedRules::Keep;
  std::vector<char> takesPart(grammar.ruleCount(), 0);
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    takesPart[index(id)] =
        !keep ? grammar.rule(id).probability > 0.0
              : counts[index(id)] > 0.0 || (support != nullptr && (*support)[index(id)] != 0);
  }
  std::vector<char> updated(grammar.ruleCount(), 0);
  MaximizationResult out;
  if (options.method == InductionMethod::Em) {
    emUpdate(grammar, counts, takesPart, updated);
    out.freeEnergy = kNaN;
    out.variationalFreeEnergy = kNaN;
  } else {
    vbUpdate(grammar, counts, priors, negLogLikelihood, options.specialFunctions, takesPart,
             options.threads, updated, out);
  }

  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    if (updated[index(id)] != 0 && grammar.rule(id).probability < options.pruneThreshold) {
      grammar.setProbability(id, 0.0);
    }
  }
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    if (!(grammar.rule(id).probability > 0.0)) continue;
    if (!keep || updated[index(id)] != 0) ++out.liveRules;
  }
  return out;
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

std::vector<char> countSupport(const Grammar& grammar,
                               const std::vector<std::vector<std::string>>& sentences,
                               const InductionOptions& options, const InductionControl& control,
                               bool* cancelled) {
  // Uniform probabilities over the live rules of each LHS: no derivation is then so improbable
  // that its counts underflow, and the support of the counts is that of every θ > 0.
  Grammar uniform = grammar;
  for (SymbolId lhs : uniform.lhsSymbols()) {
    std::size_t live = 0;
    for (RuleId id : uniform.rulesWithLhs(lhs)) {
      if (uniform.rule(id).probability > 0.0) ++live;
    }
    for (RuleId id : uniform.rulesWithLhs(lhs)) {
      if (uniform.rule(id).probability > 0.0) {
        uniform.setProbability(id, 1.0 / static_cast<double>(live));
      }
    }
  }
  std::vector<char> support(grammar.ruleCount(), 0);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(uniform, diagnostics, "grammar");
  if (!compiled) return support;  // the real grammar's compile reports the problem
  InductionControl quiet = control;
  quiet.observer = nullptr;
  const ExpectationResult expected = runExpectationStep(*compiled, sentences, options, quiet);
  if (cancelled != nullptr) *cancelled = expected.cancelled;
  for (std::size_t r = 0; r < support.size(); ++r) support[r] = expected.counts[r] > 0.0 ? 1 : 0;
  return support;
}

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
  std::optional<CompiledGrammar> compiled;  // of `grammar`, which stays where it is
  for (int iteration = 1;; ++iteration) {
    if (control.cancel != nullptr && control.cancel->load()) {
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
  }
  result.grammar = std::move(grammar);
  return result;
}

}  // namespace gwb
