// BackgroundTask (gwb/common/background_task.h): reports in order on the owner's thread,
// progress coalesced, the finished notice last with the work's exception, cancel, and
// destruction while running. Part of the `threads` label, which CI runs under ThreadSanitizer:
// the first test has the owner deliver while the work still reports. No test waits on the
// clock: the work and the owner meet through promises.
#include "gwb/common/background_task.h"

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace gwb {
namespace {

// The owner's side: counts wake-ups (from the worker) and records, on the owner's thread, what
// is delivered, in order.
class Owner : public BackgroundTaskObserver {
 public:
  void onReportQueued() override {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      ++wakeups_;
      ++wakeupsEver_;
    }
    woken_.notify_all();
  }
  void onProgress(std::int64_t done, std::int64_t total) override {
    checkThread();
    events.push_back("progress " + std::to_string(done) + "/" + std::to_string(total));
  }
  void onFinished(const std::exception_ptr& e) override {
    checkThread();
    events.emplace_back("finished");
    error = e;
  }
  // A report the work posts: recorded when it runs on the owner's thread.
  std::function<void()> report(std::string text) {
    return [this, text = std::move(text)] {
      checkThread();
      events.push_back(text);
    };
  }
  // The owner's event loop: one deliverOne() per wake-up, until the finished notice.
  void run(BackgroundTask& task) {
    while (task.isBusy()) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        woken_.wait(lock, [this] { return wakeups_ > 0; });
        --wakeups_;
      }
      EXPECT_TRUE(task.deliverOne());
    }
  }
  int wakeupsEver() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return wakeupsEver_;
  }

  std::vector<std::string> events;  // the owner's thread only
  std::exception_ptr error;

 private:
  void checkThread() const { EXPECT_EQ(std::this_thread::get_id(), ownerThread_); }

  const std::thread::id ownerThread_ = std::this_thread::get_id();
  std::mutex mutex_;
  std::condition_variable woken_;
  int wakeups_ = 0;
  int wakeupsEver_ = 0;
};

std::string messageOf(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "(not a std::exception)";
  }
}

TEST(BackgroundTaskTest, ReportsArriveInOrderOnTheOwnersThreadWhileTheWorkRuns) {
  constexpr int kSteps = 2000;
  Owner owner;
  BackgroundTask task("gwb-test", &owner);
  ASSERT_TRUE(task.start([&owner](TaskContext& context) {
    for (int i = 0; i < kSteps; ++i) {
      context.post(owner.report("report " + std::to_string(i)));
      context.setProgress(i + 1, kSteps);
    }
  }));
  EXPECT_TRUE(task.isBusy());
  owner.run(task);

  ASSERT_FALSE(owner.events.empty());
  EXPECT_EQ(owner.events.back(), "finished");
  int nextReport = 0;
  long lastDone = 0;
  int progressEvents = 0;
  std::string lastProgress;
  for (std::size_t i = 0; i + 1 < owner.events.size(); ++i) {
    const std::string& event = owner.events[i];
    if (event.rfind("report ", 0) == 0) {
      EXPECT_EQ(event, "report " + std::to_string(nextReport)) << i;
      ++nextReport;
    } else {
      ASSERT_EQ(event.rfind("progress ", 0), 0U) << event;
      const long done = std::stol(event.substr(9));
      EXPECT_GT(done, lastDone) << "progress goes forward, never repeats: " << event;
      lastDone = done;
      lastProgress = event;
      ++progressEvents;
    }
  }
  EXPECT_EQ(nextReport, kSteps);
  EXPECT_EQ(lastProgress, "progress 2000/2000") << "the last values come before finished";
  EXPECT_LE(progressEvents, kSteps);
  EXPECT_FALSE(owner.error);
  EXPECT_FALSE(task.isRunning());
  EXPECT_EQ(task.done(), kSteps);
  EXPECT_EQ(task.total(), kSteps);
}

TEST(BackgroundTaskTest, ProgressIsCoalescedToOneQueuedEntryWithTheLatestValues) {
  Owner owner;
  BackgroundTask task("gwb-test", &owner);
  ASSERT_TRUE(task.start([](TaskContext& context) {
    for (int i = 1; i <= 100000; ++i) context.setProgress(i, 100000);
  }));
  task.wait();  // nothing delivered while the work ran
  task.finish();
  EXPECT_EQ(owner.events, (std::vector<std::string>{"progress 100000/100000", "finished"}));
  EXPECT_EQ(owner.wakeupsEver(), 2) << "one progress entry and the finished notice";
  EXPECT_FALSE(task.isBusy());

  // Between reports: the one progress entry keeps its place and carries the latest values.
  Owner second;
  BackgroundTask ordered("gwb-test", &second);
  ASSERT_TRUE(ordered.start([&second](TaskContext& context) {
    context.setProgress(1, 3);
    context.post(second.report("a"));
    context.setProgress(2, 3);
    context.post(second.report("b"));
    context.setProgress(3, 3);
  }));
  ordered.finish();
  EXPECT_EQ(second.events, (std::vector<std::string>{"progress 3/3", "a", "b", "finished"}));
}

TEST(BackgroundTaskTest, AProgressRepeatingTheDeliveredValuesIsSkipped) {
  Owner owner;
  BackgroundTask task("gwb-test", &owner);
  std::promise<void> delivered;
  std::shared_future<void> deliveredFuture = delivered.get_future().share();
  ASSERT_TRUE(task.start([deliveredFuture](TaskContext& context) {
    context.setProgress(5, 10);
    deliveredFuture.wait();
    context.setProgress(5, 10);  // queued again, but says nothing new
  }));
  // The first progress entry is queued before the work waits: deliver it now.
  while (!task.deliverOne()) std::this_thread::yield();
  EXPECT_EQ(owner.events, (std::vector<std::string>{"progress 5/10"}));
  delivered.set_value();
  task.finish();
  EXPECT_EQ(owner.events, (std::vector<std::string>{"progress 5/10", "finished"}));
}

TEST(BackgroundTaskTest, CancelIsSeenByTheWorkWhichThenReturns) {
  Owner owner;
  BackgroundTask task("gwb-test", &owner);
  std::promise<void> started;
  const std::atomic<bool>* flagSeen = nullptr;
  ASSERT_TRUE(task.start([&](TaskContext& context) {
    flagSeen = &context.cancelFlag();
    started.set_value();
    while (!context.cancelRequested()) std::this_thread::yield();
    context.post(owner.report("saw cancel"));
  }));
  started.get_future().wait();
  EXPECT_TRUE(task.isRunning());
  EXPECT_FALSE(task.cancelRequested());
  task.cancel();
  task.finish();
  EXPECT_EQ(owner.events, (std::vector<std::string>{"saw cancel", "finished"}));
  EXPECT_FALSE(owner.error) << "a cancelled work that returns has not failed";
  EXPECT_TRUE(task.cancelRequested());
  EXPECT_TRUE(flagSeen != nullptr && flagSeen->load());
  EXPECT_FALSE(task.isRunning());
  EXPECT_FALSE(task.isBusy());
}

TEST(BackgroundTaskTest, AnExceptionIsHandedOverAfterTheReportsAndANewRunClearsIt) {
  Owner owner;
  BackgroundTask task("gwb-test", &owner);
  ASSERT_TRUE(task.start([&owner](TaskContext& context) {
    context.post(owner.report("before"));
    throw std::runtime_error("boom");
  }));
  owner.run(task);
  EXPECT_EQ(owner.events, (std::vector<std::string>{"before", "finished"}));
  ASSERT_TRUE(owner.error);
  EXPECT_EQ(messageOf(owner.error), "boom");
  EXPECT_EQ(task.error(), owner.error);
  EXPECT_THROW(std::rethrow_exception(task.error()), std::runtime_error);

  // Whatever is thrown (not only std::exception) is carried over.
  ASSERT_TRUE(task.start([](TaskContext&) { throw 42; }));
  owner.run(task);
  ASSERT_TRUE(task.error());
  EXPECT_EQ(messageOf(task.error()), "(not a std::exception)");

  // And the next run that returns normally has no error.
  ASSERT_TRUE(task.start([](TaskContext& context) { context.setProgress(1, 1); }));
  owner.run(task);
  EXPECT_FALSE(task.error());
  EXPECT_EQ(owner.events.back(), "finished");
  EXPECT_EQ(owner.events[owner.events.size() - 2], "progress 1/1");
}

TEST(BackgroundTaskTest, DestroyingARunningTaskCancelsWaitsAndDeliversNothing) {
  Owner owner;
  auto task = std::make_unique<BackgroundTask>("gwb-test", &owner);
  std::promise<void> started;
  bool returned = false;  // written by the work; read after the destructor joined it
  ASSERT_TRUE(task->start([&](TaskContext& context) {
    context.post(owner.report("never delivered"));
    context.setProgress(1, 2);
    started.set_value();
    while (!context.cancelRequested()) std::this_thread::yield();
    returned = true;
  }));
  started.get_future().wait();
  task.reset();
  EXPECT_TRUE(returned);
  EXPECT_TRUE(owner.events.empty());
  EXPECT_GE(owner.wakeupsEver(), 2);
}

TEST(BackgroundTaskTest, OneWorkAtATimeAndWaitForGivesUpWhileItRuns) {
  Owner owner;
  BackgroundTask task("gwb-test", &owner);
  EXPECT_TRUE(task.waitFor(std::chrono::milliseconds(0))) << "nothing runs";
  EXPECT_FALSE(task.deliverOne());
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  ASSERT_TRUE(task.start([released](TaskContext&) { released.wait(); }));
  EXPECT_FALSE(task.start([](TaskContext&) {})) << "busy";
  EXPECT_FALSE(task.waitFor(std::chrono::milliseconds(0))) << "the work waits for us";
  EXPECT_TRUE(task.isRunning());
  release.set_value();
  task.wait();
  EXPECT_FALSE(task.isRunning());
  EXPECT_TRUE(task.isBusy()) << "until the finished notice is delivered";
  EXPECT_FALSE(task.start([](TaskContext&) {}));
  task.finish();
  EXPECT_FALSE(task.isBusy());
  EXPECT_EQ(owner.events, (std::vector<std::string>{"finished"}));
  ASSERT_TRUE(task.start([](TaskContext&) {}));
  task.finish();
  EXPECT_EQ(owner.events, (std::vector<std::string>{"finished", "finished"}));
}

}  // namespace
}  // namespace gwb
