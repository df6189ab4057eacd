#include "gwb/earley/induction_mstep.h"

#include <cmath>
#include <limits>

#include "common/parallel.h"

namespace gwb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::size_t index(RuleId id) { return static_cast<std::size_t>(id); }

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

}  // namespace gwb
