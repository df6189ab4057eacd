// Fuzzes the `--prior PATTERN=VALUE` reader (parsePriorOverride and RulePattern::parse), and
// matches what it read against a small grammar.
#include <string>

#include "fuzz_input.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gwb::Grammar grammar =
      gwb::readGrammar("ROOT->[Word.dog] : 1\nWord.dog->[_dog] : 0.5\nWord.dog->[_a b] : 0.5\n",
                       "g")
          .grammar;
  std::string error;
  const auto prior = gwb::parsePriorOverride(gwb::fuzz::asText(data, size), &error);
  if (!prior) return 0;
  for (gwb::RuleId r = 0; r < static_cast<gwb::RuleId>(grammar.ruleCount()); ++r)
    prior->pattern.matches(grammar, r);
  return 0;
}
