// A recorded parse, for stepping through it forward and backward.
//
// ParseTrace is a ParseObserver that keeps every operation (predict, scan, complete) in order.
// After the parse, finish() indexes the events by item, so that the state of any item after
// any step — whether it exists yet, and its forward, inner and Viterbi values — is found by a
// binary search, and stepping back is as cheap as stepping forward. Items are created in index
// order within each state set, so the items visible after step k are a prefix of each set.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "gwb/earley_parser.h"

namespace gwb {

class ParseTrace : public ParseObserver {
 public:
  void onEvent(const ParseEvent& event, const EarleyChart& chart) override;
  void onSetFinished(int position, const EarleyChart& chart) override;
  // Call once the parse is over, with its chart.
  void finish(const EarleyChart& chart);

  const std::vector<ParseEvent>& events() const { return events_; }
  std::size_t stepCount() const { return events_.size(); }

  struct ItemState {
    double forward;
    double inner;
    double viterbi;
    std::size_t lastStep;  // the last event that touched the item, ≤ the step asked about
  };
  // The item after events 0..step have been applied; nullopt if it does not exist yet.
  std::optional<ItemState> stateAt(ItemRef item, std::size_t step) const;
  // The step that created the item.
  std::size_t creationStep(ItemRef item) const;
  // Every step that touched the item, in increasing order (the first one created it).
  const std::vector<std::size_t>& stepsOf(ItemRef item) const;
  // How many items of set `set` exist after events 0..step.
  std::size_t visibleItems(std::size_t set, std::size_t step) const;
  // The state set an event works on (the set of its item).
  std::size_t setOfStep(std::size_t step) const {
    return static_cast<std::size_t>(events_[step].item.set);
  }
  // The first step at or after `from` of the given kind; stepCount() if none.
  std::size_t nextStepOfKind(std::size_t from, OperationKind kind) const;
  // The first step that works on set `set` (stepCount() if the parse never got there).
  std::size_t firstStepOfSet(std::size_t set) const;

 private:
  std::vector<ParseEvent> events_;
  // Per set, per item: the steps that touched it, in order (the first one created it).
  std::vector<std::vector<std::vector<std::size_t>>> itemSteps_;
};

}  // namespace gwb
