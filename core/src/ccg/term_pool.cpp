#include "gwb/ccg/term_pool.h"

#include <utility>

namespace gwb::ccg {

namespace {

bool sameShallow(const TermNode& a, const TermNode& b) {
  if (a.hash != b.hash || a.kind != b.kind || a.variable != b.variable || a.size != b.size ||
      a.children.size() != b.children.size() || a.name != b.name) {
    return false;
  }
  if ((a.variableType != nullptr) != (b.variableType != nullptr)) return false;
  return !a.variableType || a.variableType == b.variableType ||
         sameType(a.variableType, b.variableType);
}

// A node like `shape` with other children.
Term rebuild(const TermNode& shape, std::vector<Term> children) {
  switch (shape.kind) {
    case TermKind::Constant:
    case TermKind::Variable: break;
    case TermKind::Application: {
      Term head = std::move(children.front());
      children.erase(children.begin());
      return makeApplication(head, std::move(children));
    }
    case TermKind::Lambda:
      return makeLambda(shape.variable, shape.variableType, std::move(children.front()));
    case TermKind::And:
    case TermKind::Or:
    case TermKind::Not:
    case TermKind::Equals:
    case TermKind::Less:
    case TermKind::Greater: return makeOperator(shape.kind, std::move(children));
    case TermKind::Exists:
    case TermKind::Count:
    case TermKind::The:
    case TermKind::Argmax:
    case TermKind::Argmin:
    case TermKind::Sum: return makeQuantifier(shape.kind, shape.variable, std::move(children));
  }
  return nullptr;
}

}  // namespace

TermPool::TermPool() : slots_(1024) {}

std::size_t TermPool::find(const TermNode& node, const std::vector<Term>* children) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = node.hash & mask;; i = (i + 1) & mask) {
    const Term& slot = slots_[i];
    if (!slot || slot.get() == &node) return i;
    if (!children || !sameShallow(*slot, node)) continue;
    bool same = true;
    for (std::size_t c = 0; same && c < children->size(); ++c) {
      same = slot->children[c] == (*children)[c];
    }
    if (same) return i;
  }
}

bool TermPool::isRepresentative(const Term& term) const {
  const std::size_t i = find(*term, nullptr);
  return slots_[i].get() == term.get();
}

const Term& TermPool::intern(const Term& term) {
  {
    const std::size_t i = find(*term, nullptr);
    if (slots_[i]) return slots_[i];
  }
  std::vector<Term> children;
  children.reserve(term->children.size());
  bool same = true;
  for (const Term& child : term->children) {
    children.push_back(intern(child));
    same = same && children.back() == child;
  }
  std::size_t i = find(*term, &children);
  if (slots_[i]) return slots_[i];
  Term representative = same ? term : rebuild(*term, std::move(children));
  if (2 * (size_ + 1) > slots_.size()) {
    grow();
    i = find(*representative, nullptr);
  }
  slots_[i] = std::move(representative);
  ++size_;
  return slots_[i];
}

void TermPool::grow() {
  std::vector<Term> old(slots_.size() * 2);
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (Term& term : old) {
    if (!term) continue;
    std::size_t i = term->hash & mask;
    while (slots_[i]) i = (i + 1) & mask;
    slots_[i] = std::move(term);
  }
}

}  // namespace gwb::ccg
