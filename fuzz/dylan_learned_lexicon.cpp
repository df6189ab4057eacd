// Fuzzes the DyLan learned lexicon reader (lexicon.lex-top-N.txt).
#include "fuzz_input.h"
#include "gwb/ds/ds_grammar.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwb::Diagnostics diagnostics;
  for (const gwb::ds::LexicalEntry& e :
       gwb::ds::parseLearnedLexicon(gwb::fuzz::asText(data, size), "in", diagnostics))
    e.action.toString();
  return 0;
}
