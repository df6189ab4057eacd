#include "gwb/ds/ds_tree.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "gwb/ds/record_type.h"

namespace gwb::ds {

// ---------------------------------------------------------------------------------------
// DsNode

const Label* DsNode::find(std::string_view text) const {
  auto it = std::lower_bound(labels.begin(), labels.end(), text,
                             [](const LabelPtr& l, std::string_view t) { return l->text() < t; });
  return it != labels.end() && (*it)->text() == text ? it->get() : nullptr;
}

DsType DsNode::type() const {
  for (const LabelPtr& l : labels)
    if (l->kind() == LabelKind::Type) return l->dsType();
  return {};
}

DsType DsNode::requiredType() const {
  for (const LabelPtr& l : labels)
    if (l->kind() == LabelKind::Requirement && l->child()->kind() == LabelKind::Type)
      return l->child()->dsType();
  return {};
}

FormulaPtr DsNode::formula() const {
  for (const LabelPtr& l : labels)
    if (l->kind() == LabelKind::Formula) return l->formula();
  return nullptr;
}

bool DsNode::hasRequirements() const {
  return std::any_of(labels.begin(), labels.end(),
                     [](const LabelPtr& l) { return l->kind() == LabelKind::Requirement; });
}

// ---------------------------------------------------------------------------------------
// DsTree

DsTree::DsTree() {
  auto root = std::make_shared<DsNode>();
  root->labels.push_back(Label::requirement(Label::type(DsType::basic("t"))));
  nodes_.push_back(std::move(root));
}

int DsTree::indexOf(const NodeAddress& address) const {
  auto it = std::lower_bound(
      nodes_.begin(), nodes_.end(), address,
      [](const std::shared_ptr<DsNode>& n, const NodeAddress& a) { return n->address < a; });
  if (it == nodes_.end() || (*it)->address != address) return -1;
  return static_cast<int>(it - nodes_.begin());
}

const DsNode* DsTree::find(const NodeAddress& address) const {
  const int i = indexOf(address);
  return i < 0 ? nullptr : nodes_[static_cast<std::size_t>(i)].get();
}

DsNode& DsTree::mutableNode(std::size_t index) {
  std::shared_ptr<DsNode>& slot = nodes_[index];
  if (slot.use_count() > 1) slot = std::make_shared<DsNode>(*slot);
  ++revision_;
  return *slot;
}

bool DsTree::setPointer(const NodeAddress& address) {
  if (address == pointer_) return false;
  if (!contains(address)) return false;
  pointer_ = address;
  ++revision_;
  return true;
}

bool DsTree::make(const NodeAddress& address) {
  if (contains(address)) return false;
  auto node = std::make_shared<DsNode>();
  node->address = address;
  auto it = std::lower_bound(
      nodes_.begin(), nodes_.end(), address,
      [](const std::shared_ptr<DsNode>& n, const NodeAddress& a) { return n->address < a; });
  nodes_.insert(it, std::move(node));
  ++revision_;
  return true;
}

bool DsTree::addLabel(const NodeAddress& address, const LabelPtr& label) {
  const int i = indexOf(address);
  if (i < 0) return false;
  const DsNode& current = *nodes_[static_cast<std::size_t>(i)];
  if (current.has(*label)) return false;
  DsNode& node = mutableNode(static_cast<std::size_t>(i));
  if (label->kind() == LabelKind::Type || label->kind() == LabelKind::Formula) {
    node.labels.erase(std::remove_if(node.labels.begin(), node.labels.end(),
                                     [&](const LabelPtr& l) { return l->kind() == label->kind(); }),
                      node.labels.end());
  }
  auto it = std::lower_bound(node.labels.begin(), node.labels.end(), label->text(),
                             [](const LabelPtr& l, const std::string& t) { return l->text() < t; });
  node.labels.insert(it, label);
  return true;
}

bool DsTree::removeLabel(const NodeAddress& address, std::string_view text) {
  const int i = indexOf(address);
  if (i < 0 || nodes_[static_cast<std::size_t>(i)]->find(text) == nullptr) return false;
  DsNode& node = mutableNode(static_cast<std::size_t>(i));
  node.labels.erase(std::remove_if(node.labels.begin(), node.labels.end(),
                                   [&](const LabelPtr& l) { return l->text() == text; }),
                    node.labels.end());
  return true;
}

bool DsTree::merge(const NodeAddress& from, const NodeAddress& into) {
  const DsNode* source = find(from);
  if (source == nullptr || !contains(into) || from == into) return false;
  // A node cannot be merged into its own subtree: `into` would be re-addressed away along with
  // everything else below `from`, and the result (pointer included) would not be a tree. The
  // 2009 grammar's `merge` (merge(Y) with any path Y to an unfixed node) asks for exactly that
  // from a LINKed tree hanging below an unfixed node.
  if (from.isPrefixOf(into)) return false;
  const std::vector<LabelPtr> labels = source->labels;
  // Re-address the merged node's descendants under `into`; a moved node replaces one already
  // at its new address, as in DyLan.
  std::vector<std::shared_ptr<DsNode>> kept;
  std::vector<std::shared_ptr<DsNode>> moved;
  for (auto& n : nodes_) {
    const std::string& a = n->address.toString();
    if (n->address == from) continue;
    if (from.isPrefixOf(n->address)) {
      auto copy = std::make_shared<DsNode>(*n);
      copy->address = NodeAddress(into.toString() + a.substr(from.toString().size()));
      moved.push_back(std::move(copy));
    } else {
      kept.push_back(n);
    }
  }
  for (auto& m : moved) {
    kept.erase(
        std::remove_if(kept.begin(), kept.end(),
                       [&](const std::shared_ptr<DsNode>& n) { return n->address == m->address; }),
        kept.end());
    kept.push_back(std::move(m));
  }
  std::sort(kept.begin(), kept.end(),
            [](const std::shared_ptr<DsNode>& a, const std::shared_ptr<DsNode>& b) {
              return a->address < b->address;
            });
  nodes_ = std::move(kept);
  ++revision_;
  if (from.isPrefixOf(pointer_) || !contains(pointer_)) pointer_ = into;
  for (const LabelPtr& l : labels) addLabel(into, l);
  return true;
}

bool DsTree::isComplete() const {
  if (!pointer_.isRoot()) return false;
  return std::none_of(nodes_.begin(), nodes_.end(),
                      [](const std::shared_ptr<DsNode>& n) { return n->hasRequirements(); });
}

bool DsTree::relates(const NodeAddress& from, const NodeAddress& to,
                     const Modality& modality) const {
  std::set<std::pair<std::size_t, std::string>> failed;
  return relatesFrom(from.toString(), to.toString(), modality.ops(), 0, failed);
}

bool DsTree::relatesFrom(const std::string& at, const std::string& target,
                         const std::vector<BasicOperator>& ops, std::size_t i,
                         std::set<std::pair<std::size_t, std::string>>& failed) const {
  if (i == ops.size()) return at == target;
  std::pair<std::size_t, std::string> state(i, at);
  if (failed.count(state) > 0) return false;
  if (relatesStep(at, target, ops, i, failed)) return true;
  failed.insert(std::move(state));
  return false;
}

bool DsTree::relatesStep(const std::string& at, const std::string& target,
                         const std::vector<BasicOperator>& ops, std::size_t i,
                         std::set<std::pair<std::size_t, std::string>>& failed) const {
  const BasicOperator& op = ops[i];
  const NodeAddress here(at);
  if (op.up) {
    if (op.isFixed()) {
      auto next = here.up(op.path);
      return next && relatesFrom(next->toString(), target, ops, i + 1, failed);
    }
    if (!here.isLocallyFixed()) {
      // From an unfixed node, /\* (or /\U) is the step back to where it hangs.
      auto next = (op.path == "*" && here.isLocallyUnfixed()) ? here.up("U") : here.up(op.path);
      return next && relatesFrom(next->toString(), target, ops, i + 1, failed);
    }
    // From a fixed node, /\* is any node here and above, up to the root of this tree.
    std::string sub = at;
    while (!sub.empty() && sub.back() != 'L') {
      if (relatesFrom(sub, target, ops, i + 1, failed)) return true;
      sub.pop_back();
    }
    return !sub.empty() && relatesFrom(sub, target, ops, i + 1, failed);
  }
  const std::string next = at + op.path;
  if (op.isFixed() || contains(NodeAddress(next)))
    return relatesFrom(next, target, ops, i + 1, failed);
  if (op.path == "*" && contains(NodeAddress(at + "U")))
    return relatesFrom(at + "U", target, ops, i + 1, failed);
  // No literal unfixed node: \/* is any node below (within this tree), \/U any 1*0 below.
  if (i + 1 != ops.size()) return false;
  if (target.size() <= at.size() || target.compare(0, at.size(), at) != 0) return false;
  if (!contains(NodeAddress(target))) return false;
  const std::string rest = target.substr(at.size());
  if (rest.find('L') != std::string::npos) return false;
  return op.path != "U" || rest.back() == '0';
}

namespace {

// A heap block's cost: its size rounded up to 16 bytes plus the allocator's header.
std::size_t heapBytes(std::size_t size) { return size == 0 ? 0 : (size + 15) / 16 * 16 + 16; }

// A std::string's heap block (none for short strings kept inline).
std::size_t stringHeapBytes(const std::string& s) {
  return s.capacity() > 15 ? heapBytes(s.capacity() + 1) : 0;
}

}  // namespace

std::size_t DsTree::approximateBytes() const {
  std::size_t bytes = sizeof(DsTree) + heapBytes(nodes_.capacity() * sizeof(nodes_[0])) +
                      stringHeapBytes(pointer_.toString());
  for (const auto& n : nodes_) {
    if (n.use_count() > 1) continue;  // shared with another tree: counted there
    // make_shared: the node and its control block in one block.
    bytes += heapBytes(sizeof(DsNode) + 16) + stringHeapBytes(n->address.toString()) +
             heapBytes(n->labels.capacity() * sizeof(LabelPtr));
    for (const LabelPtr& l : n->labels) {
      if (l.use_count() > 1) continue;
      // The label, its text, and about twice as much again for the formula or type it holds
      // (whose every subformula caches its own text).
      bytes += heapBytes(sizeof(Label) + 16) + 3 * stringHeapBytes(l->text());
    }
  }
  return bytes;
}

std::string DsTree::key() const {
  std::string out = pointer_.toString();
  for (const auto& n : nodes_) {
    out += '|';
    out += n->address.toString();
    out += '{';
    for (const LabelPtr& l : n->labels) {
      out += l->text();
      out += ';';
    }
    out += '}';
  }
  return out;
}

std::string DsTree::toString() const {
  std::string out;
  for (const auto& n : nodes_) {
    out += n->address.toString();
    if (n->address == pointer_) out += " \xE2\x97\x86";  // ◆
    out += " {";
    for (std::size_t i = 0; i < n->labels.size(); ++i) {
      if (i > 0) out += ", ";
      out += n->labels[i]->text();
    }
    out += "}\n";
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Maximal semantics

namespace {

FormulaPtr parsed(const char* text) {
  FormulaPtr f = parseFormula(text);
  return f;
}

// DyLan's defaults for undecorated leaves, by the node's (required) type.
FormulaPtr defaultFormula(const DsTree& tree, const DsNode& node, const DsType& type) {
  static const std::map<std::string, FormulaPtr> kDefaults = {
      {"e", parsed("[x:e|head==x:e]")},
      {"es", parsed("[e1:es|head==e1:es]")},
      {"cn", parsed("[x:e|head==x:e]")},
      {"e>(es>cn)", parsed("R2^R1^(R1 ++ (R2 ++ [head==R1.head:es]))")},
      {"es>cn", parsed("R1^(R1 ++ [head==R1.head:es])")},
      {"e>cn", parsed("R1^(R1 ++ [head==R1.head:e])")},
      {"e>t", parsed("R1^(R1 ++ [])")},
      {"e>(e>t)", parsed("R2^R1^(R1 ++ (R2 ++ [head:es]))")},
      {"es>(e>(e>t))", parsed("R3^R2^R1^(R1 ++ (R2 ++ (R3 ++ [head:es])))")},
      {"e>(e>(e>t))", parsed("R3^R2^R1^(R1 ++ (R2 ++ (R3 ++ [head:es])))")},
      {"cn>e", parsed("R1^[r:R1|x:e|head==x:e]")},
      {"cn>es", parsed("R1^[r:R1|e1:es|head==e1:es]")},
  };
  static const FormulaPtr kPredicate = parsed("[pred:cn|head==pred:cn]");
  static const FormulaPtr kIntransitive =
      parsed("R1^(R1 ++ [e1:es|head==e1:es|p==subj(e1,R1.head):t])");
  static const std::string kFormulaRequirement = "?Ex.fo(x)";

  auto it = kDefaults.find(type.toString());
  if (it == kDefaults.end()) return nullptr;
  if (type.toString() == "cn") {
    DsType motherType;
    if (auto up = node.address.up()) {
      if (const DsNode* mother = tree.find(*up))
        motherType = mother->type().valid() ? mother->type() : mother->requiredType();
    }
    if (motherType.toString() == "e>t" || motherType.toString() == "cn") return kPredicate;
  }
  if (type.toString() == "e>t" && node.find(kFormulaRequirement) != nullptr) return kIntransitive;
  return it->second;
}

FormulaPtr requiredFormula(const DsNode& node) {
  for (const LabelPtr& l : node.labels)
    if (l->kind() == LabelKind::Requirement && l->child()->kind() == LabelKind::Formula)
      return l->child()->formula();
  return nullptr;
}

bool hasFixedDaughters(const DsTree& tree, const NodeAddress& a) {
  return tree.contains(a.down("0")) || tree.contains(a.down("1"));
}

// DyLan's Node.isUnifiable: could `unfixed` be merged into `point`?
bool unifiable(const DsNode& point, const DsNode& unfixed) {
  if (!unfixed.address.subsumes(point.address)) return false;
  DsType t = point.type().valid() ? point.type() : point.requiredType();
  DsType ot = unfixed.type().valid() ? unfixed.type() : unfixed.requiredType();
  if (t.valid() && ot.valid() && t != ot) return false;
  FormulaPtr f = point.formula() ? point.formula() : requiredFormula(point);
  FormulaPtr of = unfixed.formula() ? unfixed.formula() : requiredFormula(unfixed);
  if (f && of && f->text() != of->text()) {
    if (!(f->isRecord() && of->isRecord() && isSubtype(of->recordType(), f->recordType())))
      return false;
  }
  return true;
}

// The counter that numbers labels with this stem (x, e, p, r, pred), or null.
int* counterFor(const std::string& stem, FreshCounters& counters) {
  if (stem == "x") return &counters.entity;
  if (stem == "e") return &counters.event;
  if (stem == "p") return &counters.proposition;
  if (stem == "r") return &counters.record;
  if (stem == "pred") return &counters.predicate;
  return nullptr;
}

constexpr int kLargestReservedLabel = 1'000'000'000;

// Advances `counters` past every numbered label (x3, e2, p7, r1, pred4) used in `f`'s record
// types, so that fresh labels cannot clash with labels already in a tree.
void reserveLabels(const FormulaPtr& f, FreshCounters& counters) {
  if (!f) return;
  if (!f->isRecord()) {
    for (const FormulaPtr& a : f->args()) reserveLabels(a, counters);
    return;
  }
  for (const Field& field : f->recordType().fields()) {
    const std::string& l = field.label;
    std::size_t digits = l.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(l[digits - 1])) != 0) --digits;
    int* counter = digits < l.size() ? counterFor(l.substr(0, digits), counters) : nullptr;
    int number = 0;
    const std::from_chars_result parsed =
        std::from_chars(l.data() + digits, l.data() + l.size(), number);
    // A number beyond kLargestReservedLabel (or beyond int) cannot clash with fresh labels,
    // which count up from 1, and reserving it would overflow the counter.
    if (counter != nullptr && parsed.ec == std::errc() && number <= kLargestReservedLabel)
      *counter = std::max(*counter, number);
    reserveLabels(field.value, counters);
  }
}

FormulaPtr withoutHead(const FormulaPtr& f) {
  if (f && f->isRecord()) return Formula::record(f->recordType().withoutHead());
  return f;
}

// 1. Each unfixed node is merged at the first place it could go.
void mergeUnfixedNodes(DsTree& tree) {
  std::vector<NodeAddress> unfixed;
  for (std::size_t i = 0; i < tree.size(); ++i)
    if (tree.node(i).address.isStarUnfixed()) unfixed.push_back(tree.node(i).address);
  for (const NodeAddress& u : unfixed) {
    const DsNode* node = tree.find(u);
    if (node == nullptr) continue;
    for (std::size_t i = 0; i < tree.size(); ++i) {
      const DsNode& point = tree.node(i);
      if (!point.address.isLocallyFixed() || hasFixedDaughters(tree, point.address)) continue;
      if (!unifiable(point, *node)) continue;
      tree.merge(u, NodeAddress(point.address));
      break;
    }
  }
}

// 2. Undecorated leaves get the default formula of their (required) type, with labels fresh
// for the whole tree.
void addDefaultFormulas(DsTree& tree) {
  for (std::size_t i = 0; i < tree.size(); ++i)
    reserveLabels(tree.node(i).formula(), tree.counters());
  std::vector<NodeAddress> leaves;
  for (std::size_t i = 0; i < tree.size(); ++i)
    if (!hasFixedDaughters(tree, tree.node(i).address)) leaves.push_back(tree.node(i).address);
  for (const NodeAddress& a : leaves) {
    const DsNode& node = *tree.find(a);
    if (node.formula()) continue;
    const DsType type = node.requiredType().valid() ? node.requiredType() : node.type();
    if (!type.valid()) continue;
    FormulaPtr f = defaultFormula(tree, node, type);
    if (f) tree.addLabel(a, Label::formula(freshen(f, tree.counters())));
  }
}

// 3. One node's semantics from its daughters' (already in `sem`).
FormulaPtr nodeSemantics(const DsTree& tree, const DsNode& node,
                         const std::map<std::string, FormulaPtr>& sem) {
  static const FormulaPtr kEmpty = Formula::record(RecordType());
  static const FormulaPtr kArgument = parsed("[x:e|head==x:e]");
  static const FormulaPtr kQuestion = parsed("[p==question(head):t]");
  static const FormulaPtr kNegation = parsed("[p==not(head):t]");
  auto semOf = [&](const NodeAddress& a) -> FormulaPtr {
    auto it = sem.find(a.toString());
    return it == sem.end() ? nullptr : it->second;
  };
  // An unfixed function is applied to a default argument first.
  auto unfixedOf = [&](const NodeAddress& a) -> FormulaPtr {
    FormulaPtr f = tree.contains(a) ? semOf(a) : nullptr;
    if (f && f->isLambda()) f = betaReduce(f, kArgument);
    return f;
  };
  const NodeAddress& a = node.address;
  const bool has0 = tree.contains(a.down("0"));
  const bool has1 = tree.contains(a.down("1"));
  FormulaPtr result = node.formula() ? node.formula() : kEmpty;
  if (has0 != has1) return result;  // a node being built: only its own formula counts
  const FormulaPtr star = unfixedOf(a.down("*"));
  const FormulaPtr local = unfixedOf(a.down("U"));
  if (has0) {
    const FormulaPtr argument = semOf(a.down("0"));
    const FormulaPtr function = semOf(a.down("1"));
    FormulaPtr reduced = betaReduce(function, argument);
    result = reduced ? reduced : conjoin(function, argument);
    if (star) result = conjoin(result, withoutHead(star));
    if (local) result = conjoin(result, withoutHead(local));
  } else if (star && local) {
    result = conjoin(withoutHead(star), withoutHead(local));
  } else if (star || local) {
    result = withoutHead(star ? star : local);
  }
  if (tree.contains(a.down("L"))) result = conjoin(result, semOf(a.down("L")));
  if (node.find("+Q") != nullptr) result = conjoin(kQuestion, result);
  if (node.find("+neg") != nullptr) result = conjoin(kNegation, result);
  return result;
}

}  // namespace

FormulaPtr maximalSemantics(const DsTree& input) {
  DsTree tree = input;
  mergeUnfixedNodes(tree);
  addDefaultFormulas(tree);
  // Bottom-up without recursion: daughters (longer addresses) before mothers.
  std::vector<std::size_t> order(tree.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return tree.node(x).address.toString().size() > tree.node(y).address.toString().size();
  });
  std::map<std::string, FormulaPtr> sem;
  for (std::size_t i : order) {
    const DsNode& node = tree.node(i);
    FormulaPtr f = nodeSemantics(tree, node, sem);
    // Each mother nests its daughters once more: bounded like the formulas actions build.
    if (f && f->depth() > kMaxBuiltFormulaDepth) return nullptr;
    sem[node.address.toString()] = std::move(f);
  }
  auto root = sem.find("0");
  return root == sem.end() ? Formula::record(RecordType()) : evaluate(root->second);
}

}  // namespace gwb::ds
