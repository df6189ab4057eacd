// Dynamic Syntax: loading DyLan's 2013 English TTR grammar and parsing the sentences of
// ../shared/reference/dylan/parses-2013-english-ttr.tsv, against the times DyLan logged there
// (best-first, 2–17 ms a sentence, ~0.8 s to load the grammar).
//
//   DsLoad/2013-english-ttr        loadDsGrammar: read and instantiate the four files (every
//                                  lexicon entry's template and macros parsed into actions).
//   DsParse/BestFirst/<id>-<words> parse one reference sentence, stopping at the first
//                                  complete tree, as DyLan's parser does.
//   DsParse/BreadthFirst/<id>-...  the same, exploring the whole DAG (every tree, every path).
//   DsParse/LearnedTop3/...        the 100 CHILDES test utterances with the authors' top-3
//                                  learned lexicon and the 2013 seed grammar, breadth-first.
//   DsParseLength/<strategy>/<words>
//                                  memory and time against sentence length: "john likes mary"
//                                  followed by "who likes john", "who likes mary", ... up to the
//                                  length, best-first and breadth-first with a beam of 8, within
//                                  a 2 GiB budget (DsParseOptions::maxBytes).
//   DsLearn/childes-400/<items>    lexicon induction (hypothesis search + incremental EM) on the
//                                  first <items> of the 400 CHILDES training pairs, 2013 seed
//                                  grammar, one thread (40 and all 400); counters items/s,
//                                  with_tuples, over_budget, hypotheses, cpu_s (CPU seconds)
//                                  and x_dylan (DyLan's learner, 35.6 min and ~16 GB on all
//                                  400, scaled to the items, over our CPU time).
//   DsEvaluate/top-<N>             gwb ds evaluate's work: the 100 test items parsed best-first
//                                  with the authors' top-N lexicon and scored by maxMapping.
// Counters: words/s; trees (DAG nodes); dylan_ms (DyLan's time for the sentence) and
// x_dylan (DyLan's time over ours: how many times faster); peak_rss_MiB. DsParseLength adds
// heap_MiB (what the result really holds on the heap, from malloc's statistics), estimate_MiB
// (the parser's own estimate, which the budget is checked against), bytes/tree and truncated.
// A benchmark whose result differs from DyLan's (outcome or record type) is skipped with the
// reason, so a wrong fast parser cannot pass for a good one.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <malloc.h>

#include "bench_support.h"
#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/hypothesis_search.h"
#include "gwb/ds/lexicon_evaluation.h"
#include "gwb/ds/lexicon_learner.h"
#include "gwb/ds/record_type.h"
#include "gwb/ds/semantic_corpus.h"

namespace {

constexpr const char* kGrammar = "data/dylan/2013-english-ttr/computational-actions.txt";
constexpr const char* kReference = "reference/dylan/parses-2013-english-ttr.tsv";

std::string folderOf(const std::string& path) { return path.substr(0, path.rfind('/')); }

// The grammar, loaded once per process (nullptr and the benchmark skipped if it cannot be).
const gwb::ds::DsGrammar* grammar(benchmark::State& state) {
  static std::unique_ptr<gwb::ds::DsGrammarLoad> load;
  if (!load) {
    std::string path;
    if (!gwb::bench::requireShared(state, kGrammar, &path)) return nullptr;
    load = std::make_unique<gwb::ds::DsGrammarLoad>(gwb::ds::loadDsGrammar(folderOf(path)));
  }
  if (!load->ok()) {
    state.SkipWithError("the 2013-english-ttr grammar has errors");
    return nullptr;
  }
  return &load->grammar;
}

void dsLoad(benchmark::State& state) {
  std::string path;
  if (!gwb::bench::requireShared(state, kGrammar, &path)) return;
  const std::string dir = folderOf(path);
  std::size_t entries = 0;
  for (auto _ : state) {
    gwb::ds::DsGrammarLoad load = gwb::ds::loadDsGrammar(dir);
    entries = load.grammar.entryCount();
    benchmark::DoNotOptimize(entries);
  }
  state.counters["entries"] = static_cast<double>(entries);
  state.counters["dylan_ms"] = 800.0;
  gwb::bench::reportPeakRss(state);
}

struct ReferenceRow {
  std::string id;
  std::string sentence;
  std::string result;
  std::string root;
  double dylanMs = 0;
};

std::vector<ReferenceRow> referenceRows() {
  std::vector<ReferenceRow> rows;
  std::ifstream in(gwb::bench::sharedPath(kReference));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::istringstream fields(line);
    for (std::string c; std::getline(fields, c, '\t');) cols.push_back(c);
    if (cols.size() < 6) continue;
    rows.push_back({cols[0], cols[1], cols[2], cols[3], std::stod(cols[4])});
  }
  return rows;
}

// Skips the benchmark (with the reason) unless `r` is DyLan's result for `row`.
bool agreesWithDyLan(benchmark::State& state, const ReferenceRow& row,
                     const gwb::ds::DsParseResult& r) {
  std::string problem;
  if (row.result != gwb::ds::outcomeName(r.outcome)) {
    problem = std::string("outcome ") + gwb::ds::outcomeName(r.outcome) + ", DyLan " + row.result;
  } else if (row.root != "-") {
    auto reference = gwb::ds::RecordType::parse(row.root);
    if (!reference || !r.rootFormula || !r.rootFormula->isRecord() ||
        !gwb::ds::equalUpToRelabelling(r.rootFormula->recordType(), *reference))
      problem = "root record type differs from DyLan's";
  }
  if (problem.empty()) return true;
  state.SkipWithError(("'" + row.sentence + "': " + problem).c_str());
  return false;
}

void dsParse(benchmark::State& state, const ReferenceRow& row, gwb::ds::SearchStrategy strategy) {
  const gwb::ds::DsGrammar* g = grammar(state);
  if (g == nullptr) return;
  const gwb::ds::DsParser parser(*g);
  gwb::ds::DsParseOptions options;
  options.strategy = strategy;
  if (!agreesWithDyLan(state, row, parser.parse(row.sentence, options))) return;
  const std::size_t words = gwb::ds::splitWords(row.sentence).size();
  std::size_t trees = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    gwb::ds::DsParseResult r = parser.parse(row.sentence, options);
    trees = r.dag.nodes().size();
    benchmark::DoNotOptimize(r);
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(state.iterations());
  state.counters["words/s"] =
      benchmark::Counter(static_cast<double>(words), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["trees"] = static_cast<double>(trees);
  state.counters["dylan_ms"] = row.dylanMs;
  state.counters["x_dylan"] = row.dylanMs / ms;
  gwb::bench::reportPeakRss(state);
}

void learnedTop3(benchmark::State& state) {
  std::string seed;
  std::string lexicon;
  std::string corpus;
  if (!gwb::bench::requireShared(
          state, "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt", &seed) ||
      !gwb::bench::requireShared(state, "data/dylan/2013-ttr-learner-output/lexicon.lex-top-3.txt",
                                 &lexicon) ||
      !gwb::bench::requireShared(state, "data/dylan/childes-eve/CHILDESconversion100TestFinal.txt",
                                 &corpus))
    return;
  gwb::ds::DsGrammarLoad load = gwb::ds::loadDsGrammar(folderOf(seed));
  gwb::ds::useLearnedLexicon(load.grammar, gwb::ds::loadLearnedLexicon(lexicon, load.diagnostics));
  const std::vector<gwb::ds::SemanticExample> examples =
      gwb::ds::loadSemanticCorpus(corpus, load.diagnostics);
  if (!load.ok() || examples.empty()) {
    state.SkipWithError("cannot read the seed grammar, the top-3 lexicon or the test corpus");
    return;
  }
  const gwb::ds::DsParser parser(load.grammar);
  std::size_t words = 0;
  for (const auto& e : examples) words += gwb::ds::splitWords(e.sentence).size();
  std::size_t covered = 0;
  for (auto _ : state) {
    covered = 0;
    for (const auto& e : examples)
      covered += parser.parse(e.sentence).outcome != gwb::ds::ParseOutcome::Failed ? 1 : 0;
  }
  state.counters["utterances"] = static_cast<double>(examples.size());
  state.counters["covered"] = static_cast<double>(covered);
  state.counters["words/s"] =
      benchmark::Counter(static_cast<double>(words), benchmark::Counter::kIsIterationInvariantRate);
  gwb::bench::reportPeakRss(state);
}

void dsLearn(benchmark::State& state) {
  std::string seed;
  std::string corpus;
  if (!gwb::bench::requireShared(
          state, "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt", &seed) ||
      !gwb::bench::requireShared(state, "data/dylan/childes-eve/CHILDESconversion400Final.txt",
                                 &corpus))
    return;
  gwb::ds::DsGrammarLoad load = gwb::ds::loadDsGrammar(folderOf(seed));
  std::vector<gwb::ds::SemanticExample> examples =
      gwb::ds::loadSemanticCorpus(corpus, load.diagnostics);
  if (!load.ok() || examples.empty()) {
    state.SkipWithError("cannot read the seed grammar or the training corpus");
    return;
  }
  examples.resize(std::min(examples.size(), static_cast<std::size_t>(state.range(0))));
  const gwb::ds::HypothesisSearch search(load.grammar);
  gwb::ds::LearningResult result;
  const std::clock_t cpuStart = std::clock();
  for (auto _ : state) {
    result = gwb::ds::learnLexicon(examples,
                                   [&](const gwb::ds::SemanticExample& e, std::size_t /*item*/) {
                                     return search.hypotheses(e, {});
                                   },
                                   {});
  }
  state.counters["items/s"] = benchmark::Counter(static_cast<double>(examples.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  state.counters["with_tuples"] =
      static_cast<double>(result.progress.itemsDone - result.progress.itemsWithoutTuples);
  state.counters["over_budget"] = static_cast<double>(result.progress.itemsOverBudget);
  state.counters["hypotheses"] = static_cast<double>(result.progress.hypotheses);
  // CPU seconds per iteration (the machine is shared: wall time says little), and how many
  // times faster than DyLan's learner (35.6 min on the 400 items, scaled to these items).
  const double cpuSeconds =
      static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC /
      static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
  state.counters["cpu_s"] = cpuSeconds;
  if (cpuSeconds > 0)
    state.counters["x_dylan"] =
        35.6 * 60.0 * static_cast<double>(examples.size()) / 400.0 / cpuSeconds;
  gwb::bench::reportPeakRss(state);
}

void dsEvaluate(benchmark::State& state) {
  std::string seed;
  std::string lexicon;
  std::string corpus;
  const std::string top = std::to_string(state.range(0));
  if (!gwb::bench::requireShared(
          state, "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt", &seed) ||
      !gwb::bench::requireShared(
          state, "data/dylan/2013-ttr-learner-output/lexicon.lex-top-" + top + ".txt", &lexicon) ||
      !gwb::bench::requireShared(state, "data/dylan/childes-eve/CHILDESconversion100TestFinal.txt",
                                 &corpus))
    return;
  gwb::ds::DsGrammarLoad load = gwb::ds::loadDsGrammar(folderOf(seed));
  gwb::ds::useLearnedLexicon(load.grammar, gwb::ds::loadLearnedLexicon(lexicon, load.diagnostics));
  const std::vector<gwb::ds::SemanticExample> examples =
      gwb::ds::loadSemanticCorpus(corpus, load.diagnostics);
  if (!load.ok() || examples.empty()) {
    state.SkipWithError("cannot read the seed grammar, the lexicon or the test corpus");
    return;
  }
  gwb::ds::EvaluationSummary summary;
  for (auto _ : state)
    summary = gwb::ds::summarize(gwb::ds::evaluateLexicon(load.grammar, examples));
  state.counters["coverage"] = summary.coverage();
  state.counters["F"] = summary.macroF;
  state.counters["items/s"] = benchmark::Counter(static_cast<double>(examples.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  gwb::bench::reportPeakRss(state);
}

// "john likes mary who likes john who likes mary ..." cut to `words` words.
std::string relativeClauseSentence(int words) {
  std::string sentence = "john likes mary";
  int count = 3;
  for (int i = 0; count + 3 <= words; ++i, count += 3)
    sentence += i % 2 == 0 ? " who likes john" : " who likes mary";
  return sentence;
}

void dsParseLength(benchmark::State& state, gwb::ds::SearchStrategy strategy) {
  const gwb::ds::DsGrammar* g = grammar(state);
  if (g == nullptr) return;
  const gwb::ds::DsParser parser(*g);
  gwb::ds::DsParseOptions options;
  options.strategy = strategy;
  options.beam = 8;
  options.maxBytes = std::size_t{2} << 30;
  options.maxNodes = 10000000;
  const std::string sentence = relativeClauseSentence(static_cast<int>(state.range(0)));
  const std::size_t words = gwb::ds::splitWords(sentence).size();
  std::size_t trees = 0;
  std::size_t estimate = 0;
  double heap = 0;
  bool truncated = false;
  for (auto _ : state) {
    const std::size_t before = mallinfo2().uordblks;
    gwb::ds::DsParseResult r = parser.parse(sentence, options);
    state.PauseTiming();
    heap = static_cast<double>(mallinfo2().uordblks) - static_cast<double>(before);
    trees = r.dag.nodes().size();
    estimate = r.approximateBytes;
    truncated = r.truncated;
    benchmark::DoNotOptimize(r);
    state.ResumeTiming();
  }
  state.counters["words"] = static_cast<double>(words);
  state.counters["words/s"] =
      benchmark::Counter(static_cast<double>(words), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["trees"] = static_cast<double>(trees);
  state.counters["heap_MiB"] = heap / (1024.0 * 1024.0);
  state.counters["estimate_MiB"] = static_cast<double>(estimate) / (1024.0 * 1024.0);
  state.counters["bytes/tree"] = trees > 0 ? heap / static_cast<double>(trees) : 0.0;
  state.counters["truncated"] = truncated ? 1.0 : 0.0;
  gwb::bench::reportPeakRss(state);
}

const bool kRegistered = [] {
  benchmark::RegisterBenchmark("DsLoad/2013-english-ttr", dsLoad)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  // One benchmark per reference sentence (none when ../shared is missing).
  for (const ReferenceRow& row : referenceRows()) {
    std::string name = row.id + "-" + row.sentence;
    for (char& c : name)
      if (c == ' ') c = '_';
    for (auto [label, strategy] : {std::pair<const char*, gwb::ds::SearchStrategy>{
                                       "BestFirst", gwb::ds::SearchStrategy::BestFirst},
                                   std::pair<const char*, gwb::ds::SearchStrategy>{
                                       "BreadthFirst", gwb::ds::SearchStrategy::BreadthFirst}}) {
      benchmark::RegisterBenchmark(
          (std::string("DsParse/") + label + "/" + name).c_str(),
          [row, strategy = strategy](benchmark::State& s) { dsParse(s, row, strategy); })
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
    }
  }
  for (auto [label, strategy] : {std::pair<const char*, gwb::ds::SearchStrategy>{
                                     "BestFirst", gwb::ds::SearchStrategy::BestFirst},
                                 std::pair<const char*, gwb::ds::SearchStrategy>{
                                     "BreadthFirstBeam8", gwb::ds::SearchStrategy::BreadthFirst}}) {
    benchmark::RegisterBenchmark(
        (std::string("DsParseLength/") + label).c_str(),
        [strategy = strategy](benchmark::State& s) { dsParseLength(s, strategy); })
        ->Arg(3)
        ->Arg(15)
        ->Arg(30)
        ->Arg(60)
        ->Arg(120)
        ->Arg(240)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
  }
  benchmark::RegisterBenchmark("DsParse/LearnedTop3/childes-100-test", learnedTop3)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("DsLearn/childes-400", dsLearn)
      ->Arg(40)
      ->Arg(400)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(1);
  benchmark::RegisterBenchmark("DsEvaluate/top", dsEvaluate)
      ->Arg(1)
      ->Arg(2)
      ->Arg(3)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  return true;
}();

}  // namespace
