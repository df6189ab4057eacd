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

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gwb/common/const_span.h"
#include "gwb/common/diagnostic.h"
#include "gwb/earley/grammar.h"

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
  const std::vector<std::uint64_t>& words() const { return words_; }

 private:
  std::vector<std::uint64_t> words_;
};

struct CompiledRule {
  SymbolId lhs = kNoSymbol;
  ConstSpan<SymbolId> rhs;     // never empty; stored in the compiled grammar
  double probability = 0.0;    // inside weight (dropped nullable symbols folded in)
  double viterbiWeight = 0.0;  // max-product weight
  double logProbability = 0.0;
  double logViterbiWeight = 0.0;
  RuleId source = -1;  // the grammar's rule; -1 for the goal rule
  // The source positions dropped (deriving ε), increasing; stored in the compiled grammar. A
  // list rather than a bit mask: a rule may be up to kMaxRuleLength symbols long.
  ConstSpan<std::int32_t> droppedPositions;
  bool unit = false;     // one nonterminal on the right
  bool lexical = false;  // one terminal on the right

  bool dropsAny() const { return !droppedPositions.empty(); }
  // Whether source position `position` was dropped.
  bool drops(std::size_t position) const {
    return std::binary_search(droppedPositions.begin(), droppedPositions.end(),
                              static_cast<std::int32_t>(position));
  }
};

// A weighted entry of the sparse closure matrices: R(row, col) = value.
struct ClosureEntry {
  SymbolId symbol;
  double value;
  double logValue = 0.0;
};

// What advancing an item over the symbol after its dot makes, as far as the parser's look-ahead
// test cares (earley/lookahead.h): an item waiting on a nonterminal or on a terminal, or a
// finished item of the goal rule, of a unit rule, or of any other rule.
enum class AdvanceKind : std::uint8_t { Nonterminal, Terminal, Finished, Goal, Unit };

struct LexicalEntry {
  SymbolId preterminal;
  std::int32_t rule;  // compiled rule id
};

class CompiledGrammar {
  // Compiled rules with their right-hand sides stored back to back in `symbols` and their
  // dropped positions in `dropped`; each rule's rhs and droppedPositions view those arrays. A
  // copy views its own copies; a move keeps the arrays where they are.
  struct RuleTable {
    std::vector<CompiledRule> rules;
    std::vector<SymbolId> symbols;
    std::vector<std::int32_t> dropped;

    RuleTable() = default;
    RuleTable(const RuleTable& other)
        : rules(other.rules), symbols(other.symbols), dropped(other.dropped) {
      rebase(other);
    }
    RuleTable& operator=(const RuleTable& other) {
      if (this != &other) {
        RuleTable copy(other);  // all or nothing: a failed copy leaves this as it was
        rules.swap(copy.rules);
        symbols.swap(copy.symbols);
        dropped.swap(copy.dropped);
      }
      return *this;
    }
    RuleTable(RuleTable&&) noexcept = default;
    RuleTable& operator=(RuleTable&&) noexcept = default;
    ~RuleTable() = default;

   private:
    void rebase(const RuleTable& other) {
      for (CompiledRule& r : rules) {
        r.rhs = ConstSpan<SymbolId>(symbols.data() + (r.rhs.data() - other.symbols.data()),
                                    r.rhs.size());
        if (r.dropsAny())
          r.droppedPositions = ConstSpan<std::int32_t>(
              dropped.data() + (r.droppedPositions.data() - other.dropped.data()),
              r.droppedPositions.size());
      }
    }
  };
  // Row k is values[start[k], start[k + 1]).
  template <typename T>
  struct Rows {
    std::vector<std::size_t> start;
    std::vector<T> values;
    ConstSpan<T> row(std::size_t k) const {
      return ConstSpan<T>(values.data() + start[k], start[k + 1] - start[k]);
    }
    // Packs one vector per row.
    static Rows pack(const std::vector<std::vector<T>>& rows) {
      Rows packed;
      packed.start.reserve(rows.size() + 1);
      packed.start.push_back(0);
      for (const std::vector<T>& row : rows)
        packed.start.push_back(packed.start.back() + row.size());
      packed.values.reserve(packed.start.back());
      for (const std::vector<T>& row : rows)
        packed.values.insert(packed.values.end(), row.begin(), row.end());
      return packed;
    }
  };
  // Bit sets of the symbols that have one (nonterminals and GOAL), packed row after row.
  struct BitRows {
    std::size_t wordsPerRow = 0;
    std::vector<std::int32_t> rowOf;  // by symbol; -1: no set (a terminal)
    std::vector<std::uint64_t> words;
    bool test(std::size_t symbol, std::size_t bit) const {
      const std::int32_t row = rowOf[symbol];
      return row >= 0 &&
             ((words[static_cast<std::size_t>(row) * wordsPerRow + (bit >> 6)] >> (bit & 63)) & 1u);
    }
    // Packs `sets` (by symbol; an empty set: no row), all of one size.
    static BitRows pack(const std::vector<BitSet>& sets);
  };

 public:
  // The longest right-hand side an item's dot can walk (EarleyItem::dot is 16 bits).
  static constexpr int kMaxRuleLength = 32767;

  // Compiles; on failure (no start symbol, divergent closure, too many nullable symbols in one
  // rule) returns nullopt and adds errors to `diagnostics`.
  static std::optional<CompiledGrammar> compile(const Grammar& grammar, Diagnostics& diagnostics,
                                                const std::string& sourceName = "grammar");

  // Brings this up to date after only the probabilities of the rules of the grammar it was
  // compiled from changed, as each iteration of EM or VB does: `grammar` must be that same
  // object, with the same rules, the same ones with probability 0, and no ε-rules.
  // Re-derives the weights and closures in place and keeps every table that depends on the
  // rules alone (and its memory: threads that parse with this keep those in their caches); the
  // result equals compile(grammar) bit for bit. Returns false, and then this must be compiled
  // afresh before it is used again, when those conditions do not hold (checked before anything
  // changes) or a closure diverges under the new probabilities (compile() says why).
  // `grammar` must outlive this, as for compile().
  bool reweight(const Grammar& grammar);

  const Grammar& grammar() const { return *grammar_; }
  const SymbolTable& symbols() const { return grammar_->symbols(); }
  std::size_t symbolCount() const { return symbolCount_; }
  SymbolId goal() const { return goal_; }
  SymbolId start() const { return start_; }
  std::int32_t goalRule() const { return static_cast<std::int32_t>(rules_.rules.size()) - 1; }

  const std::vector<CompiledRule>& rules() const { return rules_.rules; }
  // Where rule `id`'s right-hand side starts among all right-hand sides stored back to back:
  // rhsOffset(id) + id + dot numbers the dotted rules (rule, dot) densely and without clashes.
  std::size_t rhsOffset(std::int32_t id) const {
    return static_cast<std::size_t>(rule(id).rhs.data() - rules_.symbols.data());
  }
  const CompiledRule& rule(std::int32_t id) const {
    return rules_.rules[static_cast<std::size_t>(id)];
  }
  // What the parser's per-item loops read of a rule (its LHS, length and whether it is a unit
  // rule), 8 bytes a rule instead of CompiledRule's 88, so that those loops stay in the cache.
  struct RuleShape {
    SymbolId lhs;
    std::int16_t length;
    bool unit;
  };
  const RuleShape& shape(std::int32_t id) const { return shapes_[static_cast<std::size_t>(id)]; }
  // The dotted rules (rule, dot) numbered densely: rhsOffset(id) + id + dot, from a 4-byte table
  // rather than the 88-byte CompiledRule.
  std::size_t dottedIndex(std::int32_t id, std::int32_t dot) const {
    return static_cast<std::size_t>(dottedBase_[static_cast<std::size_t>(id)]) +
           static_cast<std::size_t>(dot);
  }
  // What advancing an item (rule, dot) over the symbol after its dot makes (earley/lookahead.h's
  // classifyAdvance: the kind, and the symbol after the new dot or, when it finishes the rule, the
  // LHS) and the new dotted rule's completionTarget(); for dot < the rule's length. Completion
  // reads it for every waiting item it keeps a record of.
  struct DottedAdvance {
    SymbolId after;
    std::int32_t target;
    AdvanceKind kind;
  };
  const DottedAdvance& dottedAdvance(std::int32_t id, std::int32_t dot) const {
    return dottedAdvances_[dottedIndex(id, dot)];
  }
  // The dotted rules that completion makes, (rule, dot) with dot ≥ 1 and a nonterminal (or GOAL)
  // before the dot, numbered densely from 0 to completionTargetCount() − 1, those after the same
  // symbol together (so that the targets of one completion lie close); −1 for the other dotted
  // rules. The parser's dense item index is keyed by (origin, this number).
  std::int32_t completionTarget(std::int32_t id, std::int32_t dot) const {
    return completionTargets_[dottedIndex(id, dot)];
  }
  std::size_t completionTargetCount() const { return completionTargetCount_; }
  // Non-lexical compiled rules of a nonterminal (these are the ones predicted as items).
  ConstSpan<std::int32_t> predictableRules(SymbolId lhs) const {
    return predictable_.row(static_cast<std::size_t>(lhs));
  }
  // The same rules grouped by their first symbol (the rule-start table prediction reads, so that
  // the look-ahead is tested once per first symbol and no rule is read to test it): group g of
  // Y is (first symbol, the rules [begin, end) of predictionGroupRules()), groups in the order
  // their first rule comes in predictableRules(Y), rules in it in that order too.
  struct PredictionGroup {
    SymbolId first;
    bool terminal;  // `first` is a terminal (a multi-terminal or fragment rule)
    std::int32_t begin;
    std::int32_t end;
  };
  ConstSpan<PredictionGroup> predictionGroups(SymbolId lhs) const {
    return predictionGroups_.row(static_cast<std::size_t>(lhs));
  }
  const std::vector<std::int32_t>& predictionGroupRules() const { return predictionGroupRules_; }
  // Whether a group's rules can start with `terminal` (not kEndOfInput).
  bool groupCanStartWith(const PredictionGroup& group, SymbolId terminal) const {
    return group.terminal ? group.first == terminal : canStartWith(group.first, terminal);
  }
  // Lexical rules X → w for a terminal w.
  ConstSpan<LexicalEntry> lexicalRules(SymbolId terminal) const {
    return lexicon_.row(static_cast<std::size_t>(terminal));
  }

  // Closures: row Z lists every Y with R(Z, Y) > 0 (Z itself included, R(Z, Z) ≥ 1).
  ConstSpan<ClosureEntry> leftCorner(SymbolId z) const {
    return leftCorner_.row(static_cast<std::size_t>(z));
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
  ConstSpan<UnitEntry> unitInto(SymbolId y) const {
    return unitInto_.row(static_cast<std::size_t>(y));
  }
  // Row Z of R_U: every Y with R_U(Z, Y) > 0 (Z itself included), for nonterminals and GOAL.
  ConstSpan<ClosureEntry> unitFrom(SymbolId z) const {
    return unitFrom_.row(static_cast<std::size_t>(z));
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
  // (Inline: completion asks these for every item it would advance.)
  bool canStartWith(SymbolId nonterminal, SymbolId terminal) const {
    return terminal >= 0 &&
           first_.test(static_cast<std::size_t>(nonterminal), static_cast<std::size_t>(terminal));
  }
  bool canBeFollowedBy(SymbolId nonterminal, SymbolId terminal) const {
    if (terminal < 0 && terminal != kEndOfInput) return false;
    return follow_.test(static_cast<std::size_t>(nonterminal),
                        terminal == kEndOfInput ? endBit_ : static_cast<std::size_t>(terminal));
  }
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
  std::size_t symbolCount_ = 0;      // grammar symbols + GOAL
  std::size_t sourceRuleCount_ = 0;  // the grammar's rules when compiled (for reweight)
  SymbolId goal_ = kNoSymbol;
  SymbolId start_ = kNoSymbol;
  bool hasEpsilon_ = false;
  // The parser's hot tables live in a few large arrays (right-hand sides back to back, rule
  // lists in compressed rows) rather than one small heap block per rule or symbol: parsing
  // reads them with fewer cache misses, and no other allocation lands between them, where a
  // thread writing its own data would evict them from the caches of threads reading them.
  RuleTable rules_;
  Rows<std::int32_t> predictable_;
  std::vector<RuleShape> shapes_;
  std::vector<std::uint32_t> dottedBase_;        // by rule: rhsOffset(id) + id
  std::vector<DottedAdvance> dottedAdvances_;    // by dotted rule
  std::vector<std::int32_t> completionTargets_;  // by dotted rule
  std::size_t completionTargetCount_ = 0;
  Rows<PredictionGroup> predictionGroups_;
  std::vector<std::int32_t> predictionGroupRules_;
  Rows<LexicalEntry> lexicon_;
  Rows<ClosureEntry> leftCorner_;
  Rows<UnitEntry> unitInto_;
  Rows<ClosureEntry> unitFrom_;
  std::vector<std::int32_t> unitRules_;
  // best unit chain: for (from, to), the last unit rule on the best path into `to`.
  std::vector<std::vector<std::pair<SymbolId, std::int32_t>>> unitChainLast_;
  std::vector<double> nullable_;
  std::vector<double> nullViterbi_;
  std::vector<RuleId> bestNullRule_;
  std::vector<std::vector<std::pair<RuleId, double>>> nullCounts_;
  BitRows first_;
  BitRows follow_;  // terminal index space + 1 bit for end of input
  std::size_t endBit_ = 0;
  std::vector<SymbolId> unknownPreterminals_;

  friend class CompiledGrammarBuilder;
};

// Earleyx's (Stanford "signature2") class of an unknown word, e.g. "UNK-INIT-DASHy".
std::string unknownWordSignature(const std::string& word);

}  // namespace gwb
