// A tiny synthetic GeoQuery-like language for FUBL tests: four states, three sentence shapes
// (states bordering X, rivers in X, the capital of X), its type declarations and predicate
// signatures in the formats of geo-lambda.types / geo-lambda.lang. One pair in four is held out
// for testing, so that every word and template of the test pairs was seen in training: a correct
// learner answers all of them. The core learner's test and the workbench's FUBL view test share
// it, so that the view is checked on the language the learner is proved on.
#pragma once

#include <string>

namespace gwb::testing {

struct SyntheticGeography {
  std::string types;         // a .types file
  std::string lang;          // a .lang file
  std::string fixedLexicon;  // np-fixedlex.geo format: the four states as NP
  std::string train;         // a .ccg file: sentence, logical form, blank line
  std::string test;
};

SyntheticGeography syntheticGeography();

}  // namespace gwb::testing
