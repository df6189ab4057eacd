// Fuzzes the recordings table reader (social-cues/recordings.tsv).
#include "fuzz_input.h"
#include "gwb/grounded/social_corpus.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwb::readRecordings(gwb::fuzz::asText(data, size), "in");
  return 0;
}
