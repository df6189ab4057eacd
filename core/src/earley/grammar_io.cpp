#include "gwb/earley/grammar_io.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <sstream>
#include <unordered_set>

#include "common/text_lines.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/number_format.h"
#include "gwb/earley/grammar_check.h"

namespace gwb {

namespace {

// Probabilities slightly above one (rounding in other tools' output) are read as one, as
// Earleyx does; anything above this is an error.
constexpr double kProbabilityRoundingSlack = 1.000001;
// Two copies of a rule whose probabilities differ by no more than this are the same rule.
constexpr double kDuplicateTolerance = 1e-10;

using text::isSpace;
using text::Line;
using text::splitLines;
using text::trim;

// Parses a whole token as a finite number in Earleyx's character set [0-9.+-Ee].
std::optional<double> parseNumber(std::string_view token) {
  if (token.empty()) return std::nullopt;
  for (char c : token) {
    const bool allowed =
        (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E';
    if (!allowed) return std::nullopt;
  }
  if (token.front() == '+') token.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

int columnOf(std::string_view line, std::string_view part) {
  return static_cast<int>(part.data() - line.data()) + 1;
}

// Adds rules to a grammar, merging identical duplicates and rejecting conflicting ones, and
// checking probabilities and priors. Shared by both readers.
class RuleSink {
 public:
  RuleSink(Grammar& grammar, Diagnostics& diagnostics, const std::string& file)
      : grammar_(grammar), diagnostics_(diagnostics), file_(file) {}

  // `probabilityColumn` / `priorColumn` point the diagnostics at the right place.
  void add(Rule rule, int probabilityColumn, int priorColumn) {
    const int line = rule.sourceLine;
    if (rule.probability < 0.0) {
      diagnostics_.error(file_, line, probabilityColumn,
                         "negative probability " + formatProbability(rule.probability) +
                             "; expected a number in [0, 1]");
      return;
    }
    if (rule.probability > 1.0) {
      if (rule.probability > kProbabilityRoundingSlack) {
        diagnostics_.error(file_, line, probabilityColumn,
                           "probability " + formatProbability(rule.probability) +
                               " is above 1; expected a number in [0, 1]");
        return;
      }
      rule.probability = 1.0;
    }
    if (rule.prior && !(*rule.prior > 0.0)) {
      diagnostics_.error(file_, line, priorColumn,
                         "Dirichlet prior " + formatProbability(*rule.prior) + " must be positive");
      return;
    }
    if (rule.prior && !isSupportedPrior(*rule.prior)) {
      diagnostics_.error(file_, line, priorColumn, unsupportedPriorMessage(*rule.prior));
      return;
    }
    if (const auto existing = grammar_.findRule(rule.lhs, rule.rhs)) {
      const Rule& first = grammar_.rule(*existing);
      if (std::abs(first.probability - rule.probability) <= kDuplicateTolerance &&
          first.prior == rule.prior) {
        diagnostics_.warning(
            file_, line, 1,
            "duplicate of the rule on line " + std::to_string(first.sourceLine) + "; kept once");
      } else {
        diagnostics_.error(
            file_, line, probabilityColumn,
            "conflicting duplicate: the rule on line " + std::to_string(first.sourceLine) +
                " has probability " + formatProbability(first.probability) +
                (first.prior ? " and prior " + formatProbability(*first.prior) : "") +
                ", this one " + formatProbability(rule.probability) +
                (rule.prior ? " and prior " + formatProbability(*rule.prior) : ""));
      }
      return;
    }
    grammar_.addRule(std::move(rule));
  }

 private:
  Grammar& grammar_;
  Diagnostics& diagnostics_;
  const std::string& file_;
};

// ---------------------------------------------------------------------------------------------
// Earleyx

void readEarleyx(std::string_view text, const std::string& file, GrammarLoad& load) {
  Grammar& grammar = load.grammar;
  Diagnostics& diagnostics = load.diagnostics;
  RuleSink sink(grammar, diagnostics, file);
  constexpr std::string_view kArrow = "->[";
  constexpr std::string_view kProbabilitySeparator = "] : ";
  int blankLines = 0;
  int firstBlankLine = 0;

  for (const Line& line : splitLines(text)) {
    const std::string_view content = trim(line.text);
    if (content.empty()) {
      if (blankLines++ == 0) firstBlankLine = line.number;
      continue;
    }
    const std::size_t arrow = content.find(kArrow);
    if (arrow == std::string_view::npos) {
      diagnostics.error(file, line.number, columnOf(line.text, content),
                        "expected a rule `[PRIOR ]LHS->[RHS ...] : PROB`, found \"" +
                            std::string(content.substr(0, 60)) + "\"");
      continue;
    }
    // Before the arrow: "LHS" or "PRIOR LHS".
    std::string_view head = content.substr(0, arrow);
    std::optional<double> prior;
    int priorColumn = 0;
    if (const std::size_t space = head.find(' '); space != std::string_view::npos) {
      const std::string_view priorText = head.substr(0, space);
      priorColumn = columnOf(line.text, priorText);
      prior = parseNumber(priorText);
      head = trim(head.substr(space + 1));
      if (!prior) {
        diagnostics.error(file, line.number, priorColumn,
                          "expected a Dirichlet prior (a number) before the LHS, found \"" +
                              std::string(priorText) + "\" (symbol names cannot hold spaces)");
        continue;
      }
      if (head.find(' ') != std::string_view::npos) {
        diagnostics.error(
            file, line.number, columnOf(line.text, head),
            "expected one LHS symbol before `->[`, found \"" + std::string(head) + "\"");
        continue;
      }
    }
    if (head.empty()) {
      diagnostics.error(file, line.number, columnOf(line.text, content),
                        "expected a left-hand-side symbol before `->[`");
      continue;
    }
    // After the arrow: "RHS] : PROB"; the last "] : " ends the RHS (a symbol may hold ']').
    const std::string_view rest = content.substr(arrow + kArrow.size());
    const std::size_t close = rest.rfind(kProbabilitySeparator);
    if (close == std::string_view::npos) {
      diagnostics.error(file, line.number,
                        columnOf(line.text, rest) + static_cast<int>(rest.size()),
                        "expected `] : PROB` after the right-hand side");
      continue;
    }
    const std::string_view rhsText = rest.substr(0, close);
    const std::string_view probabilityText =
        trim(rest.substr(close + kProbabilitySeparator.size()));
    const int probabilityColumn = columnOf(line.text, probabilityText);
    const std::optional<double> probability = parseNumber(probabilityText);
    if (!probability) {
      diagnostics.error(file, line.number, probabilityColumn,
                        "expected a probability (a decimal or scientific number), found \"" +
                            std::string(probabilityText) + "\"");
      continue;
    }

    // Validate the whole line before interning anything, so a bad line leaves no symbols.
    std::vector<std::string_view> rhsSymbols;
    bool rhsOk = true;
    std::size_t pos = 0;
    while (pos < rhsText.size()) {
      std::size_t end = rhsText.find(' ', pos);
      if (end == std::string_view::npos) end = rhsText.size();
      const std::string_view symbol = rhsText.substr(pos, end - pos);
      pos = end + 1;
      if (symbol.empty()) continue;  // tolerate double spaces
      if (symbol == "_") {
        diagnostics.error(file, line.number, columnOf(line.text, symbol),
                          "terminal `_` has no word after the underscore");
        rhsOk = false;
        break;
      }
      rhsSymbols.push_back(symbol);
    }
    if (!rhsOk) continue;
    if (rhsSymbols.empty()) {
      diagnostics.error(file, line.number, columnOf(line.text, rest),
                        "empty right-hand side: the Earleyx format has no ε-rules (use the NLTK "
                        "format, `X -> [p]`)");
      continue;
    }
    Rule rule;
    rule.sourceLine = line.number;
    rule.probability = *probability;
    rule.prior = prior;
    rule.lhs = grammar.symbols().intern(head, SymbolKind::Nonterminal);
    for (std::string_view symbol : rhsSymbols) {
      rule.rhs.push_back(symbol.front() == '_'
                             ? grammar.symbols().intern(symbol.substr(1), SymbolKind::Terminal)
                             : grammar.symbols().intern(symbol, SymbolKind::Nonterminal));
    }
    sink.add(std::move(rule), probabilityColumn, priorColumn);
  }
  if (blankLines > 0) {
    diagnostics.warning(
        file, firstBlankLine, 0,
        std::to_string(blankLines) + " blank line(s) skipped (Earleyx itself rejects blank lines)");
  }
}

// ---------------------------------------------------------------------------------------------
// NLTK style

enum class TokenKind { Arrow, Bar, Terminal, Nonterminal, Annotation, Error };

struct Token {
  TokenKind kind;
  std::string text;  // unescaped symbol, or the annotation's inside, or the error message
  int column;        // 1-based
};

// Tokenises one line; stops at a `#` comment outside quotes.
std::vector<Token> tokenizeNltk(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  const auto column = [](std::size_t at) { return static_cast<int>(at) + 1; };
  while (i < line.size()) {
    const char c = line[i];
    if (isSpace(c)) {
      ++i;
      continue;
    }
    if (c == '#') break;
    if (c == '-' && i + 1 < line.size() && line[i + 1] == '>') {
      tokens.push_back({TokenKind::Arrow, "->", column(i)});
      i += 2;
      continue;
    }
    if (c == '|') {
      tokens.push_back({TokenKind::Bar, "|", column(i)});
      ++i;
      continue;
    }
    if (c == '[') {
      const std::size_t close = line.find(']', i);
      if (close == std::string_view::npos) {
        tokens.push_back({TokenKind::Error, "expected `]` to close the probability", column(i)});
        return tokens;
      }
      tokens.push_back(
          {TokenKind::Annotation, std::string(line.substr(i + 1, close - i - 1)), column(i)});
      i = close + 1;
      continue;
    }
    if (c == '\'' || c == '"') {
      const std::size_t start = i;
      std::string word;
      ++i;
      bool closed = false;
      while (i < line.size()) {
        if (line[i] == '\\' && i + 1 < line.size()) {
          word += line[i + 1];
          i += 2;
        } else if (line[i] == c) {
          closed = true;
          ++i;
          break;
        } else {
          word += line[i++];
        }
      }
      if (!closed) {
        tokens.push_back({TokenKind::Error,
                          std::string("expected a closing ") + c + " to end the terminal",
                          column(start)});
        return tokens;
      }
      if (word.empty()) {
        tokens.push_back(
            {TokenKind::Error, "empty terminal ''; write an ε-rule as `X -> [p]`", column(start)});
        return tokens;
      }
      tokens.push_back({TokenKind::Terminal, std::move(word), column(start)});
      continue;
    }
    // A bare nonterminal; backslash escapes any character (for names such as \'\' or \#).
    const std::size_t start = i;
    std::string name;
    while (i < line.size()) {
      const char d = line[i];
      if (d == '\\' && i + 1 < line.size()) {
        name += line[i + 1];
        i += 2;
        continue;
      }
      if (isSpace(d) || d == '|' || d == '[' || d == '\'' || d == '"' || d == '#') break;
      if (d == '-' && i + 1 < line.size() && line[i + 1] == '>') break;
      name += d;
      ++i;
    }
    tokens.push_back({TokenKind::Nonterminal, std::move(name), column(start)});
  }
  return tokens;
}

// "0.5" or "0.5; prior=0.1" (spaces allowed).
bool parseAnnotation(std::string_view inside, double* probability, std::optional<double>* prior,
                     std::string* message) {
  std::string_view probabilityText = inside;
  std::string_view priorText;
  if (const std::size_t semi = inside.find(';'); semi != std::string_view::npos) {
    probabilityText = inside.substr(0, semi);
    priorText = trim(inside.substr(semi + 1));
    constexpr std::string_view kPriorKey = "prior";
    if (priorText.substr(0, kPriorKey.size()) != kPriorKey) {
      *message = "expected `prior=NUMBER` after `;` in \"[" + std::string(inside) + "]\"";
      return false;
    }
    priorText = trim(priorText.substr(kPriorKey.size()));
    if (priorText.empty() || priorText.front() != '=') {
      *message = "expected `=` after `prior` in \"[" + std::string(inside) + "]\"";
      return false;
    }
    priorText = trim(priorText.substr(1));
  }
  const auto p = parseNumber(trim(probabilityText));
  if (!p) {
    *message =
        "expected a probability inside [...], found \"" + std::string(trim(probabilityText)) + "\"";
    return false;
  }
  *probability = *p;
  if (!priorText.empty()) {
    const auto a = parseNumber(priorText);
    if (!a) {
      *message = "expected a number after `prior=`, found \"" + std::string(priorText) + "\"";
      return false;
    }
    *prior = *a;
  }
  return true;
}

void readNltk(std::string_view text, const std::string& file, GrammarLoad& load,
              std::string* startDirective) {
  Grammar& grammar = load.grammar;
  Diagnostics& diagnostics = load.diagnostics;

  struct PendingRule {
    Rule rule;
    bool hasProbability;
    int probabilityColumn;
    int column;
  };
  std::vector<PendingRule> pending;
  SymbolId currentLhs = kNoSymbol;

  for (const Line& line : splitLines(text)) {
    const std::string_view content = trim(line.text);
    if (content.empty() || content.front() == '#') continue;
    if (content.front() == '%') {
      constexpr std::string_view kStart = "%start";
      if (content.substr(0, kStart.size()) == kStart &&
          (content.size() == kStart.size() || isSpace(content[kStart.size()]))) {
        // The symbol is read as a bare nonterminal on a rule line is (backslash escapes), from
        // the untrimmed line, so that an escaped trailing space survives.
        const auto after =
            static_cast<std::size_t>(content.data() - line.text.data()) + kStart.size();
        const std::vector<Token> tokens = tokenizeNltk(line.text.substr(after));
        if (tokens.size() != 1 || tokens[0].kind != TokenKind::Nonterminal ||
            tokens[0].text.empty()) {
          diagnostics.error(file, line.number, columnOf(line.text, content),
                            "expected one symbol after %start (escape spaces, quotes, `#`, `|` "
                            "and `[` with a backslash)");
        } else {
          *startDirective = tokens[0].text;
        }
      } else {
        diagnostics.error(file, line.number, columnOf(line.text, content),
                          "unknown directive; expected `%start SYMBOL`");
      }
      continue;
    }
    const std::vector<Token> tokens = tokenizeNltk(line.text);
    if (tokens.empty()) continue;
    std::size_t i = 0;
    if (tokens[0].kind == TokenKind::Bar) {
      if (currentLhs == kNoSymbol) {
        diagnostics.error(file, line.number, tokens[0].column,
                          "a continuation line `| ...` needs a rule `LHS -> ...` before it");
        continue;
      }
      i = 1;
    } else {
      if (tokens.size() < 2 || tokens[0].kind != TokenKind::Nonterminal ||
          tokens[1].kind != TokenKind::Arrow) {
        const Token& bad =
            tokens[0].kind == TokenKind::Nonterminal && tokens.size() > 1 ? tokens[1] : tokens[0];
        diagnostics.error(file, line.number, bad.column,
                          bad.kind == TokenKind::Error
                              ? bad.text
                              : "expected `LHS -> RHS [probability]`, found \"" +
                                    std::string(content.substr(0, 60)) + "\"");
        currentLhs = kNoSymbol;
        continue;
      }
      currentLhs = grammar.symbols().intern(tokens[0].text, SymbolKind::Nonterminal);
      i = 2;
    }
    // Alternatives separated by `|`.
    PendingRule alternative{Rule{currentLhs, {}, 0.0, std::nullopt, line.number}, false, 0,
                            i < tokens.size() ? tokens[i].column : 0};
    bool lineOk = true;
    const auto finish = [&](int column) {
      alternative.column = alternative.column ? alternative.column : column;
      pending.push_back(alternative);
      alternative = PendingRule{Rule{currentLhs, {}, 0.0, std::nullopt, line.number}, false, 0, 0};
    };
    for (; i < tokens.size() && lineOk; ++i) {
      const Token& token = tokens[i];
      switch (token.kind) {
        case TokenKind::Error:
          diagnostics.error(file, line.number, token.column, token.text);
          lineOk = false;
          break;
        case TokenKind::Arrow:
          diagnostics.error(file, line.number, token.column,
                            "unexpected `->`; one rule per line (or `|` alternatives)");
          lineOk = false;
          break;
        case TokenKind::Bar: finish(token.column); break;
        case TokenKind::Terminal:
        case TokenKind::Nonterminal:
          if (alternative.hasProbability) {
            diagnostics.error(file, line.number, token.column,
                              "expected `|` or the end of the line after the probability");
            lineOk = false;
            break;
          }
          if (alternative.column == 0) alternative.column = token.column;
          alternative.rule.rhs.push_back(grammar.symbols().intern(
              token.text,
              token.kind == TokenKind::Terminal ? SymbolKind::Terminal : SymbolKind::Nonterminal));
          break;
        case TokenKind::Annotation: {
          if (alternative.hasProbability) {
            diagnostics.error(file, line.number, token.column, "two probabilities for one rule");
            lineOk = false;
            break;
          }
          std::string message;
          if (!parseAnnotation(token.text, &alternative.rule.probability, &alternative.rule.prior,
                               &message)) {
            diagnostics.error(file, line.number, token.column, message);
            lineOk = false;
            break;
          }
          alternative.hasProbability = true;
          alternative.probabilityColumn = token.column;
          break;
        }
      }
    }
    if (!lineOk) continue;
    finish(static_cast<int>(line.text.size()) + 1);
  }

  // Either every rule has a probability (a PCFG), or none has (a CFG, read as uniform).
  const auto withProbability = std::count_if(pending.begin(), pending.end(),
                                             [](const PendingRule& p) { return p.hasProbability; });
  const bool uniform = withProbability == 0 && !pending.empty();
  if (uniform) {
    std::vector<int> alternatives(grammar.symbols().size(), 0);
    for (const PendingRule& p : pending) ++alternatives[static_cast<std::size_t>(p.rule.lhs)];
    for (PendingRule& p : pending)
      p.rule.probability = 1.0 / alternatives[static_cast<std::size_t>(p.rule.lhs)];
    diagnostics.note(file, 0, 0,
                     "no rule has a probability: read as a CFG with uniform probabilities per "
                     "left-hand side");
  }
  RuleSink sink(grammar, diagnostics, file);
  for (PendingRule& p : pending) {
    if (!uniform && !p.hasProbability) {
      diagnostics.error(file, p.rule.sourceLine, p.column,
                        "expected a probability `[p]` at the end of this alternative (other rules "
                        "have one)");
      continue;
    }
    sink.add(std::move(p.rule), p.probabilityColumn, p.probabilityColumn);
  }
}

// ---------------------------------------------------------------------------------------------
// Start symbol

}  // namespace

std::vector<SymbolId> startSymbolCandidates(const Grammar& grammar) {
  // Nonterminals never used on the right-hand side of another symbol's rule.
  std::vector<bool> usedElsewhere(grammar.symbols().size(), false);
  for (const Rule& r : grammar.rules())
    for (SymbolId s : r.rhs)
      if (s != r.lhs) usedElsewhere[static_cast<std::size_t>(s)] = true;
  std::vector<SymbolId> candidates;
  for (SymbolId s : grammar.lhsSymbols())
    if (!usedElsewhere[static_cast<std::size_t>(s)]) candidates.push_back(s);
  return candidates;
}

namespace {

void resolveStart(GrammarLoad& load, const std::string& file, const std::string& requested,
                  const std::string& startDirective, const std::string& chooseRootHint) {
  Grammar& grammar = load.grammar;
  const auto hasRules = [&](const std::string& name) -> std::optional<SymbolId> {
    const auto id = grammar.symbols().findNonterminal(name);
    if (id && !grammar.rulesWithLhs(*id).empty()) return id;
    return std::nullopt;
  };
  if (!requested.empty() || !startDirective.empty()) {
    const std::string& name = requested.empty() ? startDirective : requested;
    if (const auto id = hasRules(name)) {
      grammar.setStart(*id);
    } else {
      load.diagnostics.error(file, 0, 0,
                             "start symbol '" + name + "' has no rules in this grammar" +
                                 (requested.empty() ? " (from %start)" : " (from --root)"));
    }
    return;
  }
  if (grammar.lhsSymbols().empty()) {
    load.diagnostics.error(file, 0, 0, "the grammar has no rules");
    return;
  }
  if (load.format == GrammarFormat::Nltk) {
    grammar.setStart(grammar.lhsSymbols().front());
    return;
  }
  if (const auto root = hasRules("ROOT")) {
    grammar.setStart(*root);
    return;
  }
  const std::vector<SymbolId> candidates = startSymbolCandidates(grammar);
  if (candidates.size() == 1) {
    grammar.setStart(candidates.front());
    load.diagnostics.note(file, 0, 0,
                          "no ROOT symbol; using '" + grammar.symbols().name(candidates.front()) +
                              "', the only symbol not used by another rule (to choose another, " +
                              chooseRootHint + ")");
    return;
  }
  std::string names;
  for (std::size_t k = 0; k < candidates.size() && k < 5; ++k)
    names += (k ? ", " : "") + grammar.symbols().name(candidates[k]);
  load.diagnostics.error(file, 0, 0,
                         "no start symbol: the grammar has no ROOT and " +
                             std::to_string(candidates.size()) + " candidates" +
                             (names.empty() ? "" : " (" + names + ")") + "; " + chooseRootHint);
}

bool symbolHasSpace(const std::string& name) {
  return std::any_of(name.begin(), name.end(), isSpace) || name.find('\n') != std::string::npos;
}

// Why a symbol cannot be written in the Earleyx format, or "" when it can.
std::string earleyxNameProblem(const std::string& name, bool terminal) {
  if (name.empty()) return "an empty symbol name";
  if (symbolHasSpace(name)) return "symbol '" + name + "' holds white space";
  // On a file's first line it would be read back as the file's byte-order mark, and skipped.
  if (name.rfind(text::kByteOrderMark, 0) == 0)
    return "symbol '" + name + "' begins with a byte-order mark (U+FEFF)";
  if (!terminal && name.front() == '_')
    return "nonterminal '" + name + "' starts with `_`, which marks terminals";
  if (name.find("->[") != std::string::npos || name.find("] : ") != std::string::npos)
    return "symbol '" + name + "' holds the rule separators `->[` or `] : `";
  return "";
}

std::string escapeNltkNonterminal(const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool special = c == '\\' || c == '|' || c == '[' || c == '\'' || c == '"' || c == '#' ||
                         isSpace(c) || (c == '%' && i == 0) ||
                         (c == '-' && i + 1 < name.size() && name[i + 1] == '>');
    if (special) out += '\\';
    out += c;
  }
  return out;
}

// Single quotes, or double quotes for words with a single quote (NLTK's own reader has no
// escapes); backslash escapes only when a word holds both quotes or a backslash.
std::string quoteNltkTerminal(const std::string& word) {
  const char quote =
      word.find('\'') != std::string::npos && word.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, quote);
  for (char c : word) {
    if (c == quote || c == '\\') out += '\\';
    out += c;
  }
  out += quote;
  return out;
}

// NLTK reads probabilities made of digits and dots only: fixed notation where it stays short
// and exact, scientific otherwise (which only this reader understands).
std::string formatNltkNumber(double value) {
  if (value == 0.0 || (std::abs(value) >= 1e-12 && std::abs(value) < 1e12)) {
    char buffer[64];
    const auto [end, ec] =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
    if (ec == std::errc()) return std::string(buffer, end);
  }
  return formatProbability(value);
}

}  // namespace

// -----------------------------------------------------------------------------------------------

const char* grammarFormatName(GrammarFormat format) {
  switch (format) {
    case GrammarFormat::Auto: return "auto";
    case GrammarFormat::Earleyx: return "earleyx";
    case GrammarFormat::Nltk: return "nltk";
  }
  return "auto";
}

std::optional<GrammarFormat> parseGrammarFormat(std::string_view name) {
  if (name == "auto") return GrammarFormat::Auto;
  if (name == "earleyx") return GrammarFormat::Earleyx;
  if (name == "nltk") return GrammarFormat::Nltk;
  return std::nullopt;
}

GrammarFormat detectGrammarFormat(std::string_view text, std::string_view fileName) {
  const auto endsWith = [&](std::string_view suffix) {
    return fileName.size() >= suffix.size() &&
           fileName.substr(fileName.size() - suffix.size()) == suffix;
  };
  for (std::string_view s : {".cfg", ".pcfg", ".nltk", ".fcfg"})
    if (endsWith(s)) return GrammarFormat::Nltk;
  for (std::string_view s : {".grammar", ".rules", ".iogrammar", ".uniform"})
    if (endsWith(s)) return GrammarFormat::Earleyx;
  for (const Line& line : splitLines(text)) {
    const std::string_view content = trim(line.text);
    if (content.empty()) continue;
    if (content.find("->[") != std::string_view::npos) return GrammarFormat::Earleyx;
    if (content.front() == '#' || content.front() == '%') continue;
    return GrammarFormat::Nltk;
  }
  return GrammarFormat::Nltk;
}

GrammarLoad readGrammar(std::string_view text, const std::string& sourceName,
                        const GrammarReadOptions& options) {
  GrammarLoad load;
  load.format = options.format == GrammarFormat::Auto ? detectGrammarFormat(text, sourceName)
                                                      : options.format;
  std::string startDirective;
  if (load.format == GrammarFormat::Earleyx) {
    readEarleyx(text, sourceName, load);
  } else {
    readNltk(text, sourceName, load, &startDirective);
  }
  resolveStart(load, sourceName, options.root, startDirective, options.chooseRootHint);
  if (options.runChecks) load.diagnostics.append(checkGrammar(load.grammar, sourceName));
  return load;
}

GrammarLoad loadGrammarFile(const std::string& path, const GrammarReadOptions& options) {
  return text::loadTextFile<GrammarLoad>(path,
                                         [&](std::string_view content, const std::string& source) {
                                           return readGrammar(content, source, options);
                                         });
}

bool writeEarleyx(const Grammar& grammar, std::ostream& out, std::string* error) {
  const SymbolTable& symbols = grammar.symbols();
  std::string line;
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    const Rule& r = grammar.rule(id);
    if (r.rhs.empty()) {
      if (error)
        *error = "rule " + grammar.ruleText(id) +
                 " is an ε-rule, which the Earleyx "
                 "format cannot hold; save as NLTK instead";
      return false;
    }
    line.clear();
    if (r.prior) {
      line += formatProbability(*r.prior);
      line += ' ';
    }
    if (const std::string problem = earleyxNameProblem(symbols.name(r.lhs), false);
        !problem.empty()) {
      if (error) *error = "cannot write " + problem + " in the Earleyx format";
      return false;
    }
    line += symbols.name(r.lhs);
    line += "->[";
    for (std::size_t k = 0; k < r.rhs.size(); ++k) {
      const std::string& name = symbols.name(r.rhs[k]);
      if (const std::string problem = earleyxNameProblem(name, symbols.isTerminal(r.rhs[k]));
          !problem.empty()) {
        if (error) *error = "cannot write " + problem + " in the Earleyx format";
        return false;
      }
      if (k) line += ' ';
      if (symbols.isTerminal(r.rhs[k])) line += '_';
      line += name;
    }
    line += "] : ";
    line += formatProbability(r.probability);
    line += '\n';
    out << line;
  }
  return out.good();
}

void writeNltk(const Grammar& grammar, std::ostream& out) {
  const SymbolTable& symbols = grammar.symbols();
  out << "# PCFG written by Grammar Workbench (NLTK style; see docs/formats.md)\n";
  if (grammar.start())
    out << "%start " << escapeNltkNonterminal(symbols.name(*grammar.start())) << '\n';
  std::string line;
  for (const Rule& r : grammar.rules()) {
    line = escapeNltkNonterminal(symbols.name(r.lhs));
    line += " ->";
    for (SymbolId s : r.rhs) {
      line += ' ';
      line += symbols.isTerminal(s) ? quoteNltkTerminal(symbols.name(s))
                                    : escapeNltkNonterminal(symbols.name(s));
    }
    line += " [";
    line += formatNltkNumber(r.probability);
    if (r.prior) {
      line += "; prior=";
      line += formatNltkNumber(*r.prior);
    }
    line += "]\n";
    out << line;
  }
}

bool saveGrammarFile(const Grammar& grammar, const std::string& path, GrammarFormat format,
                     std::string* error) {
  if (format == GrammarFormat::Auto) format = detectGrammarFormat({}, path);
  std::string writeError;
  const bool ok = writeFileAtomically(
      path,
      [&](std::ostream& out) {
        if (format == GrammarFormat::Earleyx) return writeEarleyx(grammar, out, &writeError);
        writeNltk(grammar, out);
        return out.good();
      },
      &writeError);
  if (!ok && error) *error = writeError;
  return ok;
}

}  // namespace gwb
