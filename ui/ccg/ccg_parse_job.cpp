#include "ui/ccg/ccg_parse_job.h"

#include <chrono>
#include <utility>

namespace gwb::ui {

namespace ccg = gwb::ccg;

void runCcgParse(CcgParseRequest request, CcgParseOutcome& outcome,
                 const std::atomic<bool>* cancel) {
  outcome = CcgParseOutcome();
  outcome.lexicon = std::move(request.lexicon);
  outcome.words = std::move(request.words);
  if (!outcome.lexicon) {
    outcome.error = QStringLiteral("no lexicon to parse with");
    return;
  }
  if (outcome.words.empty()) {
    outcome.error = QStringLiteral("no words to parse");
    return;
  }
  if (request.options.beam < 1) {
    outcome.error = QStringLiteral("the beam must keep at least 1 entry per cell (it is %1)")
                        .arg(request.options.beam);
    return;
  }
  if (request.kBest < 1) {
    outcome.error =
        QStringLiteral("k must be at least 1 (the k best parses; it is %1)").arg(request.kBest);
    return;
  }
  request.options.cancel = cancel;  // set when the owner cancels or goes away mid-parse
  const auto start = std::chrono::steady_clock::now();
  auto chart = std::make_shared<ccg::CkyChart>(*outcome.lexicon, outcome.words, request.options);
  const int n = chart->length();
  outcome.cells = n * (n + 1) / 2;
  if (chart->cancelled() || (cancel != nullptr && cancel->load())) {
    outcome.cancelled = true;
    for (const ccg::ChartEvent& event : chart->events()) {
      outcome.cellsFilled += event.kind == ccg::ChartEvent::Kind::CellFinished ? 1 : 0;
    }
    return;
  }
  outcome.derivations = chart->kBest(request.kBest);
  outcome.steps = ccg::ckyReplay(*chart);
  outcome.chart = std::move(chart);
  outcome.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

CcgParseJob::CcgParseJob(QObject* parent) : JobBase(QStringLiteral("gwb-ccg-parse"), parent) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] {
    std::shared_ptr<CcgParseOutcome> outcome = std::move(running_);
    if (!outcome) return;
    if (!backgroundJob().errorText().isEmpty()) {
      // The work threw: whatever it made is not a finished parse.
      outcome->chart.reset();
      outcome->derivations.clear();
      outcome->steps.clear();
      outcome->error = backgroundJob().errorText();
    }
    outcome_ = std::move(outcome);
    emit finished();
  });
}

CcgParseJob::~CcgParseJob() = default;  // JobBase cancels the work and waits for it

bool CcgParseJob::start(CcgParseRequest request) {
  if (isBusy()) return false;
  auto outcome = std::make_shared<CcgParseOutcome>();
  running_ = outcome;
  return backgroundJob().start(
      [outcome, hook = hook_, request = std::move(request)](JobContext& context) mutable {
        if (hook) hook();
        runCcgParse(std::move(request), *outcome, &context.cancelFlag());
      });
}

}  // namespace gwb::ui
