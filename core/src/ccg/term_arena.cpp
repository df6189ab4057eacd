#include "ccg/term_arena.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "ccg/type_check_steps.h"

namespace gwb::ccg::detail {

// Ids index flat arrays and child lists are (pointer, count) spans: the hot loop of the parser.
// NOLINTBEGIN(cppcoreguidelines-pro-bounds-pointer-arithmetic)

namespace {

bool isConnective(TermKind kind) { return kind == TermKind::And || kind == TermKind::Or; }

std::uint64_t mixHash(std::uint64_t h, std::uint64_t value) {
  h ^= value + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xbf58476d1ce4e5b9ULL;
}

}  // namespace

TermArena::TermArena() : table_(4096, kNone) {}

std::uint64_t TermArena::nodeHash(TermKind kind, std::int32_t value, const Id* children,
                                  std::size_t count) {
  std::uint64_t h =
      mixHash(static_cast<std::uint64_t>(kind) + 1, static_cast<std::uint32_t>(value));
  for (std::size_t c = 0; c < count; ++c) h = mixHash(h, static_cast<std::uint32_t>(children[c]));
  // MurmurHash3's finaliser: the low bits (the slot) depend on every bit.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

TermArena::Id TermArena::make(TermKind kind, std::int32_t value, const Id* children,
                              std::size_t count) {
  const std::uint64_t h = nodeHash(kind, value, children, count);
  const std::size_t mask = table_.size() - 1;
  std::size_t slot = h & mask;
  for (; table_[slot] != kNone; slot = (slot + 1) & mask) {
    const Node& node = nodes_[table_[slot]];
    if (node.hash != h || node.kind != kind || node.value != value ||
        node.count != static_cast<std::int32_t>(count)) {
      continue;
    }
    if (std::equal(children, children + count, children_.data() + node.first)) {
      return table_[slot];
    }
  }
  Node node{};
  node.kind = kind;
  node.value = value;
  node.first = static_cast<std::int32_t>(children_.size());
  node.count = static_cast<std::int32_t>(count);
  node.hash = h;
  bool normal =
      !(kind == TermKind::Application && count > 0 && nodes_[children[0]].kind == TermKind::Lambda);
  std::int32_t freeDepth = kind == TermKind::Variable ? value + 1 : 0;
  std::int32_t depth = 0;
  std::int64_t size = 1;
  for (std::size_t i = 0; i < count; ++i) {
    const Node& c = nodes_[children[i]];
    normal = normal && c.normal && !(isConnective(kind) && c.kind == kind);
    freeDepth = std::max(freeDepth, c.freeDepth);
    depth = std::max<std::int32_t>(depth, c.depth);
    size = std::min<std::int64_t>(size + c.size, std::numeric_limits<std::int32_t>::max());
  }
  node.depth = static_cast<std::int16_t>(
      std::min<std::int32_t>(depth + 1, std::numeric_limits<std::int16_t>::max()));
  node.size = static_cast<std::int32_t>(size);
  if (isBinder(kind)) freeDepth = std::max(0, freeDepth - 1);
  node.normal = normal;
  node.freeDepth = freeDepth;
  const Id id = static_cast<Id>(nodes_.size());
  nodes_.pushBack(node);
  children_.append(children, children + count);
  keys_.pushBack(kNone);
  table_[slot] = id;
  if (2 * nodes_.size() > table_.size()) grow();
  return id;
}

void TermArena::grow() { rebuildTable(table_.size() * 2); }

void TermArena::rebuildTable(std::size_t slots) {
  std::vector<Id>().swap(table_);  // the old table is not needed to build the new one
  table_.assign(slots, kNone);
  const std::size_t mask = slots - 1;
  for (Id id = 0; id < static_cast<Id>(nodes_.size()); ++id) {
    std::size_t slot = nodes_[id].hash & mask;
    while (table_[slot] != kNone) slot = (slot + 1) & mask;
    table_[slot] = id;
  }
}

void TermArena::compact(std::vector<Id>* roots) {
  // Mark what the roots reach; a node's children are older than it (make() takes existing
  // ids), so one pass in id order renumbers children before their parents.
  constexpr Id kReached = 0;
  std::vector<Id> newId(nodes_.size(), kNone);
  std::vector<Id> stack;
  for (Id root : *roots) {
    if (root == kNone || newId[root] != kNone) continue;
    newId[root] = kReached;
    stack.push_back(root);
    while (!stack.empty()) {
      const Id id = stack.back();
      stack.pop_back();
      for (std::int32_t c = 0; c < nodes_[id].count; ++c) {
        const Id child = children(id)[c];
        if (newId[child] == kNone) {
          newId[child] = kReached;
          stack.push_back(child);
        }
      }
    }
  }
  ReallocArray<Node> nodes;
  ReallocArray<Id> childLists;
  for (Id id = 0; id < static_cast<Id>(nodes_.size()); ++id) {
    if (newId[id] == kNone) continue;
    Node node = nodes_[id];  // kind, value and the structural fields stay
    node.first = static_cast<std::int32_t>(childLists.size());
    for (std::int32_t c = 0; c < node.count; ++c) childLists.pushBack(newId[children(id)[c]]);
    node.hash = nodeHash(node.kind, node.value, childLists.data() + node.first,
                         static_cast<std::size_t>(node.count));
    newId[id] = static_cast<Id>(nodes.size());
    nodes.pushBack(node);
  }
  nodes_.swap(nodes);
  children_.swap(childLists);
  ReallocArray<Id> keys;
  for (std::size_t id = 0; id < nodes_.size(); ++id) keys.pushBack(kNone);
  keys_.swap(keys);
  std::size_t slots = 4096;
  while (slots < 2 * nodes_.size() + 2) slots *= 2;
  rebuildTable(slots);
  toTermMemo_.clear();
  for (Id& root : *roots) {
    if (root != kNone) root = newId[root];
  }
}

// ((f a) b) is (f a b), as term.h's makeApplication makes it.
TermArena::Id TermArena::makeApplication(Id head, const Id* arguments, std::size_t count) {
  if (count == 0) return head;
  IdList parts;
  if (nodes_[head].kind == TermKind::Application) {
    parts.append(children(head), children(head) + nodes_[head].count);
  } else {
    parts.add(head);
  }
  parts.append(arguments, arguments + count);
  return make(TermKind::Application, 0, parts);
}

std::int32_t TermArena::nameId(const std::string& name) {
  auto [it, added] = nameIds_.emplace(name, static_cast<std::int32_t>(names_.size()));
  if (added) names_.push_back(name);
  return it->second;
}

std::int32_t TermArena::typeId(const TypePtr& type) {
  auto [it, added] = typeIds_.emplace(toString(type), static_cast<std::int32_t>(types_.size()));
  if (added) types_.push_back(type);
  return it->second;
}

// ---------------------------------------------------------------------------------------------
// Terms in and out

TermArena::Id TermArena::fromTerm(const Term& term) {
  std::vector<int> bound;
  return fromTerm(term, &bound);
}

TermArena::Id TermArena::fromTerm(const Term& term, std::vector<int>* bound) {
  switch (term->kind) {
    case TermKind::Constant: return make(TermKind::Constant, nameId(term->name), nullptr, 0);
    case TermKind::Variable: {
      const int depth = static_cast<int>(bound->size());
      for (int i = depth - 1; i >= 0; --i) {
        if ((*bound)[i] == term->variable) return variable(depth - 1 - i);
      }
      return variable(depth + term->variable);
    }
    default: break;
  }
  const bool binds = isBinder(term->kind);
  if (binds) bound->push_back(term->variable);
  IdList parts;
  for (const Term& child : term->children) parts.add(fromTerm(child, bound));
  if (binds) bound->pop_back();
  const std::int32_t value = term->kind == TermKind::Lambda ? typeId(term->variableType) : 0;
  return make(term->kind, value, parts);
}

Term TermArena::toTerm(Id id) { return toTerm(id, 0, nodes_[id].freeDepth); }

Term TermArena::toTerm(Id id, int depth, int offset) {
  const std::uint64_t memoKey = (static_cast<std::uint64_t>(id) << 32) |
                                (static_cast<std::uint64_t>(depth) << 16) |
                                static_cast<std::uint64_t>(offset);
  auto found = toTermMemo_.find(memoKey);
  if (found != toTermMemo_.end()) return found->second;
  const Node node = nodes_[id];
  Term out;
  switch (node.kind) {
    case TermKind::Constant: out = makeConstant(names_[node.value]); break;
    case TermKind::Variable:
      out = makeVariable(node.value < depth ? offset + depth - 1 - node.value : node.value - depth);
      break;
    default: {
      const bool binds = isBinder(node.kind);
      std::vector<Term> parts;
      parts.reserve(node.count);
      for (std::int32_t c = 0; c < node.count; ++c) {
        parts.push_back(toTerm(children(id)[c], binds ? depth + 1 : depth, offset));
      }
      if (node.kind == TermKind::Application) {
        Term head = std::move(parts.front());
        parts.erase(parts.begin());
        out = gwb::ccg::makeApplication(head, std::move(parts));
      } else if (node.kind == TermKind::Lambda) {
        out = makeLambda(offset + depth, types_[node.value], std::move(parts.front()));
      } else if (binds) {
        out = makeQuantifier(node.kind, offset + depth, std::move(parts));
      } else {
        out = makeOperator(node.kind, std::move(parts));
      }
    }
  }
  if (toTermMemo_.size() >= kToTermMemoLimit) toTermMemo_.clear();
  toTermMemo_.emplace(memoKey, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Substitution and beta-reduction (term.h's BetaReducer, step for step)

TermArena::Id TermArena::shift(Id id, int amount, int cutoff) {
  if (amount == 0 || nodes_[id].freeDepth <= cutoff) return id;
  const Node node = nodes_[id];
  if (node.kind == TermKind::Variable) return variable(node.value + amount);
  const int inner = isBinder(node.kind) ? cutoff + 1 : cutoff;
  IdList parts(children(id), children(id) + node.count);
  for (Id& part : parts) part = shift(part, amount, inner);
  return make(node.kind, node.value, parts);
}

// `id` with variable `index` replaced by `value` (which sits `index` binders further out) and
// the variables above it lowered by one: the body of a lambda after its application.
TermArena::Id TermArena::substitute(Id id, int index, Id value) {
  if (nodes_[id].freeDepth <= index) return id;
  const Node node = nodes_[id];
  if (node.kind == TermKind::Variable) {
    return node.value == index ? shift(value, index, 0) : variable(node.value - 1);
  }
  const int inner = isBinder(node.kind) ? index + 1 : index;
  IdList parts(children(id), children(id) + node.count);
  for (Id& part : parts) part = substitute(part, inner, value);
  if (node.kind == TermKind::Application) {
    return makeApplication(parts[0], parts.begin() + 1, parts.size() - 1);
  }
  return make(node.kind, node.value, parts);
}

TermArena::Id TermArena::reduce(Id id) {
  if (exhausted_ || nodes_[id].normal) return id;
  if (nesting_ >= kMaxReductionDepth) {
    exhausted_ = true;
    return id;
  }
  ++nesting_;
  const Id result = reduceUnbounded(id);
  --nesting_;
  return withinBounds(result) ? result : id;
}

// term.cpp's BetaReducer::withinBounds: the bounds of betaReduce (term.h).
bool TermArena::withinBounds(Id id) {
  if (nodes_[id].depth > kMaxReductionDepth || nodes_[id].size > kMaxReducedSize) {
    exhausted_ = true;
  }
  return !exhausted_;
}

TermArena::Id TermArena::reduceUnbounded(Id id) {
  const Node node = nodes_[id];
  switch (node.kind) {
    case TermKind::Constant:
    case TermKind::Variable: return id;
    case TermKind::Application: return reduceApplication(id);
    case TermKind::And:
    case TermKind::Or: return reduceConnective(id);
    default: break;
  }
  IdList parts(children(id), children(id) + node.count);
  bool changed = false;
  for (Id& part : parts) {
    const Id reduced = reduce(part);
    changed = changed || reduced != part;
    part = reduced;
  }
  return changed ? make(node.kind, node.value, parts) : id;
}

TermArena::Id TermArena::reduceApplication(Id id) {
  const IdList parts(children(id), children(id) + nodes_[id].count);
  Id head = reduce(parts[0]);
  std::size_t next = 1;
  while (nodes_[head].kind == TermKind::Lambda && next < parts.size()) {
    if (--stepsLeft_ < 0) {
      exhausted_ = true;
      return id;
    }
    const Id body = substitute(children(head)[0], 0, parts[next++]);
    if (!withinBounds(body)) return id;
    head = reduce(body);
    if (exhausted_) return id;
  }
  IdList rest;
  bool changed = head != parts[0] || next > 1;
  for (std::size_t i = next; i < parts.size(); ++i) {
    const Id reduced = reduce(parts[i]);
    rest.add(reduced);
    changed = changed || reduced != parts[i];
  }
  if (!changed) return id;
  return makeApplication(head, rest.begin(), rest.size());
}

TermArena::Id TermArena::reduceConnective(Id id) {
  const Node node = nodes_[id];
  const IdList parts(children(id), children(id) + node.count);
  IdList flat;
  bool changed = false;
  for (Id part : parts) {
    const Id reduced = reduce(part);
    if (nodes_[reduced].kind == node.kind) {
      flat.append(children(reduced), children(reduced) + nodes_[reduced].count);
      changed = true;
    } else {
      changed = changed || reduced != part;
      flat.add(reduced);
    }
  }
  return changed ? make(node.kind, 0, flat) : id;
}

TermArena::Id TermArena::reduceTop(Id id, int maxSteps) {
  stepsLeft_ = maxSteps;
  nesting_ = 0;
  exhausted_ = false;
  const Id reduced = reduce(id);
  return exhausted_ ? kNone : reduced;
}

TermArena::Id TermArena::apply(Id function, Id argument, int maxSteps) {
  return reduceTop(makeApplication(function, &argument, 1), maxSteps);
}

TermArena::Id TermArena::compose(Id function, Id argument, int maxSteps) {
  static const TypePtr kEntity = atomicType("e");
  const std::int32_t type =
      nodes_[argument].kind == TermKind::Lambda ? nodes_[argument].value : typeId(kEntity);
  const Id x = variable(0);
  const Id inner = makeApplication(shift(argument, 1, 0), &x, 1);
  const Id body = makeApplication(shift(function, 1, 0), &inner, 1);
  return reduceTop(make(TermKind::Lambda, type, &body, 1), maxSteps);
}

// ---------------------------------------------------------------------------------------------
// Exact-match keys

TermArena::Id TermArena::exactMatchKey(Id id) {
  if (keys_[id] != kNone) return keys_[id];
  const Node node = nodes_[id];
  Id key = id;
  if (node.count > 0) {
    IdList parts(children(id), children(id) + node.count);
    bool changed = false;
    for (Id& part : parts) {
      const Id partKey = exactMatchKey(part);
      changed = changed || partKey != part;
      part = partKey;
    }
    if (isConnective(node.kind)) {
      IdList flat;
      for (Id part : parts) {
        if (nodes_[part].kind == node.kind) {
          flat.append(children(part), children(part) + nodes_[part].count);
        } else {
          flat.add(part);
        }
      }
      std::sort(flat.begin(), flat.end());
      changed = changed || flat.size() != parts.size() ||
                !std::equal(flat.begin(), flat.end(), parts.begin());
      if (changed) key = make(node.kind, node.value, flat);
    } else if (changed) {
      key = make(node.kind, node.value, parts);
    }
  }
  keys_[id] = key;
  return key;
}

// ---------------------------------------------------------------------------------------------
// Type checking (term.cpp's TypeChecker, step for step, on ids)

class TermArena::TypeChecker {
 public:
  TypeChecker(TermArena& arena, const TypeSystem& types) : arena_(arena), types_(types) {}

  // The term's type once every bound variable has the type its uses require (passes to a fixed
  // point, type_check_steps.h).
  TypePtr check(Id root) {
    return inferUntilNothingNarrows(bindings_, &before_, [&] {
      scope_.clear();
      return infer(root, 0);
    });
  }

 private:
  struct Binding {
    std::uint64_t binder;  // (id, depth): the binder's node as toTerm shares it
    TypePtr declared;
    TypePtr type;
  };

  const Node& node(Id id) const { return arena_.nodes_[id]; }
  Id child(Id id, std::int32_t c) const { return arena_.children(id)[c]; }

  const NameTypes& nameTypes(std::int32_t name) {
    NameTypes& entry = arena_.nameTypes_[name];
    if (!entry.known) {
      entry.known = true;
      entry.signatures = types_.signatures(arena_.names_[name]);
      entry.type = types_.constantType(arena_.names_[name]);
    }
    return entry;
  }

  TypePtr truth() const { return types_.truthType(); }
  TypePtr number() const { return types_.numberType(); }
  TypePtr entity() const { return types_.entityType(); }

  // `depth`: the binders above `id` (the size of scope_ when it is inferred).
  TypePtr infer(Id id, int depth) {
    const Node& n = node(id);
    switch (n.kind) {
      case TermKind::Constant: return nameTypes(n.value).type;
      case TermKind::Variable: {
        const int binding = bindingOf(id);
        return binding < 0 ? nullptr : bindings_[binding].type;
      }
      case TermKind::Application: return inferApplication(id, depth);
      case TermKind::Lambda: {
        const TypePtr& declared = arena_.types_[n.value];
        bind(id, depth, declared);
        TypePtr body = infer(child(id, 0), depth + 1);
        scope_.pop_back();
        return body ? functionType(declared, body) : nullptr;
      }
      case TermKind::Or: return inferDisjunction(id, depth);
      case TermKind::And:
      case TermKind::Not:
        for (std::int32_t c = 0; c < n.count; ++c) {
          if (!expect(child(id, c), depth, truth())) return nullptr;
        }
        return truth();
      case TermKind::Equals: {
        TypePtr left = infer(child(id, 0), depth);
        if (!left) return nullptr;
        TypePtr right = infer(child(id, 1), depth);
        if (!right) return nullptr;
        if (!types_.compatible(left, right)) return nullptr;
        if (TypePtr both = types_.meet(left, right)) {
          narrow(child(id, 0), both);
          narrow(child(id, 1), both);
        }
        return truth();
      }
      case TermKind::Less:
      case TermKind::Greater:
        for (std::int32_t c = 0; c < n.count; ++c) {
          if (!expect(child(id, c), depth, number())) return nullptr;
        }
        return truth();
      case TermKind::Exists:
      case TermKind::Count:
      case TermKind::The:
      case TermKind::Argmax:
      case TermKind::Argmin:
      case TermKind::Sum: {
        const TermKind kind = n.kind;
        const std::int32_t count = n.count;
        const int binding = bind(id, depth, entity());
        bool ok = expect(child(id, 0), depth + 1, truth());
        for (std::int32_t b = 1; ok && kind == TermKind::Exists && b < count; ++b) {
          ok = expect(child(id, b), depth + 1, truth());
        }
        if (ok && kind != TermKind::Exists && count > 1) {
          ok = expect(child(id, 1), depth + 1, number());
        }
        scope_.pop_back();
        if (!ok) return nullptr;
        switch (kind) {
          case TermKind::Exists: return truth();
          case TermKind::Count:
          case TermKind::Sum: return number();
          default: return bindings_[binding].type;
        }
      }
    }
    return nullptr;
  }

  int bind(Id binder, int depth, const TypePtr& declared) {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(binder) << 32) | static_cast<std::uint32_t>(depth);
    int index = -1;
    for (std::size_t b = 0; b < bindings_.size(); ++b) {
      if (bindings_[b].binder == key) index = static_cast<int>(b);
    }
    if (index < 0) {
      const TypePtr interned =
          declared && !declared->isFunction() ? types_.intern(declared) : declared;
      bindings_.push_back({key, interned, interned});
      index = static_cast<int>(bindings_.size()) - 1;
    }
    scope_.push_back(index);
    return index;
  }
  // The binding of a variable node (de Bruijn index: 0 is the innermost binder); -1 when free.
  int bindingOf(Id variable) const {
    const auto index = static_cast<std::size_t>(node(variable).value);
    return index < scope_.size() ? scope_[scope_.size() - 1 - index] : -1;
  }
  void narrow(Id argument, const TypePtr& required) {
    if (node(argument).kind != TermKind::Variable || !required || required->isFunction()) return;
    const int binding = bindingOf(argument);
    if (binding < 0) return;
    TypePtr& type = bindings_[binding].type;
    if (type->isFunction()) return;
    if (TypePtr narrower = types_.meet(type, required)) type = narrower;
  }

  TypePtr inferDisjunction(Id id, int depth) {
    std::vector<TypePtr> start;
    start.reserve(bindings_.size());
    for (const Binding& binding : bindings_) start.push_back(binding.type);
    std::vector<TypePtr> joined(start.size());
    for (std::int32_t c = 0; c < node(id).count; ++c) {
      for (std::size_t b = 0; b < start.size(); ++b) bindings_[b].type = start[b];
      if (!expect(child(id, c), depth, truth())) return nullptr;
      joinDisjunct(types_, start, bindings_, &joined);
    }
    for (std::size_t b = 0; b < start.size(); ++b) {
      if (joined[b]) bindings_[b].type = joined[b];
    }
    return truth();
  }

  bool expect(Id id, int depth, const TypePtr& expected) {
    TypePtr type = infer(id, depth);
    if (!type || !types_.compatible(type, expected)) return false;
    narrow(id, expected);
    return true;
  }

  // A predicate applied to arguments of these types: the first signature that fits gives the
  // type, and each argument is narrowed to the join of what the fitting signatures take there.
  TypePtr inferBySignatures(Id id, const std::vector<Signature>& signatures,
                            const std::vector<TypePtr>& arguments) {
    std::vector<TypePtr> required;
    const Signature* first = fitSignatures(types_, signatures, arguments, &required);
    if (first == nullptr) return nullptr;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
      narrow(child(id, static_cast<std::int32_t>(i) + 1), required[i]);
    }
    return first->result;
  }

  TypePtr inferApplication(Id id, int depth) {
    const std::int32_t count = node(id).count;
    const Id head = child(id, 0);
    std::vector<TypePtr> arguments;
    arguments.reserve(static_cast<std::size_t>(count - 1));
    for (std::int32_t i = 1; i < count; ++i) {
      TypePtr type = infer(child(id, i), depth);
      if (!type) return nullptr;
      arguments.push_back(std::move(type));
    }
    if (node(head).kind == TermKind::Constant) {
      const NameTypes& constant = nameTypes(node(head).value);
      if (constant.signatures != nullptr) {
        return inferBySignatures(id, *constant.signatures, arguments);
      }
      if (constant.type && !constant.type->isFunction()) return nullptr;
    }
    TypePtr type = infer(head, depth);
    if (!type) return nullptr;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
      if (!type->isFunction() || !types_.compatible(arguments[i], type->from)) return nullptr;
      narrow(child(id, static_cast<std::int32_t>(i) + 1), type->from);
      type = type->to;
    }
    return type;
  }

  TermArena& arena_;
  const TypeSystem& types_;
  std::vector<Binding> bindings_;
  std::vector<int> scope_;  // binding indices, innermost last
  std::vector<TypePtr> before_;
};

TypePtr TermArena::typeOf(Id id, const TypeSystem& types) {
  if (typesOfNames_ != &types) {
    typesOfNames_ = &types;
    nameTypes_.clear();
  }
  nameTypes_.resize(names_.size());
  TypeChecker checker(*this, types);
  return checker.check(id);
}

// NOLINTEND(cppcoreguidelines-pro-bounds-pointer-arithmetic)

}  // namespace gwb::ccg::detail
