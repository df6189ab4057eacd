// Hypothesis construction for DS lexicon induction (Eshghi, Hough & Purver 2013, section 3.3),
// in a restricted form: from the axiom, a depth-first search over monotonic tree extensions by
//   - the seed grammar's optional computational actions (introduction, completion,
//     anticipation, star-adjunction, merge, ...), each followed by the non-optional closure —
//     computational steps, applied by the parser, never part of a word's action;
//   - the seed grammar's tree-building hypotheses (`hyp-*` actions) — lexical steps;
//   - content decorations of the pointed node — lexical steps: for a requirement ?ty(e), a
//     record type made of one e-field of the target (with the restrictor its value uses) and a
//     head pointing at it; for ?ty(e>t), `R^(R ++ [...])` made of one es-field of the target
//     and the t-fields about it, with one e-field of the target abstracted as R.head (with the
//     event's one-place features, or without them); for ?ty(t) (a LINKed tree, built by
//     `hyp-adj-t-*`), one one-place feature of an event, `[head : es|p==f(head) : t]`; for
//     ?ty(cn>e) a determiner `R1^[r : R1|x==det(r.head, r) : e|head==x : e]`, for ?ty(cn) a
//     restrictor's record type, and for ?ty(e>(e>t)) `R2^R1^(R2 ++ (R1 ++ [...]))` with the
//     object as R2.head and the subject as R1.head.
// Every tree on a path must keep a maximal semantics that is a supertype of the target record
// type, heads aside (a partial tree's head is its subject's until the predicate comes); a path
// succeeds at a complete tree whose root record type equals the target up to relabelling. The
// successful paths are split into word hypotheses (word_hypotheses.h).
//
// Not (yet) the paper's full construction: content for other types (cn, e>(e>t), cn>e, es) and the
// type lattice over record-type increments are missing, so sentences that need them get no tuple
// (and say so in the note). Budgets: `maxExpansions` trees per item, `maxPaths` successful paths,
// `maxTuples` tuples; hitting one is noted.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_tree.h"
#include "gwb/ds/lexicon_em.h"
#include "gwb/ds/record_type.h"
#include "gwb/ds/semantic_corpus.h"
#include "gwb/ds/word_hypotheses.h"

namespace gwb::ds {

struct HypothesisSearchOptions {
  std::size_t maxExpansions = 20000;  // trees expanded per item
  std::size_t maxPaths = 200;         // successful paths kept per item
  std::size_t maxTuples = 300;        // hypothesis tuples per item (DyLan: 300 sequences)
  int maxSteps = 40;                  // actions on one path
};

// The search's axiom for a target: a root requiring ty(t), or ty(e) when the target is headed by
// an entity (a noun-phrase fragment such as "more juice").
DsTree axiomFor(const RecordType& target);

class HypothesisSearch {
 public:
  // The grammar (the seed) must outlive the search.
  explicit HypothesisSearch(const DsGrammar& seed);

  // The content IF blocks proposed for a node requiring `required`, given the target.
  std::vector<std::string> contentActions(const DsType& required, const RecordType& target) const;

  // The successful paths for one example (for inspection), and the example's tuples.
  std::vector<std::vector<PathStep>> paths(const SemanticExample& example,
                                           const HypothesisSearchOptions& options,
                                           std::string* note = nullptr) const;
  ExampleHypotheses hypotheses(const SemanticExample& example,
                               const HypothesisSearchOptions& options) const;

 private:
  const DsGrammar& seed_;
  std::vector<const DsAction*> optional_;
  std::vector<const DsAction*> nonOptional_;
  std::vector<const DsAction*> treeBuilding_;
  std::vector<std::string> treeBuildingText_;  // their texts, as word hypotheses hold them
};

}  // namespace gwb::ds
