#include "gwb/common/batch.h"

#include <algorithm>
#include <mutex>

#include "common/parallel.h"

namespace gwb {

BatchOutcome runBatch(std::size_t count, const BatchControl& control,
                      const std::function<BatchWorker()>& makeWorker) {
  BatchOutcome outcome;
  if (count == 0) return outcome;
  const auto cancelled = [&] {
    return control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed);
  };
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex reportMutex;  // serialises the observer and the finished count
  std::size_t finished = 0;
  const int threads =
      std::max(1, static_cast<int>(std::min<std::size_t>(
                      count, static_cast<std::size_t>(std::max(1, control.threads)))));
  parallel::runOnThreads(threads, [&] {
    try {
      const BatchWorker work = makeWorker();
      while (!failed.load(std::memory_order_relaxed) && !cancelled()) {
        const std::size_t item = next.fetch_add(1);
        if (item >= count) break;
        work(item);
        const std::lock_guard<std::mutex> lock(reportMutex);
        ++finished;
        if (control.observer != nullptr) control.observer->onItemFinished(item, finished, count);
      }
    } catch (...) {
      failed = true;  // the others stop taking items; runOnThreads rethrows the first failure
      throw;
    }
  });
  outcome.finished = finished;
  outcome.cancelled = finished < count;
  return outcome;
}

}  // namespace gwb
