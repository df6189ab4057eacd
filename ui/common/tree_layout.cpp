#include "ui/common/tree_layout.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace gwb::ui {

namespace {

// A subtree's outline: per row below its root (row 0 = the root), the leftmost left edge and
// the rightmost right edge, relative to the root's centre. Rows are stored deepest first, so
// that adding a parent's row is a push_back, and all values are offset by `shift`, so that
// moving a whole subtree is one addition. Merging two outlines then costs the length of the
// shorter one (the longer one is reused), which keeps deep, lopsided trees fast.
struct Contour {
  std::vector<double> left;
  std::vector<double> right;
  double shift = 0.0;

  std::size_t rows() const { return left.size(); }
  double leftAt(std::size_t row) const { return left[left.size() - 1 - row] + shift; }
  double rightAt(std::size_t row) const { return right[right.size() - 1 - row] + shift; }
  void setLeft(std::size_t row, double x) { left[left.size() - 1 - row] = x - shift; }
  void setRight(std::size_t row, double x) { right[right.size() - 1 - row] = x - shift; }
};

}  // namespace

TreeLayout layoutTree(const gwb::ParseTree& tree, const std::vector<double>& widths,
                      const std::vector<bool>& collapsed, const TreeLayoutOptions& options) {
  TreeLayout layout;
  const std::size_t n = tree.size();
  layout.nodes.assign(n, {});
  if (tree.root() < 0 || n == 0) return layout;

  const auto isCollapsed = [&](int id) {
    return static_cast<std::size_t>(id) < collapsed.size() &&
           collapsed[static_cast<std::size_t>(id)];
  };
  const auto widthOf = [&](int id) {
    return static_cast<std::size_t>(id) < widths.size() ? widths[static_cast<std::size_t>(id)]
                                                        : 0.0;
  };
  const auto childrenOf = [&](int id) -> const std::vector<int>& {
    static const std::vector<int> none;
    return isCollapsed(id) ? none : tree.node(id).children;
  };

  std::vector<Contour> contours(n);
  std::vector<double> offset(n, 0.0);  // centre relative to the parent's centre

  // Post-order without recursion: (node, next child to visit).
  std::vector<std::pair<int, std::size_t>> stack{{tree.root(), 0}};
  while (!stack.empty()) {
    auto& [id, next] = stack.back();
    const std::vector<int>& children = childrenOf(id);
    if (next < children.size()) {
      const int child = children[next++];
      stack.emplace_back(child, 0);
      continue;
    }
    const double half = widthOf(id) / 2.0;
    Contour& own = contours[static_cast<std::size_t>(id)];
    if (children.empty()) {
      own.left = {-half};
      own.right = {half};
      own.shift = 0.0;
      stack.pop_back();
      continue;
    }
    // Place the children left to right against the outline of those already placed (in the
    // frame of the first child's centre).
    Contour combined = std::move(contours[static_cast<std::size_t>(children.front())]);
    offset[static_cast<std::size_t>(children.front())] = 0.0;
    for (std::size_t i = 1; i < children.size(); ++i) {
      const auto child = static_cast<std::size_t>(children[i]);
      Contour c = std::move(contours[child]);
      const std::size_t common = std::min(combined.rows(), c.rows());
      double shift = -std::numeric_limits<double>::infinity();
      for (std::size_t d = 0; d < common; ++d)
        shift = std::max(shift, combined.rightAt(d) - c.leftAt(d) + options.siblingGap);
      offset[child] = shift;
      c.shift += shift;
      if (c.rows() > combined.rows()) {
        for (std::size_t d = 0; d < common; ++d) c.setLeft(d, combined.leftAt(d));
        combined = std::move(c);
      } else {
        for (std::size_t d = 0; d < common; ++d) combined.setRight(d, c.rightAt(d));
      }
    }
    const double mid = (offset[static_cast<std::size_t>(children.front())] +
                        offset[static_cast<std::size_t>(children.back())]) /
                       2.0;
    for (int child : children) offset[static_cast<std::size_t>(child)] -= mid;
    combined.shift -= mid;
    combined.left.push_back(-half - combined.shift);
    combined.right.push_back(half - combined.shift);
    own = std::move(combined);
    stack.pop_back();
  }

  // Absolute positions, top down.
  double minLeft = std::numeric_limits<double>::infinity();
  double maxRight = -std::numeric_limits<double>::infinity();
  int deepest = 0;
  std::vector<int> order{tree.root()};
  layout.nodes[static_cast<std::size_t>(tree.root())] = {0.0, 0.0, widthOf(tree.root()), 0, true};
  while (!order.empty()) {
    const int id = order.back();
    order.pop_back();
    TreeLayoutNode& node = layout.nodes[static_cast<std::size_t>(id)];
    minLeft = std::min(minLeft, node.x - node.width / 2.0);
    maxRight = std::max(maxRight, node.x + node.width / 2.0);
    deepest = std::max(deepest, node.depth);
    for (int child : childrenOf(id)) {
      TreeLayoutNode& c = layout.nodes[static_cast<std::size_t>(child)];
      c.x = node.x + offset[static_cast<std::size_t>(child)];
      c.depth = node.depth + 1;
      c.y = c.depth * options.levelHeight;
      c.width = widthOf(child);
      c.visible = true;
      order.push_back(child);
    }
  }
  for (TreeLayoutNode& node : layout.nodes)
    if (node.visible) node.x -= minLeft;
  layout.width = maxRight - minLeft;
  layout.rows = deepest + 1;
  layout.height = layout.rows * options.levelHeight;
  return layout;
}

}  // namespace gwb::ui
