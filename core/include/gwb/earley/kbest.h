// The k most probable parse trees of a sentence, read lazily off the Earley chart (Huang &
// Chiang 2005, "Better k-best parsing", Algorithm 3).
//
// The chart is a packed forest. Its hypergraph has four kinds of node:
//   item      a chart item [i, j] X → α . β (compiled rule, dot, origin, set); an item with the
//             dot after symbol Y is reached from [i, k] X → α' . Y β and either a constituent
//             Y over [k, j] or the word j − 1 (every split k the chart holds);
//   rule      the dot-0 end of a compiled rule: its source rule's probability and, for each
//             position the compiled rule dropped, an ε-derivation of that symbol;
//   constituent Y over [k, j] (k < j): a finished non-unit item of the chart with LHS Y, or a
//             unit rule Y → Z (ε-siblings dropped) over a constituent Z of the same span;
//   null      an ε-derivation of a nullable symbol E: a rule E → F1 .. Fm whose symbols are all
//             nullable, over their ε-derivations.
// A derivation of the goal item is exactly one tree of the source grammar (ε-removal maps
// each tree to one compiled derivation plus the ε-subtrees of its dropped positions), and its
// probability is the product of the source rules' probabilities. So distinct derivations are
// distinct trees, and the k best derivations are the k best trees.
//
// Each node keeps the derivations found so far, best first, and a heap of candidates: an
// incoming edge with a rank for each tail node. Candidates start at rank 0 everywhere, scored
// with the best (Viterbi) score of each tail, which the chart already holds (items), the
// compiled grammar's closures give (constituents: best item times best unit chain) or the
// max-product ε-probabilities give (null, rule) — so starting needs no recursion, and unit
// cycles and ε-cycles (the hypergraph's only cycles) cost nothing special. The next
// derivation of a node pushes the successors of the previous one (one tail's rank + 1) and
// pops the best; asking for rank m of a node asks only for ranks the node's previous
// derivations used plus one. Because every trip round a cycle multiplies by a probability
// below one, a derivation that goes round a cycle back to the same node uses a strictly better
// derivation of that node, which is already known: the recursion (kept on an explicit stack,
// so trees thousands of levels deep are fine) never waits on itself. Only nodes reachable from
// the goal through the derivations asked for are ever built.
//
// Probabilities are log probabilities. Derivations of equal probability come in a fixed but
// unspecified order; a tree equal in probability to the Viterbi tree may come first.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "gwb/earley/earley_parser.h"
#include "gwb/earley/parse_tree.h"

namespace gwb {

struct RankedParse {
  ParseTree tree;
  double logProbability = 0.0;
};

// Lazy k-best trees of one parsed sentence. The chart (and its grammar) must outlive this and
// must hold a successful parse of all its words. Not thread-safe.
class KBestParses {
 public:
  explicit KBestParses(const EarleyChart& chart);
  ~KBestParses();
  KBestParses(const KBestParses&) = delete;
  KBestParses& operator=(const KBestParses&) = delete;
  KBestParses(KBestParses&&) noexcept;
  KBestParses& operator=(KBestParses&&) noexcept;

  // The tree of rank `rank` (0 = best), or nullopt when the sentence has no more trees
  // (or the chart holds no parse).
  std::optional<RankedParse> parse(std::size_t rank);

 private:
  class Forest;
  std::unique_ptr<Forest> forest_;
};

// The (at most) k best trees, best first; fewer when the sentence has fewer trees.
std::vector<RankedParse> kBestParses(const EarleyChart& chart, std::size_t k);

}  // namespace gwb
