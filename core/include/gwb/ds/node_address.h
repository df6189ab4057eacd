// Tree node addresses and modalities of the Logic of Finite Trees (Blackburn & Meyer-Viol
// 1994), as Dynamic Syntax and DyLan use them.
//
// A NodeAddress is the path from the root: "0" is the root, then one step per character —
// 0 (argument daughter), 1 (functor daughter), L (LINKed tree), * (an unfixed node somewhere
// below, not yet fixed), U (a locally unfixed node). "01L0" is the argument daughter of the
// root of the tree LINKed to the root's functor daughter. Addresses order like DyLan's
// TreeMap (plain string order), which decides which node a search meets first.
//
// A Modality is a sequence of basic operators, `\/0` (down to daughter 0), `/\1` (up from a
// functor daughter), `/\` (up from any daughter, including from a LINKed root), `\/*` (down
// to an unfixed node or, when there is none, any node below within the same tree), `/\*` (up
// to any dominating node up to the nearest LINK), `\/L`, `/\L`, `\/U`, `/\U`; written
// `<\/0/\1>` (or `[...]`, read the same here). A modality may also be a metavariable (`<Y>`),
// bound during matching to the path between two nodes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gwb::ds {

class NodeAddress {
 public:
  NodeAddress() : text_("0") {}
  // `text` must satisfy isValid.
  explicit NodeAddress(std::string text) : text_(std::move(text)) {}
  static bool isValid(std::string_view text);

  const std::string& toString() const { return text_; }
  bool isRoot() const { return text_ == "0"; }
  // Not the address of an unfixed node (does not end in * or U).
  bool isLocallyFixed() const;
  // No * or U anywhere: the node's position is fully known.
  bool isFixed() const;
  bool isStarUnfixed() const { return text_.back() == '*'; }
  bool isLocallyUnfixed() const { return text_.back() == 'U'; }
  bool isLinked() const { return text_.find('L') != std::string::npos; }
  char lastStep() const { return text_.back(); }

  NodeAddress down(std::string_view steps) const { return NodeAddress(text_ + std::string(steps)); }
  // The mother (any step); nullopt at the root.
  std::optional<NodeAddress> up() const;
  // The mother if the last step is `steps`; nullopt otherwise.
  std::optional<NodeAddress> up(std::string_view steps) const;
  bool isPrefixOf(const NodeAddress& other) const {
    return other.text_.compare(0, text_.size(), text_) == 0;
  }
  // True if this address, with each * read as any sequence of 0/1 (or a literal *) and each U
  // as 1*0 (or a literal U), can be `other`: an unfixed node may be fixed there.
  bool subsumes(const NodeAddress& other) const;

  bool operator==(const NodeAddress& o) const { return text_ == o.text_; }
  bool operator!=(const NodeAddress& o) const { return text_ != o.text_; }
  bool operator<(const NodeAddress& o) const { return text_ < o.text_; }

 private:
  std::string text_;
};

struct BasicOperator {
  bool up = false;
  std::string path;  // "", "0", "1", "L", "*", "U" (or several steps)
  bool isFixed() const { return path != "*" && path != "U"; }
  std::string toString() const { return std::string(up ? "/\\" : "\\/") + path; }
};

// DyLan's modalities have at most three operators; the parser refuses more than this.
inline constexpr std::size_t kMaxModalityOperators = 32;

class Modality {
 public:
  Modality() = default;
  explicit Modality(std::vector<BasicOperator> ops) : ops_(std::move(ops)) {}
  static Modality meta(std::string name);
  // `<\/0/\1>`, `[/\]`, `\/1`, `<Y>`, `Y`; nullopt (and *error) otherwise, also for more
  // than kMaxModalityOperators operators.
  static std::optional<Modality> parse(std::string_view text, std::string* error = nullptr);
  // Internal path from one node to another: ups to the common prefix, then downs.
  static Modality between(const NodeAddress& from, const NodeAddress& to);

  bool isMeta() const { return !metaName_.empty(); }
  const std::string& metaName() const { return metaName_; }
  const std::vector<BasicOperator>& ops() const { return ops_; }
  bool empty() const { return ops_.empty() && metaName_.empty(); }
  Modality inverse() const;
  // Follows the operators one by one, as DyLan's go: nullopt if a step is impossible. Does
  // not check that the nodes exist.
  std::optional<NodeAddress> apply(const NodeAddress& from) const;
  std::string toString() const;  // `<\/0/\1>`, `<Y>`
  // The operators alone: `\/0/\1`.
  std::string opsString() const;

 private:
  std::vector<BasicOperator> ops_;
  std::string metaName_;
};

}  // namespace gwb::ds
