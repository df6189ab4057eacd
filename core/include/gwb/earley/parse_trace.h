// A recorded parse, for stepping through it forward and backward.
//
// ParseTrace is a ParseObserver. A parse can make hundreds of millions of operations (a
// 277-word WSJ sentence makes far more operations than chart items, since every completion
// that adds mass to an existing item is one), so the trace does not keep them. While the parse
// runs it keeps, per state set, how many operations of each kind it made and which left-hand
// sides they made (for breakpoints), and per chart item the step that created it and the last
// step that touched it: a few bytes per item and per set, never per operation. After the
// parse, finish() ties the trace to the chart, and the operations of one state set are made
// again on demand (EarleyParser::replaySet), bit for bit as the parse made them, and kept in a
// small cache of recently asked sets.
//
// Steps are numbered over the whole parse. Sets are worked on in increasing order, and within
// set r the operations come as: the initialisation (set 0 only), the scans into r, the
// completions at r, the predictions at r. Items are created in index order within each set, so
// the items visible after step k are a prefix of each set; an item of set r is touched only by
// operations of set r.
//
// Memory: what the trace keeps for the whole parse is recordedBytes() (8 bytes per chart item
// plus a little per set). A set made again costs detailBytes(set) (kDetailBytesPerOperation per
// operation); a set whose detail would exceed the budget is never made (detailFits() says so,
// and the workbench shows its chart without stepping through it) — an explicit limit instead of
// running out of memory. The cache keeps sets until their total passes the budget.
//
// The chart, its grammar and the words given to finish() must outlive the trace unchanged.
// The const accessors may be called from one thread at a time (the cache is filled lazily).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "gwb/earley/earley_parser.h"

namespace gwb {

class ParseTrace : public ParseObserver {
 public:
  ParseTrace() = default;
  ParseTrace(const ParseTrace&) = delete;
  ParseTrace& operator=(const ParseTrace&) = delete;

  void onEvent(const ParseEvent& event, const EarleyChart& chart) override;
  // Call once the parse is over, with its chart and the options it ran with (mode and
  // look-ahead decide how a set is made again).
  void finish(const EarleyChart& chart, const ParseOptions& options);

  std::size_t stepCount() const { return steps_; }

  struct ItemState {
    double forward;
    double inner;
    double viterbi;
    std::size_t lastStep;  // the last event that touched the item, ≤ the step asked about
  };
  // The item after events 0..step have been applied; nullopt if it does not exist yet.
  std::optional<ItemState> stateAt(ItemRef item, std::size_t step) const;
  // The step that created the item, and the last step that touched it.
  std::size_t creationStep(ItemRef item) const;
  std::size_t lastStep(ItemRef item) const;
  // Every step that touched the item, in increasing order (the first one created it).
  std::vector<std::size_t> stepsOf(ItemRef item) const;
  // How many items of set `set` exist after events 0..step.
  std::size_t visibleItems(std::size_t set, std::size_t step) const;
  // Operation `step` in full (values before and after, antecedents).
  ParseEvent event(std::size_t step) const;
  OperationKind kindOfStep(std::size_t step) const;
  // The state set an event works on (the set of its item).
  std::size_t setOfStep(std::size_t step) const;
  // The first step at or after `from` of the given kind; stepCount() if none.
  std::size_t nextStepOfKind(std::size_t from, OperationKind kind) const;
  // The first step that works on set `set` (stepCount() if the parse never got there).
  std::size_t firstStepOfSet(std::size_t set) const;
  // The steps of set `set` of one kind: [first, last) (empty if none).
  std::pair<std::size_t, std::size_t> stepsOfKindInSet(std::size_t set, OperationKind kind) const;
  // Does set `set` hold an operation of kind `kind` (any kind when unset) that makes or updates
  // an item with left-hand side `lhs`? Answered from the record, without making the set again.
  bool setHasOperation(std::size_t set, std::optional<OperationKind> kind, SymbolId lhs) const;

  std::size_t operationsOfSet(std::size_t set) const {
    return set < sets_.size() ? sets_[set].operations() : 0;
  }

  // Memory (see the header comment).
  static constexpr std::size_t kDetailBytesPerOperation = 52;
  std::size_t recordedBytes() const;
  std::size_t detailBytes(std::size_t set) const;
  bool detailFits(std::size_t set) const { return detailBytes(set) <= detailBudget_; }
  // The set with the most operations, and whether every set fits.
  std::size_t largestSet() const;
  bool everySetFits() const { return steps_ == 0 || detailFits(largestSet()); }
  std::size_t detailBudget() const { return detailBudget_; }
  void setDetailBudget(std::size_t bytes) { detailBudget_ = bytes; }
  std::size_t cachedBytes() const;
  // How many sets have been made again so far (for tests of the cache).
  std::size_t replays() const { return replays_; }

 private:
  // One operation of a set made again: ParseEvent without what the rest implies (its set,
  // kind and values before are found from its position and the item's earlier operations).
  struct StoredEvent {
    std::int32_t item = -1;
    std::int32_t predecessorSet = -1;
    std::int32_t predecessor = -1;
    std::int32_t child = -1;
    SymbolId symbol = kNoSymbol;  // predictedFrom (predict) or via (complete)
    bool created = false;
    double forward = 0.0, inner = 0.0, viterbi = 0.0;
  };
  // kDetailBytesPerOperation: the stored event and its entry in the item's list of steps.
  static_assert(sizeof(StoredEvent) + sizeof(std::uint32_t) <= kDetailBytesPerOperation);
  struct SetDetail {
    std::size_t set = 0;
    std::vector<StoredEvent> events;
    std::vector<std::uint32_t> itemStepStart;  // per item, into itemSteps; size items + 1
    std::vector<std::uint32_t> itemSteps;      // offsets in the set, grouped by item
    std::size_t bytes() const;
  };
  struct SetRecord {
    std::size_t firstStep = 0;
    std::size_t itemBase = 0;  // index of the set's first item in created_/last_
    std::uint32_t init = 0, scans = 0, completes = 0, predicts = 0;
    std::size_t keysBegin = 0, keysEnd = 0;  // into keys_: sorted (kind, lhs) keys
    std::size_t operations() const { return std::size_t{init} + scans + completes + predicts; }
  };
  static std::uint64_t key(OperationKind kind, SymbolId lhs) {
    return (static_cast<std::uint64_t>(kind) << 32U) | static_cast<std::uint32_t>(lhs);
  }
  void flushKeys();
  bool recorded(ItemRef item) const;
  std::size_t itemSlot(ItemRef item) const {
    return sets_[static_cast<std::size_t>(item.set)].itemBase +
           static_cast<std::size_t>(item.index);
  }
  const SetDetail& detail(std::size_t set) const;
  ParseEvent eventFrom(const SetDetail& d, std::size_t offset) const;

  std::size_t steps_ = 0;
  std::vector<SetRecord> sets_;
  std::vector<std::uint32_t> created_;  // per item (itemSlot): creation step − set's first step
  std::vector<std::uint32_t> last_;     // per item: last step touching it − set's first step
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint64_t> openKeys_;  // keys of the set being recorded
  static constexpr std::size_t kNoSet = static_cast<std::size_t>(-1);
  std::size_t openKeysSet_ = kNoSet;  // that set

  const EarleyChart* chart_ = nullptr;
  ParseOptions options_;
  std::size_t detailBudget_ = std::size_t{1} << 30U;
  mutable std::mutex cacheMutex_;
  mutable std::list<SetDetail> cache_;  // most recently used first
  mutable std::size_t replays_ = 0;
};

}  // namespace gwb
