// CCG semantic parsing: the log-linear CKY parser (gwb/ccg/cky_parser.h) on the 280 Geo880 test
// sentences (geosents280-typed.ccg.test) with a lexicon of realistic size: UBL's fixed entity
// lexicon (np-fixedlex.geo, 2,382 NP entries) plus entries generated from the word/constant
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
// Counters: ms/sentence, sentences/s, entries/sentence (chart entries kept, mean),
// edges/sentence (derivation steps made, pruned ones included), max_entries
// (the largest chart), pruned/sentence, parsed (sentences with an S over all words),
// lexical_entries, peak_rss_MiB.
#include <chrono>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"

namespace {

using namespace gwb::ccg;

struct GeoSetup {
  TypeSystem types;
  FactoredLexicon lexicon;
  std::vector<std::vector<std::string>> sentences;
  std::size_t entries = 0;
  bool ok = false;
};

const char* kTemplates[] = {
    "template -0.1 S|NP : (lambda $0 e (#0 $0))",
    "template -0.2 (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e (and (#0 $1) ($0 $1))))",
    "template -0.2 (S|NP)\\(S|NP) : (lambda $0 <e,t> (lambda $1 e (and ($0 $1) (#0 $1))))",
    "template -0.2 (S|NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))",
    "template -0.2 (S|NP)\\NP : (lambda $0 e (lambda $1 e (#0 $0 $1)))",
    "template -0.3 ((S|NP)\\(S|NP))/NP : (lambda $0 e (lambda $1 <e,t> (lambda $2 e (and ($1 $2) "
    "(#0 $2 $0)))))",
    "template -0.1 NP/NP : (lambda $0 e (#0 $0))",
    "template -0.1 S/(S|NP) : (lambda $0 <e,t> $0)",
    "template -0.1 NP/NP : (lambda $0 e $0)",
    "template -0.1 S/NP : (lambda $0 e $0)",
};

std::vector<std::string> splitOn(const std::string& line, const std::string& separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t pos; (pos = line.find(separator, start)) != std::string::npos;) {
    out.push_back(line.substr(start, pos - start));
    start = pos + separator.size();
  }
  out.push_back(line.substr(start));
  return out;
}

GeoSetup* geoSetup(benchmark::State& state) {
  static std::unique_ptr<GeoSetup> setup;
  if (setup) return setup->ok ? setup.get() : nullptr;
  setup = std::make_unique<GeoSetup>();
  std::string typesPath;
  std::string langPath;
  std::string fixedPath;
  std::string gizaPath;
  std::string testPath;
  if (!gwb::bench::requireShared(state, "data/geoquery/geo-lambda.types", &typesPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/geo-lambda.lang", &langPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/np-fixedlex.geo", &fixedPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/geo600.dev.giza_probs", &gizaPath) ||
      !gwb::bench::requireShared(state, "data/geoquery/geosents280-typed.ccg.test", &testPath)) {
    return nullptr;
  }
  TypeSystemLoad types = loadTypeSystem(typesPath, langPath);
  LexiconLoad fixed = loadFixedLexicon(fixedPath);
  SemanticExamplesLoad test = loadSemanticExamples(testPath);
  if (types.diagnostics.hasErrors() || fixed.diagnostics.hasErrors() ||
      test.diagnostics.hasErrors()) {
    state.SkipWithError("the GeoQuery files have errors");
    return nullptr;
  }
  setup->types = std::move(types.types);
  setup->lexicon = std::move(fixed.lexicon);
  std::string templates;
  for (const char* line : kTemplates) templates += std::string(line) + "\n";
  mergeLexicon(&setup->lexicon, readFactoredLexicon(templates, "templates").lexicon);
  std::ifstream giza(gizaPath);
  for (std::string line; std::getline(giza, line);) {
    const std::vector<std::string> fields = splitOn(line, "  ::  ");
    if (fields.size() != 3 || fields[1] == "null") continue;
    const double score = std::stod(fields[2]);
    if (score < 0.02 || fields[0].find(':') == std::string::npos) continue;
    Lexeme lexeme;
    lexeme.words = {fields[1]};
    lexeme.constants = {fields[0]};
    const int index = setup->lexicon.addLexeme(lexeme);
    setup->lexicon.setWeight(lexemeFeature(setup->lexicon.lexemes()[index]), 10 * score);
  }
  std::set<std::string> words;
  for (const SemanticExample& example : test.examples) {
    setup->sentences.push_back(example.words);
    words.insert(example.words.begin(), example.words.end());
  }
  for (const std::string& word : words) {
    Lexeme lexeme;
    lexeme.words = {word};
    setup->lexicon.addLexeme(lexeme);
  }
  setup->entries = setup->lexicon.buildEntries(&setup->types);
  setup->ok = true;
  return setup.get();
}

void lexiconBuild(benchmark::State& state) {
  GeoSetup* setup = geoSetup(state);
  if (!setup) return;
  FactoredLexicon lexicon = setup->lexicon;
  for (auto _ : state) benchmark::DoNotOptimize(lexicon.buildEntries(&setup->types));
  state.counters["lexemes"] = static_cast<double>(lexicon.lexemes().size());
  state.counters["templates"] = static_cast<double>(lexicon.templates().size());
  state.counters["lexical_entries"] = static_cast<double>(setup->entries);
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
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    entries = 0;
    pruned = 0;
    edges = 0;
    maxEntries = 0;
    parsed = 0;
    for (const auto& words : setup->sentences) {
      CkyChart chart(setup->lexicon, words, options);
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
  }
  const double sentences = static_cast<double>(setup->sentences.size());
  state.counters["ms/sentence"] =
      1000 * seconds / (sentences * static_cast<double>(state.iterations()));
  state.counters["sentences/s"] =
      benchmark::Counter(sentences, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["entries/sentence"] = entries / sentences;
  state.counters["max_entries"] = maxEntries;
  state.counters["pruned/sentence"] = pruned / sentences;
  state.counters["edges/sentence"] = edges / sentences;
  state.counters["parsed"] = parsed;
  state.counters["lexical_entries"] = static_cast<double>(setup->entries);
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
