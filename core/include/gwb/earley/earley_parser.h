// Stolcke's (1995) probabilistic Earley parser, as extended by Luong, Frank & Johnson (2013).
//
// Items [l, r] X → α . β live in state set r. Each carries a forward probability (the mass of
// all Earley paths from the start through this item, covering words 0..r-1), an inner
// probability (the mass of the paths from [l, l] X → . αβ to it, covering words l..r-1), and a
// Viterbi inner score (the best single such path) with a back-pointer.
//
//   predict   at r, for every nonterminal Z after a dot: Y with R_L(Z, Y) > 0 gets
//             [r, r] Y → . λ, forward = Σ forward(waiting on Z)·R_L(Z, Y)·P(Y → λ), inner = P.
//             Predicted items predict nothing more (the closure R_L did it). Lexical rules are
//             never predicted: the scanner uses the prediction mass of their preterminal.
//   scan      [l, r] X → α . w β and word w at r give [l, r+1] X → α w . β; a lexical rule
//             X → w gives [r, r+1] X → w . with forward = mass(X)·P, inner = P.
//   complete  a finished [j, r] Y → ν . (not a unit rule: those are folded into R_U) advances
//             every [k, j] X → α . Z β with R_U(Z, Y) > 0 to [k, r] X → α Z . β:
//             forward += forward·R_U(Z, Y)·inner(Y), inner += inner·R_U(Z, Y)·inner(Y);
//             Viterbi takes the max over (item, child) of viterbi·R̂_U(Z, Y)·viterbi(Y), with
//             R̂_U the best unit chain (restored in the tree). Viterbi scores are always kept
//             as log probabilities: rescaling by the summed mass would underflow them.
// Completed items are processed by decreasing origin, which in an ε-free grammar is a
// topological order: every contribution to an item is summed before the item is used.
//
// Prefix probability P(w_0..w_{r-1} ...) is the sum of forward probabilities of the items
// scanned into set r; surprisal is −log of its ratio to the previous one.
//
// Numeric modes (same answers to ~1e-12 relative): Log keeps log probabilities and adds with
// log-sum-exp; Scaled keeps plain doubles and, as in the paper's section 5, divides every item
// scanned into set r by the prefix ratio S_r = P(w_0..w_{r-1})/P(w_0..w_{r-2}), so that forward
// masses restart at 1 at every word. The logarithms of the S_r are summed (never their
// product, which overflows after ~250 words), and give exact log probabilities back.
//
// Look-ahead (on by default) predicts only rules that can start with the next word (FIRST) and
// completes only symbols the next word, or the end of input, can follow (FOLLOW). This is what
// makes the discourse grammar's right recursion linear: Discourse_t' completes only at the end
// of input. It never changes prefix probabilities, the string's probability or its Viterbi
// parse; it drops only items that cannot lead to them. String probabilities of every prefix
// need completions at every position; ask for them with `prefixStringProbabilities`.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gwb/earley/chart_storage.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/parse_tree.h"

namespace gwb {

enum class NumericMode { Log, Scaled };
const char* numericModeName(NumericMode mode);

struct EarleyItem {
  // Field order keeps the item at 48 bytes (a whole-corpus chart holds six million of them).
  double forward = 0.0;  // in the chart's representation: log, or scaled probability
  double inner = 0.0;
  double viterbi = 0.0;     // always a log probability (scaling would underflow its ratio)
  std::int32_t rule = -1;   // compiled rule id
  std::int32_t origin = 0;  // l
  std::int32_t bestPredecessor = -1;  // item index: in set `child.origin` (complete) or r-1 (scan)
  std::int32_t bestChild = -1;        // completed child item index in this set (complete)
  SymbolId bestVia = kNoSymbol;       // Z of the unit chain Z ⇒* Y used by the best completion
  std::int16_t dot = 0;  // CompiledGrammar rejects right-hand sides longer than kMaxRuleLength
  bool predicted = false;
};

// A reference to an item: state set and index in it.
struct ItemRef {
  std::int32_t set = -1;
  std::int32_t index = -1;
  bool valid() const { return set >= 0; }
  bool operator==(const ItemRef& o) const { return set == o.set && index == o.index; }
};

enum class OperationKind { Init, Predict, Scan, Complete };
const char* operationKindName(OperationKind kind);

// One operation of the parse, for the workbench's stepper. Forward and inner values are in the
// chart's numeric representation (log, or scaled: see EarleyChart::logForward); Viterbi values
// are log probabilities.
struct ParseEvent {
  OperationKind kind = OperationKind::Init;
  ItemRef item;                        // created or updated
  ItemRef predecessor;                 // the advanced item (scan, complete)
  ItemRef child;                       // the completed item (complete)
  SymbolId predictedFrom = kNoSymbol;  // predict: the predicted nonterminal Y (the item's LHS)
  SymbolId via = kNoSymbol;            // complete: Z in R_U(Z, Y)
  bool created = false;                // false: an existing item got more mass
  double forwardBefore = 0.0, innerBefore = 0.0, viterbiBefore = 0.0;
  double forwardAfter = 0.0, innerAfter = 0.0, viterbiAfter = 0.0;
};

class EarleyChart;

// Receives every operation of a parse. With no observer attached the parser pays one branch
// per operation.
class ParseObserver {
 public:
  virtual ~ParseObserver() = default;
  virtual void onEvent(const ParseEvent& event, const EarleyChart& chart) = 0;
  // Called when set `position` is complete (after prediction), with its log scale factor.
  virtual void onSetFinished(int /*position*/, const EarleyChart& /*chart*/) {}
  // Asked after every finished set: true stops the parse there (ParseResult::cancelled), so a
  // workbench can cancel a long parse running on another thread.
  virtual bool stopRequested() const { return false; }
};

// The state sets of one parse. Finished sets live in the chart's ChartStorage; the set the
// parser is building lives in growable buffers until it is finished, and is visible through
// set() and item() meanwhile (an observer sees it grow). Parsing into a chart again reuses its
// memory. Copies are deep.
class EarleyChart {
 public:
  EarleyChart() = default;
  EarleyChart(const EarleyChart& other);
  EarleyChart& operator=(const EarleyChart& other);
  EarleyChart(EarleyChart&&) noexcept = default;
  EarleyChart& operator=(EarleyChart&&) noexcept = default;
  ~EarleyChart() = default;

  const CompiledGrammar& grammar() const { return *grammar_; }
  NumericMode mode() const { return mode_; }
  std::size_t setCount() const { return sets_.size(); }
  ConstSpan<EarleyItem> set(std::size_t r) const {
    if (r == open_) return ConstSpan<EarleyItem>(openItems_);
    const StateSet& s = sets_[r];
    return {s.items, s.itemCount};
  }
  const EarleyItem& item(ItemRef ref) const {
    return set(static_cast<std::size_t>(ref.set))[static_cast<std::size_t>(ref.index)];
  }
  std::size_t itemCount() const;
  // Sum of log S_k for k ≤ r (scaled mode); 0 in log mode.
  double logScaleUpTo(std::size_t r) const { return sets_[r].logScaleSum; }
  // A stored value as a true probability's logarithm, given the item's span [l, r]: forward
  // values carry the scale of 0..r, inner and Viterbi values that of l..r.
  double logForward(ItemRef ref) const;
  double logInner(ItemRef ref) const;
  double logViterbi(ItemRef ref) const;
  // "[0, 2] NP -> Det N ." (dropped ε symbols shown as Adj:ε)
  std::string itemText(ItemRef ref) const;
  const std::vector<std::string>& words() const { return words_; }
  // Bytes of chart memory mapped (kept for the next parse into this chart).
  std::size_t storageBytes() const { return storage_.capacityBytes(); }

 private:
  friend class EarleyParser;
  template <typename Numeric>
  friend class EarleyRun;
  using WaitingEntry = std::pair<SymbolId, std::int32_t>;  // (Z after the dot, item)
  static constexpr std::size_t kNoOpenSet = static_cast<std::size_t>(-1);
  struct StateSet {
    const EarleyItem* items = nullptr;  // in storage_
    std::size_t itemCount = 0;
    const WaitingEntry* waiting = nullptr;  // sorted by symbol, in storage_
    std::size_t waitingCount = 0;
    double logScale = 0.0;     // log S_r (scaled mode)
    double logScaleSum = 0.0;  // Σ_{k ≤ r} log S_k
  };
  ConstSpan<WaitingEntry> waiting(std::size_t r) const {
    if (r == open_) return ConstSpan<WaitingEntry>(openWaiting_);
    return {sets_[r].waiting, sets_[r].waitingCount};
  }
  // Empties the chart for a parse of `sets` state sets, keeping its memory.
  void reset(std::size_t sets);
  void openSet(std::size_t r);
  void closeSet();

  const CompiledGrammar* grammar_ = nullptr;
  NumericMode mode_ = NumericMode::Scaled;
  std::vector<StateSet> sets_;
  std::vector<std::string> words_;
  ChartStorage storage_;
  std::size_t open_ = kNoOpenSet;
  std::vector<EarleyItem> openItems_;
  std::vector<WaitingEntry> openWaiting_;
  std::vector<std::int32_t> openTerminalWaiting_;    // items of the open set before a terminal
  std::vector<std::int32_t> closedTerminalWaiting_;  // the same, of the set closed last
};

struct ParseOptions {
  NumericMode mode = NumericMode::Scaled;
  bool lookahead = true;                   // FIRST/FOLLOW pruning (see above)
  bool prefixStringProbabilities = false;  // string probability of every prefix
  bool viterbi = true;                     // build the Viterbi tree
  ParseObserver* observer = nullptr;
};

struct ParseResult {
  bool success = false;    // the whole input is a sentence of the grammar
  bool cancelled = false;  // the observer asked to stop; the chart holds sets 0..stop only
  // Index of the first word that cannot continue the prefix (prefix probability 0), or -1.
  int failedAt = -1;
  std::vector<double> logPrefixProbability;  // [0..n]; [0] = 0; −inf after a failure
  std::vector<double> surprisal;             // [0..n-1], nats: −log P(w_i | w_0..w_{i-1})
  // [0..n]: log P(w_0..w_{i-1} is a whole sentence); only the last entry unless asked for all.
  std::vector<double> logStringProbability;
  double logProbability = -std::numeric_limits<double>::infinity();  // of the whole input
  double viterbiLogProbability = -std::numeric_limits<double>::infinity();
  ParseTree viterbiTree;  // empty without a parse
  std::size_t items = 0;  // chart items created
};

class EarleyParser {
 public:
  // The compiled grammar must outlive the parser.
  explicit EarleyParser(const CompiledGrammar& grammar) : grammar_(grammar) {}

  ParseResult parse(const std::vector<std::string>& words, const ParseOptions& options = {});
  // As parse(), also handing back the chart (for the workbench and for inside-outside).
  ParseResult parse(const std::vector<std::string>& words, const ParseOptions& options,
                    EarleyChart& chart);
  // As parse(), then the outside pass: adds E[c(r) | words] for every grammar rule (by RuleId)
  // to `counts` when the words parse (see inside_outside.h).
  ParseResult parseWithCounts(const std::vector<std::string>& words, const ParseOptions& options,
                              std::vector<double>& counts);
  // Makes state set `set` of a parse again, from the sets before it in `chart`, and hands its
  // operations (the scans into it, its completions and its predictions) to options.observer in
  // the order and with the values the parse made them. `chart` must hold that parse of `words`
  // (this grammar, the same mode and look-ahead) through set `set`; it is left unchanged, and
  // nothing is copied but the set being made. This is how the workbench steps through a parse
  // without storing every operation of it (see parse_trace.h).
  void replaySet(const std::vector<std::string>& words, const ParseOptions& options,
                 const EarleyChart& chart, std::size_t set);

 private:
  const CompiledGrammar& grammar_;
};

// Splits a line into tokens on white space.
std::vector<std::string> tokenize(const std::string& line);
// The lines of an input text, one sentence each (`gwb parse`): blank lines kept, lines ended by
// LF, CRLF or a lone CR alike, a UTF-8 byte-order mark at the start dropped.
std::vector<std::string> sentenceLines(std::string_view text);

}  // namespace gwb
