#include "ui/common/background_job.h"

#include <exception>
#include <utility>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEvent>
#include <QEventLoop>
#include <QThread>

namespace gwb::ui {

bool JobContext::cancelRequested() const { return job_->cancel_.load(); }

const std::atomic<bool>& JobContext::cancelFlag() const { return job_->cancel_; }

void JobContext::setProgress(qint64 done, qint64 total) {
  job_->done_.store(done);
  job_->total_.store(total);
  job_->postProgress();
}

void JobContext::post(std::function<void()> report) {
  QMetaObject::invokeMethod(job_, std::move(report), Qt::QueuedConnection);
}

BackgroundJob::BackgroundJob(QString name, QObject* parent)
    : QObject(parent), name_(std::move(name)) {}

BackgroundJob::~BackgroundJob() {
  cancel_.store(true);
  if (thread_ != nullptr) thread_->wait();
  // thread_ (and any earlier one not yet deleted) is a child: ~QObject deletes it.
}

bool BackgroundJob::start(Work work) {
  if (busy_) return false;
  if (thread_ != nullptr) {
    thread_->wait();  // returned already: finished() was emitted
    thread_->deleteLater();
  }
  busy_ = true;
  errorText_.clear();
  cancel_.store(false);
  done_.store(0);
  total_.store(0);
  deliveredDone_ = 0;
  deliveredTotal_ = 0;
  const quint64 run = ++run_;
  thread_ = QThread::create([this, work = std::move(work)] {
    JobContext context(this);
    try {
      work(context);
    } catch (const std::exception& e) {
      errorText_ = QString::fromUtf8(e.what());
      if (errorText_.isEmpty()) errorText_ = tr("the job failed (an exception without a message)");
    } catch (...) {
      errorText_ = tr("the job failed (an exception of unknown type)");
    }
  });
  thread_->setObjectName(name_);
  thread_->setParent(this);
  // QThread::finished is queued after every report the work posted, so finished() comes last.
  connect(thread_, &QThread::finished, this, [this, run] { deliverFinished(run); });
  thread_->start();
  return true;
}

void BackgroundJob::cancel() { cancel_.store(true); }

bool BackgroundJob::isRunning() const { return thread_ != nullptr && thread_->isRunning(); }

bool BackgroundJob::wait(int milliseconds) {
  if (thread_ == nullptr) return true;
  return thread_->wait(QDeadlineTimer(milliseconds));
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
  QMetaObject::invokeMethod(
      this, [this] { deliverProgress(); }, Qt::QueuedConnection);
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
