// The CKY fill of a finished chart as an ordered list of steps, for a stepper (the workbench's
// CCG tab) or a printout (`gwb ccg parse --steps`) to replay cell by cell and combinator by
// combinator.
//
// The chart records its fill as events (CkyChart::events(), cky_parser.h); a replay step is one
// event read against the chart's entries and back-pointers (ChartEdge): which cell, which entry
// was made or got another derivation, by which combinator from which two child entries (their
// split point), or from which lexeme and template. Steps come in fill order: cells by increasing
// span, left to right; in a cell, its lexical entries, then each split's combinations; then the
// entries that fell off the beam; then the cell is finished.
//
// replayState(chart, steps, count) is the chart as it stood after the first `count` steps:
// entries per cell (those made so far) and how many of them were pruned. Entries are made in
// index order within a cell, so the entries shown after `count` steps are entries 0..k-1 of
// each cell.
//
// entryDerivation builds the derivation of any entry (not only a root) by following
// back-pointers: the given edge at the top (the Viterbi edge by default), the Viterbi edge below.
// A pruned entry whose edges were not kept (CkyOptions::keepPrunedEntries off) has no children.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gwb/ccg/category.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/lexicon.h"

namespace gwb::ccg {

struct CkyReplayStep {
  enum class Kind {
    CellStarted,
    NewEntry,           // an entry made by `edge` (lexical or a combination)
    AnotherDerivation,  // `edge` is another way to build an existing entry
    Pruned,             // `entry` fell off the beam
    CellFinished,
  };
  Kind kind = Kind::CellStarted;
  int begin = 0;  // the cell: words begin..end-1
  int end = 0;
  int entry = -1;
  int edge = -1;
  Combinator combinator = Combinator::Lexical;
  int split = -1;  // combinations: left child over begin..split-1, right over split..end-1
  int leftEntry = -1;
  int rightEntry = -1;
  int entriesInCell = 0;  // entries made in this cell so far, this step included
};

std::vector<CkyReplayStep> ckyReplay(const CkyChart& chart);

// One line: "1-3 [>] (S|NP)/NP 1-2 #0 + NP 2-3 #1 => S|NP : (lambda ...)  (new entry #4)".
std::string describeReplayStep(const CkyChart& chart, const FactoredLexicon& lexicon,
                               const CkyReplayStep& step);

struct CkyReplayState {
  std::vector<int> entries;  // per cell index (CkyChart::cellIndex): entries made so far
  std::vector<int> pruned;   // per cell index: of those, pruned so far
  int currentCell = -1;      // the cell of the last step shown (-1 before the first)
};

CkyReplayState replayState(const CkyChart& chart, const std::vector<CkyReplayStep>& steps,
                           std::size_t count);

// The derivation of entry `entry` of cell (begin, end) built by `edge` (-1: its Viterbi edge).
DerivationNode entryDerivation(const CkyChart& chart, int begin, int end, int entry, int edge = -1);

}  // namespace gwb::ccg
