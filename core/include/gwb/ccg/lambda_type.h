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
// A TypeSystem interns its atomic types (an index, the parent's index, one shared TypePtr) and
// each predicate's type, so that the checks the chart runs on every meaning compare integers and
// allocate nothing.
#pragma once

#include <cstdint>
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
  // Set on a TypeSystem's own atomic types (TypeSystem::intern): which system (its unique id,
  // 0 for none), and the index it knows the type by, so that its checks need no look-up by name.
  std::uint64_t system = 0;
  int atomIndex = -1;
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
  // A copy has atomic types of its own (and an id of its own): the two may grow apart.
  TypeSystem(const TypeSystem& other);
  TypeSystem& operator=(const TypeSystem& other);
  TypeSystem(TypeSystem&& other) noexcept;  // the moved-from system is left empty
  TypeSystem& operator=(TypeSystem&& other) noexcept;
  ~TypeSystem() = default;

  // Declares `name` as a subtype of `parent` (which must be known). False if `name` exists.
  bool addAtomic(const std::string& name, const std::string& parent);
  bool isKnownAtomic(const std::string& name) const { return atomIndex_.count(name) > 0; }
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
  std::size_t predicateCount() const { return predicates_.size(); }
  std::size_t atomicCount() const { return atoms_.size(); }

  // The type a constant denotes on its own: a predicate's first signature as a curried
  // function type, else the atomic type named by the suffix after the last ':' (texas:s -> s),
  // else null (an unknown constant such as `loc`).
  TypePtr constantType(const std::string& constant) const;

  // The same type built from this system's shared atomic types (equal to `type`; unknown atomic
  // types are kept as they are). Types built so compare by index, not by name.
  TypePtr intern(const TypePtr& type) const;
  // The shared basic types e, t and i.
  TypePtr entityType() const { return basic(0, "e"); }
  TypePtr truthType() const { return basic(1, "t"); }
  TypePtr numberType() const { return basic(2, "i"); }

 private:
  struct Atom {
    int parent;    // index in atoms_, -1 for e and t
    TypePtr type;  // the one shared TypePtr of this atomic type
  };
  struct Predicate {
    std::vector<Signature> signatures;
    TypePtr type;  // constantType: the first signature as a curried function type
  };
  static std::uint64_t newId();
  TypePtr basic(std::size_t index, const char* name) const {
    return index < atoms_.size() ? atoms_[index].type : atomicType(name);  // moved-from: fresh
  }
  void reintern();  // after a copy: atoms_ and predicates_ rebuilt with this system's id
  int atomIndex(const std::string& name) const;  // -1 when unknown
  int atomIndex(const Type& atomic) const;       // by the interned index when it has one
  int addAtom(const std::string& name, int parent);

  std::uint64_t id_ = newId();
  std::vector<Atom> atoms_;
  std::unordered_map<std::string, int> atomIndex_;
  std::unordered_map<std::string, Predicate> predicates_;
};

struct TypeSystemLoad {
  TypeSystem types;
  Diagnostics diagnostics;
};

// Reads a geo-lambda.types text (a parenthesised list of `name` or `(name parent)`, `//`
// comments) and a geo-lambda.lang text (a parenthesised list of `(constant arg... result)`).
// Errors name file, line and column (lines end at LF, CRLF or CR): a UTF-16 file, a built-in
// type (e, t, i) or a name with '<', ',' or '>' declared, a type unknown to the .types file in a
// signature (inside a function type too).
TypeSystemLoad readTypeSystem(std::string_view typesText, const std::string& typesFile,
                              std::string_view langText, const std::string& langFile);
TypeSystemLoad loadTypeSystem(const std::string& typesPath, const std::string& langPath);

}  // namespace gwb::ccg
