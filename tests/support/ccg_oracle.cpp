#include "ccg_oracle.h"

#include <algorithm>
#include <cctype>
#include <memory>

namespace gwb::testing {

namespace {

// The oracle's own categories: a string-built tree.
struct OracleCategory {
  std::string atom;
  char slash = 0;
  std::shared_ptr<OracleCategory> result;
  std::shared_ptr<OracleCategory> argument;
};
using OracleCat = std::shared_ptr<OracleCategory>;

OracleCat parsePrimary(const std::string& text, std::size_t* pos);

OracleCat parseSequence(const std::string& text, std::size_t* pos) {
  OracleCat left = parsePrimary(text, pos);
  while (left && *pos < text.size() &&
         (text[*pos] == '/' || text[*pos] == '\\' || text[*pos] == '|')) {
    auto node = std::make_shared<OracleCategory>();
    node->slash = text[(*pos)++];
    node->result = left;
    node->argument = parsePrimary(text, pos);
    if (!node->argument) return nullptr;
    left = node;
  }
  return left;
}

OracleCat parsePrimary(const std::string& text, std::size_t* pos) {
  if (*pos >= text.size()) return nullptr;
  if (text[*pos] == '(') {
    ++*pos;
    OracleCat inner = parseSequence(text, pos);
    if (*pos >= text.size() || text[*pos] != ')') return nullptr;
    ++*pos;
    return inner;
  }
  auto node = std::make_shared<OracleCategory>();
  while (*pos < text.size() && std::isalnum(static_cast<unsigned char>(text[*pos]))) {
    node->atom += text[(*pos)++];
  }
  return node->atom.empty() ? nullptr : node;
}

std::string show(const OracleCat& c, bool inner) {
  if (!c->slash) return c->atom;
  std::string s = show(c->result, true) + c->slash + show(c->argument, true);
  return inner ? "(" + s + ")" : s;
}

bool unify(const OracleCat& a, const OracleCat& b) {
  if (!a->slash || !b->slash) return !a->slash && !b->slash && a->atom == b->atom;
  const bool slashes = a->slash == b->slash || a->slash == '|' || b->slash == '|';
  return slashes && unify(a->result, b->result) && unify(a->argument, b->argument);
}

OracleCat make(OracleCat result, char slash, OracleCat argument) {
  auto node = std::make_shared<OracleCategory>();
  node->result = std::move(result);
  node->slash = slash;
  node->argument = std::move(argument);
  return node;
}

struct Partial {
  OracleCat category;
  ccg::Term semantics;
  double score = 0;
  std::map<std::string, double> features;
  std::string tree;
};

ccg::Term applyTerm(const ccg::Term& f, const ccg::Term& g) {
  ccg::Term t = ccg::betaReduce(ccg::makeApplication(f, {g}));
  return t ? ccg::canonicalTerm(t) : nullptr;
}

ccg::Term composeTerms(const ccg::Term& f, const ccg::Term& g) {
  const int x = std::max(f->maxVariable, g->maxVariable) + 1;
  ccg::TypePtr type = g->kind == ccg::TermKind::Lambda ? g->variableType : ccg::atomicType("e");
  ccg::Term t = ccg::betaReduce(ccg::makeLambda(
      x, type, ccg::makeApplication(f, {ccg::makeApplication(g, {ccg::makeVariable(x)})})));
  return t ? ccg::canonicalTerm(t) : nullptr;
}

Partial joined(const Partial& l, const Partial& r, OracleCat category, ccg::Term semantics,
               const char* rule) {
  Partial p;
  p.category = std::move(category);
  p.semantics = std::move(semantics);
  p.score = l.score + r.score;
  p.features = l.features;
  for (const auto& [name, value] : r.features) p.features[name] += value;
  p.tree = "[" + std::string(rule) + " " + l.tree + " " + r.tree + "]";
  return p;
}

}  // namespace

std::vector<CcgOracleDerivation> enumerateCcgDerivations(const std::vector<std::string>& words,
                                                         const std::vector<CcgOracleItem>& items,
                                                         const CcgOracleOptions& options) {
  const std::size_t n = words.size();
  std::vector<std::vector<std::vector<Partial>>> table(n + 1,
                                                       std::vector<std::vector<Partial>>(n + 1));
  auto weightOf = [&](const std::string& name) {
    auto it = options.weights.find(name);
    return it == options.weights.end() ? 0.0 : it->second;
  };
  for (std::size_t span = 1; span <= n; ++span) {
    for (std::size_t i = 0; i + span <= n; ++i) {
      const std::size_t j = i + span;
      auto& here = table[i][j];
      for (const CcgOracleItem& item : items) {
        if (item.words.size() != span) continue;
        bool same = true;
        for (std::size_t w = 0; w < span; ++w) same = same && item.words[w] == words[i + w];
        if (!same) continue;
        std::size_t pos = 0;
        Partial p;
        p.category = parseSequence(item.category, &pos);
        p.semantics = ccg::canonicalTerm(item.semantics);
        p.features = item.features;
        for (const auto& [name, value] : item.features) p.score += weightOf(name) * value;
        p.tree = item.category;
        here.push_back(std::move(p));
      }
      for (std::size_t k = i + 1; k < j; ++k) {
        for (const Partial& l : table[i][k]) {
          for (const Partial& r : table[k][j]) {
            const OracleCat& a = l.category;
            const OracleCat& b = r.category;
            // A functor has a direction; '|' only matches inside an argument.
            const bool aRight = a->slash == '/';
            const bool aLeft = a->slash == '\\';
            const bool bRight = b->slash == '/';
            const bool bLeft = b->slash == '\\';
            if (aRight && unify(a->argument, b)) {
              if (auto s = applyTerm(l.semantics, r.semantics)) {
                here.push_back(joined(l, r, a->result, s, ">"));
              }
            }
            if (bLeft && unify(b->argument, a)) {
              if (auto s = applyTerm(r.semantics, l.semantics)) {
                here.push_back(joined(l, r, b->result, s, "<"));
              }
            }
            if (!options.composition) continue;
            if (aRight && bRight && unify(a->argument, b->result)) {
              if (auto s = composeTerms(l.semantics, r.semantics)) {
                here.push_back(joined(l, r, make(a->result, b->slash, b->argument), s, ">B"));
              }
            }
            if (aLeft && bLeft && unify(b->argument, a->result)) {
              if (auto s = composeTerms(r.semantics, l.semantics)) {
                here.push_back(joined(l, r, make(b->result, a->slash, a->argument), s, "<B"));
              }
            }
          }
        }
      }
    }
  }
  std::vector<CcgOracleDerivation> out;
  if (n == 0) return out;
  for (const Partial& p : table[0][n]) {
    const std::string category = show(p.category, false);
    bool isRoot = options.roots.empty();
    for (const std::string& root : options.roots) isRoot = isRoot || root == category;
    if (!isRoot) continue;
    CcgOracleDerivation d;
    d.category = category;
    d.semantics = p.semantics;
    d.score = p.score;
    d.features = p.features;
    d.tree = p.tree;
    if (options.logicalFormFeatures) {
      for (const auto& [name, value] : options.logicalFormFeatures(p.semantics)) {
        d.features[name] += value;
        d.score += weightOf(name) * value;
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace gwb::testing
