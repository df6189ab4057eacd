// BackgroundJob, the one way the workbench runs work off the UI thread: reports arrive on the
// owner's thread in the order the work made them and before finished(); cancel reaches the work;
// destroying a running job cancels and joins it without emitting anything; an exception in the
// work is reported, not a crash. No test waits on the clock: the work and the test hand over
// through flags and promises, and the only time limit is a generous "it did not hang".
#include "ui/common/background_job.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <QCoreApplication>
#include <QThread>
#include <gtest/gtest.h>

#include "gwb/common/batch.h"

namespace gwb::ui {
namespace {

constexpr int kTimeoutMs = 600000;  // only "it did not hang": no test races the clock

// Runs the UI thread's events until the job has emitted finished().
bool finish(BackgroundJob& job) {
  return processEventsWhileBusy([&job] { return job.isBusy(); }, [&job] { job.wait(10); },
                                kTimeoutMs);
}

// What the owner's thread saw, in order: "progress d/t", "post i", "finished".
struct Recorder {
  std::vector<std::string> events;
  std::vector<Qt::HANDLE> threads;

  void connectTo(BackgroundJob& job) {
    QObject::connect(&job, &BackgroundJob::progress, &job, [this](qint64 done, qint64 total) {
      record("progress " + std::to_string(done) + "/" + std::to_string(total));
    });
    QObject::connect(&job, &BackgroundJob::finished, &job, [this] { record("finished"); });
  }
  void record(const std::string& event) {
    events.push_back(event);
    threads.push_back(QThread::currentThreadId());
  }
};

TEST(BackgroundJobTest, ReportsArriveOnTheOwnersThreadInOrderBeforeFinished) {
  constexpr int kSteps = 500;
  BackgroundJob job(QStringLiteral("test-order"));
  Recorder recorder;
  recorder.connectTo(job);
  std::atomic<Qt::HANDLE> workThread{nullptr};
  ASSERT_TRUE(job.start([&](JobContext& context) {
    workThread = QThread::currentThreadId();
    for (int i = 1; i <= kSteps; ++i) {
      context.setProgress(i, kSteps);
      context.post([&recorder, i] { recorder.record("post " + std::to_string(i)); });
    }
  }));
  EXPECT_TRUE(job.isBusy());
  ASSERT_TRUE(finish(job));

  ASSERT_FALSE(recorder.events.empty());
  EXPECT_EQ(recorder.events.back(), "finished");
  EXPECT_EQ(recorder.events.end() - 1,
            std::find(recorder.events.begin(), recorder.events.end(), "finished"))
      << "finished() is emitted once";
  // Every post, in order; progress never goes back and ends at the last report, before
  // finished().
  int nextPost = 1;
  qint64 lastDone = 0;
  std::string lastProgress;
  for (const std::string& event : recorder.events) {
    if (event.rfind("post ", 0) == 0) {
      EXPECT_EQ(event, "post " + std::to_string(nextPost));
      ++nextPost;
    } else if (event.rfind("progress ", 0) == 0) {
      const qint64 done = std::stoll(event.substr(9));
      EXPECT_GT(done, lastDone) << event;
      lastDone = done;
      lastProgress = event;
    }
  }
  EXPECT_EQ(nextPost, kSteps + 1);
  EXPECT_EQ(lastProgress, "progress 500/500");
  EXPECT_EQ(job.done(), kSteps);
  EXPECT_EQ(job.total(), kSteps);
  for (Qt::HANDLE thread : recorder.threads) EXPECT_EQ(thread, QThread::currentThreadId());
  EXPECT_NE(workThread.load(), QThread::currentThreadId()) << "the work ran on the UI thread";
  EXPECT_TRUE(job.errorText().isEmpty());
}

TEST(BackgroundJobTest, CancelReachesTheWorkAndTheJobStillFinishes) {
  BackgroundJob job(QStringLiteral("test-cancel"));
  Recorder recorder;
  recorder.connectTo(job);
  std::promise<void> running;
  std::atomic<bool> sawCancel{false};
  ASSERT_TRUE(job.start([&](JobContext& context) {
    running.set_value();
    while (!context.cancelRequested()) std::this_thread::yield();
    sawCancel = context.cancelFlag().load();
  }));
  running.get_future().wait();
  EXPECT_TRUE(job.isRunning());
  EXPECT_FALSE(job.start([](JobContext&) {})) << "a busy job starts nothing";
  job.cancel();
  ASSERT_TRUE(finish(job));
  EXPECT_TRUE(sawCancel.load());
  EXPECT_TRUE(job.isCancelRequested());
  EXPECT_EQ(recorder.events, std::vector<std::string>{"finished"});

  // A finished job runs again, with the flag cleared.
  std::atomic<bool> cancelledAtStart{true};
  ASSERT_TRUE(
      job.start([&](JobContext& context) { cancelledAtStart = context.cancelRequested(); }));
  ASSERT_TRUE(finish(job));
  EXPECT_FALSE(cancelledAtStart.load());
  EXPECT_EQ(recorder.events, (std::vector<std::string>{"finished", "finished"}));
}

TEST(BackgroundJobTest, DestroyingARunningJobCancelsAndJoinsItWithoutReports) {
  auto job = std::make_unique<BackgroundJob>(QStringLiteral("test-destroy"));
  Recorder recorder;
  recorder.connectTo(*job);
  std::promise<void> running;
  // Owned by the test so that it outlives the job: the work sets it after the cancel.
  auto returned = std::make_shared<std::atomic<bool>>(false);
  ASSERT_TRUE(job->start([&running, returned](JobContext& context) {
    context.post([] {});
    context.setProgress(1, 2);
    running.set_value();
    while (!context.cancelRequested()) std::this_thread::yield();
    *returned = true;
  }));
  running.get_future().wait();
  job.reset();  // must not hang: the destructor cancels, then joins
  EXPECT_TRUE(returned->load()) << "the destructor returned before the work did";
  QCoreApplication::processEvents();
  EXPECT_TRUE(recorder.events.empty()) << "a destroyed job reports nothing";
}

TEST(BackgroundJobTest, AnExceptionInTheWorkIsReportedAndTheJobFinishes) {
  BackgroundJob job(QStringLiteral("test-throw"));
  Recorder recorder;
  recorder.connectTo(job);
  ASSERT_TRUE(job.start([](JobContext& context) {
    context.setProgress(1, 3);
    throw std::runtime_error("the grammar exploded");
  }));
  ASSERT_TRUE(finish(job));
  EXPECT_EQ(job.errorText(), QStringLiteral("the grammar exploded"));
  EXPECT_EQ(recorder.events, (std::vector<std::string>{"progress 1/3", "finished"}));

  ASSERT_TRUE(job.start([](JobContext&) { throw 42; }));
  ASSERT_TRUE(finish(job));
  EXPECT_FALSE(job.errorText().isEmpty()) << "an exception of any type is reported";

  ASSERT_TRUE(job.start([](JobContext&) {}));
  ASSERT_TRUE(finish(job));
  EXPECT_TRUE(job.errorText().isEmpty()) << "the next run starts without the old error";
}

TEST(BackgroundJobTest, WaitAndFinishDeliversEverythingBeforeItReturns) {
  BackgroundJob job(QStringLiteral("test-wait"));
  Recorder recorder;
  recorder.connectTo(job);
  ASSERT_TRUE(job.start([&recorder](JobContext& context) {
    for (int i = 1; i <= 3; ++i)
      context.post([&recorder, i] { recorder.record("post " + std::to_string(i)); });
    context.setProgress(3, 3);
  }));
  // No event loop runs here: waitAndFinish itself delivers the queued reports, then finished().
  ASSERT_TRUE(job.waitAndFinish(kTimeoutMs));
  EXPECT_FALSE(job.isBusy());
  EXPECT_EQ(recorder.events,
            (std::vector<std::string>{"post 1", "post 2", "post 3", "progress 3/3", "finished"}));
  QCoreApplication::processEvents();
  EXPECT_EQ(recorder.events.size(), 5U) << "nothing is delivered twice";

  // cancelAndFinish: the same, after a cancel the work waits for.
  std::promise<void> running;
  ASSERT_TRUE(job.start([&running](JobContext& context) {
    running.set_value();
    while (!context.cancelRequested()) std::this_thread::yield();
  }));
  running.get_future().wait();
  job.cancelAndFinish();
  EXPECT_FALSE(job.isBusy());
  EXPECT_EQ(recorder.events.back(), "finished");
  EXPECT_EQ(recorder.events.size(), 6U);
}

TEST(BackgroundJobTest, ABatchInsideAJobReportsItsProgressAndStopsOnCancel) {
  constexpr std::size_t kItems = 40;
  BackgroundJob job(QStringLiteral("test-batch"));
  Recorder recorder;
  recorder.connectTo(job);
  std::vector<int> worked(kItems, 0);
  ASSERT_TRUE(job.start([&worked](JobContext& context) {
    // The second of two batches: its progress continues from the first's 40.
    const BatchRelay batch(context, 3, kItems, 2 * kItems);
    gwb::runBatch(kItems, batch.control(),
                  [&worked] { return [&worked](std::size_t item) { worked[item] += 1; }; });
  }));
  ASSERT_TRUE(finish(job));
  EXPECT_EQ(worked, std::vector<int>(kItems, 1));
  EXPECT_EQ(job.done(), 2 * kItems);
  EXPECT_EQ(job.total(), 2 * kItems);
  EXPECT_EQ(recorder.events.end()[-2], "progress 80/80");

  // Cancel: the items not yet started are never started.
  std::promise<void> running;
  std::atomic<int> started{0};
  ASSERT_TRUE(job.start([&](JobContext& context) {
    const BatchRelay batch(context, 1);
    gwb::runBatch(kItems, batch.control(), [&] {
      return [&](std::size_t item) {
        started += 1;
        if (item == 0) {
          running.set_value();
          while (!context.cancelRequested()) std::this_thread::yield();
        }
      };
    });
  }));
  running.get_future().wait();
  job.cancel();
  ASSERT_TRUE(finish(job));
  EXPECT_EQ(started.load(), 1) << "the batch went on after the cancel";
}

}  // namespace
}  // namespace gwb::ui
