// Fuzzes the lambda-calculus reader of CCG logical forms (gwb/ccg/term.h) and the GeoQuery
// sentence/logical-form reader: every term read prints back to a text that reads to the same
// term; beta-reduction, canonical forms, exact-match keys and type checking return normally on it.
#include "fuzz_input.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/ccg/term.h"

namespace {

const gwb::ccg::TypeSystem& types() {
  static const gwb::ccg::TypeSystem kTypes =
      gwb::ccg::readTypeSystem("(n lo (s lo) (c lo) (r lo))", "t",
                               "((state:t s t) (loc:t r s t) (capital:c s c) (len:i r i))", "l")
          .types;
  return kTypes;
}

void exercise(const gwb::ccg::Term& term) {
  using namespace gwb::ccg;
  const std::string text = toString(term);
  Term again = parseTerm(text);
  gwb::fuzz::requireInvariant(again && structurallyEqual(again, term),
                              "a printed term reads back to itself");
  Term reduced = betaReduce(term, 2000);
  if (reduced) {
    gwb::fuzz::requireInvariant(alphaEquivalent(reduced, canonicalTerm(reduced)),
                                "a canonical form is alpha-equivalent to its term");
    gwb::fuzz::requireInvariant(exactMatch(reduced, exactMatchKey(reduced)),
                                "an exact-match key matches its term");
  }
  gwb::Diagnostics diagnostics;
  typeCheck(term, types(), "in", 1, 1, &diagnostics);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gwb::fuzz::asText(data, size);
  gwb::Diagnostics diagnostics;
  if (gwb::ccg::Term term = gwb::ccg::readTerm(text, "in", 1, 1, &diagnostics)) exercise(term);
  const gwb::ccg::SemanticExamplesLoad load = gwb::ccg::readSemanticExamples(text, "in");
  for (const auto& example : load.examples) exercise(example.logicalForm);
  return 0;
}
