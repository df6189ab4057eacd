// The worker thread of a long job (an induction run, an experiment): started once, off the UI
// thread, and joined when its owner goes. A job declares its WorkerThread as its LAST member, so
// that after the job's destructor has asked the work to stop, the thread is joined before any
// other member the work may still read is destroyed.
#pragma once

#include <functional>

#include <QString>

class QObject;
class QThread;

namespace gwb::ui {

class WorkerThread {
 public:
  WorkerThread() = default;
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;
  ~WorkerThread();  // waits for the work to return

  // Runs `work` on a new thread named `name` (only the first call starts anything). `finished`
  // then runs in `context`'s thread, after every report the work posted there.
  void start(QObject* context, const QString& name, std::function<void()> work,
             std::function<void()> finished);
  bool isRunning() const;
  // True once the work has returned (or was never started); false after `milliseconds`.
  bool wait(int milliseconds);

 private:
  QThread* thread_ = nullptr;
};

// For a panel that runs jobs one after another: processes the UI thread's events (the jobs'
// reports and finished notices) while `busy()` holds, calling `waitOnJob()` between rounds to
// give the running job's thread a moment. False if still busy after `milliseconds`.
bool processEventsWhileBusy(const std::function<bool()>& busy,
                            const std::function<void()>& waitOnJob, int milliseconds);

}  // namespace gwb::ui
