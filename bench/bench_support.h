// Helpers shared by the benchmark files: locating ../shared and reporting memory.
//
// A benchmark that needs a shared file calls requireShared() before its timing loop; when the
// file is missing it marks the benchmark skipped with a message naming the path (the rest of the
// run goes on), so gwb_bench works on a clone without ../shared. The benchmarks also link
// tests/support's gwb_test_support (built with GWB_BUILD_BENCH even when GWB_BUILD_TESTS is
// OFF) for the workloads they share with the tests (geo_workload.h), not for its test macros.
#pragma once

#include <string>

#include <benchmark/benchmark.h>

namespace gwb::bench {

// The shared folder: the environment variable GWB_SHARED_DIR if set, else the CMake cache path.
std::string sharedDir();
// sharedDir() + "/" + relative.
std::string sharedPath(const std::string& relative);

// Sets *path to the full path of `relative` under the shared folder and returns true; or, when
// the file is missing, calls state.SkipWithError with a clear message and returns false (the
// caller must then return without entering its timing loop).
bool requireShared(benchmark::State& state, const std::string& relative, std::string* path);

// Size of a file in bytes, or -1 if it cannot be read.
long long fileSize(const std::string& path);

// The process's peak resident set size so far, in MiB (getrusage). It only grows: within one
// gwb_bench run it covers every benchmark before this one; scripts/bench.sh runs each
// benchmark in its own process to get a per-benchmark figure.
double peakRssMiB();
// Adds the `peak_rss_MiB` counter to `state`.
void reportPeakRss(benchmark::State& state);

}  // namespace gwb::bench
