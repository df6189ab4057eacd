// Fuzzes the NLTK PCFG reader (readGrammar with the NLTK format and the grammar checks).
#include "fuzz_input.h"
#include "gwb/earley/grammar_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwb::GrammarReadOptions options;
  options.format = gwb::GrammarFormat::Nltk;
  gwb::readGrammar(gwb::fuzz::asText(data, size), "in", options);
  return 0;
}
