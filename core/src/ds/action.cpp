#include "gwb/ds/action.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

namespace gwb::ds {

// ---------------------------------------------------------------------------------------
// Printing

std::string Effect::toString() const {
  switch (kind) {
    case EffectKind::Make: return "make(" + modality.opsString() + ")";
    case EffectKind::Go: return "go(" + modality.opsString() + (inverse ? "-1" : "") + ")";
    case EffectKind::Put: return "put(" + label->text() + ")";
    case EffectKind::Delete: return "delete(" + label->text() + ")";
    case EffectKind::TtrPut: return "ttrput(" + formula->text() + ")";
    case EffectKind::FreshPut:
    case EffectKind::Do: {
      std::string out = kind == EffectKind::Do ? "do(" : "freshput(";
      for (std::size_t i = 0; i < args.size(); ++i) out += (i > 0 ? "," : "") + args[i];
      return out + ")";
    }
    case EffectKind::BetaReduce: return "beta-reduce";
    case EffectKind::Merge: return "merge(" + modality.opsString() + ")";
    case EffectKind::Conjoin: return "conjoin(" + formula->text() + ")";
    case EffectKind::DoNothing: return "do_nothing";
    case EffectKind::Abort: return "abort";
    case EffectKind::IfThenElse: return branch->toString();
  }
  return {};
}

std::string IfThenElse::toString(int indent) const {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  const std::string inner(static_cast<std::size_t>(indent) + 6, ' ');
  std::string out;
  auto section = [&](const char* keyword, const std::vector<std::string>& lines) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!out.empty()) out += "\n";
      out += (i == 0 ? pad + keyword : inner) + lines[i];
    }
  };
  std::vector<std::string> conds;
  for (const LabelPtr& c : conditions) conds.push_back(c->text());
  section("IF    ", conds);
  auto effectLines = [&](const std::vector<Effect>& effects) {
    std::vector<std::string> lines;
    for (const Effect& e : effects) {
      if (e.kind == EffectKind::IfThenElse) {
        // A nested block starts on a line of its own, indented under its parent's effects.
        std::string nested = e.branch->toString(indent + 6);
        lines.push_back("\x01" + nested);
      } else {
        lines.push_back(e.toString());
      }
    }
    return lines;
  };
  auto emit = [&](const char* keyword, const std::vector<Effect>& effects) {
    std::vector<std::string> lines = effectLines(effects);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      out += "\n";
      if (lines[i][0] == '\x01') {
        if (i == 0) out += pad + keyword + "\n";
        out += lines[i].substr(1);
      } else {
        out += (i == 0 ? pad + keyword : inner) + lines[i];
      }
    }
  };
  emit("THEN  ", thenEffects);
  emit("ELSE  ", elseEffects);
  return out;
}

std::string DsAction::toString() const {
  std::string out;
  for (const Effect& e : effects) {
    if (!out.empty()) out += "\n";
    out += e.toString();
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Metavariable bindings

namespace {

struct Bound {
  std::string name;
  LabelPtr label;
  DsType type;
  FormulaPtr formula;
  std::optional<Modality> modality;
};

class Bindings {
 public:
  const Bound* find(const std::string& name) const {
    for (auto it = items_.rbegin(); it != items_.rend(); ++it)
      if (it->name == name) return &*it;
    return nullptr;
  }
  void push(Bound b) { items_.push_back(std::move(b)); }
  std::size_t size() const { return items_.size(); }
  void truncate(std::size_t size) { items_.resize(size); }

 private:
  std::vector<Bound> items_;
};

DsType instantiateType(const DsType& type, const Bindings& b) {
  switch (type.kind()) {
    case DsType::Kind::Meta: {
      const Bound* bound = b.find(type.name());
      return bound != nullptr && bound->type.valid() ? bound->type : type;
    }
    case DsType::Kind::Function: {
      DsType from = instantiateType(type.from(), b);
      DsType to = instantiateType(type.to(), b);
      return from == type.from() && to == type.to() ? type : DsType::function(from, to);
    }
    default: return type;
  }
}

FormulaPtr instantiateFormula(const FormulaPtr& f, const Bindings& b) {
  if (!f || !hasMetas(f)) return f;
  return instantiate(f, [&](const std::string& name) -> FormulaPtr {
    const Bound* bound = b.find(name);
    return bound != nullptr ? bound->formula : nullptr;
  });
}

Modality instantiateModality(const Modality& m, const Bindings& b) {
  if (!m.isMeta()) return m;
  const Bound* bound = b.find(m.metaName());
  return bound != nullptr && bound->modality ? *bound->modality : m;
}

// The label with every bound metavariable replaced by its value.
LabelPtr instantiateLabel(const LabelPtr& l, const Bindings& b) {
  switch (l->kind()) {
    case LabelKind::Meta: {
      const Bound* bound = b.find(l->name());
      return bound != nullptr && bound->label ? bound->label : l;
    }
    case LabelKind::Type: {
      if (!l->dsType().valid() || l->dsType().isGround()) return l;
      DsType t = instantiateType(l->dsType(), b);
      return t == l->dsType() ? l : Label::type(t);
    }
    case LabelKind::Formula: {
      FormulaPtr f = instantiateFormula(l->formula(), b);
      return f == l->formula() ? l : Label::formula(f);
    }
    case LabelKind::Requirement:
    case LabelKind::Exists:
    case LabelKind::Not: {
      LabelPtr c = instantiateLabel(l->child(), b);
      if (c == l->child()) return l;
      if (l->kind() == LabelKind::Requirement) return Label::requirement(c);
      if (l->kind() == LabelKind::Exists) return Label::exists(c);
      return Label::negation(c);
    }
    case LabelKind::Modal: {
      LabelPtr c = instantiateLabel(l->child(), b);
      Modality m = instantiateModality(l->modality(), b);
      if (c == l->child() && m.opsString() == l->modality().opsString()) return l;
      return Label::modal(m, c);
    }
    case LabelKind::Or:
    case LabelKind::And: {
      std::vector<LabelPtr> items;
      bool changed = false;
      for (const LabelPtr& c : l->children()) {
        items.push_back(instantiateLabel(c, b));
        changed = changed || items.back() != c;
      }
      if (!changed) return l;
      return l->kind() == LabelKind::Or ? Label::disjunction(std::move(items))
                                        : Label::conjunction(std::move(items));
    }
    case LabelKind::Subsumes: {
      Modality m = instantiateModality(l->modality(), b);
      return m.opsString() == l->modality().opsString() ? l : Label::subsumes(m);
    }
    default: return l;
  }
}

// Deterministic one-way unification of a type pattern with a ground type.
bool unifyType(const DsType& pattern, const DsType& ground, Bindings& b) {
  switch (pattern.kind()) {
    case DsType::Kind::Meta: {
      const Bound* bound = b.find(pattern.name());
      if (bound != nullptr) return bound->type.valid() && bound->type == ground;
      b.push(Bound{pattern.name(), nullptr, ground, nullptr, std::nullopt});
      return true;
    }
    case DsType::Kind::Function:
      return ground.isFunction() && unifyType(pattern.from(), ground.from(), b) &&
             unifyType(pattern.to(), ground.to(), b);
    default: return pattern == ground;
  }
}

bool matchFormula(const FormulaPtr& pattern, const FormulaPtr& ground, Bindings& b) {
  if (!pattern) return true;  // fo(x) inside Ex.
  if (!ground) return false;
  if (pattern->kind() == FormulaKind::Meta) {
    const Bound* bound = b.find(pattern->name());
    if (bound != nullptr) return bound->formula && bound->formula->text() == ground->text();
    b.push(Bound{pattern->name(), nullptr, {}, ground, std::nullopt});
    return true;
  }
  return instantiateFormula(pattern, b)->text() == ground->text();
}

// ---------------------------------------------------------------------------------------
// The condition solver

using Sink = std::function<bool(Bindings&)>;  // returns true to stop the search

class Solver {
 public:
  explicit Solver(const DsTree& tree) : tree_(tree) {}

  bool all(const std::vector<LabelPtr>& conds, std::size_t i, const NodeAddress& at, Bindings& b,
           const Sink& sink) {
    if (i == conds.size()) return sink(b);
    return check(conds[i], at, b, [&](Bindings& bb) { return all(conds, i + 1, at, bb, sink); });
  }

  bool check(const LabelPtr& lp, const NodeAddress& at, Bindings& b, const Sink& sink) {
    const Label& l = *lp;
    const DsNode* node = tree_.find(at);
    switch (l.kind()) {
      case LabelKind::Type: return checkType(l, node, b, sink);
      case LabelKind::Formula: return checkFormula(l, node, b, sink);
      case LabelKind::Feature:
      case LabelKind::Predicate:
      case LabelKind::Bottom: return node != nullptr && node->find(l.text()) != nullptr && sink(b);
      case LabelKind::Address: {
        if (node == nullptr) return false;
        // tn(x) (and a metavariable, which we do not bind): the node's address is fixed.
        const bool anyAddress = l.isWildcard() || (l.name().size() == 1 && l.name() != "0");
        const bool ok = anyAddress ? at.isLocallyFixed() : at.toString() == l.name();
        return ok && sink(b);
      }
      case LabelKind::Requirement: return checkRequirement(l, node, b, sink);
      case LabelKind::Meta: return checkMeta(l, at, node, b, sink);
      case LabelKind::Wildcard: return node != nullptr && !node->labels.empty() && sink(b);
      case LabelKind::Modal: return checkModal(lp, at, node, b, sink);
      case LabelKind::Exists: return check(l.child(), at, b, sink);
      case LabelKind::Not: {
        bool found = false;
        const std::size_t mark = b.size();
        check(l.child(), at, b, [&](Bindings&) {
          found = true;
          return true;
        });
        b.truncate(mark);
        return !found && sink(b);
      }
      case LabelKind::Or:
        return std::any_of(l.children().begin(), l.children().end(),
                           [&](const LabelPtr& c) { return check(c, at, b, sink); });
      case LabelKind::And: return all(l.children(), 0, at, b, sink);
      case LabelKind::Subsumes: {
        Modality m = instantiateModality(l.modality(), b);
        if (m.isMeta()) return false;
        auto other = m.apply(at);
        return other && (at.subsumes(*other) || other->subsumes(at)) && sink(b);
      }
    }
    return false;
  }

 private:
  bool checkType(const Label& l, const DsNode* node, Bindings& b, const Sink& sink) {
    if (node == nullptr) return false;
    const std::size_t mark = b.size();
    for (const LabelPtr& x : node->labels) {
      if (x->kind() != LabelKind::Type) continue;
      if ((l.isWildcard() || unifyType(l.dsType(), x->dsType(), b)) && sink(b))
        return stop(b, mark);
      b.truncate(mark);
    }
    return false;
  }

  static bool checkFormula(const Label& l, const DsNode* node, Bindings& b, const Sink& sink) {
    if (node == nullptr) return false;
    FormulaPtr f = node->formula();
    if (!f) return false;
    const std::size_t mark = b.size();
    if (matchFormula(l.formula(), f, b) && sink(b)) return stop(b, mark);
    b.truncate(mark);
    return false;
  }

  bool checkRequirement(const Label& l, const DsNode* node, Bindings& b, const Sink& sink) {
    if (node == nullptr) return false;
    const std::size_t mark = b.size();
    for (const LabelPtr& x : node->labels)
      if (x->kind() == LabelKind::Requirement && unify(l.child(), x->child(), b, sink))
        return stop(b, mark);
    return false;
  }

  // A label metavariable: the label it is bound to, or (unbound) any label of the node.
  bool checkMeta(const Label& l, const NodeAddress& at, const DsNode* node, Bindings& b,
                 const Sink& sink) {
    const Bound* bound = b.find(l.name());
    if (bound != nullptr) return bound->label && check(bound->label, at, b, sink);
    if (node == nullptr) return false;
    const std::size_t mark = b.size();
    for (const LabelPtr& x : node->labels) {
      b.push(Bound{l.name(), x, {}, nullptr, std::nullopt});
      if (sink(b)) return stop(b, mark);
      b.truncate(mark);
    }
    return false;
  }

  static bool stop(Bindings& b, std::size_t mark) {
    b.truncate(mark);
    return true;
  }

  bool checkModal(const LabelPtr& lp, const NodeAddress& at, const DsNode* node, Bindings& b,
                  const Sink& sink) {
    const Label& l = *lp;
    const std::size_t mark = b.size();
    // The modal label may sit on the node itself (e.g. as the content of a requirement).
    if (node != nullptr && node->find(instantiateLabel(lp, b)->text()) != nullptr && sink(b))
      return stop(b, mark);
    Modality m = instantiateModality(l.modality(), b);
    for (std::size_t i = 0; i < tree_.size(); ++i) {
      const NodeAddress& target = tree_.node(i).address;
      if (m.isMeta()) {
        b.push(Bound{m.metaName(), nullptr, {}, nullptr, Modality::between(at, target)});
      } else if (!tree_.relates(at, target, m)) {
        continue;
      }
      if (check(l.child(), target, b, sink)) return stop(b, mark);
      b.truncate(mark);
    }
    return false;
  }

  // Matches a label pattern against a label a node carries (or a part of one).
  bool unify(const LabelPtr& pp, const LabelPtr& gp, Bindings& b, const Sink& sink) {
    const Label& pattern = *pp;
    const Label& ground = *gp;
    const std::size_t mark = b.size();
    if (pattern.kind() == LabelKind::Meta) {
      const Bound* bound = b.find(pattern.name());
      if (bound != nullptr) return bound->label && bound->label->text() == ground.text() && sink(b);
      b.push(Bound{pattern.name(), gp, {}, nullptr, std::nullopt});
      if (sink(b)) return stop(b, mark);
      b.truncate(mark);
      return false;
    }
    if (pattern.kind() == LabelKind::Wildcard) return sink(b);
    if (pattern.kind() != ground.kind()) return false;
    switch (pattern.kind()) {
      case LabelKind::Type:
        if (pattern.isWildcard() || unifyType(pattern.dsType(), ground.dsType(), b)) {
          if (sink(b)) return stop(b, mark);
        }
        b.truncate(mark);
        return false;
      case LabelKind::Formula:
        if (matchFormula(pattern.formula(), ground.formula(), b) && sink(b)) return stop(b, mark);
        b.truncate(mark);
        return false;
      case LabelKind::Requirement:
      case LabelKind::Exists:
      case LabelKind::Not: return unify(pattern.child(), ground.child(), b, sink);
      case LabelKind::Modal: {
        const Modality& pm = pattern.modality();
        if (pm.isMeta()) {
          const Bound* bound = b.find(pm.metaName());
          if (bound != nullptr) {
            if (!bound->modality || bound->modality->opsString() != ground.modality().opsString())
              return false;
          } else {
            b.push(Bound{pm.metaName(), nullptr, {}, nullptr, ground.modality()});
          }
        } else if (pm.opsString() != ground.modality().opsString()) {
          return false;
        }
        if (unify(pattern.child(), ground.child(), b, sink)) return stop(b, mark);
        b.truncate(mark);
        return false;
      }
      default: return instantiateLabel(pp, b)->text() == ground.text() && sink(b);
    }
  }

  const DsTree& tree_;
};

// ---------------------------------------------------------------------------------------
// Effects

bool runEffects(const std::vector<Effect>& effects, DsTree& tree, Bindings& b);

bool runIfThenElse(const IfThenElse& ite, DsTree& tree, Bindings& b) {
  bool any = false;
  bool ok = false;
  std::optional<DsTree> result;
  {
    Solver solver(tree);
    solver.all(ite.conditions, 0, tree.pointer(), b, [&](Bindings& bb) {
      any = true;
      DsTree copy = tree;
      if (!runEffects(ite.thenEffects, copy, bb)) return false;
      result = std::move(copy);
      ok = true;
      return true;
    });
  }
  if (ok) {
    tree = std::move(*result);
    return true;
  }
  if (any) return false;
  return runEffects(ite.elseEffects, tree, b);
}

// The report of the applyAction() running on this thread (null: none asked for).
thread_local ActionReport* currentReport = nullptr;

// The deepest formula in `label` (0 if it holds none). Labels nest only as deeply as the
// action text they come from (instantiation replaces metavariables, it adds no label levels).
int formulaDepth(const Label& label) {
  int depth = label.formula() ? label.formula()->depth() : 0;
  for (const LabelPtr& child : label.children()) depth = std::max(depth, formulaDepth(*child));
  return depth;
}

// Whether a formula of this depth may be stored in a tree; reports the refusal.
bool storable(int depth) {
  if (depth <= kMaxBuiltFormulaDepth) return true;
  if (currentReport != nullptr) currentReport->formulaTooDeep = true;
  return false;
}

bool storable(const FormulaPtr& f) { return !f || storable(f->depth()); }

bool runEffect(const Effect& e, DsTree& tree, Bindings& b) {
  const NodeAddress pointer = tree.pointer();
  switch (e.kind) {
    case EffectKind::Make: {
      auto target = e.modality.apply(pointer);
      if (!target || !NodeAddress::isValid(target->toString())) return false;
      tree.make(*target);
      return true;
    }
    case EffectKind::Go: {
      Modality m = instantiateModality(e.modality, b);
      if (m.isMeta()) return false;
      if (e.inverse) m = m.inverse();
      auto target = m.apply(pointer);
      if (!target || !tree.contains(*target)) return false;
      tree.setPointer(*target);
      return true;
    }
    case EffectKind::Put: {
      LabelPtr label = instantiateLabel(e.label, b);
      if (!storable(formulaDepth(*label))) return false;
      tree.addLabel(pointer, label);
      return true;
    }
    case EffectKind::Delete:
      tree.removeLabel(pointer, instantiateLabel(e.label, b)->text());
      return true;
    case EffectKind::TtrPut: {
      if (tree.pointedNode().formula()) return true;  // as DyLan: leave the tree as it is
      FormulaPtr f = instantiateFormula(e.formula, b);
      if (!storable(f)) return false;
      f = freshen(f, tree.counters());
      tree.addLabel(pointer, Label::formula(f));
      return true;
    }
    case EffectKind::FreshPut: {
      FormulaPtr f = Formula::symbol(tree.counters().next(DsType::basic("e")));
      tree.addLabel(pointer, Label::formula(f));
      return true;
    }
    case EffectKind::BetaReduce: {
      const DsNode* d0 = tree.find(pointer.down("0"));
      const DsNode* d1 = tree.find(pointer.down("1"));
      if (d0 == nullptr || d1 == nullptr) return false;
      const DsType t0 = d0->type();
      const DsType t1 = d1->type();
      if (!t1.isFunction() || t1.from() != t0) return false;
      FormulaPtr f = betaReduce(d1->formula(), d0->formula());
      if (!f || !storable(f)) return false;
      tree.addLabel(pointer, Label::type(t1.to()));
      tree.addLabel(pointer, Label::formula(f));
      return true;
    }
    case EffectKind::Merge: {
      Modality m = instantiateModality(e.modality, b);
      if (m.isMeta()) return false;
      auto from = m.apply(pointer);
      if (!from || !tree.contains(*from) || *from == pointer) return false;
      return tree.merge(*from, pointer);
    }
    case EffectKind::Conjoin: {
      FormulaPtr addition = instantiateFormula(e.formula, b);
      if (!storable(addition)) return false;
      FormulaPtr result = conjoin(tree.pointedNode().formula(), addition);
      if (!result || !storable(result)) return false;
      tree.addLabel(pointer, Label::formula(result));
      return true;
    }
    case EffectKind::Do: return false;  // action metavariables are not supported
    case EffectKind::DoNothing: return true;
    case EffectKind::Abort: return false;
    case EffectKind::IfThenElse: return runIfThenElse(*e.branch, tree, b);
  }
  return false;
}

bool runEffects(const std::vector<Effect>& effects, DsTree& tree, Bindings& b) {
  for (const Effect& e : effects)
    if (!runEffect(e, tree, b)) return false;
  return true;
}

}  // namespace

std::vector<DsTree> applyAction(const DsAction& action, const DsTree& tree, ActionReport* report) {
  // Effects report through currentReport; restored on return (applyClosure nests calls).
  struct ScopedReport {
    ActionReport* saved;
    explicit ScopedReport(ActionReport* r) : saved(currentReport) { currentReport = r; }
    ~ScopedReport() { currentReport = saved; }
    ScopedReport(const ScopedReport&) = delete;
    ScopedReport& operator=(const ScopedReport&) = delete;
  } scoped(report);
  std::vector<DsTree> results;
  if (action.exhaustive && action.effects.size() == 1 &&
      action.effects[0].kind == EffectKind::IfThenElse) {
    const IfThenElse& ite = *action.effects[0].branch;
    Bindings b;
    bool any = false;
    Solver solver(tree);
    solver.all(ite.conditions, 0, tree.pointer(), b, [&](Bindings& bb) {
      any = true;
      DsTree copy = tree;
      if (runEffects(ite.thenEffects, copy, bb)) results.push_back(std::move(copy));
      return false;
    });
    if (!any) {
      DsTree copy = tree;
      if (runEffects(ite.elseEffects, copy, b)) results.push_back(std::move(copy));
    }
    return results;
  }
  DsTree copy = tree;
  Bindings b;
  if (runEffects(action.effects, copy, b)) results.push_back(std::move(copy));
  return results;
}

DsTree applyClosure(const std::vector<const DsAction*>& actions, DsTree tree,
                    std::vector<std::string>* applied, int limit, ActionReport* report) {
  for (int step = 0; step < limit; ++step) {
    bool fired = false;
    for (const DsAction* a : actions) {
      std::vector<DsTree> r = applyAction(*a, tree, report);
      if (r.empty() || r.front().revision() == tree.revision()) continue;
      tree = std::move(r.front());
      if (applied != nullptr) applied->push_back(a->name);
      fired = true;
      break;
    }
    if (!fired) break;
  }
  return tree;
}

bool holds(const LabelPtr& condition, const DsTree& tree) {
  Solver solver(tree);
  Bindings b;
  return solver.check(condition, tree.pointer(), b, [](Bindings&) { return true; });
}

}  // namespace gwb::ds
