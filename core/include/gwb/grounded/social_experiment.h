// The grounded word-learning experiments of Luong, Frank & Johnson (2013, section 7): build a
// social-cue grammar from the corpus, learn its probabilities, decode every utterance's topic and
// every word's topic from Viterbi parses, and score them against the gold annotation.
//
//   em              the sentence-level unigram grammar, EM, one string per utterance
//   vb              the same with Variational Bayes and the sparse Word.t prior α (section 6.1)
//   discourse       the discourse grammar, VB, one string per recording (section 3.2)
//   discourse+init  first `vb`; then the discourse grammar starts from what it learned: every
//                   rule below the discourse layer takes the sentence-level probability (each
//                   LHS renormalised, as VB's mean-field weights do not sum to one), and the
//                   discourse layer is made equivalent to the sentence-level model — Discourse →
//                   Discourse.t and Discourse.t → Sentence.t Discourse.t' both ∝ the learned
//                   P(Sentence → Topic.t Words.t), with the ending rule given 1/(mean utterances
//                   per recording) — so that VB starts where the sentence model stopped.
//
// Topics are decoded from Viterbi parses (per utterance, or per recording for the discourse
// models), or from the posterior (`decoding`, see topic_posterior.h).
//
// Training starts from uniform probabilities plus seeded noise (InitMethod::Uniform), so a seed
// fixes a run. Everything else — threads, ranks — leaves the result unchanged.
//
// Checkpoints (SocialCheckpoints): an experiment trains once (em, vb: the sentence stage;
// discourse: the discourse stage) or twice (discourse+init: the sentence stage, then the
// discourse stage). After every iteration that does not end a stage the experiment hands out
// that stage's InductionCheckpoint (induction_checkpoint.h writes it); when discourse+init's
// sentence stage ends, its final state as well. Given back — the stage in progress and its last
// checkpoint, and for the discourse stage of discourse+init the sentence stage's final state —
// the experiment goes on where it stood and ends bitwise as the uninterrupted run.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/induction.h"
#include "gwb/grounded/grounded_metrics.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/social_grammar.h"
#include "gwb/grounded/topic_decoding.h"
#include "gwb/grounded/topic_posterior.h"

namespace gwb {

enum class SocialModel { Em, Vb, Discourse, DiscourseInit };
const char* socialModelName(SocialModel model);  // "em", "vb", "discourse", "discourse+init"
std::optional<SocialModel> parseSocialModel(std::string_view name);

// The training runs of an experiment (see above).
enum class SocialTrainingStage { Sentence, Discourse };
const char* socialTrainingStageName(SocialTrainingStage stage);  // "sentence", "discourse"
std::optional<SocialTrainingStage> parseSocialTrainingStage(std::string_view name);

struct SocialCheckpoints {
  // After every iteration that does not end a stage, with what a resumed run needs.
  std::function<void(SocialTrainingStage, const InductionCheckpoint&)> onCheckpoint;
  // discourse+init: the sentence stage's final state (θ, records), once that stage has ended.
  std::function<void(const InductionCheckpoint&)> onSentenceStageDone;
  // Where an interrupted experiment goes on: null starts afresh. `resume` is the last checkpoint
  // of stage `resumeStage`; for discourse+init's discourse stage, `sentenceStageDone` (required
  // then) is the sentence stage's final state, so that stage is not run again.
  SocialTrainingStage resumeStage = SocialTrainingStage::Sentence;
  const InductionCheckpoint* resume = nullptr;
  const InductionCheckpoint* sentenceStageDone = nullptr;
};

struct SocialExperimentOptions {
  SocialModel model = SocialModel::Vb;
  std::vector<std::string> cues;  // kept cues, in the corpus's order (CueSelection::select)
  double alpha = 0.001;           // Word.t → w prior
  double nullWordAlpha = 1.0;
  double transitionAlpha = 1.0;
  std::optional<double> selfTransitionAlpha;  // nullopt: transitionAlpha
  int iterations = 0;                         // at most this many (0: until converged)
  double tolerance = 1e-7;  // relative change of the objective that counts as converged
  std::uint64_t seed = 1;
  double noise = 0.1;
  int threads = 1;
  std::size_t chunkTokens = InductionOptions{}.chunkTokens;  // the E-step's unit (induction.h)
  // Train as Earleyx does (InductionOptions::earleyx: MALLET's special functions, unobserved
  // rules kept, its free energy), the implementation the paper used.
  bool earleyx = false;
  // How topics are read off the learned grammar (topic_posterior.h).
  TopicDecodingMode decoding = TopicDecodingMode::Viterbi;
  // Label an utterance None unless one of its words carries its topic (labelTopicFromWords),
  // as the gold annotation does and the paper's scores imply.
  bool topicFromWords = false;
  InductionObserver* observer = nullptr;  // progress of every training run
  // Set it to stop training at the next sentence; the experiment then ends with an error
  // ("cancelled") and no scores.
  const std::atomic<bool>* cancel = nullptr;
  // The ranks every training run's E-step is spread over (distribution.h); null: this process.
  // Every rank runs the experiment with the same options and gets the same result, bitwise.
  Distribution* distribution = nullptr;
  SocialCheckpoints checkpoints;
};

struct SocialExperimentResult {
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
  GroundedScores scores;
  std::vector<DecodedUtterance> decoded;
  Grammar grammar;                           // the learned grammar
  std::vector<IterationRecord> records;      // the final training run
  std::vector<IterationRecord> initRecords;  // discourse+init: the sentence-level run
  std::string stopMessage;
  double negLogLikelihood = 0.0;  // of the last E-step
  double freeEnergy = 0.0;        // VB: of the last iteration; EM: NaN
  std::size_t decodingFailures = 0;
  double seconds = 0.0;
};

// Runs one experiment. `recordings` is used by the discourse models (wholeCorpusRecording when
// the corpus has no table); `gold` must be aligned with `corpus` (alignGoldWithCorpus).
SocialExperimentResult runSocialExperiment(const SocialCorpus& corpus, const GoldAnnotation& gold,
                                           const Lexicon& goldDictionary,
                                           const std::vector<Recording>& recordings,
                                           const SocialExperimentOptions& options);

// discourse+init's starting point, on its own (for tests and the workbench): the discourse
// grammar `discourse` with probabilities from the sentence-level grammar `sentence` (see above).
void initializeDiscourseFromSentence(Grammar& discourse, const Grammar& sentence,
                                     double endProbability);

}  // namespace gwb
