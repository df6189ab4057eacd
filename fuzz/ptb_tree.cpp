// Fuzzes the PTB bracket reader (parsePtb).
#include <string>

#include "fuzz_input.h"
#include "gwb/earley/parse_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string error;
  gwb::parsePtb(std::string(gwb::fuzz::asText(data, size)), &error);
  return 0;
}
