#include "ui/ds/ds_learning_job.h"

#include <utility>

#include "gwb/common/diagnostic.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {

// Posts core's per-item reports to the job's thread.
class PointObserver : public gwb::ds::LearningObserver {
 public:
  PointObserver(DsLearningJob* job, JobContext& context) : job_(job), context_(context) {}

  void onItem(const gwb::ds::LearningProgress& p, const gwb::ds::SemanticExample& example,
              const gwb::ds::ExampleHypotheses& hypotheses) override {
    LearningPoint point;
    point.items = static_cast<qint64>(p.itemsDone);
    point.total = static_cast<qint64>(p.itemsTotal);
    point.hypotheses = static_cast<qint64>(p.hypotheses);
    point.words = static_cast<qint64>(p.words);
    point.meanHypothesesPerItem = p.meanHypothesesPerItem;
    point.itemsWithoutTuples = static_cast<qint64>(p.itemsWithoutTuples);
    point.sentence = toQString(example.sentence);
    point.note = toQString(hypotheses.note);
    context_.setProgress(point.items, point.total);
    context_.post([job = job_, point] { emit job->itemLearned(point); });
  }

 private:
  DsLearningJob* job_;
  JobContext& context_;
};

QString firstError(const gwb::Diagnostics& diagnostics) {
  for (const gwb::Diagnostic& d : diagnostics)
    if (d.severity == gwb::Severity::Error) return toQString(gwb::toString(d));
  return {};
}

}  // namespace

DsLearningJob::DsLearningJob(QObject* parent) : JobBase(QStringLiteral("gwb-ds-learn"), parent) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] {
    if (error_.isEmpty() && !backgroundJob().errorText().isEmpty())
      error_ = backgroundJob().errorText();
    emit finished();
  });
}

// The work reads the job's members: it has returned before they go.
DsLearningJob::~DsLearningJob() { stopWork(); }

bool DsLearningJob::start(const DsLearningSettings& settings) {
  if (isBusy()) return false;
  settings_ = settings;
  seed_.reset();
  corpus_.clear();
  result_ = gwb::ds::LearningResult();
  error_.clear();
  hasResult_ = false;
  return backgroundJob().start([this](JobContext& context) { run(context); });
}

bool DsLearningJob::waitForFinished(int milliseconds) {
  return processEventsWhileBusy([this] { return isBusy(); }, [this] { wait(10); }, milliseconds);
}

void DsLearningJob::run(JobContext& context) {
  gwb::ds::DsGrammarLoad seed = gwb::ds::loadDsGrammar(toNativePath(settings_.seedDirectory));
  if (!seed.ok()) {
    error_ = firstError(seed.diagnostics);
    if (error_.isEmpty())
      error_ = tr("%1 is not a DyLan grammar folder").arg(settings_.seedDirectory);
    return;
  }
  gwb::Diagnostics diagnostics;
  std::vector<gwb::ds::SemanticExample> corpus =
      gwb::ds::loadSemanticCorpus(toNativePath(settings_.trainPath), diagnostics);
  if (diagnostics.hasErrors() || corpus.empty()) {
    error_ = diagnostics.hasErrors() ? firstError(diagnostics)
                                     : tr("%1 holds no training item").arg(settings_.trainPath);
    return;
  }
  seed_ = std::make_shared<const gwb::ds::DsGrammar>(std::move(seed.grammar));
  corpus_ = std::move(corpus);
  const auto count = static_cast<qint64>(corpus_.size());
  context.post([this, count] { emit loaded(count); });
  context.setProgress(0, count);

  const gwb::ds::HypothesisSearch search(*seed_);
  gwb::ds::LearningOptions options;
  options.threads = 1;
  options.batch = 1;  // Cancel is seen before every item
  options.heldOutMass = settings_.heldOutMass;
  options.cancel = &context.cancelFlag();
  PointObserver observer(this, context);
  const gwb::ds::HypothesisSearchOptions searchOptions = settings_.search;
  result_ = gwb::ds::learnLexicon(
      corpus_,
      [&](const gwb::ds::SemanticExample& example, std::size_t item) {
        if (hook_) hook_(item);
        return search.hypotheses(example, searchOptions);
      },
      options, &observer);
  hasResult_ = true;
}

}  // namespace gwb::ui
