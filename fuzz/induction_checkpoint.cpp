// Fuzzes the induction checkpoint reader (gwb/earley/induction_checkpoint.h: `gwb induce
// --resume` and the social experiment's chained runs read what an earlier run wrote, a file that
// a crash or a full disk may have damaged): a checkpoint read formats to a text that reads back to
// the same text.
#include "gwb/earley/induction_checkpoint.h"

#include <string>

#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(gwb::fuzz::asText(data, size));
  std::string error;
  const auto checkpoint = gwb::parseInductionCheckpoint(text, &error);
  if (checkpoint) {
    const std::string written = gwb::formatInductionCheckpoint(*checkpoint);
    const auto again = gwb::parseInductionCheckpoint(written, &error);
    gwb::fuzz::requireInvariant(again.has_value(), "a written checkpoint reads back");
    gwb::fuzz::requireInvariant(gwb::formatInductionCheckpoint(*again) == written,
                                "a written checkpoint reads back to the same text");
  } else {
    gwb::fuzz::requireInvariant(error.rfind("line ", 0) == 0, "an error names its line");
  }
  return 0;
}
