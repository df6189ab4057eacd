// The batch service: many independent items (sentences, utterances, recordings) worked on by a
// few threads, with progress, cancellation and errors handled once for every caller — the CLI
// and the workbench alike.
//
// Guarantees (built on core's parallel helper, and tested under ThreadSanitizer):
// - Every item is worked on at most once; with no cancel and no error, exactly once. Callers
//   write each item's result into its own slot, so results come back in input order and do not
//   depend on the thread count; a caller that sums does so afterwards, in item order.
// - Progress: the observer hears of each finished item, one call at a time (never two at once),
//   with `finished` counting 1, 2, ... up to the number of items worked on.
// - Cancel: once `*cancel` is true no new item is started; items already started finish. The
//   outcome then says `cancelled`, and which items were left is the caller's to see (their slots
//   are untouched).
// - Errors: an exception thrown by an item stops the others from starting new items and is
//   rethrown, unchanged (a std::bad_alloc stays one), on the calling thread once every thread has
//   stopped. When several items throw, the first to do so wins.
// The calling thread works too: threads = 1 runs every item inline, in input order.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace gwb {

// Hears of finished items. Calls come from the worker threads but never overlap.
class BatchObserver {
 public:
  virtual ~BatchObserver() = default;
  // `item` has just finished; `finished` items of `total` are done.
  virtual void onItemFinished(std::size_t item, std::size_t finished, std::size_t total) = 0;
};

// A BatchObserver that calls a function (for callers that prefer a lambda).
class BatchProgressFunction : public BatchObserver {
 public:
  using Function = std::function<void(std::size_t item, std::size_t finished, std::size_t total)>;
  explicit BatchProgressFunction(Function function) : function_(std::move(function)) {}
  void onItemFinished(std::size_t item, std::size_t finished, std::size_t total) override {
    if (function_) function_(item, finished, total);
  }

 private:
  Function function_;
};

struct BatchControl {
  int threads = 1;                            // at least one; more than items is pointless
  BatchObserver* observer = nullptr;          // optional
  const std::atomic<bool>* cancel = nullptr;  // optional; set it (from anywhere) to stop
};

struct BatchOutcome {
  std::size_t finished = 0;  // items worked on
  bool cancelled = false;    // stopped by the cancel flag before every item was worked on
};

// Works on one item. Each thread gets its own (from the factory below), so it may keep
// per-thread state — a parser, a chart whose memory is reused — without locks.
using BatchWorker = std::function<void(std::size_t item)>;

// Runs items 0..count-1 on up to control.threads threads; `makeWorker` is called once per
// thread, on that thread. See the header comment for what is promised.
BatchOutcome runBatch(std::size_t count, const BatchControl& control,
                      const std::function<BatchWorker()>& makeWorker);

}  // namespace gwb
