// What a probabilistic Earley parse (earley_parser.h) is asked to do, and what it gives back:
// prefix, string and Viterbi probabilities, per-word surprisal and the Viterbi tree, all as true
// log probabilities whatever the numeric mode the chart kept them in.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "gwb/earley/earley_chart.h"
#include "gwb/earley/parse_tree.h"

namespace gwb {

// How the string probability of every prefix is found (ParseOptions::prefixStringProbabilities).
// Both give the same numbers (to rounding); they differ in the work done.
enum class StringProbabilityMethod {
  // From the right spines of the parse: each state set k gets, for each nonterminal Y, the mass
  // E_k(Y) of every way a Y that starts at k can be the last constituent of a whole sentence
  // (the waiting items above it, their inner probabilities multiplied up the spine). Then
  // P(w_0..w_{r-1}) = Σ inner(f)·E_l(Y) over the items [l, r] Y → α w . that scan word r−1.
  // No chart item is added, so a discourse's right-recursive spine costs nothing per word.
  EndWeights,
  // Textbook: at every word, complete everything that the end of input could follow, as if
  // the input ended there, and read the goal item. On a right-recursive discourse this
  // completes the whole spine at every word (quadratic); kept to check EndWeights against.
  CompleteEveryWord,
};

struct ParseOptions {
  NumericMode mode = NumericMode::Scaled;
  bool lookahead = true;                   // FIRST/FOLLOW pruning (see above)
  bool prefixStringProbabilities = false;  // string probability of every prefix
  StringProbabilityMethod stringProbabilityMethod = StringProbabilityMethod::EndWeights;
  bool viterbi = true;  // build the Viterbi tree
  ParseObserver* observer = nullptr;
};

struct ParseResult {
  bool success = false;    // the whole input is a sentence of the grammar
  bool cancelled = false;  // the observer asked to stop; the chart holds sets 0..stop only
  // Index of the first word that cannot continue the prefix (prefix probability 0), or -1.
  int failedAt = -1;
  std::vector<double> logPrefixProbability;  // [0..n]; [0] = 0; −inf after a failure
  std::vector<double> surprisal;             // [0..n-1], nats: −log P(w_i | w_0..w_{i-1})
  // [0..n]: log P(w_0..w_{i-1} is a whole sentence); only the last entry unless asked for all.
  std::vector<double> logStringProbability;
  double logProbability = -std::numeric_limits<double>::infinity();  // of the whole input
  double viterbiLogProbability = -std::numeric_limits<double>::infinity();
  ParseTree viterbiTree;  // empty without a parse
  std::size_t items = 0;  // chart items created
};

}  // namespace gwb
