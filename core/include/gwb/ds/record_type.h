// TTR record types (Type Theory with Records, Cooper 2005) as used by DS-TTR and DyLan:
// ordered fields `label : T`, manifest fields `label==value : T`, restrictor fields whose type
// is itself a record type (`r : [x : e|p==man(x) : t|head : x]`) and fields whose type is a
// formula without a DS type (`head : x`).
//
// Invariants: labels are unique within a record type (a nested record type is a scope of its
// own); field order is kept as written or built, but no operation here depends on it. The
// canonical text is DyLan's toString: `[x1==john : e|head==x1 : e]`, `[]` when empty.
//
// Subtyping (R1 ⊑ R2) is checked with label mapping, as in the DS-TTR papers: every field of
// the supertype must be matched by a distinct field of the subtype under one consistent,
// one-to-one renaming of labels (and of the variables in values, which are labels too);
// `head` maps only to `head`. An unmanifest field is a supertype of a manifest one with the
// same DS type; restrictors are compared recursively, each in its own scope. The search
// backtracks over candidate fields, so field order does not matter. Equality up to
// relabelling is the same search with every field matched both ways.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gwb/ds/ds_type.h"
#include "gwb/ds/formula.h"

namespace gwb::ds {

struct Field {
  std::string label;
  FormulaPtr value;              // null: unmanifest (`x : e`)
  std::optional<DsType> dsType;  // absent for restrictors and `head : x`
  std::string toString() const;
};

class RecordType {
 public:
  RecordType() = default;
  explicit RecordType(std::vector<Field> fields) : fields_(std::move(fields)) {}

  // Parses `[...]`; nullopt (and *error) if the text is not a record type.
  static std::optional<RecordType> parse(std::string_view text, FormulaParseError* error = nullptr);

  const std::vector<Field>& fields() const { return fields_; }
  std::size_t size() const { return fields_.size(); }
  bool empty() const { return fields_.empty(); }
  const Field* find(std::string_view label) const;
  bool hasLabel(std::string_view label) const { return find(label) != nullptr; }

  // Replaces the field with the same label in place, or appends the field.
  void put(Field field);
  bool remove(std::string_view label);
  RecordType withoutHead() const;

  std::string toString() const;
  bool operator==(const RecordType& other) const { return toString() == other.toString(); }

 private:
  std::vector<Field> fields_;
};

// Pairs (supertype label, subtype label) found by a successful check.
using LabelMapping = std::vector<std::pair<std::string, std::string>>;

// True if `sub` ⊑ `super`.
bool isSubtype(const RecordType& sub, const RecordType& super, LabelMapping* mapping = nullptr);
// True if the two record types are equal up to a renaming of labels (field order ignored).
bool equalUpToRelabelling(const RecordType& a, const RecordType& b,
                          LabelMapping* mapping = nullptr);

// The record type with labels renamed (values and nested record types follow).
RecordType relabel(const RecordType& record, const std::map<std::string, std::string>& renaming);
// `left ++ right` (asymmetric merge; the right side wins on shared labels), evaluated.
RecordType asymmetricMerge(const RecordType& left, const RecordType& right);
// TTR extension: `extension`'s labels that clash with `base`'s (other than head) are first
// renamed apart to fresh ones, then the two are merged. The result holds every field of both
// (the extension's head replacing the base's, as in DyLan's merge).
RecordType extend(const RecordType& base, const RecordType& extension);

}  // namespace gwb::ds
