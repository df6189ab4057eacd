// A grammar compiled for probabilistic Earley parsing (Stolcke 1995).
//
// What the parser needs, computed once per grammar:
//
// * ε-removal. Stolcke's parser assumes no ε-rules; we remove them exactly. e(X) = P(X ⇒* ε) is
//   the least fixed point of e(X) = Σ_{X→α} P(X→α)·Π e(α_i) (iterated from 0), and ê(X) its
//   max-product twin for Viterbi. Every rule X → α with nullable occurrences is replaced by one
//   compiled rule per non-empty choice of occurrences to keep; a dropped occurrence multiplies
//   the rule's inside weight by e(Y) and its Viterbi weight by ê(Y). Each compiled rule remembers
//   its source rule and which positions it dropped, so trees and counts map back. The empty
//   string itself has probability e(S).
// * A goal rule GOAL → S (weight 1), the last compiled rule.
// * The lexicon: for each terminal, the lexical rules X → w (X a preterminal). Lexical rules are
//   never predicted as items: the scanner creates [i, i+1] X → w . directly from the prediction
//   mass of X at i (as Earleyx does), which keeps the discourse grammar's 34,449 lexical rules
//   out of the chart.
// * Closures over just the nonterminals that take part in each relation (never a dense matrix
//   over all symbols): left-corner R_L = (I − P_L)^-1 for prediction, unit R_U = (I − P_U)^-1
//   for completion, and the max-product unit closure (best unit chain, with its rules) for
//   Viterbi. A relation whose closure diverges (improper left recursion, unit cycles of mass
//   ≥ 1) is an error.
// * FIRST sets of nonterminals and FOLLOW sets (with end of input), as bitsets over terminals,
//   for look-ahead pruning: predict only what can start with the next token, complete only what
//   the next token can follow. Pruning never changes prefix, string, Viterbi or inside values.
// * Unknown words: Earleyx's signatures (`UNK-LC-DASH...`) for grammars with `_UNK` rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gwb/diagnostic.h"
#include "gwb/grammar.h"

namespace gwb {

// A fixed-size set of small integers (terminal or nonterminal indices).
class BitSet {
 public:
  BitSet() = default;
  explicit BitSet(std::size_t size) : words_((size + 63) / 64, 0) {}
  void set(std::size_t i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  bool test(std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  // this |= other; returns whether anything changed.
  bool unite(const BitSet& other);

 private:
  std::vector<std::uint64_t> words_;
};

struct CompiledRule {
  SymbolId lhs = kNoSymbol;
  std::vector<SymbolId> rhs;   // never empty
  double probability = 0.0;    // inside weight (dropped nullable symbols folded in)
  double viterbiWeight = 0.0;  // max-product weight
  double logProbability = 0.0;
  double logViterbiWeight = 0.0;
  RuleId source = -1;         // the grammar's rule; -1 for the goal rule
  std::uint32_t dropped = 0;  // bit k set: source position k was dropped (derives ε)
  bool unit = false;          // one nonterminal on the right
  bool lexical = false;       // one terminal on the right
};

// A weighted entry of the sparse closure matrices: R(row, col) = value.
struct ClosureEntry {
  SymbolId symbol;
  double value;
  double logValue = 0.0;
};

struct LexicalEntry {
  SymbolId preterminal;
  std::int32_t rule;  // compiled rule id
};

class CompiledGrammar {
 public:
  // The longest right-hand side an item's dot can walk (EarleyItem::dot is 16 bits).
  static constexpr int kMaxRuleLength = 32767;

  // Compiles; on failure (no start symbol, divergent closure, too many nullable symbols in one
  // rule) returns nullopt and adds errors to `diagnostics`.
  static std::optional<CompiledGrammar> compile(const Grammar& grammar, Diagnostics& diagnostics,
                                                const std::string& sourceName = "grammar");

  const Grammar& grammar() const { return *grammar_; }
  const SymbolTable& symbols() const { return grammar_->symbols(); }
  std::size_t symbolCount() const { return symbolCount_; }
  SymbolId goal() const { return goal_; }
  SymbolId start() const { return start_; }
  std::int32_t goalRule() const { return static_cast<std::int32_t>(rules_.size()) - 1; }

  const std::vector<CompiledRule>& rules() const { return rules_; }
  const CompiledRule& rule(std::int32_t id) const { return rules_[static_cast<std::size_t>(id)]; }
  // Non-lexical compiled rules of a nonterminal (these are the ones predicted as items).
  const std::vector<std::int32_t>& predictableRules(SymbolId lhs) const {
    return predictable_[static_cast<std::size_t>(lhs)];
  }
  // Lexical rules X → w for a terminal w.
  const std::vector<LexicalEntry>& lexicalRules(SymbolId terminal) const {
    return lexicon_[static_cast<std::size_t>(terminal)];
  }

  // Closures: row Z lists every Y with R(Z, Y) > 0 (Z itself included, R(Z, Z) ≥ 1).
  const std::vector<ClosureEntry>& leftCorner(SymbolId z) const {
    return leftCorner_[static_cast<std::size_t>(z)];
  }
  // Column Y of R_U: every Z with R_U(Z, Y) > 0, with R_U(Z, Y) and the Viterbi (max-product)
  // unit-chain weight from Z down to Y.
  struct UnitEntry {
    SymbolId from;
    double sum;
    double best;
    double logSum = 0.0;
    double logBest = 0.0;
  };
  const std::vector<UnitEntry>& unitInto(SymbolId y) const {
    return unitInto_[static_cast<std::size_t>(y)];
  }
  // Every compiled unit rule, by increasing id (a few among tens of thousands of rules).
  const std::vector<std::int32_t>& unitRules() const { return unitRules_; }
  // The best unit chain Z ⇒ ... ⇒ Y as compiled unit rules, top first (empty when Z == Y).
  std::vector<std::int32_t> bestUnitChain(SymbolId from, SymbolId to) const;

  double nullProbability(SymbolId x) const { return nullable_[static_cast<std::size_t>(x)]; }
  double nullViterbi(SymbolId x) const { return nullViterbi_[static_cast<std::size_t>(x)]; }
  // The grammar rule of X's best ε-derivation (for re-inserting ε subtrees), -1 if none.
  RuleId bestNullRule(SymbolId x) const { return bestNullRule_[static_cast<std::size_t>(x)]; }
  bool hasEpsilonRules() const { return hasEpsilon_; }
  // E[c(r) | X ⇒* ε]: the expected uses of each grammar rule in an ε-derivation of X (for
  // mapping counts of compiled rules with dropped symbols back to the grammar).
  const std::vector<std::pair<RuleId, double>>& nullDerivationCounts(SymbolId x) const {
    return nullCounts_[static_cast<std::size_t>(x)];
  }

  // Look-ahead. `terminal` may be kEndOfInput.
  static constexpr SymbolId kEndOfInput = -2;
  bool canStartWith(SymbolId nonterminal, SymbolId terminal) const;
  bool canBeFollowedBy(SymbolId nonterminal, SymbolId terminal) const;
  bool ruleCanStartWith(std::int32_t rule, SymbolId terminal) const;

  // Unknown words: the preterminals with `_UNK...` rules and, for a word, its lexical options.
  bool hasUnknownWordModel() const { return !unknownPreterminals_.empty(); }
  // Lexical options for a word the grammar does not know: (preterminal, probability) through
  // the signature rule X → UNK-SIG, else X → UNK. Empty without an unknown-word model.
  struct UnknownOption {
    SymbolId preterminal;
    std::int32_t rule;  // compiled rule used (signature or plain UNK)
  };
  std::vector<UnknownOption> unknownWordOptions(const std::string& word) const;

  std::string ruleText(std::int32_t id) const;  // "NP -> Det N" (dropped symbols shown as Adj:ε)

 private:
  const Grammar* grammar_ = nullptr;
  std::size_t symbolCount_ = 0;  // grammar symbols + GOAL
  SymbolId goal_ = kNoSymbol;
  SymbolId start_ = kNoSymbol;
  bool hasEpsilon_ = false;
  std::vector<CompiledRule> rules_;
  std::vector<std::vector<std::int32_t>> predictable_;
  std::vector<std::vector<LexicalEntry>> lexicon_;
  std::vector<std::vector<ClosureEntry>> leftCorner_;
  std::vector<std::vector<UnitEntry>> unitInto_;
  std::vector<std::int32_t> unitRules_;
  // best unit chain: for (from, to), the last unit rule on the best path into `to`.
  std::vector<std::vector<std::pair<SymbolId, std::int32_t>>> unitChainLast_;
  std::vector<double> nullable_;
  std::vector<double> nullViterbi_;
  std::vector<RuleId> bestNullRule_;
  std::vector<std::vector<std::pair<RuleId, double>>> nullCounts_;
  std::vector<BitSet> first_;
  std::vector<BitSet> follow_;  // terminal index space + 1 bit for end of input
  std::size_t endBit_ = 0;
  std::vector<SymbolId> unknownPreterminals_;

  friend class CompiledGrammarBuilder;
};

// Earleyx's (Stanford "signature2") class of an unknown word, e.g. "UNK-INIT-DASHy".
std::string unknownWordSignature(const std::string& word);

}  // namespace gwb
