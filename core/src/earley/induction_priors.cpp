#include "gwb/earley/induction_priors.h"

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <unordered_map>

#include "gwb/common/number_format.h"

namespace gwb {

namespace {

std::size_t index(RuleId id) { return static_cast<std::size_t>(id); }

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

}  // namespace gwb
