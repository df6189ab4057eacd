#include "gwb/ds/node_address.h"

#include <algorithm>
#include <cctype>

namespace gwb::ds {

bool NodeAddress::isValid(std::string_view text) {
  if (text.empty() || text[0] != '0') return false;
  return std::all_of(text.begin() + 1, text.end(), [](char c) {
    return c == '0' || c == '1' || c == 'L' || c == '*' || c == 'U';
  });
}

bool NodeAddress::isLocallyFixed() const { return !isStarUnfixed() && !isLocallyUnfixed(); }

bool NodeAddress::isFixed() const { return text_.find_first_of("*U") == std::string::npos; }

std::optional<NodeAddress> NodeAddress::up() const {
  if (text_.size() < 2) return std::nullopt;
  return NodeAddress(text_.substr(0, text_.size() - 1));
}

std::optional<NodeAddress> NodeAddress::up(std::string_view steps) const {
  if (steps.empty()) return up();
  if (text_.size() <= steps.size() ||
      text_.compare(text_.size() - steps.size(), steps.size(), steps) != 0)
    return std::nullopt;
  return NodeAddress(text_.substr(0, text_.size() - steps.size()));
}

bool NodeAddress::subsumes(const NodeAddress& other) const {
  // Matches this address as a pattern against `other`, left to right, with a table of
  // reachable positions (no recursion, no regex).
  const std::string& p = text_;
  const std::string& s = other.text_;
  std::vector<bool> reach(s.size() + 1, false);
  reach[0] = true;
  for (char c : p) {
    std::vector<bool> next(s.size() + 1, false);
    for (std::size_t i = 0; i <= s.size(); ++i) {
      if (!reach[i]) continue;
      if (c == '*') {
        if (i < s.size() && s[i] == '*') next[i + 1] = true;
        // Any run of 0/1 (possibly empty).
        std::size_t j = i;
        next[j] = true;
        while (j < s.size() && (s[j] == '0' || s[j] == '1')) next[++j] = true;
      } else if (c == 'U') {
        if (i < s.size() && s[i] == 'U') next[i + 1] = true;
        // 1*0
        std::size_t j = i;
        while (j < s.size() && s[j] == '1') ++j;
        if (j < s.size() && s[j] == '0') next[j + 1] = true;
      } else if (i < s.size() && s[i] == c) {
        next[i + 1] = true;
      }
    }
    reach = std::move(next);
  }
  return reach[s.size()];
}

// ---------------------------------------------------------------------------------------

Modality Modality::meta(std::string name) {
  Modality m;
  m.metaName_ = std::move(name);
  return m;
}

std::optional<Modality> Modality::parse(std::string_view text, std::string* error) {
  auto fail = [&](std::string message) -> std::optional<Modality> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  if (s.size() >= 2 &&
      ((s.front() == '<' && s.back() == '>') || (s.front() == '[' && s.back() == ']'))) {
    s = s.substr(1, s.size() - 2);
  }
  if (s.size() == 1 && s[0] >= 'V' && s[0] <= 'Z') return meta(std::string(s));
  std::vector<BasicOperator> ops;
  std::size_t i = 0;
  while (i < s.size()) {
    BasicOperator op;
    if (s.compare(i, 2, "/\\") == 0) {
      op.up = true;
    } else if (s.compare(i, 2, "\\/") == 0) {
      op.up = false;
    } else {
      return fail("expected a tree operator (\\/0, /\\1, \\/*, /\\L, ...) in modality '" +
                  std::string(text) + "'");
    }
    i += 2;
    while (i < s.size() && std::string_view("01L*UC").find(s[i]) != std::string_view::npos)
      op.path += s[i++];
    if (!op.up && op.path.empty())
      return fail("a down operator needs a step (\\/0, \\/1, \\/L, \\/*, \\/U)");
    ops.push_back(std::move(op));
    if (ops.size() > kMaxModalityOperators)
      return fail("modality has more than " + std::to_string(kMaxModalityOperators) + " operators");
  }
  if (ops.empty()) return fail("expected a modality, found '" + std::string(text) + "'");
  return Modality(std::move(ops));
}

Modality Modality::between(const NodeAddress& from, const NodeAddress& to) {
  std::string a = from.toString();
  const std::string& b = to.toString();
  std::vector<BasicOperator> ops;
  while (b.compare(0, a.size(), a) != 0) {
    ops.push_back(BasicOperator{true, std::string(1, a.back())});
    a.pop_back();
  }
  for (std::size_t i = a.size(); i < b.size(); ++i)
    ops.push_back(BasicOperator{false, std::string(1, b[i])});
  return Modality(std::move(ops));
}

Modality Modality::inverse() const {
  std::vector<BasicOperator> ops;
  for (auto it = ops_.rbegin(); it != ops_.rend(); ++it) ops.push_back({!it->up, it->path});
  return Modality(std::move(ops));
}

std::optional<NodeAddress> Modality::apply(const NodeAddress& from) const {
  NodeAddress at = from;
  for (const BasicOperator& op : ops_) {
    if (op.up) {
      auto next = at.up(op.path);
      if (!next) return std::nullopt;
      at = *next;
    } else {
      at = at.down(op.path);
    }
  }
  return at;
}

std::string Modality::opsString() const {
  if (isMeta()) return metaName_;
  std::string out;
  for (const BasicOperator& op : ops_) out += op.toString();
  return out;
}

std::string Modality::toString() const { return "<" + opsString() + ">"; }

}  // namespace gwb::ds
