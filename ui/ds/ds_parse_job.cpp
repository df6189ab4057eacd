#include "ui/ds/ds_parse_job.h"

#include <chrono>
#include <utility>

#include "gwb/common/diagnostic.h"

namespace gwb::ui {

void runDsParse(DsParseRequest request, DsParseOutcome& outcome, const std::atomic<bool>* cancel) {
  outcome = DsParseOutcome();
  outcome.directory = request.directory;
  outcome.grammar = std::move(request.grammar);
  outcome.words = std::move(request.words);
  request.options.cancel = cancel;  // set when the owner cancels or goes away mid-parse
  if (!outcome.grammar) {
    gwb::ds::DsGrammarLoad load = gwb::ds::loadDsGrammar(outcome.directory.toStdString());
    if (!load.ok()) {
      for (const gwb::Diagnostic& d : load.diagnostics) {
        if (d.severity == gwb::Severity::Error) {
          outcome.error = QString::fromStdString(gwb::toString(d));
          break;
        }
      }
      return;
    }
    outcome.grammar = std::make_shared<const gwb::ds::DsGrammar>(std::move(load.grammar));
  }
  const auto start = std::chrono::steady_clock::now();
  const gwb::ds::DsParser parser(*outcome.grammar);
  outcome.result =
      std::make_shared<const gwb::ds::DsParseResult>(parser.parse(outcome.words, request.options));
  outcome.parseMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

DsParseJob::DsParseJob(QObject* parent) : JobBase(QStringLiteral("gwb-ds-parse"), parent) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] {
    std::shared_ptr<DsParseOutcome> outcome = std::move(running_);
    if (!outcome) return;
    if (outcome->error.isEmpty()) outcome->error = backgroundJob().errorText();
    outcome_ = std::move(outcome);
    emit finished();
  });
}

DsParseJob::~DsParseJob() = default;  // JobBase cancels the work and waits for it

bool DsParseJob::start(DsParseRequest request) {
  if (isBusy()) return false;
  auto outcome = std::make_shared<DsParseOutcome>();
  running_ = outcome;
  return backgroundJob().start([outcome, request = std::move(request)](JobContext& context) {
    runDsParse(request, *outcome, &context.cancelFlag());
  });
}

}  // namespace gwb::ui
