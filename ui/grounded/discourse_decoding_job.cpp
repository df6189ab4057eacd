#include "ui/grounded/discourse_decoding_job.h"

#include <algorithm>
#include <utility>

#include <QFileInfo>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/grounded/social_grammar.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

// What the worker writes: a new one for every start().
struct DiscourseDecodingJob::Run {
  std::shared_ptr<ModelDecoding> result = std::make_shared<ModelDecoding>();
  QString error;
};

DiscourseDecodingJob::DiscourseDecodingJob(QObject* parent)
    : JobBase(QStringLiteral("gwb-decode"), parent) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] {
    const std::shared_ptr<Run> run = std::move(running_);
    if (!run) return;
    result_ = run->result;
    error_ = run->error.isEmpty() ? backgroundJob().errorText() : run->error;
    emit finished();
  });
}

DiscourseDecodingJob::~DiscourseDecodingJob() =
    default;  // JobBase cancels the work and waits for it

bool DiscourseDecodingJob::start(const DiscourseData* data, DiscourseDecodingRequest request) {
  if (isBusy() || data == nullptr) return false;
  auto run = std::make_shared<Run>();
  run->result->grammarPath = request.grammarPath;
  run->result->grammarName =
      QFileInfo(QString::fromStdString(request.grammarPath)).fileName().toStdString();
  running_ = run;
  return backgroundJob().start([run, data, request = std::move(request)](JobContext& context) {
    gwb::GrammarReadOptions options;
    options.root = request.root;
    options.runChecks = false;
    const gwb::GrammarLoad load = gwb::loadGrammarFile(request.grammarPath, options);
    if (!load.ok()) {
      run->error = errorLines(load.diagnostics);
      return;
    }
    gwb::Diagnostics diagnostics;
    const auto compiled =
        gwb::CompiledGrammar::compile(load.grammar, diagnostics, request.grammarPath);
    if (!compiled) {
      run->error = errorLines(diagnostics);
      return;
    }
    const bool discourse = isDiscourseGrammar(load.grammar);
    const std::vector<std::string> cues = grammarCues(load.grammar, data->corpus().cueOrder);
    const auto total =
        static_cast<qint64>(discourse ? data->recordings().size() : data->utteranceCount());
    context.setProgress(0, total);
    const BatchRelay batch(context, std::max(1, request.threads));
    ModelDecoding& result = *run->result;
    const std::string path = result.grammarPath;
    const std::string name = result.grammarName;
    result = decodeWithTrees(*compiled, data->corpus(), data->recordings(), discourse, cues,
                             batch.control());
    result.grammarPath = path;
    result.grammarName = name;
    result.root =
        load.grammar.start() ? load.grammar.symbols().name(*load.grammar.start()) : std::string();
  });
}

}  // namespace gwb::ui
