#include "ui/common/background_job.h"

#include <chrono>
#include <exception>
#include <utility>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEvent>
#include <QEventLoop>
#include <pthread.h>

namespace gwb::ui {

bool JobContext::cancelRequested() const { return job_->cancel_.load(); }

const std::atomic<bool>& JobContext::cancelFlag() const { return job_->cancel_; }

void JobContext::setProgress(qint64 done, qint64 total) {
  job_->done_.store(done);
  job_->total_.store(total);
  job_->postProgress();
}

void JobContext::post(std::function<void()> report) { job_->postReport(std::move(report)); }

BackgroundJob::BackgroundJob(QString name, QObject* parent)
    : QObject(parent), name_(std::move(name)) {}

BackgroundJob::~BackgroundJob() {
  cancel_.store(true);
  if (thread_.joinable()) thread_.join();
}

bool BackgroundJob::start(Work work) {
  if (busy_) return false;
  if (thread_.joinable()) thread_.join();  // returned already: finished() was emitted
  busy_ = true;
  errorText_.clear();
  cancel_.store(false);
  done_.store(0);
  total_.store(0);
  deliveredDone_ = 0;
  deliveredTotal_ = 0;
  const quint64 run = ++run_;
  {
    const std::lock_guard<std::mutex> lock(runningMutex_);
    running_ = true;
  }
  thread_ = std::thread([this, run, work = std::move(work)] { runWork(run, work); });
  return true;
}

void BackgroundJob::runWork(quint64 run, const Work& work) {
  // Names the thread for debuggers and profilers (Linux keeps 15 bytes).
  pthread_setname_np(pthread_self(), name_.left(15).toUtf8().constData());
  JobContext context(this);
  try {
    work(context);
  } catch (const std::exception& e) {
    errorText_ = QString::fromUtf8(e.what());
    if (errorText_.isEmpty()) errorText_ = tr("the job failed (an exception without a message)");
  } catch (...) {
    errorText_ = tr("the job failed (an exception of unknown type)");
  }
  {
    const std::lock_guard<std::mutex> lock(runningMutex_);
    running_ = false;
  }
  returned_.notify_all();
  // Queued after every report the work posted, so finished() comes last.
  postReport([this, run] { deliverFinished(run); });
}

void BackgroundJob::cancel() { cancel_.store(true); }

bool BackgroundJob::isRunning() const {
  const std::lock_guard<std::mutex> lock(runningMutex_);
  return running_;
}

bool BackgroundJob::wait(int milliseconds) {
  if (!thread_.joinable()) return true;
  {
    std::unique_lock<std::mutex> lock(runningMutex_);
    const auto returned = [this] { return !running_; };
    if (milliseconds < 0) {
      returned_.wait(lock, returned);
    } else if (!returned_.wait_for(lock, std::chrono::milliseconds(milliseconds), returned)) {
      return false;
    }
  }
  thread_.join();  // it has only its finished notice left to queue
  return true;
}

bool BackgroundJob::waitAndFinish(int milliseconds) {
  if (!wait(milliseconds)) return false;
  // The reports, and the finished notice, are queued calls on this object.
  QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
  if (busy_) deliverFinished(run_);
  return true;
}

void BackgroundJob::cancelAndFinish() {
  cancel();
  waitAndFinish(-1);
}

void BackgroundJob::postProgress() {
  if (progressQueued_.exchange(true)) return;  // the queued one will read the new values
  postReport([this] { deliverProgress(); });
}

// The report waits in reports_; the queued call carries nothing of ours (it names the method),
// so that Qt's event queue, which ThreadSanitizer cannot see into, hands over no data.
void BackgroundJob::postReport(std::function<void()> report) {
  {
    const std::lock_guard<std::mutex> lock(reportsMutex_);
    reports_.push_back(std::move(report));
  }
  QMetaObject::invokeMethod(this, "deliverReport", Qt::QueuedConnection);
}

void BackgroundJob::deliverReport() {
  std::function<void()> report;
  {
    const std::lock_guard<std::mutex> lock(reportsMutex_);
    if (reports_.empty()) return;
    report = std::move(reports_.front());
    reports_.pop_front();
  }
  report();
}

void BackgroundJob::deliverProgress() {
  // Clear the flag before reading: a report made after the read queues a new delivery.
  progressQueued_.store(false);
  const qint64 done = done_.load();
  const qint64 total = total_.load();
  if (done == deliveredDone_ && total == deliveredTotal_) return;
  deliveredDone_ = done;
  deliveredTotal_ = total;
  emit progress(done, total);
}

void BackgroundJob::deliverFinished(quint64 run) {
  if (run != run_ || !busy_) return;
  deliverProgress();
  busy_ = false;
  emit finished();
}

BatchRelay::BatchRelay(JobContext& context, int threads, qint64 offset, qint64 total)
    : context_(context), offset_(offset), total_(total) {
  control_.threads = threads;
  control_.observer = this;
  control_.cancel = &context.cancelFlag();
}

void BatchRelay::onItemFinished(std::size_t /*item*/, std::size_t finished, std::size_t total) {
  context_.setProgress(offset_ + static_cast<qint64>(finished),
                       total_ >= 0 ? total_ : static_cast<qint64>(total));
}

bool processEventsWhileBusy(const std::function<bool()>& busy,
                            const std::function<void()>& waitOnJob, int milliseconds) {
  QDeadlineTimer deadline(milliseconds);
  while (busy()) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    waitOnJob();
  }
  QCoreApplication::processEvents();
  return true;
}

}  // namespace gwb::ui
