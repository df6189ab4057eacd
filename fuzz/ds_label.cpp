// Fuzzes the DS type, label and modality readers (DsType::parse, parseLabel, Modality::parse).
// Deeply nested inputs are kept out by the fuzzing script's -max_len (the parsers' depth limit
// is another change's work).
#include <string>

#include "fuzz_input.h"
#include "gwb/ds/ds_type.h"
#include "gwb/ds/label.h"
#include "gwb/ds/node_address.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gwb::fuzz::asText(data, size);
  if (const auto type = gwb::ds::DsType::parse(text)) {
    const auto again = gwb::ds::DsType::parse(type->toString());
    gwb::fuzz::requireInvariant(again && *again == *type, "a printed DS type parses back");
  }
  gwb::ds::LabelParseError labelError;
  if (const gwb::ds::LabelPtr label = gwb::ds::parseLabel(text, &labelError)) label->text();
  std::string error;
  if (const auto modality = gwb::ds::Modality::parse(text, &error)) modality->toString();
  return 0;
}
