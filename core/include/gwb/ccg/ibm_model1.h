// IBM Model 1 (Brown et al. 1993) between the words of sentences and the constants of their
// logical forms: the word–constant co-occurrence statistics that initialise FUBL's lexeme
// weights (Kwiatkowski et al. 2011, section 8, which ran Giza++; this is our own implementation).
//
// The "target" side of an example is the sequence of its logical form's constants and operator
// keywords (`and`, `argmax`, `exists`, ... — everything but `lambda`, as in the Giza++ table of the
// data, geo600.dev.giza_probs), in traversal order, repeats kept; the "source" side is the
// sentence's words plus a NULL word. EM estimates t(constant | word), starting from uniform, for a
// fixed number of iterations. Word and constant ids are given in order of first appearance, and
// the sums run in example order, so that the table is the same on every run.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "gwb/ccg/term.h"

namespace gwb::ccg {

inline constexpr const char* kNullWord = "null";

// The target tokens of a logical form (see above).
std::vector<std::string> logicalFormTokens(const Term& term);

struct AlignmentPair {
  std::vector<std::string> words;
  std::vector<std::string> constants;
};

class WordConstantModel {
 public:
  // Trains Model 1 on `pairs` for `iterations` EM steps.
  void train(const std::vector<AlignmentPair>& pairs, int iterations = 10);

  // t(constant | word); 0 for an unseen pair. `word` may be kNullWord.
  double probability(const std::string& constant, const std::string& word) const;
  // Σ_w Σ_c t(c | w) / (|words| · (|constants| + 1)), 0 without constants: UBL's co-occurrence
  // score of a new entry (LexiconFeatSet.initialWeight, Train.CoocInit). The + 1 makes it the
  // mean of t over the (word, constant) pairs times |c| / (|c| + 1): a one-constant lexeme gets
  // half its mean, a four-constant one 4/5, so a derivation from many small items gains less
  // than with the plain mean. (UBL scores constant-free entries against the constant "null",
  // which the Geo880 Giza++ table never gives: 0, as here.)
  double lexemeScore(const std::vector<std::string>& words,
                     const std::vector<std::string>& constants) const;

  // "constant  ::  word  ::  probability" lines (the Giza++ table's layout) for every pair above
  // `threshold`, sorted by constant then word.
  std::string toTable(double threshold = 1e-6) const;

  const std::vector<std::string>& words() const { return words_; }
  const std::vector<std::string>& constants() const { return constants_; }

 private:
  std::vector<std::string> words_;
  std::vector<std::string> constants_;
  std::unordered_map<std::string, int> wordIds_;
  std::unordered_map<std::string, int> constantIds_;
  std::vector<std::vector<double>> table_;  // [word][constant]
};

}  // namespace gwb::ccg
