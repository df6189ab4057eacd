#include "ui/grounded/transition_count_job.h"

#include <algorithm>
#include <utility>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/grounded/social_grammar.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

// What the worker writes: a new one for every start().
struct TransitionCountJob::Run {
  std::vector<std::shared_ptr<gwb::TransitionCounts>> counts;
  QString error;
};

TransitionCountJob::TransitionCountJob(QObject* parent)
    : JobBase(QStringLiteral("gwb-transitions"), parent) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] {
    const std::shared_ptr<Run> run = std::move(running_);
    if (!run) return;
    counts_ = run->counts;
    error_ = run->error.isEmpty() ? backgroundJob().errorText() : run->error;
    emit finished();
  });
}

TransitionCountJob::~TransitionCountJob() = default;  // JobBase cancels the work and waits for it

bool TransitionCountJob::cancelled() const {
  return std::any_of(counts_.begin(), counts_.end(),
                     [](const auto& counts) { return counts->cancelled; });
}

bool TransitionCountJob::start(const gwb::SocialCorpus* corpus,
                               const std::vector<gwb::Recording>* recordings,
                               std::vector<TransitionCountSource> sources, int threads) {
  if (isBusy() || corpus == nullptr || recordings == nullptr) return false;
  auto run = std::make_shared<Run>();
  for (std::size_t i = 0; i < sources.size(); ++i)
    run->counts.push_back(std::make_shared<gwb::TransitionCounts>());
  running_ = run;
  const auto total = static_cast<qint64>(recordings->size()) * static_cast<qint64>(sources.size());
  return backgroundJob().start([run, corpus, recordings, sources = std::move(sources),
                                threads = std::max(1, threads), total](JobContext& context) {
    context.setProgress(0, total);
    std::size_t before = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const TransitionCountSource& source = sources[i];
      gwb::Diagnostics diagnostics;
      const auto compiled = gwb::CompiledGrammar::compile(*source.grammar, diagnostics);
      if (!compiled) {
        run->error = errorLines(diagnostics);
        return;
      }
      const std::vector<std::string> cues = grammarCues(*source.grammar, corpus->cueOrder);
      const BatchRelay batch(context, threads, static_cast<qint64>(before), total);
      *run->counts[i] = gwb::expectedTransitionCounts(*compiled, source.transitions, *corpus,
                                                      *recordings, cues, batch.control());
      before += recordings->size();
      if (run->counts[i]->cancelled) return;
    }
  });
}

}  // namespace gwb::ui
