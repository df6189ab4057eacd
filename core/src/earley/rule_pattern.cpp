#include "gwb/earley/rule_pattern.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace gwb {

namespace {

// Does `text` match the glob (`*`, `?`, `\` escapes)? Iterative, with one backtrack point.
bool globMatches(std::string_view glob, std::string_view text) {
  std::size_t g = 0;
  std::size_t t = 0;
  std::size_t starGlob = std::string_view::npos;
  std::size_t starText = 0;
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      starGlob = g++;
      starText = t;
      continue;
    }
    if (g < glob.size()) {
      bool literal = glob[g] == '\\' && g + 1 < glob.size();
      const char c = literal ? glob[g + 1] : glob[g];
      if ((!literal && c == '?') || c == text[t]) {
        g += literal ? 2 : 1;
        ++t;
        continue;
      }
    }
    if (starGlob == std::string_view::npos) return false;
    g = starGlob + 1;
    t = ++starText;
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

// The symbol as the Earleyx format writes it: terminals with a leading `_`.
std::string writtenSymbol(const SymbolTable& symbols, SymbolId id) {
  return symbols.isTerminal(id) ? "_" + symbols.name(id) : symbols.name(id);
}

enum class TokenKind { Glob, Arrow, Comma, Except };
struct PatternToken {
  TokenKind kind;
  std::string text;  // globs keep their escapes
  std::size_t column;
};

bool tokenizePattern(std::string_view text, std::vector<PatternToken>& tokens, std::string* error) {
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    if (c == ',') {
      tokens.push_back({TokenKind::Comma, ",", i + 1});
      ++i;
      continue;
    }
    if (text.compare(i, 2, "->") == 0) {
      tokens.push_back({TokenKind::Arrow, "->", i + 1});
      i += 2;
      continue;
    }
    const std::size_t start = i;
    std::string glob;
    bool escaped = false;
    while (i < text.size()) {
      const char d = text[i];
      if (d == '\\') {
        if (i + 1 >= text.size()) {
          if (error)
            *error = "column " + std::to_string(i + 1) + ": '\\' at the end of the pattern";
          return false;
        }
        glob += text.substr(i, 2);
        escaped = true;
        i += 2;
        continue;
      }
      if (d == ' ' || d == '\t' || d == ',' || text.compare(i, 2, "->") == 0) break;
      glob += d;
      ++i;
    }
    const bool isExcept = !escaped && glob == "except";
    tokens.push_back({isExcept ? TokenKind::Except : TokenKind::Glob, glob, start + 1});
  }
  return true;
}

// Does the RHS glob sequence (with "..." items) match the rule's RHS? Small DP over positions.
bool rhsMatches(const std::vector<std::string>& items, const std::vector<std::string>& symbols) {
  const std::size_t m = items.size();
  const std::size_t n = symbols.size();
  // reach[j]: items[0..i) can match symbols[0..j). (Strings: never a null buffer, which keeps
  // GCC's -Wnull-dereference quiet.)
  std::string reach(n + 1, '\0');
  std::string next(n + 1, '\0');
  reach[0] = 1;
  for (std::size_t i = 0; i < m; ++i) {
    std::fill(next.begin(), next.end(), '\0');
    if (items[i] == "...") {
      bool any = false;
      for (std::size_t j = 0; j <= n; ++j) {
        any = any || reach[j] != 0;
        next[j] = any ? 1 : 0;
      }
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        if (reach[j] != 0 && globMatches(items[i], symbols[j])) next[j + 1] = 1;
      }
    }
    reach.swap(next);
  }
  return reach[n] != 0;
}

}  // namespace

std::optional<RulePattern> RulePattern::parse(std::string_view text, std::string* error) {
  std::vector<PatternToken> tokens;
  if (!tokenizePattern(text, tokens, error)) return std::nullopt;
  RulePattern pattern;
  const std::size_t first = text.find_first_not_of(" \t");
  const std::size_t last = text.find_last_not_of(" \t");
  pattern.text_ =
      first == std::string_view::npos ? "" : std::string(text.substr(first, last - first + 1));
  std::size_t i = 0;
  const auto fail = [&](const std::string& message) {
    if (error) {
      const std::size_t column = i < tokens.size() ? tokens[i].column : text.size() + 1;
      *error = "column " + std::to_string(column) + ": " + message;
    }
    return std::nullopt;
  };
  // SIMPLE := GLOB [ "->" GLOB* ]
  const auto parseSimple = [&](Simple& simple) -> bool {
    if (i >= tokens.size() || tokens[i].kind != TokenKind::Glob) return false;
    simple.lhs = tokens[i++].text;
    if (simple.lhs == "...") return false;
    if (i < tokens.size() && tokens[i].kind == TokenKind::Arrow) {
      ++i;
      simple.anyRhs = false;
      while (i < tokens.size() && tokens[i].kind == TokenKind::Glob)
        simple.rhs.push_back(tokens[i++].text);
    }
    return true;
  };
  if (!parseSimple(pattern.include_))
    return fail("expected a left-hand-side glob such as `Word.*`");
  if (i < tokens.size()) {
    if (tokens[i].kind != TokenKind::Except)
      return fail("expected `except` or the end of the pattern");
    ++i;
    do {
      if (!pattern.excludes_.empty()) ++i;  // the comma
      Simple simple;
      if (!parseSimple(simple)) return fail("expected a rule pattern after `except` or `,`");
      pattern.excludes_.push_back(std::move(simple));
    } while (i < tokens.size() && tokens[i].kind == TokenKind::Comma);
    if (i < tokens.size()) return fail("expected `,` or the end of the pattern");
  }
  return pattern;
}

bool RulePattern::matchesSimple(const Simple& simple, const Grammar& grammar, RuleId id) {
  const Rule& rule = grammar.rule(id);
  const SymbolTable& symbols = grammar.symbols();
  if (!globMatches(simple.lhs, symbols.name(rule.lhs))) return false;
  if (simple.anyRhs) return true;
  std::vector<std::string> written;
  written.reserve(rule.rhs.size());
  for (SymbolId s : rule.rhs) written.push_back(writtenSymbol(symbols, s));
  return rhsMatches(simple.rhs, written);
}

bool RulePattern::matches(const Grammar& grammar, RuleId id) const {
  if (!matchesSimple(include_, grammar, id)) return false;
  return std::none_of(excludes_.begin(), excludes_.end(),
                      [&](const Simple& s) { return matchesSimple(s, grammar, id); });
}

std::optional<PriorOverride> parsePriorOverride(std::string_view text, std::string* error) {
  const std::size_t equals = text.rfind('=');
  if (equals == std::string_view::npos) {
    if (error) *error = "expected PATTERN=VALUE, e.g. 'Word.* -> _* except Word.None=0.001'";
    return std::nullopt;
  }
  const std::string valueText(text.substr(equals + 1));
  double value = 0.0;
  std::size_t used = 0;
  try {
    value = std::stod(valueText, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  while (used < valueText.size() && (valueText[used] == ' ' || valueText[used] == '\t')) ++used;
  if (used == 0 || used != valueText.size() || !(value > 0.0) || !std::isfinite(value)) {
    if (error) *error = "the prior '" + valueText + "' after '=' is not a positive number";
    return std::nullopt;
  }
  if (!isSupportedPrior(value)) {
    if (error) *error = unsupportedPriorMessage(value);
    return std::nullopt;
  }
  std::string patternError;
  auto pattern = RulePattern::parse(text.substr(0, equals), &patternError);
  if (!pattern) {
    if (error) *error = "pattern '" + std::string(text.substr(0, equals)) + "': " + patternError;
    return std::nullopt;
  }
  return PriorOverride{std::move(*pattern), value};
}

}  // namespace gwb
