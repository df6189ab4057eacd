// Fuzzes the DyLan grammar reader (parseDsGrammar). The input is the grammar folder's four files
// one after the other, each ending at a line `%%%%` (computational-actions.txt,
// lexical-actions.txt, lexical-macros.txt, lexicon.txt); missing files are empty.
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "fuzz_input.h"
#include "gwb/ds/ds_grammar.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest = gwb::fuzz::asText(data, size);
  std::array<std::string, 4> files;
  for (std::string& file : files) {
    const std::size_t end = rest.find("%%%%\n");
    file = std::string(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 5);
  }
  gwb::ds::DsGrammarText text;
  text.directory = "g";
  text.computationalActions = std::move(files[0]);
  text.lexicalActions = std::move(files[1]);
  text.lexicalMacros = std::move(files[2]);
  text.lexicon = std::move(files[3]);
  const gwb::ds::DsGrammarLoad load = gwb::ds::parseDsGrammar(text);
  for (const gwb::ds::DsAction& a : load.grammar.computational) a.toString();
  for (const auto& [word, entries] : load.grammar.lexicon())
    for (const gwb::ds::LexicalEntry& e : entries) e.action.toString();
  return 0;
}
