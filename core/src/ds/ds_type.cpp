#include "gwb/ds/ds_type.h"

#include <algorithm>
#include <cctype>

namespace gwb::ds {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

// Index of the first '>' at parenthesis depth 0, or npos.
std::size_t topLevelArrow(std::string_view s) {
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') {
      ++depth;
    } else if (s[i] == ')') {
      --depth;
    } else if (s[i] == '>' && depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

// True if s is '(' ... ')' with the two parentheses matching each other.
bool wrappedInParens(std::string_view s) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return false;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (depth == 0 && i + 1 < s.size()) return false;
  }
  return depth == 0;
}

}  // namespace

DsType DsType::basic(std::string name) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Basic;
  node->text = name;
  node->name = std::move(name);
  return DsType(std::move(node));
}

DsType DsType::meta(std::string name) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Meta;
  node->ground = false;
  node->text = name;
  node->name = std::move(name);
  return DsType(std::move(node));
}

DsType DsType::function(const DsType& from, const DsType& to) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Function;
  node->from = from;
  node->to = to;
  node->depth = 1 + std::max(from.depth(), to.depth());
  node->ground = from.isGround() && to.isGround();
  const std::string& f = from.toString();
  const std::string& t = to.toString();
  node->text =
      (from.isFunction() ? "(" + f + ")" : f) + ">" + (to.isFunction() ? "(" + t + ")" : t);
  return DsType(std::move(node));
}

bool DsType::isBasicName(std::string_view name) {
  return name == "e" || name == "t" || name == "es" || name == "cn";
}

bool DsType::isMetaName(std::string_view name) {
  return name.size() == 1 && name[0] >= 'V' && name[0] <= 'Z';
}

namespace {

// Parses `text` as a type nested `depth` deep already (redundant parentheses and both sides of
// an arrow each count one level); fills *error on failure. On a side of an arrow
// (`sideOfArrow`), the first pair of parentheses around the whole side is part of the arrow's
// level, not one of its own: printing puts exactly that pair around every function-typed side,
// so whatever reads also reads back once printed.
std::optional<DsType> parseAt(std::string_view text, int depth, std::string* error,
                              bool sideOfArrow) {
  auto fail = [&](std::string message) -> std::optional<DsType> {
    if (error != nullptr && error->empty()) *error = std::move(message);
    return std::nullopt;
  };
  auto tooDeep = [&] {
    return fail("type nested more than " + std::to_string(kMaxTypeDepth) + " deep");
  };
  std::string_view s = trim(text);
  // Strip redundant outer parentheses ("((e>t))"), each a level of its own but a side's first.
  while (wrappedInParens(s)) {
    if (sideOfArrow) {
      sideOfArrow = false;
    } else if (++depth > kMaxTypeDepth) {
      return tooDeep();
    }
    s = trim(s.substr(1, s.size() - 2));
  }
  if (s.empty()) return fail("expected a DS type (e, t, es, cn, V..Z or A>B)");
  const std::size_t arrow = topLevelArrow(s);
  if (arrow == std::string_view::npos) {
    if (DsType::isBasicName(s)) return DsType::basic(std::string(s));
    if (DsType::isMetaName(s)) return DsType::meta(std::string(s));
    return fail("expected a DS type (e, t, es, cn, V..Z or A>B), found '" + std::string(s) + "'");
  }
  // Right-associative: split at the first top-level arrow. Both sides are one level deeper, so
  // the recursion (and the cost of rescanning the text) is bounded by kMaxTypeDepth.
  if (depth + 2 > kMaxTypeDepth) return tooDeep();  // its sides are a level deeper
  auto from = parseAt(s.substr(0, arrow), depth + 1, error, true);
  if (!from) return std::nullopt;
  auto to = parseAt(s.substr(arrow + 1), depth + 1, error, true);
  if (!to) return std::nullopt;
  return DsType::function(*from, *to);
}

}  // namespace

std::optional<DsType> DsType::parse(std::string_view text, std::string* error) {
  std::string local;
  std::optional<DsType> type = parseAt(text, 0, &local, false);
  if (!type && error != nullptr) *error = local;
  return type;
}

const std::string& DsType::name() const {
  static const std::string kEmpty;
  return node_ ? node_->name : kEmpty;
}

const std::string& DsType::toString() const {
  static const std::string kNone;
  return node_ ? node_->text : kNone;
}

}  // namespace gwb::ds
