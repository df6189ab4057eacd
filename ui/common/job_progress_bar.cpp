#include "ui/common/job_progress_bar.h"

#include <algorithm>
#include <limits>

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>

#include "ui/common/background_job.h"

namespace gwb::ui {

JobProgressBar::JobProgressBar(Visibility visibility, QWidget* parent)
    : QWidget(parent), visibility_(visibility) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  bar_ = new QProgressBar(this);
  bar_->setTextVisible(true);
  bar_->setRange(0, 1);
  bar_->setValue(0);
  bar_->setFormat(QString());
  cancel_ = new QPushButton(tr("&Cancel"), this);
  cancel_->setObjectName(QStringLiteral("cancelJob"));
  cancel_->setEnabled(false);
  row->addWidget(bar_, 1);
  row->addWidget(cancel_);
  connect(cancel_, &QPushButton::clicked, this, &JobProgressBar::cancelClicked);
  setVisible(visibility_ == Visibility::Always);
}

void JobProgressBar::start(const QString& format) {
  running_ = true;
  bar_->setFormat(format.isEmpty() ? QStringLiteral("%p%") : format);
  bar_->setRange(0, 0);  // busy until the first report gives a total
  bar_->setValue(0);
  cancel_->setEnabled(true);
  setVisible(true);
}

void JobProgressBar::setProgress(qint64 done, qint64 total) {
  if (total <= 0) {
    bar_->setRange(0, 0);
    return;
  }
  // QProgressBar counts in int: scale a larger total down.
  const qint64 limit = std::numeric_limits<int>::max();
  const qint64 scale = total > limit ? total / limit + 1 : 1;
  bar_->setRange(0, static_cast<int>(total / scale));
  bar_->setValue(static_cast<int>(std::clamp<qint64>(done, 0, total) / scale));
}

void JobProgressBar::setIterationProgress(int iteration, qint64 done, qint64 total) {
  bar_->setFormat(tr("iteration %1: %v / %m").arg(iteration));
  setProgress(done, total);
}

void JobProgressBar::finish(const QString& outcome, bool complete) {
  running_ = false;
  cancel_->setEnabled(false);
  bar_->setRange(0, 1);
  bar_->setValue(complete ? 1 : 0);
  bar_->setFormat(outcome);
  if (visibility_ == Visibility::WhileRunning) setVisible(false);
}

void JobProgressBar::follow(BackgroundJob& job) {
  connect(&job, &BackgroundJob::progress, this, &JobProgressBar::setProgress);
  connect(this, &JobProgressBar::cancelClicked, &job, &BackgroundJob::cancel);
  connect(&job, &BackgroundJob::finished, this, [this] { finish(); });
}

void JobProgressBar::setCancelEnabled(bool enabled) { cancel_->setEnabled(enabled); }

}  // namespace gwb::ui
