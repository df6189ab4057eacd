// GeoWorkload: the CCG parsing workload of realistic size that the benchmark
// (bench/bench_ccg.cpp) and the slow reference test (tests/slow/ccg_parser_reference_test.cpp)
// both parse, built in one place so that the figures the test pins are those of the lexicon
// the benchmark times.
//
// The lexicon is UBL's fixed entity lexicon (np-fixedlex.geo, 2,382 NP entries, maximally
// factored) plus entries generated from the word/constant co-occurrence scores that initialise
// the paper's lexeme weights (geo600.dev.giza_probs): every pair scoring at least 0.02 whose
// constant is typed (has a ':') becomes a lexeme (word, [constant]) with weight 10 × score
// (UBL's initialisation multiplier); every word of the 280 Geo880 test sentences becomes a
// constant-free lexeme; and ten templates of the shapes FUBL learns (S|NP : λx.p(x),
// (S|NP)/NP : λy.λx.p(x,y), NP/NP, ...) pair with them where the types fit
// (geo-lambda.types/.lang). The entries are built (4,279 of them) before it is returned.
//
// Invariants: `lexicon` holds no pointer into `types` (buildEntries only reads it), so the
// workload may be moved; `test` is geosents280-typed.ccg.test in file order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"

namespace gwb::testing {

struct GeoWorkload {
  ccg::TypeSystem types;
  ccg::FactoredLexicon lexicon;
  std::vector<ccg::SemanticExample> test;  // the 280 Geo880 test sentences
  std::size_t entries = 0;                 // lexical entries built
};

// The shared files the workload reads, relative to the shared folder.
const std::vector<std::string>& geoWorkloadFiles();

// Builds the workload from the shared folder `sharedDir`. nullopt and the reason in *error when
// a file is missing or does not read.
std::optional<GeoWorkload> loadGeoWorkload(const std::string& sharedDir, std::string* error);

}  // namespace gwb::testing
