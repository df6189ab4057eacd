// Types of the typed lambda calculus used for CCG semantics (Kwiatkowski et al. 2011, section 4.1).
//
// Basic types are `e` (entities), `t` (truth values) and `i` (numbers); the GeoQuery data adds
// entity subtypes (`s` state ≤ `lo` location ≤ `e`, ...) in geo-lambda.types and predicate
// signatures (`(loc:t r s t)`: loc:t takes a river and a state and returns t) in
// geo-lambda.lang. Function types are written `<a,b>`.
//
// Decisions (docs/ccg.md): every atomic type other than `t` is a subtype of `e`, `i` included,
// so that `(= (population:i $1) $0)` with `$0` of type `e` checks. Two types are *compatible*
// when one is a subtype of the other (function types component by component): a variable of
// type `e` may stand where a state is expected, as in `(lambda $0 e (state:t $0))`. A predicate
// may have several signatures (loc:t has ten); an application checks when any of them fits.
// A variable has one type: the type checker (term.h, `typeCheck`) narrows a bound variable to
// what its uses require, so `(and (state:t $0) (city:t $0))` is ill-typed although `$0` is
// declared `e`.
//
// Types are immutable and shared (TypePtr); two types are equal when their printed forms are.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gwb/common/diagnostic.h"

namespace gwb::ccg {

struct Type;
using TypePtr = std::shared_ptr<const Type>;

// An atomic type (`atom` set, `from`/`to` null) or a function type <from,to> (`atom` empty).
struct Type {
  std::string atom;
  TypePtr from;
  TypePtr to;
  bool isFunction() const { return from != nullptr; }
};

TypePtr atomicType(std::string name);
TypePtr functionType(TypePtr from, TypePtr to);
std::string toString(const TypePtr& type);  // "e", "<e,t>", "<<e,t>,i>"
bool sameType(const TypePtr& a, const TypePtr& b);

// Reads "e" or "<e,<e,t>>" (no spaces needed; spaces allowed after commas). Null and *error on
// bad text.
TypePtr parseType(std::string_view text, std::string* error);

// One signature of a predicate: argument types then the result type.
struct Signature {
  std::vector<TypePtr> arguments;
  TypePtr result;
};

class TypeSystem {
 public:
  TypeSystem();  // e, t, i with i ≤ e

  // Declares `name` as a subtype of `parent` (which must be known). False if `name` exists.
  bool addAtomic(const std::string& name, const std::string& parent);
  bool isKnownAtomic(const std::string& name) const { return parent_.count(name) > 0; }
  // Reflexive, transitive; function types: contravariance is not modelled, both sides must be
  // subtypes (enough for the data, whose function types only appear as lambda variables).
  bool isSubtype(const TypePtr& a, const TypePtr& b) const;
  bool compatible(const TypePtr& a, const TypePtr& b) const;
  // Atomic types only (null otherwise). `meet`: the more specific of two compatible types, null
  // when neither is below the other (the atomic types form a tree: s and c have no common
  // subtype). `join`: their nearest common supertype, null when they have none (t and e).
  TypePtr meet(const TypePtr& a, const TypePtr& b) const;
  TypePtr join(const TypePtr& a, const TypePtr& b) const;

  void addSignature(const std::string& constant, Signature signature);
  const std::vector<Signature>* signatures(const std::string& constant) const;
  std::size_t predicateCount() const { return signatures_.size(); }
  std::size_t atomicCount() const { return parent_.size(); }

  // The type a constant denotes on its own: a predicate's first signature as a curried
  // function type, else the atomic type named by the suffix after the last ':' (texas:s -> s),
  // else null (an unknown constant such as `loc`).
  TypePtr constantType(const std::string& constant) const;

 private:
  void noteAncestors(const std::string& name);

  std::map<std::string, std::string> parent_;  // atomic type -> parent ("" for e and t)
  // Atomic type -> itself and its ancestors, nearest first: isSubtype is one lookup and a
  // comparison or three (the chart's type checks ask it millions of times).
  std::unordered_map<std::string, std::vector<std::string>> ancestors_;
  std::map<std::string, std::vector<Signature>> signatures_;
};

struct TypeSystemLoad {
  TypeSystem types;
  Diagnostics diagnostics;
};

// Reads a geo-lambda.types text (a parenthesised list of `name` or `(name parent)`, `//`
// comments) and a geo-lambda.lang text (a parenthesised list of `(constant arg... result)`).
TypeSystemLoad readTypeSystem(std::string_view typesText, const std::string& typesFile,
                              std::string_view langText, const std::string& langFile);
TypeSystemLoad loadTypeSystem(const std::string& typesPath, const std::string& langPath);

}  // namespace gwb::ccg
