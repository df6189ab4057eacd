// The grounded-learning scores of Johnson, Demuth & Frank (2012) as Luong, Frank & Johnson
// (2013, section 7) report them, and the χ² test their Tables 4-5 mark.
//
// Given the gold annotation and a model's decoded utterances (aligned one to one):
//
//   topic accuracy  the share of utterances whose predicted topic is one of the gold topics, or
//                   is None when the gold has none;
//   topic P/R/F1    non-None topics only: correct = utterances whose predicted (non-None) topic
//                   is one of the gold topics; precision over the utterances predicted topical,
//                   recall over the gold topic LABELS (an utterance with two gold topics counts
//                   twice: 2,550 labels on 2,378 topical utterances, the denominator the paper's
//                   recalls imply);
//   word P/R/F1     tokens: correct = a token whose predicted topic equals its (non-None) gold
//                   topic; precision over tokens predicted topical, recall over gold topical
//                   tokens (1,239);
//   lexicon P/R/F1  each word type's most frequently assigned topic (ties: None first, then by
//                   name) gives the entry (word, topic) unless it is None; compared as sets with
//                   a gold dictionary — derived from the gold annotation (every marked word.topic
//                   pair: 45 in the real corpus; the paper's recalls imply 42) or read from a
//                   file of `word topic` lines (fm-corpus/gold-lexicon.txt).
//
// All figures are percentages, as in the paper's tables. Per-item correctness (utterances;
// tokens, None included) feeds the χ² test between two models: Pearson's χ² on the 2×2 table
// model × {correct, wrong}, with Yates' continuity correction as R's chisq.test applies it by
// default, one degree of freedom, p from Boost.Math's chi-squared distribution.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_decoding.h"

namespace gwb {

struct PrecisionRecall {
  std::size_t correct = 0;
  std::size_t predicted = 0;
  std::size_t gold = 0;
  double precision() const;  // percent; 0 when nothing was predicted
  double recall() const;     // percent; 0 when the gold is empty
  double f1() const;         // percent; 0 when precision + recall is 0
};

using Lexicon = std::set<std::pair<std::string, std::string>>;  // (word, topic)

// Every (word, topic) the gold annotation marks.
Lexicon goldLexicon(const GoldAnnotation& gold);

struct LexiconLoad {
  Lexicon lexicon;
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};
// `word topic` a line (topics with or without a leading dot); blank lines and '#' comments
// are skipped.
LexiconLoad readLexicon(std::string_view text, const std::string& sourceName);
LexiconLoad loadLexiconFile(const std::string& path);

// Each word type's most frequent assigned topic, None entries left out.
Lexicon predictedLexicon(const std::vector<DecodedUtterance>& predicted);

struct GroundedScores {
  std::size_t utterances = 0;
  std::size_t correctUtterances = 0;
  PrecisionRecall topic;
  PrecisionRecall word;
  PrecisionRecall lexicon;
  std::vector<bool> utteranceCorrect;  // per utterance (accuracy's sense)
  std::vector<bool> wordCorrect;       // per token: predicted topic == gold topic (None too)
  std::size_t nullGold = 0;            // utterances whose gold topic is None
  double accuracy() const;             // percent of utterances
  // Accuracy over gold labels, the paper's (Johnson et al.'s) figure: every gold topic label is
  // an item (a two-topic utterance counts twice) and so is every None utterance; the items right
  // are the topical utterances labelled with one of their topics plus the None utterances
  // labelled None — (topic.correct + correct None) / (topic.gold + nullGold). With the topics
  // of topicFromWords it gives the paper's accuracies (docs/grounded-learning.md).
  double labelAccuracy() const;  // percent
};

// Scores `predicted` against `gold`, utterance by utterance. An utterance whose prediction is
// missing or holds other words counts as wrong everywhere; *mismatches (when given) says how
// many there were.
GroundedScores scoreGrounded(const GoldAnnotation& gold,
                             const std::vector<DecodedUtterance>& predicted,
                             const Lexicon& goldDictionary, std::size_t* mismatches = nullptr);

struct ChiSquareTest {
  double statistic = 0.0;
  int degreesOfFreedom = 1;
  double pValue = 1.0;
  bool significant(double level = 0.05) const { return pValue < level; }
};

// 2×2 test on {A, B} × {correct, wrong}. A table with an empty row or column gives statistic 0,
// p 1 (R reports NaN there).
ChiSquareTest chiSquareCorrectness(std::size_t correctA, std::size_t totalA, std::size_t correctB,
                                   std::size_t totalB, bool yates = true);
ChiSquareTest chiSquareCorrectness(const std::vector<bool>& a, const std::vector<bool>& b,
                                   bool yates = true);

}  // namespace gwb
