#include "brute_force_oracle.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <queue>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace gwb::testing {

namespace {

// Probabilities are carried in extended precision; results are rounded to double at the end.
using Real = long double;

constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();
constexpr long long kInfiniteYield = std::numeric_limits<long long>::max() / 4;
constexpr int kKleeneSweeps = 5000;
constexpr int kMaxTerminationSweeps = 200000;
constexpr Real kDivergentMass = 1e15L;

// Neumaier's compensated summation: the many tiny terms of a long tail add up without loss.
class CompensatedSum {
 public:
  void add(Real x) {
    const Real t = sum_ + x;
    if (std::fabs(sum_) >= std::fabs(x)) {
      compensation_ += (sum_ - t) + x;
    } else {
      compensation_ += (x - t) + sum_;
    }
    sum_ = t;
  }
  Real value() const { return sum_ + compensation_; }
  void reset(Real value) {
    sum_ = value;
    compensation_ = 0;
  }

 private:
  Real sum_ = 0;
  Real compensation_ = 0;
};

// Per-grammar facts, independent of any sentence.
struct GrammarAnalysis {
  std::vector<Real> termination;    // Z(X): P(X derives some finite string); terminals 1
  std::vector<long long> minYield;  // shortest yield length; kInfiniteYield if none
  bool terminationConverged = false;
};

void checkRules(const Grammar& grammar) {
  const SymbolTable& symbols = grammar.symbols();
  for (std::size_t i = 0; i < grammar.ruleCount(); ++i) {
    const Rule& rule = grammar.rule(static_cast<RuleId>(i));
    if (!std::isfinite(rule.probability) || rule.probability < 0.0)
      throw std::invalid_argument("brute-force oracle: rule " +
                                  grammar.ruleText(static_cast<RuleId>(i)) +
                                  " has a negative or non-finite probability");
    if (rule.lhs < 0 || static_cast<std::size_t>(rule.lhs) >= symbols.size() ||
        !symbols.isNonterminal(rule.lhs))
      throw std::invalid_argument("brute-force oracle: a rule's LHS is not a nonterminal");
    for (SymbolId s : rule.rhs)
      if (s < 0 || static_cast<std::size_t>(s) >= symbols.size())
        throw std::invalid_argument("brute-force oracle: a rule's RHS holds an unknown symbol");
  }
}

// Z(X) = Σ_{X -> α} p · Π_{Y in α} Z(Y) has the termination probabilities as its least
// fixed point. Kleene (Gauss-Seidel) iteration from Z = 0 increases monotonically to it; it is
// fast unless the grammar is (nearly) critical, where it crawls as O(1/sweeps). Then Newton's
// method, started from the Kleene iterate (which lies below the least fixed point and below its
// own image), takes over: it also increases monotonically to the least fixed point (Esparza,
// Kiefer & Luttenberger, "Newton's method for monotone systems of polynomial equations"), at
// least one bit per step. For an exactly critical grammar the Jacobian is singular at the
// solution and no method in extended precision gets closer than ~1e-10; that is reported as
// not converged.
bool kleeneSweeps(const Grammar& grammar, std::vector<Real>& z, int sweeps) {
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    Real maxChange = 0;
    Real maxValue = 0;
    for (SymbolId lhs : grammar.lhsSymbols()) {
      Real value = 0;
      for (RuleId id : grammar.rulesWithLhs(lhs)) {
        const Rule& rule = grammar.rule(id);
        Real term = static_cast<Real>(rule.probability);
        for (SymbolId s : rule.rhs) term *= z[static_cast<std::size_t>(s)];
        value += term;
      }
      Real& slot = z[static_cast<std::size_t>(lhs)];
      maxChange = std::max(maxChange, std::fabs(value - slot));
      maxValue = std::max(maxValue, value);
      slot = value;
    }
    if (!(maxValue <= kDivergentMass))
      throw std::invalid_argument(
          "brute-force oracle: the grammar's derivation mass diverges (rule probabilities sum "
          "far above one)");
    if (maxChange <= 4 * std::numeric_limits<Real>::epsilon() * std::max<Real>(1, maxValue))
      return true;
  }
  return false;
}

// Solves a·x = b (a is n×n, row-major) by Gaussian elimination with partial pivoting; the
// solution replaces b. False when a is singular.
bool solveLinear(std::vector<Real> a, std::vector<Real>& b, std::size_t n) {
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t row = col + 1; row < n; ++row)
      if (std::fabs(a[row * n + col]) > std::fabs(a[pivot * n + col])) pivot = row;
    if (!(std::fabs(a[pivot * n + col]) > 0)) return false;
    if (pivot != col) {
      for (std::size_t k = 0; k < n; ++k) std::swap(a[col * n + k], a[pivot * n + k]);
      std::swap(b[col], b[pivot]);
    }
    for (std::size_t row = col + 1; row < n; ++row) {
      const Real factor = a[row * n + col] / a[col * n + col];
      if (factor == 0) continue;
      for (std::size_t k = col; k < n; ++k) a[row * n + k] -= factor * a[col * n + k];
      b[row] -= factor * b[col];
    }
  }
  for (std::size_t i = n; i-- > 0;) {
    Real value = b[i];
    for (std::size_t k = i + 1; k < n; ++k) value -= a[i * n + k] * b[k];
    b[i] = value / a[i * n + i];
    if (!std::isfinite(b[i])) return false;
  }
  return true;
}

enum class NewtonOutcome { Converged, IllConditioned, Failed };

NewtonOutcome newtonTermination(const Grammar& grammar, std::vector<Real>& z) {
  // Unknowns: the nonterminals that can terminate (Z > 0 after the Kleene sweeps); the others
  // stay exactly 0.
  std::vector<SymbolId> vars;
  std::vector<long long> varOf(z.size(), -1);
  for (SymbolId x : grammar.lhsSymbols()) {
    if (z[static_cast<std::size_t>(x)] > 0) {
      varOf[static_cast<std::size_t>(x)] = static_cast<long long>(vars.size());
      vars.push_back(x);
    }
  }
  const std::size_t n = vars.size();
  std::vector<Real> f(n);
  std::vector<Real> identityMinusJacobian(n * n);
  const auto evaluate = [&]() {
    std::fill(f.begin(), f.end(), Real(0));
    std::fill(identityMinusJacobian.begin(), identityMinusJacobian.end(), Real(0));
    for (std::size_t i = 0; i < n; ++i) {
      identityMinusJacobian[i * n + i] = 1;
      for (RuleId id : grammar.rulesWithLhs(vars[i])) {
        const Rule& rule = grammar.rule(id);
        if (!(rule.probability > 0.0)) continue;
        const auto p = static_cast<Real>(rule.probability);
        Real term = p;
        for (SymbolId s : rule.rhs) term *= z[static_cast<std::size_t>(s)];
        f[i] += term;
        for (std::size_t j = 0; j < rule.rhs.size(); ++j) {
          const long long var = varOf[static_cast<std::size_t>(rule.rhs[j])];
          if (var < 0) continue;
          Real partial = p;
          for (std::size_t k = 0; k < rule.rhs.size(); ++k)
            if (k != j) partial *= z[static_cast<std::size_t>(rule.rhs[k])];
          identityMinusJacobian[i * n + static_cast<std::size_t>(var)] -= partial;
        }
      }
    }
  };
  for (int iteration = 0; iteration < 400; ++iteration) {
    evaluate();
    std::vector<Real> step(n);
    for (std::size_t i = 0; i < n; ++i) step[i] = f[i] - z[static_cast<std::size_t>(vars[i])];
    if (!solveLinear(identityMinusJacobian, step, n)) return NewtonOutcome::Failed;
    Real maxStep = 0;
    Real maxValue = 0;
    for (std::size_t i = 0; i < n; ++i) {
      Real& slot = z[static_cast<std::size_t>(vars[i])];
      const Real next = std::max(slot, slot + step[i]);  // the exact iterates only increase
      if (!std::isfinite(next)) return NewtonOutcome::Failed;
      maxStep = std::max(maxStep, next - slot);
      maxValue = std::max(maxValue, next);
      slot = next;
    }
    if (!(maxValue <= kDivergentMass)) return NewtonOutcome::Failed;
    if (maxStep <= 4 * std::numeric_limits<Real>::epsilon() * std::max<Real>(1, maxValue)) {
      // A tiny step means little when I - J is nearly singular (a critical grammar stalls at
      // ~1e-10 from the root). The error is about ‖(I - J)^-1‖ · rounding; accept only when
      // (I - J)^-1 · 1 (the expected derivation sizes) is positive and moderate.
      evaluate();
      std::vector<Real> sizes(n, 1);
      if (!solveLinear(identityMinusJacobian, sizes, n)) return NewtonOutcome::IllConditioned;
      for (Real size : sizes)
        if (!(size > 0 && size <= 1e4L)) return NewtonOutcome::IllConditioned;
      return NewtonOutcome::Converged;
    }
  }
  return NewtonOutcome::IllConditioned;
}

void computeTermination(const Grammar& grammar, GrammarAnalysis& analysis) {
  const SymbolTable& symbols = grammar.symbols();
  std::vector<Real>& z = analysis.termination;
  z.assign(symbols.size(), 0);
  for (std::size_t s = 0; s < symbols.size(); ++s)
    if (symbols.isTerminal(static_cast<SymbolId>(s))) z[s] = 1;
  if (kleeneSweeps(grammar, z, kKleeneSweeps)) {
    analysis.terminationConverged = true;
    return;
  }
  const std::vector<Real> kleene = z;
  switch (newtonTermination(grammar, z)) {
    case NewtonOutcome::Converged: analysis.terminationConverged = true; return;
    case NewtonOutcome::IllConditioned: analysis.terminationConverged = false; return;
    case NewtonOutcome::Failed:
      z = kleene;
      analysis.terminationConverged = kleeneSweeps(grammar, z, kMaxTerminationSweeps);
      return;
  }
}

// Shortest yield length per symbol (Bellman-Ford style relaxation; rules of probability 0 are
// ignored since no derivation of positive probability uses them).
void computeMinYield(const Grammar& grammar, GrammarAnalysis& analysis) {
  const SymbolTable& symbols = grammar.symbols();
  analysis.minYield.assign(symbols.size(), kInfiniteYield);
  for (std::size_t s = 0; s < symbols.size(); ++s)
    if (symbols.isTerminal(static_cast<SymbolId>(s))) analysis.minYield[s] = 1;
  bool changed = true;
  while (changed) {
    changed = false;
    for (const Rule& rule : grammar.rules()) {
      if (!(rule.probability > 0.0)) continue;
      long long length = 0;
      for (SymbolId s : rule.rhs) {
        length += analysis.minYield[static_cast<std::size_t>(s)];
        if (length >= kInfiniteYield) break;
      }
      long long& slot = analysis.minYield[static_cast<std::size_t>(rule.lhs)];
      if (length < slot) {
        slot = length;
        changed = true;
      }
    }
  }
}

// One partial derivation as a linked list of rule ids, newest first, shared between states.
struct ChainNode {
  RuleId rule;
  std::uint32_t parent;
};

// One of the partial derivations merged into a state, kept because it is (tied) most probable:
// all of them share their completions, so no other can lead to a best derivation.
struct Member {
  std::uint32_t node;
  Real probability;
};

struct State {
  int position = 0;                    // terminals emitted so far (= w1..w_position)
  std::vector<SymbolId> stack;         // pending symbols; back() is the leftmost
  Real probability = 0;                // Σ P over the partial derivations in the state
  Real stackMass = 1;                  // Π Z over the stack
  std::vector<double> countNumerator;  // merge mode: Σ P(d)·c(r, d) over the merged derivations
  std::uint64_t hash = 0;              // of (position, stack); merge mode
  std::vector<Member> best;            // the most probable merged derivations (ties kept)
  double queuedMass = 0;               // the mass its live queue entry was pushed with
  std::uint64_t version = 0;           // of its live queue entry; older entries are stale
  bool live = false;
};

struct QueueEntry {
  double mass;
  std::uint64_t serial;
  std::size_t slot;
  std::uint64_t version;
};

// Largest mass first; equal masses in order of arrival.
struct QueueOrder {
  bool operator()(const QueueEntry& a, const QueueEntry& b) const {
    if (a.mass != b.mass) return a.mass < b.mass;
    return a.serial > b.serial;
  }
};

// FNV-1a over the position and the stack.
std::uint64_t stateHash(int position, const std::vector<SymbolId>& stack) {
  std::uint64_t h = 1469598103934665603ULL;
  const auto mix = [&h](std::uint32_t value) {
    h ^= value;
    h *= 1099511628211ULL;
  };
  mix(static_cast<std::uint32_t>(position));
  for (SymbolId s : stack) mix(static_cast<std::uint32_t>(s));
  return h;
}

class Enumerator {
 public:
  Enumerator(const Grammar& grammar, const std::vector<SymbolId>& sentence,
             const OracleOptions& options, const GrammarAnalysis& analysis)
      : grammar_(grammar),
        symbols_(grammar.symbols()),
        sentence_(sentence),
        options_(options),
        analysis_(analysis),
        length_(static_cast<int>(sentence.size())),
        prefix_(sentence.size() + 1),
        prefixDerivation_(sentence.size() + 1),
        string_(sentence.size() + 1),
        counts_(grammar.ruleCount()) {}

  OracleResult run();

 private:
  bool isTerminal(SymbolId s) const { return symbols_.isTerminal(s); }
  Real stackMass(const std::vector<SymbolId>& stack) const;
  long long stackMinYield(const std::vector<SymbolId>& stack) const;
  std::uint32_t extendChain(std::uint32_t parent, RuleId rule);
  std::vector<RuleId> chainRules(std::uint32_t node) const;

  void expand(const State& state);
  void settle(State child);
  void complete(const State& state);
  void enqueue(State child);
  void push(std::size_t slot);
  bool popBest(State& out);
  Real exactPendingMass(Real* maxMass) const;
  void addViterbiCandidate(const Member& member);
  void mergeMembers(std::vector<Member>& into, const std::vector<Member>& from) const;
  void finish(OracleResult& result);

  const Grammar& grammar_;
  const SymbolTable& symbols_;
  const std::vector<SymbolId>& sentence_;
  const OracleOptions& options_;
  const GrammarAnalysis& analysis_;
  const int length_;

  std::vector<CompensatedSum> prefix_;
  std::vector<CompensatedSum> prefixDerivation_;  // the same without the Z factors
  std::vector<CompensatedSum> string_;
  std::vector<CompensatedSum> counts_;  // numerators Σ P(d)·c(r, d) over derivations of w
  std::vector<Member> viterbi_;         // candidates within the tie tolerance of the best
  Real viterbiBest_ = 0;

  std::vector<ChainNode> chain_;
  std::vector<State> slots_;
  std::vector<std::size_t> freeSlots_;
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, QueueOrder> queue_;
  std::unordered_multimap<std::uint64_t, std::size_t> index_;  // merge mode: hash -> slot
  CompensatedSum pending_;  // running Σ mass of live states (rechecked exactly before stopping)
  std::uint64_t serial_ = 0;
  std::uint64_t nextVersion_ = 1;
  long long expansions_ = 0;
  long long liveStates_ = 0;
  long long peakLiveStates_ = 0;
};

Real Enumerator::stackMass(const std::vector<SymbolId>& stack) const {
  Real mass = 1;
  for (SymbolId s : stack) mass *= analysis_.termination[static_cast<std::size_t>(s)];
  return mass;
}

long long Enumerator::stackMinYield(const std::vector<SymbolId>& stack) const {
  long long total = 0;
  for (SymbolId s : stack) {
    total += analysis_.minYield[static_cast<std::size_t>(s)];
    if (total >= kInfiniteYield) return kInfiniteYield;
  }
  return total;
}

std::uint32_t Enumerator::extendChain(std::uint32_t parent, RuleId rule) {
  if (chain_.size() >= static_cast<std::size_t>(kNoNode) - 1)
    throw std::length_error("brute-force oracle: derivation store exhausted");
  chain_.push_back(ChainNode{rule, parent});
  return static_cast<std::uint32_t>(chain_.size() - 1);
}

std::vector<RuleId> Enumerator::chainRules(std::uint32_t node) const {
  std::vector<RuleId> rules;
  for (std::uint32_t n = node; n != kNoNode; n = chain_[n].parent) rules.push_back(chain_[n].rule);
  std::reverse(rules.begin(), rules.end());
  return rules;
}

// Rewrites the leftmost pending nonterminal by each of its rules.
void Enumerator::expand(const State& state) {
  const SymbolId top = state.stack.back();
  for (RuleId id : grammar_.rulesWithLhs(top)) {
    const Rule& rule = grammar_.rule(id);
    if (!(rule.probability > 0.0)) continue;
    const auto q = static_cast<Real>(rule.probability);
    State child;
    child.position = state.position;
    child.stack.reserve(state.stack.size() - 1 + rule.rhs.size());
    child.stack.assign(state.stack.begin(), state.stack.end() - 1);
    child.stack.insert(child.stack.end(), rule.rhs.rbegin(), rule.rhs.rend());
    child.probability = state.probability * q;
    child.best.reserve(state.best.size());
    for (const Member& m : state.best)
      child.best.push_back(Member{extendChain(m.node, id), m.probability * q});
    if (options_.mergeEquivalentStates) {
      child.countNumerator.resize(state.countNumerator.size());
      for (std::size_t r = 0; r < state.countNumerator.size(); ++r)
        child.countNumerator[r] = state.countNumerator[r] * rule.probability;
      child.countNumerator[static_cast<std::size_t>(id)] += static_cast<double>(child.probability);
    }
    settle(std::move(child));
  }
}

// Emits the terminals on top of the stack (crediting prefix probabilities), then completes,
// drops or queues the state.
void Enumerator::settle(State child) {
  std::vector<SymbolId>& stack = child.stack;
  while (!stack.empty() && isTerminal(stack.back())) {
    // Beyond wn (already credited to every prefix length) or inconsistent with the sentence.
    if (child.position >= length_ ||
        sentence_[static_cast<std::size_t>(child.position)] != stack.back())
      return;
    stack.pop_back();
    ++child.position;
    const Real rest = stackMass(stack);
    prefix_[static_cast<std::size_t>(child.position)].add(child.probability * rest);
    if (rest > 0)
      prefixDerivation_[static_cast<std::size_t>(child.position)].add(child.probability);
  }
  if (stack.empty()) {
    complete(child);
    return;
  }
  child.stackMass = stackMass(stack);
  if (!(child.probability * child.stackMass > 0)) return;             // cannot terminate
  if (child.position == length_ && stackMinYield(stack) > 0) return;  // only longer strings left
  enqueue(std::move(child));
}

void Enumerator::complete(const State& state) {
  string_[static_cast<std::size_t>(state.position)].add(state.probability);
  if (state.position != length_) return;
  for (const Member& m : state.best) addViterbiCandidate(m);
  if (options_.mergeEquivalentStates) {
    for (std::size_t r = 0; r < state.countNumerator.size(); ++r)
      counts_[r].add(state.countNumerator[r]);
  } else {
    // Unmerged: the state is one derivation; count its rules along its chain.
    for (std::uint32_t n = state.best.front().node; n != kNoNode; n = chain_[n].parent)
      counts_[static_cast<std::size_t>(chain_[n].rule)].add(state.probability);
  }
}

void Enumerator::mergeMembers(std::vector<Member>& into, const std::vector<Member>& from) const {
  Real best = 0;
  for (const Member& m : into) best = std::max(best, m.probability);
  for (const Member& m : from) best = std::max(best, m.probability);
  const Real floor = best * (1 - static_cast<Real>(options_.viterbiTieTolerance));
  std::vector<Member> merged;
  for (const Member& m : into)
    if (m.probability >= floor) merged.push_back(m);
  for (const Member& m : from)
    if (m.probability >= floor) merged.push_back(m);
  // Keep the maxTiedTrees members whose rule sequences come first: the dropped ones share all
  // their completions with those kept, so they can never rank among the first maxTiedTrees.
  const std::size_t keep = static_cast<std::size_t>(std::max(1, options_.maxTiedTrees));
  if (merged.size() > keep) {
    std::vector<std::pair<std::vector<RuleId>, Member>> ranked;
    ranked.reserve(merged.size());
    for (const Member& m : merged) ranked.emplace_back(chainRules(m.node), m);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    merged.clear();
    for (std::size_t i = 0; i < keep; ++i) merged.push_back(ranked[i].second);
  }
  into = std::move(merged);
}

void Enumerator::addViterbiCandidate(const Member& member) {
  const Real tie = 1 - static_cast<Real>(options_.viterbiTieTolerance);
  if (member.probability > viterbiBest_) {
    viterbiBest_ = member.probability;
    const Real floor = viterbiBest_ * tie;
    viterbi_.erase(std::remove_if(viterbi_.begin(), viterbi_.end(),
                                  [floor](const Member& m) { return m.probability < floor; }),
                   viterbi_.end());
  }
  if (member.probability >= viterbiBest_ * tie) viterbi_.push_back(member);
}

void Enumerator::push(std::size_t slot) {
  State& s = slots_[slot];
  s.version = nextVersion_++;
  s.queuedMass = static_cast<double>(s.probability * s.stackMass);
  queue_.push(QueueEntry{s.queuedMass, serial_++, slot, s.version});
}

void Enumerator::enqueue(State child) {
  const Real mass = child.probability * child.stackMass;
  pending_.add(mass);
  if (options_.mergeEquivalentStates) {
    child.hash = stateHash(child.position, child.stack);
    const auto [first, last] = index_.equal_range(child.hash);
    for (auto it = first; it != last; ++it) {
      State& s = slots_[it->second];
      if (s.position != child.position || s.stack != child.stack) continue;
      s.probability += child.probability;
      for (std::size_t r = 0; r < s.countNumerator.size(); ++r)
        s.countNumerator[r] += child.countNumerator[r];
      mergeMembers(s.best, child.best);
      // Re-queue (making the old entry stale) only when the mass has doubled: the order stays
      // nearly best-first while each state leaves only logarithmically many stale entries.
      if (static_cast<double>(s.probability * s.stackMass) > 2 * s.queuedMass) push(it->second);
      return;
    }
  }
  std::size_t slot;
  if (freeSlots_.empty()) {
    slot = slots_.size();
    slots_.emplace_back();
  } else {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  }
  if (options_.mergeEquivalentStates) index_.emplace(child.hash, slot);
  slots_[slot] = std::move(child);
  slots_[slot].live = true;
  ++liveStates_;
  peakLiveStates_ = std::max(peakLiveStates_, liveStates_);
  push(slot);
}

bool Enumerator::popBest(State& out) {
  while (!queue_.empty()) {
    const QueueEntry entry = queue_.top();
    queue_.pop();
    State& s = slots_[entry.slot];
    if (!s.live || s.version != entry.version) continue;  // stale
    out = std::move(s);
    s.live = false;
    --liveStates_;
    freeSlots_.push_back(entry.slot);
    if (options_.mergeEquivalentStates) {
      const auto [first, last] = index_.equal_range(out.hash);
      for (auto it = first; it != last; ++it) {
        if (it->second == entry.slot) {
          index_.erase(it);
          break;
        }
      }
    }
    pending_.add(-(out.probability * out.stackMass));
    return true;
  }
  return false;
}

Real Enumerator::exactPendingMass(Real* maxMass) const {
  std::vector<Real> masses;
  for (const State& s : slots_)
    if (s.live) masses.push_back(s.probability * s.stackMass);
  std::sort(masses.begin(), masses.end());
  Real total = 0;
  for (Real m : masses) total += m;
  if (maxMass) *maxMass = masses.empty() ? 0 : masses.back();
  return total;
}

OracleResult Enumerator::run() {
  const std::optional<SymbolId> start = grammar_.start();
  if (!start || *start < 0 || static_cast<std::size_t>(*start) >= symbols_.size())
    throw std::invalid_argument("brute-force oracle: the grammar has no start symbol");

  State initial;
  initial.stack.push_back(*start);
  initial.probability = 1;
  initial.best.push_back(Member{kNoNode, 1});
  if (options_.mergeEquivalentStates) initial.countNumerator.assign(grammar_.ruleCount(), 0);
  prefix_[0].add(stackMass(initial.stack));
  prefixDerivation_[0].add(1);
  settle(std::move(initial));

  const auto tolerance = static_cast<Real>(options_.massTolerance);
  State state;
  while (true) {
    if (pending_.value() < tolerance) {
      const Real exact = exactPendingMass(nullptr);
      pending_.reset(exact);
      if (exact < tolerance) break;
    }
    if (expansions_ >= options_.maxExpansions || liveStates_ > options_.maxQueuedStates) break;
    if (!popBest(state)) break;
    ++expansions_;
    expand(state);
  }

  OracleResult result;
  finish(result);
  return result;
}

void Enumerator::finish(OracleResult& result) {
  const std::size_t n = sentence_.size();
  result.prefixProbability.resize(n + 1);
  result.prefixDerivationMass.resize(n + 1);
  result.stringProbability.resize(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    result.prefixProbability[i] = static_cast<double>(prefix_[i].value());
    result.prefixDerivationMass[i] = static_cast<double>(prefixDerivation_[i].value());
    result.stringProbability[i] = static_cast<double>(string_[i].value());
  }
  Real maxLive = 0;
  const Real unexplored = exactPendingMass(&maxLive);
  result.unexploredMass = static_cast<double>(unexplored);
  result.expansions = expansions_;
  result.peakQueuedStates = peakLiveStates_;

  const Real sentenceProbability = string_[n].value();
  result.expectedRuleCounts.assign(grammar_.ruleCount(), 0.0);
  if (sentenceProbability > 0)
    for (std::size_t r = 0; r < counts_.size(); ++r)
      result.expectedRuleCounts[r] = static_cast<double>(counts_[r].value() / sentenceProbability);

  const Real tie = 1 - static_cast<Real>(options_.viterbiTieTolerance);
  if (viterbi_.empty()) {
    result.viterbiExact = maxLive == 0;
  } else {
    std::vector<std::pair<std::vector<RuleId>, Real>> ranked;
    for (const Member& m : viterbi_)
      if (m.probability >= viterbiBest_ * tie)
        ranked.emplace_back(chainRules(m.node), m.probability);
    std::sort(ranked.begin(), ranked.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    ranked.erase(std::unique(ranked.begin(), ranked.end(),
                             [](const auto& a, const auto& b) { return a.first == b.first; }),
                 ranked.end());
    const std::size_t keep = static_cast<std::size_t>(std::max(1, options_.maxTiedTrees));
    if (ranked.size() > keep) ranked.resize(keep);
    result.viterbiRules = ranked.front().first;
    result.viterbiProbability = static_cast<double>(ranked.front().second);
    for (const auto& entry : ranked)
      result.viterbiTiedTrees.push_back(treeFromDerivation(grammar_, entry.first));
    result.viterbiTree = result.viterbiTiedTrees.front();
    result.viterbiExact = maxLive < viterbiBest_ * tie;
  }
}

// ---- grammar text -------------------------------------------------------------------------

struct Token {
  std::string text;
  bool quoted = false;
};

[[noreturn]] void textError(int line, const std::string& message) {
  throw std::invalid_argument("line " + std::to_string(line) + ": " + message);
}

std::vector<Token> tokenize(std::string_view line, int lineNumber) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  const auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
  };
  while (i < line.size()) {
    const char c = line[i];
    if (isSpace(c)) {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '|') {
      tokens.push_back(Token{"|", false});
      ++i;
    } else if (c == '\'' || c == '"') {
      Token token{"", true};
      ++i;
      bool closed = false;
      while (i < line.size()) {
        const char d = line[i++];
        if (d == '\\' && i < line.size()) {
          token.text += line[i++];
        } else if (d == c) {
          closed = true;
          break;
        } else {
          token.text += d;
        }
      }
      if (!closed) textError(lineNumber, "unterminated quoted terminal");
      if (token.text.empty()) textError(lineNumber, "empty terminal");
      tokens.push_back(std::move(token));
    } else {
      Token token;
      while (i < line.size() && !isSpace(line[i]) && line[i] != '#' && line[i] != '|')
        token.text += line[i++];
      tokens.push_back(std::move(token));
    }
  }
  return tokens;
}

bool parseProbability(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(value);
}

}  // namespace

OracleResult bruteForceParse(const Grammar& grammar, const std::vector<SymbolId>& sentence,
                             const OracleOptions& options) {
  checkRules(grammar);
  GrammarAnalysis analysis;
  computeTermination(grammar, analysis);
  computeMinYield(grammar, analysis);
  Enumerator enumerator(grammar, sentence, options, analysis);
  OracleResult result = enumerator.run();
  result.terminationProbability.reserve(analysis.termination.size());
  for (Real z : analysis.termination)
    result.terminationProbability.push_back(static_cast<double>(z));
  result.terminationConverged = analysis.terminationConverged;
  result.converged = result.terminationConverged && result.unexploredMass < options.massTolerance;
  return result;
}

OracleResult bruteForceParse(const Grammar& grammar, const std::vector<std::string>& words,
                             const OracleOptions& options) {
  std::vector<SymbolId> sentence;
  sentence.reserve(words.size());
  for (const std::string& word : words)
    sentence.push_back(grammar.symbols().findTerminal(word).value_or(kNoSymbol));
  return bruteForceParse(grammar, sentence, options);
}

std::vector<std::string> splitWords(std::string_view sentence) {
  std::vector<std::string> words;
  std::size_t i = 0;
  const auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  };
  while (i < sentence.size()) {
    while (i < sentence.size() && isSpace(sentence[i])) ++i;
    const std::size_t begin = i;
    while (i < sentence.size() && !isSpace(sentence[i])) ++i;
    if (i > begin) words.emplace_back(sentence.substr(begin, i - begin));
  }
  return words;
}

Grammar grammarFromText(std::string_view text) {
  Grammar grammar;
  bool haveStart = false;
  int lineNumber = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNumber;

    const std::vector<Token> tokens = tokenize(line, lineNumber);
    if (tokens.empty()) continue;
    if (tokens.size() < 2 || tokens[0].quoted || tokens[1].quoted || tokens[1].text != "->" ||
        tokens[0].text == "|" || tokens[0].text == "->")
      textError(lineNumber, "expected `LHS -> RHS probability`");
    const SymbolId lhs = grammar.symbols().intern(tokens[0].text, SymbolKind::Nonterminal);
    if (!haveStart) {
      grammar.setStart(lhs);
      haveStart = true;
    }

    // Alternatives: the tokens between '|' separators, each ending in its probability.
    std::vector<std::vector<Token>> alternatives(1);
    for (std::size_t i = 2; i < tokens.size(); ++i) {
      if (!tokens[i].quoted && tokens[i].text == "|") {
        alternatives.emplace_back();
      } else {
        alternatives.back().push_back(tokens[i]);
      }
    }
    for (const std::vector<Token>& alternative : alternatives) {
      double probability = 0.0;
      if (alternative.empty() || alternative.back().quoted ||
          !parseProbability(alternative.back().text, probability))
        textError(lineNumber, "each alternative must end in its probability");
      Rule rule;
      rule.lhs = lhs;
      rule.probability = probability;
      rule.sourceLine = lineNumber;
      const std::size_t symbolCount = alternative.size() - 1;
      const bool epsilon = symbolCount == 1 && !alternative[0].quoted && alternative[0].text == "ε";
      if (!epsilon) {
        for (std::size_t i = 0; i < symbolCount; ++i) {
          const Token& token = alternative[i];
          if (!token.quoted && (token.text == "->" || token.text == "ε"))
            textError(lineNumber, "unexpected `" + token.text + "` in a right-hand side");
          rule.rhs.push_back(grammar.symbols().intern(
              token.text, token.quoted ? SymbolKind::Terminal : SymbolKind::Nonterminal));
        }
      }
      if (grammar.findRule(rule.lhs, rule.rhs))
        textError(lineNumber, "repeated rule " + tokens[0].text + " -> ...");
      grammar.addRule(std::move(rule));
    }
  }
  return grammar;
}

std::string treeFromDerivation(const Grammar& grammar, const std::vector<RuleId>& leftmostRules) {
  const SymbolTable& symbols = grammar.symbols();
  const std::optional<SymbolId> start = grammar.start();
  if (!start) throw std::invalid_argument("treeFromDerivation: the grammar has no start symbol");

  struct TreeNode {
    SymbolId label;
    std::vector<std::size_t> children;
  };
  std::vector<TreeNode> nodes{TreeNode{*start, {}}};
  std::vector<std::size_t> pending;  // nonterminal leaves awaiting a rule; back() is leftmost
  if (symbols.isNonterminal(*start)) pending.push_back(0);
  for (RuleId id : leftmostRules) {
    if (id < 0 || static_cast<std::size_t>(id) >= grammar.ruleCount())
      throw std::invalid_argument("treeFromDerivation: unknown rule id");
    if (pending.empty())
      throw std::invalid_argument("treeFromDerivation: more rules than nonterminals to rewrite");
    const std::size_t parent = pending.back();
    pending.pop_back();
    const Rule& rule = grammar.rule(id);
    if (rule.lhs != nodes[parent].label)
      throw std::invalid_argument("treeFromDerivation: rule " + grammar.ruleText(id) +
                                  " does not rewrite the leftmost nonterminal " +
                                  symbols.name(nodes[parent].label));
    std::vector<std::size_t> children;
    for (SymbolId s : rule.rhs) {
      children.push_back(nodes.size());
      nodes.push_back(TreeNode{s, {}});
    }
    for (auto it = children.rbegin(); it != children.rend(); ++it)
      if (symbols.isNonterminal(nodes[*it].label)) pending.push_back(*it);
    nodes[parent].children = std::move(children);
  }
  if (!pending.empty())
    throw std::invalid_argument("treeFromDerivation: the derivation is incomplete");

  if (symbols.isTerminal(*start)) return symbols.name(*start);
  std::string out = "(" + symbols.name(*start);
  std::vector<std::pair<std::size_t, std::size_t>> frames{{0, 0}};  // (node, next child)
  while (!frames.empty()) {
    const std::size_t node = frames.back().first;
    const std::size_t next = frames.back().second;
    if (next == nodes[node].children.size()) {
      out += ')';
      frames.pop_back();
      continue;
    }
    ++frames.back().second;
    const std::size_t child = nodes[node].children[next];
    out += ' ';
    out += symbols.isTerminal(nodes[child].label) ? "" : "(";
    out += symbols.name(nodes[child].label);
    if (symbols.isNonterminal(nodes[child].label)) frames.emplace_back(child, 0);
  }
  return out;
}

std::vector<OracleTree> allTreesAbove(const Grammar& grammar, const std::vector<std::string>& words,
                                      double minProbability, long long maxSteps) {
  const SymbolTable& symbols = grammar.symbols();
  const std::optional<SymbolId> start = grammar.start();
  if (!start) throw std::invalid_argument("allTreesAbove: the grammar has no start symbol");
  const std::size_t n = words.size();
  // Least yield length of every symbol (terminals 1), a fixed point from "unbounded".
  constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max() / 4;
  std::vector<std::size_t> least(symbols.size(), kUnbounded);
  for (SymbolId s = 0; s < static_cast<SymbolId>(symbols.size()); ++s)
    if (symbols.isTerminal(s)) least[static_cast<std::size_t>(s)] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& r : grammar.rules()) {
      std::size_t sum = 0;
      for (SymbolId s : r.rhs) sum = std::min(kUnbounded, sum + least[static_cast<std::size_t>(s)]);
      if (sum < least[static_cast<std::size_t>(r.lhs)]) {
        least[static_cast<std::size_t>(r.lhs)] = sum;
        changed = true;
      }
    }
  }
  struct Partial {
    std::size_t position;           // words matched
    std::vector<SymbolId> pending;  // back() is leftmost
    std::size_t pendingLeast;       // Σ least yield of `pending`
    double probability;
    std::vector<RuleId> rules;
  };
  std::vector<OracleTree> trees;
  std::vector<Partial> stack;
  stack.push_back({0, {*start}, least[static_cast<std::size_t>(*start)], 1.0, {}});
  long long steps = 0;
  while (!stack.empty()) {
    if (++steps > maxSteps) throw std::invalid_argument("allTreesAbove: too many steps");
    Partial partial = std::move(stack.back());
    stack.pop_back();
    if (partial.pendingLeast + partial.position > n) continue;
    if (partial.pending.empty()) {
      if (partial.position == n)
        trees.push_back({treeFromDerivation(grammar, partial.rules), partial.probability});
      continue;
    }
    const SymbolId top = partial.pending.back();
    partial.pending.pop_back();
    const std::size_t topLeast = least[static_cast<std::size_t>(top)];
    if (symbols.isTerminal(top)) {
      if (partial.position < n && symbols.name(top) == words[partial.position]) {
        ++partial.position;
        partial.pendingLeast -= topLeast;
        stack.push_back(std::move(partial));
      }
      continue;
    }
    for (RuleId id : grammar.rulesWithLhs(top)) {
      const Rule& r = grammar.rule(id);
      const double p = partial.probability * r.probability;
      if (!(p >= minProbability)) continue;
      Partial next{partial.position, partial.pending, partial.pendingLeast - topLeast, p,
                   partial.rules};
      for (auto it = r.rhs.rbegin(); it != r.rhs.rend(); ++it) {
        next.pending.push_back(*it);
        next.pendingLeast =
            std::min(kUnbounded, next.pendingLeast + least[static_cast<std::size_t>(*it)]);
      }
      next.rules.push_back(id);
      stack.push_back(std::move(next));
    }
  }
  std::sort(trees.begin(), trees.end(), [](const OracleTree& a, const OracleTree& b) {
    return a.probability != b.probability ? a.probability > b.probability : a.tree < b.tree;
  });
  return trees;
}

}  // namespace gwb::testing
