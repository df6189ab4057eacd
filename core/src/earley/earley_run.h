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
#include <string>
#include <type_traits>
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
  static double div(double a, double b) { return a / b; }
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
  static double div(double a, double b) { return a - b; }
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
  const std::size_t dotted = grammar.dottedIndex(rule, dot);
  return (static_cast<std::uint64_t>(dotted) << 32) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(origin));
}

// The origin of an item key.
inline std::int32_t keyOrigin(std::uint64_t key) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(key & 0xffffffffU));
}

// Items of the set being built, by (rule, dot, origin): open addressing with linear probing.
// clear() is O(1) (a generation stamp marks the live slots), which matters because it runs
// once per word on inputs of 50,000 words.
//
// Or, in dense mode (useDense), a table with one 8-byte slot per (origin, completion target):
// keys are then denseKey()s, whose high half is the slot itself, so that finding an item is one
// load of its slot, without a hash, a key to compare or a probe sequence, and the targets of one
// completion lie close in the table (CompiledGrammar::completionTarget). Completion uses it for
// short sentences, where (origins × targets) slots are few: a dense grammar's sentence of 26
// words has 27 × 3,906 of them, 0.8 MiB. Keys of both modes keep the origin in their low half.
class ItemIndex {
 public:
  static std::size_t hash(std::uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key);
  }
  ItemIndex() { slots_.resize(1024); }
  // Dense mode with `slots` slots (0: hashed mode, for itemKey()s). Empty until clear().
  void useDense(std::size_t slots) {
    dense_ = slots > 0;
    if (denseSlots_.size() < slots) denseSlots_.resize(slots);
  }
  bool dense() const { return dense_; }
  // The key of slot `slot` for an item of origin `origin` (dense mode).
  static std::uint64_t denseKey(std::size_t slot, std::int32_t origin) {
    return (static_cast<std::uint64_t>(slot) << 32) |
           static_cast<std::uint64_t>(static_cast<std::uint32_t>(origin));
  }
  void clear() {
    ++generation_;
    size_ = 0;
  }
  // Where a key's search starts: its hash, or in dense mode its slot.
  std::size_t position(std::uint64_t key) const {
    return dense_ ? position<true>(key) : position<false>(key);
  }
  // The same for a mode known at compile time (Dense == dense()), as completion's loops use it.
  template <bool Dense>
  static std::size_t position(std::uint64_t key) {
    if constexpr (Dense) {
      return static_cast<std::size_t>(key >> 32);
    } else {
      return hash(key);
    }
  }
  // Returns (slot value, inserted); on insertion the value is `value`.
  std::pair<std::int32_t, bool> tryEmplace(std::uint64_t key, std::int32_t value) {
    return dense_ ? tryEmplace<true>(key, position<true>(key), value)
                  : tryEmplace<false>(key, position<false>(key), value);
  }
  // The same, with `p` = position(key) known.
  template <bool Dense>
  std::pair<std::int32_t, bool> tryEmplace(std::uint64_t key, std::size_t p, std::int32_t value) {
    assert(Dense == dense_);
    if constexpr (Dense) {
      DenseSlot& slot = denseSlots_[p];
      if (slot.generation == generation_) return {slot.value, false};
      slot = DenseSlot{value, generation_};
      return {value, true};
    }
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Slot& slot = probe(key, p);
    if (slot.generation == generation_) return {slot.value, false};
    slot = Slot{key, value, generation_};
    ++size_;
    return {value, true};
  }
  // Asks the memory system for the slot a key at position `p` would probe first (completion does
  // so a few records ahead of the one it advances, so that the probe finds its slot in the cache).
  template <bool Dense>
  void prefetch(std::size_t p) const {
#if defined(__GNUC__) || defined(__clang__)
    if constexpr (Dense) {
      __builtin_prefetch(&denseSlots_[p]);
    } else {
      __builtin_prefetch(&slots_[p & (slots_.size() - 1)]);
    }
#else
    static_cast<void>(p);
#endif
  }
  std::optional<std::int32_t> find(std::uint64_t key) const {
    if (dense_) {
      const DenseSlot& slot = denseSlots_[static_cast<std::size_t>(key >> 32)];
      if (slot.generation != generation_) return std::nullopt;
      return slot.value;
    }
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
  struct DenseSlot {
    std::int32_t value = 0;
    std::uint32_t generation = 0;
  };
  Slot& probe(std::uint64_t key, std::size_t h) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.generation != generation_ || slot.key == key) return slot;
    }
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& slot : old)
      if (slot.generation == generation_) probe(slot.key, hash(slot.key)) = slot;
  }
  std::vector<Slot> slots_;
  std::vector<DenseSlot> denseSlots_;  // by (origin, completion target), in dense mode
  std::uint32_t generation_ = 1;
  std::size_t size_ = 0;
  bool dense_ = false;
};

// What completion reads of an item waiting in a closed set k, kept beside k's sorted waiting list
// (same order): the items waiting on one Z form one contiguous run of these records, so the
// completer reads them front to back instead of chasing each item in the set. Besides the item's
// own values, a record holds what completion needs of the item it advances to, so that the
// completer reads no grammar rule: that item's key in the open set's index (itemKey; its low half
// is the origin) and what its look-ahead test reads (lookahead.h: the kind of advance, and the
// symbol after the dot or, when the advance finishes the rule, its LHS). Records are the parse's
// working memory, not part of the chart: the records of one run are made when a later set first
// completes into set k a constituent that the run waits for (many runs of a dense grammar's set
// never are), in block storage that the chart keeps from parse to parse (its completion arena, as
// its items' storage): a whole discourse's records (tens of megabytes) are never copied to grow,
// never need twice their size while they do, and a batch parsing into one chart maps them once.
struct WaitingRecord {
  double forward = 0.0;
  double inner = 0.0;
  double viterbi = 0.0;
  std::uint64_t key = 0;  // of the advanced item (rule, dot + 1, origin): EarleyRun::targetKey
  std::int32_t rule = -1;
  std::int32_t index = -1;     // the item in its set
  SymbolId after = kNoSymbol;  // the advanced item's next symbol, or its LHS when finished
  std::int16_t dot = 0;
  AdvanceKind advance = AdvanceKind::Nonterminal;  // of the advanced item
};

// The waiting list's runs: symbol Z waits in entries [begin, next run's begin) of set k's
// waiting list; their records, once made, are as many from `records` on in the arena.
struct WaitingRun {
  SymbolId symbol = kNoSymbol;
  std::int32_t begin = 0;
  const WaitingRecord* records = nullptr;  // not made yet
};

// The finished items of the set being completed, waiting for their origin's turn. Completion
// takes the origins from the largest down and, within one origin, the items from the last made
// to the first: the order of a max-heap of (origin, item), without its logarithmic pops over
// every finished item. Each origin keeps a list (pushed at the front, so newest first: items
// are pushed in the order they are made), and only the distinct origins go through a heap. An
// item made while origin k is being completed has an origin below k, so an origin's list is
// whole when its turn comes, and is taken once.
class CompletionAgenda {
 public:
  // Ready for a set whose items have origins below `origins` (every list is empty between
  // completions: each is taken whole).
  void reserveOrigins(std::size_t origins) {
    if (head_.size() < origins) head_.resize(origins, -1);
    entries_.clear();
  }
  void push(std::int32_t origin, std::int32_t item, SymbolId lhs) {
    std::int32_t& head = head_[static_cast<std::size_t>(origin)];
    if (head < 0) {
      origins_.push_back(origin);
      std::push_heap(origins_.begin(), origins_.end());
    }
    entries_.push_back({item, lhs, head});
    head = static_cast<std::int32_t>(entries_.size()) - 1;
  }
  bool empty() const { return origins_.empty(); }
  // Takes the largest origin with items; its items are then read, newest first, by
  // forEachItem (before anything else is pushed).
  std::int32_t popOrigin() {
    std::pop_heap(origins_.begin(), origins_.end());
    const std::int32_t origin = origins_.back();
    origins_.pop_back();
    taken_ = head_[static_cast<std::size_t>(origin)];
    head_[static_cast<std::size_t>(origin)] = -1;
    return origin;
  }
  // Calls f(item, lhs) for each item of the origin popOrigin() took.
  template <typename F>
  void forEachItem(F&& f) const {
    for (std::int32_t e = taken_; e >= 0; e = entries_[static_cast<std::size_t>(e)].next)
      f(entries_[static_cast<std::size_t>(e)].item, entries_[static_cast<std::size_t>(e)].lhs);
  }

 private:
  struct Entry {
    std::int32_t item;
    SymbolId lhs;
    std::int32_t next;  // the entry pushed before it for the same origin, or -1
  };
  std::vector<std::int32_t> head_;  // by origin: its newest entry, or -1
  std::vector<Entry> entries_;
  std::vector<std::int32_t> origins_;  // a max-heap of the origins with entries
  std::int32_t taken_ = -1;
};

// A waiting record that passes the look-ahead test, with its key's position in the item index
// (completion).
struct PassingRecord {
  const WaitingRecord* record;
  std::size_t position;  // ItemIndex::position(record->key)
};

// The constituents of one origin during completion, indexed by LHS symbol.
struct Constituent {
  double inner = 0.0;
  double viterbi = 0.0;
  std::int32_t best = -1;  // the best-scoring finished item of the constituent
};

// A closed set's runs in the arena (runCount < 0: not made yet).
struct RecordSpanSlot {
  WaitingRun* runs = nullptr;
  std::int64_t runCount = -1;
};

// Arrays indexed by symbol that a parse needs (thousands of entries for the social grammars).
// Filling them afresh for every sentence costs more than parsing a short one, and in an E-step
// over thousands of sentences that memory traffic is what keeps two threads from running twice
// as fast. So each thread keeps one set, and every parse leaves them as it found them: all
// entries zero in the numeric mode recorded (`clean`).
struct SymbolScratch {
  std::vector<double> predictionMass;
  std::vector<double> waitingMass;
  std::vector<double> endWeight;
  std::vector<Constituent> constituents;
  std::vector<Constituent> gathered;
  std::vector<std::int32_t> waitingCount;
  // The rest of a parse's working memory, kept so that a thread parsing sentence after sentence
  // (a batch, an E-step) neither maps it again nor grows the item index anew for every one.
  ItemIndex index;
  CompletionAgenda agenda;
  std::vector<PassingRecord> passing;
  AppendBuffer<std::pair<SymbolId, std::int32_t>> sortedWaiting;  // EarleyChart::WaitingEntry
  std::vector<RecordSpanSlot> recordSpans;
  std::vector<double> endWeightDense;
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
  using RecordSpan = RecordSpanSlot;

 public:
  EarleyRun(const CompiledGrammar& grammar, const ParseOptions& options, EarleyChart& chart)
      : g_(grammar), options_(options), chart_(chart), observer_(options.observer) {
    SymbolScratch& scratch = threadScratch();
    if (scratch.inUse) return;
    scratch_ = &scratch;
    scratch.inUse = true;
    predictionMass_.swap(scratch.predictionMass);
    waitingMass_.swap(scratch.waitingMass);
    endWeight_.swap(scratch.endWeight);
    constituents_.swap(scratch.constituents);
    gathered_.swap(scratch.gathered);
    waitingCount_.swap(scratch.waitingCount);
    lendBuffers(scratch);
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
    endWeight_.swap(scratch_->endWeight);
    constituents_.swap(scratch_->constituents);
    gathered_.swap(scratch_->gathered);
    waitingCount_.swap(scratch_->waitingCount);
    if (!finished_) agenda_ = CompletionAgenda{};  // an exception may have left lists in it
    lendBuffers(*scratch_);                        // back
    scratch_->inUse = false;
  }

  // Swaps the working buffers with the thread's (EarleyRun's own start empty).
  void lendBuffers(SymbolScratch& scratch) {
    std::swap(index_, scratch.index);
    std::swap(agenda_, scratch.agenda);
    passing_.swap(scratch.passing);
    sortedWaiting_.swap(scratch.sortedWaiting);
    recordSpans_.swap(scratch.recordSpans);
    endWeightDense_.swap(scratch.endWeightDense);
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
      computePredictionMass(s - 1, ConstSpan<EarleyChart::WaitingEntry>(waitingBefore), before);
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
      endWeight_.assign(g_.symbolCount(), Numeric::zero());
      constituents_.assign(g_.symbolCount(), Constituent{});
      gathered_.assign(g_.symbolCount(), Constituent{});
      waitingCount_.assign(g_.symbolCount(), 0);
    }
    chart_.completionArena_.rewind();
    recordSpans_.assign(n + 1, RecordSpan{});
    // Completion's item index: dense for a short sentence (see ItemIndex).
    const std::size_t denseSlots = (n + 1) * g_.completionTargetCount();
    index_.useDense(denseSlots <= kDenseIndexSlots ? denseSlots : 0);
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
    useEndWeights_ = options_.prefixStringProbabilities && options_.lookahead &&
                     options_.stringProbabilityMethod == StringProbabilityMethod::EndWeights;
    if (useEndWeights_) {
      endWeights_.clear();
      endWeightStart_.assign(n + 1, 0);
      // A sentence's end weights also as a dense table by (set, symbol) when it is small (a
      // dense grammar's short sentences), so that looking one up is a load, not a binary search.
      const std::size_t cells = (n + 1) * g_.symbolCount();
      if (cells <= kDenseEndWeightCells) {
        endWeightDense_.assign(cells, Numeric::zero());
      } else {
        endWeightDense_.clear();
      }
    }

    // The axiom [0, 0] GOAL → . S.
    openSet(0);
    addItem(0, axiomItem());
    if (observer_) emit(OperationKind::Init, {0, 0}, {}, {}, kNoSymbol, kNoSymbol, true, {});
    if (useEndWeights_ && n > 0) computeEndWeights(0);
    predict(0);
    closeSet();
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
        closeSet();
        result.failedAt = static_cast<int>(r);
        break;
      }
      result.logPrefixProbability[r + 1] = prefixLog_;
      result.surprisal[r] = result.logPrefixProbability[r] - prefixLog_;
      const std::size_t scannedCount = openItems().size();
      complete(r + 1);
      recordStringProbability(r + 1, scannedCount, result);
      if (useEndWeights_ && r + 1 < n) computeEndWeights(r + 1);
      if (r + 1 < n || !options_.lookahead) predict(r + 1);
      closeSet();
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
  void closeSet() { chart_.closeSet(); }

  // The runs of closed set k, made on first use: only the sets that a later completion reaches
  // get them (on a discourse, few do); a run's records are made when it is first read.
  struct OriginWaiting {
    std::size_t set = 0;
    WaitingRun* runs = nullptr;
    std::size_t runCount = 0;  // runs, the closing one (kNoSymbol, waitingCount) excluded
  };
  OriginWaiting originWaiting(std::size_t k) {
    RecordSpan& span = recordSpans_[k];
    if (span.runCount < 0) makeWaitingRuns(k, span);
    return {k, span.runs, static_cast<std::size_t>(span.runCount)};
  }
  void makeWaitingRuns(std::size_t k, RecordSpan& span) {
    const ConstSpan<EarleyChart::WaitingEntry> waiting = this->waiting(k);
    span.runs = nullptr;
    span.runCount = 0;
    if (waiting.empty()) return;
    std::size_t count = 1;
    for (std::size_t i = 1; i < waiting.size(); ++i)
      if (waiting[i - 1].first != waiting[i].first) ++count;
    WaitingRun* const runs = chart_.completionArena_.allocateArray<WaitingRun>(count + 1);
    std::size_t made = 0;
    for (std::size_t i = 0; i < waiting.size(); ++i) {
      if (i == 0 || waiting[i - 1].first != waiting[i].first)
        runs[made++] = {waiting[i].first, static_cast<std::int32_t>(i)};
    }
    runs[made] = {kNoSymbol, static_cast<std::int32_t>(waiting.size())};
    span.runs = runs;
    span.runCount = static_cast<std::int64_t>(count);
  }
  // The records of `run` (of set k's waiting list), made on first use.
  const WaitingRecord* runRecords(std::size_t k, WaitingRun* run) {
    if (run->records != nullptr) return run->records;
    const ConstSpan<EarleyChart::WaitingEntry> waiting = this->waiting(k);
    const ConstSpan<EarleyItem> items = this->items(k);
    const auto begin = static_cast<std::size_t>(run->begin);
    const auto end = static_cast<std::size_t>(run[1].begin);
    WaitingRecord* const records =
        chart_.completionArena_.allocateArray<WaitingRecord>(end - begin);
    run->records = records;
    for (std::size_t i = begin; i < end; ++i) {
      const std::int32_t index = waiting[i].second;
      const EarleyItem& item = items[static_cast<std::size_t>(index)];
      WaitingRecord& record = records[i - begin];  // in place (see forEachWaitingOn)
      record.forward = item.forward;
      record.inner = item.inner;
      record.viterbi = item.viterbi;
      const CompiledGrammar::DottedAdvance& advance = g_.dottedAdvance(item.rule, item.dot);
      record.key = index_.dense() ? denseTargetKey(advance.target, item.origin)
                                  : itemKey(g_, item.rule, item.dot + 1, item.origin);
      record.rule = item.rule;
      record.index = index;
      record.after = advance.after;
      record.dot = item.dot;
      record.advance = advance.kind;
    }
    return records;
  }
  // The key in completion's item index of the item [origin, r] (rule, dot) it makes: an itemKey,
  // or in dense mode the slot of (origin, completion target).
  std::uint64_t targetKey(std::int32_t rule, std::int32_t dot, std::int32_t origin) const {
    if (!index_.dense()) return itemKey(g_, rule, dot, origin);
    return denseTargetKey(g_.completionTarget(rule, dot), origin);
  }
  // The dense index's key of completion target `target` with origin `origin`.
  std::uint64_t denseTargetKey(std::int32_t target, std::int32_t origin) const {
    assert(target >= 0);
    return ItemIndex::denseKey(static_cast<std::size_t>(origin) * g_.completionTargetCount() +
                                   static_cast<std::size_t>(target),
                               origin);
  }
  OpenItems& openItems() { return chart_.openItems_; }
  ConstSpan<EarleyItem> items(std::size_t r) const { return chart_.set(r); }
  ConstSpan<EarleyChart::WaitingEntry> waiting(std::size_t r) const { return chart_.waiting(r); }

  std::int32_t addItem(std::size_t r, const EarleyItem& item) {
    assert(r == chart_.open_);
    static_cast<void>(r);
    OpenItems& items = openItems();
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
    const std::optional<SymbolId> next = computePredictionMass(
        r, waiting(r), ConstSpan<EarleyItem>(openItems().data(), openItems().size()));
    if (next && *next == CompiledGrammar::kEndOfInput) return;
    // The rule-start table: Y's rules by first symbol, the look-ahead tested once per group.
    const std::int32_t* const groupRules = g_.predictionGroupRules().data();
    for (SymbolId y : touchedPrediction_) {
      const double mass = predictionMass_[static_cast<std::size_t>(y)];
      for (const CompiledGrammar::PredictionGroup& group : g_.predictionGroups(y)) {
        if (next && !g_.groupCanStartWith(group, *next)) continue;
        for (const std::int32_t* id = groupRules + group.begin; id != groupRules + group.end;
             ++id) {
          predictOne(r, y, mass, *id);
        }
      }
    }
    sortWaiting(chart_.openWaiting_);
  }

  // Adds the predicted item [r, r] Y → . ν of rule `ruleId`, with Y's prediction mass.
  void predictOne(std::size_t r, SymbolId y, double mass, std::int32_t ruleId) {
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

  // The prediction mass of every nonterminal Y at r: Σ over the items waiting on some Z (those
  // not themselves predicted) of forward · R_L(Z, Y), left in predictionMass_ for predict() and
  // for the scan of word r. `waiting` lists (Z, item of `items`) in the order the items were
  // made. Returns the look-ahead at r.
  std::optional<SymbolId> computePredictionMass(std::size_t r,
                                                ConstSpan<EarleyChart::WaitingEntry> waiting,
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
  void sortWaiting(AppendBuffer<EarleyChart::WaitingEntry>& waiting) {
    if (waiting.size() < 32) {
      std::sort(waiting.data(), waiting.data() + waiting.size());
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

  // The old way to every prefix's string probability (StringProbabilityMethod::CompleteEveryWord)
  // completes before the end of input at every word; the end weights need no extra completion.
  bool completesForEveryPrefix() const {
    return options_.prefixStringProbabilities &&
           options_.stringProbabilityMethod == StringProbabilityMethod::CompleteEveryWord;
  }

  bool mayComplete(std::size_t r, SymbolId y) const {
    return mayCompleteBefore(g_, y, lookaheadAt(r), completesForEveryPrefix());
  }

  // With look-ahead, a completion that makes an item nobody can use is skipped (lookahead.h).
  bool worthCreating(std::size_t r, const EarleyItem& waiting) const {
    return worthAdvancing(g_, waiting.rule, waiting.dot, lookaheadAt(r), completesForEveryPrefix());
  }

  // Completion, one constituent at a time. All finished items [k, r] Y → ν . of one origin k
  // and one LHS Y are first summed into a constituent (Stolcke's inner(Y) over [k, r]; Viterbi:
  // the best of them), which then advances the items of set k waiting on any Z with
  // R_U(Z, Y) > 0. Origins are processed from r−1 down: a finished item's contributions all
  // come from constituents of larger origin, so it is final when its own origin comes up.
  void complete(std::size_t r) {
    const OpenItems& current = openItems();
    const std::optional<SymbolId> next = lookaheadAt(r);
    const bool everyPrefix = completesForEveryPrefix();
    index_.clear();
    agenda_.reserveOrigins(r);
    const std::size_t firstMade = current.size();  // completion's items come after the scanned
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(current.size()); ++k) {
      const EarleyItem& item = current[static_cast<std::size_t>(k)];
      const CompiledGrammar::RuleShape& rule = g_.shape(item.rule);
      if (item.dot == rule.length && !rule.unit) agenda_.push(item.origin, k, rule.lhs);
    }
    while (!agenda_.empty()) {
      const std::int32_t k = agenda_.popOrigin();
      touchedConstituents_.clear();
      agenda_.forEachItem([&](std::int32_t itemIndex, SymbolId y) {
        if (!mayCompleteBefore(g_, y, next, everyPrefix)) return;
        const EarleyItem& item = current[static_cast<std::size_t>(itemIndex)];
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
      });
      // Origins k < r: a closed set, which advance() cannot move. Its items waiting on one
      // symbol are one run of completion records (WaitingRecord). The
      // constituents are first gathered by that symbol, Z: every item waiting on Z advances
      // once, by Σ_Y R_U(Z, Y)·inner(Y) (its Viterbi score by the best of them), rather than
      // once for every Y (a sparse product of R_U with the constituents, as in prediction).
      // Z are taken in the order the Y → Z pairs first reach them, so items are created in
      // the same order as by advancing once per (Y, Z).
      if (observer_ != nullptr) {
        // A watched parse (the workbench's stepper) shows one completion per constituent Y.
        completePerConstituent(r, k, next, everyPrefix);
        continue;
      }
      const OriginWaiting origin = originWaiting(static_cast<std::size_t>(k));
      touchedGathered_.clear();
      for (SymbolId y : touchedConstituents_) {
        const Constituent c = constituents_[static_cast<std::size_t>(y)];
        constituents_[static_cast<std::size_t>(y)] = Constituent{};
        if (origin.runCount == 0) continue;
        for (const CompiledGrammar::UnitEntry& unit : g_.unitInto(y)) {
          const double mass = Numeric::mul(Numeric::pick(unit.sum, unit.logSum), c.inner);
          const double viterbi = unit.logBest + c.viterbi;
          Constituent& z = gathered_[static_cast<std::size_t>(unit.from)];
          if (z.best < 0) {
            touchedGathered_.push_back(unit.from);
            z.inner = mass;
            z.viterbi = viterbi;
            z.best = c.best;
          } else {
            z.inner = Numeric::add(z.inner, mass);
            if (viterbi > z.viterbi) {
              z.viterbi = viterbi;
              z.best = c.best;
            }
          }
        }
      }
      for (SymbolId zSymbol : touchedGathered_) {
        const Constituent z = gathered_[static_cast<std::size_t>(zSymbol)];
        gathered_[static_cast<std::size_t>(zSymbol)] = Constituent{};
        forEachWaitingOn(origin, zSymbol, next, everyPrefix,
                         [&](const WaitingRecord& waiting, std::size_t position, auto dense) {
                           advanceDeferred<dense()>(waiting, position,
                                                    Numeric::mul(waiting.inner, z.inner),
                                                    waiting.viterbi + z.viterbi, z.best, zSymbol);
                         });
      }
    }
    if (observer_ == nullptr) finishForward(firstMade);
  }

  // Completion from origin k one constituent Y at a time (each waiting item advances once per
  // Y), as a ParseObserver sees it: the same items in the same order as the gathered
  // completion above, their sums associated per Y.
  void completePerConstituent(std::size_t r, std::int32_t k, std::optional<SymbolId> next,
                              bool everyPrefix) {
    const OriginWaiting origin = originWaiting(static_cast<std::size_t>(k));
    for (SymbolId y : touchedConstituents_) {
      const Constituent c = constituents_[static_cast<std::size_t>(y)];
      constituents_[static_cast<std::size_t>(y)] = Constituent{};
      if (origin.runCount == 0) continue;
      for (const CompiledGrammar::UnitEntry& unit : g_.unitInto(y)) {
        const double unitSum = Numeric::pick(unit.sum, unit.logSum);
        const double childMass = Numeric::mul(unitSum, c.inner);
        const double childViterbi = unit.logBest + c.viterbi;
        forEachWaitingOn(origin, unit.from, next, everyPrefix,
                         [&](const WaitingRecord& waiting, std::size_t position, auto dense) {
                           EarleyItem before;
                           const auto [slot, created] = advance<dense()>(
                               waiting, position, Numeric::mul(waiting.forward, childMass),
                               Numeric::mul(waiting.inner, childMass),
                               waiting.viterbi + childViterbi, c.best, unit.from, &before);
                           emit(OperationKind::Complete, {static_cast<std::int32_t>(r), slot},
                                {k, waiting.index}, {static_cast<std::int32_t>(r), c.best},
                                kNoSymbol, unit.from, created, before);
                         });
      }
    }
  }

  // How many passing records ahead completion prefetches the item index's slot.
  static constexpr std::size_t kPrefetchAhead = 8;

  // Calls `advanceOne(record, its key's index position, the index mode)` for each of origin's
  // waiting records that wait for `symbol` (one run of the grouped records) and pass the look-ahead
  // test, in record order. The run is filtered first (on a dense grammar most of its records fail
  // the test), so that the item-index slot of the passing record kPrefetchAhead places on is asked
  // for in time, and only for records that will probe it.
  template <typename AdvanceOne>
  void forEachWaitingOn(const OriginWaiting& origin, SymbolId symbol, std::optional<SymbolId> next,
                        bool everyPrefix, AdvanceOne&& advanceOne) {
    WaitingRun* const runsEnd = origin.runs + origin.runCount;
    WaitingRun* const run =
        std::lower_bound(origin.runs, runsEnd, symbol,
                         [](const WaitingRun& a, SymbolId wanted) { return a.symbol < wanted; });
    if (run == runsEnd || run->symbol != symbol) return;
    const WaitingRecord* const first = runRecords(origin.set, run);
    const WaitingRecord* const last = first + ((run + 1)->begin - run->begin);
    // The index's mode, known to the loops below at compile time.
    if (index_.dense()) {
      advanceRun<true>(first, last, next, everyPrefix, advanceOne);
    } else {
      advanceRun<false>(first, last, next, everyPrefix, advanceOne);
    }
  }

  // forEachWaitingOn's loops over one run's records [first, last), the index mode Dense.
  template <bool Dense, typename AdvanceOne>
  void advanceRun(const WaitingRecord* first, const WaitingRecord* last,
                  std::optional<SymbolId> next, bool everyPrefix, AdvanceOne&& advanceOne) {
    // Written in place (never built on the stack and copied: the copy's wide load of two
    // narrow stores just made stalls store forwarding, which cost a fifth of completion).
    if (passing_.size() < static_cast<std::size_t>(last - first))
      passing_.resize(static_cast<std::size_t>(last - first));
    std::size_t count = 0;
    for (const WaitingRecord* w = first; w != last; ++w) {
      if (options_.lookahead && !worthAdvancing(g_, advanceOf(*w), next, everyPrefix)) continue;
      Passing& passing = passing_[count++];
      passing.record = w;
      passing.position = ItemIndex::position<Dense>(w->key);
    }
    for (std::size_t i = 0; i < std::min(count, kPrefetchAhead); ++i)
      index_.prefetch<Dense>(passing_[i].position);
    for (std::size_t i = 0; i < count; ++i) {
      if (i + kPrefetchAhead < count) index_.prefetch<Dense>(passing_[i + kPrefetchAhead].position);
      advanceOne(*passing_[i].record, passing_[i].position, std::bool_constant<Dense>{});
    }
  }

  static Advance advanceOf(const WaitingRecord& waiting) {
    return {waiting.advance, waiting.after};
  }

  // advance() without the forward value. An item's forward value is its inner value times the
  // prediction mass of its LHS at its origin (the forward / inner ratio of the predicted item it
  // grew from, kept by every advance and scan, the rescaling included), which is the same for
  // every waiting item that advances into it. So only inner values are summed: a new item keeps
  // the ratio of the waiting item that made it in `forward`, and finishForward() multiplies it by
  // the final inner value once per item, instead of a sum per advance (in log mode a
  // log-sum-exp; in scaled mode a multiplication and an addition per advance against a division
  // per new item: 4% of a dense parse, measured in session 16). The sums are associated
  // differently from the per-advance ones (a watched parse's, completePerConstituent), so the
  // two agree to rounding, not bit for bit.
  template <bool Dense>
  void advanceDeferred(const WaitingRecord& waiting, std::size_t position, double inner,
                       double viterbi, std::int32_t child, SymbolId via) {
    OpenItems& current = openItems();
    const auto [slot, inserted] =
        index_.tryEmplace<Dense>(waiting.key, position, static_cast<std::int32_t>(current.size()));
    if (inserted) {
      const double ratio = Numeric::isZero(waiting.inner)
                               ? Numeric::zero()
                               : Numeric::div(waiting.forward, waiting.inner);
      makeAdvanced(waiting, slot, ratio, inner, viterbi, child, via);
    } else {
      EarleyItem& item = current[static_cast<std::size_t>(slot)];
      item.inner = Numeric::add(item.inner, inner);
      keepBetterDerivation(&item, waiting, viterbi, child, via);
    }
  }

  // An advance into an existing item: its best derivation becomes this one if this one is better.
  static void keepBetterDerivation(EarleyItem* item, const WaitingRecord& waiting, double viterbi,
                                   std::int32_t child, SymbolId via) {
    if (viterbi > item->viterbi) {
      item->viterbi = viterbi;
      item->bestPredecessor = waiting.index;
      item->bestChild = child;
      item->bestVia = via;
    }
  }

  // The forward values of the items completion made by advanceDeferred, from `first` on.
  void finishForward(std::size_t first) {
    OpenItems& current = openItems();
    for (std::size_t i = first; i < current.size(); ++i)
      current[i].forward = Numeric::mul(current[i].forward, current[i].inner);
  }

  // Makes the advance of `waiting` at index `slot` of the open set (the end of the open set).
  void makeAdvanced(const WaitingRecord& waiting, std::int32_t slot, double forward, double inner,
                    double viterbi, std::int32_t child, SymbolId via) {
    // Made in place in the set (see forEachWaitingOn on copies of stack temporaries).
    EarleyItem& item = openItems().emplace_back();
    item.rule = waiting.rule;
    item.dot = static_cast<std::int16_t>(waiting.dot + 1);
    item.origin = keyOrigin(waiting.key);
    item.forward = forward;
    item.inner = inner;
    item.viterbi = viterbi;
    item.bestPredecessor = waiting.index;
    item.bestChild = child;
    item.bestVia = via;
    // addItem's bookkeeping, from the record instead of the rule.
    switch (waiting.advance) {
      case AdvanceKind::Nonterminal: chart_.openWaiting_.push_back({waiting.after, slot}); break;
      case AdvanceKind::Terminal: chart_.openTerminalWaiting_.push_back(slot); break;
      case AdvanceKind::Finished: agenda_.push(item.origin, slot, waiting.after); break;
      case AdvanceKind::Goal:  // the goal rule is a unit rule: nothing completes with it
      case AdvanceKind::Unit: break;
    }
  }

  // Adds mass to [k, r] X → α Z . β, the advance of `waiting` (in set k) over a constituent;
  // `position` is index_.position(waiting.key). Returns the item's index in the open set and
  // whether it was made; an item that was there already is copied first into `before`, when given.
  template <bool Dense>
  std::pair<std::int32_t, bool> advance(const WaitingRecord& waiting, std::size_t position,
                                        double forward, double inner, double viterbi,
                                        std::int32_t child, SymbolId via,
                                        EarleyItem* before = nullptr) {
    OpenItems& current = openItems();
    const auto [slot, inserted] =
        index_.tryEmplace<Dense>(waiting.key, position, static_cast<std::int32_t>(current.size()));
    if (inserted) {
      makeAdvanced(waiting, slot, forward, inner, viterbi, child, via);
    } else {
      EarleyItem& item = current[static_cast<std::size_t>(slot)];
      if (before != nullptr) *before = item;
      item.forward = Numeric::add(item.forward, forward);
      item.inner = Numeric::add(item.inner, inner);
      keepBetterDerivation(&item, waiting, viterbi, child, via);
    }
    return {slot, inserted};
  }

  // The string probability of words 0..r−1, from the goal item [0, r] GOAL → S . (always at the
  // end of input; at every word when completions are made there) or from the end weights.
  // `scannedCount`: the items that scanning word r−1 put first into set r.
  void recordStringProbability(std::size_t r, std::size_t scannedCount, ParseResult& result) {
    if (useEndWeights_ && r < words_->size()) {
      result.logStringProbability[r] = stringProbabilityFromEndWeights(r, scannedCount);
      return;
    }
    const auto goal = index_.find(targetKey(g_.goalRule(), 1, 0));
    if (!goal) return;
    result.logStringProbability[r] = chart_.logInner({static_cast<std::int32_t>(r), *goal});
    if (r == words_->size()) goalIndex_ = *goal;
  }

  // End weights (StringProbabilityMethod::EndWeights). A derivation of the whole string
  // w_0..w_{r−1} has a right spine: the root, its last child, that child's last child, ..., down
  // to the item [l, r] X → α w . that scanned w_{r−1}. Above a constituent Y over [k, r], the
  // spine is a chain of items [j, k] X → α . Z waiting in set k with Z their last symbol,
  // Z ⇒* Y by unit rules, and X again continuing the spine above j. So the mass of all spines
  // above a Y starting at k,
  //   E_k(Y) = Σ_{[j, k] X → α . Z waiting in set k, Z last} R_U(Z, Y)·inner(item)·E_j(X),
  // with E(GOAL) = 1 for the axiom [0, 0] GOAL → . S, depends on sets 0..k only: it is made
  // once, when set k is finished, and never again however far the input runs on. The string
  // probability of w_0..w_{r−1} is then Σ inner(f)·E_l(X) over the finished items f = [l, r]
  // X → α w . that scanned w_{r−1} (each derivation's spine ends in exactly one of them).
  //
  // Every waiting item the sum needs is in the chart with its full inner probability even
  // with look-ahead: its Z spans [k, r] with r > k, so Z starts with w_k, which is all that
  // look-ahead asks of an unfinished item; and its inner probability sums only completions of
  // constituents followed by w_k. Only goal-ward completions at the end of input are skipped,
  // which is what made the textbook method quadratic on right-recursive discourses.
  //
  // Scaled values: with L_k = logScaleUpTo(k), inner values over [j, k] are stored divided by
  // e^{L_k − L_j}; storing E_k divided by e^{L_k} makes the recursion the same product of
  // stored values, and the string probability is e^{L_r} times the sum of stored products.
  struct EndWeight {
    SymbolId symbol;
    double weight;
  };

  // E_set(x) as stored (zero when x has none).
  double endWeight(std::size_t set, SymbolId x) const {
    if (!endWeightDense_.empty())
      return endWeightDense_[set * g_.symbolCount() + static_cast<std::size_t>(x)];
    const auto first = endWeights_.begin() + static_cast<std::ptrdiff_t>(endWeightStart_[set]);
    const auto last = endWeights_.begin() + static_cast<std::ptrdiff_t>(endWeightStart_[set + 1]);
    const auto it = std::lower_bound(
        first, last, x, [](const EndWeight& e, SymbolId symbol) { return e.symbol < symbol; });
    return it != last && it->symbol == x ? it->weight : Numeric::zero();
  }

  // E_k for the open set k, from its waiting items (those made by scanning and completing: the
  // items predicted at k start at k and cannot be last-symbol items of a spine above k).
  void computeEndWeights(std::size_t k) {
    const OpenItems& current = openItems();
    touchedWaiting_.clear();
    for (const auto& [z, index] : chart_.openWaiting_) {
      const EarleyItem& item = current[static_cast<std::size_t>(index)];
      const CompiledGrammar::RuleShape& rule = g_.shape(item.rule);
      if (item.dot + 1 != rule.length) continue;
      double above = Numeric::one();  // E(GOAL) for the axiom
      if (item.rule != g_.goalRule()) {
        // Unit rules are folded into R_U; an item predicted at k starts at k.
        if (rule.unit || static_cast<std::size_t>(item.origin) >= k) continue;
        above = endWeight(static_cast<std::size_t>(item.origin), rule.lhs);
        if (Numeric::isZero(above)) continue;
      }
      // Σ over items waiting on Z, before the unit closure (waitingMass_ is free here: it is
      // used, and left zero, only within computePredictionMass).
      auto& mass = waitingMass_[static_cast<std::size_t>(z)];
      if (Numeric::isZero(mass)) touchedWaiting_.push_back(z);
      mass = Numeric::add(mass, Numeric::mul(item.inner, above));
    }
    touchedEnd_.clear();
    for (SymbolId z : touchedWaiting_) {
      const double mass = waitingMass_[static_cast<std::size_t>(z)];
      waitingMass_[static_cast<std::size_t>(z)] = Numeric::zero();
      if (Numeric::isZero(mass)) continue;
      for (const ClosureEntry& e : g_.unitFrom(z)) {
        auto& weight = endWeight_[static_cast<std::size_t>(e.symbol)];
        if (Numeric::isZero(weight)) touchedEnd_.push_back(e.symbol);
        weight = Numeric::add(weight, Numeric::mul(mass, Numeric::pick(e.value, e.logValue)));
      }
    }
    std::sort(touchedEnd_.begin(), touchedEnd_.end());
    endWeightStart_[k] = endWeights_.size();
    for (SymbolId y : touchedEnd_) {
      double& weight = endWeight_[static_cast<std::size_t>(y)];
      if (!Numeric::isZero(weight)) {
        endWeights_.push_back({y, weight});
        if (!endWeightDense_.empty())
          endWeightDense_[k * g_.symbolCount() + static_cast<std::size_t>(y)] = weight;
      }
      weight = Numeric::zero();
    }
    endWeightStart_[k + 1] = endWeights_.size();
  }

  // log P(w_0..w_{r−1}) from the end weights and the items that scanned w_{r−1} into set r.
  double stringProbabilityFromEndWeights(std::size_t r, std::size_t scannedCount) {
    const OpenItems& current = openItems();
    double total = Numeric::zero();
    for (std::size_t k = 0; k < scannedCount; ++k) {
      const EarleyItem& item = current[k];
      const CompiledGrammar::RuleShape& rule = g_.shape(item.rule);
      if (item.dot != rule.length) continue;
      const double above = endWeight(static_cast<std::size_t>(item.origin), rule.lhs);
      if (Numeric::isZero(above)) continue;
      total = Numeric::add(total, Numeric::mul(item.inner, above));
    }
    if (Numeric::isZero(total)) return kNegInf;
    return Numeric::toLog(total) + chart_.logScaleUpTo(r);
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
  std::vector<double> endWeight_;  // by symbol: E_k being summed (zero between sets)
  std::vector<SymbolId> touchedPrediction_;
  std::vector<SymbolId> touchedWaiting_;
  ItemIndex index_;
  CompletionAgenda agenda_;
  std::vector<std::int32_t> waitingCount_;
  AppendBuffer<EarleyChart::WaitingEntry> sortedWaiting_;
  std::vector<std::int32_t> scannedFrom_;
  std::vector<Constituent> constituents_;
  std::vector<SymbolId> touchedConstituents_;
  std::vector<Constituent> gathered_;  // by Z: the constituents of one origin, through R_U
  std::vector<SymbolId> touchedGathered_;
  using Passing = PassingRecord;
  std::vector<Passing> passing_;         // a run's records that pass the look-ahead test
  std::vector<RecordSpan> recordSpans_;  // by set
  bool useEndWeights_ = false;
  std::vector<EndWeight> endWeights_;        // E_k of every finished set k, by symbol
  std::vector<std::size_t> endWeightStart_;  // set k's: [start[k], start[k + 1]), k < n
  // The same by (set, symbol), when (n + 1)·symbols ≤ kDenseEndWeightCells; else empty.
  std::vector<double> endWeightDense_;
  static constexpr std::size_t kDenseEndWeightCells = std::size_t{1} << 18;  // 2 MiB
  // Completion's item index is dense when (n + 1)·targets ≤ this (8 bytes a slot).
  static constexpr std::size_t kDenseIndexSlots = std::size_t{1} << 18;  // 2 MiB
  std::vector<SymbolId> touchedEnd_;
  double prefixLog_ = 0.0;
  std::int32_t goalIndex_ = -1;
  SymbolScratch* scratch_ = nullptr;  // the thread's arrays, lent to this run
  bool finished_ = false;
};

}  // namespace gwb::earley_internal
