#include "ui/common/background_job.h"

#include <chrono>
#include <exception>
#include <utility>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>

namespace gwb::ui {

BackgroundJob::BackgroundJob(QString name, QObject* parent)
    : QObject(parent), task_(name.toStdString(), &relay_) {}

// task_ cancels the work and waits for it; the queued calls of deliverReport() die with the
// QObject, so nothing is emitted.
BackgroundJob::~BackgroundJob() = default;

bool BackgroundJob::start(Work work) {
  if (task_.isBusy()) return false;
  errorText_.clear();
  return task_.start([work = std::move(work)](gwb::TaskContext& task) {
    JobContext context(task);
    work(context);
  });
}

bool BackgroundJob::wait(int milliseconds) {
  if (milliseconds < 0) {
    task_.wait();
    return true;
  }
  return task_.waitFor(std::chrono::milliseconds(milliseconds));
}

bool BackgroundJob::waitAndFinish(int milliseconds) {
  if (!wait(milliseconds)) return false;
  // Delivers what is queued, finished() last; the queued calls still pending find nothing.
  task_.finish();
  return true;
}

void BackgroundJob::cancelAndFinish() {
  cancel();
  waitAndFinish(-1);
}

void BackgroundJob::deliverReport() { task_.deliverOne(); }

// On the worker's thread: the queued call names the method and carries no data of ours, so
// Qt's event queue, which ThreadSanitizer cannot see into, hands over nothing.
void BackgroundJob::Relay::onReportQueued() {
  QMetaObject::invokeMethod(job_, "deliverReport", Qt::QueuedConnection);
}

void BackgroundJob::Relay::onProgress(std::int64_t done, std::int64_t total) {
  emit job_->progress(done, total);
}

void BackgroundJob::Relay::onFinished(const std::exception_ptr& error) {
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      job_->errorText_ = QString::fromUtf8(e.what());
      if (job_->errorText_.isEmpty())
        job_->errorText_ = BackgroundJob::tr("the job failed (an exception without a message)");
    } catch (...) {
      job_->errorText_ = BackgroundJob::tr("the job failed (an exception of unknown type)");
    }
  }
  emit job_->finished();
}

JobBase::JobBase(QString workerName, QObject* parent)
    : QObject(parent), worker_(std::move(workerName)) {}

JobBase::~JobBase() = default;  // worker_ cancels the work and waits for it

void JobBase::stopWork() {
  worker_.cancel();
  worker_.wait(-1);
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
