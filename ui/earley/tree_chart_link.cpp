#include "ui/earley/tree_chart_link.h"

#include <string>

#include "gwb/earley/compiled_grammar.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {

namespace {

// Does the completed item's rule have `node`'s word-covering children as its right-hand side?
bool ruleMatchesNode(const ParseSession& session, const gwb::CompiledRule& rule,
                     const gwb::ParseTree& tree, const std::vector<NodeSpan>& spans, int node) {
  const gwb::SymbolTable& symbols = session.compiled().symbols();
  std::size_t k = 0;
  for (const int child : tree.node(node).children) {
    if (spans[static_cast<std::size_t>(child)].empty()) continue;  // ε: dropped from the rule
    if (k >= rule.rhs.size() || symbols.name(rule.rhs[k]) != tree.node(child).label) return false;
    ++k;
  }
  return k == rule.rhs.size();
}

// The finished item [span] label → children . of `node`, or an invalid reference.
gwb::ItemRef findCompletedItem(const ParseSession& session, const gwb::ParseTree& tree,
                               const std::vector<NodeSpan>& spans, int node) {
  const NodeSpan span = spans[static_cast<std::size_t>(node)];
  const gwb::EarleyChart& chart = session.chart();
  if (span.end < 0 || static_cast<std::size_t>(span.end) >= chart.setCount()) return {};
  const gwb::CompiledGrammar& compiled = session.compiled();
  const std::string& label = tree.node(node).label;
  const auto items = chart.set(static_cast<std::size_t>(span.end));
  for (std::size_t k = 0; k < items.size(); ++k) {
    const gwb::EarleyItem& item = items[k];
    if (item.origin != span.begin) continue;
    const gwb::CompiledRule& rule = compiled.rule(item.rule);
    if (static_cast<std::size_t>(item.dot) != rule.rhs.size() || rule.lhs == compiled.goal())
      continue;
    if (compiled.symbols().name(rule.lhs) != label) continue;
    if (ruleMatchesNode(session, rule, tree, spans, node))
      return {span.end, static_cast<std::int32_t>(k)};
  }
  return {};
}

// The only child of `node` that covers words, if there is exactly one and it is a nonterminal.
int onlyCoveringChild(const gwb::ParseTree& tree, const std::vector<NodeSpan>& spans, int node) {
  int only = -1;
  for (const int child : tree.node(node).children) {
    if (spans[static_cast<std::size_t>(child)].empty()) continue;
    if (only >= 0) return -1;
    only = child;
  }
  return only >= 0 && !tree.node(only).terminal ? only : -1;
}

}  // namespace

std::vector<NodeSpan> nodeSpans(const gwb::ParseTree& tree) {
  std::vector<NodeSpan> spans(tree.size());
  if (tree.empty() || tree.root() < 0) return spans;
  // Pre-order, left to right: a node starts where the words seen before it end.
  std::vector<int> order;
  order.reserve(tree.size());
  std::vector<int> stack{tree.root()};
  int words = 0;
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    order.push_back(node);
    const auto& n = tree.node(node);
    NodeSpan& span = spans[static_cast<std::size_t>(node)];
    span.begin = span.end = words;
    if (n.terminal) span.end = ++words;
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.push_back(*it);
  }
  // Children before parents: a node ends where its last child ends.
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto& n = tree.node(*it);
    if (!n.terminal && !n.children.empty())
      spans[static_cast<std::size_t>(*it)].end =
          spans[static_cast<std::size_t>(n.children.back())].end;
  }
  return spans;
}

TreeChartLink chartItemForNode(const ParseSession& session, const gwb::ParseTree& tree, int node) {
  TreeChartLink link;
  if (node < 0 || static_cast<std::size_t>(node) >= tree.size() || !session.hasChart()) return link;
  const std::vector<NodeSpan> spans = nodeSpans(tree);
  link.span = spans[static_cast<std::size_t>(node)];
  if (tree.node(node).terminal) {
    link.kind = TreeChartLink::Kind::Word;
    return link;
  }
  if (link.span.empty()) {
    link.kind = TreeChartLink::Kind::Empty;
    return link;
  }
  // Down a unit chain (same span, one covering child) to the first node with an item.
  for (int at = node; at >= 0; at = onlyCoveringChild(tree, spans, at)) {
    const gwb::ItemRef item = findCompletedItem(session, tree, spans, at);
    if (item.valid()) {
      link.kind = at == node ? TreeChartLink::Kind::Exact : TreeChartLink::Kind::UnitChain;
      link.item = item;
      link.node = at;
      return link;
    }
  }
  return link;
}

int treeNodeForItem(const ParseSession& session, const gwb::ParseTree& tree, gwb::ItemRef item) {
  if (!item.valid() || tree.empty() || !session.hasChart()) return -1;
  if (static_cast<std::size_t>(item.set) >= session.chart().setCount()) return -1;
  if (item.index < 0 || static_cast<std::size_t>(item.index) >=
                            session.chart().set(static_cast<std::size_t>(item.set)).size())
    return -1;
  const gwb::CompiledGrammar& compiled = session.compiled();
  const gwb::EarleyItem& it = session.chart().item(item);
  const gwb::CompiledRule& rule = compiled.rule(it.rule);
  if (static_cast<std::size_t>(it.dot) != rule.rhs.size() || rule.lhs == compiled.goal()) return -1;
  const std::string& label = compiled.symbols().name(rule.lhs);
  const std::vector<NodeSpan> spans = nodeSpans(tree);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const int node = static_cast<int>(i);
    const NodeSpan span = spans[i];
    if (tree.node(node).terminal || span.begin != it.origin || span.end != item.set) continue;
    if (tree.node(node).label != label) continue;
    if (ruleMatchesNode(session, rule, tree, spans, node)) return node;
  }
  return -1;
}

std::size_t firstStepWith(const ParseSession& session, gwb::ItemRef item) {
  if (!item.valid() || !session.hasChart()) return 0;
  if (!session.stateAfter(item, session.stepCount())) return 0;
  return session.trace().creationStep(item) + 1;
}

}  // namespace gwb::ui
