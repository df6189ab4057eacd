#include "ui/kbest_parses.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace gwb::ui {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr int kUnreachable = std::numeric_limits<int>::max() / 4;

// A rule used by a partial derivation, linked to the one before it.
struct UsedRule {
  gwb::RuleId rule;
  int previous;  // index into the pool, -1 for the first rule
};

struct State {
  double priority;
  double logProbability;
  int words;                         // words matched so far
  std::vector<gwb::SymbolId> stack;  // pending symbols, leftmost at the back
  int lastRule;                      // index into the pool, -1 before the first rule
  bool operator<(const State& o) const { return priority < o.priority; }
};

// Builds the tree of a leftmost derivation (its rules in order).
gwb::ParseTree treeOf(const gwb::Grammar& grammar, const std::vector<gwb::RuleId>& rules) {
  gwb::ParseTree tree;
  const gwb::SymbolTable& symbols = grammar.symbols();
  const int root = tree.addNode(symbols.name(*grammar.start()), false);
  tree.setRoot(root);
  std::vector<int> pending{root};  // nonterminal nodes still to expand, leftmost at the back
  for (gwb::RuleId id : rules) {
    const int node = pending.back();
    pending.pop_back();
    const gwb::Rule& rule = grammar.rule(id);
    std::vector<int> children;
    for (gwb::SymbolId s : rule.rhs) {
      const bool terminal = symbols.isTerminal(s);
      const int child = tree.addNode(symbols.name(s), terminal);
      children.push_back(child);
    }
    tree.node(node).children = children;
    for (std::size_t i = rule.rhs.size(); i-- > 0;) {
      if (!symbols.isTerminal(rule.rhs[i])) pending.push_back(children[i]);
    }
  }
  return tree;
}

}  // namespace

KBestResult kBestParses(const gwb::Grammar& grammar, const std::vector<std::string>& words,
                        std::size_t n, std::size_t maxExpansions) {
  KBestResult result;
  if (!grammar.start() || n == 0) return result;
  const gwb::SymbolTable& symbols = grammar.symbols();
  const std::size_t count = symbols.size();

  // Best log probability of deriving anything, and least yield length, per symbol.
  std::vector<double> best(count, kNegInf);
  std::vector<int> least(count, kUnreachable);
  for (std::size_t s = 0; s < count; ++s) {
    if (symbols.isTerminal(static_cast<gwb::SymbolId>(s))) {
      best[s] = 0.0;
      least[s] = 1;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const gwb::Rule& rule : grammar.rules()) {
      if (rule.probability <= 0.0) continue;
      double p = std::log(rule.probability);
      long length = 0;
      for (gwb::SymbolId s : rule.rhs) {
        p += best[static_cast<std::size_t>(s)];
        length += least[static_cast<std::size_t>(s)];
      }
      const auto lhs = static_cast<std::size_t>(rule.lhs);
      if (p > best[lhs] + 1e-12) {
        best[lhs] = p;
        changed = true;
      }
      if (length < least[lhs]) {
        least[lhs] = static_cast<int>(length);
        changed = true;
      }
    }
  }

  // The words as terminals; a word the grammar does not know has no parse.
  std::vector<gwb::SymbolId> terminals;
  for (const std::string& w : words) {
    const auto t = symbols.findTerminal(w);
    if (!t) return result;
    terminals.push_back(*t);
  }
  const int length = static_cast<int>(words.size());

  std::vector<UsedRule> pool;
  std::priority_queue<State> queue;
  const gwb::SymbolId start = *grammar.start();
  if (best[static_cast<std::size_t>(start)] == kNegInf) return result;
  queue.push({best[static_cast<std::size_t>(start)], 0.0, 0, {start}, -1});
  std::size_t expansions = 0;
  while (!queue.empty() && result.parses.size() < n) {
    if (++expansions > maxExpansions) {
      result.complete = false;
      break;
    }
    State state = queue.top();
    queue.pop();
    // Terminals on top are matched against the next words at once.
    bool matches = true;
    while (!state.stack.empty() && symbols.isTerminal(state.stack.back())) {
      if (state.words >= length ||
          terminals[static_cast<std::size_t>(state.words)] != state.stack.back()) {
        matches = false;
        break;
      }
      ++state.words;
      state.stack.pop_back();
    }
    if (!matches) continue;
    if (state.stack.empty()) {
      if (state.words != length) continue;
      std::vector<gwb::RuleId> rules;
      for (int at = state.lastRule; at >= 0; at = pool[static_cast<std::size_t>(at)].previous)
        rules.push_back(pool[static_cast<std::size_t>(at)].rule);
      std::reverse(rules.begin(), rules.end());
      result.parses.push_back({treeOf(grammar, rules), state.logProbability});
      continue;
    }
    // Rewrite the leftmost pending nonterminal by each of its rules.
    const gwb::SymbolId top = state.stack.back();
    for (gwb::RuleId id : grammar.rulesWithLhs(top)) {
      const gwb::Rule& rule = grammar.rule(id);
      if (rule.probability <= 0.0) continue;
      State next;
      next.words = state.words;
      next.stack.assign(state.stack.begin(), state.stack.end() - 1);
      for (auto it = rule.rhs.rbegin(); it != rule.rhs.rend(); ++it) next.stack.push_back(*it);
      long needed = 0;
      double bound = 0.0;
      for (gwb::SymbolId s : next.stack) {
        needed += least[static_cast<std::size_t>(s)];
        bound += best[static_cast<std::size_t>(s)];
      }
      if (needed > length - next.words || bound == kNegInf) continue;
      next.logProbability = state.logProbability + std::log(rule.probability);
      next.priority = next.logProbability + bound;
      pool.push_back({id, state.lastRule});
      next.lastRule = static_cast<int>(pool.size()) - 1;
      queue.push(std::move(next));
    }
  }
  return result;
}

}  // namespace gwb::ui
