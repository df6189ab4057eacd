// Fuzzes the word-topic lexicon reader (fm-corpus/gold-lexicon.txt).
#include "fuzz_input.h"
#include "gwb/grounded/grounded_metrics.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwb::readLexicon(gwb::fuzz::asText(data, size), "in");
  return 0;
}
