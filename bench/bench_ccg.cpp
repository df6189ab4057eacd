// CCG semantic parsing: the log-linear CKY parser (gwb/ccg/cky_parser.h) on the 280 Geo880 test
// sentences (geosents280-typed.ccg.test) with a lexicon of realistic size, built by
// tests/support/geo_workload.h (shared with the slow test that pins its figures): UBL's fixed
// entity lexicon (np-fixedlex.geo, 2,382 NP entries) plus entries generated from the word/constant
// co-occurrence scores that initialise the paper's lexeme weights (geo600.dev.giza_probs): every
// pair scoring above 0.02 becomes a lexeme (word, [constant]) with weight 10 × score (UBL's
// initialisation multiplier), every word of the test sentences a constant-free lexeme, and ten
// templates of the shapes FUBL learns (S|NP : λx.p(x), (S|NP)/NP : λy.λx.p(x,y), NP/NP, ...)
// pair with them where the types fit (geo-lambda.types/.lang).
//
//   CcgLexicon/geo880          build the lexical entries (lexemes × templates, type-checked).
//   CcgParse/geo280/beam<N>    parse all 280 sentences with a beam of N per cell, composition
//                              on. (UBL's experiments use 200; with this lexicon's many
//                              spurious identity-template derivations a beam of 200 did not
//                              finish the 280 sentences in 9 minutes on the shared 2-core
//                              machine, so the table stops at 50.)
//   CcgParse/geo280/beam20/skip     the same with word skipping (each skipped word costs 1).
//   CcgInsideOutside/geo280/beam20  parse + feature expectations (the learner's per-example work).
// Counters: ms/sentence (wall), cpu_ms/sentence (this thread's CPU time: quote this one on a
// loaded machine), sentences/s, entries/sentence (chart entries kept, mean),
// edges/sentence (derivation steps made, pruned ones included), max_entries
// (the largest chart), pruned/sentence, parsed (sentences with an S over all words),
// lexical_entries, peak_rss_MiB.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <time.h>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "geo_workload.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"

namespace {

using namespace gwb::ccg;

struct GeoSetup {
  gwb::testing::GeoWorkload workload;
  std::vector<std::vector<std::string>> sentences;
  bool ok = false;
};

double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The workload the slow reference test pins (tests/support/geo_workload.h), built once.
GeoSetup* geoSetup(benchmark::State& state) {
  static std::unique_ptr<GeoSetup> setup;
  if (setup) return setup->ok ? setup.get() : nullptr;
  setup = std::make_unique<GeoSetup>();
  std::string path;
  for (const std::string& file : gwb::testing::geoWorkloadFiles()) {
    if (!gwb::bench::requireShared(state, file, &path)) return nullptr;
  }
  std::string error;
  std::optional<gwb::testing::GeoWorkload> workload =
      gwb::testing::loadGeoWorkload(gwb::bench::sharedDir(), &error);
  if (!workload) {
    state.SkipWithError(("the GeoQuery files have errors: " + error).c_str());
    return nullptr;
  }
  setup->workload = std::move(*workload);
  for (const SemanticExample& example : setup->workload.test) {
    setup->sentences.push_back(example.words);
  }
  setup->ok = true;
  return setup.get();
}

void lexiconBuild(benchmark::State& state) {
  GeoSetup* setup = geoSetup(state);
  if (!setup) return;
  FactoredLexicon lexicon = setup->workload.lexicon;
  for (auto _ : state) benchmark::DoNotOptimize(lexicon.buildEntries(&setup->workload.types));
  state.counters["lexemes"] = static_cast<double>(lexicon.lexemes().size());
  state.counters["templates"] = static_cast<double>(lexicon.templates().size());
  state.counters["lexical_entries"] = static_cast<double>(setup->workload.entries);
  gwb::bench::reportPeakRss(state);
}

void parseAll(benchmark::State& state, int beam, bool skipWords, bool expectations) {
  GeoSetup* setup = geoSetup(state);
  if (!setup) return;
  CkyOptions options;
  options.beam = beam;
  options.skipWords = skipWords;
  options.keepPrunedEntries = false;  // as a learner would parse
  options.recordEvents = false;
  double entries = 0;
  double pruned = 0;
  double edges = 0;
  double maxEntries = 0;
  int parsed = 0;
  double seconds = 0;
  double cpuSeconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const double cpuStart = threadCpuSeconds();
    entries = 0;
    pruned = 0;
    edges = 0;
    maxEntries = 0;
    parsed = 0;
    for (const auto& words : setup->sentences) {
      CkyChart chart(setup->workload.lexicon, words, options);
      const double kept = static_cast<double>(chart.entryCount());
      entries += kept;
      maxEntries = std::max(maxEntries, kept);
      for (int b = 0; b < chart.length(); ++b) {
        for (int e = b + 1; e <= chart.length(); ++e) {
          for (const ChartEntry& entry : chart.cell(b, e).entries) pruned += entry.pruned ? 1 : 0;
        }
      }
      edges += static_cast<double>(chart.edgesMade());
      if (chart.hasParse()) {
        ++parsed;
        benchmark::DoNotOptimize(chart.kBest(1));
        if (expectations) benchmark::DoNotOptimize(chart.expectations());
      }
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpuSeconds += threadCpuSeconds() - cpuStart;
  }
  const double sentences = static_cast<double>(setup->sentences.size());
  state.counters["ms/sentence"] =
      1000 * seconds / (sentences * static_cast<double>(state.iterations()));
  // CPU time of this thread: the figure to quote on a loaded machine (wall time counts the
  // time other processes had the cores).
  state.counters["cpu_ms/sentence"] =
      1000 * cpuSeconds / (sentences * static_cast<double>(state.iterations()));
  state.counters["sentences/s"] =
      benchmark::Counter(sentences, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["entries/sentence"] = entries / sentences;
  state.counters["max_entries"] = maxEntries;
  state.counters["pruned/sentence"] = pruned / sentences;
  state.counters["edges/sentence"] = edges / sentences;
  state.counters["parsed"] = parsed;
  state.counters["lexical_entries"] = static_cast<double>(setup->workload.entries);
  gwb::bench::reportPeakRss(state);
}

[[maybe_unused]] const bool kRegistered = [] {
  benchmark::RegisterBenchmark("CcgLexicon/geo880", lexiconBuild)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  for (int beam : {10, 20, 50, 200}) {
    benchmark::RegisterBenchmark(("CcgParse/geo280/beam" + std::to_string(beam)).c_str(), parseAll,
                                 beam, false, false)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
  }
  benchmark::RegisterBenchmark("CcgParse/geo280/beam20/skip", parseAll, 20, true, false)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(1);
  benchmark::RegisterBenchmark("CcgInsideOutside/geo280/beam20", parseAll, 20, false, true)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(1);
  return true;
}();

}  // namespace
