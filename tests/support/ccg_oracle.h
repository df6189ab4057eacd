// A brute-force oracle for the CKY parser of gwb/ccg/cky_parser.h: enumerates every CCG
// derivation of a short sentence from a flat list of lexical items, one by one, with its own
// category representation, its own combinator rules (>, <, >B, <B; '|' either way) and its own
// scoring. It shares no code with the chart (no packing, no pruning, no inside-outside); it uses
// the lambda-calculus library (term.h, tested on its own) to compose and compare meanings, and
// it is given the logical-form feature function to score roots.
//
// Exponential on purpose: for sentences of a handful of words and lexicons of a few items.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gwb/ccg/term.h"

namespace gwb::testing {

struct CcgOracleItem {
  std::vector<std::string> words;
  std::string category;  // e.g. "(S\NP)/NP"
  ccg::Term semantics;
  std::map<std::string, double> features;  // feature name -> value
};

struct CcgOracleOptions {
  bool composition = true;
  std::vector<std::string> roots = {"S"};  // empty: any category
  std::map<std::string, double> weights;
  std::function<std::map<std::string, double>(const ccg::Term&)> logicalFormFeatures;
};

struct CcgOracleDerivation {
  std::string category;
  ccg::Term semantics;
  double score = 0;
  std::map<std::string, double> features;
  std::string tree;  // bracketed, for messages
};

// Every derivation of `words` whose root category is a root, logical-form features included.
std::vector<CcgOracleDerivation> enumerateCcgDerivations(const std::vector<std::string>& words,
                                                         const std::vector<CcgOracleItem>& items,
                                                         const CcgOracleOptions& options);

}  // namespace gwb::testing
