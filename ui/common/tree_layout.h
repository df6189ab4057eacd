// A tidy layout for parse trees (Reingold & Tilford 1981, with node widths).
//
// Each node is a box of a given width on the row of its depth. Subtrees are laid out bottom
// up: a node's children are placed left to right, each pushed just far enough right that no
// box of it comes closer than `siblingGap` to any box of the subtrees already placed, row by
// row (the subtrees' contours); the parent is then centred over its first and last child.
// The results, for every visible pair of neighbours on a row, are:
//   * boxes never overlap and keep at least `siblingGap` between them;
//   * children keep their order, and a parent is centred over its first and last child;
//   * the layout of a subtree does not depend on what lies beside it (identical subtrees look
//     identical).
// Collapsed nodes are laid out as leaves and their descendants are hidden. Everything walks
// with explicit stacks: a 2,000-word discourse gives a tree thousands of levels deep.
// Plain C++ (no Qt), so it is tested on its own.
#pragma once

#include <vector>

#include "gwb/earley/parse_tree.h"

namespace gwb::ui {

struct TreeLayoutOptions {
  double siblingGap = 12.0;   // least horizontal space between two boxes on a row
  double levelHeight = 48.0;  // vertical distance between the tops of two rows
};

struct TreeLayoutNode {
  double x = 0.0;  // centre of the box; the leftmost box starts at x - width/2 = 0
  double y = 0.0;  // top of the row
  double width = 0.0;
  int depth = 0;
  bool visible = false;  // false below a collapsed node (and for nodes not in the tree)
};

struct TreeLayout {
  std::vector<TreeLayoutNode> nodes;  // by node id of the ParseTree
  double width = 0.0;                 // of the whole drawing
  double height = 0.0;                // rows × levelHeight
  int rows = 0;
};

// `widths[i]` is the box width of node i; `collapsed[i]` hides node i's descendants (an empty
// vector collapses nothing).
TreeLayout layoutTree(const gwb::ParseTree& tree, const std::vector<double>& widths,
                      const std::vector<bool>& collapsed = {},
                      const TreeLayoutOptions& options = {});

}  // namespace gwb::ui
