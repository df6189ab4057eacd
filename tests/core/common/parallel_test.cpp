// The core's thread helpers (core/src/common/parallel.h): every index exactly once, the caller's
// thread taking part, and exceptions carried back to the caller.
#include "common/parallel.h"

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace gwb {
namespace {

TEST(ParallelTest, RangesCoverEveryIndexOnce) {
  for (const std::size_t n : {0u, 1u, 2u, 7u, 100u, 4097u, 10000u}) {
    for (const int threads : {1, 2, 3, 8}) {
      for (const std::size_t grain : {1u, 16u, 2048u}) {
        SCOPED_TRACE(::testing::Message()
                     << "n=" << n << " threads=" << threads << " grain=" << grain);
        std::vector<std::atomic<int>> seen(n);
        std::atomic<int> calls{0};
        parallel::forEachRange(n, threads, grain, [&](std::size_t begin, std::size_t end) {
          ++calls;
          EXPECT_LT(begin, end);
          EXPECT_LE(end, n);
          if (end - begin < grain) {
            EXPECT_TRUE(begin == 0 && end == n) << "a short range";
          }
          for (std::size_t i = begin; i < end; ++i) ++seen[i];
        });
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << "index " << i;
        EXPECT_LE(calls.load(), threads);
        EXPECT_EQ(calls.load() == 0, n == 0);
      }
    }
  }
}

TEST(ParallelTest, RunsOnTheCallersThreadAndOthers) {
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> onCaller{0};
  std::atomic<int> runs{0};
  parallel::runOnThreads(3, [&] {
    ++runs;
    if (std::this_thread::get_id() == caller) ++onCaller;
  });
  EXPECT_EQ(runs.load(), 3);
  EXPECT_EQ(onCaller.load(), 1);

  runs = 0;
  parallel::runOnThreads(1, [&] {
    ++runs;
    EXPECT_EQ(std::this_thread::get_id(), caller);
  });
  EXPECT_EQ(runs.load(), 1);
}

TEST(ParallelTest, AnExceptionReachesTheCallerAfterAllThreadsStop) {
  std::atomic<int> finished{0};
  std::atomic<int> started{0};
  EXPECT_THROW(parallel::runOnThreads(4,
                                      [&] {
                                        if (started++ == 1) throw std::runtime_error("boom");
                                        ++finished;
                                      }),
               std::runtime_error);
  EXPECT_EQ(started.load(), 4);
  EXPECT_EQ(finished.load(), 3);
  EXPECT_THROW(parallel::forEachRange(100, 2, 1,
                                      [](std::size_t begin, std::size_t) {
                                        if (begin > 0) throw std::out_of_range("second half");
                                      }),
               std::out_of_range);
}

}  // namespace
}  // namespace gwb
