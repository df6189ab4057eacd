#include "ui/common/worker_thread.h"

#include <utility>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QObject>
#include <QThread>

namespace gwb::ui {

WorkerThread::~WorkerThread() {
  if (thread_ == nullptr) return;
  thread_->wait();
  delete thread_;
}

void WorkerThread::start(QObject* context, const QString& name, std::function<void()> work,
                         std::function<void()> finished) {
  if (thread_ != nullptr) return;
  thread_ = QThread::create(std::move(work));
  thread_->setObjectName(name);
  // QThread::finished comes after every event the worker posted, so `finished` sees them all.
  QObject::connect(thread_, &QThread::finished, context, std::move(finished));
  thread_->start();
}

bool WorkerThread::isRunning() const { return thread_ != nullptr && thread_->isRunning(); }

bool WorkerThread::wait(int milliseconds) {
  if (thread_ == nullptr) return true;
  return thread_->wait(QDeadlineTimer(milliseconds));
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
