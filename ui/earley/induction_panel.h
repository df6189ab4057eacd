// InductionPanel: EM and VB runs of the core's induction driver from a form, with live curves.
//
// Left, the form (grammar, root, corpus, method, global prior and PATTERN=VALUE priors,
// iterations, tolerance, threads, initialisation with seed and noise or an initial grammar, a
// label), Run and Cancel, and a progress bar that fills within each iteration's E-step. Below
// it the run list (InductionRunModel): every run keeps its settings; a check box hides it from
// the plot; the selected run's settings and outcome are shown underneath; it can be removed,
// and its learned grammar saved (atomically: Earleyx .iogrammar with the prior column, or
// NLTK for .cfg/.pcfg). Right, the FreeEnergyPlot of all runs, and exports of the curves as
// CSV, PNG or PDF.
//
// Runs go one at a time, in the order they were started: Run while a run is going queues the
// form's settings. Each run is an InductionJob on its own worker thread, so the window stays
// responsive; Cancel stops the current run at its next sentence and keeps the grammar of its
// last completed iteration (a usable grammar, which can be saved). Form errors (a bad number, a
// prior that does not parse, a missing file) are reported in the status line and start
// nothing; errors reading the inputs end the run as "failed" with the reader's diagnostics.
//
// state()/restoreState() are what a workspace keeps (workspace.h, kind "induction"): the form,
// the free-energy choice, the selected run, and every run with its settings, status, message and
// iteration records, so that a restored run shows its curves at once, without training again.
// A learned grammar is kept by the file it was saved to (Save Grammar…) and read back from it;
// a run whose grammar was never saved, or was running when the workspace was saved, comes back
// with its curves and a note to use Re-run (a new run with the same settings). A restore that
// can only partly succeed says what it could not in the status line (restoreNotice()).
#pragma once

#include <deque>
#include <memory>

#include <QJsonObject>
#include <QWidget>

#include "ui/common/job_progress_bar.h"
#include "ui/earley/induction_job.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeView;

namespace gwb::ui {

class FreeEnergyPlot;
class InductionRunModel;

// Applies "key=value;key=value" to *settings (keys: label, grammar, root, corpus, method,
// default-prior, prior (repeatable), iterations, tolerance, threads, seed, init = given |
// uniform | PATH, noise). For the command line (`--induce SPEC`). False and *error on an
// unknown key or a bad value.
bool applyInductionSpec(InductionSettings* settings, const QString& spec, QString* error);

class InductionPanel : public QWidget {
  Q_OBJECT

 public:
  explicit InductionPanel(QWidget* parent = nullptr);
  ~InductionPanel() override;

  void setSettings(const InductionSettings& settings);
  // The form's settings. *error (when given) names the first field that does not hold a valid
  // value; the returned settings then keep that field's default.
  InductionSettings settings(QString* error = nullptr) const;

  // Starts (or, while a run is going, queues) a run with the form's settings, or `settings`.
  // Returns its id; -1 (and *error, also shown in the status line) when the form is invalid.
  int startRun(QString* error = nullptr);
  int startRun(const InductionSettings& settings, QString* error = nullptr);
  // Cancels the current run and drops the queued ones.
  void cancelRun();
  bool isBusy() const;
  // Processes events until no run is going or queued; false on timeout (tests, screenshots).
  bool waitUntilIdle(int milliseconds);

  InductionRunModel* runModel() const { return runs_; }
  FreeEnergyPlot* plot() const { return plot_; }
  QProgressBar* progressBar() const { return jobBar_->bar(); }
  QLabel* statusLabel() const { return status_; }
  int selectedRunId() const;
  void selectRun(int id);
  void removeRun(int id);
  // Starts a new run with the settings of run `id` (Re-run); its id, or -1.
  int rerun(int id, QString* error = nullptr);

  QJsonObject state() const;
  // Replaces the runs (none may be going: false, nothing changed, while busy).
  bool restoreState(const QJsonObject& state);
  const QString& restoreNotice() const { return notice_; }

  // Writes a run's learned grammar atomically (see the top of this file) and remembers the
  // file as the run's (workspaces read it back from there).
  bool saveGrammar(int id, const QString& path, QString* error = nullptr);
  // The visible runs' curves: run,label,method,iteration,neg_log_likelihood,free_energy,
  // variational_free_energy,objective,live_rules,seconds,failures (values as %.17g; EM's
  // free energies empty).
  QString curvesCsv() const;
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  bool exportPng(const QString& path, QString* error = nullptr) const;
  bool exportPdf(const QString& path, QString* error = nullptr) const;

 signals:
  void runStarted(int id);
  void runFinished(int id);
  // No run is going and none is queued.
  void idle();

 private:
  QWidget* createForm();
  QWidget* createRunList();
  void startNext();
  void onJobFinished();
  void updateControls();
  void updateDetails();
  void showStatus(const QString& text, bool error = false);
  void browse(QLineEdit* edit, const QString& title, const QString& filter);
  void saveSelectedGrammar();
  void exportCurves(const QString& kind);

  // The form.
  QLineEdit* grammarEdit_ = nullptr;
  QLineEdit* rootEdit_ = nullptr;
  QLineEdit* corpusEdit_ = nullptr;
  QComboBox* methodCombo_ = nullptr;
  QLineEdit* defaultPriorEdit_ = nullptr;
  QPlainTextEdit* priorsEdit_ = nullptr;
  QSpinBox* iterationsSpin_ = nullptr;
  QLineEdit* toleranceEdit_ = nullptr;
  QSpinBox* threadsSpin_ = nullptr;
  QComboBox* initCombo_ = nullptr;
  QSpinBox* seedSpin_ = nullptr;
  QLineEdit* noiseEdit_ = nullptr;
  QLineEdit* initGrammarEdit_ = nullptr;
  QPushButton* initGrammarBrowse_ = nullptr;
  QLineEdit* labelEdit_ = nullptr;
  QPushButton* runButton_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;
  QLabel* status_ = nullptr;

  // The run list and the plot.
  InductionRunModel* runs_ = nullptr;
  QTreeView* runView_ = nullptr;
  QPlainTextEdit* details_ = nullptr;
  QPushButton* removeButton_ = nullptr;
  QPushButton* saveButton_ = nullptr;
  QPushButton* rerunButton_ = nullptr;
  QComboBox* energyCombo_ = nullptr;
  FreeEnergyPlot* plot_ = nullptr;

  std::unique_ptr<InductionJob> job_;
  int jobRunId_ = -1;
  std::deque<int> queue_;  // run ids waiting for their turn
  QString notice_;         // what restoreState() could not restore
};

}  // namespace gwb::ui
