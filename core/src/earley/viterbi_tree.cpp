// The Viterbi tree of a parse, read off the chart by EarleyRun (earley_run.h): back-pointers from
// the goal item, with the unit chains folded into R_U and the ε subtrees of dropped nullable
// symbols restored. Built with explicit stacks: a recording's tree is thousands of levels deep.
#include "earley/earley_run.h"

namespace gwb::earley_internal {

// Builds the Viterbi tree from the goal item, restoring unit chains and ε subtrees.
template <typename Numeric>
void EarleyRun<Numeric>::buildViterbiTree(std::size_t n, ParseResult& result) {
  const ItemRef goal{static_cast<std::int32_t>(n), goalIndex_};
  result.viterbiLogProbability = chart_.logViterbi(goal);
  ParseTree& tree = result.viterbiTree;
  const SymbolTable& symbols = g_.symbols();
  // Task: fill node `node` (labelled with the item's LHS) from completed item `item`.
  struct Task {
    ItemRef item;
    int node;
  };
  std::vector<Task> tasks;
  std::vector<int> kept;
  // Makes the node of a compiled rule application: children in source order, with ε
  // subtrees for dropped positions. `keptChildren` are in order.
  const auto assemble = [&](int node, const CompiledRule& rule,
                            const std::vector<int>& keptChildren) {
    std::vector<int> children;
    if (rule.source < 0) {
      children = keptChildren;
    } else {
      const Rule& source = g_.grammar().rule(rule.source);
      std::size_t next = 0;
      for (std::size_t k = 0; k < source.rhs.size(); ++k) {
        if (rule.drops(k)) {
          children.push_back(nullTree(tree, source.rhs[k]));
        } else {
          children.push_back(keptChildren[next++]);
        }
      }
    }
    tree.node(node).children = std::move(children);
  };
  // The node for symbol Z ⇒ (unit chain) ⇒ Y, returning (top node, node to fill for Y).
  const auto unitChain = [&](SymbolId z, SymbolId y) {
    const int top = tree.addNode(symbols.name(z), false);
    int current = top;
    for (std::int32_t ruleId : g_.bestUnitChain(z, y)) {
      const CompiledRule& rule = g_.rule(ruleId);
      const int child = tree.addNode(symbols.name(rule.rhs[0]), false);
      assemble(current, rule, {child});
      current = child;
    }
    return std::make_pair(top, current);
  };

  // The goal item is GOAL → S . completed by some Y with S ⇒* Y.
  const EarleyItem& goalItem = chart_.item(goal);
  const auto [top, fill] =
      unitChain(goalItem.bestVia, g_.rule(chart_.item({goal.set, goalItem.bestChild}).rule).lhs);
  tree.setRoot(top);
  tasks.push_back({{goal.set, goalItem.bestChild}, fill});
  while (!tasks.empty()) {
    const Task task = tasks.back();
    tasks.pop_back();
    const EarleyItem* item = &chart_.item(task.item);
    const CompiledRule& rule = g_.rule(item->rule);
    kept.assign(rule.rhs.size(), -1);
    ItemRef current = task.item;
    for (std::int32_t dot = item->dot; dot > 0; --dot) {
      const SymbolId symbol = rule.rhs[static_cast<std::size_t>(dot - 1)];
      if (!symbols.isNonterminal(symbol)) {
        // A scanned word: it is word current.set - 1.
        kept[static_cast<std::size_t>(dot - 1)] =
            tree.addNode((*words_)[static_cast<std::size_t>(current.set - 1)], true);
        if (item->bestPredecessor < 0) break;  // a lexical item: nothing before the word
        current = {current.set - 1, item->bestPredecessor};
      } else {
        const ItemRef childRef{current.set, item->bestChild};
        const EarleyItem& child = chart_.item(childRef);
        const auto [childTop, childFill] = unitChain(item->bestVia, g_.rule(child.rule).lhs);
        kept[static_cast<std::size_t>(dot - 1)] = childTop;
        tasks.push_back({childRef, childFill});
        current = {child.origin, item->bestPredecessor};
      }
      item = &chart_.item(current);
    }
    assemble(task.node, rule, kept);
  }
}

// The best ε-derivation tree of X (iterative; ε trees are small).
template <typename Numeric>
int EarleyRun<Numeric>::nullTree(ParseTree& tree, SymbolId x) {
  const SymbolTable& symbols = g_.symbols();
  const int root = tree.addNode(symbols.name(x), false);
  std::vector<std::pair<int, SymbolId>> stack{{root, x}};
  int guard = 0;
  while (!stack.empty() && ++guard < 100000) {
    const auto [node, symbol] = stack.back();
    stack.pop_back();
    const RuleId ruleId = g_.bestNullRule(symbol);
    if (ruleId < 0) continue;
    const Rule& rule = g_.grammar().rule(ruleId);
    if (rule.rhs.empty()) continue;  // printed as (X)
    for (SymbolId child : rule.rhs) {
      const int childNode = tree.addNode(symbols.name(child), false);
      tree.node(node).children.push_back(childNode);
      stack.push_back({childNode, child});
    }
  }
  return root;
}

template void EarleyRun<LinearNumeric>::buildViterbiTree(std::size_t, ParseResult&);
template void EarleyRun<LogNumeric>::buildViterbiTree(std::size_t, ParseResult&);
template int EarleyRun<LinearNumeric>::nullTree(ParseTree&, SymbolId);
template int EarleyRun<LogNumeric>::nullTree(ParseTree&, SymbolId);

}  // namespace gwb::earley_internal
