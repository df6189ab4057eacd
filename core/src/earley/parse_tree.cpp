#include "gwb/earley/parse_tree.h"

#include <algorithm>
#include <cctype>

namespace gwb {

std::string ParseTree::toPtb(bool emptyTop) const {
  std::string out;
  if (emptyTop) out += "( ";
  if (root_ < 0) {
    if (emptyTop) out += ")";
    return out;
  }
  // Stack of (node, next child index); -1 means "not opened yet".
  std::vector<std::pair<int, int>> stack{{root_, -1}};
  while (!stack.empty()) {
    auto& [id, next] = stack.back();
    const Node& n = node(id);
    if (n.terminal) {
      out += n.label;
      stack.pop_back();
      continue;
    }
    if (next < 0) {
      out += '(';
      out += n.label;
      next = 0;
    }
    if (static_cast<std::size_t>(next) < n.children.size()) {
      out += ' ';
      const int child = n.children[static_cast<std::size_t>(next++)];
      stack.emplace_back(child, -1);
    } else {
      out += ')';
      stack.pop_back();
    }
  }
  if (emptyTop) out += ")";
  return out;
}

std::vector<std::string> ParseTree::leaves() const {
  std::vector<std::string> words;
  if (root_ < 0) return words;
  std::vector<int> stack{root_};
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const Node& n = node(id);
    if (n.terminal) words.push_back(n.label);
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.push_back(*it);
  }
  return words;
}

int ParseTree::depth() const {
  if (root_ < 0) return -1;
  int deepest = 0;
  std::vector<std::pair<int, int>> stack{{root_, 0}};
  while (!stack.empty()) {
    const auto [id, d] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, d);
    for (int child : node(id).children) stack.emplace_back(child, d + 1);
  }
  return deepest;
}

ParseTree parsePtb(const std::string& text, std::string* error) {
  ParseTree tree;
  std::vector<int> open;  // nodes whose ')' is pending
  std::size_t i = 0;
  const auto fail = [&](const std::string& message) {
    if (error) *error = message + " at offset " + std::to_string(i);
    return ParseTree();
  };
  const auto token = [&]() {
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
           text[i] != '(' && text[i] != ')')
      ++i;
    return text.substr(start, i - start);
  };
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(') {
      ++i;
      while (i < text.size() && text[i] == ' ') ++i;
      const int id = tree.addNode(token(), false);
      if (!open.empty()) {
        tree.node(open.back()).children.push_back(id);
      } else if (tree.root() >= 0) {
        return fail("more than one tree");
      } else {
        tree.setRoot(id);
      }
      open.push_back(id);
    } else if (c == ')') {
      if (open.empty()) return fail("unbalanced ')'");
      open.pop_back();
      ++i;
    } else {
      if (open.empty()) return fail("a word outside brackets");
      const int id = tree.addNode(token(), true);
      tree.node(open.back()).children.push_back(id);
    }
  }
  if (!open.empty()) return fail("missing ')'");
  // An unlabelled top node with one child (Stanford's "( (ROOT ...))") is dropped.
  if (tree.root() >= 0 && tree.node(tree.root()).label.empty() &&
      tree.node(tree.root()).children.size() == 1)
    tree.setRoot(tree.node(tree.root()).children[0]);
  return tree;
}

ParseTree subtree(const ParseTree& tree, int node) {
  ParseTree out;
  if (node < 0 || static_cast<std::size_t>(node) >= tree.size()) return out;
  // (source node, parent in `out`), pre-order with an explicit stack.
  std::vector<std::pair<int, int>> stack{{node, -1}};
  while (!stack.empty()) {
    const auto [source, parent] = stack.back();
    stack.pop_back();
    const ParseTree::Node& n = tree.node(source);
    const int id = out.addNode(n.label, n.terminal);
    if (parent < 0) {
      out.setRoot(id);
    } else {
      out.node(parent).children.push_back(id);
    }
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.emplace_back(*it, id);
  }
  return out;
}

}  // namespace gwb
