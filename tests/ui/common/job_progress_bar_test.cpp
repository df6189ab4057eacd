// JobProgressBar, the progress bar and Cancel button of every view that runs a job: it follows a
// BackgroundJob (progress, Cancel reaching the work, finished ending the bar), hides itself
// after the job in WhileRunning mode and keeps the outcome in Always mode. The work and the test
// hand over through a promise; the only time limit is a generous "it did not hang".
#include "ui/common/job_progress_bar.h"

#include <future>
#include <thread>

#include <QCoreApplication>
#include <QProgressBar>
#include <QPushButton>
#include <QWidget>
#include <gtest/gtest.h>

#include "ui/common/background_job.h"

namespace gwb::ui {
namespace {

constexpr int kTimeoutMs = 60000;

bool finish(BackgroundJob& job) {
  return processEventsWhileBusy([&job] { return job.isBusy(); }, [&job] { job.wait(10); },
                                kTimeoutMs);
}

TEST(JobProgressBarTest, WhileRunningShowsTheJobsProgressAndHidesWhenItFinishes) {
  BackgroundJob job(QStringLiteral("test-bar"));
  QWidget window;  // the view the bar sits in, shown
  auto& bar = *new JobProgressBar(JobProgressBar::Visibility::WhileRunning, &window);
  bar.follow(job);
  window.show();
  EXPECT_FALSE(bar.isVisible());  // nothing runs yet

  std::promise<void> reported;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  ASSERT_TRUE(job.start([&](JobContext& context) {
    context.setProgress(3, 8);
    reported.set_value();
    released.wait();
  }));
  bar.start();
  EXPECT_TRUE(bar.isVisible());
  EXPECT_TRUE(bar.isRunning());
  EXPECT_TRUE(bar.cancelButton()->isEnabled());

  reported.get_future().wait();
  // The progress report is queued to this thread: deliver it (the work is still running).
  for (int round = 0; round < 6000 && bar.bar()->maximum() != 8; ++round) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  }
  EXPECT_EQ(bar.bar()->maximum(), 8);
  EXPECT_EQ(bar.bar()->value(), 3);

  release.set_value();
  ASSERT_TRUE(finish(job));
  EXPECT_FALSE(bar.isVisible());
  EXPECT_FALSE(bar.isRunning());
  EXPECT_FALSE(bar.cancelButton()->isEnabled());
}

TEST(JobProgressBarTest, CancelReachesTheFollowedJobsWork) {
  BackgroundJob job(QStringLiteral("test-bar-cancel"));
  JobProgressBar bar(JobProgressBar::Visibility::WhileRunning);
  bar.follow(job);
  std::promise<void> running;
  bool sawCancel = false;
  ASSERT_TRUE(job.start([&](JobContext& context) {
    running.set_value();
    while (!context.cancelRequested()) std::this_thread::yield();
    sawCancel = true;
  }));
  bar.start();
  running.get_future().wait();
  bar.cancelButton()->click();
  EXPECT_TRUE(job.isCancelRequested());
  ASSERT_TRUE(finish(job));
  EXPECT_TRUE(sawCancel);
  EXPECT_FALSE(bar.isRunning());
}

TEST(JobProgressBarTest, AlwaysKeepsTheOutcomeAndAPanelDrivesCancelItself) {
  QWidget window;
  auto& bar = *new JobProgressBar(JobProgressBar::Visibility::Always, &window);
  window.show();
  EXPECT_TRUE(bar.isVisible());
  EXPECT_FALSE(bar.cancelButton()->isEnabled());
  int cancels = 0;
  QObject::connect(&bar, &JobProgressBar::cancelClicked, [&cancels] { ++cancels; });

  bar.start(QStringLiteral("reading"));
  EXPECT_EQ(bar.bar()->format(), QStringLiteral("reading"));
  EXPECT_EQ(bar.bar()->maximum(), 0);  // busy: no total yet
  bar.setIterationProgress(2, 5, 20);
  EXPECT_EQ(bar.bar()->maximum(), 20);
  EXPECT_EQ(bar.bar()->value(), 5);
  EXPECT_EQ(bar.bar()->text(), QStringLiteral("iteration 2: 5 / 20"));
  bar.cancelButton()->click();
  EXPECT_EQ(cancels, 1);

  bar.finish(QStringLiteral("cancelled"), false);
  EXPECT_TRUE(bar.isVisible());
  EXPECT_EQ(bar.bar()->value(), 0);
  EXPECT_EQ(bar.bar()->text(), QStringLiteral("cancelled"));
  EXPECT_FALSE(bar.cancelButton()->isEnabled());
  bar.setCancelEnabled(true);  // runs still queued
  EXPECT_TRUE(bar.cancelButton()->isEnabled());

  bar.start();
  bar.finish(QStringLiteral("done"));
  EXPECT_EQ(bar.bar()->value(), bar.bar()->maximum());
  EXPECT_EQ(bar.bar()->text(), QStringLiteral("done"));
}

TEST(JobProgressBarTest, TotalsBeyondTheRangeOfIntAreScaled) {
  JobProgressBar bar(JobProgressBar::Visibility::Always);
  bar.start();
  const qint64 total = 10'000'000'000LL;
  bar.setProgress(total / 2, total);
  EXPECT_GT(bar.bar()->maximum(), 0);
  EXPECT_NEAR(static_cast<double>(bar.bar()->value()) / bar.bar()->maximum(), 0.5, 1e-6);
  bar.setProgress(total, total);
  EXPECT_EQ(bar.bar()->value(), bar.bar()->maximum());
}

}  // namespace
}  // namespace gwb::ui
