#include "gwb/common/background_task.h"

#include <utility>

#if defined(__linux__)
#include <pthread.h>
#endif

namespace gwb {

bool TaskContext::cancelRequested() const { return task_->cancel_.load(); }

const std::atomic<bool>& TaskContext::cancelFlag() const { return task_->cancel_; }

void TaskContext::setProgress(std::int64_t done, std::int64_t total) {
  task_->done_.store(done);
  task_->total_.store(total);
  task_->queueProgress();
}

void TaskContext::post(std::function<void()> report) {
  task_->enqueue({BackgroundTask::Entry::Report, std::move(report)});
}

BackgroundTask::BackgroundTask(std::string name, BackgroundTaskObserver* observer)
    : name_(std::move(name)), observer_(observer) {}

BackgroundTask::~BackgroundTask() {
  cancel_.store(true);
  if (thread_.joinable()) thread_.join();
}

bool BackgroundTask::start(Work work) {
  if (busy_) return false;
  if (thread_.joinable()) thread_.join();  // returned already: its finished notice was delivered
  busy_ = true;
  error_ = nullptr;
  cancel_.store(false);
  done_.store(0);
  total_.store(0);
  progressQueued_.store(false);
  deliveredDone_ = 0;
  deliveredTotal_ = 0;
  {
    const std::lock_guard<std::mutex> lock(queueMutex_);
    queue_.clear();  // nothing of the last run is left once its finished notice was delivered
  }
  {
    const std::lock_guard<std::mutex> lock(runningMutex_);
    running_ = true;
  }
  thread_ = std::thread([this, work = std::move(work)] { runWork(work); });
  return true;
}

void BackgroundTask::runWork(const Work& work) {
#if defined(__linux__)
  pthread_setname_np(pthread_self(), name_.substr(0, 15).c_str());
#endif
  TaskContext context(this);
  try {
    work(context);
  } catch (...) {
    error_ = std::current_exception();
  }
  {
    const std::lock_guard<std::mutex> lock(runningMutex_);
    running_ = false;
  }
  returned_.notify_all();
  // Queued after every report the work posted, so the finished notice comes last.
  enqueue({Entry::Finished, nullptr});
}

bool BackgroundTask::isRunning() const {
  const std::lock_guard<std::mutex> lock(runningMutex_);
  return running_;
}

void BackgroundTask::wait() {
  std::unique_lock<std::mutex> lock(runningMutex_);
  returned_.wait(lock, [this] { return !running_; });
}

bool BackgroundTask::waitFor(std::chrono::milliseconds limit) {
  std::unique_lock<std::mutex> lock(runningMutex_);
  return returned_.wait_for(lock, limit, [this] { return !running_; });
}

void BackgroundTask::finish() {
  if (!busy_) return;
  wait();
  if (thread_.joinable()) thread_.join();  // it has queued its finished notice
  while (busy_ && deliverOne()) {
  }
}

void BackgroundTask::enqueue(Queued entry) {
  {
    const std::lock_guard<std::mutex> lock(queueMutex_);
    queue_.push_back(std::move(entry));
  }
  observer_->onReportQueued();
}

void BackgroundTask::queueProgress() {
  if (progressQueued_.exchange(true)) return;  // the queued one will read the new values
  enqueue({Entry::Progress, nullptr});
}

bool BackgroundTask::deliverOne() {
  Queued entry;
  {
    const std::lock_guard<std::mutex> lock(queueMutex_);
    if (queue_.empty()) return false;
    entry = std::move(queue_.front());
    queue_.pop_front();
  }
  switch (entry.kind) {
    case Entry::Progress: deliverProgress(); break;
    case Entry::Report: entry.report(); break;
    case Entry::Finished:
      deliverProgress();
      busy_ = false;
      observer_->onFinished(error_);
      break;
  }
  return true;
}

void BackgroundTask::deliverProgress() {
  // Clear the flag before reading: a report made after the read queues a new delivery.
  progressQueued_.store(false);
  const std::int64_t done = done_.load();
  const std::int64_t total = total_.load();
  if (done == deliveredDone_ && total == deliveredTotal_) return;
  deliveredDone_ = done;
  deliveredTotal_ = total;
  observer_->onProgress(done, total);
}

}  // namespace gwb
