#include "gwb/ds/max_mapping.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace gwb::ds {

namespace {

// One comparable part of a value: a reference to a field of the same record type (a label,
// possibly followed by a path such as `.head`), or anything else, compared by its text.
struct Part {
  bool label = false;
  std::string name;    // the label, or the text
  std::string suffix;  // ".head" for the path `r.head`
};

struct FieldInfo {
  std::string label;
  bool restrictor = false;
  const RecordType* nested = nullptr;
  std::string type;  // the DS type's text, empty when absent
  bool manifest = false;
  bool predicate = false;
  std::string functor;
  std::vector<Part> parts;  // a predicate's arguments, or the one part of another value
  double total = 1;         // the field's parts (restrictors: 1 + nested size)
};

Part partOf(const FormulaPtr& f, const std::set<std::string>& labels) {
  if (f->kind() == FormulaKind::Symbol && labels.count(f->name()) > 0) return {true, f->name(), ""};
  if (f->kind() == FormulaKind::Path && labels.count(f->name()) > 0) {
    std::string suffix;
    for (const std::string& l : f->pathLabels()) suffix += "." + l;
    return {true, f->name(), suffix};
  }
  return {false, f->text(), ""};
}

std::vector<FieldInfo> describe(const RecordType& record) {
  std::set<std::string> labels;
  for (const Field& f : record.fields()) labels.insert(f.label);
  std::vector<FieldInfo> out;
  for (const Field& f : record.fields()) {
    if (f.label == "head") continue;  // the head pointer is not scored
    FieldInfo info;
    info.label = f.label;
    if (!f.dsType && f.value && f.value->isRecord()) {
      info.restrictor = true;
      info.nested = &f.value->recordType();
      info.total = 1 + recordTypeSize(*info.nested);
      out.push_back(std::move(info));
      continue;
    }
    info.type = f.dsType ? f.dsType->toString() : std::string();
    if (f.value) {
      info.manifest = true;
      if (f.value->kind() == FormulaKind::Apply) {
        info.predicate = true;
        info.functor = f.value->name();
        for (const FormulaPtr& a : f.value->args()) info.parts.push_back(partOf(a, labels));
        info.total += 1 + static_cast<double>(info.parts.size());
      } else {
        info.parts.push_back(partOf(f.value, labels));
        info.total += 1;
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

bool mayPair(const FieldInfo& h, const FieldInfo& g) { return h.restrictor == g.restrictor; }

// Parts of h matched by g. `renamed(label)` gives the G label an H label is paired with (or
// nullptr); with `optimistic` every label part counts as if it were paired right.
template <typename Rename>
double matchedParts(const FieldInfo& h, const FieldInfo& g, bool optimistic, Rename renamed) {
  double m = h.type == g.type ? 1 : 0;
  if (!h.manifest || !g.manifest || h.predicate != g.predicate) return m;
  auto same = [&](const Part& a, const Part& b) {
    if (a.label != b.label) return false;
    if (!a.label) return a.name == b.name;
    if (a.suffix != b.suffix) return false;
    if (optimistic) return true;
    const std::string* to = renamed(a.name);
    return to != nullptr && *to == b.name;
  };
  if (h.predicate) {
    if (h.functor == g.functor) m += 1;
    if (h.parts.size() != g.parts.size()) return m;
  }
  for (std::size_t i = 0; i < h.parts.size(); ++i)
    if (same(h.parts[i], g.parts[i])) m += 1;
  return m;
}

class MappingSearch {
 public:
  MappingSearch(const RecordType& h, const RecordType& g) : h_(describe(h)), g_(describe(g)) {
    const std::size_t nh = h_.size();
    const std::size_t ng = g_.size();
    optimistic_.assign(nh, std::vector<double>(ng, -1));
    nested_.assign(nh, std::vector<MaxMappingResult>(ng));
    best_.assign(nh + 1, 0);
    for (std::size_t i = 0; i < nh; ++i) {
      for (std::size_t j = 0; j < ng; ++j) {
        if (!mayPair(h_[i], g_[j])) continue;
        if (h_[i].restrictor) {
          nested_[i][j] = maxMapping(*h_[i].nested, *g_[j].nested);
          optimistic_[i][j] = 1 + nested_[i][j].score;
        } else {
          optimistic_[i][j] =
              matchedParts(h_[i], g_[j], true, [](const std::string&) { return nullptr; }) /
              norm(i, j);
        }
      }
    }
    for (std::size_t k = nh; k-- > 0;) {
      double b = 0;
      for (double s : optimistic_[k]) b = std::max(b, s);
      best_[k] = best_[k + 1] + b;
    }
    choice_.assign(nh, -1);
    used_.assign(ng, false);
  }

  MaxMappingResult run() {
    search(0, 0.0);
    MaxMappingResult result;
    result.score = std::max(0.0, bestScore_);
    for (std::size_t i = 0; i < h_.size(); ++i) {
      const int j = bestChoice_.empty() ? -1 : bestChoice_[i];
      if (j < 0) continue;
      const auto ju = static_cast<std::size_t>(j);
      result.pairs.emplace_back(h_[i].label, g_[ju].label, pairScore(i, ju, bestChoice_));
      if (h_[i].restrictor)
        for (const auto& [a, b, s] : nested_[i][ju].pairs)
          result.pairs.emplace_back(h_[i].label + "." + a, g_[ju].label + "." + b, s);
    }
    return result;
  }

 private:
  // A pair's parts are counted on the gold side (the paper's example: a gold field
  // `p==there(e) : t` can score at most 3 parts).
  double norm(std::size_t /*i*/, std::size_t j) const { return g_[j].total; }
  double pairScore(std::size_t i, std::size_t j, const std::vector<int>& choice) const {
    if (h_[i].restrictor) return 1 + nested_[i][j].score;
    auto renamed = [&](const std::string& label) -> const std::string* {
      for (std::size_t k = 0; k < h_.size(); ++k)
        if (h_[k].label == label)
          return choice[k] < 0 ? nullptr : &g_[static_cast<std::size_t>(choice[k])].label;
      return nullptr;
    };
    return matchedParts(h_[i], g_[j], false, renamed) / norm(i, j);
  }

  void search(std::size_t i, double optimisticSoFar) {
    if (optimisticSoFar + best_[i] <= bestScore_ + 1e-12) return;
    if (i == h_.size()) {
      double total = 0;
      for (std::size_t k = 0; k < h_.size(); ++k)
        if (choice_[k] >= 0) total += pairScore(k, static_cast<std::size_t>(choice_[k]), choice_);
      if (total > bestScore_ + 1e-12) {
        bestScore_ = total;
        bestChoice_ = choice_;
      }
      return;
    }
    // Partners in order of their conceivable score, then "no partner".
    std::vector<std::size_t> order;
    for (std::size_t j = 0; j < g_.size(); ++j)
      if (!used_[j] && optimistic_[i][j] >= 0) order.push_back(j);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return optimistic_[i][a] > optimistic_[i][b];
    });
    for (std::size_t j : order) {
      used_[j] = true;
      choice_[i] = static_cast<int>(j);
      search(i + 1, optimisticSoFar + optimistic_[i][j]);
      used_[j] = false;
    }
    choice_[i] = -1;
    search(i + 1, optimisticSoFar);
  }

  std::vector<FieldInfo> h_;
  std::vector<FieldInfo> g_;
  std::vector<std::vector<double>> optimistic_;  // -1: may not pair
  std::vector<std::vector<MaxMappingResult>> nested_;
  std::vector<double> best_;  // best_[k]: the conceivable score of fields k.. of H
  std::vector<int> choice_;
  std::vector<bool> used_;
  double bestScore_ = -1;
  std::vector<int> bestChoice_;
};

}  // namespace

double recordTypeSize(const RecordType& record) {
  double n = 0;
  for (const Field& f : record.fields()) {
    if (f.label == "head") continue;
    n += 1;
    if (!f.dsType && f.value && f.value->isRecord()) n += recordTypeSize(f.value->recordType());
  }
  return n;
}

MaxMappingResult maxMapping(const RecordType& hypothesis, const RecordType& gold) {
  MaxMappingResult result = MappingSearch(hypothesis, gold).run();
  result.hypothesisSize = recordTypeSize(hypothesis);
  result.goldSize = recordTypeSize(gold);
  return result;
}

const char* fieldMatchName(FieldMatch match) {
  switch (match) {
    case FieldMatch::Matched: return "matched";
    case FieldMatch::Partial: return "partial";
    case FieldMatch::Missing: return "missing";
    case FieldMatch::Extra: return "extra";
  }
  return "";
}

namespace {

// Fields (head aside) in record order, nested restrictor fields after their restrictor.
void listFields(const RecordType& record, const std::string& prefix,
                std::vector<std::pair<std::string, const Field*>>* out) {
  for (const Field& f : record.fields()) {
    if (f.label == "head") continue;
    out->emplace_back(prefix + f.label, &f);
    if (!f.dsType && f.value && f.value->isRecord())
      listFields(f.value->recordType(), prefix + f.label + ".", out);
  }
}

bool isRestrictorField(const Field& f) { return !f.dsType && f.value && f.value->isRecord(); }

std::vector<AlignedField> alignSide(const RecordType& record, bool hypothesisSide,
                                    const MaxMappingResult& mapping) {
  std::vector<std::pair<std::string, const Field*>> fields;
  listFields(record, "", &fields);
  std::vector<AlignedField> out;
  for (const auto& [label, field] : fields) {
    AlignedField a;
    a.label = label;
    a.text = field->toString();
    a.match = hypothesisSide ? FieldMatch::Extra : FieldMatch::Missing;
    for (const auto& [h, g, score] : mapping.pairs) {
      if ((hypothesisSide ? h : g) != label) continue;
      a.partner = hypothesisSide ? g : h;
      a.score = isRestrictorField(*field) ? 1.0 : score;
      a.match = a.score >= 1.0 - 1e-9 ? FieldMatch::Matched : FieldMatch::Partial;
      break;
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

FieldAlignment alignFields(const RecordType& hypothesis, const RecordType& gold,
                           const MaxMappingResult& mapping) {
  FieldAlignment alignment;
  alignment.hypothesis = alignSide(hypothesis, true, mapping);
  alignment.gold = alignSide(gold, false, mapping);
  return alignment;
}

}  // namespace gwb::ds
