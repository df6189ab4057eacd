#include "gwb/earley/agenda_earley.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "earley/lookahead.h"
#include "gwb/earley/dotted_item.h"

namespace gwb {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

template <typename T>
void pushUnique(std::vector<T>& values, T value) {
  if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
}

// The order of task kinds a strategy prefers (earlier: sooner).
int kindRank(AgendaStrategy strategy, AgendaTaskKind kind) {
  switch (strategy) {
    case AgendaStrategy::Earley:
    case AgendaStrategy::CompleteFirst:
      return kind == AgendaTaskKind::Complete ? 0 : kind == AgendaTaskKind::Predict ? 1 : 2;
    case AgendaStrategy::PredictFirst:
      return kind == AgendaTaskKind::Predict ? 0 : kind == AgendaTaskKind::Scan ? 1 : 2;
    case AgendaStrategy::ScanFirst:
      return kind == AgendaTaskKind::Scan ? 0 : kind == AgendaTaskKind::Predict ? 1 : 2;
    case AgendaStrategy::Oldest:
    case AgendaStrategy::Newest:
    case AgendaStrategy::Random: return 0;
  }
  return 0;
}

}  // namespace

const char* agendaTaskKindName(AgendaTaskKind kind) {
  switch (kind) {
    case AgendaTaskKind::Predict: return "predict";
    case AgendaTaskKind::Scan: return "scan";
    case AgendaTaskKind::Complete: return "complete";
  }
  return "predict";
}

const char* agendaStrategyName(AgendaStrategy strategy) {
  switch (strategy) {
    case AgendaStrategy::Earley: return "Earley's order";
    case AgendaStrategy::PredictFirst: return "predict first";
    case AgendaStrategy::CompleteFirst: return "complete first";
    case AgendaStrategy::ScanFirst: return "scan first";
    case AgendaStrategy::Oldest: return "oldest first (queue)";
    case AgendaStrategy::Newest: return "newest first (stack)";
    case AgendaStrategy::Random: return "random";
  }
  return "Earley's order";
}

const char* agendaStrategyKey(AgendaStrategy strategy) {
  switch (strategy) {
    case AgendaStrategy::Earley: return "earley";
    case AgendaStrategy::PredictFirst: return "predict-first";
    case AgendaStrategy::CompleteFirst: return "complete-first";
    case AgendaStrategy::ScanFirst: return "scan-first";
    case AgendaStrategy::Oldest: return "oldest";
    case AgendaStrategy::Newest: return "newest";
    case AgendaStrategy::Random: return "random";
  }
  return "earley";
}

std::optional<AgendaStrategy> parseAgendaStrategy(const std::string& key) {
  for (AgendaStrategy s : agendaStrategies())
    if (key == agendaStrategyKey(s)) return s;
  return std::nullopt;
}

const std::vector<AgendaStrategy>& agendaStrategies() {
  static const std::vector<AgendaStrategy> all = {
      AgendaStrategy::Earley,    AgendaStrategy::PredictFirst, AgendaStrategy::CompleteFirst,
      AgendaStrategy::ScanFirst, AgendaStrategy::Oldest,       AgendaStrategy::Newest,
      AgendaStrategy::Random};
  return all;
}

AgendaEarley::AgendaEarley(const CompiledGrammar& grammar, std::vector<std::string> words,
                           AgendaOptions options)
    : g_(grammar), words_(std::move(words)), options_(options), random_(options.seed) {
  const std::size_t n = words_.size();
  terminals_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto t = g_.symbols().findTerminal(words_[i]);
    terminals_[i] = t ? *t : kNoSymbol;
  }
  sets_.resize(n + 1);
  waiting_.resize(n + 1);
  mass_.resize(n + 1);
  // The axiom [0, 0] GOAL → . S, weighted 1 − e(S) as in EarleyParser.
  const auto [axiom, created] = obtain(0, g_.goalRule(), 0, 0, OperationKind::Init, false);
  static_cast<void>(created);
  items_[static_cast<std::size_t>(axiom)].forward = g_.rule(g_.goalRule()).probability;
  items_[static_cast<std::size_t>(axiom)].inner = g_.rule(g_.goalRule()).probability;
  items_[static_cast<std::size_t>(axiom)].viterbi = 0.0;
  // obtain() put the axiom's prediction on the agenda of position 0.
  settle(nullptr);
}

std::int32_t AgendaEarley::find(int set, std::int32_t rule, int dot, int origin) const {
  const auto it = index_.find({set, rule, dot, origin});
  return it == index_.end() ? -1 : it->second;
}

double AgendaEarley::predictionMass(int position, SymbolId y) const {
  if (position < 0 || static_cast<std::size_t>(position) >= mass_.size()) return 0.0;
  const auto& nodes = mass_[static_cast<std::size_t>(position)];
  const auto it = nodes.find(y);
  return it == nodes.end() ? 0.0 : it->second.mass;
}

// The look-ahead tests are the forward pass's (earley/lookahead.h), so both prune alike.
std::optional<SymbolId> AgendaEarley::lookaheadAt(std::size_t r) const {
  return earley_internal::lookaheadTerminal(g_, options_.lookahead, terminals_, r);
}

bool AgendaEarley::mayComplete(std::size_t r, SymbolId y) const {
  return earley_internal::mayCompleteBefore(g_, y, lookaheadAt(r));
}

bool AgendaEarley::worthCreating(std::size_t r, const AgendaItem& waiting) const {
  return earley_internal::worthAdvancing(g_, waiting.rule, waiting.dot, lookaheadAt(r));
}

bool AgendaEarley::predictsAt(std::size_t r) const {
  return r == 0 || r < words_.size() || !options_.lookahead;
}

SymbolId AgendaEarley::symbolAfterDot(const AgendaItem& item) const {
  const CompiledRule& rule = g_.rule(item.rule);
  if (static_cast<std::size_t>(item.dot) >= rule.rhs.size()) return kNoSymbol;
  return rule.rhs[static_cast<std::size_t>(item.dot)];
}

std::pair<std::int32_t, bool> AgendaEarley::obtain(int set, std::int32_t rule, int dot, int origin,
                                                   OperationKind madeBy, bool predicted) {
  const auto [it, inserted] =
      index_.try_emplace({set, rule, dot, origin}, static_cast<std::int32_t>(items_.size()));
  if (!inserted) return {it->second, false};
  AgendaItem item;
  item.set = set;
  item.origin = origin;
  item.rule = rule;
  item.dot = dot;
  item.viterbi = kNegInf;
  item.madeBy = madeBy;
  item.predicted = predicted;
  item.finished = static_cast<std::size_t>(dot) == g_.rule(rule).rhs.size();
  item.madeAtStep = steps_;
  items_.push_back(item);
  edges_.emplace_back();
  sets_[static_cast<std::size_t>(set)].push_back(it->second);
  const SymbolId next = symbolAfterDot(item);
  if (next != kNoSymbol && (next == g_.goal() || g_.symbols().isNonterminal(next)))
    waiting_[static_cast<std::size_t>(set)][next].push_back(it->second);
  if (set == position_) enqueueTasksOf(it->second);
  return {it->second, true};
}

void AgendaEarley::addTask(AgendaTask task) {
  task.sequence = nextSequence_++;
  task.position = position_;
  agenda_.push_back(task);
}

void AgendaEarley::enqueueTasksOf(std::int32_t index) {
  const AgendaItem& item = items_[static_cast<std::size_t>(index)];
  const auto r = static_cast<std::size_t>(item.set);
  const CompiledRule& rule = g_.rule(item.rule);
  if (item.finished) {
    // Unit items are folded into R_U, and nothing waits on GOAL.
    if (!rule.unit && rule.lhs != g_.goal() && mayComplete(r, rule.lhs))
      addTask({AgendaTaskKind::Complete, index, kNoSymbol, -1, 0, 0});
    return;
  }
  const SymbolId next = symbolAfterDot(item);
  if (next == g_.goal() || g_.symbols().isNonterminal(next)) {
    if (!item.predicted && predictsAt(r))
      addTask({AgendaTaskKind::Predict, index, kNoSymbol, -1, 0, 0});
  } else if (r < words_.size() && next == terminals_[r]) {
    addTask({AgendaTaskKind::Scan, index, kNoSymbol, -1, 0, 0});
  }
}

void AgendaEarley::openPosition(int r) {
  position_ = r;
  // The items scanned into set r now get their tasks (in order of creation).
  for (std::int32_t item : sets_[static_cast<std::size_t>(r)]) enqueueTasksOf(item);
}

void AgendaEarley::settle(AgendaStepReport* report) {
  while (agenda_.empty() && !finished_) {
    const auto r = static_cast<std::size_t>(position_);
    if (report != nullptr && static_cast<int>(r) == report->position)
      report->positionFinished = true;
    if (r == words_.size()) {
      finished_ = true;
      return;
    }
    if (sets_[r + 1].empty()) {
      finished_ = true;
      failedAt_ = static_cast<int>(r);
      failureText_ = "no item of set " + std::to_string(r) + " can scan word " +
                     std::to_string(r + 1) + " '" + words_[r] +
                     "': the words so far are no prefix of a sentence";
      if (terminals_[r] == kNoSymbol && !g_.hasUnknownWordModel())
        failureText_ += " (the grammar has no word '" + words_[r] + "')";
      return;
    }
    if (!(prefixProbability(r + 1) > 0.0)) {
      finished_ = true;
      failedAt_ = static_cast<int>(r);
      failureText_ = "the prefix probability after word " + std::to_string(r + 1) +
                     " underflows a double: agenda mode keeps plain probabilities and is meant "
                     "for short sentences (the standard stepper rescales and has no limit)";
      return;
    }
    openPosition(static_cast<int>(r + 1));
  }
}

void AgendaEarley::drain(std::vector<Pending>& work, AgendaStepReport& report) {
  const auto r = static_cast<std::size_t>(position_);
  const SymbolId noSymbol = kNoSymbol;
  while (!work.empty()) {
    const Pending p = work.back();
    work.pop_back();
    if (p.item < 0) {
      // Prediction mass of Y at r grows: so does every item built from it.
      MassNode& node = mass_[r][p.y];
      if (!node.opened) {
        node.opened = true;
        // First mass for Y here: its rules become predicted items, its words can be scanned.
        const std::optional<SymbolId> next = lookaheadAt(r);
        if (!next || *next != CompiledGrammar::kEndOfInput) {
          for (std::int32_t ruleId : g_.predictableRules(p.y)) {
            if (next && !g_.ruleCanStartWith(ruleId, *next)) continue;
            const auto [item, created] = obtain(static_cast<int>(r), ruleId, 0, static_cast<int>(r),
                                                OperationKind::Predict, true);
            if (created) {
              items_[static_cast<std::size_t>(item)].inner = g_.rule(ruleId).probability;
              items_[static_cast<std::size_t>(item)].viterbi = g_.rule(ruleId).logViterbiWeight;
              report.created.push_back(item);
            }
            mass_[r][p.y].predictedItems.push_back(item);
          }
        }
        if (r < words_.size()) {
          const auto addLexical = [&](SymbolId preterminal, std::int32_t rule) {
            if (preterminal == p.y) addTask({AgendaTaskKind::Scan, -1, preterminal, rule, 0, 0});
          };
          if (terminals_[r] != kNoSymbol && !g_.lexicalRules(terminals_[r]).empty()) {
            for (const LexicalEntry& e : g_.lexicalRules(terminals_[r]))
              addLexical(e.preterminal, e.rule);
          } else {
            for (const auto& option : g_.unknownWordOptions(words_[r]))
              addLexical(option.preterminal, option.rule);
          }
        }
      }
      MassNode& grown = mass_[r][p.y];
      grown.mass += p.forward;
      for (std::int32_t item : grown.predictedItems)
        work.push_back(
            {item, noSymbol,
             p.forward * g_.rule(items_[static_cast<std::size_t>(item)].rule).probability, 0.0,
             kNegInf, p.direct});
      for (const auto& [item, probability] : grown.lexicalScans) {
        ++report.increments;
        work.push_back({item, noSymbol, p.forward * probability, 0.0, kNegInf, false});
      }
      continue;
    }
    AgendaItem& item = items_[static_cast<std::size_t>(p.item)];
    item.forward += p.forward;
    item.inner += p.inner;
    const bool improved = p.viterbi > item.viterbi;
    if (improved) item.viterbi = p.viterbi;
    if (p.direct) {
      if (std::find(report.created.begin(), report.created.end(), p.item) == report.created.end())
        pushUnique(report.grown, p.item);
    } else {
      pushUnique(report.corrected, p.item);
    }
    // Push the change along every edge recorded from this item.
    const Edges& edges = edges_[static_cast<std::size_t>(p.item)];
    for (std::int32_t to : edges.scans) {
      ++report.increments;
      work.push_back({to, noSymbol, p.forward, p.inner, improved ? item.viterbi : kNegInf, false});
    }
    if (p.forward != 0.0) {
      for (const PredictEdge& e : edges.predicts) {
        work.push_back({-1, e.y, p.forward * e.coefficient, 0.0, kNegInf, false});
      }
    }
    if (p.inner != 0.0 || improved) {
      for (const CompleteEdge& e : edges.completes) {
        ++report.increments;
        work.push_back({e.to, noSymbol, p.inner * e.forwardCoefficient,
                        p.inner * e.innerCoefficient,
                        improved ? item.viterbi + e.viterbiAdd : kNegInf, false});
      }
    }
  }
}

void AgendaEarley::predictFrom(std::int32_t index, AgendaStepReport& report) {
  const auto r = static_cast<std::size_t>(position_);
  const SymbolId z = symbolAfterDot(items_[static_cast<std::size_t>(index)]);
  const std::optional<SymbolId> next = lookaheadAt(r);
  std::vector<Pending> work;
  for (const ClosureEntry& e : g_.leftCorner(z)) {
    if (next && *next >= 0 && !g_.canStartWith(e.symbol, *next)) continue;
    edges_[static_cast<std::size_t>(index)].predicts.push_back({e.symbol, e.value});
    report.predictedSymbols.push_back(e.symbol);
    work.push_back({-1, e.symbol, items_[static_cast<std::size_t>(index)].forward * e.value, 0.0,
                    kNegInf, true});
  }
  // Apply in the order of the closure row (the work list is a stack).
  std::reverse(work.begin(), work.end());
  drain(work, report);
}

void AgendaEarley::scan(const AgendaTask& task, AgendaStepReport& report) {
  const int r = position_;
  std::vector<Pending> work;
  if (task.item < 0) {
    const CompiledRule& rule = g_.rule(task.lexicalRule);
    const auto [item, created] = obtain(r + 1, task.lexicalRule, 1, r, OperationKind::Scan, false);
    if (created) {
      items_[static_cast<std::size_t>(item)].inner = rule.probability;
      items_[static_cast<std::size_t>(item)].viterbi = rule.logViterbiWeight;
      report.created.push_back(item);
    }
    MassNode& node = mass_[static_cast<std::size_t>(r)][task.preterminal];
    node.lexicalScans.emplace_back(item, rule.probability);
    work.push_back({item, kNoSymbol, node.mass * rule.probability, 0.0, kNegInf, true});
  } else {
    const AgendaItem from = items_[static_cast<std::size_t>(task.item)];
    const auto [item, created] =
        obtain(r + 1, from.rule, from.dot + 1, from.origin, OperationKind::Scan, false);
    if (created) report.created.push_back(item);
    edges_[static_cast<std::size_t>(task.item)].scans.push_back(item);
    work.push_back({item, kNoSymbol, from.forward, from.inner, from.viterbi, true});
  }
  drain(work, report);
}

void AgendaEarley::completeWith(std::int32_t index, AgendaStepReport& report) {
  const auto r = static_cast<std::size_t>(position_);
  const AgendaItem child = items_[static_cast<std::size_t>(index)];
  const SymbolId y = g_.rule(child.rule).lhs;
  const auto& waitingAtOrigin = waiting_[static_cast<std::size_t>(child.origin)];
  std::vector<Pending> work;
  for (const CompiledGrammar::UnitEntry& unit : g_.unitInto(y)) {
    const auto waiting = waitingAtOrigin.find(unit.from);
    if (waiting == waitingAtOrigin.end()) continue;
    // Set `origin` is final: copy the list, as obtain() below may add to sets (not this one).
    const std::vector<std::int32_t> waitingItems = waiting->second;
    for (std::int32_t w : waitingItems) {
      const AgendaItem waitingItem = items_[static_cast<std::size_t>(w)];
      if (options_.lookahead && !worthCreating(r, waitingItem)) continue;
      const auto [item, created] =
          obtain(static_cast<int>(r), waitingItem.rule, waitingItem.dot + 1, waitingItem.origin,
                 OperationKind::Complete, false);
      if (created) report.created.push_back(item);
      const CompleteEdge edge{item, waitingItem.forward * unit.sum, waitingItem.inner * unit.sum,
                              waitingItem.viterbi + unit.logBest};
      edges_[static_cast<std::size_t>(index)].completes.push_back(edge);
      work.push_back({item, kNoSymbol, child.inner * edge.forwardCoefficient,
                      child.inner * edge.innerCoefficient, child.viterbi + edge.viterbiAdd, true});
    }
  }
  std::reverse(work.begin(), work.end());
  drain(work, report);
}

AgendaStepReport AgendaEarley::process(std::size_t index) {
  assert(index < agenda_.size() && !finished_);
  const AgendaTask task = agenda_[index];
  agenda_.erase(agenda_.begin() + static_cast<std::ptrdiff_t>(index));
  ++steps_;
  AgendaStepReport report;
  report.task = task;
  report.position = position_;
  switch (task.kind) {
    case AgendaTaskKind::Predict: predictFrom(task.item, report); break;
    case AgendaTaskKind::Scan: scan(task, report); break;
    case AgendaTaskKind::Complete: completeWith(task.item, report); break;
  }
  settle(&report);
  return report;
}

std::size_t AgendaEarley::choose(AgendaStrategy strategy) {
  assert(!agenda_.empty());
  if (strategy == AgendaStrategy::Random) {
    std::uniform_int_distribution<std::size_t> pick(0, agenda_.size() - 1);
    return pick(random_);
  }
  std::size_t best = 0;
  const auto better = [&](const AgendaTask& a, const AgendaTask& b) {
    const int rankA = kindRank(strategy, a.kind);
    const int rankB = kindRank(strategy, b.kind);
    if (rankA != rankB) return rankA < rankB;
    if (strategy == AgendaStrategy::Newest) return a.sequence > b.sequence;
    if (strategy == AgendaStrategy::Earley && a.kind == AgendaTaskKind::Complete) {
      // Latest origin first: every contribution to an item is in before it is used.
      const int originA = items_[static_cast<std::size_t>(a.item)].origin;
      const int originB = items_[static_cast<std::size_t>(b.item)].origin;
      if (originA != originB) return originA > originB;
    }
    return a.sequence < b.sequence;
  };
  for (std::size_t k = 1; k < agenda_.size(); ++k)
    if (better(agenda_[k], agenda_[best])) best = k;
  return best;
}

void AgendaEarley::runToEnd(AgendaStrategy strategy) {
  while (!finished_) process(choose(strategy));
}

double AgendaEarley::prefixProbability(std::size_t r) const {
  if (r == 0) return 1.0;
  double total = 0.0;
  for (std::int32_t item : sets_[r])
    if (items_[static_cast<std::size_t>(item)].madeBy == OperationKind::Scan)
      total += items_[static_cast<std::size_t>(item)].forward;
  return total;
}

double AgendaEarley::sentenceProbability() const {
  if (words_.empty()) return g_.nullProbability(g_.start());
  const std::int32_t goal = find(static_cast<int>(words_.size()), g_.goalRule(), 1, 0);
  return goal < 0 ? 0.0 : items_[static_cast<std::size_t>(goal)].inner;
}

double AgendaEarley::viterbiLogProbability() const {
  if (words_.empty()) {
    const double e = g_.nullViterbi(g_.start());
    return e > 0.0 ? std::log(e) : kNegInf;
  }
  const std::int32_t goal = find(static_cast<int>(words_.size()), g_.goalRule(), 1, 0);
  return goal < 0 ? kNegInf : items_[static_cast<std::size_t>(goal)].viterbi;
}

std::string AgendaEarley::itemText(std::int32_t index) const {
  const AgendaItem& it = items_[static_cast<std::size_t>(index)];
  return dottedItemText(g_, it.rule, it.dot, it.origin, it.set);
}

std::string AgendaEarley::taskText(const AgendaTask& task) const {
  switch (task.kind) {
    case AgendaTaskKind::Predict: return "predict from " + itemText(task.item);
    case AgendaTaskKind::Complete: return "complete with " + itemText(task.item);
    case AgendaTaskKind::Scan:
      if (task.item >= 0)
        return "scan '" + words_[static_cast<std::size_t>(task.position)] + "' over " +
               itemText(task.item);
      return "scan '" + words_[static_cast<std::size_t>(task.position)] + "' as " +
             g_.ruleText(task.lexicalRule);
  }
  return {};
}

}  // namespace gwb
