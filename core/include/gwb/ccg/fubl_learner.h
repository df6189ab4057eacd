// FUBL: learning a factored CCG lexicon and the weights of its log-linear parsing model from
// sentences paired with logical forms (Kwiatkowski et al. 2011, Figure 1 and section 8).
//
// Initialisation. Each training pair (x, z) gives the lexical item x ⊢ S : z, maximally factored
// (MAX-FAC, lexical_splitting.h); the fixed entity lexicon (np-fixedlex.geo) is added. Weights:
// a lexeme's is `lexemeInitScale` × Σ t(c | w) / (|w| · (|c| + 1)) over its words and constants
// with IBM Model 1's t (ibm_model1.h; UBL's co-occurrence init and its drivers' multiplier 10:
// the + 1 keeps small split items from scoring nearly as high as big ones), a fixed-lexicon
// lexeme's is `fixedLexemeWeight` (10, as UBL's drivers; × its words with `fixedWeightPerWord`); a
// template's is −0.1 per slash and −2 when it holds constants of its own; pair and logical-form
// features start at 0.
//
// Root types. With `restrictRootTypes` (the default), the learner records the types of its
// training logical forms (trainingRootTypes: Geo880's are <e,t>, c, i, m, p, r and s) in
// options().parser.rootTypes, so that every chart it parses — of x and of z — and the model
// file it is saved to (ccg_model.h) take as roots only whole-sentence entries of a type
// compatible with one of them (cky_parser.h). Each pass adds templates any lexeme of the right
// type fills, and some of their combinations are a truth value or a two-place relation over the
// whole sentence: no training question has such an answer.
//
// Per example (x_i, z_i), pass t (examples in the order given, or shuffled once per pass by a
// generator seeded with `seed` and the pass number):
//   Step 1. y* = the best derivation of z_i (CkyChart::bestDerivation). NEW-LEX (UBL's
//   Chart.splitAndMergeLex, newLexNodes = AllNodes): every node of y* over two or more words is
//   split (splitLexicalItem on its category and meaning); a half is the chart of z's constituent
//   for its span when that scores at least as well as a new item, else a new item (its maximal
//   factoring's lexeme, 0.1 × template and pair weights, initialised as above when new); each
//   split is scored by the change to the node's Viterbi score, and the new items of the best
//   splits (all those tied with it) are added, maximally factored, when that change is >= 0
//   (splitTest = Gain, UBL's and SPF's test; see FublOptions for the re-parse test and the
//   leaves-only NEW-LEX, the defaults until session 20). PART-FAC: the
//   templates of the partial factorings with one constant in the lexeme of y*'s internal nodes over
//   two words (section 6.2). Step 2. θ += γ (E_{p(y|x,z)}[φ] − E_{p(y,z|x)}[φ]) with γ = α0 / (1 +
//   c·k), k = i + t·n (section 7; UBL's drivers: α0 = 1, c = 10^-5). No update when the chart holds
//   no parse of z_i.
//
// After the last pass (train(), or a caller's pruneToBestCorrectParses()): with
// `pruneAfterLastPass` (the default), every training example is parsed once more with the final
// weights, in the chart of z (as Step 1), and only the lexemes and templates of the examples'
// best correct parses y* are kept, with the weights of their features and of the pairs among
// them (the fixed lexicon's lexemes and templates stay, and the logical-form features); the
// rest is dropped. This is the lexicon pruning of Artzi's SPF, done once at the end of
// training, not after each pass (see pruneUnused): the items no y* uses are split pieces and
// whole-sentence items that the final model does not need to parse its own training data, and
// at test time each of them would otherwise meet every template of its type. With
// `keepPosterior` P > 0 (not in the paper; 0.1 by default) the pruning also keeps every lexeme and
// template that an example's parses of z use at least P times in expectation (E[count | x, z], the
// chart of z's inside-outside): z's runner-up analyses keep their pieces. adoptModel() takes a
// model saved whole as the state after the last pass, so that it is pruned later (`gwb ccg prune`)
// as training would have pruned it.
//
// Everything is deterministic for given data, options and seed: ties go to the first candidate
// in enumeration order, sums run in a fixed order, and the online loop itself is sequential (each
// step depends on the one before). Threads (FublOptions::threads) work inside a step: an
// example's chart of x and chart of z are filled at once, and the final pruning re-parses
// several examples at once and then takes their best parses in example order, so the model is
// the same, byte for byte, for any number of threads.
//
// Reports and cancelling: a FublObserver hears of each example done and each pass finished (the
// CLI prints them, the workbench plots them); a cancel flag, polled between two examples, stops a
// run. A pass stopped that way is not finished: its summary says `cancelled`, it is not counted
// in passesDone(), nothing is pruned, and the updates of the examples it did stay in the lexicon
// (callers that want the last finished pass keep the lexicon onPass showed them, as the
// workbench's training job does, or save after each pass, as `gwb ccg train` does).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/ibm_model1.h"
#include "gwb/ccg/lexical_splitting.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"

namespace gwb::ccg {

struct FublOptions {
  // The paper does not give J; UBL's Geo880 driver runs 20. At the training beam of 200 a pass
  // costs more than the one before as the lexicon grows (Geo880, passes 1-5: 2, 95, 303, 453
  // and 675 s; 26 min of CPU in all), and 5 passes against 3 gain on every data set measured:
  // Geo880 76.8 -> 78.8, Geo250 English, Spanish, Japanese, Turkish +2.9, +1.6, +2.1, +3.2
  // (docs/ccg.md, Results).
  int passes = 5;
  double learningRate = 1.0;  // α0
  double coolingRate = 1e-5;  // c
  std::uint64_t seed = 0;     // 0: the examples in the order given in every pass
  double lexemeInitScale = 10.0;
  double fixedLexemeWeight = 10.0;
  // A fixed-lexicon lexeme's weight is fixedLexemeWeight × its number of words, as UBL's
  // LexiconFeatSet gives its fixed entries (initLexWeight per token: "salt lake city" 30); off:
  // fixedLexemeWeight whatever the length.
  bool fixedWeightPerWord = false;
  int model1Iterations = 10;
  bool newLex = true;  // Step 1 (off: parameter learning only)
  // Which nodes of y* NEW-LEX splits and how a split is scored.
  //   Leaves: the lexical items of y* over two or more words; both halves become new items (the
  //     default until session 20).
  //   AllNodes (the default): UBL's Chart.splitAndMergeLex — every node of y* over two or more
  //   words (internal nodes and the root too); a half is the chart of z's entry for its span,
  //   category and meaning when that entry's Viterbi score is at least the new item's (only the
  //   other half is added; a candidate must add at least one item); the change is the node's new
  //   Viterbi score less its old one; all candidates tied with the best change are added.
  enum class NewLexNodes { Leaves, AllNodes };
  NewLexNodes newLexNodes = NewLexNodes::AllNodes;
  // NEW-LEX also merges (section 7.1: it "generates lexical items by splitting and merging nodes
  // in the best parse tree"; UBL's Chart.splitMerge): an internal node of y* (the root included)
  // becomes one multi-word item over its span with the node's category and meaning, scored as
  // its maximal factoring's weights less the node's Viterbi score, in competition with the splits
  // (the same best change from 0; under AllNodes, ties join). A merged item already in the
  // lexicon is no candidate.
  bool merge = false;
  // When NEW-LEX keeps its best split (under AllNodes, its best splits, ties included):
  //   Reparse: the split's change to y*'s score is >= 0 and re-parsing z with the new items
  //     gives a best parse y' scoring at least y*'s (y' can lose where the beam loses it).
  //   Gain (the default; Reparse until session 20): the change is >= 0, nothing more: UBL's
  //     released Chart.splitAndMergeLex and SPF's UBLStocGradient, whose running maximum from 0
  //     is the whole test (no re-parse).
  //   Always: whatever the change (Figure 1 read literally: NEW-LEX's items are added).
  enum class SplitTest { Reparse, Gain, Always };
  SplitTest splitTest = SplitTest::Gain;
  // Which operators MAX-FAC puts in lexemes, so that words choose them: argmax, argmin, count,
  // sum (section 5.1's (cheapest, [argmin, cost])), and with the larger sets `or` and/or exists,
  // the, not (term.h).
  LexicalOperators lexicalOperators = LexicalOperators::Ranking;
  bool partFac = true;  // PART-FAC templates in Step 1
  // A PART-FAC template joins the lexicon once it has come from this many best correct parses
  // (section 6.2: "commonly occurring nodes"); 1 adds every one at once.
  int partFacMinCount = 3;
  // After each pass, drop the lexemes and templates that no best correct parse of that pass used
  // and that were not added in it (the fixed lexicon's lexemes stay). Off by default: Figure 1
  // only adds to L and T, and UBL's drivers leave its pruneLex off. Pruning takes the lexical
  // entries of z_i's other derivations (not y*) out of the charts, lowering the inside scores of
  // the entries y* is built from, so the beams lose z_i (Geo250 Spanish fold 1, pass 3: 15
  // examples lost it from the chart of z though every item of their last y* was still there, and
  // got whole-sentence items back; 14 had it only in the chart of z, not in the full one). Training
  // accuracy in passes 2-4: 85.8, 75.6, 65.3 % with it, 85.8, 83.6, 80.0 % without.
  bool pruneUnused = false;
  // Once after the last pass, keep only what the training examples' best correct parses use (and,
  // with keepPosterior, their likely parses; see the header comment); off: every lexeme and
  // template learned stays in the model.
  bool pruneAfterLastPass = true;
  // Not in the paper (session 23; the default since session 25): the final pruning also keeps
  // every lexeme and template whose expected number of uses in an example's parses of z,
  // E[count | x, z] under the final weights (the chart of z's inside-outside), is at least this;
  // 0: only y*'s items (SPF's pruning). A lexeme z's other likely derivations use, pruned, takes
  // its analyses away from test sentences that need them with another template. 0.1 adds 1.0
  // to the mean F1 of three Geo880 seeds and keeps the four Geo250 means within fold noise
  // (docs/ccg.md, Results, sessions 23-25).
  double keepPosterior = 0.1;
  // Find y* and E[φ | x, z] in a chart restricted to entries with z's constants
  // (CkyOptions::allowedConstants), so that the beam cannot push every derivation of z out.
  bool constrainCorrectParse = true;
  // Entries kept per cell in the training parses (both charts); 0: parser.beam (200), which
  // testing uses — as UBL's Geo880 driver, whose one parser trains and tests. Geo880, 3 passes:
  // F1 76.8 and 74.7 (seeds 1, 2) at 200, 63.7 at 50 (docs/ccg.md, Results).
  int trainBeam = 0;
  // Roots only of the training logical forms' types (see the header comment); off: any type.
  bool restrictRootTypes = true;
  // Not in the paper: the model's weights are the average of θ after each example of every pass
  // so far (the averaged perceptron's device, Collins 2002), not θ after the last one. Training
  // itself still parses with θ; model() gives the averaged weights after each pass, and the final
  // pruning and the saved model use them. A feature counts at its initial weight for the
  // examples before it was first updated (new lexemes and templates too).
  bool averageWeights = false;
  // Threads for training: with 2 or more, each example's chart of x and chart of z are filled at
  // once, and the final pruning re-parses several examples at once. The results are the same
  // for any count (the online loop stays sequential; see the header comment).
  int threads = 1;
  CkyOptions parser;
  SplitOptions splitting;
};

struct PassSummary {
  int pass = 0;  // 1-based
  int examples = 0;
  int correctBeforeUpdate = 0;  // examples whose best parse was z_i when met (training accuracy)
  int parsable = 0;             // examples with some parse of z_i
  int restored = 0;             // examples given back their whole-sentence item (no parse of z_i)
  int splitsAdded = 0;          // NEW-LEX splits (and merges) kept
  int mergesAdded = 0;          // of them, those that added a merged item (FublOptions::merge)
  int splitsRejected = 0;
  int partFacTemplates = 0;  // PART-FAC templates added
  int lexemesPruned = 0;     // lexemes and templates dropped at the end of the pass
  int templatesPruned = 0;
  double logLikelihood = 0;  // Σ log P(z_i | x_i) when met (examples with a parse of z_i)
  // Diagnostics of Step 2: examples whose chart of z had a parse of z_i while the full chart had
  // none (z_i pruned from it), examples whose best parse was a single lexical item over the whole
  // sentence (a remembered training pair, not a generalisation), and Σ_i Σ_j |γ Δ_j|.
  int zOutsideFullChart = 0;
  int wholeSentenceBest = 0;
  double updateL1 = 0;
  std::size_t lexemes = 0;
  std::size_t templates = 0;
  std::size_t entries = 0;
  double seconds = 0;
  double slowestSeconds = 0;  // the slowest example's Steps 1 and 2
  int slowestLine = 0;        // its sentence's line in the training file
  bool cancelled = false;     // stopped by the cancel flag before its last example
};

// What pruneToBestCorrectParses did: the lexicon before and after, and the training examples
// whose chart of z held a parse of z (only their y* are kept, and with keepPosterior their likely
// items).
struct FinalPruning {
  int examples = 0;
  int parsable = 0;
  std::size_t lexemesBefore = 0;
  std::size_t templatesBefore = 0;
  std::size_t entriesBefore = 0;
  std::size_t lexemes = 0;
  std::size_t templates = 0;
  std::size_t entries = 0;
  // With FublOptions::keepPosterior: the examples whose likely items added a lexeme or template
  // to everything kept so far (y*'s items and the earlier examples' likely ones).
  int widenedByPosterior = 0;
  bool cancelled = false;  // stopped by the cancel flag: nothing was pruned (after = before)
};

struct FublProgress {
  int pass = 0;     // in the pruning after the last pass: the last pass
  int example = 0;  // done in this pass (or in the pruning)
  int examples = 0;
};

// What a run reports, on the thread that runs the learner, in order: onExample after each
// example of a pass (its Steps 1 and 2 done), onPass once the pass is finished and pruned, with
// the lexicon as it then stands (valid only during the call). A cancelled pass gets no onPass.
// After the last pass, the pruning to the best correct parses reports onPruningExample after
// each training example it has parsed again.
class FublObserver {
 public:
  virtual ~FublObserver() = default;
  virtual void onExample(const FublProgress& /*progress*/) {}
  virtual void onPass(const PassSummary& /*summary*/, const FactoredLexicon& /*lexicon*/) {}
  virtual void onPruningExample(const FublProgress& /*progress*/) {}
};

// Who listens to a run and what stops it; both may be null.
struct FublControl {
  FublObserver* observer = nullptr;
  const std::atomic<bool>* cancel = nullptr;  // polled before each example (and each re-parse)
};

// The distinct types of the well-typed logical forms of `examples` (typeCheck, term.h), sorted by
// their printed form; ill-typed forms add none.
std::vector<TypePtr> trainingRootTypes(const std::vector<SemanticExample>& examples,
                                       const TypeSystem& types);

class FublLearner {
 public:
  FublLearner(const TypeSystem& types, FublOptions options);

  // Builds the initial lexicon and weights from `training` and `fixedLexicon`.
  void initialise(const std::vector<SemanticExample>& training,
                  const FactoredLexicon& fixedLexicon);
  // One pass over the training data (Steps 1 and 2 per example); `progress` is called after
  // each example when given.
  PassSummary runPass(const std::function<void(const FublProgress&)>& progress = {});
  // The same, reporting to control.observer and stopping at control.cancel (then the summary
  // says `cancelled` and the pass does not count; see the header comment).
  PassSummary runPass(const FublControl& control);
  // initialise + options.passes passes (then the final pruning, with pruneAfterLastPass); `onPass`
  // after each pass.
  void train(const std::vector<SemanticExample>& training, const FactoredLexicon& fixedLexicon,
             const std::function<void(const FublProgress&)>& progress = {},
             const std::function<void(const PassSummary&)>& onPass = {});
  // initialise + up to options.passes passes, reported to and stopped by `control`, then the final
  // pruning when no pass was cancelled (stopped by `control` too). Returns the number of passes
  // finished (options.passes unless cancelled; a cancelled pruning leaves them all finished and
  // the lexicon unpruned).
  int train(const std::vector<SemanticExample>& training, const FactoredLexicon& fixedLexicon,
            const FublControl& control);
  int passesDone() const { return passesDone_; }
  // The pruning after the last pass (see the header comment), whatever options say; train()
  // calls it when options.pruneAfterLastPass and every pass finished. Reports each re-parsed
  // example to control.observer; stopped by control.cancel before an example, it prunes nothing
  // and says `cancelled`.
  FinalPruning pruneToBestCorrectParses(const FublControl& control = {});
  // Takes a trained model (a whole lexicon, as `gwb ccg train --keep-lexicon` saves it, and the
  // parser settings it was trained with, root types included) as the learner's state after its
  // last pass, with the training pairs and fixed lexicon it was trained on, so that
  // pruneToBestCorrectParses() prunes it as training would have (`gwb ccg prune`; the options
  // that bear on it, trainBeam and constrainCorrectParse, must be those of the training). No
  // further pass is meant: the word-constant model is not trained (cooccurrence() is empty), and
  // passesDone() says options().passes.
  void adoptModel(const FactoredLexicon& model, const CkyOptions& parser,
                  const std::vector<SemanticExample>& training,
                  const FactoredLexicon& fixedLexicon);

  // The lexicon training parses with (θ after the last example).
  const FactoredLexicon& lexicon() const { return lexicon_; }
  FactoredLexicon& lexicon() { return lexicon_; }
  // The model as it stands after the last finished pass (or the final pruning): lexicon(), or
  // with FublOptions::averageWeights the same lexicon with the averaged weights. What to save,
  // test and show.
  const FactoredLexicon& model() const {
    return options_.averageWeights && averagedReady_ ? averaged_ : lexicon_;
  }
  const WordConstantModel& cooccurrence() const { return model1_; }
  const FublOptions& options() const { return options_; }

  // Initial weight of a new lexeme / template (section 8).
  double initialLexemeWeight(const Lexeme& lexeme) const;
  static double initialTemplateWeight(const LexicalTemplate& lexicalTemplate);

  // The gradient of log P(z | x) with respect to every feature the chart uses (eq. 4): empty
  // when there is no parse of z.
  FeatureCounts gradient(const SemanticExample& example) const;
  // log P(z | x) under the current lexicon (-inf without a parse of z).
  double logLikelihood(const SemanticExample& example) const;

 private:
  // Adds a factoring's lexeme and template with their initial weights when new.
  void addFactoring(const Factoring& factoring);
  double itemScore(const LexicalItem& item) const;
  // itemScore of the item `factoring` is the maximal factoring of.
  double factoringScore(const Factoring& factoring) const;
  CkyOptions correctParseOptions(const SemanticExample& example) const;
  CkyOptions fullParseOptions() const;
  bool newLex(const SemanticExample& example, const Derivation& best, const CkyChart& correct,
              CkyFillCache* cache);
  // NewLexNodes::Leaves: the new items of the best split of a lexical item of y* over two or
  // more words or, with FublOptions::merge, of the best merge (the first in a fixed order on
  // ties), and its change to y*'s score in `bestDelta`; empty when there is no candidate.
  // `merged`: whether it is a merge.
  std::vector<LexicalItem> newLexLeaves(const SemanticExample& example, const Derivation& best,
                                        double* bestDelta, bool* merged) const;
  // A split of `node` of y* as NewLexNodes::AllNodes scores it: each half is the chart's
  // constituent for its span, category and meaning when that scores at least as well as a new
  // item; `score` is the node's new Viterbi score.
  struct SplitHalves {
    double score = 0;
    bool leftNew = true;
    bool rightNew = true;
  };
  SplitHalves scoreHalves(const CkyChart& correct, const DerivationNode& node,
                          const LexicalSplit& split) const;
  // NewLexNodes::AllNodes: the new items of the best splits and merges (all tied ones); empty
  // when none reaches a change of 0. `merged`: whether a merged item is among them.
  std::vector<LexicalItem> newLexAllNodes(const SemanticExample& example, const Derivation& best,
                                          const CkyChart& correct, bool* merged) const;
  // FublOptions::merge: the item that merges internal node `node` of y*, and the change it makes
  // to y*'s score; false when the item is in the lexicon already.
  bool mergeCandidate(const SemanticExample& example, const DerivationNode& node, LexicalItem* item,
                      double* delta) const;
  int partFac(const DerivationNode& node, const std::vector<std::string>& words, int example);
  void noteUsed(const DerivationNode& node);
  void pruneUnused(PassSummary* summary);
  // FublOptions::averageWeights: θ[feature] becomes `value` at example updates_.
  void updateWeight(const std::string& feature, double value);
  // Clears what a run accumulates (update count, averaging history, PART-FAC proposals, the
  // fixed lexicon's keys), for initialise() and adoptModel().
  void resetRunState();
  // The average of θ over examples 1..updates_ for every feature.
  std::unordered_map<std::string, double> averagedWeights() const;
  void refreshAveraged();
  // The chart of x (into *chart, with `cache`) and the chart of z_i (into *correct): one after
  // the other sharing `cache`, or with FublOptions::threads > 1 at once, the chart of z with
  // `correctCache`. A cache never changes a chart, so the charts are the same either way.
  void fillBothCharts(const SemanticExample& example, CkyFillCache* cache,
                      CkyFillCache* correctCache, std::unique_ptr<CkyChart>* chart,
                      std::unique_ptr<CkyChart>* correct) const;

  const TypeSystem& types_;
  FublOptions options_;
  FactoredLexicon lexicon_;
  WordConstantModel model1_;
  std::vector<SemanticExample> training_;
  int passesDone_ = 0;
  long long updates_ = 0;
  int splitsAdded_ = 0;
  int mergesAdded_ = 0;
  int splitsRejected_ = 0;
  // PART-FAC template key -> the examples (indices) whose best correct parses proposed it.
  std::unordered_map<std::string, std::unordered_set<int>> partFacSeen_;
  std::unordered_set<std::string> fixedTemplates_;
  std::unordered_set<std::string> fixedLexemes_;  // lexeme keys of the fixed lexicon
  std::unordered_set<std::string> usedLexemes_;   // this pass: in a y* or added
  std::unordered_set<std::string> usedTemplates_;
  // FublOptions::averageWeights: per updated feature, Σ θ over the examples before `since` and
  // the example from which its current value holds (1-based); others hold their value throughout.
  struct WeightHistory {
    double sum = 0;
    long long since = 1;
  };
  std::unordered_map<std::string, WeightHistory> history_;
  FactoredLexicon averaged_;
  bool averagedReady_ = false;
};

}  // namespace gwb::ccg
