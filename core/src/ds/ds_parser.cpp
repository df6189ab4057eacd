#include "gwb/ds/ds_parser.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>

#include "gwb/ds/action.h"

namespace gwb::ds {

// ---------------------------------------------------------------------------------------
// ParseDag

int ParseDag::addNode(DagNode node) {
  node.id = static_cast<int>(nodes_.size());
  nodes_.push_back(std::move(node));
  out_.emplace_back();
  return nodes_.back().id;
}

int ParseDag::addEdge(DagEdge edge) {
  const int id = static_cast<int>(edges_.size());
  out_[static_cast<std::size_t>(edge.from)].push_back(id);
  DagNode& target = nodes_[static_cast<std::size_t>(edge.to)];
  if (target.inEdge < 0) target.inEdge = id;  // the first path found
  edges_.push_back(std::move(edge));
  return id;
}

std::vector<int> ParseDag::pathTo(int id) const {
  std::vector<int> path;
  int current = id;
  while (current >= 0 && nodes_[static_cast<std::size_t>(current)].inEdge >= 0) {
    const int e = nodes_[static_cast<std::size_t>(current)].inEdge;
    path.push_back(e);
    current = edges_[static_cast<std::size_t>(e)].from;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

namespace {

std::string dotEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string shortened(const std::string& s, std::size_t limit) {
  if (s.size() <= limit) return s;
  return s.substr(0, limit - 3) + "...";
}

}  // namespace

std::string ParseDag::toDot(const std::vector<int>& highlight) const {
  std::vector<bool> onPath(edges_.size(), false);
  for (int e : highlight)
    if (e >= 0 && static_cast<std::size_t>(e) < edges_.size())
      onPath[static_cast<std::size_t>(e)] = true;
  std::string out =
      "digraph ds_parse {\n"
      "  rankdir=LR;\n"
      "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n"
      "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  int maxWords = 0;
  for (const DagNode& n : nodes_) maxWords = std::max(maxWords, n.wordsConsumed);
  for (int w = 0; w <= maxWords; ++w) {
    out += "  { rank=same;";
    for (const DagNode& n : nodes_)
      if (n.wordsConsumed == w) out += " n" + std::to_string(n.id) + ";";
    out += " }\n";
  }
  for (const DagNode& n : nodes_) {
    std::string label = "#" + std::to_string(n.id) + "  " + n.tree->pointer().toString() + ": ";
    const DsNode& pointed = n.tree->pointedNode();
    std::string labels;
    for (std::size_t i = 0; i < pointed.labels.size(); ++i)
      labels += (i > 0 ? ", " : "") + pointed.labels[i]->text();
    label += shortened(labels, 60);
    out += "  n" + std::to_string(n.id) + " [label=\"" + dotEscape(label) + "\"";
    if (n.complete) out += ", peripheries=2";
    out += "];\n";
  }
  for (std::size_t i = 0; i < edges_.size(); ++i) {
    const DagEdge& e = edges_[i];
    std::string label = e.lexical ? e.word : e.action;
    if (!e.closure.empty()) {
      label += "\n+";
      for (std::size_t k = 0; k < e.closure.size(); ++k) label += (k > 0 ? "," : "") + e.closure[k];
    }
    out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to) + " [label=\"" +
           dotEscape(label) + "\"";
    if (e.lexical) out += ", style=bold";
    if (onPath[i]) out += ", color=red, penwidth=2";
    out += "];\n";
  }
  out += "}\n";
  return out;
}

const char* outcomeName(ParseOutcome outcome) {
  switch (outcome) {
    case ParseOutcome::Parsed: return "PARSED";
    case ParseOutcome::Incomplete: return "INCOMPLETE";
    case ParseOutcome::Failed: return "FAILED";
  }
  return "?";
}

std::vector<std::string> splitWords(std::string_view sentence) {
  std::vector<std::string> words;
  std::string current;
  for (char c : sentence) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!current.empty()) words.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) words.push_back(std::move(current));
  return words;
}

// ---------------------------------------------------------------------------------------
// The search

namespace {

class Search {
 public:
  Search(const DsGrammar& grammar, const std::vector<const DsAction*>& nonOptional,
         const std::vector<const DsAction*>& optional, const std::vector<std::string>& words,
         const DsParseOptions& options)
      : grammar_(grammar),
        nonOptional_(nonOptional),
        optional_(optional),
        words_(words),
        options_(options),
        seen_(words.size() + 1) {}

  DsParseResult run() {
    std::vector<std::string> closure;
    DsTree axiom = applyClosure(nonOptional_, options_.axiom ? *options_.axiom : DsTree(), &closure,
                                1000, &actionReport_);
    DagNode root;
    root.tree = std::make_shared<const DsTree>(std::move(axiom));
    root.complete = root.tree->isComplete();
    bytes_ += root.tree->approximateBytes() + kNodeBytes;
    const std::string rootKey = root.tree->key();
    const int rootId = result_.dag.addNode(std::move(root));
    seen_[0].emplace(hashKey(rootKey), rootId);
    bytes_ += kSeenEntryBytes;
    if (options_.strategy == SearchStrategy::BestFirst) {
      bestFirst(rootId);
    } else {
      breadthFirst(rootId);
    }
    finish();
    // The loops stop at the bound before asking addChild for another tree, so say it here too.
    if (atLimit()) result_.truncated = true;
    result_.cancelled = cancelRequested();
    result_.approximateBytes = bytes_;
    return std::move(result_);
  }

 private:
  // Per DAG node beyond its tree and the edge into it: the node (twice: the vector of nodes
  // doubles as it grows), its tree's shared_ptr block and its list of out-edges.
  static constexpr std::size_t kNodeBytes = 2 * sizeof(DagNode) + 64 + 32;

  // An edge: itself (twice, as above), its slot in an out-edge list, its strings.
  static std::size_t edgeBytes(const DagEdge& edge) {
    auto heap = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 17 : 0; };
    std::size_t bytes = 2 * sizeof(DagEdge) + 2 * sizeof(int) + heap(edge.action) +
                        heap(edge.word) + edge.closure.capacity() * sizeof(std::string) + 16;
    for (const std::string& c : edge.closure) bytes += heap(c);
    return bytes;
  }
  // One entry of a seen_ table (hash node plus bucket).
  static constexpr std::size_t kSeenEntryBytes = 48;

  static std::uint64_t hashKey(const std::string& key) { return std::hash<std::string>{}(key); }

  bool atLimit() const {
    return result_.dag.nodes().size() >= options_.maxNodes || result_.memoryExhausted;
  }
  bool cancelRequested() const {
    return options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed);
  }
  // No more trees: the DAG is at its size bound or the caller cancelled.
  bool full() const { return atLimit() || cancelRequested(); }

  // Adds the tree reached from `from` by `edge`; returns the node's id and whether it is new.
  std::pair<int, bool> addChild(int from, DsTree tree, DagEdge edge) {
    const DagNode& parent = result_.dag.node(from);
    const int level = parent.wordsConsumed + (edge.lexical ? 1 : 0);
    const double logProbability = parent.logProbability + edge.logProbability;
    const std::string key = tree.key();
    const std::uint64_t hash = hashKey(key);
    auto& seen = seen_[static_cast<std::size_t>(level)];
    edge.from = from;
    const auto [first, last] = seen.equal_range(hash);
    for (auto it = first; it != last; ++it) {
      if (result_.dag.node(it->second).tree->key() != key) continue;  // a hash collision
      // Keep the graph acyclic: within a word, only edges to later nodes.
      if (edge.lexical || it->second > from) {
        edge.to = it->second;
        bytes_ += edgeBytes(edge);
        result_.dag.addEdge(std::move(edge));
      }
      return {it->second, false};
    }
    if (full()) {
      if (atLimit()) result_.truncated = true;
      return {-1, false};
    }
    const std::size_t cost =
        tree.approximateBytes() + kNodeBytes + edgeBytes(edge) + kSeenEntryBytes;
    if (options_.maxBytes > 0 && bytes_ + cost > options_.maxBytes) {
      result_.memoryExhausted = true;
      result_.truncated = true;
      return {-1, false};
    }
    bytes_ += cost;
    DagNode node;
    node.tree = std::make_shared<const DsTree>(std::move(tree));
    node.wordsConsumed = level;
    node.logProbability = logProbability;
    node.complete = node.tree->isComplete();
    const int id = result_.dag.addNode(std::move(node));
    edge.to = id;
    result_.dag.addEdge(std::move(edge));
    seen.emplace(hash, id);
    maxLevel_ = std::max(maxLevel_, level);
    return {id, true};
  }

  // The children of `id` by one optional computational action each.
  void expandComputational(int id, std::vector<int>* created) {
    for (const DsAction* a : optional_) {
      const std::shared_ptr<const DsTree> tree = result_.dag.node(id).tree;
      for (DsTree& r : applyAction(*a, *tree, &actionReport_)) {
        if (r.revision() == tree->revision()) continue;
        DagEdge edge;
        edge.action = a->name;
        DsTree closed =
            applyClosure(nonOptional_, std::move(r), &edge.closure, 1000, &actionReport_);
        auto [child, isNew] = addChild(id, std::move(closed), std::move(edge));
        if (isNew) created->push_back(child);
      }
    }
  }

  // The children of `id` by the lexical actions of its next word.
  void expandLexical(int id, std::vector<int>* created) {
    const int w = result_.dag.node(id).wordsConsumed;
    if (w >= static_cast<int>(words_.size())) return;
    for (const LexicalEntry& entry : grammar_.entries(words_[static_cast<std::size_t>(w)])) {
      const std::shared_ptr<const DsTree> tree = result_.dag.node(id).tree;
      for (DsTree& r : applyAction(entry.action, *tree, &actionReport_)) {
        DagEdge edge;
        edge.action = entry.label();
        edge.lexical = true;
        edge.wordIndex = w;
        edge.word = entry.word;
        edge.logProbability = entry.probability > 0 ? std::log(entry.probability) : -1e30;
        DsTree closed =
            applyClosure(nonOptional_, std::move(r), &edge.closure, 1000, &actionReport_);
        auto [child, isNew] = addChild(id, std::move(closed), std::move(edge));
        if (isNew) created->push_back(child);
      }
    }
  }

  // Every tree reachable from `frontier` by optional actions, frontier first, breadth-first.
  std::vector<int> closeUnderComputational(std::vector<int> frontier) {
    for (std::size_t i = 0; i < frontier.size() && !full(); ++i)
      expandComputational(frontier[i], &frontier);
    return frontier;
  }

  void breadthFirst(int rootId) {
    std::vector<int> frontier{rootId};
    for (std::size_t w = 0; w < words_.size(); ++w) {
      std::vector<int> level = closeUnderComputational(frontier);
      std::vector<int> next;
      for (int id : level) expandLexical(id, &next);
      if (next.empty()) {
        result_.outcome = ParseOutcome::Failed;
        result_.failedWord = static_cast<int>(w);
        result_.finalNode = level.front();
        return;
      }
      // No tree is ever added at position w again: drop its table.
      bytes_ -= std::min(bytes_, seen_[w].size() * kSeenEntryBytes);
      std::unordered_multimap<std::uint64_t, int>().swap(seen_[w]);
      if (options_.beam > 0 && next.size() > static_cast<std::size_t>(options_.beam)) {
        std::stable_sort(next.begin(), next.end(), [&](int a, int b) {
          return result_.dag.node(a).logProbability > result_.dag.node(b).logProbability;
        });
        next.resize(static_cast<std::size_t>(options_.beam));
      }
      frontier = std::move(next);
    }
    const std::vector<int> finals = closeUnderComputational(frontier);
    for (int id : finals) {
      if (result_.dag.node(id).complete) {
        result_.outcome = ParseOutcome::Parsed;
        result_.finalNode = id;
        return;
      }
    }
    result_.outcome = ParseOutcome::Incomplete;
    result_.finalNode = frontier.front();
  }

  void bestFirst(int rootId) {
    const int n = static_cast<int>(words_.size());
    auto worse = [&](int a, int b) {
      const DagNode& x = result_.dag.node(a);
      const DagNode& y = result_.dag.node(b);
      if (x.logProbability != y.logProbability) return x.logProbability < y.logProbability;
      if (x.wordsConsumed != y.wordsConsumed) return x.wordsConsumed < y.wordsConsumed;
      return x.id > y.id;
    };
    std::priority_queue<int, std::vector<int>, decltype(worse)> agenda(worse);
    agenda.push(rootId);
    std::vector<int> created;
    while (!agenda.empty() && !full()) {
      const int id = agenda.top();
      agenda.pop();
      const DagNode& node = result_.dag.node(id);
      if (node.wordsConsumed == n && node.complete) {
        result_.outcome = ParseOutcome::Parsed;
        result_.finalNode = id;
        return;
      }
      created.clear();
      expandLexical(id, &created);
      expandComputational(id, &created);
      for (int c : created) agenda.push(c);
    }
    // Exhausted: the furthest position reached tells failure from incompleteness.
    int first = -1;
    const bool mostProbable = options_.incomplete == IncompleteChoice::MostProbable;
    for (const DagNode& node : result_.dag.nodes()) {
      if (node.wordsConsumed != maxLevel_) continue;
      if (first < 0 || node.logProbability > result_.dag.node(first).logProbability) {
        first = node.id;
        if (!mostProbable) break;
      }
    }
    result_.finalNode = first < 0 ? rootId : first;
    if (maxLevel_ == n) {
      result_.outcome = ParseOutcome::Incomplete;
    } else {
      result_.outcome = ParseOutcome::Failed;
      result_.failedWord = maxLevel_;
    }
  }

  void finish() {
    result_.formulaTooDeep = actionReport_.formulaTooDeep;
    if (result_.finalNode < 0) return;
    const DagNode& node = result_.dag.node(result_.finalNode);
    result_.path = result_.dag.pathTo(result_.finalNode);
    result_.maximalSemantics = maximalSemantics(*node.tree);
    if (result_.outcome == ParseOutcome::Parsed) {
      const DsNode* root = node.tree->find(NodeAddress());
      result_.rootFormula = root != nullptr ? root->formula() : nullptr;
    }
  }

  const DsGrammar& grammar_;
  const std::vector<const DsAction*>& nonOptional_;
  const std::vector<const DsAction*>& optional_;
  const std::vector<std::string>& words_;
  const DsParseOptions& options_;
  // By word position: the hash of each tree's key -> the DAG nodes with that hash.
  std::vector<std::unordered_multimap<std::uint64_t, int>> seen_;
  std::size_t bytes_ = 0;  // estimated bytes of the DAG and of seen_
  int maxLevel_ = 0;
  ActionReport actionReport_;
  DsParseResult result_;
};

}  // namespace

DsParser::DsParser(const DsGrammar& grammar)
    : grammar_(grammar),
      nonOptional_(grammar.nonOptionalActions()),
      optional_(grammar.optionalActions()) {}

DsParseResult DsParser::parse(const std::vector<std::string>& words,
                              const DsParseOptions& options) const {
  Search search(grammar_, nonOptional_, optional_, words, options);
  return search.run();
}

DsParseResult DsParser::parse(std::string_view sentence, const DsParseOptions& options) const {
  return parse(splitWords(sentence), options);
}

}  // namespace gwb::ds
