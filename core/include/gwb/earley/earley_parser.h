// Stolcke's (1995) probabilistic Earley parser, as extended by Luong, Frank & Johnson (2013).
//
// Items [l, r] X → α . β live in state set r. Each carries a forward probability (the mass of
// all Earley paths from the start through this item, covering words 0..r-1), an inner
// probability (the mass of the paths from [l, l] X → . αβ to it, covering words l..r-1), and a
// Viterbi inner score (the best single such path) with a back-pointer.
//
//   predict   at r, for every nonterminal Z after a dot: Y with R_L(Z, Y) > 0 gets
//             [r, r] Y → . λ, forward = Σ forward(waiting on Z)·R_L(Z, Y)·P(Y → λ), inner = P.
//             Predicted items predict nothing more (the closure R_L did it). Lexical rules are
//             never predicted: the scanner uses the prediction mass of their preterminal.
//   scan      [l, r] X → α . w β and word w at r give [l, r+1] X → α w . β; a lexical rule
//             X → w gives [r, r+1] X → w . with forward = mass(X)·P, inner = P.
//   complete  a finished [j, r] Y → ν . (not a unit rule: those are folded into R_U) advances
//             every [k, j] X → α . Z β with R_U(Z, Y) > 0 to [k, r] X → α Z . β:
//             forward += forward·R_U(Z, Y)·inner(Y), inner += inner·R_U(Z, Y)·inner(Y);
//             Viterbi takes the max over (item, child) of viterbi·R̂_U(Z, Y)·viterbi(Y), with
//             R̂_U the best unit chain (restored in the tree). Viterbi scores are always kept
//             as log probabilities: rescaling by the summed mass would underflow them.
// Completed items are processed by decreasing origin, which in an ε-free grammar is a
// topological order: every contribution to an item is summed before the item is used.
//
// Prefix probability P(w_0..w_{r-1} ...) is the sum of forward probabilities of the items
// scanned into set r; surprisal is −log of its ratio to the previous one.
//
// Numeric modes (same answers to ~1e-12 relative): Log keeps log probabilities and adds with
// log-sum-exp; Scaled keeps plain doubles and, as in the paper's section 5, divides every item
// scanned into set r by the prefix ratio S_r = P(w_0..w_{r-1})/P(w_0..w_{r-2}), so that forward
// masses restart at 1 at every word. The logarithms of the S_r are summed (never their
// product, which overflows after ~250 words), and give exact log probabilities back.
//
// Look-ahead (on by default) predicts only rules that can start with the next word (FIRST) and
// completes only symbols the next word, or the end of input, can follow (FOLLOW). This is what
// makes the discourse grammar's right recursion linear: Discourse_t' completes only at the end
// of input. It never changes prefix probabilities, the string's probability or its Viterbi
// parse; it drops only items that cannot lead to them. The string probability of every prefix
// (`prefixStringProbabilities`) comes from end weights kept per state set (the mass of the
// right spines above each nonterminal there; see StringProbabilityMethod in parse_result.h),
// not from completing at every word, so it adds no chart item and stays linear on discourses.
//
// Where the pieces live: the chart, its items and the observer of its operations in
// earley_chart.h; the forward pass in core/src/earley/earley_run.h; the outside pass in
// inside_outside.{h,cpp}; the Viterbi tree in viterbi_tree.cpp; splitting lines into words in
// tokenize.h; many sentences on several threads in batch_parse.h.
#pragma once

#include <string>
#include <vector>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_chart.h"
#include "gwb/earley/parse_result.h"

namespace gwb {

class EarleyParser {
 public:
  // The compiled grammar must outlive the parser.
  explicit EarleyParser(const CompiledGrammar& grammar) : grammar_(grammar) {}

  ParseResult parse(const std::vector<std::string>& words, const ParseOptions& options = {});
  // As parse(), also handing back the chart (for the workbench and for inside-outside).
  ParseResult parse(const std::vector<std::string>& words, const ParseOptions& options,
                    EarleyChart& chart);
  // As parse(), then the outside pass: adds E[c(r) | words] for every grammar rule (by RuleId)
  // to `counts` when the words parse (see inside_outside.h). It parses into a chart the thread
  // keeps from call to call (up to 64 MiB of it), so an E-step maps chart memory once.
  ParseResult parseWithCounts(const std::vector<std::string>& words, const ParseOptions& options,
                              std::vector<double>& counts);
  // Makes state set `set` of a parse again, from the sets before it in `chart`, and hands its
  // operations (the scans into it, its completions and its predictions) to options.observer in
  // the order and with the values the parse made them. `chart` must hold that parse of `words`
  // (this grammar, the same mode and look-ahead) through set `set`; it is left unchanged, and
  // nothing is copied but the set being made. This is how the workbench steps through a parse
  // without storing every operation of it (see parse_trace.h).
  void replaySet(const std::vector<std::string>& words, const ParseOptions& options,
                 const EarleyChart& chart, std::size_t set);

 private:
  const CompiledGrammar& grammar_;
};

}  // namespace gwb
