#include "gwb/parse_trace.h"

#include <algorithm>

namespace gwb {

void ParseTrace::onEvent(const ParseEvent& event, const EarleyChart& /*chart*/) {
  events_.push_back(event);
}

void ParseTrace::onSetFinished(int /*position*/, const EarleyChart& /*chart*/) {}

void ParseTrace::finish(const EarleyChart& chart) {
  itemSteps_.assign(chart.setCount(), {});
  for (std::size_t r = 0; r < chart.setCount(); ++r) itemSteps_[r].resize(chart.set(r).size());
  for (std::size_t step = 0; step < events_.size(); ++step) {
    const ItemRef& item = events_[step].item;
    itemSteps_[static_cast<std::size_t>(item.set)][static_cast<std::size_t>(item.index)].push_back(
        step);
  }
}

std::optional<ParseTrace::ItemState> ParseTrace::stateAt(ItemRef item, std::size_t step) const {
  const auto& steps =
      itemSteps_[static_cast<std::size_t>(item.set)][static_cast<std::size_t>(item.index)];
  auto it = std::upper_bound(steps.begin(), steps.end(), step);
  if (it == steps.begin()) return std::nullopt;
  const std::size_t last = *--it;
  const ParseEvent& e = events_[last];
  return ItemState{e.forwardAfter, e.innerAfter, e.viterbiAfter, last};
}

std::size_t ParseTrace::creationStep(ItemRef item) const {
  return itemSteps_[static_cast<std::size_t>(item.set)][static_cast<std::size_t>(item.index)]
      .front();
}

const std::vector<std::size_t>& ParseTrace::stepsOf(ItemRef item) const {
  return itemSteps_[static_cast<std::size_t>(item.set)][static_cast<std::size_t>(item.index)];
}

std::size_t ParseTrace::visibleItems(std::size_t set, std::size_t step) const {
  const auto& items = itemSteps_[set];
  // Creation steps increase with the item index: binary search for the first item not yet made.
  std::size_t low = 0, high = items.size();
  while (low < high) {
    const std::size_t mid = (low + high) / 2;
    if (!items[mid].empty() && items[mid].front() <= step) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

std::size_t ParseTrace::nextStepOfKind(std::size_t from, OperationKind kind) const {
  for (std::size_t step = from; step < events_.size(); ++step)
    if (events_[step].kind == kind) return step;
  return events_.size();
}

std::size_t ParseTrace::firstStepOfSet(std::size_t set) const {
  for (std::size_t step = 0; step < events_.size(); ++step)
    if (static_cast<std::size_t>(events_[step].item.set) >= set) return step;
  return events_.size();
}

}  // namespace gwb
