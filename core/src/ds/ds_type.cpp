#include "gwb/ds/ds_type.h"

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
  node->text = name;
  node->name = std::move(name);
  return DsType(std::move(node));
}

DsType DsType::function(const DsType& from, const DsType& to) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Function;
  node->from = from;
  node->to = to;
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

std::optional<DsType> DsType::parse(std::string_view text) {
  std::string_view s = trim(text);
  // Strip redundant outer parentheses iteratively ("((e>t))").
  while (wrappedInParens(s)) s = trim(s.substr(1, s.size() - 2));
  if (s.empty()) return std::nullopt;
  const std::size_t arrow = topLevelArrow(s);
  if (arrow == std::string_view::npos) {
    if (isBasicName(s)) return basic(std::string(s));
    if (isMetaName(s)) return meta(std::string(s));
    return std::nullopt;
  }
  // Right-associative: split at the first top-level arrow; the right side is parsed in turn.
  // Nesting depth is bounded by the length of the text, and types in grammars are tiny, but
  // the left side is parsed recursively only after stripping its own parentheses.
  auto from = parse(s.substr(0, arrow));
  if (!from) return std::nullopt;
  auto to = parse(s.substr(arrow + 1));
  if (!to) return std::nullopt;
  return function(*from, *to);
}

const std::string& DsType::name() const {
  static const std::string kEmpty;
  return node_ ? node_->name : kEmpty;
}

bool DsType::isGround() const {
  if (!node_) return true;
  if (node_->kind == Kind::Meta) return false;
  if (node_->kind == Kind::Function) return node_->from.isGround() && node_->to.isGround();
  return true;
}

const std::string& DsType::toString() const {
  static const std::string kNone;
  return node_ ? node_->text : kNone;
}

}  // namespace gwb::ds
