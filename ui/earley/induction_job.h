// InductionJob: one EM or VB run of core's induceGrammar (gwb/earley/induction.h) on a worker
// thread, reported to the UI thread through queued calls.
//
// InductionSettings is what the induction panel's form holds: files by path, the method, the
// priors (a global α and PATTERN=VALUE overrides, the last match winning, as `gwb induce
// --prior`), the stopping rule, threads and the initialisation. The job reads the grammar, the
// corpus (one sentence per non-blank line, split at spaces, as `gwb induce`) and an initial
// grammar on its worker thread, so that a 34,000-rule grammar never blocks the window, then runs
// the core driver with an observer that forwards progress.
//
// Threading: core never sees Qt. The run is a BackgroundJob (ui/common/background_job.h);
// JobObserver (in the .cpp) implements gwb::InductionObserver and posts each report through the
// job's context, so every signal below is emitted on the thread that owns the job (the UI
// thread), in the order the driver made the reports. Progress within an iteration is thinned to a
// few updates a second. cancel() sets the atomic flag the driver polls between sentences; the run
// then ends with StopReason::Cancelled and the grammar of the last completed iteration. Deleting a
// running job cancels it and waits for the worker.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>

#include "gwb/earley/induction.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

struct InductionSettings {
  QString label;  // the run's name in the legend; empty: made from the method and the files
  QString grammarPath;
  QString root;  // start symbol; empty: the format's default
  QString corpusPath;
  gwb::InductionMethod method = gwb::InductionMethod::Vb;
  double defaultPrior = 1.0;
  QStringList priors;   // PATTERN=VALUE, in order
  int iterations = 20;  // 0: until converged
  double tolerance = 1e-7;
  int threads = 1;
  quint64 seed = 1;
  gwb::InitMethod init = gwb::InitMethod::Given;
  double noise = 0.1;
  QString initGrammarPath;  // InitMethod::FromGrammar

  // The label, or "VB · grammar · corpus" when it is empty.
  QString displayName() const;
  // Every setting, one "name: value" per line, for the run list's details pane.
  QString describe() const;
  // The core options these settings give (initFrom left null). nullopt and *error naming the
  // prior (its line among `priors`, 1-based) when a pattern does not parse.
  std::optional<gwb::InductionOptions> coreOptions(QString* error = nullptr) const;
};

class InductionJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(InductionJob)

 public:
  explicit InductionJob(InductionSettings settings, QObject* parent = nullptr);
  ~InductionJob() override;

  const InductionSettings& settings() const { return settings_; }

  void start();

  // After finished(): the core's result (grammar, records, stop reason, diagnostics), with the
  // reading errors of the input files added to its diagnostics (then stopReason is Failed).
  const gwb::InductionResult& result() const { return result_; }
  std::size_t sentenceCount() const { return sentenceCount_; }

 signals:
  // The inputs are read: `sentences` non-blank lines, `rules` rules.
  void loaded(qint64 sentences, qint64 rules);
  // Within iteration `iteration`'s E-step, `done` of `total` sentences are parsed.
  void progress(int iteration, qint64 done, qint64 total);
  void iterationFinished(const gwb::IterationRecord& record);
  // The worker has ended (converged, stopped, cancelled or failed); see result().
  void finished();

 private:
  void run(JobContext& context);  // on the worker

  InductionSettings settings_;
  gwb::InductionResult result_;
  std::size_t sentenceCount_ = 0;
};

// Reads a corpus as `gwb induce` does: one sentence per line, blank lines skipped. False and
// *error when the file cannot be read or holds no sentence.
bool readInductionCorpus(const QString& path, std::vector<std::vector<std::string>>* sentences,
                         QString* error);

}  // namespace gwb::ui
