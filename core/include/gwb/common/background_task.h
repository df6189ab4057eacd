// BackgroundTask: one long computation run on a worker thread of its own, for an owner thread
// that must not block on it — the workbench's UI thread above all (its BackgroundJob is a Qt
// adapter over this), or any caller with a loop of its own. The batch service (batch.h) is how
// that computation spreads over N threads; this is how it leaves the owner's thread.
//
// The owner starts a callable; it runs on a new thread and sees a TaskContext: the cancel flag
// to poll (or hand to core as a `const std::atomic<bool>*`), setProgress() for "done of total",
// and post() for per-step results. What the work reports waits in the task's queue, in the
// order the work made it, until the owner takes it out on its own thread with deliverOne():
//   - progress(done, total) is coalesced: at most one progress entry is queued at a time and it
//     carries the latest values when delivered, so a work reporting a million steps never floods
//     the owner; a delivery that would repeat the values last delivered is skipped, and the last
//     values reported are always delivered before the finished notice;
//   - each post()ed callable runs on the owner's thread, in order;
//   - the finished notice comes once per start(), after everything the work queued: after the
//     work returned, or threw (the exception is handed over, not lost: onFinished gets it, and
//     error() keeps it).
// Each entry queued calls the observer's onReportQueued() on the worker's thread: the owner's
// wake-up (a queued call, a condition variable). There is at least one wake-up per entry, so an
// owner that calls deliverOne() once per wake-up delivers everything; an extra call finds
// nothing and returns false.
//
// Every hand-over between the threads goes through a std::mutex of the task (the queue, the
// work's end) or an atomic, so ThreadSanitizer sees all of them, whatever the owner's event
// loop does inside; its tests (background_task_test.cpp) run under TSan in CI.
//
// Lifetime: destroying a task cancels it and waits for the work to return; nothing is
// delivered and queued entries are dropped. The work may use whatever its owner holds, as long
// as the task is destroyed first. One task runs one work at a time; start() again once the
// finished notice was delivered. start(), deliverOne(), finish() and isBusy() belong to the
// owner's thread; cancel(), isRunning(), wait() and the progress getters may be called from any.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gwb {

class BackgroundTask;

// Hears of a task: onReportQueued() on the worker's thread, the rest on the owner's thread
// from within deliverOne().
class BackgroundTaskObserver {
 public:
  virtual ~BackgroundTaskObserver() = default;
  // An entry was queued: have the owner's thread call deliverOne() once. Called on the worker's
  // thread (and on the owner's, for nothing else); must not block or call into the task.
  virtual void onReportQueued() = 0;
  // The work has done `done` of `total` steps (coalesced; see the header comment).
  virtual void onProgress(std::int64_t /*done*/, std::int64_t /*total*/) {}
  // The work has returned (`error` empty) or thrown `error`. Last, once per start().
  virtual void onFinished(const std::exception_ptr& /*error*/) {}
};

// What the running work sees. Use it only on the work's thread, while the work runs.
class TaskContext {
 public:
  // True once the owner called cancel(): the work should return soon.
  bool cancelRequested() const;
  // The flag itself, for core functions that poll one.
  const std::atomic<bool>& cancelFlag() const;
  // `done` of `total` steps are finished.
  void setProgress(std::int64_t done, std::int64_t total);
  // Runs `report` on the owner's thread, after every report posted before it.
  void post(std::function<void()> report);

 private:
  friend class BackgroundTask;
  explicit TaskContext(BackgroundTask* task) : task_(task) {}
  BackgroundTask* task_;
};

class BackgroundTask {
 public:
  using Work = std::function<void(TaskContext&)>;

  // `name` names the worker thread (debuggers, profilers; Linux keeps 15 bytes). `observer`
  // must outlive the task.
  BackgroundTask(std::string name, BackgroundTaskObserver* observer);
  ~BackgroundTask();  // cancels, waits for the work; delivers nothing
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;
  BackgroundTask(BackgroundTask&&) = delete;
  BackgroundTask& operator=(BackgroundTask&&) = delete;

  // Runs `work` on a new worker thread. False (and nothing happens) while the task is busy.
  bool start(Work work);
  void cancel() { cancel_.store(true); }
  bool cancelRequested() const { return cancel_.load(); }
  // From start() until the work has returned.
  bool isRunning() const;
  // From start() until the finished notice was delivered.
  bool isBusy() const { return busy_; }
  // The progress the work reported last (0 of 0 before it reports).
  std::int64_t done() const { return done_.load(); }
  std::int64_t total() const { return total_.load(); }
  // After the finished notice: what the work threw (empty when it returned normally).
  const std::exception_ptr& error() const { return error_; }

  // Blocks until the work has returned (or none runs). Delivers nothing.
  void wait();
  // The same, for at most `limit`; false if the work is still running then.
  bool waitFor(std::chrono::milliseconds limit);
  // On the owner's thread: delivers the oldest queued entry to the observer (or runs the posted
  // report). False when the queue was empty.
  bool deliverOne();
  // On the owner's thread: wait(), then delivers everything queued, the finished notice last,
  // so that the owner is done with the run when this returns.
  void finish();

 private:
  friend class TaskContext;
  enum class Entry { Progress, Report, Finished };
  struct Queued {
    Entry kind;
    std::function<void()> report;  // Entry::Report
  };
  void enqueue(Queued entry);
  void queueProgress();
  void deliverProgress();
  void runWork(const Work& work);

  std::string name_;
  BackgroundTaskObserver* observer_;
  std::thread thread_;
  bool busy_ = false;
  std::exception_ptr error_;  // written by the work before its end is marked
  std::atomic<bool> cancel_{false};
  std::atomic<std::int64_t> done_{0};
  std::atomic<std::int64_t> total_{0};
  std::atomic<bool> progressQueued_{false};
  mutable std::mutex runningMutex_;
  std::condition_variable returned_;
  bool running_ = false;  // guarded by runningMutex_: from start() until the work has returned
  std::mutex queueMutex_;
  std::deque<Queued> queue_;  // guarded by queueMutex_
  std::int64_t deliveredDone_ = 0;
  std::int64_t deliveredTotal_ = 0;
};

}  // namespace gwb
