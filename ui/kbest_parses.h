// The n most probable parse trees of a short sentence, for the tree view.
//
// The parser keeps one back-pointer per item, which gives the Viterbi tree only. For small
// inputs the tree view also offers the runners-up, found here by a best-first (A*) search
// over leftmost derivations, which stand one-to-one for parse trees. A search state is the
// number of words matched so far, the stack of symbols still to expand (leftmost on top) and
// the rules used. Its priority is its probability times, for every pending symbol, the best
// probability with which that symbol derives anything at all (a max-product fixed point, so
// never an underestimate): complete derivations therefore come off the queue best first, and
// the first n that yield the sentence are the n best trees. States are dropped as soon as a
// terminal on top disagrees with the next word or the pending symbols need more words than
// are left (their least yield lengths, another fixed point). ε-rules, unit cycles and left
// recursion need no special care: every trip round a cycle multiplies by less than one.
// The search stops after `maxExpansions` states, so a big grammar costs a bounded time and
// may return fewer than n trees (`complete` is false then). Plain C++ over the core grammar.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gwb/grammar.h"
#include "gwb/parse_tree.h"

namespace gwb::ui {

struct RankedParse {
  gwb::ParseTree tree;
  double logProbability = 0.0;
};

struct KBestResult {
  std::vector<RankedParse> parses;  // best first
  bool complete = true;             // false: the search stopped at its limit
};

KBestResult kBestParses(const gwb::Grammar& grammar, const std::vector<std::string>& words,
                        std::size_t n, std::size_t maxExpansions = 200000);

}  // namespace gwb::ui
