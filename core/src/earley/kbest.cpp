#include "gwb/earley/kbest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>
#include <utility>

namespace gwb {

namespace {

constexpr double kNoDerivation = -std::numeric_limits<double>::infinity();

enum class NodeKind : std::uint8_t { Item, Rule, Constituent, Null };

// Item: (set, index); Rule: (compiled rule); Constituent: (symbol, origin, set); Null: (symbol).
struct NodeKey {
  NodeKind kind;
  std::int32_t a = 0;
  std::int32_t b = 0;
  std::int32_t c = 0;
  bool operator==(const NodeKey& o) const {
    return kind == o.kind && a == o.a && b == o.b && c == o.c;
  }
};

struct NodeKeyHash {
  std::size_t operator()(const NodeKey& k) const {
    std::uint64_t h = static_cast<std::uint64_t>(k.kind);
    for (std::int32_t v : {k.a, k.b, k.c}) {
      h ^= static_cast<std::uint32_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdULL;
    }
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

enum class EdgeKind : std::uint8_t {
  Advance,   // item: tails [predecessor (item or rule)] or [predecessor, constituent]
  Start,     // rule: tails are the null nodes of its dropped positions
  Finished,  // constituent: tail [a finished non-unit item]
  Unit,      // constituent: tails [constituent of the unit rule's child, null nodes...]
  NullRule,  // null: tails [null nodes of the rule's symbols]
};

struct Edge {
  EdgeKind kind;
  double weight;  // log probability the edge itself contributes
  std::vector<int> tails;
  std::int32_t rule = -1;  // Unit: compiled rule; NullRule: grammar rule
};

struct Derivation {
  int edge;
  std::vector<int> ranks;  // one per tail
  double score;
};

// Better first: higher score, then lower edge, then lower ranks (a fixed order for ties).
bool worse(const Derivation& x, const Derivation& y) {
  if (x.score != y.score) return x.score < y.score;
  if (x.edge != y.edge) return x.edge > y.edge;
  return x.ranks > y.ranks;
}

struct Node {
  NodeKey key;
  double best = kNoDerivation;  // the Viterbi score of the node
  bool built = false;           // edges and first candidates made
  bool pendingSuccessors = false;
  bool exhausted = false;
  bool onStack = false;
  std::vector<Edge> edges;
  std::vector<Derivation> derivations;  // best first
  std::vector<Derivation> heap;         // candidates (a max-heap under `worse`)
  std::set<std::vector<int>> seen;      // candidates made: (edge, ranks...)
};

std::uint64_t pairKey(std::int32_t x, std::int32_t y) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) << 32) |
         static_cast<std::uint32_t>(y);
}

}  // namespace

class KBestParses::Forest {
 public:
  explicit Forest(const EarleyChart& chart)
      : chart_(chart), g_(chart.grammar()), sets_(chart.setCount()) {
    const std::size_t n = chart.words().size();
    if (n == 0) {
      if (g_.nullProbability(g_.start()) > 0.0) root_ = node({NodeKind::Null, g_.start()});
      return;
    }
    if (chart.setCount() != n + 1) return;
    const ConstSpan<EarleyItem> last = chart.set(n);
    for (std::size_t k = 0; k < last.size(); ++k) {
      const EarleyItem& item = last[k];
      if (item.rule == g_.goalRule() && item.dot == 1 && item.origin == 0)
        root_ = node({NodeKind::Item, static_cast<std::int32_t>(n), static_cast<std::int32_t>(k)});
    }
  }

  std::optional<RankedParse> parse(std::size_t rank) {
    if (root_ < 0 || !ensure(root_, rank)) return std::nullopt;
    RankedParse out;
    out.logProbability = nodes_[static_cast<std::size_t>(root_)].derivations[rank].score;
    if (!buildTree(static_cast<int>(rank), out.tree)) return std::nullopt;
    return out;
  }

 private:
  // Per state set: items by (dotted rule, origin), finished non-unit items by (origin, LHS),
  // and the best score of every constituent (origin, symbol) ending here.
  struct SetIndex {
    bool built = false;
    std::unordered_map<std::uint64_t, std::int32_t> items;
    std::unordered_map<std::uint64_t, std::vector<std::int32_t>> finished;
    std::unordered_map<std::uint64_t, double> constituentBest;
    // The origins of the constituents of each symbol ending here, increasing: the only splits
    // an item advanced over that symbol can have (a long discourse has few per symbol).
    std::unordered_map<SymbolId, std::vector<std::int32_t>> origins;
  };

  std::uint64_t itemKey(std::int32_t rule, std::int32_t dot, std::int32_t origin) const {
    const std::size_t dotted =
        g_.rhsOffset(rule) + static_cast<std::size_t>(rule) + static_cast<std::size_t>(dot);
    return (static_cast<std::uint64_t>(dotted) << 32) | static_cast<std::uint32_t>(origin);
  }

  SetIndex& setIndex(std::int32_t set) {
    SetIndex& index = sets_[static_cast<std::size_t>(set)];
    if (index.built) return index;
    index.built = true;
    const ConstSpan<EarleyItem> items = chart_.set(static_cast<std::size_t>(set));
    std::unordered_map<std::uint64_t, double> baseBest;  // (origin, LHS) of finished items
    for (std::size_t k = 0; k < items.size(); ++k) {
      const EarleyItem& item = items[k];
      const auto id = static_cast<std::int32_t>(k);
      index.items.emplace(itemKey(item.rule, item.dot, item.origin), id);
      const CompiledRule& rule = g_.rule(item.rule);
      if (static_cast<std::size_t>(item.dot) != rule.rhs.size() || rule.unit) continue;
      const std::uint64_t key = pairKey(item.origin, rule.lhs);
      index.finished[key].push_back(id);
      const auto [it, inserted] = baseBest.emplace(key, item.viterbi);
      if (!inserted) it->second = std::max(it->second, item.viterbi);
    }
    for (const auto& [key, best] : baseBest) {
      const auto origin = static_cast<std::int32_t>(key >> 32);
      const auto y = static_cast<SymbolId>(static_cast<std::uint32_t>(key));
      for (const CompiledGrammar::UnitEntry& unit : g_.unitInto(y)) {
        const auto [it, inserted] =
            index.constituentBest.emplace(pairKey(origin, unit.from), unit.logBest + best);
        if (!inserted) {
          it->second = std::max(it->second, unit.logBest + best);
        } else {
          index.origins[unit.from].push_back(origin);
        }
      }
    }
    for (auto& [symbol, origins] : index.origins) std::sort(origins.begin(), origins.end());
    return index;
  }

  double constituentBest(SymbolId symbol, std::int32_t origin, std::int32_t set) {
    const SetIndex& index = setIndex(set);
    const auto it = index.constituentBest.find(pairKey(origin, symbol));
    return it == index.constituentBest.end() ? kNoDerivation : it->second;
  }

  double ruleWeight(std::int32_t compiledRule) const {
    const CompiledRule& rule = g_.rule(compiledRule);
    return rule.source < 0 ? 0.0 : std::log(g_.grammar().rule(rule.source).probability);
  }

  // The node's index, made (without edges) on first use.
  int node(const NodeKey& key) {
    const auto [it, inserted] = index_.emplace(key, static_cast<int>(nodes_.size()));
    if (!inserted) return it->second;
    Node made;
    made.key = key;
    switch (key.kind) {
      case NodeKind::Item: made.best = chart_.item({key.a, key.b}).viterbi; break;
      case NodeKind::Rule: made.best = g_.rule(key.a).logViterbiWeight; break;
      case NodeKind::Constituent: made.best = constituentBest(key.a, key.b, key.c); break;
      case NodeKind::Null: made.best = std::log(g_.nullViterbi(key.a)); break;
    }
    nodes_.push_back(std::move(made));
    return it->second;
  }

  void addNullTails(const CompiledRule& rule, std::vector<int>& tails) {
    if (rule.source < 0) return;
    const Rule& source = g_.grammar().rule(rule.source);
    for (std::int32_t position : rule.droppedPositions)
      tails.push_back(node({NodeKind::Null, source.rhs[static_cast<std::size_t>(position)]}));
  }

  std::vector<Edge> makeEdges(const NodeKey key) {
    std::vector<Edge> edges;
    const SymbolTable& symbols = g_.symbols();
    switch (key.kind) {
      case NodeKind::Item: {
        const EarleyItem& item = chart_.item({key.a, key.b});
        const CompiledRule& rule = g_.rule(item.rule);
        const std::int32_t set = key.a;
        const std::int32_t dot = item.dot;
        if (dot == 0) break;  // predicted items are replaced by rule nodes
        const SymbolId symbol = rule.rhs[static_cast<std::size_t>(dot - 1)];
        // The item before the symbol, ending at `split`.
        const auto predecessor = [&](std::int32_t split) -> int {
          if (dot == 1) return split == item.origin ? node({NodeKind::Rule, item.rule}) : -1;
          const SetIndex& index = setIndex(split);
          const auto it = index.items.find(itemKey(item.rule, dot - 1, item.origin));
          return it == index.items.end() ? -1 : node({NodeKind::Item, split, it->second});
        };
        if (!symbols.isNonterminal(symbol)) {
          if (const int before = predecessor(set - 1); before >= 0)
            edges.push_back({EdgeKind::Advance, 0.0, {before}});
          break;
        }
        const std::int32_t first = dot == 1 ? item.origin : item.origin + 1;
        const std::int32_t lastSplit = dot == 1 ? item.origin : set - 1;
        const SetIndex& index = setIndex(set);
        const auto found = index.origins.find(symbol);
        if (found == index.origins.end()) break;
        const std::vector<std::int32_t>& origins = found->second;
        const std::vector<std::int32_t> splits(
            std::lower_bound(origins.begin(), origins.end(), first),
            std::upper_bound(origins.begin(), origins.end(), lastSplit));
        for (const std::int32_t split : splits) {
          const int before = predecessor(split);
          if (before < 0) continue;
          const int child = node({NodeKind::Constituent, symbol, split, set});
          edges.push_back({EdgeKind::Advance, 0.0, {before, child}});
        }
        break;
      }
      case NodeKind::Rule: {
        Edge edge{EdgeKind::Start, ruleWeight(key.a), {}};
        addNullTails(g_.rule(key.a), edge.tails);
        edges.push_back(std::move(edge));
        break;
      }
      case NodeKind::Constituent: {
        const SymbolId symbol = key.a;
        const std::int32_t origin = key.b;
        const std::int32_t set = key.c;
        const SetIndex& index = setIndex(set);
        if (const auto it = index.finished.find(pairKey(origin, symbol));
            it != index.finished.end()) {
          const std::vector<std::int32_t> finished = it->second;  // node() may rehash sets_
          for (std::int32_t item : finished)
            edges.push_back({EdgeKind::Finished, 0.0, {node({NodeKind::Item, set, item})}});
        }
        for (std::int32_t id : g_.predictableRules(symbol)) {
          const CompiledRule& rule = g_.rule(id);
          if (!rule.unit || rule.source < 0) continue;
          if (constituentBest(rule.rhs[0], origin, set) == kNoDerivation) continue;
          Edge edge{EdgeKind::Unit, ruleWeight(id), {}, id};
          edge.tails.push_back(node({NodeKind::Constituent, rule.rhs[0], origin, set}));
          addNullTails(rule, edge.tails);
          edges.push_back(std::move(edge));
        }
        break;
      }
      case NodeKind::Null: {
        const Grammar& grammar = g_.grammar();
        for (RuleId id : grammar.rulesWithLhs(key.a)) {
          const Rule& rule = grammar.rule(id);
          if (!(rule.probability > 0.0)) continue;
          const bool allNullable = std::all_of(rule.rhs.begin(), rule.rhs.end(), [&](SymbolId s) {
            return symbols.isNonterminal(s) && g_.nullProbability(s) > 0.0;
          });
          if (!allNullable) continue;
          Edge edge{EdgeKind::NullRule, std::log(rule.probability), {}, id};
          for (SymbolId s : rule.rhs) edge.tails.push_back(node({NodeKind::Null, s}));
          edges.push_back(std::move(edge));
        }
        break;
      }
    }
    return edges;
  }

  // The score of rank `rank` of node `v`: its Viterbi score for rank 0 before it is derived.
  double scoreOf(int v, int rank) const {
    const Node& n = nodes_[static_cast<std::size_t>(v)];
    if (static_cast<std::size_t>(rank) < n.derivations.size())
      return n.derivations[static_cast<std::size_t>(rank)].score;
    return n.best;  // rank 0, not derived yet
  }

  void pushCandidate(int v, int edge, std::vector<int> ranks) {
    std::vector<int> seenKey;
    seenKey.reserve(ranks.size() + 1);
    seenKey.push_back(edge);
    seenKey.insert(seenKey.end(), ranks.begin(), ranks.end());
    if (!nodes_[static_cast<std::size_t>(v)].seen.insert(std::move(seenKey)).second) return;
    const Edge& e = nodes_[static_cast<std::size_t>(v)].edges[static_cast<std::size_t>(edge)];
    double score = e.weight;
    for (std::size_t t = 0; t < e.tails.size(); ++t) score += scoreOf(e.tails[t], ranks[t]);
    if (score == kNoDerivation || std::isnan(score)) return;
    Node& n = nodes_[static_cast<std::size_t>(v)];
    n.heap.push_back(Derivation{edge, std::move(ranks), score});
    std::push_heap(n.heap.begin(), n.heap.end(), worse);
  }

  void build(int v) {
    std::vector<Edge> edges = makeEdges(nodes_[static_cast<std::size_t>(v)].key);
    Node& n = nodes_[static_cast<std::size_t>(v)];
    n.edges = std::move(edges);
    n.built = true;
    for (std::size_t e = 0; e < n.edges.size(); ++e) {
      // Rank 0 of every tail, scored with the tails' Viterbi scores (no recursion).
      const std::size_t tails = nodes_[static_cast<std::size_t>(v)].edges[e].tails.size();
      pushCandidate(v, static_cast<int>(e), std::vector<int>(tails, 0));
    }
  }

  // Makes sure node v has derivation `rank` (Huang & Chiang's LazyKthBest, with an explicit
  // stack). False when v has fewer derivations.
  bool ensure(int v, std::size_t rank) {
    struct Frame {
      int node;
      std::size_t rank;
    };
    std::vector<Frame> stack{{v, rank}};
    nodes_[static_cast<std::size_t>(v)].onStack = true;
    while (!stack.empty()) {
      const Frame frame = stack.back();
      const auto u = static_cast<std::size_t>(frame.node);
      if (nodes_[u].derivations.size() > frame.rank || nodes_[u].exhausted) {
        nodes_[u].onStack = false;
        stack.pop_back();
        continue;
      }
      if (!nodes_[u].built) build(frame.node);
      if (nodes_[u].pendingSuccessors) {
        // Successors of the last derivation: one tail's rank + 1 each. A tail whose next
        // derivation is not known yet is derived first (pushed on the stack).
        const Derivation last = nodes_[u].derivations.back();
        const std::vector<int> tails = nodes_[u].edges[static_cast<std::size_t>(last.edge)].tails;
        bool waiting = false;
        for (std::size_t t = 0; t < tails.size() && !waiting; ++t) {
          const auto tail = static_cast<std::size_t>(tails[t]);
          const auto next = static_cast<std::size_t>(last.ranks[t]) + 1;
          if (nodes_[tail].derivations.size() > next) {
            std::vector<int> ranks = last.ranks;
            ++ranks[t];
            pushCandidate(frame.node, last.edge, std::move(ranks));
          } else if (!nodes_[tail].exhausted && !nodes_[tail].onStack) {
            nodes_[tail].onStack = true;
            stack.push_back({tails[t], next});
            waiting = true;
          }
          // Otherwise there is no such derivation (or, with probabilities tied round a
          // cycle, it would wait on itself): no successor along this tail.
        }
        if (waiting) continue;
        nodes_[u].pendingSuccessors = false;
      }
      Node& n = nodes_[u];
      if (n.heap.empty()) {
        n.exhausted = true;
        continue;
      }
      std::pop_heap(n.heap.begin(), n.heap.end(), worse);
      n.derivations.push_back(std::move(n.heap.back()));
      n.heap.pop_back();
      n.pendingSuccessors = true;
    }
    return nodes_[static_cast<std::size_t>(v)].derivations.size() > rank;
  }

  const Derivation* derivation(int v, int rank) {
    if (!ensure(v, static_cast<std::size_t>(rank))) return nullptr;
    return &nodes_[static_cast<std::size_t>(v)].derivations[static_cast<std::size_t>(rank)];
  }

  // Builds the tree of derivation `rank` of the root, without recursion.
  bool buildTree(int rank, ParseTree& tree) {
    const SymbolTable& symbols = g_.symbols();
    struct Task {
      int node;  // a constituent, null or finished item node
      int rank;
      int treeNode;
    };
    std::vector<Task> tasks;
    const NodeKey rootKey = nodes_[static_cast<std::size_t>(root_)].key;
    if (rootKey.kind == NodeKind::Null) {
      tree.setRoot(tree.addNode(symbols.name(rootKey.a), false));
      tasks.push_back({root_, rank, tree.root()});
    } else {
      // GOAL → S .: the tree is S's.
      const Derivation* goal = derivation(root_, rank);
      if (goal == nullptr) return false;
      const Edge& edge =
          nodes_[static_cast<std::size_t>(root_)].edges[static_cast<std::size_t>(goal->edge)];
      tree.setRoot(tree.addNode(symbols.name(g_.start()), false));
      tasks.push_back({edge.tails[1], goal->ranks[1], tree.root()});
    }
    std::vector<int> kept;
    std::vector<std::pair<int, int>> nulls;  // (null node, rank) of a rule's dropped positions
    while (!tasks.empty()) {
      const Task task = tasks.back();
      tasks.pop_back();
      const Derivation* d = derivation(task.node, task.rank);
      if (d == nullptr) return false;
      const Derivation der = *d;
      const Edge edge =
          nodes_[static_cast<std::size_t>(task.node)].edges[static_cast<std::size_t>(der.edge)];
      const auto addChild = [&](int parent, SymbolId symbol, int node, int childRank) {
        const int child = tree.addNode(symbols.name(symbol), false);
        tree.node(parent).children.push_back(child);
        tasks.push_back({node, childRank, child});
      };
      switch (edge.kind) {
        case EdgeKind::NullRule: {
          const Rule& rule = g_.grammar().rule(edge.rule);
          for (std::size_t k = 0; k < rule.rhs.size(); ++k)
            addChild(task.treeNode, rule.rhs[k], edge.tails[k], der.ranks[k]);
          break;
        }
        case EdgeKind::Unit: {
          const CompiledRule& rule = g_.rule(edge.rule);
          const Rule& source = g_.grammar().rule(rule.source);
          std::size_t nextNull = 1;
          for (std::size_t k = 0; k < source.rhs.size(); ++k) {
            if (rule.drops(k)) {
              addChild(task.treeNode, source.rhs[k], edge.tails[nextNull], der.ranks[nextNull]);
              ++nextNull;
            } else {
              addChild(task.treeNode, source.rhs[k], edge.tails[0], der.ranks[0]);
            }
          }
          break;
        }
        case EdgeKind::Finished: {
          // Walk the item's predecessors back to its rule node, collecting the kept children.
          const int item = edge.tails[0];
          const EarleyItem& finished = chart_.item({nodes_[static_cast<std::size_t>(item)].key.a,
                                                    nodes_[static_cast<std::size_t>(item)].key.b});
          const std::int32_t ruleId = finished.rule;
          const CompiledRule& rule = g_.rule(ruleId);
          kept.assign(rule.rhs.size(), -1);
          std::vector<Task> keptTasks;
          int current = item;
          int currentRank = der.ranks[0];
          while (nodes_[static_cast<std::size_t>(current)].key.kind == NodeKind::Item) {
            const Derivation* step = derivation(current, currentRank);
            if (step == nullptr) return false;
            const Derivation advance = *step;
            const Node& itemNode = nodes_[static_cast<std::size_t>(current)];
            const Edge& advanceEdge = itemNode.edges[static_cast<std::size_t>(advance.edge)];
            const std::int32_t set = itemNode.key.a;
            const std::int32_t dot = chart_.item({set, itemNode.key.b}).dot;
            const auto position = static_cast<std::size_t>(dot - 1);
            if (advanceEdge.tails.size() == 1) {
              kept[position] =
                  tree.addNode(chart_.words()[static_cast<std::size_t>(set - 1)], true);
            } else {
              kept[position] = tree.addNode(symbols.name(rule.rhs[position]), false);
              keptTasks.push_back({advanceEdge.tails[1], advance.ranks[1], kept[position]});
            }
            const int before = advanceEdge.tails[0];
            currentRank = advance.ranks[0];
            current = before;
          }
          // `current` is the rule node: its tails are the dropped positions' null nodes.
          const Derivation* start = derivation(current, currentRank);
          if (start == nullptr) return false;
          const Derivation startDerivation = *start;
          const std::vector<int> nullTails =
              nodes_[static_cast<std::size_t>(current)]
                  .edges[static_cast<std::size_t>(startDerivation.edge)]
                  .tails;
          const Rule& source = g_.grammar().rule(rule.source);
          std::size_t nextKept = 0;
          std::size_t nextNull = 0;
          for (std::size_t k = 0; k < source.rhs.size(); ++k) {
            if (rule.drops(k)) {
              addChild(task.treeNode, source.rhs[k], nullTails[nextNull],
                       startDerivation.ranks[nextNull]);
              ++nextNull;
            } else {
              tree.node(task.treeNode).children.push_back(kept[nextKept++]);
            }
          }
          tasks.insert(tasks.end(), keptTasks.begin(), keptTasks.end());
          break;
        }
        case EdgeKind::Advance:
        case EdgeKind::Start: return false;  // never a task of its own
      }
    }
    return true;
  }

  const EarleyChart& chart_;
  const CompiledGrammar& g_;
  std::vector<SetIndex> sets_;
  std::vector<Node> nodes_;
  std::unordered_map<NodeKey, int, NodeKeyHash> index_;
  int root_ = -1;
};

KBestParses::KBestParses(const EarleyChart& chart) {
  if (chart.setCount() > 0) forest_ = std::make_unique<Forest>(chart);  // else: never parsed
}
KBestParses::~KBestParses() = default;
KBestParses::KBestParses(KBestParses&&) noexcept = default;
KBestParses& KBestParses::operator=(KBestParses&&) noexcept = default;

std::optional<RankedParse> KBestParses::parse(std::size_t rank) {
  return forest_ ? forest_->parse(rank) : std::nullopt;
}

std::vector<RankedParse> kBestParses(const EarleyChart& chart, std::size_t k) {
  KBestParses parses(chart);
  std::vector<RankedParse> out;
  for (std::size_t rank = 0; rank < k; ++rank) {
    std::optional<RankedParse> parse = parses.parse(rank);
    if (!parse) break;
    out.push_back(std::move(*parse));
  }
  return out;
}

}  // namespace gwb
