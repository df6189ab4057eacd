// Fuzzes the factored CCG lexicon reader and UBL's fixed-lexicon reader (gwb/ccg/lexicon.h):
// what is read writes out to a text that reads back to the same lexicon, and building the
// lexical entries (with a small type system) returns normally. And the model reader
// (gwb/ccg/ccg_model.h: a lexicon under a header of parser settings): a model read without
// errors writes out to a text that reads back, without errors, to the same text.
#include "fuzz_input.h"
#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/lexicon.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gwb::ccg;
  static const TypeSystem kTypes =
      readTypeSystem("(n lo (s lo) (c lo))", "t", "((state:t s t) (next_to:t s s t))", "l").types;
  const std::string_view text = gwb::fuzz::asText(data, size);
  for (int reader = 0; reader < 2; ++reader) {
    LexiconLoad load = reader == 0 ? readFactoredLexicon(text, "in") : readFixedLexicon(text, "in");
    const std::string written = writeFactoredLexicon(load.lexicon);
    LexiconLoad again = readFactoredLexicon(written, "again");
    gwb::fuzz::requireInvariant(!again.diagnostics.hasErrors(), "a written lexicon reads back");
    gwb::fuzz::requireInvariant(writeFactoredLexicon(again.lexicon) == written,
                                "a written lexicon reads back to the same text");
    if (load.lexicon.lexemes().size() * load.lexicon.templates().size() < 10000) {
      load.lexicon.buildEntries(&kTypes);
    }
  }
  const CcgModelLoad model = readCcgModel(text, "in");
  if (!model.diagnostics.hasErrors()) {
    const std::string written = writeCcgModel(model.lexicon, model.parser);
    const CcgModelLoad again = readCcgModel(written, "again");
    gwb::fuzz::requireInvariant(!again.diagnostics.hasErrors(), "a written model reads back");
    gwb::fuzz::requireInvariant(writeCcgModel(again.lexicon, again.parser) == written,
                                "a written model reads back to the same text");
  }
  return 0;
}
