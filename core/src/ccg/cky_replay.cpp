#include "gwb/ccg/cky_replay.h"

#include <sstream>

#include "gwb/ccg/term.h"

namespace gwb::ccg {

namespace {

std::string spanText(int begin, int end) {
  return std::to_string(begin) + "-" + std::to_string(end);
}

}  // namespace

std::vector<CkyReplayStep> ckyReplay(const CkyChart& chart) {
  std::vector<CkyReplayStep> steps;
  steps.reserve(chart.events().size());
  const auto side = static_cast<std::size_t>(chart.length()) + 1;
  std::vector<int> made(side * side, 0);
  for (const ChartEvent& event : chart.events()) {
    const ChartCell& cell = chart.cellAt(event.cell);
    CkyReplayStep step;
    step.begin = cell.begin;
    step.end = cell.end;
    step.entry = event.entry;
    step.edge = event.edge;
    switch (event.kind) {
      case ChartEvent::Kind::CellStarted: step.kind = CkyReplayStep::Kind::CellStarted; break;
      case ChartEvent::Kind::EntryAdded:
        step.kind = CkyReplayStep::Kind::NewEntry;
        ++made[static_cast<std::size_t>(event.cell)];
        break;
      case ChartEvent::Kind::EdgeAdded: step.kind = CkyReplayStep::Kind::AnotherDerivation; break;
      case ChartEvent::Kind::EntryPruned: step.kind = CkyReplayStep::Kind::Pruned; break;
      case ChartEvent::Kind::CellFinished: step.kind = CkyReplayStep::Kind::CellFinished; break;
    }
    step.entriesInCell = made[static_cast<std::size_t>(event.cell)];
    if (event.entry >= 0 && event.edge >= 0) {
      const ChartEntry& entry = cell.entries[static_cast<std::size_t>(event.entry)];
      if (static_cast<std::size_t>(event.edge) < entry.edges.size()) {
        const ChartEdge& edge = entry.edges[static_cast<std::size_t>(event.edge)];
        step.combinator = edge.combinator;
        if (edge.leftCell >= 0) {
          step.split = chart.cellAt(edge.leftCell).end;
          step.leftEntry = edge.leftEntry;
          step.rightEntry = edge.rightEntry;
        }
      }
    }
    steps.push_back(step);
  }
  return steps;
}

std::string describeReplayStep(const CkyChart& chart, const FactoredLexicon& lexicon,
                               const CkyReplayStep& step) {
  std::ostringstream out;
  const std::string cell = spanText(step.begin, step.end);
  std::string phrase;
  for (int w = step.begin; w < step.end; ++w) {
    phrase += (phrase.empty() ? "" : " ") + chart.words()[static_cast<std::size_t>(w)];
  }
  switch (step.kind) {
    case CkyReplayStep::Kind::CellStarted:
      out << cell << " start cell \"" << phrase << "\"";
      return out.str();
    case CkyReplayStep::Kind::CellFinished:
      out << cell << " cell finished: " << step.entriesInCell
          << (step.entriesInCell == 1 ? " entry" : " entries");
      return out.str();
    case CkyReplayStep::Kind::Pruned: {
      const ChartEntry& entry = chart.cell(step.begin, step.end).entries[step.entry];
      out << cell << " prune #" << step.entry << " " << toString(entry.category)
          << " (off the beam)";
      return out.str();
    }
    case CkyReplayStep::Kind::NewEntry:
    case CkyReplayStep::Kind::AnotherDerivation: break;
  }
  const ChartEntry& entry = chart.cell(step.begin, step.end).entries[step.entry];
  out << cell << " [" << combinatorSymbol(step.combinator) << "] ";
  if (step.split >= 0) {
    const ChartEntry& left = chart.cell(step.begin, step.split).entries[step.leftEntry];
    const ChartEntry& right = chart.cell(step.split, step.end).entries[step.rightEntry];
    out << toString(left.category) << " " << spanText(step.begin, step.split) << " #"
        << step.leftEntry << " + " << toString(right.category) << " "
        << spanText(step.split, step.end) << " #" << step.rightEntry << " => ";
  } else if (step.edge >= 0 && static_cast<std::size_t>(step.edge) < entry.edges.size()) {
    const ChartEdge& edge = entry.edges[static_cast<std::size_t>(step.edge)];
    out << "\"" << phrase << "\"";
    if (edge.lexeme >= 0 && edge.lexicalTemplate >= 0) {
      out << " " << lexemeKey(lexicon.lexemes()[static_cast<std::size_t>(edge.lexeme)]) << " | "
          << templateKey(lexicon.templates()[static_cast<std::size_t>(edge.lexicalTemplate)]);
    }
    out << " => ";
  }
  out << toString(entry.category);
  if (entry.semantics) out << " : " << toString(entry.semantics);
  if (step.kind == CkyReplayStep::Kind::NewEntry) {
    out << "  (new entry #" << step.entry << ")";
  } else {
    out << "  (another derivation of #" << step.entry << ")";
  }
  return out.str();
}

CkyReplayState replayState(const CkyChart& chart, const std::vector<CkyReplayStep>& steps,
                           std::size_t count) {
  const int n = chart.length();
  CkyReplayState state;
  const auto side = static_cast<std::size_t>(n) + 1;
  state.entries.assign(side * side, 0);
  state.pruned.assign(state.entries.size(), 0);
  const std::size_t shown = count < steps.size() ? count : steps.size();
  for (std::size_t i = 0; i < shown; ++i) {
    const CkyReplayStep& step = steps[i];
    const auto cell = static_cast<std::size_t>(chart.cellIndex(step.begin, step.end));
    state.entries[cell] = step.entriesInCell;
    if (step.kind == CkyReplayStep::Kind::Pruned) ++state.pruned[cell];
    state.currentCell = static_cast<int>(cell);
  }
  return state;
}

namespace {

// Iterative, so that a long sentence's deep derivation cannot exhaust the stack.
struct PendingNode {
  DerivationNode* node;
  int cell;
  int entry;
  int edge;
};

void expand(const CkyChart& chart, const PendingNode& pending, std::vector<PendingNode>* stack) {
  const ChartCell& cell = chart.cellAt(pending.cell);
  const ChartEntry& entry = cell.entries[static_cast<std::size_t>(pending.entry)];
  DerivationNode& node = *pending.node;
  node.begin = cell.begin;
  node.end = cell.end;
  node.category = entry.category;
  node.semantics = entry.semantics;
  const int edgeIndex = pending.edge >= 0 ? pending.edge : entry.bestEdge;
  if (edgeIndex < 0 || static_cast<std::size_t>(edgeIndex) >= entry.edges.size()) return;
  const ChartEdge& edge = entry.edges[static_cast<std::size_t>(edgeIndex)];
  node.combinator = edge.combinator;
  node.lexeme = edge.lexeme;
  node.lexicalTemplate = edge.lexicalTemplate;
  node.localScore = edge.score;
  if (edge.leftCell < 0) return;
  node.children.resize(2);
  stack->push_back({&node.children.front(), edge.leftCell, edge.leftEntry, -1});
  stack->push_back({&node.children.back(), edge.rightCell, edge.rightEntry, -1});
}

}  // namespace

DerivationNode entryDerivation(const CkyChart& chart, int begin, int end, int entry, int edge) {
  DerivationNode root;
  std::vector<PendingNode> stack{{&root, chart.cellIndex(begin, end), entry, edge}};
  while (!stack.empty()) {
    const PendingNode pending = stack.back();
    stack.pop_back();
    expand(chart, pending, &stack);
  }
  return root;
}

}  // namespace gwb::ccg
