#include "gwb/ds/hypothesis_search.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
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

// How a t-field p(args…) of `target` reads in the content of a verb whose event field is
// `event`, with the role fields `roles` (label → the path that stands for it, "R1.head") bound.
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

// A t-field that is a predicate application (the candidates for a verb's content).
bool isPredicateField(const Field& p) {
  return isPlainField(p, "t") && p.value && p.value->kind() == FormulaKind::Apply;
}

}  // namespace

HypothesisSearch::HypothesisSearch(const DsGrammar& seed)
    : seed_(seed), optional_(seed.optionalActions()), nonOptional_(seed.nonOptionalActions()) {
  for (const DsAction& a : seed.computational)
    if (a.hypothesis) treeBuilding_.push_back(&a);
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
      for (const Field& entity : target.fields()) {
        if (!isPlainField(entity, "e")) continue;
        // Two variants: with the event's one-place features (tense, aspect, negation: t-fields
        // about the event alone), or without them (left to LINKed content of other words).
        for (const bool withFeatures : {true, false}) {
          std::string fields = event.toString();
          bool hasFeature = false;
          for (const Field& p : target.fields()) {
            if (!isPredicateField(p)) continue;
            const PredicateReading reading =
                readPredicate(p, target, event.label, {{entity.label, "R.head"}});
            if (!reading.aboutEvent || !reading.onlyRoles) continue;
            const bool feature = p.value->args().size() == 1;
            hasFeature = hasFeature || feature;
            if (feature && !withFeatures) continue;
            fields += "|" + p.label + "==" + p.value->name() + "(" + reading.args + ") : t";
          }
          out.push_back(
              contentBlock("e>t", "R^(R ++ [" + fields + "|head==" + event.label + " : es])"));
          if (!hasFeature) break;
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
    // A noun: the record type of a restrictor.
    for (const Field& f : target.fields())
      if (!f.dsType && f.value && f.value->isRecord())
        out.push_back(contentBlock("cn", f.value->text()));
  } else if (type == "e>(e>t)") {
    // A transitive verb: `R2^R1^(R2 ++ (R1 ++ [event | its t-fields, the object as R2.head and
    // the subject as R1.head | head==event]))` for each event and ordered pair of entities.
    for (const Field& event : target.fields()) {
      if (!isPlainField(event, "es")) continue;
      for (const Field& object : target.fields()) {
        if (!isPlainField(object, "e")) continue;
        for (const Field& subject : target.fields()) {
          if (!isPlainField(subject, "e") || subject.label == object.label) continue;
          std::string fields = event.toString();
          bool usesObject = false;
          for (const Field& p : target.fields()) {
            if (!isPredicateField(p)) continue;
            const PredicateReading reading = readPredicate(
                p, target, event.label, {{object.label, "R2.head"}, {subject.label, "R1.head"}});
            usesObject = usesObject || reading.roleUsed[0] != 0;
            if (reading.aboutEvent && reading.onlyRoles)
              fields += "|" + p.label + "==" + p.value->name() + "(" + reading.args + ") : t";
          }
          if (usesObject)
            out.push_back(contentBlock("e>(e>t)", "R2^R1^(R2 ++ (R1 ++ [" + fields +
                                                      "|head==" + event.label + " : es]))"));
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
  for (const char* type : {"e", "e>t", "t", "cn>e", "cn", "e>(e>t)"}) {
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

  std::vector<std::vector<PathStep>> found;
  std::vector<PathStep> path;
  std::set<std::string> onPath;
  std::set<std::string> dead;  // states known to lead nowhere
  std::size_t expansions = 0;
  bool budgetHit = false;

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

  // Returns whether some success lies below.
  std::function<bool(const DsTree&, int, int, bool)> search =
      [&](const DsTree& tree, int contents, int runs, bool lastLexical) -> bool {
    if (found.size() >= options.maxPaths || expansions >= options.maxExpansions) {
      budgetHit = true;
      return false;
    }
    if (tree.isComplete()) {
      const DsNode* root = tree.find(NodeAddress());
      const FormulaPtr f = root != nullptr ? root->formula() : nullptr;
      if (f && f->isRecord() && contents <= n && runs <= n &&
          equalUpToRelabelling(f->recordType(), target)) {
        found.push_back(path);
        return true;
      }
      return false;
    }
    if (static_cast<int>(path.size()) >= options.maxSteps) return false;
    const std::string key = tree.key();
    const std::string state = key + "#" + std::to_string(contents) + "#" + std::to_string(runs) +
                              (lastLexical ? "L" : "C");
    if (dead.count(state) > 0 || onPath.count(key) > 0) return false;
    ++expansions;
    onPath.insert(key);
    bool success = false;
    auto tryChild = [&](const DsTree& child, PathStep step, int newContents) {
      DsTree closed = applyClosure(nonOptional_, child);
      if (closed.key() == key) return;
      if (openLeaves(closed) > n - newContents || !compatible(closed)) return;
      const bool lexical = step.lexical;
      const int newRuns = runs + (lexical && !lastLexical ? 1 : 0);
      if (newRuns > n) return;
      path.push_back(std::move(step));
      if (search(closed, newContents, newRuns, lexical)) success = true;
      path.pop_back();
    };
    for (const DsAction* a : optional_)
      for (const DsTree& child : applyAction(*a, tree)) tryChild(child, {false, a->name}, contents);
    const DsType required = tree.pointedNode().requiredType();
    if (contents < n && required.valid()) {
      const auto it = content.find(required.toString());
      if (it != content.end())
        for (const auto& [block, action] : it->second)
          for (const DsTree& child : applyAction(action, tree))
            tryChild(child, {true, block}, contents + 1);
    }
    if (contents < n)
      for (const DsAction* a : treeBuilding_)
        for (const DsTree& child : applyAction(*a, tree))
          tryChild(child, {true, a->toString()}, contents);
    onPath.erase(key);
    if (!success && !budgetHit) dead.insert(state);
    return success;
  };
  search(DsTree(), 0, 0, false);
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

}  // namespace gwb::ds
