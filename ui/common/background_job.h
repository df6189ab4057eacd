// BackgroundJob: the one way the workbench runs a long computation off the UI thread — an
// induction run, an experiment, a parse, a DS parse, a decoding, a count of transitions.
//
// The owner (a view or a job object living on the UI thread) starts a callable; it runs on a
// worker thread of its own and sees a JobContext: the cancel flag to poll (or hand to core as a
// `const std::atomic<bool>*`), setProgress() for "done of total", and post() for per-step
// results. Everything reaches the owner's thread in the order the work made it, and finished()
// comes after all of it:
//   - progress(done, total) is coalesced: at most one is queued at a time and it carries the
//     latest values, so a work reporting a million steps never floods the event queue; the last
//     values reported are always delivered before finished();
//   - each post()ed callable runs on the owner's thread, in order;
//   - finished() is emitted once per start(), after the work returned (or threw: errorText()
//     then holds what it threw, and the job is finished, not crashed).
//
// The thread, the queue of reports and the hand-overs are core's BackgroundTask
// (gwb/common/background_task.h), tested there under ThreadSanitizer; this class is its Qt
// adapter. A report queued by the work wakes the owner's thread with a queued Qt call that
// carries no data of ours (it names a method); that call takes the oldest report out of the
// task's queue (a std::mutex-guarded queue) and delivers it as a signal or runs it. Every
// hand-over between the work and the owner is one ThreadSanitizer sees, though it cannot see the
// locks inside Qt's uninstrumented libraries, and the worker is a thread Qt did not create, which
// it checks whole (tests/ui/tsan/README.md).
//
// Lifetime: destroying a job cancels it and waits for the work to return; nothing is emitted
// and queued reports are dropped. The work may therefore use whatever its owner holds, as long
// as the owner declares the job after those members (members are destroyed in reverse order) or
// destroys it first. One job runs one work at a time; start() again once finished() was emitted.
#pragma once

#include <atomic>
#include <exception>
#include <functional>

#include <QObject>
#include <QString>

#include "gwb/common/background_task.h"
#include "gwb/common/batch.h"

namespace gwb::ui {

class BackgroundJob;

// What the running work sees. Use it only on the work's thread, while the work runs.
class JobContext {
 public:
  // True once the owner called cancel(): the work should return soon.
  bool cancelRequested() const { return task_.cancelRequested(); }
  // The flag itself, for core functions that poll one.
  const std::atomic<bool>& cancelFlag() const { return task_.cancelFlag(); }
  // `done` of `total` steps are finished (see the header comment for how it is delivered).
  void setProgress(qint64 done, qint64 total) { task_.setProgress(done, total); }
  // Runs `report` on the owner's thread, after every report posted before it.
  void post(std::function<void()> report) { task_.post(std::move(report)); }

 private:
  friend class BackgroundJob;
  explicit JobContext(gwb::TaskContext& task) : task_(task) {}
  gwb::TaskContext& task_;
};

class BackgroundJob : public QObject {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(BackgroundJob)

 public:
  using Work = std::function<void(JobContext&)>;

  // `name` names the worker thread (debuggers, profilers).
  explicit BackgroundJob(QString name, QObject* parent = nullptr);
  ~BackgroundJob() override;  // cancels, waits for the work; emits nothing

  // Runs `work` on a new worker thread. False (and nothing happens) while the job is busy.
  bool start(Work work);
  void cancel() { task_.cancel(); }
  bool isCancelRequested() const { return task_.cancelRequested(); }
  // From start() until the work has returned.
  bool isRunning() const { return task_.isRunning(); }
  // From start() until finished() has been emitted.
  bool isBusy() const { return task_.isBusy(); }
  // The progress the work reported last (0 of 0 before it reports).
  qint64 done() const { return task_.done(); }
  qint64 total() const { return task_.total(); }
  // After finished(): what the work threw, empty when it returned normally.
  const QString& errorText() const { return errorText_; }

  // Blocks until the work has returned (or none runs); false if still running after
  // `milliseconds` (negative: no limit). Delivers nothing: the reports and finished() still come
  // through the event loop.
  bool wait(int milliseconds);
  // Like wait(), then delivers the queued reports and finished() right here, so that the owner
  // is done with the job when this returns true (for shutdown, a new input, and tests).
  bool waitAndFinish(int milliseconds);
  // cancel(), then waitAndFinish() without a time limit: the owner can change what the work
  // reads once this returns.
  void cancelAndFinish();

 signals:
  void progress(qint64 done, qint64 total);
  void finished();

 private:
  // The task's observer: wakes this job's thread, and turns the task's notices into signals.
  class Relay final : public gwb::BackgroundTaskObserver {
   public:
    explicit Relay(BackgroundJob* job) : job_(job) {}
    void onReportQueued() override;
    void onProgress(std::int64_t done, std::int64_t total) override;
    void onFinished(const std::exception_ptr& error) override;

   private:
    BackgroundJob* job_;
  };
  // Delivers the oldest queued report; one queued call of it per report queued.
  Q_INVOKABLE void deliverReport();

  QString errorText_;
  Relay relay_{this};
  gwb::BackgroundTask task_;  // after relay_: destroyed (cancelled and joined) first
};

// The base of every job class (DsParseJob, CcgParseJob, TransitionCountJob, ...): it owns the
// job's BackgroundJob and gives the controls an owner uses, so that a job class states only what
// it computes — its start(), its outcome and its signals.
//
// Lifetime: this base is destroyed after the job class's own members, and destroying it cancels
// the work and waits for it. A job whose work reads only what its start() handed over (the
// request and the outcome object it writes, by value or shared pointer) needs nothing more; a
// job whose work reads members of the job calls stopWork() first thing in its destructor, so
// that the work has returned before those members go.
class JobBase : public QObject {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(JobBase)

 public:
  ~JobBase() override;  // cancels, waits for the work; emits nothing

  void cancel() { worker_.cancel(); }
  bool isCancelRequested() const { return worker_.isCancelRequested(); }
  // From start() until the work has returned.
  bool isRunning() const { return worker_.isRunning(); }
  // From start() until finished() has been emitted.
  bool isBusy() const { return worker_.isBusy(); }
  // BackgroundJob's wait(), waitAndFinish() and cancelAndFinish().
  bool wait(int milliseconds) { return worker_.wait(milliseconds); }
  bool waitAndFinish(int milliseconds) { return worker_.waitAndFinish(milliseconds); }
  void cancelAndFinish() { worker_.cancelAndFinish(); }
  // The job's BackgroundJob, for a JobProgressBar to follow.
  BackgroundJob& backgroundJob() { return worker_; }
  const BackgroundJob& backgroundJob() const { return worker_; }

 protected:
  // `workerName` names the worker thread.
  explicit JobBase(QString workerName, QObject* parent = nullptr);
  // Cancels the work and waits until it has returned; its queued reports are never delivered.
  void stopWork();

 private:
  BackgroundJob worker_;
};

// Core's batch service (gwb/common/batch.h) run inside a job: control() gives the batch
// `threads` threads and the job's cancel flag, and each finished item becomes the job's
// progress — `offset + finished` of `total` (of the batch's own total when `total` < 0), for a
// job that runs several batches in a row. Lives on the work's thread, for one batch call.
class BatchRelay : public gwb::BatchObserver {
 public:
  BatchRelay(JobContext& context, int threads, qint64 offset = 0, qint64 total = -1);
  const gwb::BatchControl& control() const { return control_; }
  void onItemFinished(std::size_t item, std::size_t finished, std::size_t total) override;

 private:
  JobContext& context_;
  qint64 offset_;
  qint64 total_;
  gwb::BatchControl control_;
};

// For a panel that runs jobs one after another: processes the UI thread's events (the jobs'
// reports and finished notices) while `busy()` holds, calling `waitOnJob()` between rounds to
// give the running job's thread a moment. False if still busy after `milliseconds`.
bool processEventsWhileBusy(const std::function<bool()>& busy,
                            const std::function<void()>& waitOnJob, int milliseconds);

}  // namespace gwb::ui
