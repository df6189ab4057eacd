// Fuzzes the Earleyx grammar reader (readGrammar with the Earleyx format and the grammar checks)
// and writes back what it read: a grammar that loads without errors must write out and read
// back to the same rules.
#include <sstream>
#include <string>

#include "fuzz_input.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/grammar_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwb::GrammarReadOptions options;
  options.format = gwb::GrammarFormat::Earleyx;
  const gwb::GrammarLoad load = gwb::readGrammar(gwb::fuzz::asText(data, size), "in", options);
  if (!load.ok()) return 0;
  std::ostringstream written;
  if (!gwb::writeEarleyx(load.grammar, written)) return 0;
  options.runChecks = false;
  const gwb::GrammarLoad again = gwb::readGrammar(written.str(), "written", options);
  gwb::fuzz::requireInvariant(again.ok(), "a written Earleyx grammar reads back without errors");
  gwb::fuzz::requireInvariant(again.grammar.ruleCount() == load.grammar.ruleCount(),
                              "a written Earleyx grammar reads back with as many rules");
  return 0;
}
