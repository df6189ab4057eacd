// ExperimentPanel: the `gwb experiment social` runs from a form, with results in a table shaped
// like the paper's Tables 2–5 (ExperimentTableModel) and the published numbers beside ours.
//
// The form: model, cue set (all, none, drop:CUE, only:CUE — the corpus's cues are offered), the
// Word.t prior α, iterations (0: to convergence), seeds ("1-5", "1,3"), threads, and the corpus,
// gold annotation and recordings files (../shared's by default). Run queues one ExperimentJob
// per press (all its seeds); jobs run one at a time on a worker thread, a progress bar fills
// within each iteration's E-step and the status line says which seed and iteration. Cancel stops
// the current job at its next sentence (the seeds already done stay in the table) and drops the
// queued ones. Each finished seed goes into the table at once. Export writes the table's CSV
// (ExperimentTableModel::csv) atomically.
//
// state()/restoreState() are what a workspace keeps (workspace.h, kind "experiments"): the form
// and the results table (every group's spec and its seeds' outcomes), so that a restored table
// shows its numbers without training again. A job that was going when the workspace was saved
// keeps the seeds it had finished. A restore that can only partly succeed (an input file gone)
// says so in the status line (restoreNotice()).
#pragma once

#include <deque>
#include <memory>

#include <QJsonObject>
#include <QWidget>

#include "ui/common/job_progress_bar.h"
#include "ui/grounded/experiment_job.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace gwb::ui {

class ExperimentTableModel;

class ExperimentPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ExperimentPanel(QWidget* parent = nullptr);
  ~ExperimentPanel() override;

  void setSpec(const ExperimentSpec& spec);
  // The form's spec (cues normalised, e.g. "drop:kid.eyes"); *error names the first invalid
  // field (the spec then keeps that field's previous value).
  ExperimentSpec spec(QString* error = nullptr) const;

  // Queues a job with the form's spec (or `spec`); false and *error (also shown) when invalid.
  bool startRun(QString* error = nullptr);
  bool startRun(ExperimentSpec spec, QString* error = nullptr);
  void cancelRun();
  bool isBusy() const;
  bool waitUntilIdle(int milliseconds);

  ExperimentTableModel* table() const { return table_; }
  QTableView* tableView() const { return tableView_; }
  QProgressBar* progressBar() const { return jobBar_->bar(); }
  QLabel* statusLabel() const { return status_; }
  bool exportCsv(const QString& path, QString* error = nullptr) const;

  QJsonObject state() const;
  // Replaces the form and the table; false (nothing changed) while a job is going.
  bool restoreState(const QJsonObject& state);
  const QString& restoreNotice() const { return notice_; }

 signals:
  void seedFinished(const gwb::ui::ExperimentOutcome& outcome);
  // A job ended; `error` is empty unless it failed.
  void jobFinished(const QString& error);
  void idle();

 private:
  QWidget* createForm();
  void startNext();
  void onJobFinished();
  void updateControls();
  void showStatus(const QString& text, bool error = false);
  void exportWithDialog();

  QComboBox* modelCombo_ = nullptr;
  QComboBox* cuesCombo_ = nullptr;
  QLineEdit* alphaEdit_ = nullptr;
  QSpinBox* iterationsSpin_ = nullptr;
  QLineEdit* seedsEdit_ = nullptr;
  QSpinBox* threadsSpin_ = nullptr;
  QLineEdit* corpusEdit_ = nullptr;
  QLineEdit* goldEdit_ = nullptr;
  QLineEdit* recordingsEdit_ = nullptr;
  QPushButton* runButton_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;
  QLabel* status_ = nullptr;

  ExperimentTableModel* table_ = nullptr;
  QTableView* tableView_ = nullptr;

  std::unique_ptr<ExperimentJob> job_;
  std::deque<ExperimentSpec> queue_;
  QString notice_;
};

}  // namespace gwb::ui
