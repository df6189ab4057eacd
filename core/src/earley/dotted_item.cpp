#include "gwb/earley/dotted_item.h"

namespace gwb {

std::string dottedItemText(const CompiledGrammar& grammar, std::int32_t rule, int dot, int origin,
                           int set) {
  const CompiledRule& r = grammar.rule(rule);
  const SymbolTable& symbols = grammar.symbols();
  std::string out = "[" + std::to_string(origin) + ", " + std::to_string(set) + "] ";
  out += r.lhs == grammar.goal() ? std::string("GOAL") : symbols.name(r.lhs);
  out += " ->";
  const ConstSpan<SymbolId> sourceRhs =
      r.source >= 0 ? ConstSpan<SymbolId>(grammar.grammar().rule(r.source).rhs) : r.rhs;
  int kept = 0;
  bool dotShown = false;
  for (std::size_t k = 0; k <= sourceRhs.size(); ++k) {
    const bool dropped = r.source >= 0 && k < sourceRhs.size() && r.drops(k);
    if (!dotShown && kept == dot && !dropped) {
      out += " .";
      dotShown = true;
    }
    if (k == sourceRhs.size()) break;
    const SymbolId s = sourceRhs[k];
    out += ' ';
    out += symbols.isTerminal(s) ? "'" + symbols.name(s) + "'" : symbols.name(s);
    if (dropped) {
      out += ":ε";
    } else {
      ++kept;
    }
  }
  return out;
}

}  // namespace gwb
