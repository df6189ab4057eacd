// A probabilistic context-free grammar with optional Dirichlet priors.
//
// A Grammar owns its SymbolTable and a list of rules `lhs -> rhs : probability`, each with an
// optional Dirichlet pseudo-count (the `prior`, the ALPHA column of the Earleyx format) used by
// Variational Bayes. The RHS may mix terminals and nonterminals (Earleyx "fragment" rules) or be
// empty (ε-rules, NLTK format only). Probabilities are stored as given; nothing renormalises
// them (VB output grammars deliberately do not sum to one per LHS).
//
// Invariants: a rule's LHS is a nonterminal; rule ids are dense and stable; no two rules share
// the same (lhs, rhs) — readers merge or reject duplicates before calling addRule. Indices by
// LHS and by first RHS symbol are kept up to date by addRule, so lookups are O(1).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gwb/common/symbol_table.h"

namespace gwb {

using RuleId = std::int32_t;

// How a rule's RHS is made, after the Earleyx taxonomy (RuleSet.java).
enum class RuleKind : std::uint8_t {
  Epsilon,        // X -> (empty)
  Lexical,        // X -> w          (one terminal; X is a preterminal)
  MultiTerminal,  // X -> w1 w2 ...  (two or more terminals)
  Fragment,       // X -> Y w Z      (terminals and nonterminals mixed)
  Phrasal,        // X -> Y Z ...    (nonterminals only, unary included)
};
const char* ruleKindName(RuleKind kind);

// The Dirichlet priors (pseudo-counts) Variational Bayes accepts, inclusive. Within this range
// the digamma and log-gamma sums of the VB update stay finite for any grammar size; readers
// reject a prior outside it at file:line (docs/formats.md).
inline constexpr double kMinDirichletPrior = 1e-100;
inline constexpr double kMaxDirichletPrior = 1e100;
inline bool isSupportedPrior(double prior) {
  return prior >= kMinDirichletPrior && prior <= kMaxDirichletPrior;  // false for NaN
}
// "Dirichlet prior 1e+308 is outside the supported range [1e-100, 1e100]".
std::string unsupportedPriorMessage(double prior);

struct Rule {
  SymbolId lhs = kNoSymbol;
  std::vector<SymbolId> rhs;
  double probability = 0.0;
  std::optional<double> prior;  // Dirichlet pseudo-count; absent means "the default"
  int sourceLine = 0;           // 1-based line in the file it was read from; 0 if none
};

class Grammar {
 public:
  SymbolTable& symbols() { return symbols_; }
  const SymbolTable& symbols() const { return symbols_; }

  // Adds a rule; the caller guarantees its (lhs, rhs) is new (see findRule).
  RuleId addRule(Rule rule);
  std::optional<RuleId> findRule(SymbolId lhs, const std::vector<SymbolId>& rhs) const;

  const std::vector<Rule>& rules() const { return rules_; }
  const Rule& rule(RuleId id) const { return rules_[static_cast<std::size_t>(id)]; }
  void setProbability(RuleId id, double p) { rules_[static_cast<std::size_t>(id)].probability = p; }
  void setPrior(RuleId id, std::optional<double> prior) {
    rules_[static_cast<std::size_t>(id)].prior = prior;
  }
  std::size_t ruleCount() const { return rules_.size(); }
  RuleKind kind(RuleId id) const;

  // Rules whose LHS is `symbol`, in order of addition (empty for terminals and unknown ids).
  const std::vector<RuleId>& rulesWithLhs(SymbolId symbol) const;
  // Rules whose RHS starts with `symbol` (terminal or nonterminal), in order of addition.
  const std::vector<RuleId>& rulesWithFirstRhs(SymbolId symbol) const;
  double lhsProbabilitySum(SymbolId symbol) const;
  // Nonterminals that have at least one rule, in order of first appearance as an LHS.
  const std::vector<SymbolId>& lhsSymbols() const { return lhsOrder_; }

  std::optional<SymbolId> start() const { return start_; }
  void setStart(SymbolId symbol) { start_ = symbol; }
  void clearStart() { start_.reset(); }

  bool hasPriors() const;            // does any rule carry a prior?
  bool hasUnknownWordModel() const;  // is there a rule X -> UNK... (Earleyx's `_UNK` signatures)?

  // "S -> NP VP" with terminals quoted ('the'), as shown in the workbench and diagnostics.
  std::string ruleText(RuleId id) const;
  std::string rhsText(RuleId id) const;

 private:
  static std::size_t hashRule(SymbolId lhs, const std::vector<SymbolId>& rhs);

  SymbolTable symbols_;
  std::vector<Rule> rules_;
  std::vector<std::vector<RuleId>> byLhs_;
  std::vector<std::vector<RuleId>> byFirstRhs_;
  std::vector<SymbolId> lhsOrder_;
  std::unordered_multimap<std::size_t, RuleId> ruleHash_;
  std::optional<SymbolId> start_;
};

}  // namespace gwb
