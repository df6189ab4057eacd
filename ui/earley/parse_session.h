// ParseSession: one recorded parse of one sentence with one grammar — what the Earley stepper,
// the surprisal strip and the tree view show — and ParseJob, which builds one off the UI thread.
//
// A session owns everything the views read: the grammar (shared with its document), the
// compiled grammar, the words, the final chart, the trace of every operation and the result.
// It is immutable once built and shared (std::shared_ptr<const ParseSession>) by every view of
// it, so the views never see a half-made parse. The stepper shows the chart "after `applied`
// operations": an item exists when trace().stateAt(item, applied - 1) does, with the values
// that call gives. applied runs from 0 (nothing yet) to stepCount() (the finished chart).
//
// Stored values are in the chart's numeric representation (ParseEvent, EarleyItem): in scaled
// mode a forward value of set r is divided by the prefix probability of words 0..r-1, an inner
// value of [l, r] by that of words l..r-1. logForward/logInner turn a stored value into a true
// log probability using the scale factors of the finished chart.
//
// ParseJob runs compile (when no compiled grammar is given) and parse on a worker thread (a
// BackgroundJob, ui/common/background_job.h); the UI polls progress() (the last finished state
// set), may cancel(), and gets finished() on its own thread. Core's observer stays plain C++: a
// ParseTrace subclass here stores the progress in an atomic and answers stopRequested() from the
// cancel flag.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/parse_trace.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

// The inputs of a parse. `compiled`, when set, must have been compiled from `grammar`.
struct ParseRequest {
  std::shared_ptr<const gwb::Grammar> grammar;
  std::shared_ptr<const gwb::CompiledGrammar> compiled;
  std::vector<std::string> words;
  gwb::NumericMode mode = gwb::NumericMode::Scaled;
  bool lookahead = true;
  // Called on the worker thread after each finished state set, before the cancel flag is read.
  // Tests use it to hold a parse open until they have cancelled it, so that no test depends on
  // how fast the machine parses.
  std::function<void(int position)> afterSet;
  // Memory for the operations of the state sets made again for stepping (parse_trace.h).
  // 0: as much as the finished chart takes, and at least 256 MiB — so that the workbench holds
  // about twice what `gwb parse` holds. A parse whose largest set needs more is shown finished,
  // with a message (ParseSession::steppable).
  std::size_t traceBudgetBytes = 0;
};

class ParseSession {
 public:
  // What stopped a run early (besides the words having no parse, which is a normal result).
  enum class Outcome { Parsed, Cancelled, GrammarError };

  // Compiles (if needed) and parses synchronously, recording every operation. `progress`
  // receives the number of the last finished state set; `cancel` stops the parse at the next
  // state set. Never returns null: on a grammar error the session has no chart and
  // errorText() says why.
  static std::shared_ptr<const ParseSession> run(const ParseRequest& request,
                                                 std::atomic<int>* progress = nullptr,
                                                 const std::atomic<bool>* cancel = nullptr);

  Outcome outcome() const { return outcome_; }
  const QString& errorText() const { return errorText_; }
  bool hasChart() const { return outcome_ != Outcome::GrammarError; }

  const gwb::Grammar& grammar() const { return *grammar_; }
  std::shared_ptr<const gwb::Grammar> sharedGrammar() const { return grammar_; }
  const gwb::CompiledGrammar& compiled() const { return *compiled_; }
  std::shared_ptr<const gwb::CompiledGrammar> sharedCompiled() const { return compiled_; }
  const std::vector<std::string>& words() const { return words_; }
  const gwb::EarleyChart& chart() const { return chart_; }
  const gwb::ParseTrace& trace() const { return trace_; }
  const gwb::ParseResult& result() const { return result_; }
  gwb::NumericMode mode() const { return mode_; }
  bool lookahead() const { return lookahead_; }

  std::size_t stepCount() const { return trace_.stepCount(); }
  // Can every operation be shown one by one within the trace's memory budget (parse_trace.h)?
  // If not, the views show the finished chart only, and tooLargeText() says why.
  bool steppable() const;
  QString tooLargeText() const;
  std::size_t setCount() const { return chart_.setCount(); }
  // How many operations come before the first one on set `set` (stepCount() past the end).
  std::size_t stepsBeforeSet(std::size_t set) const;
  // The state set the next operation works on after `applied` operations (the last set once
  // all are applied).
  std::size_t currentSet(std::size_t applied) const;

  // Does the item exist after `applied` operations, and with which stored values?
  std::optional<gwb::ParseTrace::ItemState> stateAfter(gwb::ItemRef item,
                                                       std::size_t applied) const;
  // Stored values as true log probabilities (see the header comment).
  double logForward(gwb::ItemRef item, double stored) const;
  double logInner(gwb::ItemRef item, double stored) const;
  // The same for an inner value of an arbitrary span [origin, set].
  double logInnerOfSpan(int origin, int set, double stored) const;

  // "[0, 2] NP → Det N ." with a real arrow.
  QString itemText(gwb::ItemRef item) const;
  // The item's left-hand side (GOAL for the goal rule) and its name.
  gwb::SymbolId lhs(gwb::ItemRef item) const;
  QString symbolName(gwb::SymbolId symbol) const;
  // The nonterminal (or GOAL) of that name, as symbolName() spells it.
  std::optional<gwb::SymbolId> findSymbol(const QString& name) const;
  bool isFinished(gwb::ItemRef item) const;

  // Items of set `set` that exist after operation `step` and wait on a nonterminal whose
  // left-corner closure reaches `y`: the items whose forward mass predicted y there.
  std::vector<gwb::ItemRef> itemsWaitingFor(std::size_t set, std::size_t step,
                                            gwb::SymbolId y) const;
  // The finished items summed into the constituent (LHS, origin) of `child` after `step`.
  std::vector<gwb::ItemRef> constituentItems(gwb::ItemRef child, std::size_t step) const;
  // The antecedents of `item` over the operations applied so far: for a completion the
  // advanced item and the items of the completed constituent, for a scan the advanced item
  // (or, for a lexical item, the items whose prediction mass it used), for a prediction the
  // waiting items. Sorted, without duplicates, without the item itself.
  std::vector<gwb::ItemRef> antecedents(gwb::ItemRef item, std::size_t applied) const;

 private:
  ParseSession() = default;

  Outcome outcome_ = Outcome::Parsed;
  QString errorText_;
  std::shared_ptr<const gwb::Grammar> grammar_;
  std::shared_ptr<const gwb::CompiledGrammar> compiled_;
  std::vector<std::string> words_;
  gwb::NumericMode mode_ = gwb::NumericMode::Scaled;
  bool lookahead_ = true;
  gwb::EarleyChart chart_;
  gwb::ParseTrace trace_;
  gwb::ParseResult result_;
};

// Runs ParseSession::run on a worker thread. One job per parse; delete it (or let its parent
// do so) to cancel and wait.
class ParseJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(ParseJob)

 public:
  explicit ParseJob(ParseRequest request, QObject* parent = nullptr);
  ~ParseJob() override;

  void start();
  // The last finished state set, and how many there will be.
  int progress() const { return progress_.load(); }
  int total() const { return total_; }
  // Why the parse ended without a session (it threw, e.g. ran out of memory); empty otherwise.
  QString errorText() const;

 signals:
  // Emitted on the job's thread once the worker is done (also after a cancel).
  void finished(std::shared_ptr<const gwb::ui::ParseSession> session);

 private:
  ParseRequest request_;
  int total_ = 0;
  std::atomic<int> progress_{0};
  std::shared_ptr<const ParseSession> session_;
};

}  // namespace gwb::ui
