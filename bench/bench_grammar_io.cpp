// Grammar reading and writing on the Earleyx grammars of ../shared/data/earleyx/grammars.
//
//   EarleyxLoad/<grammar>   loadGrammarFile: read the file, parse every line, intern the symbols
//                           and index the rules (no static checks: see EarleyxLoadChecked).
//   EarleyxLoadChecked/...  the same with GrammarReadOptions::runChecks (sums, reachability,
//                           generation), as the CLI and the workbench load by default.
//   EarleyxWrite/<grammar>  writeEarleyx of the loaded grammar to a std::ostringstream.
//   Compile/<grammar>       CompiledGrammar::compile (ε-removal, closures, FIRST/FOLLOW,
//                           lexicon): the serial step at the start of every EM/VB iteration.
//
// All timings are wall-clock (UseRealTime), and so are the rates derived from them.
// Counters: rules (in the grammar), rules/s (rules handled per second of wall time), bytes/s
// (file bytes for loads, bytes written for writes) and peak_rss_MiB (see bench_support.h).
// Before timing, each benchmark checks that the file reads without errors and holds the number
// of rules FORMATS.md gives; otherwise it is skipped with the reason, as when data is missing.
#include <array>
#include <cstdint>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "gwb/common/diagnostic.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar_io.h"

namespace {

struct GrammarCase {
  const char* name;       // the benchmark's argument name
  const char* file;       // under ../shared
  const char* root;       // the start symbol (FORMATS.md, section 1)
  std::size_t ruleCount;  // the rule count FORMATS.md gives
};

constexpr std::array<GrammarCase, 4> kGrammars = {{
    {"socialDiscourse", "data/earleyx/grammars/socialDiscourse.grammar", "Discourse", 35764},
    {"unigram", "data/earleyx/grammars/unigram.grammar", "Sentence", 34407},
    {"wsj500unk", "data/earleyx/grammars/wsj500unk.grammar", "ROOT", 4907},
    {"testengger", "data/earleyx/grammars/testengger.grammar", "S", 29},
}};

gwb::GrammarReadOptions readOptions(const GrammarCase& grammar, bool runChecks) {
  gwb::GrammarReadOptions options;
  options.format = gwb::GrammarFormat::Earleyx;
  options.root = grammar.root;
  options.runChecks = runChecks;
  return options;
}

// Loads `grammar` once, outside timing. False (and the benchmark skipped with the reason) when
// the file is missing, has errors or does not hold the expected number of rules.
bool loadForBenchmark(benchmark::State& state, const GrammarCase& grammar, std::string* path,
                      gwb::GrammarLoad* load) {
  if (!gwb::bench::requireShared(state, grammar.file, path)) return false;
  *load = gwb::loadGrammarFile(*path, readOptions(grammar, /*runChecks=*/false));
  if (!load->ok()) {
    for (const gwb::Diagnostic& diagnostic : load->diagnostics) {
      if (diagnostic.severity == gwb::Severity::Error) {
        const std::string message = "cannot read grammar: " + gwb::toString(diagnostic);
        state.SkipWithError(message.c_str());
        return false;
      }
    }
  }
  if (load->grammar.ruleCount() != grammar.ruleCount) {
    const std::string message = *path + ": read " + std::to_string(load->grammar.ruleCount()) +
                                " rules, expected " + std::to_string(grammar.ruleCount);
    state.SkipWithError(message.c_str());
    return false;
  }
  return true;
}

void setRuleCounters(benchmark::State& state, std::size_t rules) {
  state.counters["rules"] = benchmark::Counter(static_cast<double>(rules));
  state.counters["rules/s"] =
      benchmark::Counter(static_cast<double>(rules), benchmark::Counter::kIsIterationInvariantRate);
}

void earleyxLoad(benchmark::State& state, const GrammarCase& grammar, bool runChecks) {
  std::string path;
  gwb::GrammarLoad first;
  if (!loadForBenchmark(state, grammar, &path, &first)) return;
  const gwb::GrammarReadOptions options = readOptions(grammar, runChecks);
  for (auto _ : state) {
    gwb::GrammarLoad load = gwb::loadGrammarFile(path, options);
    benchmark::DoNotOptimize(load.grammar.ruleCount());
  }
  setRuleCounters(state, first.grammar.ruleCount());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          gwb::bench::fileSize(path));
  gwb::bench::reportPeakRss(state);
}

void earleyxWrite(benchmark::State& state, const GrammarCase& grammar) {
  std::string path;
  gwb::GrammarLoad load;
  if (!loadForBenchmark(state, grammar, &path, &load)) return;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    std::string error;
    if (!gwb::writeEarleyx(load.grammar, out, &error)) {
      state.SkipWithError(("writeEarleyx failed: " + error).c_str());
      break;
    }
    bytes = static_cast<std::int64_t>(out.tellp());
    benchmark::DoNotOptimize(bytes);
  }
  setRuleCounters(state, load.grammar.ruleCount());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
  gwb::bench::reportPeakRss(state);
}

void compileGrammar(benchmark::State& state, const GrammarCase& grammar) {
  std::string path;
  gwb::GrammarLoad load;
  if (!loadForBenchmark(state, grammar, &path, &load)) return;
  for (auto _ : state) {
    gwb::Diagnostics diagnostics;
    const auto compiled = gwb::CompiledGrammar::compile(load.grammar, diagnostics, path);
    if (!compiled) {
      state.SkipWithError("the grammar does not compile");
      break;
    }
    benchmark::DoNotOptimize(compiled->rules().size());
  }
  setRuleCounters(state, load.grammar.ruleCount());
  gwb::bench::reportPeakRss(state);
}

// Table-driven registration: one benchmark per (operation, grammar).
[[maybe_unused]] const bool kRegistered = [] {
  for (const GrammarCase& grammar : kGrammars) {
    const std::string suffix = std::string("/") + grammar.name;
    benchmark::RegisterBenchmark(("EarleyxLoad" + suffix).c_str(), earleyxLoad, grammar, false)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("EarleyxLoadChecked" + suffix).c_str(), earleyxLoad, grammar,
                                 true)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("EarleyxWrite" + suffix).c_str(), earleyxWrite, grammar)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("Compile" + suffix).c_str(), compileGrammar, grammar)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  return true;
}();

}  // namespace
