#include "ui/earley/parse_session.h"

#include <algorithm>
#include <cmath>

#include <QLocale>

#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {

// Forwards every operation to the session's trace, publishes progress and answers the cancel
// flag. Plain C++: it runs on the worker thread and touches only atomics.
class WorkerObserver : public gwb::ParseObserver {
 public:
  WorkerObserver(gwb::ParseTrace& trace, std::atomic<int>* progress,
                 const std::atomic<bool>* cancel, std::function<void(int)> afterSet)
      : trace_(trace), progress_(progress), cancel_(cancel), afterSet_(std::move(afterSet)) {}

  void onEvent(const gwb::ParseEvent& event, const gwb::EarleyChart& chart) override {
    trace_.onEvent(event, chart);
  }
  void onSetFinished(int position, const gwb::EarleyChart& chart) override {
    trace_.onSetFinished(position, chart);
    if (progress_) progress_->store(position, std::memory_order_relaxed);
    if (afterSet_) afterSet_(position);
  }
  bool stopRequested() const override {
    return cancel_ != nullptr && cancel_->load(std::memory_order_relaxed);
  }

 private:
  gwb::ParseTrace& trace_;
  std::atomic<int>* progress_;
  const std::atomic<bool>* cancel_;
  std::function<void(int)> afterSet_;
};

}  // namespace

std::shared_ptr<const ParseSession> ParseSession::run(const ParseRequest& request,
                                                      std::atomic<int>* progress,
                                                      const std::atomic<bool>* cancel) {
  std::shared_ptr<ParseSession> session(new ParseSession());
  session->grammar_ = request.grammar;
  session->words_ = request.words;
  session->mode_ = request.mode;
  session->lookahead_ = request.lookahead;
  session->compiled_ = request.compiled;
  if (!session->compiled_) {
    gwb::Diagnostics diagnostics;
    std::optional<gwb::CompiledGrammar> compiled =
        request.grammar ? gwb::CompiledGrammar::compile(*request.grammar, diagnostics)
                        : std::nullopt;
    if (!compiled) {
      session->outcome_ = Outcome::GrammarError;
      for (const gwb::Diagnostic& d : diagnostics) {
        if (d.severity != gwb::Severity::Error) continue;
        if (!session->errorText_.isEmpty()) session->errorText_ += QLatin1Char('\n');
        session->errorText_ += toQString(d.message);
      }
      if (session->errorText_.isEmpty())
        session->errorText_ = QObject::tr("The grammar cannot be compiled for parsing.");
      return session;
    }
    session->compiled_ = std::make_shared<const gwb::CompiledGrammar>(std::move(*compiled));
  }

  WorkerObserver observer(session->trace_, progress, cancel, request.afterSet);
  gwb::ParseOptions options;
  options.mode = request.mode;
  options.lookahead = request.lookahead;
  options.viterbi = true;
  options.observer = &observer;
  gwb::EarleyParser parser(*session->compiled_);
  session->result_ = parser.parse(session->words_, options, session->chart_);
  session->trace_.finish(session->chart_, options);
  session->chart_.releaseWorkingMemory();  // the session reads the chart, it does not parse again
  constexpr std::size_t kMinimumBudget = std::size_t{256} << 20U;
  session->trace_.setDetailBudget(request.traceBudgetBytes > 0
                                      ? request.traceBudgetBytes
                                      : std::max(kMinimumBudget, session->chart_.storageBytes()));
  if (session->result_.cancelled) session->outcome_ = Outcome::Cancelled;
  return session;
}

bool ParseSession::steppable() const { return trace_.everySetFits(); }

QString ParseSession::tooLargeText() const {
  if (steppable()) return {};
  const std::size_t set = trace_.largestSet();
  const double megabytes = static_cast<double>(trace_.detailBytes(set)) / (1024.0 * 1024.0);
  const double budget = static_cast<double>(trace_.detailBudget()) / (1024.0 * 1024.0);
  return QObject::tr(
             "Too large to step through: state set %1 alone has %2 operations, which "
             "would need %3 MB to show one by one (the limit is %4 MB). The finished "
             "chart, tree and probabilities are shown.")
      .arg(set)
      .arg(QLocale().toString(static_cast<qulonglong>(trace_.operationsOfSet(set))))
      .arg(QLocale().toString(megabytes, 'f', 0), QLocale().toString(budget, 'f', 0));
}

std::size_t ParseSession::stepsBeforeSet(std::size_t set) const {
  return trace_.firstStepOfSet(set);
}

std::size_t ParseSession::currentSet(std::size_t applied) const {
  const std::size_t steps = stepCount();
  if (steps == 0) return 0;
  if (applied >= steps) return trace_.setOfStep(steps - 1);
  return trace_.setOfStep(applied);
}

std::optional<gwb::ParseTrace::ItemState> ParseSession::stateAfter(gwb::ItemRef item,
                                                                   std::size_t applied) const {
  if (applied == 0 || !item.valid()) return std::nullopt;
  return trace_.stateAt(item, std::min(applied, stepCount()) - 1);
}

double ParseSession::logForward(gwb::ItemRef item, double stored) const {
  if (mode_ == gwb::NumericMode::Log) return stored;
  return std::log(stored) + chart_.logScaleUpTo(static_cast<std::size_t>(item.set));
}

double ParseSession::logInner(gwb::ItemRef item, double stored) const {
  return logInnerOfSpan(chart_.item(item).origin, item.set, stored);
}

double ParseSession::logInnerOfSpan(int origin, int set, double stored) const {
  if (mode_ == gwb::NumericMode::Log) return stored;
  return std::log(stored) + chart_.logScaleUpTo(static_cast<std::size_t>(set)) -
         chart_.logScaleUpTo(static_cast<std::size_t>(origin));
}

QString ParseSession::itemText(gwb::ItemRef item) const {
  QString text = toQString(chart_.itemText(item));
  text.replace(QStringLiteral(" -> "), QStringLiteral(" \u2192 "));
  return text;
}

gwb::SymbolId ParseSession::lhs(gwb::ItemRef item) const {
  return compiled_->rule(chart_.item(item).rule).lhs;
}

QString ParseSession::symbolName(gwb::SymbolId symbol) const {
  if (symbol == compiled_->goal()) return QStringLiteral("GOAL");
  if (symbol < 0) return {};
  return toQString(compiled_->symbols().name(symbol));
}

std::optional<gwb::SymbolId> ParseSession::findSymbol(const QString& name) const {
  if (name == QLatin1String("GOAL")) return compiled_->goal();
  return compiled_->symbols().findNonterminal(name.toStdString());
}

bool ParseSession::isFinished(gwb::ItemRef item) const {
  const gwb::EarleyItem& it = chart_.item(item);
  return static_cast<std::size_t>(it.dot) == compiled_->rule(it.rule).rhs.size();
}

std::vector<gwb::ItemRef> ParseSession::itemsWaitingFor(std::size_t set, std::size_t step,
                                                        gwb::SymbolId y) const {
  std::vector<gwb::ItemRef> found;
  const gwb::CompiledGrammar& grammar = *compiled_;
  const std::size_t count = trace_.visibleItems(set, step);
  for (std::size_t k = 0; k < count; ++k) {
    const gwb::ItemRef ref{static_cast<std::int32_t>(set), static_cast<std::int32_t>(k)};
    const gwb::EarleyItem& it = chart_.item(ref);
    if (it.predicted) continue;
    const gwb::CompiledRule& rule = grammar.rule(it.rule);
    if (static_cast<std::size_t>(it.dot) >= rule.rhs.size()) continue;
    const gwb::SymbolId z = rule.rhs[static_cast<std::size_t>(it.dot)];
    if (z == grammar.goal() || !grammar.symbols().isNonterminal(z)) continue;
    const auto& row = grammar.leftCorner(z);
    if (std::any_of(row.begin(), row.end(),
                    [y](const gwb::ClosureEntry& e) { return e.symbol == y; }))
      found.push_back(ref);
  }
  return found;
}

std::vector<gwb::ItemRef> ParseSession::constituentItems(gwb::ItemRef child,
                                                         std::size_t step) const {
  std::vector<gwb::ItemRef> found;
  if (!child.valid()) return found;
  const gwb::CompiledGrammar& grammar = *compiled_;
  const gwb::EarleyItem& c = chart_.item(child);
  const gwb::SymbolId y = grammar.rule(c.rule).lhs;
  const std::size_t count = trace_.visibleItems(static_cast<std::size_t>(child.set), step);
  for (std::size_t k = 0; k < count; ++k) {
    const gwb::ItemRef ref{child.set, static_cast<std::int32_t>(k)};
    const gwb::EarleyItem& it = chart_.item(ref);
    const gwb::CompiledRule& rule = grammar.rule(it.rule);
    if (it.origin == c.origin && rule.lhs == y && !rule.unit &&
        static_cast<std::size_t>(it.dot) == rule.rhs.size())
      found.push_back(ref);
  }
  return found;
}

std::vector<gwb::ItemRef> ParseSession::antecedents(gwb::ItemRef item, std::size_t applied) const {
  std::vector<gwb::ItemRef> found;
  if (!item.valid() || !steppable() || !stateAfter(item, applied)) return found;
  const auto append = [&found](const std::vector<gwb::ItemRef>& more) {
    found.insert(found.end(), more.begin(), more.end());
  };
  for (const std::size_t step : trace_.stepsOf(item)) {
    if (step >= applied) break;
    const gwb::ParseEvent e = trace_.event(step);
    switch (e.kind) {
      case gwb::OperationKind::Init: break;
      case gwb::OperationKind::Predict:
        append(itemsWaitingFor(static_cast<std::size_t>(e.item.set), step, lhs(e.item)));
        break;
      case gwb::OperationKind::Scan:
        if (e.predecessor.valid()) {
          found.push_back(e.predecessor);
        } else {
          append(itemsWaitingFor(static_cast<std::size_t>(e.item.set - 1), step, lhs(e.item)));
        }
        break;
      case gwb::OperationKind::Complete:
        found.push_back(e.predecessor);
        append(constituentItems(e.child, step));
        break;
    }
  }
  std::sort(found.begin(), found.end(), [](const gwb::ItemRef& a, const gwb::ItemRef& b) {
    return a.set != b.set ? a.set < b.set : a.index < b.index;
  });
  found.erase(std::unique(found.begin(), found.end()), found.end());
  found.erase(std::remove(found.begin(), found.end(), item), found.end());
  return found;
}

ParseJob::ParseJob(ParseRequest request, QObject* parent)
    : JobBase(QStringLiteral("gwb-parse"), parent),
      request_(std::move(request)),
      total_(static_cast<int>(request_.words.size())) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] { emit finished(session_); });
}

// The work reads the job's members: it has returned before they go.
ParseJob::~ParseJob() { stopWork(); }

void ParseJob::start() {
  if (session_ || isBusy()) return;  // one parse per job
  backgroundJob().start([this](JobContext& context) {
    session_ = ParseSession::run(request_, &progress_, &context.cancelFlag());
  });
}

QString ParseJob::errorText() const { return backgroundJob().errorText(); }

}  // namespace gwb::ui
