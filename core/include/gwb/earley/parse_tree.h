// A parse tree as a flat array of nodes, built and printed without recursion.
//
// A 50,000-token discourse yields a right-branching tree 50,000 levels deep; recursive builders
// and printers would overflow the stack, so everything here walks with explicit stacks.
// Node 0..size-1; `root` is the top node; leaves are terminals (words).
#pragma once

#include <string>
#include <vector>

namespace gwb {

class ParseTree {
 public:
  struct Node {
    std::string label;
    std::vector<int> children;  // in order; empty for leaves
    bool terminal = false;
  };

  int addNode(std::string label, bool terminal) {
    nodes_.push_back(Node{std::move(label), {}, terminal});
    return static_cast<int>(nodes_.size()) - 1;
  }
  Node& node(int id) { return nodes_[static_cast<std::size_t>(id)]; }
  const Node& node(int id) const { return nodes_[static_cast<std::size_t>(id)]; }
  std::size_t size() const { return nodes_.size(); }
  bool empty() const { return nodes_.empty(); }
  int root() const { return root_; }
  void setRoot(int id) { root_ = id; }

  // Penn Treebank brackets: "(S (NP (Det the) (N dog)) (VP (V barks)))". With `emptyTop`, wraps
  // the tree in an unlabelled node as Stanford's Tree.toString does: "( (ROOT ...))".
  std::string toPtb(bool emptyTop = false) const;
  // The words at the leaves, left to right.
  std::vector<std::string> leaves() const;
  // Depth of the deepest leaf (root = 0).
  int depth() const;

 private:
  std::vector<Node> nodes_;
  int root_ = -1;
};

// A copy of the subtree under `node` (an empty tree for an invalid node).
ParseTree subtree(const ParseTree& tree, int node);

// Reads PTB brackets back (for tests and round trips). Returns an empty tree on malformed input
// and sets *error.
ParseTree parsePtb(const std::string& text, std::string* error = nullptr);

}  // namespace gwb
