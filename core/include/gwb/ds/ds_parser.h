// The incremental Dynamic Syntax parser, with its parse state as a DAG (Sato 2011; Eshghi,
// Hough & Purver 2013, section 2.2.1): nodes are partial trees, edges are actions.
//
// Parsing starts from the axiom ?ty(t). After every action the non-optional computational
// actions (`*thinning`, `*elimination`, `*link-evaluation`) are applied until none fires; that
// closure belongs to the edge of the action that triggered it. Before each word the optional
// computational actions (introduction, prediction, completion, anticipation, adjunction, merge,
// ...) are explored; then each lexical action of the word is tried on every tree reached. After
// the last word the optional actions are explored once more. A parse succeeds when some tree is
// complete (no requirements anywhere, pointer at the root); its root formula is the result.
//
// Within one word position, trees with the same canonical key are one DAG node, so the
// exploration of optional actions (which may move the pointer up and down forever) ends.
// Edges always point from fewer to more words, or, within a word, to a node created later:
// the graph is acyclic.
//
// Strategies:
//   BreadthFirst  word-synchronous and exhaustive: every tree at every position (a beam keeps
//                 only the best `beam` trees after each word). The DAG is complete.
//   BestFirst     an agenda ordered by path probability, then by progress (more words first),
//                 then by creation; stops at the first complete tree after the last word.
//
// Memory: every tree of the DAG is kept (sharing unchanged nodes with its parent), and trees
// grow with the sentence, so the DAG's memory grows faster than its tree count. maxNodes bounds
// the count and maxBytes the estimated bytes; either ends the search with `truncated` set. The
// table that merges equal trees keeps 64-bit hashes of their keys, not the keys, and a word
// position's table is dropped once the breadth-first search has left that position.
// Probabilities come from a learned lexicon (a lexical edge has log p of its entry; other
// edges 0). Ties keep file order: optional actions in computational-actions.txt order, a
// word's entries in lexicon order — which is also how the first complete tree is chosen.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_tree.h"
#include "gwb/ds/formula.h"

namespace gwb::ds {

enum class SearchStrategy { BreadthFirst, BestFirst };

// Which tree an INCOMPLETE best-first parse reports (every word consumed, no complete tree):
//   FirstReached  the first tree created after the last word — DyLan's evaluation code gives
//                 the authors' Table 1 figures this way (docs/dynamic-syntax.md);
//   MostProbable  the most probable tree after the last word (ties: the first reached).
// Eshghi, Hough & Purver 2013 leave it open; a low-probability lexical action that applies
// without the computational steps a likelier one needs is reached first.
enum class IncompleteChoice { FirstReached, MostProbable };

struct DsParseOptions {
  SearchStrategy strategy = SearchStrategy::BreadthFirst;
  int beam = 0;                   // breadth-first: trees kept after each word (0: all)
  std::size_t maxNodes = 200000;  // safety bound on the DAG's size
  // Memory budget in bytes for the DAG and the search's tables (0: none). Each new tree's cost
  // is estimated (DsTree::approximateBytes) before it is stored; one that would pass the budget
  // stops the search, with `truncated` and `memoryExhausted` set.
  std::size_t maxBytes = 0;
  // Set it (from any thread) to stop the search at the next tree; the result then holds the DAG
  // built so far, with `cancelled` set.
  const std::atomic<bool>* cancel = nullptr;
  // The tree the parse starts from; null: the axiom, a root requiring ty(t). (A noun-phrase
  // fragment learned from a ?ty(e) root parses back from one.)
  std::shared_ptr<const DsTree> axiom;
  // Best-first: the tree an incomplete parse reports (breadth-first reports its first tree).
  IncompleteChoice incomplete = IncompleteChoice::FirstReached;
};

struct DagEdge {
  int from = -1;
  int to = -1;
  std::string action;  // computational action name, or the lexical entry's label
  bool lexical = false;
  int wordIndex = -1;  // lexical edges: the word consumed
  std::string word;
  std::vector<std::string> closure;  // non-optional actions applied after `action`
  double logProbability = 0.0;
};

struct DagNode {
  int id = -1;
  std::shared_ptr<const DsTree> tree;
  int wordsConsumed = 0;
  double logProbability = 0.0;  // of the first path found to this node
  int inEdge = -1;              // that path's last edge (-1 for the axiom)
  bool complete = false;
};

class ParseDag {
 public:
  const std::vector<DagNode>& nodes() const { return nodes_; }
  const std::vector<DagEdge>& edges() const { return edges_; }
  const DagNode& node(int id) const { return nodes_[static_cast<std::size_t>(id)]; }
  // Edge ids leaving a node, in creation order.
  const std::vector<int>& outEdges(int id) const { return out_[static_cast<std::size_t>(id)]; }
  // The edges of the first path from the axiom to `id`, in order.
  std::vector<int> pathTo(int id) const;

  int addNode(DagNode node);  // returns the new node's id
  int addEdge(DagEdge edge);  // the first edge into a node becomes its inEdge

  // Graphviz: nodes by word position, lexical edges bold and labelled with their word; the
  // edges of `highlight` (a path) drawn red; complete trees double-framed.
  std::string toDot(const std::vector<int>& highlight = {}) const;

 private:
  std::vector<DagNode> nodes_;
  std::vector<DagEdge> edges_;
  std::vector<std::vector<int>> out_;
};

enum class ParseOutcome {
  Parsed,      // a complete tree after the last word
  Incomplete,  // every word consumed, but requirements remain on every tree
  Failed,      // some word could not be parsed on any tree
};
const char* outcomeName(ParseOutcome outcome);  // "PARSED", "INCOMPLETE", "FAILED"

struct DsParseResult {
  ParseOutcome outcome = ParseOutcome::Failed;
  int failedWord = -1;               // Failed: the index of the first word no tree could take
  int finalNode = -1;                // Parsed: the complete tree; Incomplete: the first tree after
                                     // the last word; Failed: the first tree before the failed word
  FormulaPtr rootFormula;            // Parsed: the formula at the root of the complete tree
  FormulaPtr maximalSemantics;       // of finalNode
  std::vector<int> path;             // edges from the axiom to finalNode
  bool truncated = false;            // the search stopped at maxNodes or maxBytes
  bool memoryExhausted = false;      // ... and it was maxBytes
  std::size_t approximateBytes = 0;  // the estimated memory of the DAG and the search's tables
  bool cancelled = false;            // the search stopped because DsParseOptions::cancel was set
  // Some action failed because it would have built a formula nested deeper than
  // kMaxBuiltFormulaDepth (formula.h); the trees it would have made are missing from the DAG.
  bool formulaTooDeep = false;
  ParseDag dag;
};

class DsParser {
 public:
  // The grammar must outlive the parser.
  explicit DsParser(const DsGrammar& grammar);

  DsParseResult parse(const std::vector<std::string>& words,
                      const DsParseOptions& options = {}) const;
  DsParseResult parse(std::string_view sentence, const DsParseOptions& options = {}) const;

 private:
  const DsGrammar& grammar_;
  std::vector<const DsAction*> nonOptional_;
  std::vector<const DsAction*> optional_;
};

// Whitespace-separated words.
std::vector<std::string> splitWords(std::string_view sentence);

}  // namespace gwb::ds
