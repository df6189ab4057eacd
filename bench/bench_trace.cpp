// The Earley stepper's trace (gwb/earley/parse_trace.h) against the plain parse (issue 14, item 3).
//
//   StepperTrace/wsj5000/text10-joined/TOKENS   text.10 joined into one line (277 tokens; the
//                                               first TOKENS of it) with wsj.5000.fg.grammar.
// Each measurement runs in a child process of its own (fork), so that each peak resident set
// is that of one parse alone:
//   plain_peak_MiB    EarleyParser::parse into a chart, as `gwb parse` does;
//   trace_peak_MiB    the same parse recorded by a ParseTrace (what the workbench's stepper
//                     keeps), then the largest state set made again for stepping;
//   trace_over_plain  their ratio (the issue asks for at most about 2).
// Counters from the traced child: operations, items, operations_per_item, trace_bytes_per_item
// (what the trace keeps for the whole parse, per chart item), largest_set_operations and
// largest_set_MiB (the detail of the largest set, made again on demand).
//
// Measured on the shared 2-core machine under load (Release), first 60 tokens: 8.4 M items,
// 77.7 M operations (9.2 per item); plain 507 MiB, trace 866 MiB (1.71x); the trace keeps
// 8.0 bytes per item, the largest set (5.1 M operations) takes 255 MiB when made again. The
// old trace kept every operation (~100 bytes each): 7.7 GB for the same 60 tokens. The whole
// line (277 tokens) takes many minutes per parse there and was not run in that session.
#include <array>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/parse_trace.h"
#include "gwb/earley/tokenize.h"

namespace {

constexpr std::size_t kFigures = 7;
using Figures = std::array<double, kFigures>;

double peakMiB() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

// Runs `work` in a child process and returns the figures it wrote back (nullopt on failure).
template <typename Work>
std::optional<Figures> inChild(Work work) {
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;
  const pid_t pid = ::fork();
  if (pid < 0) return std::nullopt;
  if (pid == 0) {
    ::close(fds[0]);
    const Figures figures = work();
    const auto written = ::write(fds[1], figures.data(), sizeof(Figures));
    ::_exit(written == static_cast<ssize_t>(sizeof(Figures)) ? 0 : 1);
  }
  ::close(fds[1]);
  Figures figures{};
  const auto got = ::read(fds[0], figures.data(), sizeof(Figures));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (got != static_cast<ssize_t>(sizeof(Figures)) || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return std::nullopt;
  return figures;
}

void stepperTrace(benchmark::State& state, std::size_t tokens) {
  std::string grammarPath;
  std::string textPath;
  if (!gwb::bench::requireShared(state, "data/earleyx/grammars/wsj.5000.fg.grammar",
                                 &grammarPath) ||
      !gwb::bench::requireShared(state, "data/earleyx/data/text.10", &textPath))
    return;
  gwb::GrammarReadOptions readOptions;
  readOptions.runChecks = false;
  const gwb::GrammarLoad load = gwb::loadGrammarFile(grammarPath, readOptions);
  gwb::Diagnostics diagnostics;
  const auto compiled = gwb::CompiledGrammar::compile(load.grammar, diagnostics);
  if (!compiled) {
    state.SkipWithError("cannot compile wsj.5000.fg.grammar");
    return;
  }
  std::ifstream in(textPath);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> words = gwb::tokenize(text.str());  // the lines joined
  if (tokens > 0 && tokens < words.size()) words.resize(tokens);

  for (auto _ : state) {
    const auto plain = inChild([&] {
      gwb::EarleyChart chart;
      const gwb::ParseResult result = gwb::EarleyParser(*compiled).parse(words, {}, chart);
      Figures f{};
      f[0] = peakMiB();
      f[1] = static_cast<double>(result.items);
      return f;
    });
    const auto traced = inChild([&] {
      gwb::EarleyChart chart;
      gwb::ParseTrace trace;
      gwb::ParseOptions options;
      options.observer = &trace;
      const gwb::ParseResult result = gwb::EarleyParser(*compiled).parse(words, options, chart);
      trace.finish(chart, options);
      const std::size_t largest = trace.largestSet();
      Figures f{};
      if (trace.detailFits(largest) && trace.stepCount() > 0)
        benchmark::DoNotOptimize(trace.event(trace.firstStepOfSet(largest)));
      f[0] = peakMiB();
      f[1] = static_cast<double>(result.items);
      f[2] = static_cast<double>(trace.stepCount());
      f[3] = static_cast<double>(trace.recordedBytes());
      f[4] = static_cast<double>(trace.operationsOfSet(largest));
      f[5] = static_cast<double>(trace.detailBytes(largest));
      f[6] = static_cast<double>(trace.cachedBytes());
      return f;
    });
    if (!plain || !traced) {
      state.SkipWithError("a child process failed");
      return;
    }
    state.counters["tokens"] = static_cast<double>(words.size());
    state.counters["plain_peak_MiB"] = (*plain)[0];
    state.counters["trace_peak_MiB"] = (*traced)[0];
    state.counters["trace_over_plain"] = (*traced)[0] / (*plain)[0];
    state.counters["items"] = (*traced)[1];
    state.counters["operations"] = (*traced)[2];
    state.counters["operations_per_item"] = (*traced)[2] / (*traced)[1];
    state.counters["trace_bytes_per_item"] = (*traced)[3] / (*traced)[1];
    state.counters["largest_set_operations"] = (*traced)[4];
    state.counters["largest_set_MiB"] = (*traced)[5] / (1024.0 * 1024.0);
  }
}

const bool registered = [] {
  for (const std::size_t tokens : {60, 0}) {
    const std::string name = "StepperTrace/wsj5000/text10-joined/" +
                             (tokens ? std::to_string(tokens) : std::string("all"));
    benchmark::RegisterBenchmark(name.c_str(),
                                 [tokens](benchmark::State& s) { stepperTrace(s, tokens); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
  }
  return true;
}();

}  // namespace
