// One probabilistic Earley parse in one numeric representation: the forward pass of
// earley_parser.h (predict, scan, complete, prefix and string probabilities), private to
// gwb_core. The outside pass that runs on its chart is in inside_outside.cpp, the Viterbi tree
// built from it in viterbi_tree.cpp; both are members of EarleyRun, defined there and
// instantiated for the two numeric representations below.
//
// EarleyRun<Numeric> works on one EarleyChart (a friend of the chart) with one CompiledGrammar;
// Numeric is LinearNumeric (scaled probabilities, the paper's section 5) or LogNumeric.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "earley/lookahead.h"
#include "gwb/common/memory_budget.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_chart.h"
#include "gwb/earley/parse_result.h"
#include "gwb/earley/parse_tree.h"

namespace gwb::earley_internal {

inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();

inline double logAdd(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

// Plain probabilities (rescaled at every scan).
struct LinearNumeric {
  static constexpr NumericMode kMode = NumericMode::Scaled;
  static double zero() { return 0.0; }
  static double one() { return 1.0; }
  static double mul(double a, double b) { return a * b; }
  static double mul(double a, double b, double c) { return a * b * c; }
  static double add(double a, double b) { return a + b; }
  static bool isZero(double a) { return a == 0.0; }
  static double pick(double linear, double /*log*/) { return linear; }
  static double toLog(double a) { return std::log(a); }
};

// Log probabilities.
struct LogNumeric {
  static constexpr NumericMode kMode = NumericMode::Log;
  static double zero() { return kNegInf; }
  static double one() { return 0.0; }
  static double mul(double a, double b) { return a + b; }
  static double mul(double a, double b, double c) { return a + b + c; }
  static double add(double a, double b) { return logAdd(a, b); }
  static bool isZero(double a) { return a == kNegInf; }
  static double pick(double /*linear*/, double log) { return log; }
  static double toLog(double a) { return a; }
};

// A dotted rule numbered densely (rhsOffset + rule + dot, below 2^32 for any grammar that fits
// in memory) in the high half and the origin in the low half: distinct items never share a key,
// however long a rule or sentence is (packing rule, dot and origin into fixed fields of 64 bits
// would let a dot past 255 run into the rule's bits).
inline std::uint64_t itemKey(const CompiledGrammar& grammar, std::int32_t rule, std::int32_t dot,
                             std::int32_t origin) {
  const std::size_t dotted =
      grammar.rhsOffset(rule) + static_cast<std::size_t>(rule) + static_cast<std::size_t>(dot);
  return (static_cast<std::uint64_t>(dotted) << 32) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(origin));
}

// Items of the set being built, by (rule, dot, origin): open addressing with linear probing.
// clear() is O(1) (a generation stamp marks the live slots), which matters because it runs
// once per word on inputs of 50,000 words.
class ItemIndex {
 public:
  ItemIndex() { slots_.resize(1024); }
  void clear() {
    ++generation_;
    size_ = 0;
  }
  // Returns (slot value, inserted); on insertion the value is `value`.
  std::pair<std::int32_t, bool> tryEmplace(std::uint64_t key, std::int32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Slot& slot = probe(key);
    if (slot.generation == generation_) return {slot.value, false};
    slot = Slot{key, value, generation_};
    ++size_;
    return {value, true};
  }
  std::optional<std::int32_t> find(std::uint64_t key) const {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.generation != generation_) return std::nullopt;
      if (slot.key == key) return slot.value;
    }
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::int32_t value = 0;
    std::uint32_t generation = 0;
  };
  static std::size_t hash(std::uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key);
  }
  Slot& probe(std::uint64_t key) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.generation != generation_ || slot.key == key) return slot;
    }
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& slot : old)
      if (slot.generation == generation_) probe(slot.key) = slot;
  }
  std::vector<Slot> slots_;
  std::uint32_t generation_ = 1;
  std::size_t size_ = 0;
};

// One parse in one numeric representation.
// The constituents of one origin during completion, indexed by LHS symbol.
struct Constituent {
  double inner = 0.0;
  double viterbi = 0.0;
  std::int32_t best = -1;  // the best-scoring finished item of the constituent
};

// Arrays indexed by symbol that a parse needs (thousands of entries for the social grammars).
// Filling them afresh for every sentence costs more than parsing a short one, and in an E-step
// over thousands of sentences that memory traffic is what keeps two threads from running twice
// as fast. So each thread keeps one set, and every parse leaves them as it found them: all
// entries zero in the numeric mode recorded (`clean`).
struct SymbolScratch {
  std::vector<double> predictionMass;
  std::vector<double> waitingMass;
  std::vector<Constituent> constituents;
  std::vector<std::int32_t> waitingCount;
  NumericMode mode = NumericMode::Scaled;
  bool clean = false;
  bool inUse = false;  // a parse started from an observer callback gets arrays of its own
};

inline SymbolScratch& threadScratch() {
  thread_local SymbolScratch scratch;
  return scratch;
}

template <typename Numeric>
class EarleyRun {
 public:
  EarleyRun(const CompiledGrammar& grammar, const ParseOptions& options, EarleyChart& chart)
      : g_(grammar), options_(options), chart_(chart), observer_(options.observer) {
    SymbolScratch& scratch = threadScratch();
    if (scratch.inUse) return;
    scratch_ = &scratch;
    scratch.inUse = true;
    predictionMass_.swap(scratch.predictionMass);
    waitingMass_.swap(scratch.waitingMass);
    constituents_.swap(scratch.constituents);
    waitingCount_.swap(scratch.waitingCount);
  }

  EarleyRun(const EarleyRun&) = delete;
  EarleyRun& operator=(const EarleyRun&) = delete;

  ~EarleyRun() {
    if (scratch_ == nullptr) return;
    // Only prediction masses outlive the step that made them; the other arrays are zeroed
    // by the step that used them. A parse cut short by an exception leaves them unknown.
    for (SymbolId y : touchedPrediction_)
      predictionMass_[static_cast<std::size_t>(y)] = Numeric::zero();
    scratch_->clean = finished_;
    scratch_->mode = Numeric::kMode;
    predictionMass_.swap(scratch_->predictionMass);
    waitingMass_.swap(scratch_->waitingMass);
    constituents_.swap(scratch_->constituents);
    waitingCount_.swap(scratch_->waitingCount);
    scratch_->inUse = false;
  }

  ParseResult run(const std::vector<std::string>& words) {
    ParseResult result = runForward(words);
    finished_ = true;
    return result;
  }

  // Set `s` again from the closed sets before it (EarleyParser::replaySet): the prediction
  // masses and terminal waiting list that set s−1 left behind are rebuilt from its items, in
  // the order the parse made them, so every sum is the parse's own, bit for bit.
  void replaySet(const std::vector<std::string>& words, std::size_t s) {
    prepareRun(words);
    const std::size_t n = words.size();
    if (s == 0) {
      openSet(0);
      addItem(0, axiomItem());
      if (observer_) emit(OperationKind::Init, {0, 0}, {}, {}, kNoSymbol, kNoSymbol, true, {});
      predict(0);
    } else {
      const ConstSpan<EarleyItem> before = items(s - 1);
      std::vector<EarleyChart::WaitingEntry> waitingBefore;
      chart_.closedTerminalWaiting_.clear();
      for (std::size_t k = 0; k < before.size(); ++k) {
        const EarleyItem& item = before[k];
        const CompiledRule& rule = g_.rule(item.rule);
        if (static_cast<std::size_t>(item.dot) >= rule.rhs.size()) continue;
        const SymbolId next = rule.rhs[static_cast<std::size_t>(item.dot)];
        if (next == g_.goal() || g_.symbols().isNonterminal(next)) {
          waitingBefore.emplace_back(next, static_cast<std::int32_t>(k));
        } else {
          chart_.closedTerminalWaiting_.push_back(static_cast<std::int32_t>(k));
        }
      }
      computePredictionMass(s - 1, waitingBefore, before);
      openSet(s);
      if (scan(s - 1)) {
        complete(s);
        if (s < n || !options_.lookahead) predict(s);
      }
    }
    finished_ = true;
  }

 private:
  EarleyItem axiomItem() const {
    // The goal rule's weight is 1 − e(S): the mass of S's non-empty derivations.
    EarleyItem axiom;
    axiom.rule = g_.goalRule();
    const CompiledRule& goalRule = g_.rule(g_.goalRule());
    axiom.forward = axiom.inner = Numeric::pick(goalRule.probability, goalRule.logProbability);
    axiom.viterbi = 0.0;  // Viterbi scores are log probabilities in every mode
    return axiom;
  }

  // Words, terminals and the per-symbol arrays, for a run or a replay.
  void prepareRun(const std::vector<std::string>& words) {
    words_ = &words;
    const std::size_t n = words.size();
    const bool reuse = scratch_ != nullptr && scratch_->clean && scratch_->mode == Numeric::kMode &&
                       predictionMass_.size() == g_.symbolCount();
    if (scratch_ != nullptr) scratch_->clean = false;
    if (!reuse) {
      predictionMass_.assign(g_.symbolCount(), Numeric::zero());
      waitingMass_.assign(g_.symbolCount(), Numeric::zero());
      constituents_.assign(g_.symbolCount(), Constituent{});
      waitingCount_.assign(g_.symbolCount(), 0);
    }
    terminals_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto t = g_.symbols().findTerminal(words[i]);
      terminals_[i] = t ? *t : kNoSymbol;
    }
  }

  ParseResult runForward(const std::vector<std::string>& words) {
    const std::size_t n = words.size();
    chart_.grammar_ = &g_;
    chart_.mode_ = Numeric::kMode;
    // Known before anything is allocated: a state set per position and an item per word.
    checkMemoryEstimate(
        static_cast<std::uint64_t>(n + 1) * (sizeof(EarleyChart::StateSet) + sizeof(EarleyItem)),
        "the Earley chart of " + std::to_string(n) + " words");
    chart_.reset(n + 1);
    chart_.words_ = words;
    prepareRun(words);

    ParseResult result;
    result.logPrefixProbability.assign(n + 1, kNegInf);
    result.logPrefixProbability[0] = 0.0;
    result.surprisal.assign(n, std::numeric_limits<double>::infinity());
    result.logStringProbability.assign(n + 1, kNegInf);

    // The axiom [0, 0] GOAL → . S.
    openSet(0);
    addItem(0, axiomItem());
    if (observer_) emit(OperationKind::Init, {0, 0}, {}, {}, kNoSymbol, kNoSymbol, true, {});
    predict(0);
    closeSet(0);
    if (n == 0) {
      // The empty string: only through S ⇒* ε.
      const double e = g_.nullProbability(g_.start());
      result.logStringProbability[0] = e > 0 ? std::log(e) : kNegInf;
      result.logProbability = result.logStringProbability[0];
      result.success = e > 0;
      if (result.success) {
        result.viterbiLogProbability = std::log(g_.nullViterbi(g_.start()));
        if (options_.viterbi) result.viterbiTree.setRoot(nullTree(result.viterbiTree, g_.start()));
      }
      result.items = chart_.itemCount();
      return result;
    }
    for (std::size_t r = 0; r < n; ++r) {
      openSet(r + 1);
      const bool scanned = scan(r);
      if (!scanned) {
        closeSet(r + 1);
        result.failedAt = static_cast<int>(r);
        break;
      }
      result.logPrefixProbability[r + 1] = prefixLog_;
      result.surprisal[r] = result.logPrefixProbability[r] - prefixLog_;
      complete(r + 1);
      recordStringProbability(r + 1, result);
      if (r + 1 < n || !options_.lookahead) predict(r + 1);
      closeSet(r + 1);
      if (observer_) {
        observer_->onSetFinished(static_cast<int>(r + 1), chart_);
        if (observer_->stopRequested()) {
          result.cancelled = true;
          break;
        }
      }
    }
    result.items = chart_.itemCount();
    if (result.failedAt >= 0 || result.cancelled) return result;
    result.logProbability = result.logStringProbability[n];
    result.success = result.logProbability > kNegInf;
    if (result.success)
      result.viterbiLogProbability = chart_.logViterbi({static_cast<std::int32_t>(n), goalIndex_});
    if (result.success && options_.viterbi) buildViterbiTree(n, result);
    if (!options_.prefixStringProbabilities) {
      for (std::size_t i = 0; i < n; ++i) result.logStringProbability[i] = kNegInf;
    }
    return result;
  }

 private:
  using StateSet = EarleyChart::StateSet;

  StateSet& set(std::size_t r) { return chart_.sets_[r]; }

  // The set being built (see EarleyChart): its items change until closeSet().
  void openSet(std::size_t r) { chart_.openSet(r); }
  void closeSet(std::size_t /*r*/) { chart_.closeSet(); }
  std::vector<EarleyItem>& openItems() { return chart_.openItems_; }
  ConstSpan<EarleyItem> items(std::size_t r) const { return chart_.set(r); }
  ConstSpan<EarleyChart::WaitingEntry> waiting(std::size_t r) const { return chart_.waiting(r); }

  std::int32_t addItem(std::size_t r, const EarleyItem& item) {
    assert(r == chart_.open_);
    static_cast<void>(r);
    std::vector<EarleyItem>& items = openItems();
    const auto index = static_cast<std::int32_t>(items.size());
    items.push_back(item);
    const CompiledRule& rule = g_.rule(item.rule);
    if (static_cast<std::size_t>(item.dot) < rule.rhs.size()) {
      const SymbolId next = rule.rhs[static_cast<std::size_t>(item.dot)];
      if (next == g_.goal() || g_.symbols().isNonterminal(next)) {
        chart_.openWaiting_.push_back({next, index});
      } else {
        chart_.openTerminalWaiting_.push_back(index);
      }
    }
    return index;
  }

  void emit(OperationKind kind, ItemRef item, ItemRef predecessor, ItemRef child,
            SymbolId predictedFrom, SymbolId via, bool created, const EarleyItem& before) {
    ParseEvent e;
    e.kind = kind;
    e.item = item;
    e.predecessor = predecessor;
    e.child = child;
    e.predictedFrom = predictedFrom;
    e.via = via;
    e.created = created;
    const EarleyItem& after = chart_.item(item);
    e.forwardBefore = created ? Numeric::zero() : before.forward;
    e.innerBefore = created ? Numeric::zero() : before.inner;
    e.viterbiBefore = created ? kNegInf : before.viterbi;
    e.forwardAfter = after.forward;
    e.innerAfter = after.inner;
    e.viterbiAfter = after.viterbi;
    observer_->onEvent(e, chart_);
  }

  // The next token's terminal (lookahead.h).
  std::optional<SymbolId> lookaheadAt(std::size_t r) const {
    return lookaheadTerminal(g_, options_.lookahead, terminals_, r);
  }

  void predict(std::size_t r) {
    // The items waiting in the open set, in the order they were made (predict() adds its own
    // items, and their waiting entries, only after the masses are summed).
    const std::optional<SymbolId> next =
        computePredictionMass(r, chart_.openWaiting_, ConstSpan<EarleyItem>(openItems()));
    if (next && *next == CompiledGrammar::kEndOfInput) return;
    for (SymbolId y : touchedPrediction_) {
      const double mass = predictionMass_[static_cast<std::size_t>(y)];
      for (std::int32_t ruleId : g_.predictableRules(y)) {
        if (next && !g_.ruleCanStartWith(ruleId, *next)) continue;
        const CompiledRule& rule = g_.rule(ruleId);
        EarleyItem item;
        item.rule = ruleId;
        item.origin = static_cast<std::int32_t>(r);
        item.forward = Numeric::mul(mass, Numeric::pick(rule.probability, rule.logProbability));
        item.inner = Numeric::pick(rule.probability, rule.logProbability);
        item.viterbi = rule.logViterbiWeight;
        item.predicted = true;
        const std::int32_t index = addItem(r, item);
        if (observer_)
          emit(OperationKind::Predict, {static_cast<std::int32_t>(r), index}, {}, {}, y, kNoSymbol,
               true, {});
      }
    }
    sortWaiting(chart_.openWaiting_);
  }

  // The prediction mass of every nonterminal Y at r: Σ over the items waiting on some Z (those
  // not themselves predicted) of forward · R_L(Z, Y), left in predictionMass_ for predict() and
  // for the scan of word r. `waiting` lists (Z, item of `items`) in the order the items were
  // made. Returns the look-ahead at r.
  std::optional<SymbolId> computePredictionMass(
      std::size_t r, const std::vector<std::pair<SymbolId, std::int32_t>>& waiting,
      ConstSpan<EarleyItem> items) {
    const std::optional<SymbolId> next = lookaheadAt(r);
    // Mass waiting on each nonterminal Z (items that were not themselves predicted).
    touchedWaiting_.clear();
    for (const auto& [z, index] : waiting) {
      const EarleyItem& item = items[static_cast<std::size_t>(index)];
      if (item.predicted) continue;
      auto& mass = waitingMass_[static_cast<std::size_t>(z)];
      if (Numeric::isZero(mass)) touchedWaiting_.push_back(z);
      mass = Numeric::add(mass, item.forward);
    }
    for (SymbolId y : touchedPrediction_)
      predictionMass_[static_cast<std::size_t>(y)] = Numeric::zero();
    touchedPrediction_.clear();
    for (SymbolId z : touchedWaiting_) {
      const double mass = waitingMass_[static_cast<std::size_t>(z)];
      waitingMass_[static_cast<std::size_t>(z)] = Numeric::zero();
      for (const ClosureEntry& e : g_.leftCorner(z)) {
        if (next && *next >= 0 && !g_.canStartWith(e.symbol, *next)) continue;
        auto& target = predictionMass_[static_cast<std::size_t>(e.symbol)];
        if (Numeric::isZero(target)) touchedPrediction_.push_back(e.symbol);
        target = Numeric::add(target, Numeric::mul(mass, Numeric::pick(e.value, e.logValue)));
      }
    }
    return next;
  }

  // Groups the waiting list by symbol (a counting sort; item order within a symbol is kept).
  void sortWaiting(std::vector<std::pair<SymbolId, std::int32_t>>& waiting) {
    if (waiting.size() < 32) {
      std::sort(waiting.begin(), waiting.end());
      return;
    }
    touchedWaiting_.clear();
    for (const auto& entry : waiting) {
      auto& count = waitingCount_[static_cast<std::size_t>(entry.first)];
      if (count++ == 0) touchedWaiting_.push_back(entry.first);
    }
    std::sort(touchedWaiting_.begin(), touchedWaiting_.end());
    std::int32_t offset = 0;
    for (SymbolId z : touchedWaiting_) {
      auto& count = waitingCount_[static_cast<std::size_t>(z)];
      const std::int32_t c = count;
      count = offset;
      offset += c;
    }
    sortedWaiting_.resize(waiting.size());
    for (const auto& entry : waiting)
      sortedWaiting_[static_cast<std::size_t>(
          waitingCount_[static_cast<std::size_t>(entry.first)]++)] = entry;
    for (SymbolId z : touchedWaiting_) waitingCount_[static_cast<std::size_t>(z)] = 0;
    waiting.swap(sortedWaiting_);
  }

  // Scans word r from set r into set r+1; false when nothing scans (the prefix is impossible).
  bool scan(std::size_t r) {
    const ConstSpan<EarleyItem> fromItems = items(r);
    const std::size_t to = r + 1;
    const SymbolId terminal = terminals_[r];
    // Scan events are emitted after rescaling, so that they show the values the chart keeps.
    scannedFrom_.clear();
    const auto addScanned = [&](const EarleyItem& item, std::int32_t predecessor) {
      addItem(to, item);
      if (observer_) scannedFrom_.push_back(predecessor);
    };
    // Lexical rules X → w, from the prediction mass of X.
    const auto scanLexical = [&](SymbolId preterminal, std::int32_t ruleId) {
      const double mass = predictionMass_[static_cast<std::size_t>(preterminal)];
      if (Numeric::isZero(mass)) return;
      const CompiledRule& rule = g_.rule(ruleId);
      EarleyItem item;
      item.rule = ruleId;
      item.dot = 1;
      item.origin = static_cast<std::int32_t>(r);
      item.inner = Numeric::pick(rule.probability, rule.logProbability);
      item.forward = Numeric::mul(mass, item.inner);
      item.viterbi = rule.logViterbiWeight;
      addScanned(item, -1);
    };
    if (terminal != kNoSymbol && !g_.lexicalRules(terminal).empty()) {
      for (const LexicalEntry& e : g_.lexicalRules(terminal)) scanLexical(e.preterminal, e.rule);
    } else {
      for (const auto& option : g_.unknownWordOptions((*words_)[r]))
        scanLexical(option.preterminal, option.rule);
    }
    // Items waiting for this terminal (multi-terminal and fragment rules).
    if (terminal != kNoSymbol) {
      // Set r was closed last: its terminal waiting list is the chart's closed one.
      for (std::int32_t index : chart_.closedTerminalWaiting_) {
        const EarleyItem& waiting = fromItems[static_cast<std::size_t>(index)];
        const CompiledRule& rule = g_.rule(waiting.rule);
        if (rule.rhs[static_cast<std::size_t>(waiting.dot)] != terminal) continue;
        EarleyItem item = waiting;
        item.dot = static_cast<std::int16_t>(item.dot + 1);
        item.predicted = false;
        item.bestPredecessor = index;
        item.bestChild = -1;
        item.bestVia = kNoSymbol;
        addScanned(item, index);
      }
    }
    StateSet& into = set(to);
    double total = Numeric::zero();
    for (const EarleyItem& item : openItems()) total = Numeric::add(total, item.forward);
    if (Numeric::isZero(total)) return false;
    if constexpr (Numeric::kMode == NumericMode::Scaled) {
      // Rescale: forward masses of the scanned items sum to one again.
      const double factor = 1.0 / total;
      for (EarleyItem& item : openItems()) {
        item.forward *= factor;
        item.inner *= factor;
      }
      into.logScale = std::log(total);
      into.logScaleSum = set(r).logScaleSum + into.logScale;
      prefixLog_ = into.logScaleSum;
    } else {
      prefixLog_ = total;
    }
    if (observer_) {
      for (std::size_t k = 0; k < scannedFrom_.size(); ++k) {
        const std::int32_t predecessor = scannedFrom_[k];
        emit(OperationKind::Scan, {static_cast<std::int32_t>(to), static_cast<std::int32_t>(k)},
             {predecessor >= 0 ? static_cast<std::int32_t>(r) : -1, predecessor}, {}, kNoSymbol,
             kNoSymbol, true, {});
      }
    }
    return true;
  }

  // Completing for every prefix's string probability needs completions before the end too.
  bool mayComplete(std::size_t r, SymbolId y) const {
    return mayCompleteBefore(g_, y, lookaheadAt(r), options_.prefixStringProbabilities);
  }

  // With look-ahead, a completion that makes an item nobody can use is skipped (lookahead.h).
  bool worthCreating(std::size_t r, const EarleyItem& waiting) const {
    return worthAdvancing(g_, waiting.rule, waiting.dot, lookaheadAt(r),
                          options_.prefixStringProbabilities);
  }

  // Completion, one constituent at a time. All finished items [k, r] Y → ν . of one origin k
  // and one LHS Y are first summed into a constituent (Stolcke's inner(Y) over [k, r]; Viterbi:
  // the best of them), which then advances the items of set k waiting on any Z with
  // R_U(Z, Y) > 0. Origins are processed from r−1 down: a finished item's contributions all
  // come from constituents of larger origin, so it is final when its own origin comes up.
  void complete(std::size_t r) {
    const std::vector<EarleyItem>& current = openItems();
    index_.clear();
    std::priority_queue<std::pair<std::int32_t, std::int32_t>> agenda;  // (origin, item)
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(current.size()); ++k) {
      const EarleyItem& item = current[static_cast<std::size_t>(k)];
      const CompiledRule& rule = g_.rule(item.rule);
      if (static_cast<std::size_t>(item.dot) == rule.rhs.size() && !rule.unit)
        agenda.push({item.origin, k});
    }
    while (!agenda.empty()) {
      const std::int32_t k = agenda.top().first;
      touchedConstituents_.clear();
      while (!agenda.empty() && agenda.top().first == k) {
        const EarleyItem& item = current[static_cast<std::size_t>(agenda.top().second)];
        const std::int32_t itemIndex = agenda.top().second;
        agenda.pop();
        const SymbolId y = g_.rule(item.rule).lhs;
        if (!mayComplete(r, y)) continue;
        Constituent& c = constituents_[static_cast<std::size_t>(y)];
        if (c.best < 0) {
          touchedConstituents_.push_back(y);
          c.inner = item.inner;
          c.viterbi = item.viterbi;
          c.best = itemIndex;
        } else {
          c.inner = Numeric::add(c.inner, item.inner);
          if (item.viterbi > c.viterbi) {
            c.viterbi = item.viterbi;
            c.best = itemIndex;
          }
        }
      }
      // Origins k < r: a closed set, which advance() cannot move.
      const ConstSpan<EarleyItem> originItems = items(static_cast<std::size_t>(k));
      const ConstSpan<EarleyChart::WaitingEntry> originWaiting =
          waiting(static_cast<std::size_t>(k));
      for (SymbolId y : touchedConstituents_) {
        const Constituent c = constituents_[static_cast<std::size_t>(y)];
        constituents_[static_cast<std::size_t>(y)] = Constituent{};
        for (const CompiledGrammar::UnitEntry& unit : g_.unitInto(y)) {
          const auto range =
              std::equal_range(originWaiting.begin(), originWaiting.end(),
                               std::pair<SymbolId, std::int32_t>{unit.from, 0},
                               [](const auto& a, const auto& b) { return a.first < b.first; });
          if (range.first == range.second) continue;
          const double unitSum = Numeric::pick(unit.sum, unit.logSum);
          const double childMass = Numeric::mul(unitSum, c.inner);
          const double childViterbi = unit.logBest + c.viterbi;
          for (auto it = range.first; it != range.second; ++it) {
            const EarleyItem& waiting = originItems[static_cast<std::size_t>(it->second)];
            if (options_.lookahead && !worthCreating(r, waiting)) continue;
            advance(r, k, waiting, it->second, Numeric::mul(waiting.forward, childMass),
                    Numeric::mul(waiting.inner, childMass), waiting.viterbi + childViterbi, c.best,
                    unit.from, agenda);
          }
        }
      }
    }
  }

  // Adds mass to [k, r] X → α Z . β, the advance of `waiting` (in set k) over a constituent.
  void advance(std::size_t r, std::int32_t waitingSet, const EarleyItem& waiting,
               std::int32_t waitingIndex, double forward, double inner, double viterbi,
               std::int32_t child, SymbolId via,
               std::priority_queue<std::pair<std::int32_t, std::int32_t>>& agenda) {
    std::vector<EarleyItem>& current = openItems();
    const std::uint64_t key = itemKey(g_, waiting.rule, waiting.dot + 1, waiting.origin);
    const auto [slot, inserted] = index_.tryEmplace(key, static_cast<std::int32_t>(current.size()));
    EarleyItem before;
    if (inserted) {
      EarleyItem item;
      item.rule = waiting.rule;
      item.dot = static_cast<std::int16_t>(waiting.dot + 1);
      item.origin = waiting.origin;
      item.forward = forward;
      item.inner = inner;
      item.viterbi = viterbi;
      item.bestPredecessor = waitingIndex;
      item.bestChild = child;
      item.bestVia = via;
      addItem(r, item);
      const CompiledRule& rule = g_.rule(item.rule);
      if (static_cast<std::size_t>(item.dot) == rule.rhs.size() && !rule.unit)
        agenda.push({item.origin, slot});
    } else {
      EarleyItem& item = current[static_cast<std::size_t>(slot)];
      before = item;
      item.forward = Numeric::add(item.forward, forward);
      item.inner = Numeric::add(item.inner, inner);
      if (viterbi > item.viterbi) {
        item.viterbi = viterbi;
        item.bestPredecessor = waitingIndex;
        item.bestChild = child;
        item.bestVia = via;
      }
    }
    if (observer_)
      emit(OperationKind::Complete, {static_cast<std::int32_t>(r), slot},
           {waitingSet, waitingIndex}, {static_cast<std::int32_t>(r), child}, kNoSymbol, via,
           inserted, before);
  }

  void recordStringProbability(std::size_t r, ParseResult& result) {
    const auto goal = index_.find(itemKey(g_, g_.goalRule(), 1, 0));
    if (!goal) return;
    result.logStringProbability[r] = chart_.logInner({static_cast<std::int32_t>(r), *goal});
    if (r == words_->size()) goalIndex_ = *goal;
  }

 public:
  // The outside pass (see inside_outside.h; defined in inside_outside.cpp): outer probabilities
  // flow from the goal item back over every completion and scan the forward pass made; expected
  // counts of each grammar rule are added to `counts`. Requires a successful run() over all n
  // words.
  void accumulateCounts(std::vector<double>& counts);

 private:
  // Builds the Viterbi tree from the goal item, restoring unit chains and ε subtrees
  // (viterbi_tree.cpp).
  void buildViterbiTree(std::size_t n, ParseResult& result);
  // The best ε-derivation tree of X (iterative; ε trees are small; viterbi_tree.cpp).
  int nullTree(ParseTree& tree, SymbolId x);

  const CompiledGrammar& g_;
  const ParseOptions& options_;
  EarleyChart& chart_;
  ParseObserver* observer_;
  const std::vector<std::string>* words_ = nullptr;
  std::vector<SymbolId> terminals_;
  std::vector<double> predictionMass_;
  std::vector<double> waitingMass_;
  std::vector<SymbolId> touchedPrediction_;
  std::vector<SymbolId> touchedWaiting_;
  ItemIndex index_;
  std::vector<std::int32_t> waitingCount_;
  std::vector<std::pair<SymbolId, std::int32_t>> sortedWaiting_;
  std::vector<std::int32_t> scannedFrom_;
  std::vector<Constituent> constituents_;
  std::vector<SymbolId> touchedConstituents_;
  double prefixLog_ = 0.0;
  std::int32_t goalIndex_ = -1;
  SymbolScratch* scratch_ = nullptr;  // the thread's arrays, lent to this run
  bool finished_ = false;
};

}  // namespace gwb::earley_internal
