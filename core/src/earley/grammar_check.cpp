#include "gwb/earley/grammar_check.h"

#include <cmath>
#include <deque>

#include "gwb/common/number_format.h"

namespace gwb {

namespace {

// Emits at most `limit` warnings of one kind, then one line counting the rest.
class CappedWarnings {
 public:
  CappedWarnings(Diagnostics& out, const std::string& file, int limit, std::string summary)
      : out_(out), file_(file), limit_(limit), summary_(std::move(summary)) {}
  ~CappedWarnings() {
    if (count_ > limit_)
      out_.warning(file_, 0, 0, "... and " + std::to_string(count_ - limit_) + " more " + summary_);
  }
  CappedWarnings(const CappedWarnings&) = delete;
  CappedWarnings& operator=(const CappedWarnings&) = delete;

  void add(int line, std::string message) {
    if (++count_ <= limit_) out_.warning(file_, line, 0, std::move(message));
  }

 private:
  Diagnostics& out_;
  const std::string& file_;
  int limit_;
  std::string summary_;
  int count_ = 0;
};

}  // namespace

Diagnostics checkProbabilitySums(const Grammar& grammar, const std::string& sourceName,
                                 const GrammarCheckOptions& options) {
  Diagnostics out;
  const SymbolTable& symbols = grammar.symbols();
  const auto firstLine = [&](SymbolId lhs) {
    const auto& rules = grammar.rulesWithLhs(lhs);
    return rules.empty() ? 0 : grammar.rule(rules.front()).sourceLine;
  };
  {
    CappedWarnings sums(out, sourceName, options.maxPerKind,
                        "left-hand sides whose probabilities do not sum to 1");
    for (SymbolId lhs : grammar.lhsSymbols()) {
      const double sum = grammar.lhsProbabilitySum(lhs);
      if (std::abs(sum - 1.0) > options.sumTolerance) {
        sums.add(firstLine(lhs),
                 "probabilities of " + symbols.name(lhs) + " sum to " + formatProbability(sum) +
                     " over " + std::to_string(grammar.rulesWithLhs(lhs).size()) + " rules, not 1");
      }
    }
  }
  return out;
}

Diagnostics checkGrammar(const Grammar& grammar, const std::string& sourceName,
                         const GrammarCheckOptions& options) {
  Diagnostics out;
  const SymbolTable& symbols = grammar.symbols();
  const std::size_t n = symbols.size();
  const auto firstLine = [&](SymbolId lhs) {
    const auto& rules = grammar.rulesWithLhs(lhs);
    return rules.empty() ? 0 : grammar.rule(rules.front()).sourceLine;
  };

  out.append(checkProbabilitySums(grammar, sourceName, options));

  {
    CappedWarnings undefined(out, sourceName, options.maxPerKind,
                             "nonterminals used without rules");
    std::vector<bool> reported(n, false);
    for (const Rule& r : grammar.rules()) {
      for (SymbolId s : r.rhs) {
        const auto k = static_cast<std::size_t>(s);
        if (symbols.isNonterminal(s) && grammar.rulesWithLhs(s).empty() && !reported[k]) {
          reported[k] = true;
          undefined.add(r.sourceLine,
                        "nonterminal " + symbols.name(s) + " is used here but has no rules");
        }
      }
    }
  }

  if (grammar.start()) {
    std::vector<bool> reachable(n, false);
    std::deque<SymbolId> queue{*grammar.start()};
    reachable[static_cast<std::size_t>(*grammar.start())] = true;
    while (!queue.empty()) {
      const SymbolId s = queue.front();
      queue.pop_front();
      for (RuleId id : grammar.rulesWithLhs(s)) {
        for (SymbolId child : grammar.rule(id).rhs) {
          if (!reachable[static_cast<std::size_t>(child)]) {
            reachable[static_cast<std::size_t>(child)] = true;
            queue.push_back(child);
          }
        }
      }
    }
    CappedWarnings unreachable(out, sourceName, options.maxPerKind, "unreachable nonterminals");
    for (SymbolId lhs : grammar.lhsSymbols()) {
      if (!reachable[static_cast<std::size_t>(lhs)])
        unreachable.add(firstLine(lhs), "nonterminal " + symbols.name(lhs) +
                                            " is unreachable from the start symbol " +
                                            symbols.name(*grammar.start()));
    }
  }

  // Generating symbols, by a worklist over rules: a rule fires when all its RHS nonterminals
  // are known to generate.
  {
    std::vector<bool> generating(n, false);
    std::vector<int> missing(grammar.ruleCount(), 0);
    std::vector<std::vector<RuleId>> rulesUsing(n);
    std::deque<SymbolId> queue;
    const auto markGenerating = [&](SymbolId s) {
      if (!generating[static_cast<std::size_t>(s)]) {
        generating[static_cast<std::size_t>(s)] = true;
        queue.push_back(s);
      }
    };
    for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
      const Rule& r = grammar.rule(id);
      for (SymbolId s : r.rhs) {
        if (symbols.isNonterminal(s)) {
          ++missing[static_cast<std::size_t>(id)];
          rulesUsing[static_cast<std::size_t>(s)].push_back(id);
        }
      }
      if (missing[static_cast<std::size_t>(id)] == 0) markGenerating(r.lhs);
    }
    while (!queue.empty()) {
      const SymbolId s = queue.front();
      queue.pop_front();
      for (RuleId id : rulesUsing[static_cast<std::size_t>(s)])
        if (--missing[static_cast<std::size_t>(id)] == 0) markGenerating(grammar.rule(id).lhs);
    }
    CappedWarnings barren(out, sourceName, options.maxPerKind, "non-generating nonterminals");
    for (SymbolId lhs : grammar.lhsSymbols()) {
      if (!generating[static_cast<std::size_t>(lhs)])
        barren.add(firstLine(lhs), "nonterminal " + symbols.name(lhs) +
                                       " derives no string of terminals (non-generating)");
    }
  }
  return out;
}

}  // namespace gwb
