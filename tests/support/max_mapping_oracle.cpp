#include "max_mapping_oracle.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <vector>

namespace gwb::testing {

namespace {

// Splits `text` at `separator` characters outside brackets and parentheses.
std::vector<std::string> splitTopLevel(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == separator && depth == 0) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

struct TextField {
  std::string label;
  std::string value;   // empty when unmanifest
  std::string type;    // empty for restrictors
  std::string nested;  // a restrictor's record type text
};

std::vector<TextField> fieldsOf(const std::string& record) {
  std::vector<TextField> out;
  const std::string inner = trim(record).substr(1, trim(record).size() - 2);
  if (trim(inner).empty()) return out;
  for (const std::string& raw : splitTopLevel(inner, '|')) {
    const std::string f = trim(raw);
    TextField field;
    // The type follows the last " : " outside brackets.
    std::size_t colon = std::string::npos;
    int depth = 0;
    for (std::size_t i = 0; i + 2 < f.size(); ++i) {
      if (f[i] == '[' || f[i] == '(') ++depth;
      if (f[i] == ']' || f[i] == ')') --depth;
      if (depth == 0 && f.compare(i, 3, " : ") == 0) colon = i;
    }
    std::string left = f.substr(0, colon);
    const std::string right = trim(f.substr(colon + 3));
    if (!right.empty() && right[0] == '[') {
      field.label = trim(left);
      field.nested = right;
    } else {
      field.type = right;
      const std::size_t eq = left.find("==");
      if (eq == std::string::npos) {
        field.label = trim(left);
      } else {
        field.label = trim(left.substr(0, eq));
        field.value = trim(left.substr(eq + 2));
      }
    }
    if (field.label != "head") out.push_back(field);
  }
  return out;
}

// The parts of a value: {functor, arg...} for `f(a, b)`, else {value}.
std::vector<std::string> valueParts(const std::string& value, bool* predicate) {
  const std::size_t open = value.find('(');
  *predicate = open != std::string::npos && open > 0 && value.back() == ')';
  if (!*predicate) return {value};
  std::vector<std::string> parts{value.substr(0, open)};
  for (const std::string& a : splitTopLevel(value.substr(open + 1, value.size() - open - 2), ','))
    parts.push_back(trim(a));
  return parts;
}

// Marks a symbol (or the base of `base.rest`) that names a field: "L:" + name (+ rest).
std::string asLabel(const std::string& symbol, const std::set<std::string>& labels,
                    const std::map<std::string, std::string>* renaming) {
  const std::size_t dot = symbol.find('.');
  const std::string base = symbol.substr(0, dot);
  const std::string rest = dot == std::string::npos ? "" : symbol.substr(dot);
  if (labels.count(base) == 0) return symbol;
  if (renaming == nullptr) return "L:" + base + rest;
  const auto it = renaming->find(base);
  return it == renaming->end() ? "unpaired:" + base : "L:" + it->second + rest;
}

double pairScore(const TextField& h, const TextField& g, const std::set<std::string>& hLabels,
                 const std::set<std::string>& gLabels,
                 const std::map<std::string, std::string>& renaming) {
  if (!g.nested.empty()) return 1 + bruteForceMaxMapping(h.nested, g.nested);
  bool gPredicate = false;
  bool hPredicate = false;
  const std::vector<std::string> gParts =
      g.value.empty() ? std::vector<std::string>{} : valueParts(g.value, &gPredicate);
  const std::vector<std::string> hParts =
      h.value.empty() ? std::vector<std::string>{} : valueParts(h.value, &hPredicate);
  const double total = 1 + static_cast<double>(gParts.size());
  double matched = h.type == g.type ? 1 : 0;
  if (!h.value.empty() && !g.value.empty() && hPredicate == gPredicate) {
    std::size_t first = 0;
    if (gPredicate) {
      matched += hParts[0] == gParts[0] ? 1 : 0;
      first = 1;
    }
    if (hParts.size() == gParts.size())
      for (std::size_t i = first; i < gParts.size(); ++i)
        if (asLabel(hParts[i], hLabels, &renaming) == asLabel(gParts[i], gLabels, nullptr))
          matched += 1;
  }
  return matched / total;
}

}  // namespace

double bruteForceRecordSize(const std::string& record) {
  double n = 0;
  for (const TextField& f : fieldsOf(record))
    n += 1 + (f.nested.empty() ? 0 : bruteForceRecordSize(f.nested));
  return n;
}

double bruteForceMaxMapping(const std::string& hypothesis, const std::string& gold) {
  const std::vector<TextField> h = fieldsOf(hypothesis);
  const std::vector<TextField> g = fieldsOf(gold);
  std::set<std::string> hLabels;
  std::set<std::string> gLabels;
  for (const TextField& f : fieldsOf(hypothesis)) hLabels.insert(f.label);
  for (const TextField& f : fieldsOf(gold)) gLabels.insert(f.label);
  hLabels.insert("head");
  gLabels.insert("head");
  std::vector<int> partner(h.size(), -1);
  std::vector<bool> used(g.size(), false);
  double best = 0;
  std::function<void(std::size_t)> enumerate = [&](std::size_t i) {
    if (i == h.size()) {
      std::map<std::string, std::string> renaming;
      for (std::size_t k = 0; k < h.size(); ++k)
        if (partner[k] >= 0) renaming[h[k].label] = g[static_cast<std::size_t>(partner[k])].label;
      double total = 0;
      for (std::size_t k = 0; k < h.size(); ++k)
        if (partner[k] >= 0)
          total +=
              pairScore(h[k], g[static_cast<std::size_t>(partner[k])], hLabels, gLabels, renaming);
      best = std::max(best, total);
      return;
    }
    enumerate(i + 1);
    for (std::size_t j = 0; j < g.size(); ++j) {
      if (used[j] || h[i].nested.empty() != g[j].nested.empty()) continue;
      used[j] = true;
      partner[i] = static_cast<int>(j);
      enumerate(i + 1);
      partner[i] = -1;
      used[j] = false;
    }
  };
  enumerate(0);
  return best;
}

}  // namespace gwb::testing
