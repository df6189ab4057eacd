// Probabilistic Earley parsing on the paper's grammars (issue: Earley parser benchmark).
//
//   EarleyPrefix/wsj500unk/text10-lineK/MODE   surprisal (prefix probabilities) and the string
//                                              probability of every prefix of line K of text.10
//                                              with the dense WSJ grammar, as Earleyx's figures
//                                              (-obj surprisal,stringprob); parse only (the
//                                              grammar is loaded and compiled outside). Every
//                                              iteration parses into the same chart, as `gwb
//                                              parse` does sentence after sentence (parseBatch
//                                              keeps a chart per thread).
//   EarleyPrefix/.../MODE/new-chart            the same, each parse into a new chart (a single
//                                              sentence's cost, fresh memory included).
//   EarleyViterbi/wsj500unk/text10-lineK       the same with the Viterbi tree built.
//   KBest/wsj500unk/text10-line5/k:10          the 10 best trees of that 18-word line, read
//                                              lazily off one parse's chart (the parse itself
//                                              outside the timing).
//   Inside/socialDiscourse/TOKENS              the discourse grammar on the first 25, 50, 100,
//                                              250, 500, 1000 utterances and the whole corpus
//                                              (51,665 tokens) as one string: string probability
//                                              and Viterbi score (scaled mode, look-ahead).
//   Inside/socialDiscourse/TOKENS/reused-chart the same, three timed parses into one chart that
//                                              an untimed parse filled first (its memory reused:
//                                              the steady state of a batch).
//   Inside/recording/ID                        each of the 24 recordings as one discourse.
//   StringProb/socialDiscourse/utterances:N    the first 100, 250, 500, 1000, 2000 utterances
//                                              and the whole corpus with what `gwb parse
//                                              --surprisal --stringprob --viterbi` asks for: the
//                                              string probability of every prefix (end weights,
//                                              StringProbabilityMethod::EndWeights) and the
//                                              Viterbi tree.
//   StringProb/.../reused-chart                the same, into a reused chart (as above).
//   StringProb/.../complete-every-word         the same by the textbook method, which completes
//                                              the discourse spine at every word (quadratic;
//                                              first 100, 250 and 500 utterances only).
// Counters: tokens, items (chart items created), items/token, peak_rss_MiB.
// scripts/bench.sh fits the exponent of time (and of items) against tokens over the Inside and
// StringProb rows.
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/kbest.h"
#include "gwb/earley/tokenize.h"

namespace {

struct Prepared {
  gwb::GrammarLoad load;
  std::optional<gwb::CompiledGrammar> compiled;
};

// Grammars are loaded and compiled once per process.
const Prepared* prepared(benchmark::State& state, const std::string& file,
                         const std::string& root) {
  static std::map<std::string, std::unique_ptr<Prepared>> cache;
  auto& slot = cache[file];
  if (!slot) {
    std::string path;
    if (!gwb::bench::requireShared(state, file, &path)) return nullptr;
    slot = std::make_unique<Prepared>();
    gwb::GrammarReadOptions options;
    options.root = root;
    options.runChecks = false;
    slot->load = gwb::loadGrammarFile(path, options);
    gwb::Diagnostics diagnostics;
    if (slot->load.ok())
      slot->compiled = gwb::CompiledGrammar::compile(slot->load.grammar, diagnostics, path);
  }
  if (!slot->compiled) {
    state.SkipWithError(("cannot load or compile " + file).c_str());
    return nullptr;
  }
  return slot.get();
}

std::vector<std::string> lines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

// Every iteration parses into a new chart (cold: its memory is mapped afresh, as in a single
// `gwb parse`), or with `reuseChart` into the same one, parsed once before the timed iterations
// (warm: a batch reusing chart memory).
void runParse(benchmark::State& state, const Prepared& grammar,
              const std::vector<std::string>& words, const gwb::ParseOptions& options,
              bool reuseChart = false) {
  gwb::EarleyParser parser(*grammar.compiled);
  std::size_t items = 0;
  gwb::EarleyChart reused;
  // Warm means warm from the first timed iteration: one untimed parse maps the chart's memory
  // (and the thread's working memory) first, so that no timed parse pays the kernel for it.
  if (reuseChart) parser.parse(words, options, reused);
  for (auto _ : state) {
    gwb::EarleyChart fresh;
    const gwb::ParseResult result = parser.parse(words, options, reuseChart ? reused : fresh);
    if (!result.success) {
      state.SkipWithError("no parse");
      return;
    }
    items = result.items;
    benchmark::DoNotOptimize(result.logProbability);
  }
  state.counters["tokens"] = static_cast<double>(words.size());
  state.counters["items"] = static_cast<double>(items);
  state.counters["items/token"] = static_cast<double>(items) / static_cast<double>(words.size());
  gwb::bench::reportPeakRss(state);
}

void wsjLine(benchmark::State& state, int line, gwb::NumericMode mode, bool viterbi,
             bool reuseChart = true) {
  const Prepared* grammar = prepared(state, "data/earleyx/grammars/wsj500unk.grammar", "ROOT");
  std::string text;
  if (!grammar || !gwb::bench::requireShared(state, "data/earleyx/data/text.10", &text)) return;
  const auto words = gwb::tokenize(lines(text).at(static_cast<std::size_t>(line - 1)));
  gwb::ParseOptions options;
  options.mode = mode;
  options.viterbi = viterbi;
  options.prefixStringProbabilities = !viterbi;
  runParse(state, *grammar, words, options, reuseChart);
}

// k-best trees of one WSJ line: each iteration starts from the same chart afresh.
void wsjKBest(benchmark::State& state, int line, std::size_t k) {
  const Prepared* grammar = prepared(state, "data/earleyx/grammars/wsj500unk.grammar", "ROOT");
  std::string text;
  if (!grammar || !gwb::bench::requireShared(state, "data/earleyx/data/text.10", &text)) return;
  const auto words = gwb::tokenize(lines(text).at(static_cast<std::size_t>(line - 1)));
  gwb::EarleyChart chart;
  if (!gwb::EarleyParser(*grammar->compiled).parse(words, {}, chart).success) {
    state.SkipWithError("no parse");
    return;
  }
  std::size_t found = 0;
  for (auto _ : state) {
    const std::vector<gwb::RankedParse> best = gwb::kBestParses(chart, k);
    found = best.size();
    benchmark::DoNotOptimize(best.data());
  }
  state.counters["tokens"] = static_cast<double>(words.size());
  state.counters["trees"] = static_cast<double>(found);
  gwb::bench::reportPeakRss(state);
}

// The first `utterances` lines of the corpus as one string (0 = all).
void discourse(benchmark::State& state, std::size_t utterances, bool reuseChart = false,
               const gwb::ParseOptions& options = {}) {
  const Prepared* grammar =
      prepared(state, "data/earleyx/grammars/socialDiscourse.grammar", "Discourse");
  std::string corpus;
  if (!grammar ||
      !gwb::bench::requireShared(state, "data/earleyx/data/socialall.ortho.yld", &corpus))
    return;
  std::vector<std::string> words;
  const auto all = lines(corpus);
  for (std::size_t k = 0; k < all.size() && (utterances == 0 || k < utterances); ++k)
    for (const std::string& w : gwb::tokenize(all[k])) words.push_back(w);
  runParse(state, *grammar, words, options, reuseChart);
}

void recording(benchmark::State& state, const std::string& id) {
  const Prepared* grammar =
      prepared(state, "data/earleyx/grammars/socialDiscourse.grammar", "Discourse");
  std::string path;
  if (!grammar ||
      !gwb::bench::requireShared(state, "data/social-cues/recordings/" + id + ".concat", &path))
    return;
  runParse(state, *grammar, gwb::tokenize(lines(path).at(0)), {});
}

const bool kRegistered = [] {
  using gwb::NumericMode;
  for (int line : {5, 3}) {
    for (NumericMode mode : {NumericMode::Log, NumericMode::Scaled}) {
      const std::string name = "EarleyPrefix/wsj500unk/text10-line" + std::to_string(line) + "/" +
                               gwb::numericModeName(mode);
      benchmark::RegisterBenchmark(
          name.c_str(), [line, mode](benchmark::State& s) { wsjLine(s, line, mode, false); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      benchmark::RegisterBenchmark(
          (name + "/new-chart").c_str(),
          [line, mode](benchmark::State& s) { wsjLine(s, line, mode, false, false); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
    const std::string name = "EarleyViterbi/wsj500unk/text10-line" + std::to_string(line);
    benchmark::RegisterBenchmark(
        name.c_str(), [line](benchmark::State& s) { wsjLine(s, line, NumericMode::Scaled, true); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark("KBest/wsj500unk/text10-line5/k:10",
                               [](benchmark::State& s) { wsjKBest(s, 5, 10); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  // Token counts of the first N utterances: 25 → 259, 100 → 877, 250 → 2172, 500 → 5107,
  // 1000 → 10672 (the lengths of BENCHMARKS.md), 0 → the whole corpus, 51665.
  for (std::size_t utterances : {25, 50, 100, 250, 500, 1000, 0}) {
    const std::string name = "Inside/socialDiscourse/utterances:" +
                             (utterances ? std::to_string(utterances) : std::string("all"));
    benchmark::RegisterBenchmark(name.c_str(),
                                 [utterances](benchmark::State& s) { discourse(s, utterances); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(utterances == 0 ? 1 : 3);
  }
  // The same lengths parsed three times into one chart that an untimed parse filled first, so
  // that every timed parse reuses its memory: the steady state of a batch or an EM iteration, free
  // of the operating system's cost of mapping fresh memory (which the small rows above mostly
  // escape through the allocator's own reuse, and the whole corpus does not).
  for (std::size_t utterances : {25, 50, 100, 250, 500, 1000, 0}) {
    const std::string name = "Inside/socialDiscourse/utterances:" +
                             (utterances ? std::to_string(utterances) : std::string("all")) +
                             "/reused-chart";
    benchmark::RegisterBenchmark(
        name.c_str(), [utterances](benchmark::State& s) { discourse(s, utterances, true); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
  }
  // String probabilities of every prefix and the Viterbi tree (gwb parse --surprisal
  // --stringprob --viterbi), by end weights and, on the shorter prefixes, by completing at
  // every word.
  for (std::size_t utterances : {100, 250, 500, 1000, 2000, 0}) {
    for (const bool textbook : {false, true}) {
      if (textbook && (utterances == 0 || utterances > 500)) continue;
      const std::string name = "StringProb/socialDiscourse/utterances:" +
                               (utterances ? std::to_string(utterances) : std::string("all")) +
                               (textbook ? "/complete-every-word" : "");
      gwb::ParseOptions options;
      options.prefixStringProbabilities = true;
      options.viterbi = true;
      if (textbook)
        options.stringProbabilityMethod = gwb::StringProbabilityMethod::CompleteEveryWord;
      benchmark::RegisterBenchmark(
          name.c_str(),
          [utterances, options](benchmark::State& s) { discourse(s, utterances, false, options); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->Iterations(utterances == 0 || textbook ? 1 : 3);
    }
    // The same, parsed into a reused chart (as the Inside rows above): the growth of the
    // parse itself, without the operating system's mapping of fresh memory, which the whole
    // corpus pays on every parse into a new chart and the shorter rows mostly escape.
    gwb::ParseOptions options;
    options.prefixStringProbabilities = true;
    options.viterbi = true;
    const std::string name = "StringProb/socialDiscourse/utterances:" +
                             (utterances ? std::to_string(utterances) : std::string("all")) +
                             "/reused-chart";
    benchmark::RegisterBenchmark(
        name.c_str(),
        [utterances, options](benchmark::State& s) { discourse(s, utterances, true, options); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
  }
  // The recordings named in recordings.tsv (none when ../shared is missing).
  std::ifstream table(gwb::bench::sharedPath("data/social-cues/recordings.tsv"));
  std::string row;
  std::getline(table, row);  // header
  while (std::getline(table, row)) {
    const std::string id = row.substr(0, row.find('\t'));
    benchmark::RegisterBenchmark(("Inside/recording/" + id).c_str(),
                                 [id](benchmark::State& s) { recording(s, id); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
  }
  return true;
}();

}  // namespace
