// EarleyStepper: the debugger-like controls over a recorded parse.
//
// The stepper holds a ParseSession and a position, `applied`: how many of the parse's
// operations the chart shows (0: none yet; stepCount(): the finished chart). Every control is
// a jump to another position — the trace makes stepping back as cheap as stepping forward:
//   stepForward / stepBack   one operation;
//   nextWord                 through every scan of the next word (the next state set begins);
//   previousWord             back to where the previous nextWord would have stopped;
//   runToPosition(p)         until state set p is finished (its predictions are made);
//   runToEnd                 to the end, stopping after the first operation that matches a
//                            breakpoint;
//   reset                    back to 0.
// Breakpoints match an operation kind, a symbol, or both. What the symbol is matched against is
// the breakpoint's `match`: the left-hand side of the item the operation makes (or the word a
// scan reads); a finished item of the symbol ("PP completed": an operation makes PP → P NP •);
// or the finished child of a completion ("an item advanced over PP": VP → V NP • PP becomes
// VP → V NP PP •). Auto-play steps on a timer at
// `speed` operations a second and stops at the end or at a breakpoint.
// moved(applied, previous) is emitted after every change; views use `previous` to highlight
// what the move made.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/earley/earley_parser.h"

class QTimer;

namespace gwb::ui {

class ParseSession;

struct Breakpoint {
  enum class Match {
    Lhs,           // the LHS of the item the operation makes, or the word a scan reads
    Finished,      // an item of `symbol` is finished (its dot reaches the end)
    AdvancedOver,  // a completion moves an item's dot over a finished `symbol`
  };
  std::optional<gwb::OperationKind> kind;  // any kind when unset
  QString symbol;                          // any symbol when empty
  bool enabled = true;
  Match match = Match::Lhs;
  bool operator==(const Breakpoint& o) const {
    return kind == o.kind && symbol == o.symbol && enabled == o.enabled && match == o.match;
  }
  // "PP completed (a PP item finished)", "an item advanced over PP", "scan telescope", "NP" —
  // for the breakpoint list.
  QString describe() const;
};

class EarleyStepper : public QObject {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(EarleyStepper)

 public:
  explicit EarleyStepper(QObject* parent = nullptr);
  ~EarleyStepper() override;

  void setSession(std::shared_ptr<const ParseSession> session, std::size_t applied = 0);
  const std::shared_ptr<const ParseSession>& session() const { return session_; }
  std::size_t applied() const { return applied_; }
  std::size_t stepCount() const;
  bool atStart() const { return applied_ == 0; }
  bool atEnd() const { return applied_ >= stepCount(); }

  // Does operation `step` (0-based) hit an enabled breakpoint?
  bool hitsBreakpoint(std::size_t step) const;
  const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }
  void setBreakpoints(std::vector<Breakpoint> breakpoints);
  void addBreakpoint(const Breakpoint& breakpoint);
  void removeBreakpoint(int index);
  // The breakpoint that stopped the last run (-1 if none).
  int lastHitBreakpoint() const { return lastHit_; }

  // Operations per second while playing (1..1000).
  int speed() const { return speed_; }
  void setSpeed(int operationsPerSecond);
  bool isPlaying() const;

 public slots:
  void setApplied(std::size_t applied);
  void stepForward();
  void stepBack();
  void nextWord();
  void previousWord();
  void runToPosition(int position);
  void runToEnd();
  void reset();
  void play();
  void pause();
  void togglePlay();

 signals:
  void moved(std::size_t applied, std::size_t previous);
  void breakpointHit(int index, std::size_t step);
  void breakpointsChanged();
  void playingChanged(bool playing);

 private:
  int matchingBreakpoint(std::size_t step) const;
  // Could an operation of state set `set` hit an enabled breakpoint? (false: surely not)
  bool setMayHitBreakpoint(std::size_t set) const;
  void onTick();

  std::shared_ptr<const ParseSession> session_;
  std::size_t applied_ = 0;
  std::vector<Breakpoint> breakpoints_;
  int lastHit_ = -1;
  int speed_ = 4;
  QTimer* timer_ = nullptr;
};

}  // namespace gwb::ui
