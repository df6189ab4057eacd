// Fuzzes the TTR record type and formula readers (RecordType::parse, parseFormula). What parses
// must print to a text that parses back to the same text. Deeply nested inputs are kept out by
// the fuzzing script's -max_len (the parsers' depth limit is another change's work).
#include <string>

#include "fuzz_input.h"
#include "gwb/ds/formula.h"
#include "gwb/ds/record_type.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gwb::fuzz::asText(data, size);
  gwb::ds::FormulaParseError error;
  if (const auto record = gwb::ds::RecordType::parse(text, &error)) {
    const std::string printed = record->toString();
    const auto again = gwb::ds::RecordType::parse(printed, &error);
    gwb::fuzz::requireInvariant(again.has_value(), "a printed record type parses");
    gwb::fuzz::requireInvariant(again && again->toString() == printed,
                                "a printed record type parses back to the same text");
  }
  gwb::ds::parseFormula(text, &error);
  return 0;
}
