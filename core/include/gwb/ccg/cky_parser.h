// Log-linear CKY parsing with a factored CCG lexicon (Kwiatkowski et al. 2011, sections 4.3, 5.3
// and 8).
//
// Model. A derivation y of sentence x with logical form z scores θ·φ(x, y, z), and
// P(y, z | x) = exp(θ·φ) / Σ exp(θ·φ') over the derivations the (pruned) chart holds (eq. 1).
// Features (section 8), by name, weights from the lexicon (lexicon.h):
//   lexeme:KEY            1 per use of the lexeme
//   template:KEY          0.1 per use of the template (the paper's scaling, so that the many
//                         template uses do not swamp the lexemes)
//   pair:LEXEME || TEMPLATE  1 per use of the pair
//   skip                  1 per skipped word (only with word skipping on; its weight is
//                         CkyOptions::defaultSkipWeight, -1, unless the lexicon gives one)
// and, on the logical form at the root, binary indicators:
//   lf-arg:P,A,I          predicate P takes argument A in position I (A: a constant's name,
//                         `var` for a variable, the head of a complex argument)
//   lf-type:P,T,I         the same with A's type (the constant's type suffix, `e` for a
//                         variable, the result type of a complex argument)
//   conj:I,P1,P2          two conjoined predicates share a variable in argument slot I (P1 ≤ P2)
//   disj:I,P1,P2          the same within a disjunction
//
// Chart. Cell (i, j) holds entries over words i..j-1, unique by category and by logical form
// under exact match (term.h), so that the derivations of one meaning are summed. Each entry keeps
// every way it was built (ChartEdge: the combinator, its child entries or its lexeme and
// template, its local score and features) — a packed forest — with inside, Viterbi and outside
// scores (natural logs). Cells are filled by increasing span; a cell's entries are then ranked by
// inside score (or Viterbi score, CkyOptions::beamRanking) and all but the best `beam` (with
// keepLexicalEntries, beyond the lexicon's own entries) are marked pruned (kept for display, never
// combined, left out of every sum). The fill is recorded as events (ChartEvent) that a stepper can
// replay cell by cell and combinator by combinator.
//
// Word skipping (the paper's test-time option, off by default): a lexical entry may also cover
// skipped words, each adding the `skip` feature. So that each set of skipped words has one
// derivation, skipped words attach to the lexical entry on their left; words before the first
// lexical entry attach to it.
//
// Root. Entries of cell (0, n) whose category is one of `rootCategories` (default S; empty: any).
// The others are in no parse: they are pruned before the beam ranks that cell, so that they
// never push a parse out of it. With `rootTypes` (and `types`), a root-category entry of that
// cell is also no parse unless its logical form's type is compatible (TypeSystem::compatible,
// the relation every type test of the chart uses) with one of them: a learner gives the types
// of its training forms' roots, so that a question is never answered by a truth value or a
// two-place relation when no training form is one (such a combination is dropped, as an
// ill-typed one is).
// A root entry scores inside + θ·φ_lf(z). logZ sums over root entries; the probability of a
// logical form sums its root entries (eq. 3); feature expectations (the two terms of eq. 4's
// gradient) come from inside-outside over the pruned chart.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gwb/ccg/category.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/term.h"

namespace gwb::ccg {

inline constexpr double kTemplateFeatureValue = 0.1;

// What a cell's beam ranks its entries by: the inside score (the sum over the entry's
// derivations, the default) or the Viterbi score (its best derivation's, as UBL's
// Cell.prunescore).
enum class BeamRanking { Inside, Viterbi };

struct CkyOptions {
  int beam = 200;  // entries kept per cell (UBL's experiment drivers use 200)
  BeamRanking beamRanking = BeamRanking::Inside;
  // Never prune an entry the lexicon gives (one with a Lexical edge): the other entries of its
  // cell compete for the places left, none when the lexical ones fill the beam. UBL's
  // Chart.addNew never evicts a lexical cell, so every lexical entry of a training sentence
  // shares in E[φ | x] (and is penalised when wrong) however many a cell holds. Off: lexical
  // entries are ranked with the others.
  bool keepLexicalEntries = false;
  CombinatorOptions combinators;
  bool skipWords = false;
  // Weight of feature `skip` when the lexicon gives none: each skipped word costs this much.
  double defaultSkipWeight = -1.0;
  bool logicalFormFeatures = true;
  std::vector<std::string> rootCategories = {"S"};  // empty: any category
  // Keep the derivations (edges) and meanings of pruned entries, for a stepper to show them.
  // Off, a pruned entry keeps only its category and scores: a learner or a benchmark saves the
  // memory (with a beam of 50 on Geo880, pruned entries outnumber kept ones five to one).
  bool keepPrunedEntries = true;
  // When set, a lexical entry enters the chart only if every constant of its logical form is in
  // this set. A learner parses a sentence with the constants of its known logical form z so: the
  // combinators never add or drop constants (no vacuous lambdas), so an entry with any other
  // constant cannot be part of a derivation of z, and the beam is left to those that can.
  std::shared_ptr<const std::unordered_set<std::string>> allowedConstants;
  // When set, a combination enters the chart only if its logical form type-checks and its type
  // fits its category (typeFitsCategory). Categories alone let ill-typed meanings through,
  // since S holds any type: `S/S : λp.(and p q)` would take the <e,t> of a question's S and
  // make (and (lambda ...) q). Not owned; must outlive the chart.
  const TypeSystem* types = nullptr;
  // With `types`: the types a root's logical form may have (up to compatibility); null or empty:
  // any.
  // FublLearner sets the types of its training logical forms; a model file keeps them
  // (ccg_model.h).
  std::shared_ptr<const std::vector<TypePtr>> rootTypes;
  // Record the fill as events (events()), for a stepper. Off, events() is empty: a learner or a
  // benchmark saves 16 bytes for every derivation step ever made, pruned ones included (with a
  // beam of 200 they outnumber the kept ones many times).
  bool recordEvents = true;
  // Above this many terms in its store (the meanings made so far, 40–60 bytes each), the fill
  // keeps only those of the entries still in play, once a cell is finished: what the beam
  // dropped and the intermediate steps of beta-reduction would otherwise stay for the whole
  // chart (and the charts sharing its CkyFillCache) — 5 M terms on a 16-word Geo880 sentence.
  // No result changes; 0: never (tests compare).
  std::size_t compactTermsAbove = std::size_t{1} << 21;
  // Polled before each cell is filled (a workbench's cancel button): once it reads true the
  // fill stops, the chart is incomplete, cancelled() is true and it holds no parse.
  const std::atomic<bool>* cancel = nullptr;
};

using FeatureCounts = std::map<std::string, double>;

// The logical-form features of `term` (each feature once: they are indicators).
FeatureCounts logicalFormFeatures(const Term& term);

struct ChartEdge {
  Combinator combinator = Combinator::Lexical;
  int leftCell = -1;  // binary edges: the child entries
  int leftEntry = -1;
  int rightCell = -1;
  int rightEntry = -1;
  int lexeme = -1;  // Lexical and Skip edges
  int lexicalTemplate = -1;
  int lexicalBegin = -1;  // Skip edges: the words the lexeme covers
  int lexicalEnd = -1;
  double score = 0;                              // θ·φ of this step's own features
  std::vector<std::pair<int, double>> features;  // feature id, value
};

struct ChartEntry {
  Category category;
  Term semantics;  // canonical variable names
  Term key;        // exactMatchKey(semantics)
  std::vector<ChartEdge> edges;
  double inside = 0;
  double viterbi = 0;
  double outside = 0;
  int bestEdge = -1;
  bool pruned = false;
};

struct ChartCell {
  int begin = 0;
  int end = 0;
  std::vector<ChartEntry> entries;
};

// One step of the CKY fill, in order.
struct ChartEvent {
  enum class Kind {
    CellStarted,  // cell: the cell about to be filled
    EntryAdded,   // a new entry (entry) made by edge 0 of it
    EdgeAdded,    // another derivation (edge) of an existing entry
    EntryPruned,  // the entry fell off the beam
    CellFinished,
  };
  Kind kind = Kind::CellStarted;
  int cell = -1;
  int entry = -1;
  int edge = -1;
};

struct DerivationNode {
  int begin = 0;
  int end = 0;
  Category category;
  Term semantics;
  Combinator combinator = Combinator::Lexical;
  int lexeme = -1;
  int lexicalTemplate = -1;
  double localScore = 0;
  std::vector<DerivationNode> children;  // binary steps: left, right
};

struct Derivation {
  DerivationNode root;
  Term logicalForm;
  double score = 0;           // θ·φ(x, y, z): the lexical steps plus the logical-form features
  double logProbability = 0;  // score - logZ
};

class CkyChart;

// What a fill computes that depends only on meanings and categories — the interned meanings and
// categories, the meaning of each combination of two meanings, the category rules of each pair
// of categories, whether a meaning is well typed or may be a root — and not on the lexicon's
// weights or the chart's cells. Charts filled one after another may share one, so that what one
// computed the next looks up: a learner parses each training example two to five times (the
// chart of x, the chart of z, again after NEW-LEX), with more lexical entries or fewer. A chart
// with other combinator options, type system, root types or root categories than the cache's
// last one empties it first, so sharing never changes a result. Not thread-safe: one chart at a
// time.
class CkyFillCache {
 public:
  CkyFillCache();
  ~CkyFillCache();
  CkyFillCache(const CkyFillCache&) = delete;
  CkyFillCache& operator=(const CkyFillCache&) = delete;
  CkyFillCache(CkyFillCache&&) = delete;
  CkyFillCache& operator=(CkyFillCache&&) = delete;
  std::size_t meanings() const;  // distinct meanings interned so far

 private:
  friend class CkyChart;
  struct Slot;
  std::unique_ptr<Slot> slot_;
};

// A chart is built (filled) by its constructor and then only read. It keeps a reference to the
// lexicon, which must outlive it. kBest memoises per-entry lists, so concurrent calls on one
// chart need outside locking; distinct charts are independent.
class CkyChart {
 public:
  CkyChart(const FactoredLexicon& lexicon, std::vector<std::string> words, CkyOptions options = {},
           CkyFillCache* cache = nullptr);

  int length() const { return static_cast<int>(words_.size()); }
  const std::vector<std::string>& words() const { return words_; }
  const ChartCell& cell(int begin, int end) const { return cells_[cellIndex(begin, end)]; }
  const ChartCell& cellAt(int index) const { return cells_[index]; }
  int cellIndex(int begin, int end) const { return begin * (length() + 1) + end; }
  // Empty unless CkyOptions::recordEvents.
  const std::vector<ChartEvent>& events() const { return events_; }
  const std::vector<std::string>& featureNames() const { return featureNames_; }
  std::size_t entryCount() const;  // entries kept (not pruned) over all cells
  // Derivation steps (edges) made during the fill, those of pruned entries included.
  std::size_t edgesMade() const { return edgesMade_; }

  // Root entries (cell (0, n), a root category, not pruned) as (entry index, score with the
  // logical-form features).
  const std::vector<std::pair<int, double>>& roots() const { return roots_; }
  bool hasParse() const { return !roots_.empty(); }
  bool cancelled() const { return cancelled_; }  // CkyOptions::cancel stopped the fill
  double logPartition() const { return logZ_; }  // -inf without a parse

  // log P(z | x) summed over every derivation whose logical form matches `z` exactly.
  double logProbability(const Term& logicalForm) const;
  // E[φ] under P(y, z | x), or under P(y | x, z) when `logicalForm` is given (eq. 4's terms).
  // Empty when there is no parse (of `logicalForm`).
  FeatureCounts expectations(const Term* logicalForm = nullptr) const;

  // The best derivation (Viterbi) and the k best, best first. Empty without a parse.
  std::vector<Derivation> kBest(int k) const;
  // The best derivation whose logical form matches `logicalForm` exactly (the learner's y*);
  // false when the chart holds none.
  bool bestDerivation(const Term& logicalForm, Derivation* out) const;
  // The logical forms with their probabilities (summed over derivations), best first.
  std::vector<std::pair<Term, double>> logicalForms() const;
  // How many distinct logical forms (under exact match) have a derivation of the best Viterbi
  // score (lexical steps plus logical-form features, as kBest scores them). 0 without a parse;
  // more than 1 is a tie, on which an evaluation abstains (ccg_model.h). Scores within
  // kTieTolerance (relative, at least absolute) of the best tie: equal weights summed in another
  // order may differ in the last bits.
  int bestLogicalFormCount() const;
  static constexpr double kTieTolerance = 1e-9;

 private:
  // Pools and memo tables that live while the chart is filled (cky_parser.cpp): interned
  // meanings and categories, the meaning of each combination of two meanings, the category
  // rules of each pair of categories.
  struct FillState;
  friend class CkyFillCache;
  void fill(CkyFillCache* cache);
  void addLexicalEntries(int begin, int end, FillState* state);
  void combineCells(int cellIdx, int leftIdx, int rightIdx, FillState* state);
  void addEdge(int cellIdx, int category, int meaning, int key, ChartEdge edge, FillState* state);
  bool isRootCategory(const Category& category) const;
  // Whether a whole-sentence entry may be a root by its type (always, for other categories).
  bool rootTypeAllowed(const Category& category, const TypePtr& type) const;
  void finishCell(int cellIdx, FillState* state);
  std::vector<bool> beamSurvivors(const ChartCell& cell, const std::vector<int>& dead) const;
  void recordEvent(const ChartEvent& event);
  int featureId(const std::string& name);
  bool constantsAllowed(const Term& semantics) const;
  bool wellTyped(const Category& category, const TypePtr& type) const;
  double edgeInside(const ChartEdge& edge) const;
  void computeOutside(const Term* key, std::vector<std::vector<double>>* outside,
                      double* logZ) const;

  const FactoredLexicon& lexicon_;
  std::vector<std::string> words_;
  CkyOptions options_;
  std::vector<ChartCell> cells_;
  std::vector<ChartEvent> events_;
  std::vector<std::string> featureNames_;
  std::vector<double> featureWeights_;
  std::unordered_map<std::string, int> featureIds_;
  std::vector<std::pair<int, double>> roots_;
  std::vector<FeatureCounts> rootFeatures_;  // parallel to roots_
  double logZ_ = 0;
  std::size_t edgesMade_ = 0;
  bool cancelled_ = false;

  // k-best per entry, memoised: for each entry a list of (score, edge, left rank, right rank).
  struct Ranked {
    double score;
    int edge;
    int leftRank;
    int rightRank;
  };
  const std::vector<Ranked>& kBestOf(int cellIdx, int entryIdx, int k) const;
  mutable std::map<std::pair<int, int>, std::vector<Ranked>> kBestMemo_;
  mutable int kBestMemoK_ = 0;
  DerivationNode unpack(int cellIdx, int entryIdx, int rank, int k) const;
};

// A derivation as indented text: one line a step, "i-j CATEGORY : FORM  [combinator]".
std::string derivationToString(const DerivationNode& node, const FactoredLexicon& lexicon,
                               const std::vector<std::string>& words);

}  // namespace gwb::ccg
