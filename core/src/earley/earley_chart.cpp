#include "gwb/earley/earley_chart.h"

#include <algorithm>
#include <cmath>

#include "gwb/earley/dotted_item.h"

namespace gwb {

const char* numericModeName(NumericMode mode) {
  return mode == NumericMode::Log ? "log" : "scaled";
}

const char* operationKindName(OperationKind kind) {
  switch (kind) {
    case OperationKind::Init: return "init";
    case OperationKind::Predict: return "predict";
    case OperationKind::Scan: return "scan";
    case OperationKind::Complete: return "complete";
  }
  return "init";
}

EarleyChart::EarleyChart(const EarleyChart& other)
    : grammar_(other.grammar_),
      mode_(other.mode_),
      sets_(other.sets_),
      words_(other.words_),
      open_(other.open_),
      openWaiting_(other.openWaiting_),
      openTerminalWaiting_(other.openTerminalWaiting_),
      closedTerminalWaiting_(other.closedTerminalWaiting_) {
  // The finished sets into this chart's own storage.
  for (StateSet& s : sets_) {
    if (s.itemCount > 0)
      s.items = storage_.store(std::vector<EarleyItem>(s.items, s.items + s.itemCount));
    if (s.waitingCount > 0)
      s.waiting = storage_.store(std::vector<WaitingEntry>(s.waiting, s.waiting + s.waitingCount));
  }
  if (open_ != kNoOpenSet) {  // a set under construction: its items so far
    openItems_.open(storage_);
    for (const EarleyItem& item : other.openItems_) openItems_.push_back(item);
  }
}

EarleyChart& EarleyChart::operator=(const EarleyChart& other) {
  if (this != &other) *this = EarleyChart(other);
  return *this;
}

void EarleyChart::reset(std::size_t sets) {
  storage_.rewind();
  sets_.assign(sets, StateSet{});
  open_ = kNoOpenSet;
  openItems_ = OpenItems{};
  openWaiting_.clear();
  openTerminalWaiting_.clear();
  closedTerminalWaiting_.clear();
}

void EarleyChart::openSet(std::size_t r) {
  open_ = r;
  openItems_.open(storage_);
  openWaiting_.clear();
  openTerminalWaiting_.clear();
}

void EarleyChart::closeSet() {
  StateSet& s = sets_[open_];
  s.itemCount = openItems_.size();
  s.items = openItems_.close();
  s.waiting = storage_.store(openWaiting_.data(), openWaiting_.size());
  s.waitingCount = openWaiting_.size();
  closedTerminalWaiting_.swap(openTerminalWaiting_);
  open_ = kNoOpenSet;
  openWaiting_.clear();
}

void OpenItems::open(ChartStorage& storage) {
  storage_ = &storage;
  size_ = 0;
  std::size_t room = 0;
  data_ = static_cast<EarleyItem*>(
      storage.openRegion(64 * sizeof(EarleyItem), alignof(EarleyItem), &room));
  capacity_ = room / sizeof(EarleyItem);
}

void OpenItems::grow() {
  std::size_t room = 0;
  data_ = static_cast<EarleyItem*>(storage_->growRegion(
      data_, size_ * sizeof(EarleyItem), std::max<std::size_t>(size_, 64) * sizeof(EarleyItem),
      alignof(EarleyItem), &room));
  capacity_ = room / sizeof(EarleyItem);
}

const EarleyItem* OpenItems::close() {
  storage_->closeRegion(data_, size_ * sizeof(EarleyItem));
  const EarleyItem* items = size_ > 0 ? data_ : nullptr;
  *this = OpenItems{};
  return items;
}

std::size_t EarleyChart::itemCount() const {
  std::size_t count = 0;
  for (const StateSet& s : sets_) count += s.itemCount;
  if (open_ != kNoOpenSet) count += openItems_.size();
  return count;
}

double EarleyChart::logForward(ItemRef ref) const {
  const double v = item(ref).forward;
  if (mode_ == NumericMode::Log) return v;
  return std::log(v) + sets_[static_cast<std::size_t>(ref.set)].logScaleSum;
}

double EarleyChart::logInner(ItemRef ref) const {
  const EarleyItem& it = item(ref);
  if (mode_ == NumericMode::Log) return it.inner;
  return std::log(it.inner) + sets_[static_cast<std::size_t>(ref.set)].logScaleSum -
         sets_[static_cast<std::size_t>(it.origin)].logScaleSum;
}

double EarleyChart::logViterbi(ItemRef ref) const { return item(ref).viterbi; }

std::string EarleyChart::itemText(ItemRef ref) const {
  const EarleyItem& it = item(ref);
  return dottedItemText(*grammar_, it.rule, it.dot, it.origin, ref.set);
}

}  // namespace gwb
