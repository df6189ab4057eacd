// The outside pass (inside_outside.h): a member of the forward pass's EarleyRun (earley_run.h),
// run on the chart it leaves, and the entry points that parse and count.
#include "gwb/earley/inside_outside.h"

#include <unordered_map>

#include "earley/earley_run.h"

namespace gwb {

namespace earley_internal {

template <typename Numeric>
void EarleyRun<Numeric>::accumulateCounts(std::vector<double>& counts) {
  const std::size_t n = words_->size();
  if (n == 0) {  // the empty sentence: S's ε-derivations
    for (const auto& [rule, uses] : g_.nullDerivationCounts(g_.start()))
      counts[static_cast<std::size_t>(rule)] += uses;
    return;
  }
  const ItemRef goal{static_cast<std::int32_t>(n), goalIndex_};
  const double total = chart_.item(goal).inner;  // P(w), in the chart's representation
  std::vector<std::vector<double>> outer(n + 1);
  for (std::size_t r = 0; r <= n; ++r) outer[r].assign(items(r).size(), Numeric::zero());
  outer[n][static_cast<std::size_t>(goalIndex_)] = Numeric::one();
  // Σ over completions through the unit closure Z ⇒* Y of outer·inner·inner, for unit counts.
  std::unordered_map<std::uint64_t, double> unitFlow;
  const auto addCount = [&](std::int32_t compiledRule, double mass) {
    // mass = outer · inner of one use, in the chart's representation; divide by P(w).
    const double expected = std::exp(Numeric::toLog(mass) - Numeric::toLog(total));
    if (!(expected > 0.0)) return;
    const CompiledRule& rule = g_.rule(compiledRule);
    if (rule.source < 0) return;
    counts[static_cast<std::size_t>(rule.source)] += expected;
    if (!rule.dropsAny()) return;
    const Rule& source = g_.grammar().rule(rule.source);
    for (std::size_t k = 0; k < source.rhs.size(); ++k)
      if (rule.drops(k))
        for (const auto& [nullRule, uses] : g_.nullDerivationCounts(source.rhs[k]))
          counts[static_cast<std::size_t>(nullRule)] += expected * uses;
  };

  struct Member {
    std::int32_t origin;
    SymbolId lhs;
    std::int32_t item;
  };
  std::vector<Member> members;
  for (std::size_t r = n; r >= 1; --r) {
    const ConstSpan<EarleyItem> setItems = items(r);
    std::vector<double>& out = outer[r];
    // The set's items by key, to find what each completion advanced into.
    index_.useDense(0);  // hashed: scanned items are keyed too
    index_.clear();
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(setItems.size()); ++k) {
      const EarleyItem& item = setItems[static_cast<std::size_t>(k)];
      if (item.dot > 0) index_.tryEmplace(itemKey(g_, item.rule, item.dot, item.origin), k);
    }
    // The constituents the forward pass formed at r, in increasing origin.
    members.clear();
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(setItems.size()); ++k) {
      const EarleyItem& item = setItems[static_cast<std::size_t>(k)];
      const CompiledRule& rule = g_.rule(item.rule);
      if (static_cast<std::size_t>(item.dot) != rule.rhs.size() || rule.unit) continue;
      if (!mayComplete(r, rule.lhs)) continue;
      members.push_back({item.origin, rule.lhs, k});
    }
    std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
      return a.origin != b.origin ? a.origin < b.origin
                                  : (a.lhs != b.lhs ? a.lhs < b.lhs : a.item < b.item);
    });
    for (std::size_t begin = 0; begin < members.size();) {
      std::size_t end = begin;
      double inner = Numeric::zero();
      while (end < members.size() && members[end].origin == members[begin].origin &&
             members[end].lhs == members[begin].lhs) {
        inner = Numeric::add(inner, setItems[static_cast<std::size_t>(members[end].item)].inner);
        ++end;
      }
      const std::int32_t k = members[begin].origin;
      const SymbolId y = members[begin].lhs;
      const ConstSpan<EarleyItem> originItems = items(static_cast<std::size_t>(k));
      const ConstSpan<EarleyChart::WaitingEntry> originWaiting =
          waiting(static_cast<std::size_t>(k));
      double constituentOuter = Numeric::zero();
      for (const CompiledGrammar::UnitEntry& unit : g_.unitInto(y)) {
        const auto range =
            std::equal_range(originWaiting.begin(), originWaiting.end(),
                             std::pair<SymbolId, std::int32_t>{unit.from, 0},
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        const double unitSum = Numeric::pick(unit.sum, unit.logSum);
        for (auto it = range.first; it != range.second; ++it) {
          const EarleyItem& waiting = originItems[static_cast<std::size_t>(it->second)];
          const auto advanced =
              index_.find(itemKey(g_, waiting.rule, waiting.dot + 1, waiting.origin));
          if (!advanced) continue;
          const double outerAdvanced = out[static_cast<std::size_t>(*advanced)];
          if (Numeric::isZero(outerAdvanced)) continue;
          constituentOuter =
              Numeric::add(constituentOuter, Numeric::mul(outerAdvanced, unitSum, waiting.inner));
          double& outerWaiting =
              outer[static_cast<std::size_t>(k)][static_cast<std::size_t>(it->second)];
          outerWaiting = Numeric::add(outerWaiting, Numeric::mul(outerAdvanced, unitSum, inner));
          {
            const std::uint64_t key =
                (static_cast<std::uint64_t>(static_cast<std::uint32_t>(unit.from)) << 32) |
                static_cast<std::uint32_t>(y);
            const double flow = Numeric::mul(outerAdvanced, waiting.inner, inner);
            auto [slot, inserted] = unitFlow.try_emplace(key, flow);
            if (!inserted) slot->second = Numeric::add(slot->second, flow);
          }
        }
      }
      for (std::size_t m = begin; m < end; ++m) {
        const std::int32_t item = members[m].item;
        out[static_cast<std::size_t>(item)] = constituentOuter;
        addCount(setItems[static_cast<std::size_t>(item)].rule,
                 Numeric::mul(constituentOuter, setItems[static_cast<std::size_t>(item)].inner));
      }
      begin = end;
    }
    // Scans: the item before the word gets the outer mass of the item after it, times the
    // scale factor the forward pass applied to the word (1 in log space).
    const double scanFactor = Numeric::pick(std::exp(-set(r).logScale), 0.0);
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(setItems.size()); ++k) {
      const EarleyItem& item = setItems[static_cast<std::size_t>(k)];
      if (item.dot == 0 || item.bestChild >= 0 || item.bestPredecessor < 0) continue;
      const CompiledRule& rule = g_.rule(item.rule);
      if (g_.symbols().isNonterminal(rule.rhs[static_cast<std::size_t>(item.dot - 1)]) ||
          rule.rhs[static_cast<std::size_t>(item.dot - 1)] == g_.goal())
        continue;
      double& before = outer[r - 1][static_cast<std::size_t>(item.bestPredecessor)];
      before = Numeric::add(before, Numeric::mul(out[static_cast<std::size_t>(k)], scanFactor));
    }
  }
  // Unit rules, used inside the closure: the unit chains Z ⇒* Y of a completion use A → B
  // R_U(Z, A)·P(A → B)·R_U(B, Y) times in all (summed over chains, weighted by probability).
  if (unitFlow.empty()) return;
  const auto closure = [&](SymbolId from, SymbolId to) {
    for (const CompiledGrammar::UnitEntry& e : g_.unitInto(to))
      if (e.from == from) return e.sum;
    return 0.0;
  };
  for (std::int32_t id : g_.unitRules()) {
    const CompiledRule& rule = g_.rule(id);
    if (rule.source < 0) continue;
    for (const auto& [key, flow] : unitFlow) {
      const auto z = static_cast<SymbolId>(key >> 32);
      const auto y = static_cast<SymbolId>(key & 0xffffffffu);
      const double paths = closure(z, rule.lhs) * rule.probability * closure(rule.rhs[0], y);
      if (paths > 0.0) addCount(id, Numeric::mul(flow, Numeric::pick(paths, std::log(paths))));
    }
  }
}

template void EarleyRun<LinearNumeric>::accumulateCounts(std::vector<double>&);
template void EarleyRun<LogNumeric>::accumulateCounts(std::vector<double>&);

}  // namespace earley_internal

using earley_internal::EarleyRun;
using earley_internal::LinearNumeric;
using earley_internal::LogNumeric;

namespace {

// The chart parseWithCounts parses into: the thread's, kept from sentence to sentence (an
// E-step parses thousands) so that its memory is mapped once, unless it grew past a bound (a
// whole discourse) or is already in use (a parse started from inside another).
constexpr std::size_t kKeptCountingChartBytes = std::size_t{64} << 20;

struct CountingChart {
  EarleyChart chart;
  bool inUse = false;
};

class BorrowedChart {
 public:
  BorrowedChart() {
    thread_local CountingChart kept;
    if (!kept.inUse) {
      kept_ = &kept;
      kept.inUse = true;
    }
  }
  BorrowedChart(const BorrowedChart&) = delete;
  BorrowedChart& operator=(const BorrowedChart&) = delete;
  BorrowedChart(BorrowedChart&&) = delete;
  BorrowedChart& operator=(BorrowedChart&&) = delete;
  ~BorrowedChart() {
    if (kept_ == nullptr) return;
    if (kept_->chart.storageBytes() + kept_->chart.workingBytes() > kKeptCountingChartBytes)
      kept_->chart = EarleyChart();
    kept_->inUse = false;
  }
  EarleyChart& chart() { return kept_ != nullptr ? kept_->chart : own_; }

 private:
  CountingChart* kept_ = nullptr;
  EarleyChart own_;
};

}  // namespace

ParseResult EarleyParser::parseWithCounts(const std::vector<std::string>& words,
                                          const ParseOptions& options,
                                          std::vector<double>& counts) {
  BorrowedChart borrowed;
  EarleyChart& chart = borrowed.chart();
  if (options.mode == NumericMode::Log) {
    EarleyRun<LogNumeric> run(grammar_, options, chart);
    ParseResult result = run.run(words);
    if (result.success) run.accumulateCounts(counts);
    return result;
  }
  EarleyRun<LinearNumeric> run(grammar_, options, chart);
  ParseResult result = run.run(words);
  if (result.success) run.accumulateCounts(counts);
  return result;
}

ExpectedCounts accumulateExpectedCounts(const CompiledGrammar& grammar,
                                        const std::vector<std::string>& words, NumericMode mode,
                                        std::vector<double>& counts) {
  ParseOptions options;
  options.mode = mode;
  options.viterbi = false;
  const ParseResult result = EarleyParser(grammar).parseWithCounts(words, options, counts);
  ExpectedCounts out;
  out.parsed = result.success;
  out.logProbability = result.logProbability;
  return out;
}

}  // namespace gwb
