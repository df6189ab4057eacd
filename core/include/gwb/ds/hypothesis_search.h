// Hypothesis construction for DS lexicon induction (Eshghi, Hough & Purver 2013, section 3.3):
// from the axiom (a root requiring ty(t), or ty(e) for a target headed by an entity, a
// noun-phrase fragment), a depth-first search over monotonic tree extensions by
//   - the seed grammar's optional computational actions (introduction, completion,
//     anticipation, star-adjunction, merge, ...), each followed by the non-optional closure —
//     computational steps, applied by the parser, never part of a word's action;
//   - the seed grammar's tree-building hypotheses (`hyp-*` actions) — lexical steps;
//   - content decorations of the pointed node, built from the target — lexical steps: for
//     ?ty(e) one e-field (with the restrictor its value uses) as head; for ?ty(e>t)
//     `R^(R ++ [...])`, an event with its t-fields and its subject as R.head, without and then
//     with the event's one-place features; for ?ty(e>(e>t)) `R2^R1^(R2 ++ (R1 ++ [...]))` and
//     for ?ty(e>(e>(e>t))) `R3^R2^R1^(...)`, subject R1, object R2, indirect object R3 (the
//     fillers of subj/obj/ind_obj when the target names them); for a LINKed or root ?ty(t) one
//     one-place feature `[head : es|p==f(head) : t]`; for ?ty(cn>e) a determiner
//     `R1^[r : R1|x==det(r.head, r) : e|head==x : e]`; for ?ty(cn) a restrictor's record type,
//     or (the authors' nouns) its bare entity `[x : e|head==x : e]` with a LINKed cn tree
//     (hyp-adj-cn-e) whose e>cn content `R1^(R1 ++ [head==R1.head : e|p==f(R1.head) : t])` adds
//     one predicate; and on a cn node with content, a further LINKed e>cn predicate (an
//     adjective). LINK adjunction of a ?ty(t) tree is searched with the seed's specific macros
//     (hyp-adj-t, hyp-adj-t-init, hyp-adj-t-req-et) and learned as hyp-adj-t-generic, as
//     DyLan's hypothesiser records it (a seed with none of the specific macros searches
//     hyp-adj-t-generic itself). A noun or adjective is one content step, so content steps
//     never outnumber the words.
// Every tree on a path must keep a maximal semantics that is a supertype of the target record
// type, heads aside (a partial tree's head is its subject's until the predicate comes); a path
// succeeds at a complete tree whose root record type equals the target up to relabelling. The
// successful states form a DAG (each expanded once; a state met again by another order of the
// same steps reuses its successes); the paths are read off it in depth-first order and split
// into word hypotheses (word_hypotheses.h).
//
// Not the paper's full construction: no `es` content (hyp-build-cn-es, es>cn), no LINK
// adjunction off type e (features of entities such as "not your spoon"), and no type lattice;
// such items get no tuple and say so in their note. Budgets: `maxExpansions` trees per item,
// `maxPaths` successful paths, `maxTuples` tuples; hitting one is noted.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/ds_tree.h"
#include "gwb/ds/lexicon_em.h"
#include "gwb/ds/record_type.h"
#include "gwb/ds/semantic_corpus.h"
#include "gwb/ds/word_hypotheses.h"

namespace gwb::ds {

struct HypothesisSearchOptions {
  std::size_t maxExpansions = 10000;  // trees expanded per item
  std::size_t maxPaths = 200;         // successful paths kept per item
  std::size_t maxTuples = 300;        // hypothesis tuples per item (DyLan: 300 sequences)
  int maxSteps = 40;                  // actions on one path
};

// The search's axiom for a target: a root requiring ty(t), or ty(e) when the target is headed by
// an entity (a noun-phrase fragment such as "more juice").
DsTree axiomFor(const RecordType& target);

// Where a learned hypothesis came from in one training item: the first successful path (in the
// search's order) with a split at word boundaries that gives the word the hypothesis, and that
// path replayed from the axiom as a parse DAG — one node per tree, one edge per step (lexical
// steps: tree building named after its seed action, content as `content <condition>`, each with
// its word; computational steps with the non-optional actions that followed them as closure),
// so that the DS DAG view can draw it. `replay` is Parsed, its path every edge, its root
// formula the target's record type (up to relabelling).
struct HypothesisDerivation {
  std::vector<PathStep> path;
  std::vector<int> stepWord;  // by step: the word position it belongs to (-1: computational)
  int wordIndex = -1;         // the position of the word the hypothesis is for (-1: not found)
  DsParseResult replay;
  std::string note;  // why nothing was found

  bool found() const { return wordIndex >= 0; }
  // The edges (= steps) of the hypothesis: the lexical steps of wordIndex.
  std::vector<int> hypothesisEdges() const;
};

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
  // The derivation of the hypothesis with canonical key `key` (canonicalHypothesisKey) for
  // `word` in `example` (see HypothesisDerivation); not found when no path gives it, as when
  // the options' budgets are smaller than the learning run's.
  HypothesisDerivation derivation(const SemanticExample& example, const std::string& word,
                                  const std::string& key,
                                  const HypothesisSearchOptions& options) const;

 private:
  const DsGrammar& seed_;
  std::vector<const DsAction*> optional_;
  std::vector<const DsAction*> nonOptional_;
  std::vector<const DsAction*> treeBuilding_;
  std::vector<std::string> treeBuildingText_;  // their texts, as word hypotheses hold them
  std::vector<std::string> treeBuildingName_;  // the seed action a word learns from each
};

}  // namespace gwb::ds
