#include "gwb/ds/hypothesis_search.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gwb/ds/action.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/ds_tree.h"

namespace gwb::ds {

namespace {

std::string contentBlock(const std::string& type, const std::string& formula) {
  return "IF    ?Ty(" + type + ")\nTHEN  put(Ty(" + type + "))\n      ttrput(" + formula +
         ")\nELSE  abort";
}

// The symbols (and path bases) a value refers to.
void referencedLabels(const FormulaPtr& f, std::set<std::string>* out) {
  if (!f) return;
  if (f->kind() == FormulaKind::Symbol || f->kind() == FormulaKind::Path) out->insert(f->name());
  if (f->kind() == FormulaKind::Record) return;
  for (const FormulaPtr& a : f->args()) referencedLabels(a, out);
}

bool isPlainField(const Field& f, const char* type) {
  return f.label != "head" && f.dsType && f.dsType->toString() == type;
}

// The entity that fills `role` (`subj`, `obj`, `ind_obj`) of `event` in the target, if a field
// `p==role(event, x)` says so; empty otherwise. A functor's arguments follow the tree: the
// subject is the outermost (R1, or R of an e>t), the object the next (R2), the indirect object
// the innermost (R3) — the authors' learned verbs all have this shape, and the other orders only
// add spurious hypotheses that reach the same record type.
std::string roleFiller(const RecordType& target, const std::string& event, const char* role) {
  for (const Field& p : target.fields()) {
    if (!p.value || p.value->kind() != FormulaKind::Apply || p.value->name() != role ||
        p.value->args().size() != 2)
      continue;
    const FormulaPtr& e = p.value->args()[0];
    const FormulaPtr& x = p.value->args()[1];
    if (e->kind() == FormulaKind::Symbol && e->name() == event && x->kind() == FormulaKind::Symbol)
      return x->name();
  }
  return {};
}

// Whether the action surely does nothing on `tree` because its first IF's first condition, a
// plain type or type requirement of the pointed node (`?ty(e>t)`, `ty(cn)`), is missing and
// its ELSE aborts: a quick test that spares the general condition solver most tree-building
// actions, which all start so.
bool firstConditionFails(const DsAction& action, const DsTree& tree) {
  if (action.effects.empty() || action.effects.front().kind != EffectKind::IfThenElse) return false;
  const IfThenElse& block = *action.effects.front().branch;
  if (block.conditions.empty() || block.elseEffects.size() != 1 ||
      block.elseEffects.front().kind != EffectKind::Abort)
    return false;
  const LabelPtr& c = block.conditions.front();
  const Label* type = c->kind() == LabelKind::Requirement ? c->child().get() : c.get();
  if (type->kind() != LabelKind::Type || type->isWildcard() || !type->dsType().valid())
    return false;
  for (const char ch : c->text())
    if (ch >= 'A' && ch <= 'Z') return false;  // a type variable
  return tree.pointedNode().find(c->text()) == nullptr;
}

// The e>cn content blocks for a restrictor's one-place predicates of its entity.
std::vector<std::string> restrictorPredicates(const RecordType& restrictor) {
  std::vector<std::string> out;
  const Field* head = restrictor.find("head");
  if (head == nullptr || !head->value || head->value->kind() != FormulaKind::Symbol) return out;
  for (const Field& p : restrictor.fields()) {
    if (!isPlainField(p, "t") || !p.value || p.value->kind() != FormulaKind::Apply ||
        p.value->args().size() != 1)
      continue;
    const FormulaPtr& a = p.value->args()[0];
    if (a->kind() != FormulaKind::Symbol || a->name() != head->value->name()) continue;
    out.push_back(contentBlock("e>cn", "R1^(R1 ++ [head==R1.head : e|" + p.label +
                                           "==" + p.value->name() + "(R1.head) : t])"));
  }
  return out;
}

// How a t-field p(args...) of `target` reads in the content of a verb whose event field is
// `event`, with the role fields `roles` (label -> the path that stands for it, "R1.head") bound;
// an argument naming several roles takes the first.
struct PredicateReading {
  bool aboutEvent = false;     // an argument is the event
  bool onlyRoles = true;       // no argument names a field other than the event and the roles
  std::vector<char> roleUsed;  // per role: an argument is it
  std::string args;            // the arguments, the roles rewritten to their paths
};

PredicateReading readPredicate(const Field& p, const RecordType& target, const std::string& event,
                               const std::vector<std::pair<std::string, std::string>>& roles) {
  PredicateReading reading;
  reading.roleUsed.assign(roles.size(), 0);
  for (const FormulaPtr& a : p.value->args()) {
    const bool symbol = a->kind() == FormulaKind::Symbol;
    const bool isEvent = symbol && a->name() == event;
    const std::string* path = nullptr;
    for (std::size_t k = 0; k < roles.size() && path == nullptr; ++k) {
      if (symbol && a->name() == roles[k].first) {
        path = &roles[k].second;
        reading.roleUsed[k] = 1;
      }
    }
    reading.aboutEvent = reading.aboutEvent || isEvent;
    const bool refersToField =
        (symbol || a->kind() == FormulaKind::Path) && target.hasLabel(a->name());
    if (!isEvent && path == nullptr && refersToField) reading.onlyRoles = false;
    reading.args += (reading.args.empty() ? "" : ", ") + (path != nullptr ? *path : a->text());
  }
  return reading;
}

bool fillsRole(const std::string& label, const std::string& filler) {
  return filler.empty() || filler == label;
}

}  // namespace

DsTree axiomFor(const RecordType& target) {
  DsTree axiom;
  const Field* head = target.find("head");
  if (head != nullptr && head->dsType && head->dsType->toString() == "e") {
    // A noun-phrase fragment ("more juice", "Eve"): its record type is headed by an entity, so
    // no tree of type t has it at the root; the search starts from ?ty(e).
    axiom.removeLabel(NodeAddress(), Label::requirement(Label::type(DsType::basic("t")))->text());
    axiom.addLabel(NodeAddress(), Label::requirement(Label::type(DsType::basic("e"))));
  }
  return axiom;
}

namespace {
// DyLan's three LINK-adjunction macros of a ?ty(t) tree, matched by their exact names (another
// action whose name merely begins like them is an ordinary tree-building action).
bool isSpecificLinkMacro(const std::string& name) {
  return name == "hyp-adj-t" || name == "hyp-adj-t-init" || name == "hyp-adj-t-req-et";
}
}  // namespace

HypothesisSearch::HypothesisSearch(const DsGrammar& seed)
    : seed_(seed), optional_(seed.optionalActions()), nonOptional_(seed.nonOptionalActions()) {
  // LINK adjunction of a ?ty(t) tree, as DyLan's hypothesiser does it: the specific macros
  // (hyp-adj-t off a ty(t) node, hyp-adj-t-init off the axiom, hyp-adj-t-req-et off a ?ty(e>t)
  // node) say where a LINKed tree may be hypothesised, and a word learns hyp-adj-t-generic,
  // whose IF is their union and whose THEN is theirs. The generic one is not searched itself
  // (it would add each of their trees a second time, as a different hypothesis).
  const DsAction* generic = seed.findAction("hyp-adj-t-generic");
  // A seed with the generic action and none of the specific macros (nothing would search LINK
  // adjunction of a ?ty(t) tree then) searches the generic one itself, as before.
  bool specific = false;
  for (const DsAction& a : seed.computational)
    specific = specific || (a.hypothesis && isSpecificLinkMacro(a.name));
  if (!specific) generic = nullptr;
  for (const DsAction& a : seed.computational) {
    // hyp-adj-cn-e only comes with its e>cn content (see contentActions).
    if (!a.hypothesis || a.name == "hyp-adj-cn-e") continue;
    if (generic != nullptr && &a == generic) continue;
    const bool linkT = generic != nullptr && isSpecificLinkMacro(a.name);
    treeBuilding_.push_back(&a);
    treeBuildingText_.push_back(linkT ? generic->toString() : a.toString());
    treeBuildingName_.push_back(linkT ? generic->name : a.name);
  }
}

std::vector<std::string> HypothesisSearch::contentActions(const DsType& required,
                                                          const RecordType& target) const {
  std::vector<std::string> out;
  const std::string type = required.toString();
  if (type == "e") {
    for (const Field& f : target.fields()) {
      if (!isPlainField(f, "e")) continue;
      std::set<std::string> refs;
      referencedLabels(f.value, &refs);
      std::string fields;
      for (const Field& r : target.fields())
        if (refs.count(r.label) > 0 && !r.dsType) fields += r.toString() + "|";
      out.push_back(contentBlock("e", "[" + fields + f.toString() + "|head==" + f.label + " : e]"));
    }
  } else if (type == "e>t") {
    for (const Field& event : target.fields()) {
      if (!isPlainField(event, "es")) continue;
      const std::string subjectRole = roleFiller(target, event.label, "subj");
      for (const Field& entity : target.fields()) {
        if (!isPlainField(entity, "e") || !fillsRole(entity.label, subjectRole)) continue;
        // Two variants: with the event's one-place features (tense, aspect, negation: t-fields
        // about the event alone), or without them (left to LINKed content of other words).
        for (const bool withFeatures : {false, true}) {
          std::string fields = event.toString();
          bool hasFeature = false;
          for (const Field& p : target.fields()) {
            if (!isPlainField(p, "t") || !p.value || p.value->kind() != FormulaKind::Apply)
              continue;
            bool aboutEvent = false;
            bool onlyThese = true;
            std::string args;
            for (const FormulaPtr& a : p.value->args()) {
              const bool symbol = a->kind() == FormulaKind::Symbol;
              const bool isEvent = symbol && a->name() == event.label;
              const bool isEntity = symbol && a->name() == entity.label;
              aboutEvent = aboutEvent || isEvent;
              const bool refersToField =
                  (symbol || a->kind() == FormulaKind::Path) && target.hasLabel(a->name());
              if (!isEvent && !isEntity && refersToField) onlyThese = false;
              args += (args.empty() ? "" : ", ") + (isEntity ? std::string("R.head") : a->text());
            }
            if (!aboutEvent || !onlyThese) continue;
            const bool feature = p.value->args().size() == 1;
            hasFeature = hasFeature || feature;
            if (feature && !withFeatures) continue;
            fields += "|" + p.label + "==" + p.value->name() + "(" + args + ") : t";
          }
          if (withFeatures && !hasFeature) break;
          out.push_back(
              contentBlock("e>t", "R^(R ++ [" + fields + "|head==" + event.label + " : es])"));
        }
      }
    }
  } else if (type == "cn>e") {
    // A determiner: `R1^[r : R1|x==det(r.head, r) : e|head==x : e]` for each e-field whose
    // value is a predicate over a restrictor.
    for (const Field& f : target.fields()) {
      if (!isPlainField(f, "e") || !f.value || f.value->kind() != FormulaKind::Apply) continue;
      std::string restrictor;
      for (const FormulaPtr& a : f.value->args()) {
        const Field* r = a->kind() == FormulaKind::Symbol ? target.find(a->name()) : nullptr;
        if (r != nullptr && !r->dsType && r->value && r->value->isRecord()) restrictor = r->label;
      }
      if (restrictor.empty()) continue;
      std::string args;
      for (const FormulaPtr& a : f.value->args()) {
        std::string text = a->text();
        if (a->kind() == FormulaKind::Symbol && a->name() == restrictor) text = "r";
        if (a->kind() == FormulaKind::Path && a->name() == restrictor) text = "r.head";
        args += (args.empty() ? "" : ", ") + text;
      }
      out.push_back(contentBlock("cn>e", "R1^[r : R1|" + f.label + "==" + f.value->name() + "(" +
                                             args + ") : e|head==" + f.label + " : e]"));
    }
  } else if (type == "cn") {
    // A noun: the record type of a restrictor; or, as the authors' nouns are, only its entity
    // (`[x : e|head==x : e]`) followed by a LINKed cn tree (hyp-adj-cn-e) whose e>cn content
    // adds one of the restrictor's predicates — one word's action of three IF blocks.
    const DsAction* adjunction = seed_.findAction("hyp-adj-cn-e");
    for (const Field& f : target.fields()) {
      if (f.dsType || !f.value || !f.value->isRecord()) continue;
      out.push_back(contentBlock("cn", f.value->text()));
      const RecordType& restrictor = f.value->recordType();
      const Field* head = restrictor.find("head");
      if (adjunction == nullptr || head == nullptr || !head->value ||
          head->value->kind() != FormulaKind::Symbol)
        continue;
      const std::string bare = contentBlock(
          "cn", "[" + head->value->name() + " : e|head==" + head->value->name() + " : e]");
      for (const std::string& predicate : restrictorPredicates(restrictor))
        out.push_back(bare + "\n" + adjunction->toString() + "\n" + predicate);
    }
  } else if (type == "e>cn") {
    // An adjective or a noun on a LINKed cn tree: `R1^(R1 ++ [head==R1.head : e|p==f(R1.head) :
    // t])` for each one-place predicate of a restrictor's entity.
    std::set<std::string> seen;
    for (const Field& f : target.fields())
      if (!f.dsType && f.value && f.value->isRecord())
        for (const std::string& block : restrictorPredicates(f.value->recordType()))
          if (seen.insert(block).second) out.push_back(block);
  } else if (type == "e>(e>(e>t))") {
    // A ditransitive verb: `R3^R2^R1^(R3 ++ (R2 ++ (R1 ++ [...])))`, the innermost argument
    // (R3) and the object (R2) each in a two-place predicate with the event, R1 the subject.
    for (const Field& event : target.fields()) {
      if (!isPlainField(event, "es")) continue;
      std::vector<const Field*> entities;
      for (const Field& e : target.fields())
        if (isPlainField(e, "e")) entities.push_back(&e);
      const std::string subjectRole = roleFiller(target, event.label, "subj");
      const std::string objectRole = roleFiller(target, event.label, "obj");
      const std::string thirdRole = roleFiller(target, event.label, "ind_obj");
      for (const Field* third : entities)
        for (const Field* object : entities)
          for (const Field* subject : entities) {
            if (third == object || third == subject || object == subject) continue;
            if (!fillsRole(subject->label, subjectRole) || !fillsRole(object->label, objectRole) ||
                !fillsRole(third->label, thirdRole))
              continue;
            std::string fields = event.toString();
            bool usesThird = false;
            bool usesObject = false;
            for (const Field& p : target.fields()) {
              if (!isPlainField(p, "t") || !p.value || p.value->kind() != FormulaKind::Apply)
                continue;
              const PredicateReading reading = readPredicate(p, target, event.label,
                                                             {{third->label, "R3.head"},
                                                              {object->label, "R2.head"},
                                                              {subject->label, "R1.head"}});
              usesThird = usesThird || reading.roleUsed[0] != 0;
              usesObject = usesObject || reading.roleUsed[1] != 0;
              const bool aboutEvent = reading.aboutEvent;
              const bool onlyThese = reading.onlyRoles;
              const std::string& args = reading.args;
              if (aboutEvent && onlyThese)
                fields += "|" + p.label + "==" + p.value->name() + "(" + args + ") : t";
            }
            if (usesThird && usesObject)
              out.push_back(contentBlock("e>(e>(e>t))", "R3^R2^R1^(R3 ++ (R2 ++ (R1 ++ [" + fields +
                                                            "|head==" + event.label + " : es])))"));
          }
    }
  } else if (type == "e>(e>t)") {
    // A transitive verb: `R2^R1^(R2 ++ (R1 ++ [event | its t-fields, the object as R2.head and
    // the subject as R1.head | head==event]))` for each event and ordered pair of entities.
    for (const Field& event : target.fields()) {
      if (!isPlainField(event, "es")) continue;
      const std::string subjectRole = roleFiller(target, event.label, "subj");
      const std::string objectRole = roleFiller(target, event.label, "obj");
      for (const Field& object : target.fields()) {
        if (!isPlainField(object, "e") || !fillsRole(object.label, objectRole)) continue;
        for (const Field& subject : target.fields()) {
          if (!isPlainField(subject, "e") || subject.label == object.label ||
              !fillsRole(subject.label, subjectRole))
            continue;
          // Without the event's one-place features (left to LINKed content), then with them.
          for (const bool withFeatures : {false, true}) {
            std::string fields = event.toString();
            bool usesObject = false;
            bool hasFeature = false;
            for (const Field& p : target.fields()) {
              if (!isPlainField(p, "t") || !p.value || p.value->kind() != FormulaKind::Apply)
                continue;
              const PredicateReading reading = readPredicate(
                  p, target, event.label, {{object.label, "R2.head"}, {subject.label, "R1.head"}});
              usesObject = usesObject || reading.roleUsed[0] != 0;
              const bool aboutEvent = reading.aboutEvent;
              const bool onlyThese = reading.onlyRoles;
              const std::string& args = reading.args;
              if (!aboutEvent || !onlyThese) continue;
              const bool feature = p.value->args().size() == 1;
              hasFeature = hasFeature || feature;
              if (feature && !withFeatures) continue;
              fields += "|" + p.label + "==" + p.value->name() + "(" + args + ") : t";
            }
            if (withFeatures && !hasFeature) break;
            if (usesObject)
              out.push_back(contentBlock("e>(e>t)", "R2^R1^(R2 ++ (R1 ++ [" + fields +
                                                        "|head==" + event.label + " : es]))"));
          }
        }
      }
    }
  } else if (type == "t") {
    // LINKed content: one feature of the event (`[head : es|p==will_aux_feature(head) : t]`),
    // conjoined into the main tree by link evaluation.
    for (const Field& p : target.fields()) {
      if (!isPlainField(p, "t") || !p.value || p.value->kind() != FormulaKind::Apply ||
          p.value->args().size() != 1)
        continue;
      const FormulaPtr& a = p.value->args()[0];
      const Field* event = a->kind() == FormulaKind::Symbol ? target.find(a->name()) : nullptr;
      if (event == nullptr || !event->dsType || event->dsType->toString() != "es") continue;
      out.push_back(
          contentBlock("t", "[head : es|" + p.label + "==" + p.value->name() + "(head) : t]"));
    }
  }
  return out;
}

std::vector<std::vector<PathStep>> HypothesisSearch::paths(const SemanticExample& example,
                                                           const HypothesisSearchOptions& options,
                                                           std::string* note) const {
  const std::vector<std::string> words = splitWords(example.sentence);
  const int n = static_cast<int>(words.size());
  const RecordType& target = example.semantics;

  // Content actions, parsed once per example and type.
  std::map<std::string, std::vector<std::pair<std::string, DsAction>>> content;
  for (const char* type : {"e", "e>t", "t", "cn>e", "cn", "e>(e>t)", "e>(e>(e>t))"}) {
    const std::optional<DsType> t = DsType::parse(type);
    if (!t) continue;
    for (const std::string& block : contentActions(*t, target)) {
      Diagnostics diagnostics;
      std::vector<LexicalEntry> parsed =
          parseLearnedLexicon("[1,0]\nw\n" + block + "\n", "<content hypothesis>", diagnostics);
      if (parsed.size() == 1 && !diagnostics.hasErrors())
        content[type].emplace_back(block, std::move(parsed[0].action));
    }
  }

  // A further adjective or noun on a cn node that has its content: a LINKed cn tree
  // (hyp-adj-cn-e) with e>cn content, one word's action of two IF blocks, one content step.
  std::vector<std::pair<std::string, DsAction>> linkedCn;
  if (const DsAction* adjunction = seed_.findAction("hyp-adj-cn-e"))
    for (const std::string& block : contentActions(DsType::parse("e>cn").value(), target)) {
      const std::string text = adjunction->toString() + "\n" + block;
      Diagnostics diagnostics;
      std::vector<LexicalEntry> parsed =
          parseLearnedLexicon("[1,0]\nw\n" + text + "\n", "<content hypothesis>", diagnostics);
      if (parsed.size() == 1 && !diagnostics.hasErrors())
        linkedCn.emplace_back(text, std::move(parsed[0].action));
    }
  const int maxContents = n;

  // The successful part of the search space, as a DAG: every state from which the target can
  // be reached is expanded once and keeps its successful steps, so a state met again by another
  // order of the same steps is not searched again. The paths are read off the DAG at the end,
  // in the order a plain depth-first search would have found them.
  struct SuccessNode {
    bool terminal = false;                           // a complete tree with the target at its root
    std::vector<std::pair<PathStep, int>> children;  // successful steps and the states they reach
    std::size_t paths = 0;                           // paths below (saturating at maxPaths)
  };
  std::vector<SuccessNode> dag;
  std::unordered_map<std::string, int> succeeded;  // state -> node in `dag`
  // Trees known to lead nowhere, each with the (content steps, lexical runs, last step
  // lexical) it was met with: a tree met again with no fewer content steps and runs used
  // (and not newly able to extend a lexical run) leads nowhere either.
  struct DeadMark {
    int contents;
    int runs;
    bool lastLexical;
  };
  std::unordered_map<std::string, std::vector<DeadMark>> dead;
  auto knownDead = [&](const std::string& key, int contents, int runs, bool lastLexical) {
    const auto it = dead.find(key);
    if (it == dead.end()) return false;
    for (const DeadMark& m : it->second)
      if (contents >= m.contents && runs >= m.runs && (m.lastLexical || !lastLexical)) return true;
    return false;
  };
  std::unordered_set<std::string> onPath;
  std::size_t expansions = 0;
  std::size_t pathsSoFar = 0;  // paths a plain depth-first search would have found by now
  int depth = 0;
  bool budgetHit = false;
  const std::size_t pathCap = std::max<std::size_t>(1, options.maxPaths);

  const RecordType targetContent = target.withoutHead();
  // Nodes that still need a content step of their own: a type requirement, no formula, no
  // daughters. Each takes one word's content, so there can be no more of them than words left.
  auto openLeaves = [](const DsTree& tree) {
    int open = 0;
    for (std::size_t i = 0; i < tree.size(); ++i) {
      const DsNode& node = tree.node(i);
      if (!node.requiredType().valid() || node.formula()) continue;
      if (tree.contains(node.address.down("0")) || tree.contains(node.address.down("1"))) continue;
      ++open;
    }
    return open;
  };
  auto compatible = [&](const DsTree& tree) {
    const FormulaPtr m = maximalSemantics(tree);
    if (!m || !m->isRecord()) return true;
    // The head moves as the tree grows (the subject's head, then the event's): not compared.
    if (isSubtype(target, m->recordType())) return true;
    // A partial tree's head is wherever the content so far points (the subject's, before the
    // predicate comes), and one-place features (tense, aspect) hang on it: both are left out.
    const RecordType& r = m->recordType();
    const Field* head = r.find("head");
    const std::string headValue =
        head != nullptr && head->value && head->value->kind() == FormulaKind::Symbol
            ? head->value->name()
            : std::string("head");
    RecordType kept;
    for (const Field& f : r.fields()) {
      if (f.label == "head") continue;
      if (f.value && f.value->kind() == FormulaKind::Apply && f.value->args().size() == 1) {
        const FormulaPtr& a = f.value->args()[0];
        if (a->kind() == FormulaKind::Symbol && (a->name() == headValue || a->name() == "head"))
          continue;
      }
      kept.put(f);
    }
    return isSubtype(targetContent, kept);
  };

  std::unordered_map<std::string, bool> compatibleTrees;  // pointer-free key -> compatible

  // Returns the state's node in `dag` if some success lies below, else -1.
  std::function<int(const DsTree&, int, int, bool)> search =
      [&](const DsTree& tree, int contents, int runs, bool lastLexical) -> int {
    if (pathsSoFar >= pathCap || expansions >= options.maxExpansions) {
      budgetHit = true;
      return -1;
    }
    if (tree.isComplete()) {
      const DsNode* root = tree.find(NodeAddress());
      const FormulaPtr f = root != nullptr ? root->formula() : nullptr;
      if (f && f->isRecord() && contents <= maxContents && runs <= n &&
          equalUpToRelabelling(f->recordType(), target)) {
        dag.push_back({true, {}, 1});
        ++pathsSoFar;
        return static_cast<int>(dag.size()) - 1;
      }
      return -1;
    }
    if (depth >= options.maxSteps) return -1;
    const std::string key = tree.key();
    std::string state = key + "#" + std::to_string(contents) + "#" + std::to_string(runs) +
                        (lastLexical ? "L" : "C");
    if (const auto it = succeeded.find(state); it != succeeded.end()) {
      pathsSoFar += dag[static_cast<std::size_t>(it->second)].paths;
      return it->second;
    }
    if (knownDead(key, contents, runs, lastLexical) || onPath.count(key) > 0) return -1;
    ++expansions;
    onPath.insert(key);
    std::vector<std::pair<PathStep, int>> children;
    auto tryChild = [&](const DsTree& child, PathStep step, int newContents) {
      DsTree closed = applyClosure(nonOptional_, child);
      const std::string childKey = closed.key();
      if (childKey == key) return;
      if (openLeaves(closed) > maxContents - newContents) return;
      // The same tree is met along many orders of the same steps, and with the pointer at
      // different nodes (the maximal semantics does not depend on it): its check is kept, by
      // the key without the pointer (the key's first field).
      auto [known, fresh] = compatibleTrees.emplace(childKey.substr(childKey.find('|')), false);
      if (fresh) known->second = compatible(closed);
      if (!known->second) return;
      const bool lexical = step.lexical;
      const int newRuns = runs + (lexical && !lastLexical ? 1 : 0);
      if (newRuns > n) return;
      ++depth;
      const int below = search(closed, newContents, newRuns, lexical);
      --depth;
      if (below >= 0) children.emplace_back(std::move(step), below);
    };
    for (const DsAction* a : optional_)
      if (!firstConditionFails(*a, tree))
        for (const DsTree& child : applyAction(*a, tree))
          tryChild(child, {false, a->name}, contents);
    const DsType required = tree.pointedNode().requiredType();
    if (contents < maxContents && required.valid()) {
      const auto it = content.find(required.toString());
      if (it != content.end())
        for (const auto& [block, action] : it->second)
          if (!firstConditionFails(action, tree))
            for (const DsTree& child : applyAction(action, tree))
              tryChild(child, {true, block}, contents + 1);
    }
    if (contents < maxContents)
      for (const auto& [text, action] : linkedCn)
        if (!firstConditionFails(action, tree))
          for (const DsTree& child : applyAction(action, tree))
            tryChild(child, {true, text}, contents + 1);
    if (contents < maxContents)
      for (std::size_t b = 0; b < treeBuilding_.size(); ++b)
        if (!firstConditionFails(*treeBuilding_[b], tree))
          for (const DsTree& child : applyAction(*treeBuilding_[b], tree))
            tryChild(child, {true, treeBuildingText_[b]}, contents);
    onPath.erase(key);
    if (children.empty()) {
      if (!budgetHit) dead[key].push_back({contents, runs, lastLexical});
      return -1;
    }
    SuccessNode node;
    for (const auto& [step, below] : children)
      node.paths = std::min(pathCap, node.paths + dag[static_cast<std::size_t>(below)].paths);
    node.children = std::move(children);
    dag.push_back(std::move(node));
    const int index = static_cast<int>(dag.size()) - 1;
    // A state cut short by the budget may have more successes: it is not reused.
    if (!budgetHit) succeeded.emplace(std::move(state), index);
    return index;
  };
  const int root = search(axiomFor(target), 0, 0, false);

  // The paths, depth first in the search's order, at most maxPaths of them.
  std::vector<std::vector<PathStep>> found;
  std::vector<PathStep> path;
  std::function<void(int)> collect = [&](int index) {
    if (found.size() >= pathCap) return;
    const SuccessNode& node = dag[static_cast<std::size_t>(index)];
    if (node.terminal) found.push_back(path);
    for (const auto& [step, below] : node.children) {
      if (found.size() >= pathCap) return;
      path.push_back(step);
      collect(below);
      path.pop_back();
    }
  };
  if (root >= 0) collect(root);
  if (note != nullptr) {
    note->clear();
    if (budgetHit)
      *note = "search stopped at its budget (" + std::to_string(expansions) + " trees, " +
              std::to_string(found.size()) + " paths)";
  }
  return found;
}

ExampleHypotheses HypothesisSearch::hypotheses(const SemanticExample& example,
                                               const HypothesisSearchOptions& options) const {
  std::string note;
  const std::vector<std::vector<PathStep>> found = paths(example, options, &note);
  ExampleHypotheses h =
      collectWordHypotheses(splitWords(example.sentence), found, options.maxTuples);
  if (!note.empty()) {
    h.budgetHit = true;
    h.note = note + (h.note.empty() ? "" : "; " + h.note);
  }
  return h;
}

std::vector<int> HypothesisDerivation::hypothesisEdges() const {
  std::vector<int> edges;
  for (std::size_t i = 0; i < stepWord.size(); ++i)
    if (wordIndex >= 0 && stepWord[i] == wordIndex) edges.push_back(static_cast<int>(i));
  return edges;
}

namespace {

// The label of a lexical step's edge: a seed tree-building action by name, content by the
// condition of its first IF.
std::string lexicalStepLabel(const std::string& text,
                             const std::vector<std::string>& treeBuildingName,
                             const std::vector<std::string>& treeBuildingText) {
  for (std::size_t b = 0; b < treeBuildingText.size(); ++b)
    if (treeBuildingText[b] == text) return treeBuildingName[b];
  std::string first = text.substr(0, text.find('\n'));
  if (first.rfind("IF", 0) == 0) first = first.substr(2);
  const std::size_t begin = first.find_first_not_of(' ');
  return "content " + (begin == std::string::npos ? std::string() : first.substr(begin));
}

}  // namespace

HypothesisDerivation HypothesisSearch::derivation(const SemanticExample& example,
                                                  const std::string& word, const std::string& key,
                                                  const HypothesisSearchOptions& options) const {
  HypothesisDerivation d;
  const std::vector<std::string> words = splitWords(example.sentence);
  std::string note;
  const std::vector<std::vector<PathStep>> found = paths(example, options, &note);
  for (const std::vector<PathStep>& path : found) {
    const std::size_t limit = options.maxTuples == 0 ? 0 : options.maxTuples + 1;
    for (const std::vector<int>& assignment : wordAssignments(path, words.size(), limit)) {
      const std::vector<std::string> texts = wordActions(path, assignment, words.size());
      for (std::size_t w = 0; w < words.size() && d.wordIndex < 0; ++w)
        if (words[w] == word && canonicalHypothesisKey(texts[w]) == key) {
          d.wordIndex = static_cast<int>(w);
          d.path = path;
          d.stepWord = assignment;
        }
      if (d.found()) break;
    }
    if (d.found()) break;
  }
  if (!d.found()) {
    d.note = found.empty() ? "no action sequence reaches the item's record type"
                           : "no path of the item gives \"" + word + "\" this hypothesis";
    if (!note.empty()) d.note += " (" + note + ")";
    return d;
  }

  // The steps' actions: computational ones from the seed, lexical ones parsed from their text.
  std::vector<std::optional<DsAction>> parsed(d.path.size());
  std::vector<const DsAction*> actions(d.path.size(), nullptr);
  for (std::size_t i = 0; i < d.path.size(); ++i) {
    const PathStep& step = d.path[i];
    if (!step.lexical) {
      actions[i] = seed_.findAction(step.action);
    } else {
      Diagnostics diagnostics;
      std::vector<LexicalEntry> entries =
          parseLearnedLexicon("[1,0]\nw\n" + step.action + "\n", "<hypothesis step>", diagnostics);
      if (entries.size() == 1 && !diagnostics.hasErrors()) {
        parsed[i] = std::move(entries[0].action);
        actions[i] = &*parsed[i];
      }
    }
    if (actions[i] == nullptr) {
      d.note = "step " + std::to_string(i + 1) + " (" + step.action + ") cannot be replayed";
      d.wordIndex = -1;
      return d;
    }
  }

  // Replay: the first choice of trees (an action can give several) that ends at the target.
  struct Replayed {
    DsTree tree;
    std::vector<std::string> closure;
  };
  std::vector<Replayed> trees;
  std::function<bool(const DsTree&, std::size_t)> replay = [&](const DsTree& tree,
                                                               std::size_t step) {
    if (step == d.path.size()) {
      if (!tree.isComplete()) return false;
      const DsNode* root = tree.find(NodeAddress());
      const FormulaPtr f = root != nullptr ? root->formula() : nullptr;
      return f && f->isRecord() && equalUpToRelabelling(f->recordType(), example.semantics);
    }
    for (const DsTree& child : applyAction(*actions[step], tree)) {
      Replayed next;
      next.tree = applyClosure(nonOptional_, child, &next.closure);
      const DsTree closed = next.tree;
      trees.push_back(std::move(next));
      if (replay(closed, step + 1)) return true;
      trees.pop_back();
    }
    return false;
  };
  const DsTree axiom = axiomFor(example.semantics);
  if (!replay(axiom, 0)) {
    d.note = "the path does not replay to the item's record type";
    d.wordIndex = -1;
    return d;
  }

  DsParseResult& r = d.replay;
  DagNode start;
  start.tree = std::make_shared<const DsTree>(axiom);
  r.dag.addNode(std::move(start));
  int consumed = 0;
  for (std::size_t i = 0; i < d.path.size(); ++i) {
    const PathStep& step = d.path[i];
    if (step.lexical) consumed = std::max(consumed, d.stepWord[i] + 1);
    DagNode node;
    node.tree = std::make_shared<const DsTree>(trees[i].tree);
    node.wordsConsumed = consumed;
    node.complete = trees[i].tree.isComplete();
    const int to = r.dag.addNode(std::move(node));
    DagEdge edge;
    edge.from = to - 1;
    edge.to = to;
    edge.lexical = step.lexical;
    edge.action = step.lexical ? lexicalStepLabel(step.action, treeBuildingName_, treeBuildingText_)
                               : step.action;
    if (step.lexical) {
      edge.wordIndex = d.stepWord[i];
      edge.word = words[static_cast<std::size_t>(d.stepWord[i])];
    }
    edge.closure = trees[i].closure;
    r.path.push_back(r.dag.addEdge(std::move(edge)));
  }
  r.outcome = ParseOutcome::Parsed;
  r.finalNode = static_cast<int>(r.dag.nodes().size()) - 1;
  const DsTree& last = *r.dag.node(r.finalNode).tree;
  r.rootFormula = last.find(NodeAddress())->formula();
  r.maximalSemantics = maximalSemantics(last);
  return d;
}

}  // namespace gwb::ds
