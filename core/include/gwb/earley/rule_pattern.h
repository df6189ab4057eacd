// Rule patterns: which rules of a grammar a prior override (induction.h) applies to. A small
// language of globs over symbol names, with exceptions; see RulePattern.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/earley/grammar.h"

namespace gwb {

// A rule pattern, for prior overrides. Syntax:
//
//   PATTERN  := SIMPLE [ "except" SIMPLE { "," SIMPLE } ]
//   SIMPLE   := LHS-GLOB [ "->" { RHS-GLOB } ]
//
// Globs match whole symbol names: `*` any run of characters (also none), `?` one character, `\`
// takes the next character literally. A nonterminal is matched by its name, a terminal by `_`
// and its word, as the Earleyx format writes it: `_*` is any terminal, `*` any one symbol,
// `Word.*` any nonterminal whose name starts with "Word.". An RHS of globs matches an RHS of
// the same length symbol by symbol; the item `...` matches any run of symbols (also none); no
// `->` at all matches any RHS. A rule matches a PATTERN when it matches the first SIMPLE and
// none after "except". Spaces separate RHS items; the arrow may touch its neighbours. Example,
// the paper's section 6.1: `Word.* -> _* except Word.None` (a sparse prior on every topic's
// words but the null topic's).
class RulePattern {
 public:
  // nullopt and *error (what was expected, and where) when `text` is not a pattern.
  static std::optional<RulePattern> parse(std::string_view text, std::string* error = nullptr);

  bool matches(const Grammar& grammar, RuleId id) const;
  const std::string& text() const { return text_; }

 private:
  struct Simple {
    std::string lhs;
    bool anyRhs = true;
    std::vector<std::string> rhs;  // globs; "..." is the any-run item
  };
  static bool matchesSimple(const Simple& simple, const Grammar& grammar, RuleId id);

  std::string text_;
  Simple include_;
  std::vector<Simple> excludes_;
};

// "PATTERN=VALUE": a Dirichlet pseudo-count for every rule matching PATTERN (the text is split
// at its last '='; VALUE must be a positive number).
struct PriorOverride {
  RulePattern pattern;
  double value = 1.0;
};
std::optional<PriorOverride> parsePriorOverride(std::string_view text,
                                                std::string* error = nullptr);

}  // namespace gwb
