// The canary of the UI's ThreadSanitizer setup: a job whose work writes a count after its last
// report while the UI thread reads it in the progress handler — the bug BackgroundJob's
// users must not write. The two threads take turns through relaxed atomics, which order
// nothing, so the read and the write always both happen and never happen-before each other:
// ThreadSanitizer must report a data race however the threads are scheduled. CTest
// (ui_tsan_catches_a_deliberate_race) passes when it does, with qt.supp in force: proof that the
// suppressions and BackgroundJob's hand-over annotations do not hide a race in our code.
#include <atomic>
#include <cstdio>
#include <thread>

#include <QCoreApplication>

#include "ui/common/background_job.h"

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  gwb::ui::BackgroundJob job(QStringLiteral("deliberate-race"));
  // Each in a cache line of its own. TSan keeps the last four accesses to each 8 bytes of
  // memory: had stepsDone shared its 8 bytes with a flag that the other thread spins on, the
  // spinning loads would evict the write's record before the read, and the race would go
  // unreported (it was, in 11 of 11 local runs, once BackgroundJob had become an adapter over
  // core's BackgroundTask; aligned, it is reported in 5 of 5).
  alignas(64) int stepsDone = 0;  // a plain int: written in our code, so instrumented (a
                                  // std::string would be written inside libstdc++.so, which
                                  // TSan does not see)
  alignas(64) std::atomic<bool> written{false};
  alignas(64) std::atomic<bool> read{false};
  int seen = 0;
  QObject::connect(&job, &gwb::ui::BackgroundJob::progress, &job, [&](qint64, qint64) {
    while (!written.load(std::memory_order_relaxed)) std::this_thread::yield();
    seen = stepsDone;  // races with the write below
    read.store(true, std::memory_order_relaxed);
  });
  job.start([&](gwb::ui::JobContext& context) {
    context.setProgress(1, 1);
    stepsDone = 2;  // races with the read above
    written.store(true, std::memory_order_relaxed);
    while (!read.load(std::memory_order_relaxed)) std::this_thread::yield();
  });
  const bool finished = gwb::ui::processEventsWhileBusy([&job] { return job.isBusy(); },
                                                        [&job] { job.wait(10); }, -1);
  std::printf("deliberate race: finished=%d, read %d\n", finished ? 1 : 0, seen);
  return 0;
}
