// The look-ahead tests (FIRST/FOLLOW pruning, earley_parser.h) shared by the forward pass
// (earley_run.h) and the agenda-driven engine (agenda_earley.h), so that both prune exactly the
// same items. `terminals` holds the terminal of each input word (kNoSymbol for a word the
// grammar does not know); position r's look-ahead is the word at r, or kEndOfInput after the last.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gwb/earley/compiled_grammar.h"

namespace gwb::earley_internal {

// The next token's terminal at position r (kEndOfInput at the end); nullopt when look-ahead is
// off or cannot be used there: a word the grammar does not know, or one it knows only through
// the unknown-word model (it is scanned through that model, or the parse fails at it).
inline std::optional<SymbolId> lookaheadTerminal(const CompiledGrammar& g, bool lookahead,
                                                 const std::vector<SymbolId>& terminals,
                                                 std::size_t r) {
  if (!lookahead) return std::nullopt;
  if (r >= terminals.size()) return CompiledGrammar::kEndOfInput;
  const SymbolId t = terminals[r];
  if (t == kNoSymbol) return std::nullopt;
  if (g.lexicalRules(t).empty() && g.hasUnknownWordModel()) return std::nullopt;
  return t;
}

// Whether a constituent Y may be completed before `next`: the goal always; otherwise when no
// look-ahead applies or Y can be followed by it (or, with `alsoBeforeEnd`, by the end of input:
// the forward pass completing for every prefix's string probability).
inline bool mayCompleteBefore(const CompiledGrammar& g, SymbolId y, std::optional<SymbolId> next,
                              bool alsoBeforeEnd = false) {
  if (y == g.goal() || !next) return true;
  if (g.canBeFollowedBy(y, *next)) return true;
  return alsoBeforeEnd && g.canBeFollowedBy(y, CompiledGrammar::kEndOfInput);
}

// What advancing an item of `rule` with its dot at `dot` over a constituent makes, as far as
// the look-ahead test cares: an item waiting on a nonterminal or on a terminal (`after` is that
// symbol), or a finished item (`after` is its LHS) of the goal rule, of a unit rule, or of any
// other rule (AdvanceKind, compiled_grammar.h). Completion keeps this per waiting item
// (WaitingRecord), from CompiledGrammar::dottedAdvance, which holds classifyAdvance's answers.

struct Advance {
  AdvanceKind kind;
  SymbolId after;
};

inline Advance classifyAdvance(const CompiledGrammar& g, std::int32_t rule, std::int32_t dot) {
  const CompiledRule& r = g.rule(rule);
  const auto nextPosition = static_cast<std::size_t>(dot) + 1;
  if (nextPosition != r.rhs.size()) {
    const SymbolId after = r.rhs[nextPosition];
    if (after == g.goal() || g.symbols().isNonterminal(after))
      return {AdvanceKind::Nonterminal, after};
    return {AdvanceKind::Terminal, after};
  }
  if (r.lhs == g.goal()) return {AdvanceKind::Goal, r.lhs};
  if (r.unit) return {AdvanceKind::Unit, r.lhs};
  return {AdvanceKind::Finished, r.lhs};
}

// With look-ahead `next`, whether an advance makes an item anybody can use: an unfinished item
// whose next symbol can start with the next word (none can at the end of input), the goal item,
// or a finished non-unit item (unit chains are folded into R_U) whose LHS the next word can
// follow.
inline bool worthAdvancing(const CompiledGrammar& g, Advance advance, std::optional<SymbolId> next,
                           bool alsoBeforeEnd = false) {
  switch (advance.kind) {
    case AdvanceKind::Nonterminal:
      if (!next) return true;
      if (*next == CompiledGrammar::kEndOfInput) return false;
      return g.canStartWith(advance.after, *next);
    case AdvanceKind::Terminal:
      if (!next) return true;
      if (*next == CompiledGrammar::kEndOfInput) return false;
      return advance.after == *next;
    case AdvanceKind::Goal: return true;
    case AdvanceKind::Unit: return false;
    case AdvanceKind::Finished: return mayCompleteBefore(g, advance.after, next, alsoBeforeEnd);
  }
  return true;
}

inline bool worthAdvancing(const CompiledGrammar& g, std::int32_t rule, std::int32_t dot,
                           std::optional<SymbolId> next, bool alsoBeforeEnd = false) {
  return worthAdvancing(g, classifyAdvance(g, rule, dot), next, alsoBeforeEnd);
}

}  // namespace gwb::earley_internal
