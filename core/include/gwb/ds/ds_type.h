// Dynamic Syntax semantic types: the basic types e (entities), t (propositions), es (events),
// cn (common nouns) and function types from>to, as written in DyLan's action files
// (`ty(e>(e>t))`).
//
// A DsType is an immutable value that shares its structure: copying is cheap and two types are
// equal exactly when their canonical strings are equal. Besides ground types, action patterns
// use type metavariables (`ty(Y>X)`): single upper-case letters V..Z, bound when a rule's IF
// clause is matched against a tree. A default-constructed DsType is "no type" (valid() false).
//
// Syntax: basic := e | es | cn | t; meta := V..Z; type := basic | meta | '(' type ')' |
// type '>' type. The arrow associates to the right (`e>e>t` is `e>(e>t)`); printing puts
// parentheses around every function-typed side, so `e>(e>t)` and `(e>t)>t` round-trip.
//
// Types nest at most kMaxTypeDepth deep in text (arrows and redundant parentheses both count;
// the pair printing puts around a function-typed side does not, so a printed type reads): the
// parser refuses deeper ones with an error instead of recursing without bound. A node caches its
// depth and whether it is ground, so no walk over a type recurses.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gwb::ds {

// DyLan's types nest at most four deep; a hundred leaves room for any real grammar.
inline constexpr int kMaxTypeDepth = 100;

class DsType {
 public:
  enum class Kind { None, Basic, Meta, Function };

  DsType() = default;
  static DsType basic(std::string name);
  static DsType meta(std::string name);
  static DsType function(const DsType& from, const DsType& to);
  // nullopt when `text` is not a type in the syntax above (or nests deeper than
  // kMaxTypeDepth); then *error, if given, says what was wrong.
  static std::optional<DsType> parse(std::string_view text, std::string* error = nullptr);
  static bool isBasicName(std::string_view name);
  static bool isMetaName(std::string_view name);

  Kind kind() const;
  bool valid() const { return node_ != nullptr; }
  bool isMeta() const { return kind() == Kind::Meta; }
  bool isFunction() const { return kind() == Kind::Function; }
  // Basic or meta name; empty for function types.
  const std::string& name() const;
  // Function types only.
  const DsType& from() const;
  const DsType& to() const;
  // True if no metavariable occurs in the type.
  bool isGround() const;
  // 0 for no type, 1 for a basic or meta type, 1 + the deeper side for a function type.
  int depth() const;

  const std::string& toString() const;
  bool operator==(const DsType& other) const { return toString() == other.toString(); }
  bool operator!=(const DsType& other) const { return !(*this == other); }

 private:
  struct Node;
  explicit DsType(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
};

struct DsType::Node {
  Kind kind = Kind::None;
  std::string name;
  DsType from;
  DsType to;
  std::string text;
  int depth = 1;
  bool ground = true;
};

inline DsType::Kind DsType::kind() const { return node_ ? node_->kind : Kind::None; }
inline const DsType& DsType::from() const { return node_->from; }
inline const DsType& DsType::to() const { return node_->to; }
inline bool DsType::isGround() const { return node_ == nullptr || node_->ground; }
inline int DsType::depth() const { return node_ ? node_->depth : 0; }

}  // namespace gwb::ds
