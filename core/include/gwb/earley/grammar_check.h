// Static checks on a grammar: the warnings a grammar writer wants before parsing.
//
// - a missing or rule-less start symbol (error);
// - per-LHS probability sums far from one (warning; VB output grammars trip it by design);
// - nonterminals used on a right-hand side that have no rules (warning);
// - nonterminals unreachable from the start symbol (warning);
// - non-generating nonterminals, which derive no terminal string (warning).
// Each diagnostic points at the line of the first rule concerned.
#pragma once

#include <string>

#include "gwb/common/diagnostic.h"
#include "gwb/earley/grammar.h"

namespace gwb {

struct GrammarCheckOptions {
  double sumTolerance = 1e-3;  // |sum - 1| above this gives a warning
  int maxPerKind = 20;         // at most this many warnings of one kind, then a summary line
};

Diagnostics checkGrammar(const Grammar& grammar, const std::string& sourceName,
                         const GrammarCheckOptions& options = {});

// Just the probability-sum warnings of checkGrammar (a parser's probabilities are only
// probabilities when these are empty): at most options.maxPerKind, then a line counting the
// rest.
Diagnostics checkProbabilitySums(const Grammar& grammar, const std::string& sourceName,
                                 const GrammarCheckOptions& options = {});

}  // namespace gwb
