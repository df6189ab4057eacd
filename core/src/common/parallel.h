// Running work on a few threads at once, for the core's loops over sentences, utterances and
// rules. Internal to gwb_core (not an installed header).
//
// Both helpers block until every thread has finished and rethrow, on the calling thread, the
// first exception any of them threw. The calling thread does its share of the work, so
// `threads` = 1 runs everything inline without creating a thread. Neither decides an order of
// summation: callers that reduce do so afterwards, in a fixed order, so that their results do
// not depend on the thread count.
#pragma once

#include <cstddef>
#include <functional>

namespace gwb::parallel {

// Runs `work` once on each of `threads` threads (at least one). `work` typically takes items
// from a shared atomic counter until none are left.
void runOnThreads(int threads, const std::function<void()>& work);

// Calls `body(begin, end)` on consecutive ranges that together cover [0, n) exactly once, on up
// to `threads` threads; no range is shorter than `grain` items unless n is.
void forEachRange(std::size_t n, int threads, std::size_t grain,
                  const std::function<void(std::size_t begin, std::size_t end)>& body);

}  // namespace gwb::parallel
