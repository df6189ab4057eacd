// Links between a parse tree of a session's sentence and the session's Earley chart: which
// completed chart item built a node of the tree, and which node a completed item built.
//
// A nonterminal node labelled X over the words [i, j) (its span, counted from the tree's
// leaves) stands for the completed item [i, j] X → α . in state set j whose rule has the node's
// children as its right-hand side. Children that derive the empty string (ε subtrees, span
// [k, k]) are not matched: the compiled grammar drops nullable occurrences from its rules.
// Matching the rule, not just the label and span, tells analyses apart: in "i saw the man
// with the telescope" both [1, 7] VP → V NP PP . and [1, 7] VP → V NP . are finished, and only
// one of them is the VP of a given tree.
//
// Some nodes have no item of their own:
//  * the upper nodes of a unit chain X ⇒ Y ⇒ ... (several nested nodes over the same span):
//    unit rules are folded into the completion closure R_U, so the chart has no finished
//    X → Y . to point at. The link goes to the item of the chain's lowest node that has one,
//    with kind UnitChain and `node` set to that lower node;
//  * ε subtrees (kind Empty) and words (kind Word).
// The chart is the session's finished one; whether the stepper has reached an item yet is the
// caller's question (ParseSession::stateAfter, firstStepWith below). Everything walks with
// explicit stacks (discourse trees are thousands of levels deep).
#pragma once

#include <cstddef>
#include <vector>

#include "gwb/earley/earley_parser.h"
#include "gwb/earley/parse_tree.h"

namespace gwb::ui {

class ParseSession;

// The words a node covers: [begin, end) in leaf positions (begin == end for ε subtrees).
struct NodeSpan {
  int begin = 0;
  int end = 0;
  bool empty() const { return begin == end; }
};

// Spans of every node, by node id (empty for an empty tree).
std::vector<NodeSpan> nodeSpans(const gwb::ParseTree& tree);

struct TreeChartLink {
  enum class Kind {
    Exact,      // `item` is the node's own completed item
    UnitChain,  // the node tops a unit chain; `item` is that of the lower node `node`
    Empty,      // the node derives the empty string: no item
    Word,       // a word (a leaf): no item
    NotFound,   // no completed item matches (the tree is not a parse of this chart)
  };
  Kind kind = Kind::NotFound;
  gwb::ItemRef item;  // valid for Exact and UnitChain
  int node = -1;      // the node whose item `item` is
  NodeSpan span;      // the span of the node asked about
};

// The completed chart item of `node` (see the header comment).
TreeChartLink chartItemForNode(const ParseSession& session, const gwb::ParseTree& tree, int node);

// The node of `tree` built by the completed item `item` (-1: none, or not a completed item, or
// the goal item).
int treeNodeForItem(const ParseSession& session, const gwb::ParseTree& tree, gwb::ItemRef item);

// The number of operations after which `item` of the finished chart first exists (1-based: the
// step that makes it); 0 if it is not in the chart.
std::size_t firstStepWith(const ParseSession& session, gwb::ItemRef item);

}  // namespace gwb::ui
