// Incremental EM over lexical hypotheses: Eshghi, Hough & Purver 2013, section 3.4 (eqs. 2–4),
// after Eshghi et al. 2013.
//
// Every training example yields a set of hypothesis tuples HT_j = <h_1 ... h_n>, one word
// hypothesis (a lexical action) per word. The learner keeps, for every word w, a distribution
// θ_w over w's hypotheses, and updates it once per example, in corpus order:
//
//   θ'_w    the prior for this example: θ_w^{N-1} on the hypotheses w already has; hypotheses of
//           w first seen in this example share a held-out mass α uniformly (the others keep
//           1 − α of theirs); a word seen for the first time is uniform over its hypotheses.
//   (2)     p(HT_j | S) = Π_i θ'_{w_i}(h_i^j)
//   (3)     θ''_w(h) = (1/Z_w) Σ_{j : h is w's hypothesis at some position of HT_j} p(HT_j | S),
//           Z_w making θ''_w sum to one.
//   (4)     θ_w^N(h) = (N_w − 1)/N_w · θ_w^{N−1}(h) + 1/N_w · θ''_w(h)
//
// N_w counts the examples (with at least one tuple) in which w occurs; with the corpus-wide N
// of the paper's notation, the distribution of a word absent from an example would shrink and
// stop summing to one, so we read N per word. Examples without tuples change nothing.
//
// Hypotheses are identified by (word, key), where the key is the action's text up to a
// relabelling of its variables (canonicalHypothesisKey), so that the same action learned from
// two sentences is one hypothesis. Ids are given in order of first appearance, so the result
// depends only on the examples and their order — never on how many threads produced them.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gwb::ds {

// The action text with its variables (x1, e2, p, r3, R1 — names as isVariableName says, other
// than head, reftime and the type names e and t) renamed in order of first occurrence, per
// leading letter: `x1`, `x7` → `x'1`, `x'2`. Two texts that differ only in those names get the
// same key.
std::string canonicalHypothesisKey(const std::string& actionText);

// One word's hypothesis as a generator proposes it.
struct WordHypothesis {
  std::string key;     // canonicalHypothesisKey(action)
  std::string action;  // the action body, as in a learned lexicon (DsAction::toString)
};

// All hypothesis tuples of one training example.
struct ExampleHypotheses {
  std::vector<std::string> words;
  std::vector<WordHypothesis> hypotheses;        // distinct within the example
  std::vector<std::vector<std::size_t>> tuples;  // each: one index into hypotheses per word
  bool budgetHit = false;                        // the generator stopped at its per-item budget
  std::string note;                              // why (or why there are no tuples), for the user
};

struct LearnedHypothesis {
  int id = -1;
  std::string word;
  std::string key;
  std::string action;
  double probability = 0.0;  // θ_word(this) after the last update
  std::vector<int> items;    // training items (0-based) whose tuples contained it
};

struct EmUpdate {
  std::size_t tuples = 0;
  std::size_t newHypotheses = 0;
  bool skipped = false;  // no tuples: nothing learned
};

class IncrementalEm {
 public:
  explicit IncrementalEm(double heldOutMass = 0.1) : heldOutMass_(heldOutMass) {}

  // One update (eqs. 2–4) with the example's tuples; `item` is recorded as provenance.
  EmUpdate observe(const ExampleHypotheses& example, int item);

  const std::vector<LearnedHypothesis>& hypotheses() const { return hypotheses_; }
  // The word's hypothesis ids, most probable first (ties: first seen first).
  std::vector<int> ranked(const std::string& word) const;
  std::vector<std::string> words() const;  // sorted
  int examplesWith(const std::string& word) const;
  std::size_t examplesObserved() const { return observed_; }
  double heldOutMass() const { return heldOutMass_; }

 private:
  double heldOutMass_;
  std::vector<LearnedHypothesis> hypotheses_;
  std::map<std::pair<std::string, std::string>, int> ids_;  // (word, key) -> id
  std::map<std::string, std::vector<int>> byWord_;
  std::map<std::string, int> examplesWith_;
  std::size_t observed_ = 0;
};

}  // namespace gwb::ds
