// ExperimentJob: the grounded word-learning experiments of `gwb experiment social`
// (gwb/grounded/social_experiment.h) on a worker thread, one run per seed, reported to the UI
// thread.
//
// ExperimentSpec is one form's worth: the model (em, vb, discourse, discourse+init), the cue set
// (all, none, drop:CUE, only:CUE), the Word.t prior α, at most `iterations` iterations (0: to
// convergence), the seeds, threads, and the corpus, gold annotation and recordings table (by
// default those of ../shared, as the CLI). The job reads and checks the inputs as the CLI does
// (the gold aligned with the corpus, the recordings checked against it, the gold dictionary from
// the gold annotation), then calls runSocialExperiment once per seed and reports each seed's
// ExperimentOutcome: the paper's metric row (percentages) and the final free energy.
//
// Threading as InductionJob (a BackgroundJob): core's observer posts its reports through the
// job's context, so every signal is emitted on the job's (UI) thread in order; cancel() sets the
// flag the training driver polls between sentences; the seed under way then ends without an outcome
// and no later seed starts.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/earley/induction.h"
#include "gwb/grounded/social_experiment.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

// The paper's columns (Tables 2–5), in order.
enum class ExperimentMetric {
  Accuracy,
  TopicF1,
  TopicPrecision,
  TopicRecall,
  WordF1,
  WordPrecision,
  WordRecall,
  LexiconF1,
  LexiconPrecision,
  LexiconRecall,
  FreeEnergy,
  Count
};
inline constexpr int kExperimentMetricCount = static_cast<int>(ExperimentMetric::Count);
using ExperimentValues = std::array<double, kExperimentMetricCount>;
// A row with every value missing (NaN).
inline ExperimentValues missingExperimentValues() {
  ExperimentValues values;
  values.fill(std::numeric_limits<double>::quiet_NaN());
  return values;
}
// "acc", "topic_f1", ... (CSV); and the column titles.
const char* experimentMetricKey(ExperimentMetric metric);
QString experimentMetricTitle(ExperimentMetric metric);
// The metric row of a core result, as the CLI prints it (free energy NaN for EM).
ExperimentValues experimentValues(const gwb::SocialExperimentResult& result);

struct ExperimentSpec {
  gwb::SocialModel model = gwb::SocialModel::Vb;
  QString cues = QStringLiteral("all");
  double alpha = 0.001;
  int iterations = 0;
  double tolerance = 1e-7;
  std::vector<quint64> seeds{1};
  int threads = 1;
  QString corpusPath;
  QString goldPath;
  QString recordingsPath;  // empty: the whole corpus is one recording

  // The spec with the default files of ../shared filled in where paths are empty (recordings
  // only when the default table exists).
  ExperimentSpec withDefaultFiles() const;
  // What makes two specs the same table row: everything but the seeds and threads.
  QString groupKey() const;
  QString describe() const;
};

// "1-5", "1,3,7", "2-4,9"; false and *error on anything else (or an empty list).
bool parseSeedList(const QString& text, std::vector<quint64>* seeds, QString* error = nullptr);
QString seedListText(const std::vector<quint64>& seeds);
// Applies "key=value;..." (model, cues, alpha, iterations, tolerance, seeds, threads, corpus,
// gold, recordings) for the command line's `--experiment SPEC`.
bool applyExperimentSpec(ExperimentSpec* spec, const QString& text, QString* error);
// ../shared/RELATIVE: $GWB_SHARED_DIR, else the first `shared` folder beside the working
// directory or beside a parent of the program's folder; empty when none has it.
QString sharedDataFile(const QString& relative);

struct ExperimentOutcome {
  quint64 seed = 0;
  ExperimentValues values = missingExperimentValues();
  double negLogLikelihood = 0.0;
  int iterations = 0;
  double seconds = 0.0;
  QString stopMessage;
};

class ExperimentJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(ExperimentJob)

 public:
  explicit ExperimentJob(ExperimentSpec spec, QObject* parent = nullptr);
  ~ExperimentJob() override;

  const ExperimentSpec& spec() const { return spec_; }
  void start();
  bool wasCancelled() const { return isCancelRequested(); }
  // After finished(): what went wrong (file, line, message), empty if nothing did.
  const QString& error() const { return error_; }

 signals:
  void loaded(qint64 utterances, qint64 recordings);
  // Seed number `seedIndex` (0-based) of the spec's seeds is training: in `iteration`'s
  // E-step, `done` of `total` strings are parsed.
  void progress(int seedIndex, int iteration, qint64 done, qint64 total);
  void iterationFinished(int seedIndex, const gwb::IterationRecord& record);
  void seedFinished(const gwb::ui::ExperimentOutcome& outcome);
  void finished();

 private:
  void run(JobContext& context);  // on the worker

  ExperimentSpec spec_;
  QString error_;
};

}  // namespace gwb::ui
