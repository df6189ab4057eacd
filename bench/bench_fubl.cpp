// FUBL learning (gwb/ccg/fubl_learner.h) on one Geo250 fold — English fold 0, 225 training pairs,
// UBL's English fixed lexicon — beside UBL's figures on this machine kind
// (../shared/reference/ubl/BENCHMARKS.md: 26–51 s wall and about 1 GB a fold for 10 epochs).
//
//   FublInitialise/geo250en0   Model 1, MAX-FAC of the training pairs, lexical entries.
//   FublPass/geo250en0/passes:P/threads:T
//                              initialisation plus P passes of Steps 1 and 2 (and the final
//                              pruning) on T threads (FublOptions::threads), wall time; counters:
//                              s/pass, lexemes, templates, entries, train_accuracy (last pass),
//                              peak_rss_MiB.
//   FublEvaluate/geo250en0     the 25 test sentences of the fold after 2 passes (with the
//                              word-skipping fallback): F1, ms/sentence.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/fubl_learner.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"

namespace {

using namespace gwb::ccg;

struct FoldData {
  TypeSystem types;
  std::vector<SemanticExample> train;
  std::vector<SemanticExample> test;
  FactoredLexicon fixed;
};

bool loadFold(benchmark::State& state, FoldData* data) {
  std::string typesPath;
  std::string langPath;
  std::string trainPath;
  std::string testPath;
  std::string fixedPath;
  if (!gwb::bench::requireShared(state, "data/geoquery/geo-lambda.types", &typesPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/geo-lambda.lang", &langPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/geo250/en/fold-0/train", &trainPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/geo250/en/fold-0/test", &testPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/geo250/en-np-fixedlex.geo", &fixedPath)) {
    return false;
  }
  data->types = loadTypeSystem(typesPath, langPath).types;
  data->train = loadSemanticExamples(trainPath).examples;
  data->test = loadSemanticExamples(testPath).examples;
  data->fixed = loadFixedLexicon(fixedPath).lexicon;
  return true;
}

void fublInitialise(benchmark::State& state) {
  FoldData data;
  if (!loadFold(state, &data)) return;
  std::size_t entries = 0;
  for (auto _ : state) {
    FublLearner learner(data.types, {});
    learner.initialise(data.train, data.fixed);
    entries = learner.lexicon().entryCount();
  }
  state.counters["entries"] = static_cast<double>(entries);
  gwb::bench::reportPeakRss(state);
}

void fublPasses(benchmark::State& state) {
  FoldData data;
  if (!loadFold(state, &data)) return;
  const int passes = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  PassSummary last;
  double passSeconds = 0;
  for (auto _ : state) {
    FublOptions options;
    options.passes = passes;
    options.threads = threads;
    FublLearner learner(data.types, options);
    passSeconds = 0;
    learner.train(data.train, data.fixed, {}, [&](const PassSummary& summary) {
      last = summary;
      passSeconds += summary.seconds;
    });
  }
  state.counters["s/pass"] = passSeconds / passes;
  state.counters["lexemes"] = static_cast<double>(last.lexemes);
  state.counters["templates"] = static_cast<double>(last.templates);
  state.counters["entries"] = static_cast<double>(last.entries);
  state.counters["train_accuracy"] =
      static_cast<double>(last.correctBeforeUpdate) / std::max(1, last.examples);
  gwb::bench::reportPeakRss(state);
}

void fublEvaluate(benchmark::State& state) {
  FoldData data;
  if (!loadFold(state, &data)) return;
  FublOptions options;
  options.passes = 2;
  FublLearner learner(data.types, options);
  learner.train(data.train, data.fixed);
  EvaluationResult result;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    result = evaluateSemanticParser(learner.lexicon(), learner.options().parser, data.test, {});
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["F1"] = result.plain.f1();
  state.counters["F1_skipping"] = result.withSkipping.f1();
  state.counters["ms/sentence"] =
      1000 * seconds /
      (static_cast<double>(data.test.size()) * static_cast<double>(state.iterations()));
  gwb::bench::reportPeakRss(state);
}

BENCHMARK(fublInitialise)->Name("FublInitialise/geo250en0")->Unit(benchmark::kMillisecond);
BENCHMARK(fublPasses)
    ->Name("FublPass/geo250en0")
    ->ArgNames({"passes", "threads"})
    ->Args({1, 1})
    ->Args({2, 1})
    ->Args({2, 2})
    ->Args({5, 1})
    ->Args({5, 2})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);
BENCHMARK(fublEvaluate)->Name("FublEvaluate/geo250en0")->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
