#include "ttr_oracle.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace gwb::testing {

namespace {

struct RawField {
  std::string label;
  std::string rest;  // everything after the label: "==v : T", " : T", " : [..]"
};

std::string strip(const std::string& s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return s.substr(b, e - b);
}

std::vector<RawField> fieldsOf(const std::string& record) {
  std::vector<RawField> fields;
  const std::string inner = record.substr(1, record.size() - 2);
  if (strip(inner).empty()) return fields;
  int depth = 0;
  std::string current;
  auto push = [&] {
    const std::string f = strip(current);
    std::size_t i = 0;
    while (i < f.size() && (std::isalnum(static_cast<unsigned char>(f[i])) != 0 || f[i] == '_'))
      ++i;
    fields.push_back({f.substr(0, i), f.substr(i)});
    current.clear();
  };
  for (char c : inner) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == '|' && depth == 0) {
      push();
    } else {
      current += c;
    }
  }
  push();
  return fields;
}

// Renames whole identifiers outside nested record types.
std::string renameTokens(const std::string& text, const std::map<std::string, std::string>& map) {
  std::string out;
  std::size_t i = 0;
  int depth = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_') {
      std::size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) != 0 || text[j] == '_'))
        ++j;
      const std::string token = text.substr(i, j - i);
      auto it = map.find(token);
      out += (depth == 0 && it != map.end()) ? it->second : token;
      i = j;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::string normalise(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(),
                         [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }),
          s.end());
  return s;
}

bool fieldCovered(const RawField& superField, const std::vector<RawField>& subFields) {
  const std::string want = normalise(superField.rest);
  for (const RawField& g : subFields) {
    if (g.label != superField.label) continue;
    const std::string have = normalise(g.rest);
    if (have == want) return true;
    // Restrictors: ":[...]" against ":[...]", recursively.
    if (want.size() > 1 && want[0] == ':' && want[1] == '[' && have.size() > 1 && have[1] == '[')
      if (bruteForceIsSubtype(have.substr(1), want.substr(1))) return true;
    // Unmanifest ":T" covers manifest "==v:T".
    if (want[0] == ':' && have.rfind("==", 0) == 0) {
      const std::size_t colon = have.rfind(':');
      if (colon != std::string::npos && have.substr(colon) == want &&
          want.find('[') == std::string::npos)
        return true;
    }
  }
  return false;
}

}  // namespace

bool bruteForceIsSubtype(const std::string& sub, const std::string& super) {
  const std::vector<RawField> subFields = fieldsOf(strip(sub));
  const std::vector<RawField> superFields = fieldsOf(strip(super));
  std::vector<std::string> superLabels;
  std::vector<std::string> subLabels;
  for (const RawField& f : superFields)
    if (f.label != "head") superLabels.push_back(f.label);
  for (const RawField& f : subFields)
    if (f.label != "head") subLabels.push_back(f.label);
  if (superLabels.size() > subLabels.size()) return false;
  // Every injective assignment: permutations of the subtype's labels, first k used.
  std::sort(subLabels.begin(), subLabels.end());
  do {
    std::map<std::string, std::string> map;
    for (std::size_t i = 0; i < superLabels.size(); ++i) map[superLabels[i]] = subLabels[i];
    bool all = true;
    for (const RawField& f : superFields) {
      RawField renamed{f.label == "head" ? "head" : map[f.label], renameTokens(f.rest, map)};
      if (!fieldCovered(renamed, subFields)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  } while (std::next_permutation(subLabels.begin(), subLabels.end()));
  return false;
}

}  // namespace gwb::testing
