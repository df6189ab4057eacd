#include "common/parallel.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gwb::parallel {

void runOnThreads(int threads, const std::function<void()>& work) {
  if (threads <= 1) {
    work();
    return;
  }
  std::mutex mutex;
  std::exception_ptr failure;
  const auto guarded = [&] {
    try {
      work();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  try {
    pool.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) pool.emplace_back(guarded);
  } catch (...) {
    // No thread to be had: let those started finish (they use this frame), then report it.
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  guarded();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

void forEachRange(std::size_t n, int threads, std::size_t grain,
                  const std::function<void(std::size_t begin, std::size_t end)>& body) {
  if (n == 0) return;
  const std::size_t most = std::max<std::size_t>(1, n / std::max<std::size_t>(1, grain));
  const auto parts =
      static_cast<int>(std::min<std::size_t>(most, static_cast<std::size_t>(std::max(1, threads))));
  if (parts == 1) {
    body(0, n);
    return;
  }
  // Part p (taken by whichever thread comes first) is [n·p/parts, n·(p+1)/parts).
  std::mutex mutex;
  int next = 0;
  runOnThreads(parts, [&] {
    int part = 0;
    {
      const std::lock_guard<std::mutex> lock(mutex);
      part = next++;
    }
    const auto bound = [&](int k) {
      return n / static_cast<std::size_t>(parts) * static_cast<std::size_t>(k) +
             n % static_cast<std::size_t>(parts) * static_cast<std::size_t>(k) /
                 static_cast<std::size_t>(parts);
    };
    body(bound(part), bound(part + 1));
  });
}

}  // namespace gwb::parallel
