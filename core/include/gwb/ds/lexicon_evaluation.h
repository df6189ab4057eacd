// Scoring a (learned) DS lexicon on sentences paired with gold record types: the evaluation of
// Eshghi, Hough & Purver 2013, section 4 and Table 1.
//
// Each test sentence is parsed best-first with the grammar (its lexicon's probabilities order
// the search, as in DyLan). The item is
//   - covered when every word was consumed (the paper's "coverage": a non-empty parse state
//     after the last word, complete tree or not), and
//   - complete when some tree after the last word is complete (reported separately; only
//     about two thirds of the covered items of the authors' lexicons are).
// Its record type is the complete tree's root formula, or, for an incomplete parse, the
// maximal semantics of the first tree the search made after the last word (DsParseResult's
// finalNode; taking the most probable one instead scores the authors' top-2 lexicon .016 F
// above their figure).
// maxMapping (max_mapping.h) scores it against the gold record type. Items that are not
// covered score 0.
//
// Summary figures:
//   macro  precision, recall and F averaged over ALL items (uncovered ones count 0); the F is
//          the mean of per-item F's, as the authors' evaluation code reports it;
//   micro  summed maxMapping over summed N_H (precision: covered items) and over summed N_G
//          (recall: all items), and their harmonic mean.
// Items are parsed in parallel when `threads` > 1; results keep corpus order, and every figure
// is the same for any thread count.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/max_mapping.h"
#include "gwb/ds/record_type.h"
#include "gwb/ds/semantic_corpus.h"

namespace gwb::ds {

struct ItemEvaluation {
  std::string sentence;
  int line = 0;  // of the item in its corpus file
  ParseOutcome outcome = ParseOutcome::Failed;
  int failedWord = -1;
  bool truncated = false;  // the parse search hit its bounds
  RecordType gold;
  RecordType parsed;  // empty when not covered
  MaxMappingResult mapping;

  bool covered() const { return outcome != ParseOutcome::Failed; }
  bool complete() const { return outcome == ParseOutcome::Parsed; }
};

struct EvaluationSummary {
  int items = 0;
  int covered = 0;
  int complete = 0;
  int truncated = 0;
  double macroPrecision = 0, macroRecall = 0, macroF = 0;
  double microPrecision = 0, microRecall = 0, microF = 0;

  double coverage() const { return items > 0 ? static_cast<double>(covered) / items : 0.0; }
  double completeCoverage() const {
    return items > 0 ? static_cast<double>(complete) / items : 0.0;
  }
};

struct LexiconEvaluationOptions {
  DsParseOptions parse = bestFirstOptions();
  int threads = 1;
  // Set from any thread to stop; items not yet parsed are then left out of the result.
  const std::atomic<bool>* cancel = nullptr;
  // Called (on some worker thread, serialised) after each item with the count done so far.
  std::function<void(std::size_t done, std::size_t total)> progress;

  static DsParseOptions bestFirstOptions() {
    DsParseOptions o;
    o.strategy = SearchStrategy::BestFirst;
    return o;
  }
};

// Parses and scores every example; the result is in corpus order (shorter when cancelled).
std::vector<ItemEvaluation> evaluateLexicon(const DsGrammar& grammar,
                                            const std::vector<SemanticExample>& corpus,
                                            const LexiconEvaluationOptions& options = {});

// Scores one example with an existing parser.
ItemEvaluation evaluateItem(const DsParser& parser, const SemanticExample& example,
                            const DsParseOptions& options);

EvaluationSummary summarize(const std::vector<ItemEvaluation>& items);

}  // namespace gwb::ds
