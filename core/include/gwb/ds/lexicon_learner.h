// Learning a probabilistic DS lexicon from sentences paired with record types: the training
// loop of Eshghi, Hough & Purver 2013 (section 3), and its outputs.
//
// A HypothesisGenerator turns one training example into its hypothesis tuples (section 3.3);
// IncrementalEm (lexicon_em.h) folds them into the per-word distributions (section 3.4). The
// loop expands examples in batches on up to `threads` threads (each example independently —
// a generator must not depend on the lexicon learned so far) and then updates the distributions
// in corpus order, so the result is the same for any thread count.
//
// Observers: LearningObserver::onItem is called on the calling thread after each example's
// update, in corpus order, with running counts (items, hypotheses, time) and that example's
// tuples; it is plain C++ so that the CLI's progress bar and the workbench's live curve can
// both be fed from it. Cancel: set `cancel` from any thread; the loop stops after the batch in
// flight, keeping every update made so far (`cancelled` says so).
//
// Outputs: the top-N lexicons in DyLan's learned-lexicon format (`lexicon.lex-top-N.txt`,
// readable by parseLearnedLexicon and so by `gwb ds parse --lexicon` and the DS stepper), and
// a lossless TSV of every hypothesis with its probability and provenance.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gwb/ds/lexicon_em.h"
#include "gwb/ds/semantic_corpus.h"

namespace gwb::ds {

// Must be callable from several threads at once.
using HypothesisGenerator =
    std::function<ExampleHypotheses(const SemanticExample& example, std::size_t item)>;

struct LearningProgress {
  std::size_t itemsDone = 0;
  std::size_t itemsTotal = 0;
  std::size_t hypotheses = 0;  // distinct (word, hypothesis) pairs so far
  std::size_t words = 0;
  std::size_t itemsWithoutTuples = 0;
  std::size_t itemsOverBudget = 0;
  double meanHypothesesPerItem = 0.0;  // distinct word hypotheses per example, over the items
  double seconds = 0.0;                // wall time since the start
};

class LearningObserver {
 public:
  virtual ~LearningObserver() = default;
  virtual void onItem(const LearningProgress& progress, const SemanticExample& example,
                      const ExampleHypotheses& hypotheses) = 0;
};

struct LearningOptions {
  int threads = 1;
  double heldOutMass = 0.1;
  std::size_t batch = 0;  // examples expanded at once (0: 4 per thread)
  const std::atomic<bool>* cancel = nullptr;
};

struct LearningResult {
  IncrementalEm em;
  LearningProgress progress;
  bool cancelled = false;
  // One line per example that hit the generator's budget or gave no tuple: "line 12: ...".
  std::vector<std::string> notes;
};

LearningResult learnLexicon(const std::vector<SemanticExample>& corpus,
                            const HypothesisGenerator& generate, const LearningOptions& options,
                            LearningObserver* observer = nullptr);

// DyLan's learned-lexicon text: per word (sorted), its `top` most probable hypotheses, each as
// `[probability,0]`, the word, the action body, and a blank line.
std::string learnedLexiconText(const IncrementalEm& em, int top);
// Every hypothesis: id, word, probability, rank within its word (1 = best), training items
// (1-based, comma-separated), key, and the action with newlines written as `\n`.
std::string losslessLexiconText(const IncrementalEm& em);
// Writes lexicon.lex-top-1.txt ... lexicon.lex-top-<maxTop>.txt and hypotheses.tsv into
// `directory` (which must exist), each atomically; false and *error on the first failure.
bool writeLearnedLexicons(const IncrementalEm& em, const std::string& directory, int maxTop,
                          std::string* error);

}  // namespace gwb::ds
