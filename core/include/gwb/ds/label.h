// Node labels of Dynamic Syntax trees, and the label patterns that action conditions and
// effects are written in (DyLan's syntax).
//
// Decorations a node can carry: `ty(e>t)` (type), `fo(...)` (formula), `+Q` (feature),
// `person(s3)` (predicate label), `!` (the bottom restriction: no daughters), and
// requirements `?L` for any of those or for modal and existential labels: `?ty(e)`,
// `?<\/0>ty(e)`, `?Ex.fo(x)`, `?Ex.tn(x)`, `?+eval`.
//
// Conditions add: modal labels `<\/1>ty(Y>X)` (the label holds at a node the modality
// reaches), existentials `Ex.L` whose lower-case variable x, y or z matches anything
// (`Ex.x`: some label; `Ex.?x`: some requirement; `Ex.tn(x)`: the node's address is fixed),
// negation `¬L`, disjunction `(L || L)`, conjunction `(L & L)` (inside modal groups), tree
// addresses `tn(0)`, `subsumes(Y)`, and rule metavariables (`X`: any label; `ty(X)`: any
// type; `fo(X)`: any formula; `<Y>`: any path).
//
// A Label is immutable and shared (LabelPtr). Its canonical text, computed once, is its
// identity: a node never carries two labels with the same text. Wildcards are stored as
// Type or Formula labels without a value and with the variable as name.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/ds/ds_type.h"
#include "gwb/ds/formula.h"
#include "gwb/ds/node_address.h"

namespace gwb::ds {

enum class LabelKind {
  Type,         // ty(T)
  Formula,      // fo(F)
  Feature,      // +name
  Predicate,    // functor(args), e.g. person(s3)
  Bottom,       // !
  Requirement,  // ?L
  Modal,        // <M>L
  Exists,       // Ex.L
  Not,          // ¬L
  Or,           // (L || L ...)
  And,          // (L & L ...)
  Address,      // tn(0), tn(x)
  Subsumes,     // subsumes(Y)
  Meta,         // X
  Wildcard,     // x (inside Ex.)
};

class Label;
using LabelPtr = std::shared_ptr<const Label>;

class Label {
 public:
  static LabelPtr type(DsType type);
  static LabelPtr typeWildcard(std::string variable);
  static LabelPtr formula(FormulaPtr formula);
  static LabelPtr formulaWildcard(std::string variable);
  static LabelPtr feature(std::string name);
  static LabelPtr predicate(std::string functor, std::vector<std::string> args);
  static LabelPtr bottom();
  static LabelPtr requirement(LabelPtr inner);
  static LabelPtr modal(Modality modality, LabelPtr inner);
  static LabelPtr exists(LabelPtr inner);
  static LabelPtr negation(LabelPtr inner);
  static LabelPtr disjunction(std::vector<LabelPtr> items);
  static LabelPtr conjunction(std::vector<LabelPtr> items);
  static LabelPtr address(std::string address);  // an address, or a wildcard variable
  static LabelPtr subsumes(Modality modality);
  static LabelPtr meta(std::string name);
  static LabelPtr wildcard(std::string variable);

  LabelKind kind() const { return kind_; }
  const DsType& dsType() const { return type_; }          // Type (invalid for a wildcard)
  const FormulaPtr& formula() const { return formula_; }  // Formula (null for a wildcard)
  // Feature name, Predicate functor, Address, Meta or Wildcard name, wildcard variable.
  const std::string& name() const { return name_; }
  const std::vector<std::string>& args() const { return args_; }  // Predicate
  const Modality& modality() const { return modality_; }          // Modal, Subsumes
  const std::vector<LabelPtr>& children() const { return children_; }
  const LabelPtr& child() const { return children_.front(); }
  bool isWildcard() const;  // Wildcard, ty(x), fo(x), tn(x)
  bool isRequirement() const { return kind_ == LabelKind::Requirement; }

  const std::string& text() const { return text_; }

 private:
  Label() = default;
  static std::shared_ptr<Label> create(LabelKind kind);
  void computeText();

  LabelKind kind_ = LabelKind::Bottom;
  DsType type_;
  FormulaPtr formula_;
  std::string name_;
  std::vector<std::string> args_;
  Modality modality_;
  std::vector<LabelPtr> children_;
  std::string text_;
};

struct LabelParseError {
  std::size_t offset = 0;  // 0-based offset into the parsed text
  std::string message;     // what was expected
};

// Parses one label or condition; nullptr (and *error) if `text` is not one. Functor names are
// case-insensitive (`Ty(e)`, `Fo(X)`), as in DyLan.
LabelPtr parseLabel(std::string_view text, LabelParseError* error = nullptr);

}  // namespace gwb::ds
