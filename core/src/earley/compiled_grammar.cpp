#include "gwb/earley/compiled_grammar.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <limits>
#include <queue>
#include <sstream>

#include "gwb/common/eigen.h"

namespace gwb {

bool BitSet::unite(const BitSet& other) {
  bool changed = false;
  for (std::size_t k = 0; k < words_.size() && k < other.words_.size(); ++k) {
    const std::uint64_t merged = words_[k] | other.words_[k];
    changed |= merged != words_[k];
    words_[k] = merged;
  }
  return changed;
}

CompiledGrammar::BitRows CompiledGrammar::BitRows::pack(const std::vector<BitSet>& sets) {
  BitRows packed;
  packed.rowOf.assign(sets.size(), -1);
  for (std::size_t s = 0; s < sets.size(); ++s) {
    if (sets[s].words().empty()) continue;
    packed.wordsPerRow = sets[s].words().size();
    packed.rowOf[s] = static_cast<std::int32_t>(packed.words.size() / packed.wordsPerRow);
    packed.words.insert(packed.words.end(), sets[s].words().begin(), sets[s].words().end());
  }
  return packed;
}

std::string unknownWordSignature(const std::string& word) {
  std::string sig = "UNK";
  bool hasLower = false;
  bool hasDigit = false;
  bool hasDash = false;
  bool allDigits = !word.empty();
  for (char ch : word) {
    const auto c = static_cast<unsigned char>(ch);
    hasLower |= std::islower(c) != 0;
    hasDigit |= std::isdigit(c) != 0;
    hasDash |= ch == '-';
    allDigits &= std::isdigit(c) != 0;
  }
  const bool firstUpper = !word.empty() && std::isupper(static_cast<unsigned char>(word[0]));
  if (firstUpper && !hasLower) {
    sig += "-ALLC";
  } else if (firstUpper) {
    sig += "-INIT";
  } else if (hasLower) {
    sig += "-LC";
  }
  if (hasDash) sig += "-DASH";
  if (allDigits) {
    sig += "-NUM";
  } else if (hasDigit) {
    sig += "-DIG";
  } else if (word.size() > 3) {
    sig += static_cast<char>(std::tolower(static_cast<unsigned char>(word.back())));
  }
  return sig;
}

namespace {

constexpr int kMaxNullableOccurrences = 12;

// A sparse relation among nonterminals: rows[Z] = (Y, weight) edges.
using Relation = std::vector<std::vector<ClosureEntry>>;

// The condition number of (I − P)^-1 with respect to P, ‖P‖₁·‖(I − P)^-1‖₁, from a = I − P and
// its inverse (both at hand, so it costs O(m²)): a relative change δ in the entries of P changes
// the closure by up to about δ times it. (The plain condition number of a misses a one-symbol
// cycle A → A p entirely: it is 1 for every p.)
double conditionNumber(const Eigen::MatrixXd& a, const Eigen::MatrixXd& inverse) {
  const Eigen::MatrixXd p = Eigen::MatrixXd::Identity(a.rows(), a.cols()) - a;
  return p.cwiseAbs().colwise().sum().maxCoeff() * inverse.cwiseAbs().colwise().sum().maxCoeff();
}

// Iterative refinement of X ≈ A^-1: the residual I − A X in extended precision, then
// X += A^-1 (I − A X) through the same factorisation. Near-singular A (a unit cycle of mass
// 1 − 1e-6 has condition number ~1e6) loses ~log10(cond) digits in the plain inverse; each step
// wins them back, down to the accuracy the inputs allow. Skipped for well-conditioned A (cond
// ≤ 100: at most ~2e-14 relative error to win). The residual computed in double is no guide: for
// A = [1 −p; −p 1], p = 0.999999, it is exactly 0 while X is off by 1.1e-11.
void refineInverse(const Eigen::MatrixXd& a, const Eigen::FullPivLU<Eigen::MatrixXd>& lu,
                   Eigen::MatrixXd& inverse) {
  using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  const Eigen::Index m = a.rows();
  if (!(conditionNumber(a, inverse) > 100.0)) return;
  const LongMatrix along = a.cast<long double>();
  for (int step = 0; step < 3; ++step) {
    const LongMatrix residual = LongMatrix::Identity(m, m) - along * inverse.cast<long double>();
    const Eigen::MatrixXd correction = lu.solve(residual.cast<double>());
    if (!correction.allFinite()) return;
    inverse += correction;
    if (!(correction.cwiseAbs().maxCoeff() >
          std::numeric_limits<double>::epsilon() * inverse.cwiseAbs().maxCoeff()))
      return;
  }
}

// Strongly connected components of the graph with `edges[v]` the successors of v (Tarjan's
// algorithm, iteratively), in reverse topological order: a component comes after every
// component it reaches. Only nodes with successors start a search; `component[v]` is the index
// of v's component, or -1 for a node never reached.
std::vector<std::vector<std::size_t>> stronglyConnectedComponents(
    const std::vector<std::vector<std::size_t>>& edges, std::vector<int>& component) {
  const std::size_t n = edges.size();
  std::vector<int> index(n, -1), low(n, 0);
  component.assign(n, -1);
  std::vector<bool> onStack(n, false);
  std::vector<std::size_t> stack;
  std::vector<std::vector<std::size_t>> components;
  int counter = 0;
  struct Frame {
    std::size_t node;
    std::size_t edge;
  };
  for (std::size_t root = 0; root < n; ++root) {
    if (index[root] >= 0 || edges[root].empty()) continue;
    std::vector<Frame> frames{{root, 0}};
    index[root] = low[root] = counter++;
    stack.push_back(root);
    onStack[root] = true;
    while (!frames.empty()) {
      Frame& f = frames.back();
      if (f.edge < edges[f.node].size()) {
        const std::size_t next = edges[f.node][f.edge++];
        if (index[next] < 0) {
          index[next] = low[next] = counter++;
          stack.push_back(next);
          onStack[next] = true;
          frames.push_back({next, 0});
        } else if (onStack[next]) {
          low[f.node] = std::min(low[f.node], index[next]);
        }
        continue;
      }
      const std::size_t node = f.node;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().node] = std::min(low[frames.back().node], low[node]);
      if (low[node] == index[node]) {
        std::vector<std::size_t> members;
        std::size_t member = 0;
        do {
          member = stack.back();
          stack.pop_back();
          onStack[member] = false;
          component[member] = static_cast<int>(components.size());
          members.push_back(member);
        } while (member != node);
        components.push_back(std::move(members));
      }
    }
  }
  return components;
}

// Closures whose (I − P) has a condition number above this get a warning: a relative change of
// 1e-16 in the rule probabilities (their rounding to doubles) moves the closure by more than
// 1e-8, and probabilities written with fewer digits move it correspondingly more.
constexpr double kIllConditioned = 1e8;

// The worst-conditioned strongly connected component a closure met.
struct Conditioning {
  double condition = 0.0;
  std::vector<std::size_t> members;  // its symbols
};

// Computes the rows of R = (I − P)^-1 over the nonterminals that take part in P, one strongly
// connected component at a time (dense inverse inside a component, sparse propagation between
// them). Returns false when the series diverges. `conditioning` (if given) gets the component
// whose (I − P) is worst conditioned.
bool sumClosure(const Relation& p, std::size_t n, std::vector<std::vector<ClosureEntry>>& rows,
                Conditioning* conditioning = nullptr) {
  rows.assign(n, {});
  std::vector<std::vector<std::size_t>> edges(n);
  for (std::size_t v = 0; v < n; ++v)
    for (const ClosureEntry& e : p[v]) edges[v].push_back(static_cast<std::size_t>(e.symbol));
  std::vector<int> component;
  const std::vector<std::vector<std::size_t>> components =
      stronglyConnectedComponents(edges, component);

  std::vector<double> accumulator(n, 0.0);
  std::vector<std::size_t> touched;
  const auto addRow = [&](const std::vector<ClosureEntry>& row, double scale) {
    for (const ClosureEntry& e : row) {
      const auto k = static_cast<std::size_t>(e.symbol);
      if (accumulator[k] == 0.0) touched.push_back(k);
      accumulator[k] += scale * e.value;
    }
  };
  for (const auto& members : components) {  // sinks first
    const std::size_t m = members.size();
    const int c = component[members[0]];
    Eigen::MatrixXd inverse =
        Eigen::MatrixXd::Identity(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(m));
    bool cyclic = m > 1;
    for (const ClosureEntry& e : p[members[0]])
      cyclic |= static_cast<std::size_t>(e.symbol) == members[0];
    if (cyclic) {
      std::vector<Eigen::Index> position(n, -1);
      for (std::size_t k = 0; k < m; ++k) position[members[k]] = static_cast<Eigen::Index>(k);
      Eigen::MatrixXd a =
          Eigen::MatrixXd::Identity(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(m));
      for (std::size_t k = 0; k < m; ++k)
        for (const ClosureEntry& e : p[members[k]])
          if (component[static_cast<std::size_t>(e.symbol)] == c)
            a(static_cast<Eigen::Index>(k), position[static_cast<std::size_t>(e.symbol)]) -=
                e.value;
      Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
      if (!lu.isInvertible()) return false;
      inverse = lu.inverse();
      refineInverse(a, lu, inverse);
      for (Eigen::Index r = 0; r < inverse.rows(); ++r)
        for (Eigen::Index col = 0; col < inverse.cols(); ++col)
          if (!std::isfinite(inverse(r, col)) || inverse(r, col) <= 0.0) return false;
      const double condition = conditionNumber(a, inverse);
      if (conditioning != nullptr && condition > conditioning->condition) {
        conditioning->condition = condition;
        conditioning->members = members;
      }
    }
    // B(W, ·) = e_W + Σ_{V outside} P(W, V) R(V, ·), then R(Z, ·) = Σ_W inverse(Z, W) B(W, ·).
    std::vector<std::vector<ClosureEntry>> b(m);
    for (std::size_t k = 0; k < m; ++k) {
      touched.clear();
      accumulator[members[k]] = 1.0;
      touched.push_back(members[k]);
      for (const ClosureEntry& e : p[members[k]]) {
        const auto v = static_cast<std::size_t>(e.symbol);
        if (component[v] == c) continue;
        addRow(rows[v].empty() ? std::vector<ClosureEntry>{{e.symbol, 1.0}} : rows[v], e.value);
      }
      for (std::size_t t : touched) {
        b[k].push_back({static_cast<SymbolId>(t), accumulator[t]});
        accumulator[t] = 0.0;
      }
    }
    for (std::size_t z = 0; z < m; ++z) {
      touched.clear();
      for (std::size_t w = 0; w < m; ++w) {
        const double weight = inverse(static_cast<Eigen::Index>(z), static_cast<Eigen::Index>(w));
        if (weight != 0.0) addRow(b[w], weight);
      }
      auto& row = rows[members[z]];
      for (std::size_t t : touched) {
        if (accumulator[t] > 0.0) row.push_back({static_cast<SymbolId>(t), accumulator[t]});
        accumulator[t] = 0.0;
      }
      std::sort(row.begin(), row.end(),
                [](const ClosureEntry& x, const ClosureEntry& y) { return x.symbol < y.symbol; });
    }
  }
  return true;
}

}  // namespace

class CompiledGrammarBuilder {
 public:
  CompiledGrammarBuilder(const Grammar& grammar, Diagnostics& diagnostics, const std::string& file)
      : g_(grammar), diagnostics_(diagnostics), file_(file) {}

  std::optional<CompiledGrammar> build() {
    CompiledGrammar cg;
    cg.grammar_ = &g_;
    if (!g_.start()) {
      diagnostics_.error(file_, 0, 0, "the grammar has no start symbol");
      return std::nullopt;
    }
    const std::size_t n = g_.symbols().size() + 1;
    cg.symbolCount_ = n;
    cg.goal_ = static_cast<SymbolId>(n - 1);
    cg.start_ = *g_.start();
    cg.sourceRuleCount_ = g_.ruleCount();
    if (!computeNullable(cg)) return std::nullopt;
    if (!compileRules(cg)) return std::nullopt;
    indexRules(cg);
    if (!computeClosures(cg)) return std::nullopt;
    computeFirstAndFollow(cg);
    computeLogs(cg);
    for (SymbolId x : g_.lhsSymbols()) {
      for (RuleId id : g_.rulesWithLhs(x)) {
        const Rule& r = g_.rule(id);
        if (r.rhs.size() == 1 && g_.symbols().isTerminal(r.rhs[0]) &&
            g_.symbols().name(r.rhs[0]).compare(0, 3, "UNK") == 0) {
          cg.unknownPreterminals_.push_back(x);
          break;
        }
      }
    }
    return cg;
  }

  // See CompiledGrammar::reweight. Checks the rules before changing anything.
  bool reweight(CompiledGrammar& cg) {
    if (cg.grammar_ != &g_ || cg.hasEpsilon_ || cg.symbolCount_ != g_.symbols().size() + 1 ||
        cg.sourceRuleCount_ != g_.ruleCount() || !g_.start() || *g_.start() != cg.start_ ||
        cg.rules_.rules.empty()) {
      return false;
    }
    // Without ε-rules the compiled rules are the rules with probability > 0, in id order, and
    // then the goal rule (compileRules).
    const std::size_t compiledRules = cg.rules_.rules.size() - 1;
    std::size_t next = 0;
    for (RuleId id = 0; id < static_cast<RuleId>(g_.ruleCount()); ++id) {
      const Rule& r = g_.rule(id);
      if (r.rhs.empty()) return false;
      if (r.probability <= 0.0) continue;
      if (next == compiledRules) return false;
      const CompiledRule& c = cg.rules_.rules[next++];
      if (c.source != id || c.lhs != r.lhs || c.rhs.size() != r.rhs.size() ||
          !std::equal(c.rhs.begin(), c.rhs.end(), r.rhs.begin())) {
        return false;
      }
    }
    if (next != compiledRules) return false;

    for (std::size_t k = 0; k < compiledRules; ++k) {
      CompiledRule& c = cg.rules_.rules[k];
      // As compileRules with every ε-probability 0: p / (1 − 0) is p.
      c.probability = g_.rule(c.source).probability;
      c.viterbiWeight = c.probability;
    }
    if (!computeClosures(cg)) return false;
    computeLogs(cg);
    return true;
  }

 private:
  bool isNt(SymbolId s) const { return g_.symbols().isNonterminal(s); }

  void computeLogs(CompiledGrammar& cg) {
    for (CompiledRule& r : cg.rules_.rules) {
      r.logProbability = std::log(r.probability);
      r.logViterbiWeight = std::log(r.viterbiWeight);
    }
    for (ClosureEntry& e : cg.leftCorner_.values) e.logValue = std::log(e.value);
    for (CompiledGrammar::UnitEntry& e : cg.unitInto_.values) {
      e.logSum = std::log(e.sum);
      e.logBest = std::log(e.best);
    }
    for (ClosureEntry& e : cg.unitFrom_.values) e.logValue = std::log(e.value);
  }

  // e(X), the probability that X derives ε, is the least fixed point of the polynomial system
  // e(X) = Σ_{X→α, α all nonterminals} P(X→α)·Π e(α_i). It is solved exactly, one strongly
  // connected component of the "X uses Y" graph at a time (sinks first), by Newton's method
  // from 0 in long double: for these monotone systems it converges monotonically to the least
  // fixed point (Etessami & Yannakakis 2009), quadratically unless the component is critical,
  // where it still halves the error each step. Plain iteration needed ~1/(1 − ρ) rounds and
  // gave up near-critical cycles after 100,000.
  bool computeNullable(CompiledGrammar& cg) {
    const std::size_t n = cg.symbolCount_;
    cg.nullable_.assign(n, 0.0);
    cg.nullViterbi_.assign(n, 0.0);
    cg.bestNullRule_.assign(n, -1);
    cg.nullCounts_.assign(n, {});
    std::vector<RuleId> candidates;  // rules whose RHS is all nonterminals (or empty)
    for (RuleId id = 0; id < static_cast<RuleId>(g_.ruleCount()); ++id) {
      const Rule& r = g_.rule(id);
      if (r.rhs.empty()) cg.hasEpsilon_ = true;
      if (std::all_of(r.rhs.begin(), r.rhs.end(), [&](SymbolId s) { return isNt(s); }))
        candidates.push_back(id);
    }
    if (!cg.hasEpsilon_) return true;
    const auto at = [](SymbolId s) { return static_cast<std::size_t>(s); };

    // Which symbols derive ε at all; the others stay 0 (Newton needs them left out).
    std::vector<bool> derives(n, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (RuleId id : candidates) {
        const Rule& r = g_.rule(id);
        if (derives[at(r.lhs)] || !(r.probability > 0.0)) continue;
        if (std::all_of(r.rhs.begin(), r.rhs.end(), [&](SymbolId s) { return derives[at(s)]; })) {
          derives[at(r.lhs)] = true;
          changed = true;
        }
      }
    }
    std::vector<std::vector<RuleId>> rulesOf(n);  // the rules that derive ε, by LHS
    std::vector<std::vector<std::size_t>> uses(n);
    for (RuleId id : candidates) {
      const Rule& r = g_.rule(id);
      if (!(r.probability > 0.0) ||
          !std::all_of(r.rhs.begin(), r.rhs.end(), [&](SymbolId s) { return derives[at(s)]; }))
        continue;
      rulesOf[at(r.lhs)].push_back(id);
      for (SymbolId s : r.rhs) uses[at(r.lhs)].push_back(at(s));
    }
    for (std::size_t x = 0; x < n; ++x)
      if (derives[x] && uses[x].empty()) uses[x].push_back(x);  // ε-rules only: a component too
    std::vector<int> component;
    const std::vector<std::vector<std::size_t>> components =
        stronglyConnectedComponents(uses, component);
    std::vector<long double> e(n, 0.0L);
    for (const std::vector<std::size_t>& members : components) {
      if (!solveNullComponent(members, component, rulesOf, e)) return false;
    }
    for (std::size_t x = 0; x < n; ++x) cg.nullable_[x] = static_cast<double>(e[x]);
    if (!computeNullViterbi(cg, candidates)) return false;
    return computeNullCounts(cg, candidates);
  }

  // Newton's method on one component (see computeNullable); `e` holds the solved components
  // it uses and gets this one's values.
  bool solveNullComponent(const std::vector<std::size_t>& members,
                          const std::vector<int>& component,
                          const std::vector<std::vector<RuleId>>& rulesOf,
                          std::vector<long double>& e) {
    using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
    using LongVector = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
    const auto m = static_cast<Eigen::Index>(members.size());
    const int c = component[members[0]];
    std::vector<Eigen::Index> position(e.size(), -1);
    for (Eigen::Index k = 0; k < m; ++k) position[members[static_cast<std::size_t>(k)]] = k;
    // f(x) and its Jacobian at the current values of the members.
    LongVector f(m);
    LongMatrix jacobian(m, m);
    std::vector<long double> prefix;
    const auto evaluate = [&]() {
      f.setZero();
      jacobian.setZero();
      for (Eigen::Index k = 0; k < m; ++k) {
        for (RuleId id : rulesOf[members[static_cast<std::size_t>(k)]]) {
          const Rule& r = g_.rule(id);
          const long double p = r.probability;
          // Π_{j≠i} e(α_j) from prefix and suffix products.
          prefix.assign(r.rhs.size() + 1, 1.0L);
          for (std::size_t i = 0; i < r.rhs.size(); ++i)
            prefix[i + 1] = prefix[i] * e[static_cast<std::size_t>(r.rhs[i])];
          f(k) += p * prefix.back();
          long double suffix = 1.0L;
          for (std::size_t i = r.rhs.size(); i-- > 0;) {
            const auto s = static_cast<std::size_t>(r.rhs[i]);
            if (component[s] == c) jacobian(k, position[s]) += p * prefix[i] * suffix;
            suffix *= e[s];
          }
        }
      }
    };
    // Newton's step is (nearly) the remaining error: it stops when the step falls below
    // double's rounding, or when the steps stop shrinking at the rounding floor of long double
    // (a critical component, where I − f' becomes singular, ends there).
    const long double tolerance = 16.0L * std::numeric_limits<long double>::epsilon();
    LongMatrix a(m, m);
    long double previousStep = std::numeric_limits<long double>::infinity();
    bool converged = false;
    for (int step = 0; step < 200 && !converged; ++step) {
      evaluate();
      LongVector x(m);
      for (Eigen::Index k = 0; k < m; ++k) x(k) = e[members[static_cast<std::size_t>(k)]];
      const LongVector residual = f - x;
      const long double scale = std::max(1.0L, f.cwiseAbs().maxCoeff());
      a = LongMatrix::Identity(m, m) - jacobian;
      if (step > 0 && residual.cwiseAbs().maxCoeff() == 0.0L) break;
      const LongVector delta = a.partialPivLu().solve(residual);
      bool finite = true;
      for (Eigen::Index k = 0; k < m; ++k) finite = finite && std::isfinite(delta(k));
      // Below the least fixed point every Newton step goes up; a step down (beyond rounding)
      // means there is no fixed point: the ε-mass diverges.
      if (!finite || delta.minCoeff() < -1e-9L * scale || (x + delta).maxCoeff() > 1e30L) {
        diagnostics_.error(file_, 0, 0,
                           "the probabilities of deriving ε diverge (" + symbolList(members) +
                               " derive ε with mass beyond any bound)");
        return false;
      }
      for (Eigen::Index k = 0; k < m; ++k)
        e[members[static_cast<std::size_t>(k)]] = std::max(0.0L, x(k) + delta(k));
      const long double size = delta.cwiseAbs().maxCoeff();
      converged =
          size <= tolerance * scale || (size < 1e-8L * scale && size > 0.75L * previousStep);
      previousStep = size;
      if (step == 199 && !converged) {
        diagnostics_.error(
            file_, 0, 0,
            "the probabilities of deriving ε do not converge (" + symbolList(members) + ")");
        return false;
      }
    }
    // Newton's last matrix I − f'(e) conditions the answer. A critical component (I − f'(e)
    // singular at the fixed point: S -> S S 0.5 | ε 0.5) has infinite expected ε-derivation
    // sizes and a fixed point only reachable to ~1e-9; within double's resolution of the rule
    // probabilities (condition number beyond 1e8) that is what this one is.
    const Eigen::MatrixXd da = a.cast<double>();
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(da);
    const double condition = lu.isInvertible() ? conditionNumber(da, lu.inverse())
                                               : std::numeric_limits<double>::infinity();
    if (condition > kIllConditioned) {
      diagnostics_.error(
          file_, 0, 0,
          "the ε-derivations of " + symbolList(members) +
              " are critical: their probabilities solve a singular system (condition number " +
              formatCondition(condition) +
              ") and their expected size is infinite; lower the probabilities of the rules that "
              "let an ε-derivation grow");
      return false;
    }
    return true;
  }

  static std::string formatCondition(double condition) {
    if (!std::isfinite(condition)) return "infinite";
    std::ostringstream text;
    text << std::scientific << std::setprecision(1) << condition;
    return text.str();
  }

  void warnIfIllConditioned(const Conditioning& c, const char* closure) {
    if (!(c.condition > kIllConditioned)) return;
    diagnostics_.warning(
        file_, 0, 0,
        std::string("the ") + closure + " closure is ill-conditioned for " + symbolList(c.members) +
            " (a cycle of probability mass near 1; "
            "condition number " +
            formatCondition(c.condition) + "): it depends on the rule probabilities' last digits");
  }

  // Up to four symbol names of `symbols`, for messages.
  std::string symbolList(const std::vector<std::size_t>& symbols) const {
    std::string out;
    for (std::size_t k = 0; k < symbols.size() && k < 4; ++k) {
      if (k > 0) out += ", ";
      const auto s = static_cast<SymbolId>(symbols[k]);
      out += s < static_cast<SymbolId>(g_.symbols().size()) ? g_.symbols().name(s) : "the goal";
    }
    if (symbols.size() > 4) out += " and " + std::to_string(symbols.size() - 4) + " more";
    return out;
  }

  // The best ε-derivation of each symbol (max-product), by Bellman-Ford rounds: with rule
  // probabilities at most 1 some best derivation has no symbol twice on a path, so n + 1
  // rounds reach it; still changing after that means a cycle of ε-rules with product above 1.
  bool computeNullViterbi(CompiledGrammar& cg, const std::vector<RuleId>& candidates) {
    const std::size_t n = cg.symbolCount_;
    for (std::size_t round = 0; round <= n + 1; ++round) {
      bool changed = false;
      std::vector<double> next(n, 0.0);
      std::vector<RuleId> nextRule(n, -1);
      for (RuleId id : candidates) {
        const Rule& r = g_.rule(id);
        double best = r.probability;
        for (SymbolId s : r.rhs) best *= cg.nullViterbi_[static_cast<std::size_t>(s)];
        const auto x = static_cast<std::size_t>(r.lhs);
        if (best > next[x]) {
          next[x] = best;
          nextRule[x] = id;
        }
      }
      for (std::size_t k = 0; k < n; ++k) changed = changed || next[k] != cg.nullViterbi_[k];
      cg.nullViterbi_.swap(next);
      cg.bestNullRule_.swap(nextRule);
      if (!changed) return true;
    }
    diagnostics_.error(file_, 0, 0,
                       "the best ε-derivations grow without bound (a cycle of ε-rules whose "
                       "probabilities multiply to more than 1)");
    return false;
  }

  // n_X(r) = Σ_{X→α all nullable} P(X→α)·Π e(α_i) / e(X) · ([X→α = r] + Σ_i n_{α_i}(r)):
  // linear, N = D + W N with W(X, Y) = Σ_{X→α} P(X→α)·Π e(α_i) / e(X) · #Y in α, so
  // N = (I − W)^-1 D, solved exactly by sumClosure.
  bool computeNullCounts(CompiledGrammar& cg, const std::vector<RuleId>& candidates) {
    const std::size_t n = cg.symbolCount_;
    std::vector<std::vector<double>> direct(n);  // D, dense over candidate rules
    Relation w(n);
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const Rule& r = g_.rule(candidates[k]);
      const auto x = static_cast<std::size_t>(r.lhs);
      double weight = r.probability;
      for (SymbolId s : r.rhs) weight *= cg.nullable_[static_cast<std::size_t>(s)];
      if (!(weight > 0.0)) continue;
      weight /= cg.nullable_[x];
      if (direct[x].empty()) direct[x].assign(candidates.size(), 0.0);
      direct[x][k] += weight;
      for (SymbolId s : r.rhs) {
        std::vector<ClosureEntry>& row = w[x];
        auto it = std::find_if(row.begin(), row.end(),
                               [&](const ClosureEntry& e) { return e.symbol == s; });
        if (it == row.end()) {
          row.push_back({s, weight});
        } else {
          it->value += weight;
        }
      }
    }
    std::vector<std::vector<ClosureEntry>> closure;
    if (!sumClosure(w, n, closure)) {
      diagnostics_.error(file_, 0, 0,
                         "the expected rule counts of ε-derivations diverge (a critical cycle of "
                         "ε-rules: ε-derivations are finite but their expected size is not)");
      return false;
    }
    cg.nullCounts_.assign(n, {});
    std::vector<double> counts(candidates.size());
    for (std::size_t x = 0; x < n; ++x) {
      if (direct[x].empty()) continue;
      if (closure[x].empty()) {
        counts = direct[x];
      } else {
        std::fill(counts.begin(), counts.end(), 0.0);
        for (const ClosureEntry& e : closure[x]) {
          const std::vector<double>& d = direct[static_cast<std::size_t>(e.symbol)];
          for (std::size_t k = 0; k < d.size(); ++k) counts[k] += e.value * d[k];
        }
      }
      for (std::size_t k = 0; k < counts.size(); ++k)
        if (counts[k] > 0.0) cg.nullCounts_[x].push_back({candidates[k], counts[k]});
    }
    return true;
  }

  bool compileRules(CompiledGrammar& cg) {
    std::vector<CompiledRule>& rules = cg.rules_.rules;
    std::vector<SymbolId>& symbols = cg.rules_.symbols;
    std::vector<std::int32_t>& dropped = cg.rules_.dropped;
    rules.clear();
    symbols.clear();
    dropped.clear();
    rules.reserve(g_.ruleCount() + 1);
    std::vector<std::size_t> offsets;  // where each rule's rhs starts in `symbols`
    offsets.reserve(g_.ruleCount() + 1);
    std::vector<std::size_t> droppedOffsets;  // where each rule's dropped positions start
    droppedOffsets.reserve(g_.ruleCount() + 1);
    std::vector<SymbolId> rhs;
    std::vector<std::int32_t> droppedHere;
    std::vector<int> nullablePositions;
    for (RuleId id = 0; id < static_cast<RuleId>(g_.ruleCount()); ++id) {
      const Rule& r = g_.rule(id);
      if (r.rhs.empty()) continue;
      if (r.rhs.size() > static_cast<std::size_t>(CompiledGrammar::kMaxRuleLength)) {
        diagnostics_.error(file_, r.sourceLine, 0,
                           "a rule of " + g_.symbols().name(r.lhs) + " has " +
                               std::to_string(r.rhs.size()) + " symbols on its right; at most " +
                               std::to_string(CompiledGrammar::kMaxRuleLength) + " are supported");
        return false;
      }
      nullablePositions.clear();
      for (std::size_t k = 0; k < r.rhs.size(); ++k)
        if (isNt(r.rhs[k]) && cg.nullable_[static_cast<std::size_t>(r.rhs[k])] > 0.0)
          nullablePositions.push_back(static_cast<int>(k));
      if (nullablePositions.size() > static_cast<std::size_t>(kMaxNullableOccurrences)) {
        diagnostics_.error(file_, r.sourceLine, 0,
                           "rule " + g_.ruleText(id) + " has more than " +
                               std::to_string(kMaxNullableOccurrences) +
                               " nullable symbols; split it");
        return false;
      }
      const std::uint32_t subsets = std::uint32_t{1} << nullablePositions.size();
      for (std::uint32_t subset = 0; subset < subsets; ++subset) {
        CompiledRule c;
        c.lhs = r.lhs;
        c.source = id;
        c.probability = r.probability;
        c.viterbiWeight = r.probability;
        droppedHere.clear();
        for (std::size_t k = 0; k < nullablePositions.size(); ++k) {
          if (subset & (std::uint32_t{1} << k)) {
            const auto pos = static_cast<std::size_t>(nullablePositions[k]);
            droppedHere.push_back(nullablePositions[k]);
            c.probability *= cg.nullable_[static_cast<std::size_t>(r.rhs[pos])];
            c.viterbiWeight *= cg.nullViterbi_[static_cast<std::size_t>(r.rhs[pos])];
          }
        }
        // Kept nullable symbols stand for their non-empty derivations only, whose mass is
        // 1 − e(Y); each compiled LHS is divided by its own 1 − e(X). Along any derivation the
        // factors cancel, and every compiled nonterminal keeps total mass 1, so sums of forward
        // probabilities are still prefix probabilities.
        for (std::size_t k = 0; k < nullablePositions.size(); ++k)
          if (!(subset & (std::uint32_t{1} << k)))
            c.probability *= 1.0 - cg.nullable_[static_cast<std::size_t>(
                                       r.rhs[static_cast<std::size_t>(nullablePositions[k])])];
        c.probability /= 1.0 - cg.nullable_[static_cast<std::size_t>(r.lhs)];
        rhs.clear();
        for (std::size_t k = 0, next = 0; k < r.rhs.size(); ++k) {
          if (next < droppedHere.size() && droppedHere[next] == static_cast<std::int32_t>(k)) {
            ++next;
          } else {
            rhs.push_back(r.rhs[k]);
          }
        }
        if (rhs.empty() || c.probability <= 0.0) continue;
        // Pointed into `dropped` below, as rhs into `symbols`.
        c.droppedPositions = ConstSpan<std::int32_t>(nullptr, droppedHere.size());
        droppedOffsets.push_back(dropped.size());
        dropped.insert(dropped.end(), droppedHere.begin(), droppedHere.end());
        c.unit = rhs.size() == 1 && isNt(rhs[0]);
        c.lexical = rhs.size() == 1 && !isNt(rhs[0]);
        c.rhs = ConstSpan<SymbolId>(nullptr, rhs.size());  // pointed into `symbols` below
        offsets.push_back(symbols.size());
        symbols.insert(symbols.end(), rhs.begin(), rhs.end());
        rules.push_back(c);
      }
    }
    CompiledRule goal;
    goal.lhs = cg.goal_;
    goal.rhs = ConstSpan<SymbolId>(nullptr, 1);
    offsets.push_back(symbols.size());
    droppedOffsets.push_back(dropped.size());
    symbols.push_back(cg.start_);
    goal.probability = 1.0 - cg.nullable_[static_cast<std::size_t>(cg.start_)];
    goal.viterbiWeight = 1.0;
    goal.unit = true;
    rules.push_back(goal);
    symbols.shrink_to_fit();
    dropped.shrink_to_fit();
    rules.shrink_to_fit();
    for (std::size_t k = 0; k < rules.size(); ++k) {
      rules[k].rhs = ConstSpan<SymbolId>(symbols.data() + offsets[k], rules[k].rhs.size());
      rules[k].droppedPositions = ConstSpan<std::int32_t>(dropped.data() + droppedOffsets[k],
                                                          rules[k].droppedPositions.size());
    }
    return true;
  }

  // Counting sort of the rules into rows: lexical rules by their terminal, the others by LHS.
  void indexRules(CompiledGrammar& cg) {
    const std::vector<CompiledRule>& rules = cg.rules_.rules;
    const std::size_t n = cg.symbolCount_;
    std::vector<std::size_t> lexicalCount(n + 1, 0);
    std::vector<std::size_t> predictableCount(n + 1, 0);
    for (const CompiledRule& r : rules) {
      if (r.lexical) {
        ++lexicalCount[static_cast<std::size_t>(r.rhs[0]) + 1];
      } else {
        ++predictableCount[static_cast<std::size_t>(r.lhs) + 1];
      }
    }
    for (std::size_t k = 0; k < n; ++k) {
      lexicalCount[k + 1] += lexicalCount[k];
      predictableCount[k + 1] += predictableCount[k];
    }
    cg.lexicon_.start = lexicalCount;
    cg.predictable_.start = predictableCount;
    cg.lexicon_.values.assign(lexicalCount[n], LexicalEntry{});
    cg.predictable_.values.assign(predictableCount[n], 0);
    cg.unitRules_.clear();
    for (std::int32_t id = 0; id < static_cast<std::int32_t>(rules.size()); ++id) {
      const CompiledRule& r = rules[static_cast<std::size_t>(id)];
      if (r.lexical) {
        cg.lexicon_.values[lexicalCount[static_cast<std::size_t>(r.rhs[0])]++] = {r.lhs, id};
      } else {
        cg.predictable_.values[predictableCount[static_cast<std::size_t>(r.lhs)]++] = id;
      }
      if (r.unit) cg.unitRules_.push_back(id);
    }
    cg.shapes_.clear();
    cg.shapes_.reserve(rules.size());
    for (const CompiledRule& r : rules) {
      cg.shapes_.push_back({r.lhs, static_cast<std::int16_t>(r.rhs.size()), r.unit});
    }
    tabulateDottedRules(cg);
    // The rule-start table: each nonterminal's predictable rules grouped by first symbol.
    std::vector<std::vector<CompiledGrammar::PredictionGroup>> groups(n);
    cg.predictionGroupRules_.clear();
    cg.predictionGroupRules_.reserve(cg.predictable_.values.size());
    std::vector<std::int32_t> groupOf(n, -1);  // by first symbol, within one nonterminal
    for (std::size_t y = 0; y < n; ++y) {
      const ConstSpan<std::int32_t> row = cg.predictable_.row(y);
      std::vector<std::vector<std::int32_t>> members;
      for (std::int32_t id : row) {
        const SymbolId first = rules[static_cast<std::size_t>(id)].rhs[0];
        std::int32_t& g = groupOf[static_cast<std::size_t>(first)];
        if (g < 0) {
          g = static_cast<std::int32_t>(members.size());
          members.emplace_back();
          groups[y].push_back({first, !isNtOrGoal(cg, first), 0, 0});
        }
        members[static_cast<std::size_t>(g)].push_back(id);
      }
      for (std::size_t g = 0; g < members.size(); ++g) {
        CompiledGrammar::PredictionGroup& group = groups[y][g];
        groupOf[static_cast<std::size_t>(group.first)] = -1;
        group.begin = static_cast<std::int32_t>(cg.predictionGroupRules_.size());
        cg.predictionGroupRules_.insert(cg.predictionGroupRules_.end(), members[g].begin(),
                                        members[g].end());
        group.end = static_cast<std::int32_t>(cg.predictionGroupRules_.size());
      }
    }
    cg.predictionGroups_ = CompiledGrammar::Rows<CompiledGrammar::PredictionGroup>::pack(groups);
  }

  // The dotted-rule tables: CompiledGrammar::dottedIndex's base per rule, the completion targets
  // (completionTarget: a counting sort of the dotted rules (rule, dot ≥ 1) with a nonterminal or
  // GOAL before the dot by that symbol, rules in id order within it) and what advancing each
  // dotted rule makes (dottedAdvance). One pass over the rules (a big grammar's are megabytes),
  // after counting over the right-hand sides stored back to back.
  void tabulateDottedRules(CompiledGrammar& cg) {
    const std::vector<CompiledRule>& rules = cg.rules_.rules;
    const std::size_t n = cg.symbolCount_;
    std::vector<std::int32_t> count(n + 1, 0);
    for (const SymbolId s : cg.rules_.symbols)
      if (isNtOrGoal(cg, s)) ++count[static_cast<std::size_t>(s) + 1];
    for (std::size_t k = 0; k < n; ++k) count[k + 1] += count[k];
    cg.completionTargetCount_ = static_cast<std::size_t>(count[n]);
    const std::size_t dottedRules = cg.rules_.symbols.size() + rules.size();
    cg.completionTargets_.assign(dottedRules, -1);
    cg.dottedBase_.resize(rules.size());
    cg.dottedAdvances_.assign(dottedRules,
                              CompiledGrammar::DottedAdvance{kNoSymbol, -1, AdvanceKind::Terminal});
    for (std::int32_t id = 0; id < static_cast<std::int32_t>(rules.size()); ++id) {
      const CompiledRule& r = rules[static_cast<std::size_t>(id)];
      const std::size_t base = cg.rhsOffset(id) + static_cast<std::size_t>(id);
      cg.dottedBase_[static_cast<std::size_t>(id)] = static_cast<std::uint32_t>(base);
      for (std::size_t dot = 1; dot <= r.rhs.size(); ++dot) {
        const SymbolId before = r.rhs[dot - 1];
        if (isNtOrGoal(cg, before))
          cg.completionTargets_[base + dot] = count[static_cast<std::size_t>(before)]++;
      }
      for (std::size_t dot = 0; dot < r.rhs.size(); ++dot) {
        CompiledGrammar::DottedAdvance& a = cg.dottedAdvances_[base + dot];
        a.target = cg.completionTargets_[base + dot + 1];
        if (dot + 1 < r.rhs.size()) {
          a.after = r.rhs[dot + 1];
          a.kind = isNtOrGoal(cg, a.after) ? AdvanceKind::Nonterminal : AdvanceKind::Terminal;
        } else {
          a.after = r.lhs;
          a.kind = r.lhs == cg.goal_ ? AdvanceKind::Goal
                   : r.unit          ? AdvanceKind::Unit
                                     : AdvanceKind::Finished;
        }
      }
    }
  }

  bool computeClosures(CompiledGrammar& cg) {
    const std::size_t n = cg.symbolCount_;
    Relation leftCorner(n), unit(n);
    const auto addEdge = [](std::vector<ClosureEntry>& row, SymbolId to, double w) {
      for (ClosureEntry& e : row)
        if (e.symbol == to) {
          e.value += w;
          return;
        }
      row.push_back({to, w});
    };
    for (const CompiledRule& r : cg.rules_.rules) {
      if (r.lexical || !isNtOrGoal(cg, r.rhs[0])) continue;
      addEdge(leftCorner[static_cast<std::size_t>(r.lhs)], r.rhs[0], r.probability);
      if (r.unit) addEdge(unit[static_cast<std::size_t>(r.lhs)], r.rhs[0], r.probability);
    }
    std::vector<std::vector<ClosureEntry>> leftCornerRows;
    Conditioning leftCornerConditioning;
    Conditioning unitConditioning;
    if (!sumClosure(leftCorner, n, leftCornerRows, &leftCornerConditioning)) {
      diagnostics_.error(file_, 0, 0,
                         "the left-corner relation diverges: I - P_L is singular or its inverse "
                         "is not positive (improper left recursion)");
      return false;
    }
    std::vector<std::vector<ClosureEntry>> unitRows;
    if (!sumClosure(unit, n, unitRows, &unitConditioning)) {
      diagnostics_.error(file_, 0, 0,
                         "the unit-production relation diverges: I - P_U is singular (a cycle "
                         "of unit rules with probability mass 1 or more)");
      return false;
    }
    // A unit cycle is a left-corner cycle too: one warning for it.
    if (unitConditioning.condition > kIllConditioned) {
      warnIfIllConditioned(unitConditioning, "unit-production");
    } else {
      warnIfIllConditioned(leftCornerConditioning, "left-corner");
    }
    // Symbols outside a relation still have R(Z, Z) = 1.
    for (std::size_t z = 0; z < n; ++z) {
      if (leftCornerRows[z].empty() && (z == static_cast<std::size_t>(cg.goal_) ||
                                        g_.symbols().isNonterminal(static_cast<SymbolId>(z))))
        leftCornerRows[z].push_back({static_cast<SymbolId>(z), 1.0});
    }
    // Best unit chains (max product) by Dijkstra on −log weights from every unit source.
    cg.leftCorner_ = CompiledGrammar::Rows<ClosureEntry>::pack(leftCornerRows);
    std::vector<std::vector<CompiledGrammar::UnitEntry>> unitInto(n);
    std::vector<std::vector<ClosureEntry>> unitFrom(n);
    cg.unitChainLast_.assign(n, {});
    std::vector<std::vector<std::pair<SymbolId, std::int32_t>>> unitRules(n);
    for (std::int32_t id = 0; id < static_cast<std::int32_t>(cg.rules_.rules.size()); ++id) {
      const CompiledRule& r = cg.rules_.rules[static_cast<std::size_t>(id)];
      if (r.unit) unitRules[static_cast<std::size_t>(r.lhs)].push_back({r.rhs[0], id});
    }
    std::vector<double> best(n, 0.0);
    std::vector<std::int32_t> lastRule(n, -1);
    std::vector<std::size_t> seen;
    for (std::size_t z = 0; z < n; ++z) {
      const bool isSymbol = z == static_cast<std::size_t>(cg.goal_) ||
                            g_.symbols().isNonterminal(static_cast<SymbolId>(z));
      if (!isSymbol) continue;
      if (unitRows[z].empty()) {
        unitInto[z].push_back({static_cast<SymbolId>(z), 1.0, 1.0});
        unitFrom[z].push_back({static_cast<SymbolId>(z), 1.0});
        continue;
      }
      unitFrom[z] = unitRows[z];
      seen.clear();
      using Entry = std::pair<double, std::size_t>;
      std::priority_queue<Entry> queue;  // max-heap on probability
      best[z] = 1.0;
      lastRule[z] = -1;
      seen.push_back(z);
      queue.push({1.0, z});
      while (!queue.empty()) {
        const auto [p, u] = queue.top();
        queue.pop();
        if (p < best[u]) continue;
        for (const auto& [v, rule] : unitRules[u]) {
          const auto vi = static_cast<std::size_t>(v);
          const double candidate =
              p * cg.rules_.rules[static_cast<std::size_t>(rule)].viterbiWeight;
          if (candidate > best[vi]) {
            if (best[vi] == 0.0) seen.push_back(vi);
            best[vi] = candidate;
            lastRule[vi] = rule;
            queue.push({candidate, vi});
          }
        }
      }
      for (const ClosureEntry& e : unitRows[z]) {
        const auto y = static_cast<std::size_t>(e.symbol);
        unitInto[y].push_back({static_cast<SymbolId>(z), e.value, best[y]});
        if (y != z) cg.unitChainLast_[z].push_back({e.symbol, lastRule[y]});
      }
      for (std::size_t s : seen) {
        best[s] = 0.0;
        lastRule[s] = -1;
      }
      std::sort(cg.unitChainLast_[z].begin(), cg.unitChainLast_[z].end());
    }
    cg.unitInto_ = CompiledGrammar::Rows<CompiledGrammar::UnitEntry>::pack(unitInto);
    cg.unitFrom_ = CompiledGrammar::Rows<ClosureEntry>::pack(unitFrom);
    return true;
  }

  bool isNtOrGoal(const CompiledGrammar& cg, SymbolId s) const { return s == cg.goal_ || isNt(s); }

  void computeFirstAndFollow(CompiledGrammar& cg) {
    const std::size_t n = cg.symbolCount_;
    cg.endBit_ = n;
    std::vector<BitSet> first(n);
    std::vector<BitSet> follow(n);
    for (std::size_t s = 0; s < n; ++s) {
      if (static_cast<SymbolId>(s) == cg.goal_ || isNt(static_cast<SymbolId>(s))) {
        first[s] = BitSet(n + 1);
        follow[s] = BitSet(n + 1);
      }
    }
    for (const CompiledRule& r : cg.rules_.rules)
      if (!isNtOrGoal(cg, r.rhs[0]))
        first[static_cast<std::size_t>(r.lhs)].set(static_cast<std::size_t>(r.rhs[0]));
    for (bool changed = true; changed;) {
      changed = false;
      for (const CompiledRule& r : cg.rules_.rules)
        if (isNtOrGoal(cg, r.rhs[0]))
          changed |= first[static_cast<std::size_t>(r.lhs)].unite(
              first[static_cast<std::size_t>(r.rhs[0])]);
    }
    follow[static_cast<std::size_t>(cg.goal_)].set(cg.endBit_);
    for (bool changed = true; changed;) {
      changed = false;
      for (const CompiledRule& r : cg.rules_.rules) {
        for (std::size_t k = 0; k < r.rhs.size(); ++k) {
          const SymbolId y = r.rhs[k];
          if (!isNtOrGoal(cg, y)) continue;
          BitSet& into = follow[static_cast<std::size_t>(y)];
          if (k + 1 == r.rhs.size()) {
            changed |= into.unite(follow[static_cast<std::size_t>(r.lhs)]);
          } else if (isNtOrGoal(cg, r.rhs[k + 1])) {
            changed |= into.unite(first[static_cast<std::size_t>(r.rhs[k + 1])]);
          } else if (!into.test(static_cast<std::size_t>(r.rhs[k + 1]))) {
            into.set(static_cast<std::size_t>(r.rhs[k + 1]));
            changed = true;
          }
        }
      }
    }
    cg.first_ = CompiledGrammar::BitRows::pack(first);
    cg.follow_ = CompiledGrammar::BitRows::pack(follow);
  }

  const Grammar& g_;
  Diagnostics& diagnostics_;
  const std::string& file_;
};

std::optional<CompiledGrammar> CompiledGrammar::compile(const Grammar& grammar,
                                                        Diagnostics& diagnostics,
                                                        const std::string& sourceName) {
  return CompiledGrammarBuilder(grammar, diagnostics, sourceName).build();
}

bool CompiledGrammar::reweight(const Grammar& grammar) {
  Diagnostics ignored;  // on failure the caller compiles afresh, which reports the problem
  return CompiledGrammarBuilder(grammar, ignored, "grammar").reweight(*this);
}

std::vector<std::int32_t> CompiledGrammar::bestUnitChain(SymbolId from, SymbolId to) const {
  std::vector<std::int32_t> chain;
  SymbolId current = to;
  const auto& last = unitChainLast_[static_cast<std::size_t>(from)];
  while (current != from) {
    const auto it =
        std::lower_bound(last.begin(), last.end(), std::pair<SymbolId, std::int32_t>{current, -1});
    if (it == last.end() || it->first != current || it->second < 0) break;
    chain.push_back(it->second);
    current = rule(it->second).lhs;
    if (chain.size() > symbolCount_) break;  // defensive: a chain never repeats a symbol
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

bool CompiledGrammar::ruleCanStartWith(std::int32_t id, SymbolId terminal) const {
  const SymbolId first = rule(id).rhs[0];
  if (first == goal_ || symbols().isNonterminal(first)) return canStartWith(first, terminal);
  return first == terminal;
}

std::vector<CompiledGrammar::UnknownOption> CompiledGrammar::unknownWordOptions(
    const std::string& word) const {
  std::vector<UnknownOption> options;
  if (unknownPreterminals_.empty()) return options;
  const auto signature = symbols().findTerminal(unknownWordSignature(word));
  const auto plain = symbols().findTerminal("UNK");
  for (SymbolId x : unknownPreterminals_) {
    std::int32_t chosen = -1;
    for (const auto& candidate : {signature, plain}) {
      if (!candidate || chosen >= 0) continue;
      for (const LexicalEntry& e : lexicalRules(*candidate))
        if (e.preterminal == x) chosen = e.rule;
    }
    if (chosen >= 0) options.push_back({x, chosen});
  }
  return options;
}

std::string CompiledGrammar::ruleText(std::int32_t id) const {
  const CompiledRule& r = rule(id);
  if (r.source < 0) return "GOAL -> " + symbols().name(r.rhs[0]);
  const Rule& source = grammar_->rule(r.source);
  std::string out = symbols().name(r.lhs) + " ->";
  for (std::size_t k = 0; k < source.rhs.size(); ++k) {
    const SymbolId s = source.rhs[k];
    out += ' ';
    out += symbols().isTerminal(s) ? "'" + symbols().name(s) + "'" : symbols().name(s);
    if (r.drops(k)) out += ":ε";
  }
  return out;
}

}  // namespace gwb
