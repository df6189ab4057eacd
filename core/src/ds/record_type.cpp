#include "gwb/ds/record_type.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace gwb::ds {

std::string Field::toString() const {
  if (dsType) return label + (value ? "==" + value->text() : "") + " : " + dsType->toString();
  return label + " : " + (value ? value->text() : "");
}

std::optional<RecordType> RecordType::parse(std::string_view text, FormulaParseError* error) {
  FormulaParseError local;
  FormulaPtr f = parseFormula(text, &local);
  if (f && f->isRecord()) return f->recordType();
  if (error) {
    *error = f ? FormulaParseError{0, "expected a record type '[...]'"} : local;
  }
  return std::nullopt;
}

const Field* RecordType::find(std::string_view label) const {
  for (const Field& f : fields_)
    if (f.label == label) return &f;
  return nullptr;
}

void RecordType::put(Field field) {
  for (Field& f : fields_) {
    if (f.label == field.label) {
      f = std::move(field);
      return;
    }
  }
  fields_.push_back(std::move(field));
}

bool RecordType::remove(std::string_view label) {
  auto it = std::find_if(fields_.begin(), fields_.end(),
                         [&](const Field& f) { return f.label == label; });
  if (it == fields_.end()) return false;
  fields_.erase(it);
  return true;
}

RecordType RecordType::withoutHead() const {
  RecordType r = *this;
  r.remove("head");
  return r;
}

std::string RecordType::toString() const {
  std::string out = "[";
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += "|";
    out += fields_[i].toString();
  }
  return out + "]";
}

// ---------------------------------------------------------------------------------------
// Subtyping with label mapping

namespace {

class LabelMatcher {
 public:
  explicit LabelMatcher(bool equality) : equality_(equality) {}

  // Every field of `super` to a distinct field of `sub`.
  bool match(const RecordType& sub, const RecordType& super) {
    if (equality_ && sub.size() != super.size()) return false;
    if (super.size() > sub.size()) return false;
    sub_ = &sub;
    super_ = &super;
    subLabels_.clear();
    superLabels_.clear();
    for (const Field& f : sub.fields()) subLabels_.insert(f.label);
    for (const Field& f : super.fields()) superLabels_.insert(f.label);
    used_.assign(sub.size(), false);
    // Fields with values first: they bind the labels they mention, which prunes the choices
    // for the unmanifest fields that follow.
    order_.clear();
    for (std::size_t i = 0; i < super.size(); ++i)
      if (super.fields()[i].value) order_.push_back(i);
    for (std::size_t i = 0; i < super.size(); ++i)
      if (!super.fields()[i].value) order_.push_back(i);
    return matchFrom(0);
  }

  const LabelMapping& mapping() const { return map_; }

 private:
  bool matchFrom(std::size_t index) {
    if (index == order_.size()) return true;
    const Field& f = super_->fields()[order_[index]];
    for (std::size_t j = 0; j < sub_->size(); ++j) {
      if (used_[j]) continue;
      const Field& g = sub_->fields()[j];
      if (f.dsType.has_value() != g.dsType.has_value()) continue;
      if (f.dsType && *f.dsType != *g.dsType) continue;
      if (equality_ && static_cast<bool>(f.value) != static_cast<bool>(g.value)) continue;
      if (f.value && !g.value) continue;
      const std::size_t mark = map_.size();
      bool ok = bind(f.label, g.label);
      if (ok && f.value) ok = matchFormula(*f.value, *g.value);
      if (ok) {
        used_[j] = true;
        if (matchFrom(index + 1)) return true;
        used_[j] = false;
      }
      map_.resize(mark);
    }
    return false;
  }

  // Maps the supertype label `from` to the subtype label `to`, one to one.
  bool bind(const std::string& from, const std::string& to) {
    if (from == "head" || to == "head") return from == to;
    for (const auto& [a, b] : map_) {
      if (a == from) return b == to;
      if (b == to) return false;
    }
    map_.emplace_back(from, to);
    return true;
  }

  bool matchFormula(const Formula& sup, const Formula& sub) {
    if (sup.kind() != sub.kind()) return false;
    switch (sup.kind()) {
      case FormulaKind::Symbol: {
        // A symbol naming a field (or looking like a variable) refers to a label.
        const bool supRef = superLabels_.count(sup.name()) > 0 || sup.isVariable();
        const bool subRef = subLabels_.count(sub.name()) > 0 || sub.isVariable();
        if (supRef && subRef) return bind(sup.name(), sub.name());
        return !supRef && !subRef && sup.name() == sub.name();
      }
      case FormulaKind::Meta: return sup.name() == sub.name();
      case FormulaKind::Path:
        return sup.pathLabels() == sub.pathLabels() &&
               (isRecordVariableName(sup.name()) ? sup.name() == sub.name()
                                                 : bind(sup.name(), sub.name()));
      case FormulaKind::Lambda:
        return sup.name() == sub.name() && matchFormula(*sup.body(), *sub.body());
      case FormulaKind::Apply:
      case FormulaKind::Tuple:
      case FormulaKind::Infix: {
        if (sup.name() != sub.name() || sup.args().size() != sub.args().size()) return false;
        for (std::size_t i = 0; i < sup.args().size(); ++i)
          if (!matchFormula(*sup.args()[i], *sub.args()[i])) return false;
        return true;
      }
      case FormulaKind::Record: {
        // A nested record type is a scope of its own.
        LabelMatcher nested(equality_);
        return nested.match(sub.recordType(), sup.recordType());
      }
    }
    return false;
  }

  bool equality_;
  const RecordType* sub_ = nullptr;
  const RecordType* super_ = nullptr;
  std::set<std::string> subLabels_;
  std::set<std::string> superLabels_;
  std::vector<bool> used_;
  std::vector<std::size_t> order_;
  LabelMapping map_;
};

}  // namespace

bool isSubtype(const RecordType& sub, const RecordType& super, LabelMapping* mapping) {
  LabelMatcher matcher(false);
  const bool ok = matcher.match(sub, super);
  if (ok && mapping) *mapping = matcher.mapping();
  return ok;
}

bool equalUpToRelabelling(const RecordType& a, const RecordType& b, LabelMapping* mapping) {
  LabelMatcher matcher(true);
  const bool ok = matcher.match(a, b);
  if (ok && mapping) *mapping = matcher.mapping();
  return ok;
}

RecordType relabel(const RecordType& record, const std::map<std::string, std::string>& renaming) {
  FormulaPtr renamed = rename(Formula::record(record), renaming);
  return renamed->recordType();
}

RecordType extend(const RecordType& base, const RecordType& extension) {
  std::set<std::string> taken;
  for (const Field& f : base.fields()) taken.insert(f.label);
  for (const Field& f : extension.fields()) taken.insert(f.label);
  std::map<std::string, std::string> renaming;
  for (const Field& f : extension.fields()) {
    if (f.label == "head" || !base.hasLabel(f.label)) continue;
    // Keep the label's letters, find the first free number.
    std::string stem = f.label;
    while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back())) != 0)
      stem.pop_back();
    for (int n = 1;; ++n) {
      std::string candidate = stem + std::to_string(n);
      if (taken.insert(candidate).second) {
        renaming[f.label] = candidate;
        break;
      }
    }
  }
  return asymmetricMerge(base, relabel(extension, renaming));
}

}  // namespace gwb::ds
