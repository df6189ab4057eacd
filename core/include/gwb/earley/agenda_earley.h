// AgendaEarley: Stolcke's probabilistic Earley parser driven by an agenda, for teaching.
//
// It builds the same chart as EarleyParser (earley_parser.h) — the same items, in the same state
// sets, with the same forward, inner and Viterbi values, through the same compiled grammar
// (ε-rules removed, unit chains folded into R_U, left-corner closure R_L) and the same
// look-ahead pruning — but it does not choose the order of the work. Each position r has an
// agenda of tasks, and the caller (a student, or a strategy) picks which one runs next:
//
//   predict   from an item of set r that waits on a nonterminal Z and was not itself predicted:
//             every Y with R_L(Z, Y) > 0 gets prediction mass forward·R_L(Z, Y), and each of
//             Y's rules becomes (or grows) the predicted item [r, r] Y → . λ.
//   scan      word r: an item of set r waiting on that terminal moves into set r+1; or a lexical
//             rule X → w whose preterminal X has prediction mass at r gives [r, r+1] X → w .
//   complete  with a finished item [k, r] Y → ν . (not a unit item): every item of set k waiting
//             on a Z with R_U(Z, Y) > 0 advances to [·, r] X → α Z . β, with forward
//             += forward·R_U·inner(Y) and inner += inner·R_U·inner(Y).
//
// When the agenda of position r is empty, set r is final and position r+1 begins (its agenda
// holds the tasks of the items scanned into it). Predicted items predict nothing (R_L did it).
//
// WHY ANY ORDER GIVES THE SAME NUMBERS. Every value is a sum over the steps that feed it, and
// every step multiplies one value that may still grow (the predictor's forward, the scanned
// item's forward and inner, the completed item's inner) by numbers that are already final (rule
// and closure weights, and the values of items of earlier sets). A task that runs before its
// source value is final records an edge; whenever the source later grows by δ, δ·(the edge's
// coefficient) is pushed along every edge from it, and on from there. So each edge contributes
// coefficient·(final source value) in the end, whatever the order: the totals are the sums the
// standard order computes. Viterbi scores are maxima, which are order-free the same way (an
// improvement is pushed on like an increment). Within one set the edges form no cycle (a
// completion's result has an origin no later than its child's, and equal only through unit
// rules, which R_U folds away), so the pushing ends. In Earley's own order (complete by
// decreasing origin, then predict, then scan) every source is final before it is used and
// nothing is ever pushed: that is why EarleyParser can work without edges.
//
// Values are plain probabilities (no scaling, no logarithms): right for teaching-sized inputs.
// A prefix probability that underflows a double (below ~1e-308) stops the run with a message
// (failureText()) rather than giving wrong answers. The empty sentence has no items to process:
// its probability is e(S) (sentenceProbability()), as in EarleyParser.
//
// Invariants: items are never removed and their values never decrease; every item belongs to
// one set; sets before position() are final; every task on the agenda belongs to position().
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"

namespace gwb {

enum class AgendaTaskKind { Predict, Scan, Complete };
const char* agendaTaskKindName(AgendaTaskKind kind);

// How a strategy picks the next task from the agenda of the current position.
enum class AgendaStrategy {
  Earley,         // EarleyParser's order: complete (latest origin first), predict, scan
  PredictFirst,   // predictions first, then scans, then completions (oldest first within each)
  CompleteFirst,  // completions first (oldest first: may need corrections), then predict, scan
  ScanFirst,      // scans first, then predictions, then completions
  Oldest,         // the agenda as a queue
  Newest,         // the agenda as a stack
  Random,         // uniformly at random (seeded: AgendaOptions::seed)
};
const char* agendaStrategyName(AgendaStrategy strategy);
// A short name for command lines ("earley", "predict-first", ..., "random"), and back.
const char* agendaStrategyKey(AgendaStrategy strategy);
std::optional<AgendaStrategy> parseAgendaStrategy(const std::string& key);
// All strategies, in the order above.
const std::vector<AgendaStrategy>& agendaStrategies();

struct AgendaItem {
  std::int32_t set = 0;     // r: the item covers words origin..set-1
  std::int32_t origin = 0;  // l
  std::int32_t rule = -1;   // compiled rule id
  std::int32_t dot = 0;
  double forward = 0.0;  // plain probabilities
  double inner = 0.0;
  double viterbi = 0.0;  // log of the best single path's probability, as EarleyItem::viterbi
  OperationKind madeBy = OperationKind::Init;  // the operation that created it
  bool predicted = false;                      // made by prediction (predicts nothing more)
  bool finished = false;                       // the dot is at the end
  std::int32_t madeAtStep = 0;                 // the step that created it (0: the axiom)
};

struct AgendaTask {
  AgendaTaskKind kind = AgendaTaskKind::Predict;
  std::int32_t item = -1;  // predict: the predictor; complete: the finished item; scan: the
                           // item before the word, or -1 for a lexical scan
  SymbolId preterminal = kNoSymbol;  // lexical scan: X of X → w
  std::int32_t lexicalRule = -1;     // lexical scan: the compiled rule X → w
  std::int64_t sequence = 0;         // when it joined the agenda (for the queue strategies)
  std::int32_t position = 0;         // the position whose agenda it is on
};

// What one processed task did.
struct AgendaStepReport {
  AgendaTask task;
  std::int32_t position = 0;          // the position it belonged to
  std::vector<std::int32_t> created;  // items it made
  std::vector<std::int32_t> grown;    // existing items it added mass to directly
  // Items built earlier from a value that grew now, and corrected by the pushed increment
  // (empty in Earley's order).
  std::vector<std::int32_t> corrected;
  int increments = 0;                      // increments pushed along recorded edges
  std::vector<SymbolId> predictedSymbols;  // predict: the Y that got prediction mass
  bool positionFinished = false;           // the agenda of `position` became empty
};

struct AgendaOptions {
  bool lookahead = true;   // the same FIRST/FOLLOW pruning as ParseOptions::lookahead
  std::uint64_t seed = 1;  // for AgendaStrategy::Random
};

class AgendaEarley {
 public:
  // The compiled grammar must outlive the engine. Starts at position 0 with the axiom
  // [0, 0] GOAL → . S and its prediction task on the agenda.
  AgendaEarley(const CompiledGrammar& grammar, std::vector<std::string> words,
               AgendaOptions options = {});

  const CompiledGrammar& grammar() const { return g_; }
  const std::vector<std::string>& words() const { return words_; }
  const AgendaOptions& options() const { return options_; }

  // The position whose agenda is open (words().size() at the end).
  int position() const { return position_; }
  const std::vector<AgendaTask>& agenda() const { return agenda_; }
  bool finished() const { return finished_; }
  // The run stopped early: no item scans word failedAt() (-1 if none), or an underflow.
  bool failed() const { return !failureText_.empty(); }
  int failedAt() const { return failedAt_; }
  const std::string& failureText() const { return failureText_; }
  // Tasks processed so far.
  int steps() const { return steps_; }

  const std::vector<AgendaItem>& items() const { return items_; }
  // Indices into items() of set r, in order of creation.
  const std::vector<std::int32_t>& itemsOfSet(std::size_t r) const { return sets_[r]; }
  std::size_t setCount() const { return sets_.size(); }
  // The item with this (set, rule, dot, origin), or -1.
  std::int32_t find(int set, std::int32_t rule, int dot, int origin) const;
  // The prediction mass of Y at position r (0 when none).
  double predictionMass(int position, SymbolId y) const;

  // Runs agenda()[index]. Precondition: index < agenda().size() and !finished().
  AgendaStepReport process(std::size_t index);
  // The agenda index `strategy` would run next (agenda() must not be empty).
  std::size_t choose(AgendaStrategy strategy);
  // Runs tasks chosen by `strategy` until the end (or failure).
  void runToEnd(AgendaStrategy strategy);

  // Σ forward of set r: P(w_0..w_{r-1} ...) once set r is final (r ≤ position()).
  double prefixProbability(std::size_t r) const;
  // P(words): the goal item's inner value once finished (e(S) for the empty sentence); 0 when
  // the words are no sentence.
  double sentenceProbability() const;
  // log of the Viterbi parse's probability (−inf when there is none).
  double viterbiLogProbability() const;

  // "[0, 2] NP -> Det N ." as EarleyChart::itemText.
  std::string itemText(std::int32_t item) const;
  // "complete with [1, 3] NP -> Det N .", "scan 'saw' as V -> 'saw'", "predict from [...]".
  std::string taskText(const AgendaTask& task) const;

 private:
  struct CompleteEdge {
    std::int32_t to;
    double forwardCoefficient;  // forward(waiting)·R_U(Z, Y)
    double innerCoefficient;    // inner(waiting)·R_U(Z, Y)
    double viterbiAdd;          // viterbi(waiting) + log R̂_U(Z, Y)
  };
  struct PredictEdge {
    SymbolId y;
    double coefficient;  // R_L(Z, Y)
  };
  struct Edges {
    std::vector<std::int32_t> scans;  // items scanned from this one (forward and inner copied)
    std::vector<PredictEdge> predicts;
    std::vector<CompleteEdge> completes;
  };
  // Y's prediction mass at the current position and what was built from it.
  struct MassNode {
    bool opened = false;  // Y's predicted items and lexical scans exist
    double mass = 0.0;
    std::vector<std::int32_t> predictedItems;
    std::vector<std::pair<std::int32_t, double>> lexicalScans;  // (item, P(X → w))
  };
  // An increment waiting to be applied: to an item, or (item < 0) to Y's prediction mass.
  struct Pending {
    std::int32_t item;
    SymbolId y;
    double forward;
    double inner;
    double viterbi;  // a candidate score (−inf: none)
    bool direct;     // made by the task itself, not pushed along an old edge
  };

  std::optional<SymbolId> lookaheadAt(std::size_t r) const;
  bool mayComplete(std::size_t r, SymbolId y) const;
  bool worthCreating(std::size_t r, const AgendaItem& waiting) const;
  bool predictsAt(std::size_t r) const;
  SymbolId symbolAfterDot(const AgendaItem& item) const;

  // Finds or creates an item; returns (index, created).
  std::pair<std::int32_t, bool> obtain(int set, std::int32_t rule, int dot, int origin,
                                       OperationKind madeBy, bool predicted);
  void enqueueTasksOf(std::int32_t item);
  void addTask(AgendaTask task);
  // Applies increments and pushes them along recorded edges until none is left.
  void drain(std::vector<Pending>& work, AgendaStepReport& report);
  void predictFrom(std::int32_t item, AgendaStepReport& report);
  void scan(const AgendaTask& task, AgendaStepReport& report);
  void completeWith(std::int32_t item, AgendaStepReport& report);
  // Moves on while the agenda is empty: to the next position, to the end, or to a failure.
  void settle(AgendaStepReport* report);
  void openPosition(int r);

  const CompiledGrammar& g_;
  std::vector<std::string> words_;
  AgendaOptions options_;
  std::vector<SymbolId> terminals_;
  std::vector<AgendaItem> items_;
  std::vector<Edges> edges_;
  std::vector<std::vector<std::int32_t>> sets_;
  // Items of each set waiting on each nonterminal (completion looks them up in set k).
  std::vector<std::map<SymbolId, std::vector<std::int32_t>>> waiting_;
  std::map<std::tuple<int, std::int32_t, int, int>, std::int32_t> index_;
  std::vector<std::map<SymbolId, MassNode>> mass_;  // [position]
  std::vector<AgendaTask> agenda_;
  std::int64_t nextSequence_ = 0;
  int position_ = 0;
  int steps_ = 0;
  bool finished_ = false;
  int failedAt_ = -1;
  std::string failureText_;
  std::mt19937_64 random_;
};

}  // namespace gwb
