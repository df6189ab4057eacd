#include "ui/earley/earley_stepper.h"

#include <algorithm>

#include <QTimer>

#include "ui/common/qt_conversions.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {

QString Breakpoint::describe() const {
  switch (match) {
    case Match::Finished:
      return symbol.isEmpty() ? EarleyStepper::tr("any item finished")
                              : EarleyStepper::tr("%1 completed (a %1 item finished)").arg(symbol);
    case Match::AdvancedOver:
      return symbol.isEmpty() ? EarleyStepper::tr("any completion")
                              : EarleyStepper::tr("an item advanced over %1").arg(symbol);
    case Match::Lhs: break;
  }
  if (kind == gwb::OperationKind::Complete && !symbol.isEmpty())
    return EarleyStepper::tr("a %1 item advanced (complete)").arg(symbol);
  QString kindText =
      kind ? toQString(gwb::operationKindName(*kind)) : EarleyStepper::tr("any operation");
  if (symbol.isEmpty()) return kindText;
  return kind ? kindText % QLatin1Char(' ') % symbol : symbol;
}

EarleyStepper::EarleyStepper(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
  timer_->setInterval(1000 / speed_);
  connect(timer_, &QTimer::timeout, this, &EarleyStepper::onTick);
}

EarleyStepper::~EarleyStepper() = default;

void EarleyStepper::setSession(std::shared_ptr<const ParseSession> session, std::size_t applied) {
  pause();
  session_ = std::move(session);
  if (session_ && !session_->hasChart()) session_.reset();
  const std::size_t previous = applied_;
  applied_ = std::min(applied, stepCount());
  // A parse too large to step through is shown finished (ParseSession::steppable).
  if (session_ && !session_->steppable()) applied_ = stepCount();
  lastHit_ = -1;
  emit moved(applied_, previous);
}

std::size_t EarleyStepper::stepCount() const { return session_ ? session_->stepCount() : 0; }

void EarleyStepper::setApplied(std::size_t applied) {
  applied = std::min(applied, stepCount());
  if (session_ && !session_->steppable()) applied = stepCount();
  if (applied == applied_) return;
  const std::size_t previous = applied_;
  applied_ = applied;
  emit moved(applied_, previous);
}

void EarleyStepper::stepForward() {
  if (!atEnd()) setApplied(applied_ + 1);
}

void EarleyStepper::stepBack() {
  if (!atStart()) setApplied(applied_ - 1);
}

void EarleyStepper::nextWord() {
  if (!session_) return;
  const gwb::ParseTrace& trace = session_->trace();
  const std::size_t steps = trace.stepCount();
  const std::size_t scan = trace.nextStepOfKind(applied_, gwb::OperationKind::Scan);
  if (scan >= steps) {
    setApplied(steps);
    return;
  }
  // Through the last scan into the same set: the whole word is read.
  setApplied(trace.stepsOfKindInSet(trace.setOfStep(scan), gwb::OperationKind::Scan).second);
}

void EarleyStepper::previousWord() {
  if (!session_ || applied_ == 0) return;
  const gwb::ParseTrace& trace = session_->trace();
  // The latest end of a set's scans strictly before the current position.
  for (std::size_t set = trace.setOfStep(applied_ - 1) + 1; set-- > 1;) {
    const auto [begin, end] = trace.stepsOfKindInSet(set, gwb::OperationKind::Scan);
    if (end > begin && end < applied_) {
      setApplied(end);
      return;
    }
  }
  setApplied(0);
}

void EarleyStepper::runToPosition(int position) {
  if (!session_ || position < 0) return;
  setApplied(session_->stepsBeforeSet(static_cast<std::size_t>(position) + 1));
}

void EarleyStepper::runToEnd() {
  if (!session_) return;
  lastHit_ = -1;
  const std::size_t steps = stepCount();
  const gwb::ParseTrace& trace = session_->trace();
  // Set by set: a set with no operation a breakpoint matches is skipped without being made
  // again (see ParseTrace::setHasOperation).
  for (std::size_t step = applied_; step < steps;) {
    const std::size_t set = trace.setOfStep(step);
    const std::size_t end = std::min(steps, trace.firstStepOfSet(set + 1));
    if (!setMayHitBreakpoint(set)) {
      step = end;
      continue;
    }
    for (; step < end; ++step) {
      const int hit = matchingBreakpoint(step);
      if (hit >= 0) {
        lastHit_ = hit;
        setApplied(step + 1);
        emit breakpointHit(hit, step);
        return;
      }
    }
  }
  setApplied(steps);
}

bool EarleyStepper::setMayHitBreakpoint(std::size_t set) const {
  const gwb::ParseTrace& trace = session_->trace();
  for (const Breakpoint& b : breakpoints_) {
    if (!b.enabled) continue;
    // Finished and advanced-over items are told apart by the operation itself: never skipped.
    if (b.match != Breakpoint::Match::Lhs) return true;
    if (b.symbol.isEmpty()) {
      if (!b.kind) return true;
      const auto [begin, end] = trace.stepsOfKindInSet(set, *b.kind);
      if (end > begin) return true;
      continue;
    }
    // A scan reads word set − 1.
    if ((!b.kind || *b.kind == gwb::OperationKind::Scan) && set > 0 &&
        set - 1 < session_->words().size() && toQString(session_->words()[set - 1]) == b.symbol) {
      const auto [begin, end] = trace.stepsOfKindInSet(set, gwb::OperationKind::Scan);
      if (end > begin) return true;
    }
    const std::optional<gwb::SymbolId> symbol = session_->findSymbol(b.symbol);
    if (symbol && trace.setHasOperation(set, b.kind, *symbol)) return true;
  }
  return false;
}

void EarleyStepper::reset() {
  pause();
  setApplied(0);
}

int EarleyStepper::matchingBreakpoint(std::size_t step) const {
  if (!session_ || step >= stepCount()) return -1;
  const gwb::ParseTrace& trace = session_->trace();
  const gwb::OperationKind kind = trace.kindOfStep(step);
  const bool needsEvent =
      std::any_of(breakpoints_.begin(), breakpoints_.end(), [](const Breakpoint& b) {
        return b.enabled && (!b.symbol.isEmpty() || b.match != Breakpoint::Match::Lhs);
      });
  // Only a breakpoint on a symbol, or on finished / advanced-over items, needs the operation
  // itself (its set made again).
  const gwb::ParseEvent e = needsEvent ? trace.event(step) : gwb::ParseEvent{};
  for (std::size_t i = 0; i < breakpoints_.size(); ++i) {
    const Breakpoint& b = breakpoints_[i];
    if (!b.enabled) continue;
    if (b.kind && *b.kind != kind) continue;
    const auto named = [&](gwb::ItemRef item) {
      return b.symbol.isEmpty() || session_->symbolName(session_->lhs(item)) == b.symbol;
    };
    if (b.match == Breakpoint::Match::Finished) {
      if (!session_->isFinished(e.item) || !named(e.item)) continue;
      return static_cast<int>(i);
    }
    if (b.match == Breakpoint::Match::AdvancedOver) {
      if (kind != gwb::OperationKind::Complete || !e.child.valid() || !named(e.child)) continue;
      return static_cast<int>(i);
    }
    if (!b.symbol.isEmpty()) {
      bool matches = session_->symbolName(session_->lhs(e.item)) == b.symbol;
      if (!matches && kind == gwb::OperationKind::Scan) {
        const auto set = static_cast<std::size_t>(e.item.set);
        matches = set > 0 && toQString(session_->words()[set - 1]) == b.symbol;
      }
      if (!matches) continue;
    }
    return static_cast<int>(i);
  }
  return -1;
}

bool EarleyStepper::hitsBreakpoint(std::size_t step) const { return matchingBreakpoint(step) >= 0; }

void EarleyStepper::setBreakpoints(std::vector<Breakpoint> breakpoints) {
  breakpoints_ = std::move(breakpoints);
  emit breakpointsChanged();
}

void EarleyStepper::addBreakpoint(const Breakpoint& breakpoint) {
  if (std::find(breakpoints_.begin(), breakpoints_.end(), breakpoint) != breakpoints_.end()) return;
  breakpoints_.push_back(breakpoint);
  emit breakpointsChanged();
}

void EarleyStepper::removeBreakpoint(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= breakpoints_.size()) return;
  breakpoints_.erase(breakpoints_.begin() + index);
  emit breakpointsChanged();
}

void EarleyStepper::setSpeed(int operationsPerSecond) {
  speed_ = std::clamp(operationsPerSecond, 1, 1000);
  timer_->setInterval(std::max(1, 1000 / speed_));
}

bool EarleyStepper::isPlaying() const { return timer_->isActive(); }

void EarleyStepper::play() {
  if (!session_ || isPlaying()) return;
  if (atEnd()) setApplied(0);
  lastHit_ = -1;
  timer_->start();
  emit playingChanged(true);
}

void EarleyStepper::pause() {
  if (!isPlaying()) return;
  timer_->stop();
  emit playingChanged(false);
}

void EarleyStepper::togglePlay() {
  if (isPlaying()) {
    pause();
  } else {
    play();
  }
}

void EarleyStepper::onTick() {
  if (atEnd()) {
    pause();
    return;
  }
  const std::size_t step = applied_;
  const int hit = matchingBreakpoint(step);
  stepForward();
  if (hit >= 0) {
    lastHit_ = hit;
    pause();
    emit breakpointHit(hit, step);
  } else if (atEnd()) {
    pause();
  }
}

}  // namespace gwb::ui
