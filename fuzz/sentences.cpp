// Fuzzes the training sentence reader of `gwb induce` and the workbench (readSentenceText).
#include "fuzz_input.h"
#include "gwb/earley/induction.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwb::readSentenceText(gwb::fuzz::asText(data, size));
  return 0;
}
