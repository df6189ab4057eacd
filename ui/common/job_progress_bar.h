// JobProgressBar: the progress bar and Cancel button every view shows for the long job it runs
// off the UI thread (a BackgroundJob, background_job.h, or a job object built on one).
//
// Two ways to show it:
//   - WhileRunning (a view's occasional job: decoding, counting, parsing): hidden until start(),
//     hidden again by finish();
//   - Always (a panel whose runs are its purpose: induction, experiments): always visible; after
//     finish() the bar stays full (or empty) with the outcome in words ("done", "cancelled").
// follow(job) wires a BackgroundJob to it: the job's progress moves the bar, Cancel cancels the
// job, finished() ends the bar. A panel that must do more on Cancel (drop its queue) connects
// cancelClicked() itself and feeds setProgress() from its job object.
#pragma once

#include <QString>
#include <QWidget>

class QProgressBar;
class QPushButton;

namespace gwb::ui {

class BackgroundJob;

class JobProgressBar : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(JobProgressBar)

 public:
  enum class Visibility { WhileRunning, Always };

  explicit JobProgressBar(Visibility visibility, QWidget* parent = nullptr);

  // A job started: the bar busy (no total yet) with `format` as its text (empty: the
  // percentage), shown, Cancel enabled.
  void start(const QString& format = QString());
  // `done` of `total` steps (total ≤ 0: still busy, no total known).
  void setProgress(qint64 done, qint64 total);
  // The same, for an iterative learner: "iteration 3: 120 / 480".
  void setIterationProgress(int iteration, qint64 done, qint64 total);
  // The job ended: WhileRunning hides the bar; Always shows it full (`complete`) or empty with
  // `outcome` as its text. Cancel is disabled either way.
  void finish(const QString& outcome = QString(), bool complete = true);
  // Progress, Cancel and finished() of `job` drive this bar (start() is still the caller's,
  // right after job.start()).
  void follow(BackgroundJob& job);
  // Whether Cancel can be clicked apart from a running job (a panel with queued runs).
  void setCancelEnabled(bool enabled);

  bool isRunning() const { return running_; }
  QProgressBar* bar() const { return bar_; }
  QPushButton* cancelButton() const { return cancel_; }

 signals:
  void cancelClicked();

 private:
  Visibility visibility_;
  bool running_ = false;
  QProgressBar* bar_ = nullptr;
  QPushButton* cancel_ = nullptr;
};

}  // namespace gwb::ui
