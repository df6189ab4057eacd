// The one main() of gwb_bench. Benchmarks live in bench_<topic>.cpp files and register
// themselves with BENCHMARK(); this file only adds a line of context before running them.
#include <cstdio>

#include <benchmark/benchmark.h>

#include "bench_support.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("gwb_shared_dir", gwb::bench::sharedDir());
  benchmark::AddCustomContext("gwb_build_type", GWB_BENCH_BUILD_TYPE);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
