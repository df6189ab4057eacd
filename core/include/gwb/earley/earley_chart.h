// The chart of a probabilistic Earley parse (earley_parser.h), and the operations that fill it as
// a workbench sees them.
//
// State set r holds the items [l, r] X → α . β. Each item carries a forward probability (the
// mass of all Earley paths from the start through it, covering words 0..r-1), an inner
// probability (the mass of the paths from [l, l] X → . αβ to it, covering words l..r-1), and a
// Viterbi inner score with its back-pointer. Forward and inner values are stored in the chart's
// numeric representation: log probabilities (NumericMode::Log) or plain probabilities rescaled
// at every word (NumericMode::Scaled; logForward and logInner undo the scaling); Viterbi scores
// are always log probabilities.
//
// Ownership: the chart owns its items (finished sets in a ChartStorage, the set being built in
// growable buffers) and points at the CompiledGrammar it was parsed with, which must outlive it.
// Only the parser (EarleyParser and its forward pass) writes a chart; a ParseObserver watches it
// being written, one ParseEvent per operation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "gwb/common/const_span.h"
#include "gwb/earley/chart_storage.h"
#include "gwb/earley/compiled_grammar.h"

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

// A growable array of a trivially copyable T for the lists the completer appends to in its inner
// loop (the open set's waiting list): the append is small enough to be inlined there, where
// std::vector's emplace_back was not (a call per advance, 2-3% of a dense parse), and only the
// growth is out of line. Memory is kept when cleared.
template <typename T>
class AppendBuffer {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return buffer_.data(); }
  const T* data() const { return buffer_.data(); }
  const T* begin() const { return buffer_.data(); }
  // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic): a container's end
  const T* end() const { return buffer_.data() + size_; }
  T& operator[](std::size_t i) { return buffer_[i]; }
  const T& operator[](std::size_t i) const { return buffer_[i]; }
  void push_back(const T& value) {  // NOLINT(readability-identifier-naming): as std::vector's
    if (size_ == buffer_.size()) grow(size_ + 1);
    buffer_[size_++] = value;
  }
  // The elements past the old size hold whatever they held: the caller writes them.
  void resize(std::size_t size) {
    if (size > buffer_.size()) grow(size);
    size_ = size;
  }
  void clear() { size_ = 0; }
  void swap(AppendBuffer& other) noexcept {
    buffer_.swap(other.buffer_);
    std::swap(size_, other.size_);
  }

 private:
  [[gnu::noinline]] void grow(std::size_t atLeast) {
    buffer_.resize(std::max({atLeast, 2 * buffer_.size(), std::size_t{64}}));
  }
  std::vector<T> buffer_;  // all of it in use as room; the first size_ are the elements
  std::size_t size_ = 0;
};

// The items of the state set under construction, in place in chart storage (the storage's open
// region, chart_storage.h): a vector's interface for the parser, without a copy when the set is
// finished. Like a vector's, references to the items are invalidated when it grows.
// NOLINTBEGIN(cppcoreguidelines-pro-bounds-pointer-arithmetic): a container over raw storage
class OpenItems {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  EarleyItem* data() { return data_; }
  const EarleyItem* data() const { return data_; }
  EarleyItem& operator[](std::size_t i) { return data_[i]; }
  const EarleyItem& operator[](std::size_t i) const { return data_[i]; }
  EarleyItem* begin() { return data_; }
  EarleyItem* end() { return data_ + size_; }
  const EarleyItem* begin() const { return data_; }
  const EarleyItem* end() const { return data_ + size_; }
  EarleyItem& emplace_back() {  // NOLINT(readability-identifier-naming): as std::vector's
    if (size_ == capacity_) grow();
    return *new (data_ + size_++) EarleyItem();
  }
  void push_back(const EarleyItem& item) {  // NOLINT(readability-identifier-naming)
    emplace_back() = item;
  }

  // Opens a region of `storage` for a new set (empty).
  void open(ChartStorage& storage);
  // Trims the region to the items and returns them; the set is then closed (empty).
  const EarleyItem* close();

 private:
  void grow();

  ChartStorage* storage_ = nullptr;
  EarleyItem* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};
// NOLINTEND(cppcoreguidelines-pro-bounds-pointer-arithmetic)

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
namespace earley_internal {
template <typename Numeric>
class EarleyRun;  // the forward pass (core/src/earley/earley_run.h)
}  // namespace earley_internal

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

// The state sets of one parse. Finished sets live in the chart's ChartStorage; the items of the
// set the parser is building grow in place there (OpenItems), its waiting lists in growable
// buffers until it is finished, and it is visible through set() and item() meanwhile (an
// observer sees it grow). Parsing into a chart again reuses its
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
    if (r == open_) return {openItems_.data(), openItems_.size()};
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
  // Bytes of the parse's working memory that the chart keeps for the next parse into it
  // (completion's records), and their release, for a chart kept only to be read.
  std::size_t workingBytes() const { return completionArena_.capacityBytes(); }
  void releaseWorkingMemory() { completionArena_ = ChartStorage(kWorkingMemoryPurpose); }

 private:
  friend class EarleyParser;
  template <typename Numeric>
  friend class earley_internal::EarleyRun;
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
    if (r == open_) return {openWaiting_.data(), openWaiting_.size()};
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
  // The parse's working memory for completion (earley_run.h: the waiting records of the closed
  // sets), kept with the chart for the next parse into it; not part of what the chart shows, so
  // a copy starts without it.
  static constexpr const char* kWorkingMemoryPurpose = "the completion records of the Earley chart";
  ChartStorage completionArena_{kWorkingMemoryPurpose};
  std::size_t open_ = kNoOpenSet;
  OpenItems openItems_;
  AppendBuffer<WaitingEntry> openWaiting_;
  std::vector<std::int32_t> openTerminalWaiting_;    // items of the open set before a terminal
  std::vector<std::int32_t> closedTerminalWaiting_;  // the same, of the set closed last
};

}  // namespace gwb
