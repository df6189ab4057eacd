// Expected rule counts from the Earley chart: Stolcke's outer probabilities (the paper's
// Figure 3 and eq. 1), E[c(r) | w] = Σ_{items of r} outer · inner / P(w).
//
// After the forward pass, outer probabilities flow backwards from the goal item (outer 1):
// a completion [k, r] X → α Z . β  ⇐  [k, j] X → α . Z β  +  Y over [j, r]  passes
//   outer(waiting) += outer(advanced) · R_U(Z, Y) · inner(Y),
//   outer(Y)       += outer(advanced) · R_U(Z, Y) · inner(waiting),
// and a scan passes outer unchanged to the item before the word. Predicted items [r, r] Y → . λ
// then hand their outer mass to the rule: each use of a rule X → λ is one predicted item, so
// E[c(X → λ)] = Σ_r outer([r, r] X → . λ) · P(X → λ) / P(w) for non-lexical rules, and for a
// lexical rule X → w the scanned item [r, r+1] X → w . plays that part. Unit rules, folded into
// R_U, are counted through the closure: E[c(Z → Y)] = Σ over completions of outer · (R_U(Z', Z)
// P(Z → Y) R_U(Y, Y')) · inner. Compiled rules made by ε-removal pass their counts back to the
// source rule, and dropped nullable symbols add the expected counts of their ε-derivations.
//
// In the rescaled mode the scale factors of outer and inner cancel against those of P(w), as
// the paper's section 5 shows; counts are the same in both modes (tested).
#pragma once

#include <string>
#include <vector>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"

namespace gwb {

struct ExpectedCounts {
  bool parsed = false;          // false: P(w) = 0; counts were left untouched
  double logProbability = 0.0;  // log P(w) under the grammar the chart was built with
};

// Parses `words` and adds E[c(r) | w] for every grammar rule r (indexed by the Grammar's RuleId)
// to `counts`, which must have grammar().ruleCount() entries. The chart is the thread's, kept
// for its next sentence unless it grew past 64 MiB (then freed on return).
ExpectedCounts accumulateExpectedCounts(const CompiledGrammar& grammar,
                                        const std::vector<std::string>& words, NumericMode mode,
                                        std::vector<double>& counts);

}  // namespace gwb
