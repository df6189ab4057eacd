// Brute-force oracle for PCFG parsing: prefix, string and Viterbi probabilities and expected rule
// counts, computed by enumerating leftmost derivations of a tiny grammar. It exists to test
// the Earley parser (and later inside-outside) against, so it shares no code or idea with them:
// there are no items, no chart, no spans, no predict/scan/complete, no unit-closure or
// left-corner matrices, no inside or outside tables.
//
// WHAT IT MODELS
//   A derivation is a leftmost derivation from the start symbol S: at each step the leftmost
//   pending nonterminal X is rewritten by a rule X -> α, multiplying the derivation probability
//   by p(X -> α). For the sentence w = w1..wn the oracle reports, for every i = 0..n,
//     prefixProbability[i] = Σ P(d) over complete derivations d whose yield starts with w1..wi
//                            = Σ_v P(S =>* w1..wi v), the prefix probability of Jelinek &
//                            Lafferty and Stolcke; [0] is the total mass Z(S): 1 for a
//                            consistent grammar, less for an inconsistent one;
//     stringProbability[i] = Σ P(d) over complete derivations whose yield is exactly w1..wi;
//   and, for the whole sentence (i = n), the best derivation (Viterbi), its probability and tree,
//   and the expected number of uses of every rule, E[c(r) | w] = Σ_d P(d)·c(r,d) / P(w).
//   Rules may be ε-rules, mix terminals and nonterminals, form unit cycles (A -> B, B -> A) and be
//   left recursive (A -> A a); probabilities are used as given (no renormalisation).
//
// METHOD
//   A search state is a partial leftmost derivation: the number k of terminals emitted so far
//   (always equal to w1..wk — a state that emits a terminal differing from w(k+1) is dropped), the
//   stack of pending symbols (leftmost on top), its probability p, and — for the Viterbi tree —
//   its rule sequence (kept as a linked list of rule ids shared between states). Terminals on top
//   of the stack are emitted at once. States wait in a priority queue ordered by their MASS
//   m = p · Π_{Y on stack} Z(Y), where Z(Y) = P(Y derives some finite string) is the termination
//   probability (Z(terminal) = 1). m is exactly the total probability of all complete
//   derivations that extend the state. The state of largest mass is popped and its top
//   nonterminal rewritten by each of its rules.
//   Z is the least fixed point of Z(X) = Σ_{X -> α} p · Π_{Y in α} Z(Y), computed once per
//   grammar by monotone iteration from 0 (so inconsistent grammars get Z < 1): Kleene sweeps,
//   finished by Newton's method when they are slow (near-critical grammars). For an exactly
//   critical grammar such as S -> S S 0.5 | a 0.5 no method in extended precision gets Z
//   closer than ~1e-10, and terminationConverged is false.
//   Crediting, which is what makes the counts disjoint and complete:
//     - prefixProbability[j] receives p · ΠZ(stack) at the moment a derivation emits its j-th
//       terminal (and [0] receives Z(S) at the start). Every complete derivation whose yield
//       starts with w1..wj passes through exactly one such moment, and the derivations sharing
//       that moment's state are exactly its extensions, of total mass p · ΠZ(stack).
//       prefixDerivationMass[j] receives just p (when ΠZ(stack) > 0): the total probability of
//       the partial leftmost derivations S =>*L w1..wj ν stopped when wj appears, ν able to
//       terminate — what Earley forward probabilities (Stolcke) sum once non-terminating
//       nonterminals are removed. It equals prefixProbability for a consistent grammar (Z ≡ 1
//       on every symbol that can terminate) and is larger for an inconsistent one.
//     - A state that would emit a terminal beyond wn is dropped: it was credited to every prefix
//       length ≤ n already and can never yield a string of length ≤ n.
//     - A state whose stack empties is a complete derivation: its p goes to stringProbability[k],
//       and, if k = n, to the Viterbi candidates and the expected-count numerators.
//     - A state with k = n is also dropped as soon as its stack cannot derive ε (minimum yield
//       length > 0, a per-grammar integer fixed point), and any state of mass 0 is dropped
//       (a pending symbol that cannot terminate).
//   With left recursion, unit or ε cycles a state can be rewritten forever without emitting,
//   but each trip round such a loop multiplies p by less than one (a loop of probability-1
//   rules cannot terminate: its symbols have Z = 0 and are dropped), so best-first by mass
//   drains every loop geometrically. The search stops when the mass left in the queue is below
//   `massTolerance` (checked exactly, not from the running total), or unconverged after
//   `maxExpansions` pops or when more than `maxQueuedStates` states wait.
//
//   OracleOptions::mergeEquivalentStates (default on) merges states with the same (k, stack)
//   while they wait in the queue: they have identical futures, so summing their probabilities
//   (and their Σ p·counts vectors, and keeping the best-scoring members for Viterbi) is exact.
//   It only bounds how many states exist; it is not a chart (a popped state is never revisited
//   or combined with anything). Switched off, every partial derivation is its own state — the
//   literal enumeration, exponentially slower on highly ambiguous grammars; tests run both
//   modes and compare.
//
// ERROR BOUND (invariant: every complete derivation is at all times finished, dropped after
//   being credited, dropped as useless, or an extension of exactly one queued state)
//   - prefixProbability and stringProbability are lower bounds: each true value lies in
//     [reported, reported + unexploredMass], where unexploredMass = Σ mass of the queued states
//     at the end (plus floating-point rounding, ~1e-16 relative: sums are compensated in
//     extended precision). So is prefixDerivationMass for a consistent grammar; for an
//     inconsistent one it has no bound (the search is steered by Z-weighted mass, so deep
//     partial derivations of small Z-weight but large p may be left unexplored).
//     prefixProbability also inherits the accuracy of Z: ~1e-18 when terminationConverged,
//     ~1e-10 for a critical grammar (use prefixDerivationMass there if the grammar is known
//     to be consistent).
//   - viterbiProbability/viterbiTree are exact when `viterbiExact` is true: every queued state
//     has mass below best · (1 - viterbiTieTolerance), and a state's mass bounds the
//     probability of each of its completions, so nothing unexplored can win or tie.
//   - expectedRuleCounts: the numerators miss at most Σ over queued states of mass times the
//     rule uses of their completions; with geometric tails that is of the order of
//     unexploredMass · (typical derivation size) / P(w). Not a rigorous bound.
//   Tests should assert converged (or unexploredMass < 1e-13) before comparing values.
//
// TIES AND TREES
//   Derivations whose probability is within a relative `viterbiTieTolerance` of the maximum
//   are tied; among them the one whose leftmost rule-id sequence is lexicographically smallest
//   wins (at the first step where two derivations differ, the rule added to the grammar
//   earlier wins). The first maxTiedTrees tied trees are reported, in that order (a merged
//   state keeps only its first maxTiedTrees tied members, which loses none of those). Trees
//   print as PTB brackets, terminals bare: (S (NP (Det the) (N dog)) (VP (V barks))); a
//   nonterminal rewritten by an ε-rule prints as (X). Names are printed as they are (no
//   escaping of spaces or brackets).
//
// LIMITS
//   Meant for grammars of about ten rules and sentences of up to six to eight words; the
//   enumeration is exponential in general. Merged (-O2, one core): the PP-attachment grammar on
//   a 10-word sentence takes < 1 ms and the Earley test grammars (ε-rules, unit cycles, left
//   recursion) < 50 ms, never with more than a few hundred states waiting;
//   S -> S S 0.3 | a 0.7 on a^6 ~20 ms; A -> A A 0.2 | ε 0.5 | a 0.3 on a^6 ~0.2 s. Unmerged,
//   every grammar with ε-rules under recursion exhausts the limits (its ε-subderivations are
//   enumerated one by one). Grammars whose nullable symbols recurse heavily (stacks of nullable
//   symbols that keep growing, e.g. S -> A S | S 'b' | ε, A -> S | 'b' | ε) defeat merging too:
//   they stop at maxQueuedStates, unconverged, after about 5 s. Grammars whose derivation mass
//   diverges (rule probabilities summing far above one) make bruteForceParse throw
//   std::invalid_argument. Deep structures (trees, chains of rules) are walked iteratively.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/earley/grammar.h"

namespace gwb::testing {

struct OracleOptions {
  // Stop when the total mass of the queued states falls below this.
  double massTolerance = 1e-15;
  // Stop (unconverged) after this many state expansions (pops).
  long long maxExpansions = 5'000'000;
  // Stop (unconverged) when more states than this wait at once (bounds memory: ~0.5 KB each).
  long long maxQueuedStates = 200'000;
  // Merge waiting states with the same (position, stack); exact, much faster. See the header.
  bool mergeEquivalentStates = true;
  // Relative tolerance below which two derivation probabilities count as tied.
  double viterbiTieTolerance = 1e-12;
  // At most this many tied best trees are kept and reported (the first in tie-break order).
  int maxTiedTrees = 16;
};

struct OracleResult {
  std::vector<double> prefixProbability;     // [i] = P(S =>* w1..wi ...), i = 0..n
  std::vector<double> prefixDerivationMass;  // [i] = Σ P(S =>*L w1..wi ν), partial derivations
  std::vector<double> stringProbability;     // [i] = P(S =>* w1..wi),     i = 0..n
  // The best derivation of the whole sentence; 0, "" and empty when there is none.
  double viterbiProbability = 0.0;
  std::string viterbiTree;
  std::vector<RuleId> viterbiRules;           // its leftmost derivation, rule by rule
  std::vector<std::string> viterbiTiedTrees;  // the tied best trees, winner first (≤ maxTiedTrees)
  bool viterbiExact = false;                  // see ERROR BOUND
  // E[c(r) | w] indexed by RuleId (all 0 when P(w) = 0).
  std::vector<double> expectedRuleCounts;
  // Z(X) by SymbolId: the probability that X derives some finite string (terminals: 1).
  std::vector<double> terminationProbability;
  bool terminationConverged = false;
  double unexploredMass = 0.0;     // mass still queued when the search stopped
  long long expansions = 0;        // states popped and rewritten
  long long peakQueuedStates = 0;  // most states waiting at once
  // unexploredMass < massTolerance and terminationConverged.
  bool converged = false;
};

// The sentence as terminal ids (an id that is not a terminal of the grammar matches nothing).
// Throws std::invalid_argument when the grammar has no start symbol, a rule probability is
// negative or not finite, or the derivation mass diverges.
OracleResult bruteForceParse(const Grammar& grammar, const std::vector<SymbolId>& sentence,
                             const OracleOptions& options = {});
// The sentence as words, looked up as terminals (an unknown word matches nothing).
OracleResult bruteForceParse(const Grammar& grammar, const std::vector<std::string>& words,
                             const OracleOptions& options = {});

// Every parse tree of `words` whose probability is at least `minProbability`, most probable
// first (equal probabilities: by tree text), as PTB brackets (see TIES AND TREES). A plain
// depth-first walk over leftmost derivations that abandons a partial derivation as soon as its
// probability falls below `minProbability`, a terminal disagrees with the next word, or its
// pending symbols need more words than are left (their least yield lengths). Exhaustive above
// the threshold (every rule probability below one on every cycle makes the walk finite).
// Throws std::invalid_argument after `maxSteps` partial derivations.
struct OracleTree {
  std::string tree;
  double probability = 0.0;
};
std::vector<OracleTree> allTreesAbove(const Grammar& grammar, const std::vector<std::string>& words,
                                      double minProbability, long long maxSteps = 5'000'000);

// Splits on whitespace: "the dog barks" -> {"the", "dog", "barks"}.
std::vector<std::string> splitWords(std::string_view sentence);

// A grammar from compact text, one LHS per line, alternatives separated by '|', each ending
// in its probability; terminals quoted ('the' or "the", backslash escapes the quote), other
// tokens are nonterminals; an empty RHS or a lone ε is an ε-rule; '#' starts a comment. The
// first LHS is the start symbol. Example:
//   S  -> NP VP 1.0
//   NP -> 'the' N 0.7 | NP PP 0.2 | 0.1     # the last alternative is NP -> ε
// Throws std::invalid_argument("line N: ...") on malformed text or a repeated rule.
Grammar grammarFromText(std::string_view text);

// The PTB bracket string of a leftmost derivation from the grammar's start symbol (see TIES AND
// TREES). Throws std::invalid_argument when the rules do not form a complete leftmost derivation.
std::string treeFromDerivation(const Grammar& grammar, const std::vector<RuleId>& leftmostRules);

}  // namespace gwb::testing
