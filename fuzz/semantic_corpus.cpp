// Fuzzes the CHILDES semantic corpus reader (`Sent :` / `Sem :` / `File :` items).
#include "gwb/ds/semantic_corpus.h"

#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwb::Diagnostics diagnostics;
  gwb::ds::parseSemanticCorpus(gwb::fuzz::asText(data, size), "in", diagnostics);
  return 0;
}
