// From action sequences to word hypotheses: the step between hypothesis search and EM in
// Eshghi, Hough & Purver 2013, section 3.4 ("these must now be split into n sub-sequences,
// hypothesising a set of word boundaries to form discrete word hypotheses").
//
// A path is the sequence of actions that took the axiom to a tree with the target record type:
// lexical steps (tree-building hypotheses `hyp-*` and content decorations, which become parts
// of lexical actions) and computational steps (introduction, completion, ..., which the parser
// applies by itself between words and which are therefore never part of a word's action).
// Because a lexical action runs without computational actions inside it, a computational step
// always separates two words' material: the lexical steps form maximal runs, and each run is
// cut into one or more consecutive word hypotheses. A split is valid when the pieces number
// exactly the sentence's words; every valid split is one hypothesis tuple. A word's action is
// its steps' texts joined by newlines (IF blocks one after another, DyLan's learned format).
//
// Hypotheses are compared up to relabelling (canonicalHypothesisKey), so the same action found
// on two paths, or in two sentences, is one hypothesis; equal tuples are kept once. A budget
// bounds the tuples kept per example; hitting it is reported in ExampleHypotheses::note.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gwb/ds/lexicon_em.h"

namespace gwb::ds {

struct PathStep {
  bool lexical = false;
  std::string action;  // lexical: the IF block(s) it adds to the word's action; else its name
};

// Every split of `path` into `words` word hypotheses (each the action texts of one word), at
// most `limit` of them (0: no limit); *truncated is set when more existed.
std::vector<std::vector<std::string>> splitAtWordBoundaries(const std::vector<PathStep>& path,
                                                            std::size_t words, std::size_t limit,
                                                            bool* truncated = nullptr);

// The same splits as step assignments: for each split (in the same order, at most `limit`),
// the word position (0-based) each step of `path` belongs to, -1 for computational steps. This
// is how a learned hypothesis is traced back to the steps that made it (HypothesisSearch::
// derivation).
std::vector<std::vector<int>> wordAssignments(const std::vector<PathStep>& path, std::size_t words,
                                              std::size_t limit, bool* truncated = nullptr);
// The word actions of one assignment: each word's steps' texts joined by newlines.
std::vector<std::string> wordActions(const std::vector<PathStep>& path,
                                     const std::vector<int>& assignment, std::size_t words);

// The hypothesis tuples of one example from all its successful paths, at most `maxTuples`
// distinct tuples (0: no limit).
ExampleHypotheses collectWordHypotheses(const std::vector<std::string>& words,
                                        const std::vector<std::vector<PathStep>>& paths,
                                        std::size_t maxTuples);

}  // namespace gwb::ds
