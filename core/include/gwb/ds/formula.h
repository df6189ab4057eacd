// Formulas decorating Dynamic Syntax trees, in DyLan's text syntax: TTR record types
// (`[x==john : e|head==x : e]`), functions over them (`R1^(R1 ++ [p==man(R1.head) : t])`),
// predicate terms (`subj(e1, x)`), epsilon terms (`(eps, r.head, r)`), paths (`r.head`,
// `R.head`) and the plain lambda terms of the older grammars (`y^x^like(x,y)`).
//
// A Formula is an immutable tree shared through FormulaPtr; every operation returns a new
// formula and never changes its arguments, so partial trees in a parse DAG share structure
// freely. Each node caches its canonical text (the DyLan toString form), which is also its
// identity: two formulas are equal exactly when their texts are equal.
//
// Kinds:
//   Symbol  an atom (`john`, `eps`) or a variable (`x1`, `e5`, `head`, `R`); which one is
//           decided by the name, as in DyLan: one lower-case letter other than i/o, or R,
//           followed by digits, or `head`, `reftime`, `pred<n>`.
//   Meta    a rule metavariable bound when an action's IF clause matches (`X`, `A`, `U1`).
//   Apply   a predicate applied to arguments: `subj(e1, x)`.
//   Tuple   a parenthesised list: `(eps, r.head, r)`.
//   Path    a label path: relative `r.head` (into a field of the enclosing record type) or
//           absolute `R.head` (into the record type a lambda variable is bound to).
//   Lambda  `R^body`; the body extends as far right as possible.
//   Infix   `(left ++ right)` asymmetric merge (also `||` and `&` for the older grammars).
//   Record  a TTR record type (see record_type.h).
//
// Evaluation follows DyLan: a merge of two record types becomes one record type (the right
// side wins on shared labels), an absolute path is resolved as soon as its lambda variable
// is bound, and inside a record type a variable naming a field whose value is itself a
// variable is replaced by that variable (`[head==e1 : es|p==run(head) : t]` evaluates to
// `[head==e1 : es|p==run(e1) : t]`). Relative paths are left as they are.
//
// Formulas nest only as deeply as their text; the parser refuses nesting deeper than
// kMaxFormulaDepth so that recursive walks stay shallow. Formulas built while parsing
// (substitution, beta-reduction, conjunction, instantiation) can nest deeper with every word;
// each node knows its depth(), and the DS actions refuse to store a formula deeper than
// kMaxBuiltFormulaDepth (the action fails), so that every recursive walk over a stored formula
// (substitution, evaluation, matching, destruction) stays a few thousand frames deep at most.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/ds/ds_type.h"

namespace gwb::ds {

class RecordType;
class Formula;
using FormulaPtr = std::shared_ptr<const Formula>;

inline constexpr int kMaxFormulaDepth = 200;
inline constexpr int kMaxBuiltFormulaDepth = 500;

enum class FormulaKind { Symbol, Meta, Apply, Tuple, Path, Lambda, Infix, Record };

class Formula {
 public:
  static FormulaPtr symbol(std::string name);
  static FormulaPtr meta(std::string name);
  static FormulaPtr apply(std::string functor, std::vector<FormulaPtr> args);
  static FormulaPtr tuple(std::vector<FormulaPtr> items);
  static FormulaPtr path(std::string base, std::vector<std::string> labels);
  static FormulaPtr lambda(std::string variable, FormulaPtr body);
  static FormulaPtr infix(std::string op, FormulaPtr left, FormulaPtr right);
  static FormulaPtr merge(FormulaPtr left, FormulaPtr right) {
    return infix("++", std::move(left), std::move(right));
  }
  static FormulaPtr record(RecordType record);

  FormulaKind kind() const { return kind_; }
  // Symbol and meta name, Apply functor, Path base, Lambda variable, Infix operator.
  const std::string& name() const { return name_; }
  // Apply arguments, Tuple items, Lambda {body}, Infix {left, right}.
  const std::vector<FormulaPtr>& args() const { return args_; }
  const std::vector<std::string>& pathLabels() const { return labels_; }
  const FormulaPtr& body() const { return args_[0]; }
  const FormulaPtr& left() const { return args_[0]; }
  const FormulaPtr& right() const { return args_[1]; }
  // Record kind only.
  const RecordType& recordType() const { return *record_; }

  bool isVariable() const;      // a Symbol with a variable name
  bool isAbsolutePath() const;  // a Path whose base is a record variable (R, R1, ...)
  bool isLambda() const { return kind_ == FormulaKind::Lambda; }
  bool isRecord() const { return kind_ == FormulaKind::Record; }
  bool isMerge() const { return kind_ == FormulaKind::Infix && name_ == "++"; }
  // True for record types and functions/merges over them (what `ttrput` accepts).
  bool isTtr() const;

  const std::string& text() const { return text_; }
  // 1 for a symbol, metavariable or path; 1 + the deepest argument, body or field value.
  int depth() const { return depth_; }

 private:
  Formula() = default;
  void computeText();  // and depth_

  FormulaKind kind_ = FormulaKind::Symbol;
  std::string name_;
  std::vector<FormulaPtr> args_;
  std::vector<std::string> labels_;
  std::shared_ptr<const RecordType> record_;
  std::string text_;
  int depth_ = 1;
};

// Name classes, as in DyLan.
bool isVariableName(std::string_view name);
bool isRecordVariableName(std::string_view name);  // R, R1, R2, ...
bool isFormulaMetaName(std::string_view name);     // X, A, S, U1, REC: upper case but not R

struct FormulaParseError {
  std::size_t offset = 0;  // 0-based offset into the parsed text
  std::string message;     // what was expected
};

// Parses a formula; nullptr (and *error filled in) if `text` is not one.
FormulaPtr parseFormula(std::string_view text, FormulaParseError* error = nullptr);

// Replaces the symbol, metavariable or lambda variable `name` by `value` everywhere it is
// free; an absolute path `name.l` becomes the value of field l of `value` when `value` is a
// record type. Field labels equal to `name` are renamed when `value` is a symbol.
FormulaPtr substitute(const FormulaPtr& formula, const std::string& name, const FormulaPtr& value);
// Renames symbols, path bases and field labels simultaneously (nested record types too).
FormulaPtr rename(const FormulaPtr& formula, const std::map<std::string, std::string>& renaming);
// Replaces metavariables by the formulas `value(name)` returns (unchanged when it returns null).
FormulaPtr instantiate(const FormulaPtr& formula,
                       const std::function<FormulaPtr(const std::string&)>& value);
bool hasMetas(const FormulaPtr& formula);

FormulaPtr evaluate(const FormulaPtr& formula);
// `left ++ right`, evaluated: the right side's fields win on shared labels.
FormulaPtr asymmetricMerge(const FormulaPtr& left, const FormulaPtr& right);
// DyLan's conjoin of `addition` into a node's formula `base`: `addition ++ base`, pushed into
// the body of `base` when it is a function. A null base yields the addition.
FormulaPtr conjoin(const FormulaPtr& base, const FormulaPtr& addition);
// Applies a lambda to an argument; nullptr if `function` is not a lambda.
FormulaPtr betaReduce(const FormulaPtr& function, const FormulaPtr& argument);
// The innermost body of a chain of lambdas (the formula itself if it is not a lambda), and
// the chain with that body replaced.
const FormulaPtr& lambdaCore(const FormulaPtr& formula);
FormulaPtr replaceLambdaCore(const FormulaPtr& formula, const FormulaPtr& core);

// Counters for fresh field labels (x1, e1, p1, r1, pred1, ...). A tree owns one set, so that
// labels are unique along every parse path.
struct FreshCounters {
  int entity = 0;       // x<n>, for fields of type e
  int event = 0;        // e<n>, es
  int proposition = 0;  // p<n>, t
  int record = 0;       // r<n>, fields without a DS type (restrictors)
  int predicate = 0;    // pred<n>, any other type (cn, ...)
  // The next label for a field of this type (advances the counter).
  std::string next(const std::optional<DsType>& type);
};

// Renames every field label of the record types in `formula` (other than head and reftime)
// to fresh labels from `counters`, as DyLan's ttrput does.
FormulaPtr freshen(const FormulaPtr& formula, FreshCounters& counters);

}  // namespace gwb::ds
