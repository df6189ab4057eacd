#include "gwb/earley/grammar.h"

#include <sstream>

namespace gwb {

std::string unsupportedPriorMessage(double prior) {
  std::ostringstream out;
  out << "Dirichlet prior " << prior << " is outside the supported range [" << kMinDirichletPrior
      << ", " << kMaxDirichletPrior << "]";
  return out.str();
}

namespace {
const std::vector<RuleId> kNoRules;

std::string quoteTerminal(const std::string& word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  out += '\'';
  return out;
}
}  // namespace

const char* ruleKindName(RuleKind kind) {
  switch (kind) {
    case RuleKind::Epsilon: return "epsilon";
    case RuleKind::Lexical: return "lexical";
    case RuleKind::MultiTerminal: return "multi-terminal";
    case RuleKind::Fragment: return "fragment";
    case RuleKind::Phrasal: return "phrasal";
  }
  return "phrasal";
}

std::size_t Grammar::hashRule(SymbolId lhs, const std::vector<SymbolId>& rhs) {
  std::size_t h = std::hash<SymbolId>()(lhs);
  for (SymbolId s : rhs) h = h * 1000003u ^ std::hash<SymbolId>()(s);
  return h;
}

RuleId Grammar::addRule(Rule rule) {
  const auto id = static_cast<RuleId>(rules_.size());
  const auto grow = [this](std::vector<std::vector<RuleId>>& index) {
    if (index.size() < symbols_.size()) index.resize(symbols_.size());
  };
  grow(byLhs_);
  grow(byFirstRhs_);
  auto& lhsRules = byLhs_[static_cast<std::size_t>(rule.lhs)];
  if (lhsRules.empty()) lhsOrder_.push_back(rule.lhs);
  lhsRules.push_back(id);
  if (!rule.rhs.empty()) byFirstRhs_[static_cast<std::size_t>(rule.rhs.front())].push_back(id);
  ruleHash_.emplace(hashRule(rule.lhs, rule.rhs), id);
  rules_.push_back(std::move(rule));
  return id;
}

std::optional<RuleId> Grammar::findRule(SymbolId lhs, const std::vector<SymbolId>& rhs) const {
  auto [first, last] = ruleHash_.equal_range(hashRule(lhs, rhs));
  for (auto it = first; it != last; ++it) {
    const Rule& r = rule(it->second);
    if (r.lhs == lhs && r.rhs == rhs) return it->second;
  }
  return std::nullopt;
}

RuleKind Grammar::kind(RuleId id) const {
  const Rule& r = rule(id);
  if (r.rhs.empty()) return RuleKind::Epsilon;
  std::size_t terminals = 0;
  for (SymbolId s : r.rhs) terminals += symbols_.isTerminal(s) ? 1 : 0;
  if (terminals == 0) return RuleKind::Phrasal;
  if (terminals < r.rhs.size()) return RuleKind::Fragment;
  return terminals == 1 ? RuleKind::Lexical : RuleKind::MultiTerminal;
}

const std::vector<RuleId>& Grammar::rulesWithLhs(SymbolId symbol) const {
  if (symbol < 0 || static_cast<std::size_t>(symbol) >= byLhs_.size()) return kNoRules;
  return byLhs_[static_cast<std::size_t>(symbol)];
}

const std::vector<RuleId>& Grammar::rulesWithFirstRhs(SymbolId symbol) const {
  if (symbol < 0 || static_cast<std::size_t>(symbol) >= byFirstRhs_.size()) return kNoRules;
  return byFirstRhs_[static_cast<std::size_t>(symbol)];
}

double Grammar::lhsProbabilitySum(SymbolId symbol) const {
  double sum = 0.0;
  for (RuleId id : rulesWithLhs(symbol)) sum += rule(id).probability;
  return sum;
}

bool Grammar::hasPriors() const {
  for (const Rule& r : rules_)
    if (r.prior) return true;
  return false;
}

bool Grammar::hasUnknownWordModel() const {
  for (const Rule& r : rules_) {
    if (r.rhs.size() == 1 && symbols_.isTerminal(r.rhs[0]) &&
        symbols_.name(r.rhs[0]).compare(0, 3, "UNK") == 0)
      return true;
  }
  return false;
}

std::string Grammar::rhsText(RuleId id) const {
  const Rule& r = rule(id);
  if (r.rhs.empty()) return "ε";
  std::string out;
  for (SymbolId s : r.rhs) {
    if (!out.empty()) out += ' ';
    out += symbols_.isTerminal(s) ? quoteTerminal(symbols_.name(s)) : symbols_.name(s);
  }
  return out;
}

std::string Grammar::ruleText(RuleId id) const {
  return symbols_.name(rule(id).lhs) + " -> " + rhsText(id);
}

}  // namespace gwb
