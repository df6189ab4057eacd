// Grammar induction (issue: EM and VB over expected rule counts).
//
//   InsideOutsideEm/testengger/testeng-yld-a          Earleyx's README example: EM to
//                                                     convergence (9 iterations), Earleyx settings.
//   InsideOutsideVb/unigram/socialall/1/threads:N     one VB iteration (E-step + M-step + free
//                                                     energy) on the whole social-cue corpus,
//                                                     4,763 utterances, unigram.grammar (34,407
//                                                     rules); Earleyx: about 63 s.
//   InsideOutsideVb/socialDiscourse/recordings/1/threads:N
//                                                     one VB iteration of the discourse grammar
//                                                     over the 24 recordings, each one string.
//   InsideOutsideVb/unigram/socialall/steady/threads:N
//                                                     the time of one iteration in a run's steady
//                                                     state: the mean of iterations 3-6 of a
//                                                     6-iteration run, as the run's records give
//                                                     it (compile, E-step, M-step; the run's own
//                                                     setup and first-touch effects left out).
//   InsideOutsideVb/unigram/socialall/steady/speedup  the 2-thread speed-up of that steady-state
//                                                     iteration, from 7 paired rounds (1 thread,
//                                                     then 2, back to back; median ratio).
//   InsideOutsideVb/socialDiscourse/recordings/steady/speedup
//                                                     the same for the discourse grammar over the
//                                                     24 recordings (24 work units, 462-4,064
//                                                     tokens each).
// The grammar is loaded outside the timing loop; each run copies it, compiles it, runs the
// iteration(s) and re-estimates. Counters: sentences, tokens, tokens/s, iterations,
// peak_rss_MiB.
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"
#include "gwb/earley/tokenize.h"

namespace {

struct Corpus {
  gwb::Grammar grammar;
  std::vector<std::vector<std::string>> sentences;
  std::size_t tokens = 0;
};

void addLines(const std::string& path, Corpus& corpus) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto words = gwb::tokenize(line);
    if (words.empty()) continue;
    corpus.tokens += words.size();
    corpus.sentences.push_back(std::move(words));
  }
}

// Grammars and inputs are read once per process.
const Corpus* prepared(benchmark::State& state, const std::string& name, const std::string& grammar,
                       const std::string& root, const std::vector<std::string>& inputs) {
  static std::map<std::string, std::unique_ptr<Corpus>> cache;
  auto& slot = cache[name];
  if (!slot) {
    std::string grammarPath;
    if (!gwb::bench::requireShared(state, grammar, &grammarPath)) return nullptr;
    std::vector<std::string> inputPaths;
    for (const std::string& input : inputs) {
      std::string path;
      if (!gwb::bench::requireShared(state, input, &path)) return nullptr;
      inputPaths.push_back(path);
    }
    auto corpus = std::make_unique<Corpus>();
    gwb::GrammarReadOptions options;
    options.root = root;
    options.runChecks = false;
    gwb::GrammarLoad load = gwb::loadGrammarFile(grammarPath, options);
    if (!load.ok()) {
      state.SkipWithError(("cannot load " + grammar).c_str());
      return nullptr;
    }
    corpus->grammar = std::move(load.grammar);
    for (const std::string& path : inputPaths) addLines(path, *corpus);
    slot = std::move(corpus);
  }
  return slot.get();
}

void runInduction(benchmark::State& state, const Corpus& corpus,
                  const gwb::InductionOptions& options) {
  std::size_t iterations = 0;
  for (auto _ : state) {
    const gwb::InductionResult result =
        gwb::induceGrammar(corpus.grammar, corpus.sentences, options);
    if (!result.ok() || result.records.empty() || result.records.back().failures > 0) {
      state.SkipWithError(("induction failed: " + result.message).c_str());
      return;
    }
    iterations = result.records.size();
    benchmark::DoNotOptimize(result.records.back().objective);
  }
  state.counters["sentences"] = static_cast<double>(corpus.sentences.size());
  state.counters["tokens"] = static_cast<double>(corpus.tokens);
  state.counters["io_iterations"] = static_cast<double>(iterations);
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(corpus.tokens * iterations),
                                                  benchmark::Counter::kIsIterationInvariantRate);
  gwb::bench::reportPeakRss(state);
}

void emTestengger(benchmark::State& state) {
  const Corpus* corpus = prepared(state, "testengger", "data/earleyx/grammars/testengger.grammar",
                                  "S", {"data/earleyx/data/testeng.yld.a"});
  if (!corpus) return;
  runInduction(state, *corpus, gwb::InductionOptions::earleyx(gwb::InductionMethod::Em));
}

void vbUnigram(benchmark::State& state, int threads) {
  const Corpus* corpus = prepared(state, "unigram", "data/earleyx/grammars/unigram.grammar",
                                  "Sentence", {"data/earleyx/data/socialall.ortho.yld"});
  if (!corpus) return;
  gwb::InductionOptions options;
  options.method = gwb::InductionMethod::Vb;
  options.maxIterations = 1;
  options.threads = threads;
  runInduction(state, *corpus, options);
}

void vbUnigramSteady(benchmark::State& state, int threads) {
  const Corpus* corpus = prepared(state, "unigram", "data/earleyx/grammars/unigram.grammar",
                                  "Sentence", {"data/earleyx/data/socialall.ortho.yld"});
  if (!corpus) return;
  gwb::InductionOptions options;
  options.method = gwb::InductionMethod::Vb;
  options.maxIterations = 6;
  options.threads = threads;
  for (auto _ : state) {
    const gwb::InductionResult result =
        gwb::induceGrammar(corpus->grammar, corpus->sentences, options);
    if (!result.ok() || result.records.size() != 6) {
      state.SkipWithError(("induction failed: " + result.message).c_str());
      return;
    }
    double seconds = 0.0;
    for (std::size_t k = 2; k < result.records.size(); ++k) seconds += result.records[k].seconds;
    state.SetIterationTime(seconds / static_cast<double>(result.records.size() - 2));
  }
  state.counters["sentences"] = static_cast<double>(corpus->sentences.size());
  state.counters["tokens"] = static_cast<double>(corpus->tokens);
  gwb::bench::reportPeakRss(state);
}

// Paired rounds: each round runs the steady-state measurement on 1 thread, then on 2, back to
// back, so that both see the same moment of a shared machine; the speed-up is the median of the
// rounds' ratios. The benchmark's time is the 2-thread iteration. Counters (medians over rounds):
// t1_ms, t2_ms, speedup (with speedup_min, speedup_max), and serial_ms, the 2-thread
// iteration's time outside the E-step (compile, M-step, free energy).
void steadySpeedup(benchmark::State& state, const Corpus* corpus) {
  if (!corpus) return;
  gwb::InductionOptions options;
  options.method = gwb::InductionMethod::Vb;
  options.maxIterations = 6;
  const auto steady = [&](int threads, double* serial) {
    options.threads = threads;
    const gwb::InductionResult result =
        gwb::induceGrammar(corpus->grammar, corpus->sentences, options);
    if (!result.ok() || result.records.size() != 6) return -1.0;
    double seconds = 0.0;
    double outside = 0.0;
    for (std::size_t k = 2; k < result.records.size(); ++k) {
      seconds += result.records[k].seconds;
      outside += result.records[k].seconds - result.records[k].expectationSeconds;
    }
    if (serial != nullptr) *serial = outside / 4.0;
    return seconds / 4.0;
  };
  std::vector<double> t1, t2, ratio, serial;
  for (auto _ : state) {
    double outside = 0.0;
    const double one = steady(1, nullptr);
    const double two = steady(2, &outside);
    if (one <= 0.0 || two <= 0.0) {
      state.SkipWithError("induction failed");
      return;
    }
    state.SetIterationTime(two);
    t1.push_back(one * 1e3);
    t2.push_back(two * 1e3);
    serial.push_back(outside * 1e3);
    ratio.push_back(one / two);
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  state.counters["t1_ms"] = median(t1);
  state.counters["t2_ms"] = median(t2);
  state.counters["serial_ms"] = median(serial);
  state.counters["speedup"] = median(ratio);
  state.counters["speedup_min"] = *std::min_element(ratio.begin(), ratio.end());
  state.counters["speedup_max"] = *std::max_element(ratio.begin(), ratio.end());
  state.counters["tokens"] = static_cast<double>(corpus->tokens);
  gwb::bench::reportPeakRss(state);
}

void vbUnigramSpeedup(benchmark::State& state) {
  steadySpeedup(state, prepared(state, "unigram", "data/earleyx/grammars/unigram.grammar",
                                "Sentence", {"data/earleyx/data/socialall.ortho.yld"}));
}

// The discourse grammar over the 24 recordings, each one string (one E-step work unit).
const Corpus* recordings(benchmark::State& state) {
  std::vector<std::string> inputs;
  std::ifstream table(gwb::bench::sharedPath("data/social-cues/recordings.tsv"));
  std::string row;
  std::getline(table, row);  // header
  while (std::getline(table, row))
    inputs.push_back("data/social-cues/recordings/" + row.substr(0, row.find('\t')) + ".concat");
  if (inputs.empty()) {
    state.SkipWithError("no recordings (data/social-cues/recordings.tsv missing)");
    return nullptr;
  }
  return prepared(state, "recordings", "data/earleyx/grammars/socialDiscourse.grammar", "Discourse",
                  inputs);
}

void vbRecordingsSpeedup(benchmark::State& state) { steadySpeedup(state, recordings(state)); }

void vbRecordings(benchmark::State& state, int threads) {
  const Corpus* corpus = recordings(state);
  if (!corpus) return;
  gwb::InductionOptions options;
  options.method = gwb::InductionMethod::Vb;
  options.maxIterations = 1;
  options.threads = threads;
  runInduction(state, *corpus, options);
}

const bool kRegistered = [] {
  benchmark::RegisterBenchmark("InsideOutsideEm/testengger/testeng-yld-a", emTestengger)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  for (const int threads : {1, 2}) {
    const std::string suffix = "/threads:" + std::to_string(threads);
    benchmark::RegisterBenchmark(("InsideOutsideVb/unigram/socialall/1" + suffix).c_str(),
                                 [threads](benchmark::State& s) { vbUnigram(s, threads); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
    benchmark::RegisterBenchmark(("InsideOutsideVb/unigram/socialall/steady" + suffix).c_str(),
                                 [threads](benchmark::State& s) { vbUnigramSteady(s, threads); })
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(3);
    benchmark::RegisterBenchmark(("InsideOutsideVb/socialDiscourse/recordings/1" + suffix).c_str(),
                                 [threads](benchmark::State& s) { vbRecordings(s, threads); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
  }
  benchmark::RegisterBenchmark("InsideOutsideVb/unigram/socialall/steady/speedup", vbUnigramSpeedup)
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime()
      ->Iterations(7);
  benchmark::RegisterBenchmark("InsideOutsideVb/socialDiscourse/recordings/steady/speedup",
                               vbRecordingsSpeedup)
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime()
      ->Iterations(7);
  return true;
}();

}  // namespace
