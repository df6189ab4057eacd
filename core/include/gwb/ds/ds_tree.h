// Partial trees of Dynamic Syntax: the nodes of a parse state, each with its address and its
// labels, the pointer (the node under development, ◇), and the counters for fresh TTR labels.
//
// Invariants: nodes are kept sorted by address (DyLan's node order, which decides the order in
// which searches meet nodes); a node's labels are sorted by text and unique; at most one
// `ty(...)` and one `fo(...)` label per node (putting another replaces it); the pointer names
// an existing node. The root is "0"; LINKed trees hang below their host at "...L" and unfixed
// nodes at "...*" (or "...U"), as in node_address.h.
//
// Trees are values. Copies share their nodes and a node is copied only when one of the trees
// changes it (copy-on-write), so the many partial trees of a parse DAG stay cheap. Every
// change bumps revision(), which tells whether an action changed anything at all.
//
// maximalSemantics() is the record type a partial tree already commits to, computed as DyLan
// does: unfixed nodes are merged where they can go, undecorated leaves get a default formula
// for their (required) type, each mother is the beta-reduction of its daughters, LINKed trees
// and unfixed nodes are conjoined in. It walks the tree bottom-up without recursion.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gwb/ds/ds_type.h"
#include "gwb/ds/formula.h"
#include "gwb/ds/label.h"
#include "gwb/ds/node_address.h"

namespace gwb::ds {

struct DsNode {
  NodeAddress address;
  std::vector<LabelPtr> labels;  // sorted by text, unique

  const Label* find(std::string_view text) const;
  bool has(const Label& label) const { return find(label.text()) != nullptr; }
  DsType type() const;          // the ty(...) label's type; invalid if none
  DsType requiredType() const;  // the ?ty(...) label's type; invalid if none
  FormulaPtr formula() const;   // the fo(...) label's formula; null if none
  bool hasRequirements() const;
};

class DsTree {
 public:
  // The axiom: a root node "0" requiring ty(t), with the pointer on it.
  DsTree();

  std::size_t size() const { return nodes_.size(); }
  const DsNode& node(std::size_t index) const { return *nodes_[index]; }
  const DsNode* find(const NodeAddress& address) const;
  bool contains(const NodeAddress& address) const { return find(address) != nullptr; }
  const NodeAddress& pointer() const { return pointer_; }
  const DsNode& pointedNode() const { return *find(pointer_); }

  // Mutations; each returns true if the tree changed.
  bool setPointer(const NodeAddress& address);  // false (and no move) if there is no such node
  bool make(const NodeAddress& address);        // adds an unlabelled node if there is none
  // Adds a label; a ty(...) or fo(...) label replaces the node's current one.
  bool addLabel(const NodeAddress& address, const LabelPtr& label);
  bool removeLabel(const NodeAddress& address, std::string_view text);
  // Moves the labels and daughters of node `from` onto node `into` and removes `from`
  // (DyLan's merge). `from`'s type and formula replace `into`'s. False (and no change) when
  // `into` lies below `from`.
  bool merge(const NodeAddress& from, const NodeAddress& into);

  FreshCounters& counters() { return counters_; }
  const FreshCounters& counters() const { return counters_; }
  std::uint64_t revision() const { return revision_; }

  // Pointer at the root and no requirement left anywhere (LINKed trees included).
  bool isComplete() const;

  // Whether `modality` (not a metavariable) leads from `from` to `to`, with DyLan's reading of
  // the Kleene operators (see node_address.h).
  bool relates(const NodeAddress& from, const NodeAddress& to, const Modality& modality) const;

  // What keeping this tree costs beyond what it shares with other trees: its node table, plus
  // the nodes and labels no other tree holds (its copy-on-write copies), with the allocator's
  // overhead. An estimate, close but not exact; the DS parser's memory budget counts with it.
  std::size_t approximateBytes() const;

  // One line, canonical: equal keys mean equal trees (counters aside).
  std::string key() const;
  // One line per node: `01 ◆ {ty(e>t), fo(...)}`; the pointer is marked with ◆.
  std::string toString() const;

 private:
  int indexOf(const NodeAddress& address) const;
  DsNode& mutableNode(std::size_t index);
  // Whether ops[i..] lead from `at` to `target`; `failed` remembers the (i, at) already known
  // not to, so that repeated Kleene stars cost polynomial, not exponential, time.
  bool relatesFrom(const std::string& at, const std::string& target,
                   const std::vector<BasicOperator>& ops, std::size_t i,
                   std::set<std::pair<std::size_t, std::string>>& failed) const;
  bool relatesStep(const std::string& at, const std::string& target,
                   const std::vector<BasicOperator>& ops, std::size_t i,
                   std::set<std::pair<std::size_t, std::string>>& failed) const;

  std::vector<std::shared_ptr<DsNode>> nodes_;
  NodeAddress pointer_;
  FreshCounters counters_;
  std::uint64_t revision_ = 0;
};

// The maximal semantics of a partial tree (see above); an empty record type for a tree with
// no content yet. Default formulas are freshened with a copy of the tree's counters. Null when
// it would nest deeper than kMaxBuiltFormulaDepth (formula.h).
FormulaPtr maximalSemantics(const DsTree& input);

}  // namespace gwb::ds
