// Parsing many sentences with one grammar on several threads: the batch service (batch.h)
// applied to the probabilistic Earley parser, for `gwb parse` and the workbench alike.
//
// Each thread has its own EarleyParser and EarleyChart (the chart's memory is reused from one
// sentence to the next); the compiled grammar is shared read-only. results[i] is sentence i's
// ParseResult, exactly what EarleyParser::parse gives for it alone — in input order and the same
// for any thread count. A sentence the batch never reached (cancelled) keeps a default
// ParseResult with `cancelled` set. Viterbi trees are built and kept when parse.viterbi is set
// (the default); switch it off to keep only the numbers of a large batch.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gwb/common/batch.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"

namespace gwb {

struct BatchParseOptions {
  ParseOptions parse;    // parse.observer must be null: one observer cannot watch N parses
  BatchControl control;  // threads, progress observer, cancel flag
  // Called on the worker thread right after sentence `item` is parsed, with its chart (which
  // the next sentence of that thread reuses): for what needs the chart, such as k-best trees.
  std::function<void(std::size_t item, const ParseResult& result, const EarleyChart& chart)>
      inspectChart;
  // What to say if sentence `item` runs out of memory (memory_budget.h's MemoryContext), e.g.
  // "parsing line 12 of input.txt"; the sentence's length is added.
  std::function<std::string(std::size_t item)> describeItem;
};

struct BatchParse {
  std::vector<ParseResult> results;  // one per sentence, in input order
  BatchOutcome outcome;
};

// Parses every sentence (a list of words each). Exceptions (an exhausted memory budget, ...)
// propagate as batch.h says.
BatchParse parseBatch(const CompiledGrammar& grammar,
                      const std::vector<std::vector<std::string>>& sentences,
                      const BatchParseOptions& options = {});

}  // namespace gwb
