#include "gwb/earley/parse_trace.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace gwb {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Hands the operations of one set made again to a function, one at a time (nothing is kept
// here: a set can hold millions of them).
template <typename Sink>
class SetCollector : public ParseObserver {
 public:
  explicit SetCollector(Sink sink) : sink_(std::move(sink)) {}
  void onEvent(const ParseEvent& event, const EarleyChart& /*chart*/) override { sink_(event); }

 private:
  Sink sink_;
};

}  // namespace

void ParseTrace::onEvent(const ParseEvent& event, const EarleyChart& chart) {
  const auto set = static_cast<std::size_t>(event.item.set);
  while (sets_.size() <= set) {
    flushKeys();
    SetRecord record;
    record.firstStep = steps_;
    record.itemBase = created_.size();
    record.keysBegin = record.keysEnd = keys_.size();
    sets_.push_back(record);
    openKeysSet_ = sets_.size() - 1;
  }
  SetRecord& record = sets_[set];
  const auto offset = static_cast<std::uint32_t>(steps_ - record.firstStep);
  switch (event.kind) {
    case OperationKind::Init: ++record.init; break;
    case OperationKind::Scan: ++record.scans; break;
    case OperationKind::Complete: ++record.completes; break;
    case OperationKind::Predict: ++record.predicts; break;
  }
  if (event.created) {
    created_.push_back(offset);
    last_.push_back(offset);
  } else {
    last_[itemSlot(event.item)] = offset;
  }
  const SymbolId lhs = chart.grammar().rule(chart.item(event.item).rule).lhs;
  openKeys_.push_back(key(event.kind, lhs));
  // Keep the list of the open set short: most operations repeat a key.
  if (openKeys_.size() >= 4096) {
    std::sort(openKeys_.begin(), openKeys_.end());
    openKeys_.erase(std::unique(openKeys_.begin(), openKeys_.end()), openKeys_.end());
    if (openKeys_.capacity() > 4 * openKeys_.size() + 8192) openKeys_.shrink_to_fit();
  }
  ++steps_;
}

void ParseTrace::flushKeys() {
  if (openKeysSet_ >= sets_.size()) return;
  std::sort(openKeys_.begin(), openKeys_.end());
  openKeys_.erase(std::unique(openKeys_.begin(), openKeys_.end()), openKeys_.end());
  SetRecord& record = sets_[openKeysSet_];
  openKeysSet_ = kNoSet;
  record.keysBegin = keys_.size();
  keys_.insert(keys_.end(), openKeys_.begin(), openKeys_.end());
  record.keysEnd = keys_.size();
  openKeys_.clear();
}

void ParseTrace::finish(const EarleyChart& chart, const ParseOptions& options) {
  flushKeys();
  // Sets the parse never reached (or that scanned nothing) have no operations.
  while (sets_.size() < chart.setCount()) {
    SetRecord record;
    record.firstStep = steps_;
    record.itemBase = created_.size();
    record.keysBegin = record.keysEnd = keys_.size();
    sets_.push_back(record);
  }
  openKeys_.shrink_to_fit();
  keys_.shrink_to_fit();
  sets_.shrink_to_fit();
  created_.shrink_to_fit();
  last_.shrink_to_fit();
  chart_ = &chart;
  options_ = options;
  options_.observer = nullptr;
  const std::lock_guard<std::mutex> lock(cacheMutex_);
  cache_.clear();
}

std::size_t ParseTrace::recordedBytes() const {
  return sets_.capacity() * sizeof(SetRecord) +
         (created_.capacity() + last_.capacity()) * sizeof(std::uint32_t) +
         (keys_.capacity() + openKeys_.capacity()) * sizeof(std::uint64_t);
}

std::size_t ParseTrace::detailBytes(std::size_t set) const {
  if (set >= sets_.size()) return 0;
  const std::size_t items =
      (set + 1 < sets_.size() ? sets_[set + 1].itemBase : created_.size()) - sets_[set].itemBase;
  return sets_[set].operations() * kDetailBytesPerOperation + (items + 1) * sizeof(std::uint32_t);
}

std::size_t ParseTrace::SetDetail::bytes() const {
  return events.capacity() * sizeof(StoredEvent) +
         (itemStepStart.capacity() + itemSteps.capacity()) * sizeof(std::uint32_t);
}

std::size_t ParseTrace::cachedBytes() const {
  const std::lock_guard<std::mutex> lock(cacheMutex_);
  std::size_t bytes = 0;
  for (const SetDetail& d : cache_) bytes += d.bytes();
  return bytes;
}

std::size_t ParseTrace::largestSet() const {
  std::size_t best = 0;
  for (std::size_t r = 1; r < sets_.size(); ++r)
    if (sets_[r].operations() > sets_[best].operations()) best = r;
  return best;
}

std::size_t ParseTrace::firstStepOfSet(std::size_t set) const {
  if (set >= sets_.size()) return steps_;
  return sets_[set].firstStep;
}

std::size_t ParseTrace::setOfStep(std::size_t step) const {
  // The last set whose first step is ≤ step and that has operations.
  auto it = std::upper_bound(sets_.begin(), sets_.end(), step,
                             [](std::size_t s, const SetRecord& r) { return s < r.firstStep; });
  std::size_t set = static_cast<std::size_t>(it - sets_.begin()) - 1;
  while (set > 0 && sets_[set].operations() == 0) --set;
  return set;
}

std::pair<std::size_t, std::size_t> ParseTrace::stepsOfKindInSet(std::size_t set,
                                                                 OperationKind kind) const {
  if (set >= sets_.size()) return {steps_, steps_};
  const SetRecord& r = sets_[set];
  std::size_t begin = r.firstStep;
  const std::uint32_t counts[] = {r.init, r.predicts, r.scans, r.completes};
  // Order within a set: init, scans, completes, predicts.
  const OperationKind order[] = {OperationKind::Init, OperationKind::Scan, OperationKind::Complete,
                                 OperationKind::Predict};
  for (const OperationKind k : order) {
    const std::size_t count = counts[static_cast<int>(k)];
    if (k == kind) return {begin, begin + count};
    begin += count;
  }
  return {begin, begin};
}

OperationKind ParseTrace::kindOfStep(std::size_t step) const {
  const std::size_t set = setOfStep(step);
  for (const OperationKind k : {OperationKind::Init, OperationKind::Scan, OperationKind::Complete,
                                OperationKind::Predict}) {
    const auto [begin, end] = stepsOfKindInSet(set, k);
    if (step >= begin && step < end) return k;
  }
  throw std::out_of_range("ParseTrace::kindOfStep: step " + std::to_string(step));
}

std::size_t ParseTrace::nextStepOfKind(std::size_t from, OperationKind kind) const {
  if (from >= steps_) return steps_;
  for (std::size_t set = setOfStep(from); set < sets_.size(); ++set) {
    const auto [begin, end] = stepsOfKindInSet(set, kind);
    if (end > std::max(begin, from)) return std::max(begin, from);
  }
  return steps_;
}

bool ParseTrace::setHasOperation(std::size_t set, std::optional<OperationKind> kind,
                                 SymbolId lhs) const {
  if (set >= sets_.size()) return false;
  const auto begin = keys_.begin() + static_cast<std::ptrdiff_t>(sets_[set].keysBegin);
  const auto end = keys_.begin() + static_cast<std::ptrdiff_t>(sets_[set].keysEnd);
  if (kind) return std::binary_search(begin, end, key(*kind, lhs));
  return std::any_of(begin, end, [lhs](std::uint64_t k) {
    return static_cast<SymbolId>(static_cast<std::uint32_t>(k)) == lhs;
  });
}

std::size_t ParseTrace::creationStep(ItemRef item) const {
  return sets_[static_cast<std::size_t>(item.set)].firstStep + created_[itemSlot(item)];
}

std::size_t ParseTrace::lastStep(ItemRef item) const {
  return sets_[static_cast<std::size_t>(item.set)].firstStep + last_[itemSlot(item)];
}

std::size_t ParseTrace::visibleItems(std::size_t set, std::size_t step) const {
  if (set >= sets_.size()) return 0;
  const SetRecord& r = sets_[set];
  const std::size_t end = set + 1 < sets_.size() ? sets_[set + 1].itemBase : created_.size();
  if (step < r.firstStep) return 0;
  // Creation steps increase with the item index: the first item not made yet.
  const auto first = created_.begin() + static_cast<std::ptrdiff_t>(r.itemBase);
  const auto last = created_.begin() + static_cast<std::ptrdiff_t>(end);
  const std::size_t offset = step - r.firstStep;
  return static_cast<std::size_t>(
      std::upper_bound(first, last, offset,
                       [](std::size_t o, std::uint32_t c) { return o < std::size_t{c}; }) -
      first);
}

const ParseTrace::SetDetail& ParseTrace::detail(std::size_t set) const {
  // The caller holds cacheMutex_.
  for (auto it = cache_.begin(); it != cache_.end(); ++it) {
    if (it->set != set) continue;
    cache_.splice(cache_.begin(), cache_, it);
    return cache_.front();
  }
  if (chart_ == nullptr) throw std::logic_error("ParseTrace: finish() was not called");
  if (!detailFits(set))
    throw std::length_error("ParseTrace: the operations of state set " + std::to_string(set) +
                            " need " + std::to_string(detailBytes(set)) +
                            " bytes, more than the budget of " + std::to_string(detailBudget_));
  const SetRecord& record = sets_[set];
  // Make room first: the budget bounds the cache and the set being made together.
  std::size_t bytes = detailBytes(set);
  for (const SetDetail& d : cache_) bytes += d.bytes();
  while (!cache_.empty() && bytes > detailBudget_) {
    bytes -= cache_.back().bytes();
    cache_.pop_back();
  }

  SetDetail d;
  d.set = set;
  d.events.reserve(record.operations());
  const std::size_t items =
      (set + 1 < sets_.size() ? sets_[set + 1].itemBase : created_.size()) - record.itemBase;
  d.itemStepStart.assign(items + 1, 0);
  bool outOfRange = false;
  const auto store = [&d, &outOfRange, items](const ParseEvent& e) {
    StoredEvent s;
    s.item = e.item.index;
    s.predecessorSet = e.predecessor.set;
    s.predecessor = e.predecessor.index;
    s.child = e.child.index;
    s.symbol = e.kind == OperationKind::Predict ? e.predictedFrom : e.via;
    s.created = e.created;
    s.forward = e.forwardAfter;
    s.inner = e.innerAfter;
    s.viterbi = e.viterbiAfter;
    d.events.push_back(s);
    if (static_cast<std::size_t>(e.item.index) >= items) {
      outOfRange = true;
      return;
    }
    ++d.itemStepStart[static_cast<std::size_t>(e.item.index) + 1];
  };
  SetCollector<decltype(store)> collector(store);
  ParseOptions options = options_;
  options.observer = &collector;
  EarleyParser(chart_->grammar()).replaySet(chart_->words(), options, *chart_, set);
  ++replays_;
  if (d.events.size() != record.operations() || outOfRange)
    throw std::logic_error("ParseTrace: state set " + std::to_string(set) + " made again gave " +
                           std::to_string(d.events.size()) + " operations, the parse " +
                           std::to_string(record.operations()));
  for (std::size_t k = 0; k < items; ++k) d.itemStepStart[k + 1] += d.itemStepStart[k];
  d.itemSteps.resize(d.events.size());
  std::vector<std::uint32_t> fill(d.itemStepStart.begin(), d.itemStepStart.end() - 1);
  for (std::size_t offset = 0; offset < d.events.size(); ++offset)
    d.itemSteps[fill[static_cast<std::size_t>(d.events[offset].item)]++] =
        static_cast<std::uint32_t>(offset);
  cache_.push_front(std::move(d));
  return cache_.front();
}

ParseEvent ParseTrace::eventFrom(const SetDetail& d, std::size_t offset) const {
  const StoredEvent& s = d.events[offset];
  const SetRecord& record = sets_[d.set];
  const std::size_t step = record.firstStep + offset;
  ParseEvent e;
  e.kind = kindOfStep(step);
  const auto set = static_cast<std::int32_t>(d.set);
  e.item = {set, s.item};
  if (s.predecessor >= 0) e.predecessor = {s.predecessorSet, s.predecessor};
  if (s.child >= 0) e.child = {set, s.child};
  if (e.kind == OperationKind::Predict) {
    e.predictedFrom = s.symbol;
  } else {
    e.via = s.symbol;
  }
  e.created = s.created;
  e.forwardAfter = s.forward;
  e.innerAfter = s.inner;
  e.viterbiAfter = s.viterbi;
  const double zero = chart_->mode() == NumericMode::Log ? kNegInf : 0.0;
  e.forwardBefore = e.innerBefore = zero;
  e.viterbiBefore = kNegInf;
  if (!s.created) {
    // The item's operation before this one holds the values before.
    const auto item = static_cast<std::size_t>(s.item);
    const auto first = d.itemSteps.begin() + d.itemStepStart[item];
    const auto last = d.itemSteps.begin() + d.itemStepStart[item + 1];
    const auto at = std::lower_bound(first, last, static_cast<std::uint32_t>(offset));
    if (at != first) {
      const StoredEvent& previous = d.events[*(at - 1)];
      e.forwardBefore = previous.forward;
      e.innerBefore = previous.inner;
      e.viterbiBefore = previous.viterbi;
    }
  }
  return e;
}

ParseEvent ParseTrace::event(std::size_t step) const {
  if (step >= steps_) throw std::out_of_range("ParseTrace::event: step " + std::to_string(step));
  const std::size_t set = setOfStep(step);
  const std::lock_guard<std::mutex> lock(cacheMutex_);
  return eventFrom(detail(set), step - sets_[set].firstStep);
}

bool ParseTrace::recorded(ItemRef item) const {
  if (!item.valid() || item.index < 0 || static_cast<std::size_t>(item.set) >= sets_.size())
    return false;
  const auto set = static_cast<std::size_t>(item.set);
  const std::size_t end = set + 1 < sets_.size() ? sets_[set + 1].itemBase : created_.size();
  return itemSlot(item) < end;
}

std::optional<ParseTrace::ItemState> ParseTrace::stateAt(ItemRef item, std::size_t step) const {
  // Items the parse made without an operation (the scans of a word that failed) never exist.
  if (!recorded(item)) return std::nullopt;
  const std::size_t created = creationStep(item);
  if (step < created) return std::nullopt;
  const std::size_t last = lastStep(item);
  if (step >= last) {
    // Final: the chart holds the values the last operation left.
    const EarleyItem& it = chart_->item(item);
    return ItemState{it.forward, it.inner, it.viterbi, last};
  }
  const auto set = static_cast<std::size_t>(item.set);
  const std::lock_guard<std::mutex> lock(cacheMutex_);
  const SetDetail& d = detail(set);
  const auto index = static_cast<std::size_t>(item.index);
  const auto first = d.itemSteps.begin() + d.itemStepStart[index];
  const auto end = d.itemSteps.begin() + d.itemStepStart[index + 1];
  const auto offset = static_cast<std::uint32_t>(step - sets_[set].firstStep);
  const auto at = std::upper_bound(first, end, offset);  // at > first: step ≥ creation
  const std::uint32_t applied = *(at - 1);
  const StoredEvent& s = d.events[applied];
  return ItemState{s.forward, s.inner, s.viterbi, sets_[set].firstStep + applied};
}

std::vector<std::size_t> ParseTrace::stepsOf(ItemRef item) const {
  const std::size_t created = creationStep(item);
  const std::size_t last = lastStep(item);
  if (created == last) return {created};
  const auto set = static_cast<std::size_t>(item.set);
  const std::lock_guard<std::mutex> lock(cacheMutex_);
  const SetDetail& d = detail(set);
  const auto index = static_cast<std::size_t>(item.index);
  std::vector<std::size_t> steps;
  steps.reserve(d.itemStepStart[index + 1] - d.itemStepStart[index]);
  for (std::uint32_t k = d.itemStepStart[index]; k < d.itemStepStart[index + 1]; ++k)
    steps.push_back(sets_[set].firstStep + d.itemSteps[k]);
  return steps;
}

}  // namespace gwb
