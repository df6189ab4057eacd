// The tidy tree layout: no overlaps on any row, parents centred over their children, order
// kept, subtrees laid out independently of their surroundings, and deep trees without
// recursion.
#include "ui/common/tree_layout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "gwb/earley/parse_tree.h"

namespace gwb::ui {
namespace {

// Widths from label lengths, as the view does with font metrics.
std::vector<double> widthsOf(const gwb::ParseTree& tree) {
  std::vector<double> widths;
  for (std::size_t i = 0; i < tree.size(); ++i)
    widths.push_back(8.0 * static_cast<double>(tree.node(static_cast<int>(i)).label.size()) + 10);
  return widths;
}

// Checks the layout's promises for every row.
void expectTidy(const gwb::ParseTree& tree, const TreeLayout& layout,
                const std::vector<bool>& collapsed, double gap) {
  std::map<int, std::vector<int>> rows;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    if (layout.nodes[i].visible) rows[layout.nodes[i].depth].push_back(static_cast<int>(i));
  }
  double minLeft = 1e300;
  for (auto& [depth, ids] : rows) {
    std::sort(ids.begin(), ids.end(), [&](int a, int b) {
      return layout.nodes[static_cast<std::size_t>(a)].x <
             layout.nodes[static_cast<std::size_t>(b)].x;
    });
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const TreeLayoutNode& node = layout.nodes[static_cast<std::size_t>(ids[k])];
      EXPECT_DOUBLE_EQ(node.y, depth * TreeLayoutOptions().levelHeight);
      minLeft = std::min(minLeft, node.x - node.width / 2);
      EXPECT_LE(node.x + node.width / 2, layout.width + 1e-9);
      if (k == 0) continue;
      const TreeLayoutNode& before = layout.nodes[static_cast<std::size_t>(ids[k - 1])];
      EXPECT_GE(node.x - node.width / 2, before.x + before.width / 2 + gap - 1e-9)
          << "overlap on row " << depth;
    }
  }
  EXPECT_NEAR(minLeft, 0.0, 1e-9);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const TreeLayoutNode& node = layout.nodes[i];
    const auto& children = tree.node(static_cast<int>(i)).children;
    if (!node.visible || children.empty()) continue;
    const bool hidden = i < collapsed.size() && collapsed[i];
    for (int child : children)
      EXPECT_EQ(layout.nodes[static_cast<std::size_t>(child)].visible, !hidden);
    if (hidden) continue;
    const double first = layout.nodes[static_cast<std::size_t>(children.front())].x;
    const double last = layout.nodes[static_cast<std::size_t>(children.back())].x;
    EXPECT_NEAR(node.x, (first + last) / 2, 1e-9) << "parent not centred";
    for (std::size_t k = 1; k < children.size(); ++k) {
      EXPECT_LT(layout.nodes[static_cast<std::size_t>(children[k - 1])].x,
                layout.nodes[static_cast<std::size_t>(children[k])].x)
          << "children out of order";
    }
  }
}

const char* const kTrees[] = {
    "(S (NP i) (VP (V saw) (NP (NP (Det the) (N man)) (PP (P with) (NP (Det the) (N "
    "telescope))))))",
    "(S (NP (Det the) (N dog)) (VP (V barks)))",
    "(X a)",
    "(A (B (C (D (E e)))) (F f) (G (H h) (I i) (J (K k) (L l) (M m))))",
    "(ROOT (Wide_Label_Number_One x) (y z) (Another_Very_Long_Label (q r) (s t)))",
};

TEST(TreeLayoutTest, TableOfTreesIsTidy) {
  for (const char* text : kTrees) {
    const gwb::ParseTree tree = gwb::parsePtb(text);
    ASSERT_FALSE(tree.empty()) << text;
    const TreeLayout layout = layoutTree(tree, widthsOf(tree));
    SCOPED_TRACE(text);
    expectTidy(tree, layout, {}, TreeLayoutOptions().siblingGap);
    EXPECT_EQ(layout.rows, tree.depth() + 1);
  }
}

TEST(TreeLayoutTest, IdenticalSubtreesLookIdentical) {
  const gwb::ParseTree tree =
      gwb::parsePtb("(S (NP (Det the) (N man)) (V saw) (NP (Det the) (N man)))");
  const TreeLayout layout = layoutTree(tree, widthsOf(tree));
  const auto& root = tree.node(tree.root());
  const auto shape = [&](int np) {
    std::vector<double> xs;
    std::vector<int> stack{np};
    const double base = layout.nodes[static_cast<std::size_t>(np)].x;
    while (!stack.empty()) {
      const int id = stack.back();
      stack.pop_back();
      xs.push_back(layout.nodes[static_cast<std::size_t>(id)].x - base);
      for (int c : tree.node(id).children) stack.push_back(c);
    }
    return xs;
  };
  EXPECT_EQ(shape(root.children[0]), shape(root.children[2]));
}

TEST(TreeLayoutTest, CollapsedSubtreesAreHiddenAndTakeOneBox) {
  const gwb::ParseTree tree = gwb::parsePtb(kTrees[0]);
  std::vector<bool> collapsed(tree.size(), false);
  // Collapse the object NP (the big one).
  const int vp = tree.node(tree.root()).children[1];
  const int object = tree.node(vp).children[1];
  collapsed[static_cast<std::size_t>(object)] = true;
  const TreeLayout full = layoutTree(tree, widthsOf(tree));
  const TreeLayout small = layoutTree(tree, widthsOf(tree), collapsed);
  expectTidy(tree, small, collapsed, TreeLayoutOptions().siblingGap);
  EXPECT_LT(small.width, full.width);
  EXPECT_LT(small.rows, full.rows);
  EXPECT_TRUE(small.nodes[static_cast<std::size_t>(object)].visible);
  for (int child : tree.node(object).children)
    EXPECT_FALSE(small.nodes[static_cast<std::size_t>(child)].visible);
}

// Random trees: the promises hold whatever the shape.
TEST(TreeLayoutTest, RandomTreesAreTidy) {
  std::mt19937 random(11);
  for (int round = 0; round < 40; ++round) {
    gwb::ParseTree tree;
    const int root = tree.addNode("R", false);
    tree.setRoot(root);
    std::vector<int> open{root};
    const int size = 5 + round * 3;
    for (int i = 0; i < size; ++i) {
      const int parent = open[random() % open.size()];
      const bool leaf = random() % 3 == 0;
      const int id = tree.addNode(std::string(1 + random() % 9, 'x'), leaf);
      tree.node(parent).children.push_back(id);
      if (!leaf) open.push_back(id);
    }
    std::vector<bool> collapsed(tree.size(), false);
    for (std::size_t i = 0; i < tree.size(); ++i) collapsed[i] = random() % 7 == 0 && i != 0;
    SCOPED_TRACE(tree.toPtb());
    expectTidy(tree, layoutTree(tree, widthsOf(tree)), {}, 12.0);
    expectTidy(tree, layoutTree(tree, widthsOf(tree), collapsed), collapsed, 12.0);
  }
}

// A right-branching tree 20,000 levels deep (a long discourse) lays out without recursion.
TEST(TreeLayoutTest, DeepRightBranchingTree) {
  gwb::ParseTree tree;
  int parent = tree.addNode("D", false);
  tree.setRoot(parent);
  constexpr int kDepth = 20000;
  for (int i = 0; i < kDepth; ++i) {
    const int word = tree.addNode("S", false);
    const int leaf = tree.addNode("w", true);  // (addNode may move the nodes: add first)
    tree.node(word).children.push_back(leaf);
    const int rest = tree.addNode("D", false);
    tree.node(parent).children = {word, rest};
    parent = rest;
  }
  const int end = tree.addNode("end", true);
  tree.node(parent).children.push_back(end);
  const TreeLayout layout = layoutTree(tree, widthsOf(tree));
  EXPECT_EQ(layout.rows, kDepth + 2);
  // Each level's S sits to the left of its D.
  EXPECT_GT(layout.width, 0);
  int d = tree.root();
  for (int i = 0; i < 100; ++i) {
    const auto& c = tree.node(d).children;
    EXPECT_LT(layout.nodes[static_cast<std::size_t>(c[0])].x,
              layout.nodes[static_cast<std::size_t>(c[1])].x);
    d = c[1];
  }
}

}  // namespace
}  // namespace gwb::ui
