#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "common/text_lines.h"
#include "gwb/ds/ds_grammar.h"

namespace gwb::ds {

// ---------------------------------------------------------------------------------------
// DsGrammar

std::string LexicalEntry::label() const {
  if (templateName.empty()) {
    std::ostringstream out;
    out << word << " [p=" << probability << "]";
    return out.str();
  }
  std::string out = word + ": " + templateName + "(";
  for (std::size_t i = 0; i < arguments.size(); ++i) out += (i > 0 ? ", " : "") + arguments[i];
  return out + ")";
}

const std::vector<LexicalEntry>& DsGrammar::entries(const std::string& word) const {
  static const std::vector<LexicalEntry> kNone;
  auto it = lexicon_.find(word);
  return it == lexicon_.end() ? kNone : it->second;
}

void DsGrammar::addEntry(LexicalEntry entry) {
  std::vector<LexicalEntry>& list = lexicon_[entry.word];
  list.push_back(std::move(entry));
}

std::size_t DsGrammar::entryCount() const {
  std::size_t n = 0;
  for (const auto& [word, list] : lexicon_) n += list.size();
  return n;
}

std::vector<const DsAction*> DsGrammar::nonOptionalActions() const {
  std::vector<const DsAction*> out;
  for (const DsAction& a : computational)
    if (!a.optional && !a.hypothesis) out.push_back(&a);
  return out;
}

std::vector<const DsAction*> DsGrammar::optionalActions() const {
  std::vector<const DsAction*> out;
  for (const DsAction& a : computational)
    if (a.optional && !a.hypothesis) out.push_back(&a);
  return out;
}

const DsAction* DsGrammar::findAction(const std::string& name) const {
  for (const DsAction& a : computational)
    if (a.name == name) return &a;
  return nullptr;
}

// ---------------------------------------------------------------------------------------
// Lines, comments and blocks

namespace {

struct SourceLine {
  int number = 0;         // 1-based
  std::string raw;        // the line as read (without the line break)
  std::size_t begin = 0;  // where the uncommented text starts in `raw`
  std::string text;       // uncommented, trimmed
  bool blank = false;     // an empty line: ends a block
};

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Visual column (tabs to multiples of 8) of byte `offset` in `raw`, 0-based.
int visualColumn(const std::string& raw, std::size_t offset) {
  int col = 0;
  for (std::size_t i = 0; i < offset && i < raw.size(); ++i)
    col = raw[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
  return col;
}

// Replaces DyLan comments in `line` by spaces (keeping offsets): `//` to the end of the line,
// `//*` to the next `*//`, which may be lines later (`inBlock` carries that across lines).
void blankComments(std::string& line, bool& inBlock) {
  std::size_t i = 0;
  while (i < line.size()) {
    if (inBlock) {
      const std::size_t close = line.find("*//", i);
      const std::size_t stop = close == std::string::npos ? line.size() : close + 3;
      std::fill(line.begin() + static_cast<std::ptrdiff_t>(i),
                line.begin() + static_cast<std::ptrdiff_t>(stop), ' ');
      if (close == std::string::npos) return;
      inBlock = false;
      i = stop;
    } else if (line.compare(i, 3, "//*") == 0) {
      inBlock = true;
    } else if (line.compare(i, 2, "//") == 0) {
      std::fill(line.begin() + static_cast<std::ptrdiff_t>(i), line.end(), ' ');
      return;
    } else {
      ++i;
    }
  }
}

// Splits text into lines and removes DyLan comments: `//` to the end of the line, `//*` to
// the next `*//` (possibly lines later). A line that only held a comment is dropped (it does
// not end a block); an empty line is kept as a block separator, as in DyLan. A block comment
// that is never closed, which would hide the rest of the file, and a UTF-16 text are errors in
// `diagnostics` (naming `file`).
std::vector<SourceLine> readLines(std::string_view text, const std::string& file,
                                  Diagnostics& diagnostics) {
  std::vector<SourceLine> out;
  if (text::isUtf16(text)) {
    diagnostics.error(file, 1, 1, text::kUtf16Message);
    return out;
  }
  bool inBlock = false;
  int blockOpenedOn = 0;
  const std::vector<text::Line> lines = text::splitLines(text);
  out.reserve(lines.size());  // a SourceLine is large: growing the vector moved each about twice
  for (const text::Line& numbered : lines) {
    const std::string_view raw = numbered.text;
    SourceLine line;
    line.number = numbered.number;
    std::size_t first = 0;
    while (first < raw.size() && isSpace(raw[first])) ++first;
    if (first == raw.size()) {
      line.blank = true;
      line.raw = std::string(raw);
      out.push_back(std::move(line));
      continue;
    }
    // One copy of the line: comments are blanked in it, then it becomes `raw` (cut after its
    // last non-space), and `text` is its uncommented, trimmed part.
    std::string work(raw);
    const bool wasInBlock = inBlock;
    if (inBlock || work.find('/') != std::string::npos) blankComments(work, inBlock);
    if (inBlock && !wasInBlock) blockOpenedOn = line.number;
    std::size_t b = 0;
    while (b < work.size() && isSpace(work[b])) ++b;
    std::size_t e = work.size();
    while (e > b && isSpace(work[e - 1])) --e;
    if (b == e) continue;  // comment only
    line.begin = b;
    line.text = work.substr(b, e - b);
    work.resize(e);
    line.raw = std::move(work);  // comments blanked out, indentation kept
    out.push_back(std::move(line));
  }
  if (inBlock)
    diagnostics.error(file, blockOpenedOn, 0,
                      "the block comment `//*` opened on this line is never closed by `*//`; it "
                      "hides the rest of the file");
  return out;
}

// Groups lines into blocks separated by blank lines.
std::vector<std::vector<SourceLine>> readBlocks(std::string_view text, const std::string& file,
                                                Diagnostics& diagnostics) {
  std::vector<std::vector<SourceLine>> blocks;
  std::vector<SourceLine> current;
  for (SourceLine& line : readLines(text, file, diagnostics)) {
    if (line.blank) {
      if (!current.empty()) blocks.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(std::move(line));
    }
  }
  if (!current.empty()) blocks.push_back(std::move(current));
  return blocks;
}

// The line with new text in place of its old, same indentation.
void replaceText(SourceLine& line, std::string text) {
  line.raw = line.raw.substr(0, line.begin) + text;
  line.text = std::move(text);
}

// Replaces whole-word occurrences of each parameter by its value.
std::string substituteParameters(const std::string& text, const std::vector<std::string>& params,
                                 const std::vector<std::string>& values) {
  auto wordChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  };
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    bool replaced = false;
    if (!wordChar(text[i]) || i == 0 || !wordChar(text[i - 1])) {
      for (std::size_t p = 0; p < params.size() && p < values.size(); ++p) {
        const std::string& name = params[p];
        if (name.empty()) continue;  // matches everywhere; readers reject it
        if (text.compare(i, name.size(), name) == 0 &&
            (i + name.size() == text.size() || !wordChar(text[i + name.size()]))) {
          out += values[p];
          i += name.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

std::vector<std::string> splitTopLevel(std::string_view s, char separator) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == separator && depth == 0) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  for (std::string& p : parts) {
    std::size_t b = 0;
    while (b < p.size() && isSpace(p[b])) ++b;
    std::size_t e = p.size();
    while (e > b && isSpace(p[e - 1])) --e;
    p = p.substr(b, e - b);
  }
  return parts;
}

// ---------------------------------------------------------------------------------------
// Action bodies

enum class Keyword { None, If, Then, Else };

// A line split at its leading IF/THEN/ELSE keywords: "ELSE IF ?ty(t)" gives an ELSE line and
// an IF line, each with the column its keyword starts at.
struct BodyLine {
  Keyword keyword = Keyword::None;
  int column = 0;      // visual column of the keyword (or of the text)
  std::string text;    // what follows the keyword
  int line = 0;        // source line
  int textColumn = 1;  // 1-based byte column of `text`, for diagnostics
};

// The IF/THEN/ELSE keyword (and its length) at byte `at` of `raw`, before `end`.
std::pair<Keyword, std::size_t> keywordAt(const std::string& raw, std::size_t at, std::size_t end) {
  for (auto [word, keyword] : {std::pair<std::string_view, Keyword>{"IF", Keyword::If},
                               {"THEN", Keyword::Then},
                               {"ELSE", Keyword::Else}}) {
    const std::size_t n = word.size();
    if (at + n > end) continue;
    bool match = true;
    for (std::size_t i = 0; match && i < n; ++i)
      match = std::toupper(static_cast<unsigned char>(raw[at + i])) == word[i];
    if (match && (at + n == end || isSpace(raw[at + n]))) return {keyword, n};
  }
  return {Keyword::None, 0};
}

std::vector<BodyLine> splitKeywords(const std::vector<SourceLine>& lines) {
  std::vector<BodyLine> out;
  for (const SourceLine& l : lines) {
    std::size_t at = l.begin;
    const std::size_t end = l.begin + l.text.size();
    auto [keyword, length] = keywordAt(l.raw, at, end);
    if (keyword == Keyword::None) {
      BodyLine b;
      b.column = visualColumn(l.raw, l.begin);
      b.line = l.number;
      b.text = l.text;
      b.textColumn = static_cast<int>(l.begin) + 1;
      out.push_back(b);
      continue;
    }
    // Each keyword starts a line of its own (ELSE IF ... gives two), the rest is text.
    while (keyword != Keyword::None) {
      BodyLine b;
      b.keyword = keyword;
      b.column = visualColumn(l.raw, at);
      b.line = l.number;
      at += length;
      while (at < end && isSpace(l.raw[at])) ++at;
      b.textColumn = static_cast<int>(at) + 1;
      std::tie(keyword, length) = keywordAt(l.raw, at, end);
      if (keyword == Keyword::None) b.text = l.raw.substr(at, end - at);
      out.push_back(b);
    }
  }
  return out;
}

struct Macro {
  std::string name;
  std::vector<std::string> parameters;
  std::vector<SourceLine> lines;
  std::string file;
};

// How many macro body lines one action body may expand in all. Macros calling macros can
// grow a body exponentially in the size of lexical-macros.txt (each of 16 macros calling the
// next twice is 65,536 copies); DyLan's grammars expand fewer than 20.
constexpr std::size_t kMaxExpandedMacroLines = 1000;

// The macro expansions of one action body, shared by the nested expansions within it.
struct MacroExpansion {
  std::size_t lines = 0;                // macro body lines expanded so far
  bool tooLarge = false;                // kMaxExpandedMacroLines was reached
  std::vector<const Macro*> expanding;  // the macros being expanded, outermost first
};

// Shared state of one grammar's reading: the macros, where to report, and why the current
// body could not be built.
struct ReadContext {
  std::string file;
  Diagnostics* diagnostics = nullptr;
  const std::map<std::string, Macro>* macros = nullptr;
  int macroDepth = 0;
  std::string missingMacro;             // set when a body calls a macro that does not exist
  MacroExpansion* expansion = nullptr;  // set by parseBody()
};

class BodyParser {
 public:
  BodyParser(ReadContext& context, std::vector<BodyLine> lines)
      : ctx_(context), lines_(std::move(lines)) {}

  std::vector<Effect> parseBody() {
    std::vector<Effect> effects;
    std::size_t i = 0;
    while (i < lines_.size()) {
      const BodyLine& l = lines_[i];
      if (l.keyword == Keyword::If) {
        Effect e;
        e.kind = EffectKind::IfThenElse;
        e.line = l.line;
        e.branch = parseIte(i, 0);
        effects.push_back(std::move(e));
      } else if (l.keyword == Keyword::None) {
        parseEffect(l, effects);
        ++i;
      } else {
        error(l.line, l.textColumn,
              std::string("expected IF before ") + (l.keyword == Keyword::Then ? "THEN" : "ELSE"));
        ++i;
      }
    }
    return effects;
  }

 private:
  enum class Section { If, Then, Else };

  void error(int line, int column, std::string message) {
    ctx_.diagnostics->error(ctx_.file, line, column, std::move(message));
  }

  std::shared_ptr<IfThenElse> parseIte(std::size_t& i, int depth) {
    auto ite = std::make_shared<IfThenElse>();
    const int ifColumn = lines_[i].column;
    ite->line = lines_[i].line;
    Section section = Section::If;
    addToSection(lines_[i], section, *ite);
    ++i;
    while (i < lines_.size()) {
      const BodyLine& l = lines_[i];
      if (l.keyword == Keyword::None) {
        if (depth > 0 && l.column < ifColumn) break;
        addToSection(l, section, *ite);
        ++i;
        continue;
      }
      if (l.column < ifColumn) break;
      if (l.keyword == Keyword::If) {
        if (section == Section::If) {
          error(l.line, l.textColumn, "expected THEN before another IF");
          ++i;
          continue;
        }
        if (l.column > ifColumn || section == Section::Then) {
          if (depth + 1 > 32) {
            error(l.line, l.textColumn, "IF blocks nested too deeply");
            ++i;
            continue;
          }
          Effect e;
          e.kind = EffectKind::IfThenElse;
          e.line = l.line;
          e.branch = parseIte(i, depth + 1);
          (section == Section::Then ? ite->thenEffects : ite->elseEffects).push_back(std::move(e));
          continue;
        }
        break;  // the next block of a sequence
      }
      if (l.keyword == Keyword::Then) {
        if (section != Section::If) {
          if (depth > 0) break;
          error(l.line, l.textColumn, "unexpected THEN: this IF block already has one");
        }
        section = Section::Then;
      } else {
        if (section == Section::Else) {
          if (depth > 0) break;
          error(l.line, l.textColumn, "unexpected ELSE: this IF block already has one");
        } else if (section == Section::If) {
          error(l.line, l.textColumn, "expected THEN before ELSE");
        }
        section = Section::Else;
      }
      addToSection(l, section, *ite);
      ++i;
    }
    if (section == Section::If) error(ite->line, 1, "expected THEN after the IF conditions");
    return ite;
  }

  void addToSection(const BodyLine& l, Section section, IfThenElse& ite) {
    if (l.text.empty()) return;
    if (section == Section::If) {
      LabelParseError e;
      LabelPtr label = parseLabel(l.text, &e);
      if (!label) {
        error(l.line, l.textColumn + static_cast<int>(e.offset), e.message);
        return;
      }
      ite.conditions.push_back(std::move(label));
      return;
    }
    parseEffect(l, section == Section::Then ? ite.thenEffects : ite.elseEffects);
  }

  // The text between the outermost parentheses of `name(...)`, or false.
  static bool argument(const std::string& text, std::size_t nameLength, std::string* arg) {
    std::size_t open = nameLength;
    while (open < text.size() && isSpace(text[open])) ++open;
    if (open >= text.size() || text[open] != '(' || text.back() != ')') return false;
    *arg = text.substr(open + 1, text.size() - open - 2);
    return true;
  }

  static bool startsWithWord(const std::string& text, const char* word) {
    const std::size_t n = std::char_traits<char>::length(word);
    if (text.size() < n) return false;
    for (std::size_t i = 0; i < n; ++i)
      if (std::tolower(static_cast<unsigned char>(text[i])) != word[i]) return false;
    return text.size() == n || !(std::isalnum(static_cast<unsigned char>(text[n])) != 0 ||
                                 text[n] == '_' || text[n] == '-');
  }

  void parseEffect(const BodyLine& l, std::vector<Effect>& out) {
    const std::string& t = l.text;
    Effect e;
    e.line = l.line;
    const int col = l.textColumn;
    std::string arg;
    auto needArg = [&](const char* name) {
      if (argument(t, std::char_traits<char>::length(name), &arg)) return true;
      error(l.line, col, std::string("expected '") + name + "(...)'");
      return false;
    };
    auto modality = [&](const std::string& text, Modality* m) {
      std::string message;
      auto parsed = Modality::parse(text, &message);
      if (!parsed) {
        error(l.line, col, message);
        return false;
      }
      *m = *parsed;
      return true;
    };
    auto label = [&](LabelPtr* result) {
      LabelParseError pe;
      *result = parseLabel(arg, &pe);
      if (!*result) {
        const std::size_t argStart = t.find('(') + 1;
        error(l.line, col + static_cast<int>(argStart + pe.offset), pe.message);
      }
      return *result != nullptr;
    };
    auto formula = [&](FormulaPtr* result) {
      FormulaParseError pe;
      *result = parseFormula(arg, &pe);
      if (!*result) {
        const std::size_t argStart = t.find('(') + 1;
        error(l.line, col + static_cast<int>(argStart + pe.offset), pe.message);
      }
      return *result != nullptr;
    };

    if (startsWithWord(t, "abort")) {
      e.kind = EffectKind::Abort;
    } else if (startsWithWord(t, "do_nothing")) {
      e.kind = EffectKind::DoNothing;
    } else if (startsWithWord(t, "beta-reduce")) {
      e.kind = EffectKind::BetaReduce;
    } else if (startsWithWord(t, "make")) {
      e.kind = EffectKind::Make;
      if (!needArg("make") || !modality(arg, &e.modality)) return;
      if (e.modality.isMeta() || e.modality.ops().size() != 1 || e.modality.ops()[0].up) {
        error(l.line, col,
              "make needs one down operator: make(\\/0), make(\\/1), make(\\/L), "
              "make(\\/*) or make(\\/U)");
        return;
      }
    } else if (startsWithWord(t, "go")) {
      e.kind = EffectKind::Go;
      if (!needArg("go")) return;
      if (arg.size() > 2 && arg.compare(arg.size() - 2, 2, "-1") == 0) {
        e.inverse = true;
        arg.resize(arg.size() - 2);
      }
      if (!modality(arg, &e.modality)) return;
    } else if (startsWithWord(t, "merge")) {
      e.kind = EffectKind::Merge;
      if (!needArg("merge") || !modality(arg, &e.modality)) return;
    } else if (startsWithWord(t, "put")) {
      e.kind = EffectKind::Put;
      if (!needArg("put") || !label(&e.label)) return;
    } else if (startsWithWord(t, "delete")) {
      e.kind = EffectKind::Delete;
      if (!needArg("delete") || !label(&e.label)) return;
    } else if (startsWithWord(t, "ttrput")) {
      e.kind = EffectKind::TtrPut;
      if (!needArg("ttrput") || !formula(&e.formula)) return;
      if (!e.formula->isTtr()) {
        error(l.line, col, "ttrput needs a record type or a function over record types");
        return;
      }
    } else if (startsWithWord(t, "conjoin")) {
      e.kind = EffectKind::Conjoin;
      if (!needArg("conjoin") || !formula(&e.formula)) return;
    } else if (startsWithWord(t, "freshput")) {
      e.kind = EffectKind::FreshPut;
      if (!needArg("freshput")) return;
      e.args = splitTopLevel(arg, ',');
    } else if (startsWithWord(t, "do")) {
      e.kind = EffectKind::Do;
      if (!needArg("do")) return;
      e.args = splitTopLevel(arg, ',');
    } else {
      expandMacro(l, out);
      return;
    }
    out.push_back(std::move(e));
  }

  void expandMacro(const BodyLine& l, std::vector<Effect>& out) {
    const std::string& t = l.text;
    const Macro* macro = nullptr;
    std::vector<std::string> values;
    if (ctx_.macros != nullptr) {
      auto exact = ctx_.macros->find(t);
      if (exact != ctx_.macros->end() && exact->second.parameters.empty()) {
        macro = &exact->second;
      } else {
        const std::size_t open = t.find('(');
        const std::string name = t.substr(0, open);
        auto byName = ctx_.macros->find(name);
        if (byName != ctx_.macros->end() && !byName->second.parameters.empty()) {
          macro = &byName->second;
          if (open != std::string::npos && t.back() == ')')
            values = splitTopLevel(std::string_view(t).substr(open + 1, t.size() - open - 2), ',');
        }
      }
    }
    if (macro == nullptr) {
      const bool looksLikeCall =
          !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) != 0);
      if (looksLikeCall && ctx_.missingMacro.empty()) ctx_.missingMacro = t;
      error(l.line, l.textColumn,
            looksLikeCall ? "unknown effect or macro '" + t +
                                "' (expected make, go, put, delete, ttrput, freshput, beta-reduce, "
                                "merge, conjoin, do_nothing, abort, IF, or a macro of "
                                "lexical-macros.txt)"
                          : "expected an effect, found '" + t + "'");
      return;
    }
    if (ctx_.macroDepth >= 16) {
      error(l.line, l.textColumn, "macros call each other too deeply at '" + t + "'");
      return;
    }
    MacroExpansion& expansion = *ctx_.expansion;
    if (std::find(expansion.expanding.begin(), expansion.expanding.end(), macro) !=
        expansion.expanding.end()) {
      error(l.line, l.textColumn,
            "macro '" + t + "' calls itself; a macro's expansion must not call it again");
      return;
    }
    // Reported once, by parseBody(), not at each call it cuts off.
    if (expansion.tooLarge) return;
    if (expansion.lines + macro->lines.size() > kMaxExpandedMacroLines) {
      expansion.tooLarge = true;
      return;
    }
    expansion.lines += macro->lines.size();
    std::vector<SourceLine> lines = macro->lines;
    for (SourceLine& s : lines)
      replaceText(s, substituteParameters(s.text, macro->parameters, values));
    // Errors inside a macro body are reported at the call.
    Diagnostics local;
    ReadContext inner = ctx_;
    inner.diagnostics = &local;
    ++inner.macroDepth;
    expansion.expanding.push_back(macro);
    BodyParser parser(inner, splitKeywords(lines));
    std::vector<Effect> effects = parser.parseBody();
    expansion.expanding.pop_back();
    if (!inner.missingMacro.empty() && ctx_.missingMacro.empty())
      ctx_.missingMacro = inner.missingMacro;
    for (const Diagnostic& d : local)
      error(l.line, l.textColumn, "in macro '" + t + "': " + d.message);
    for (Effect& e : effects) out.push_back(std::move(e));
  }

  ReadContext& ctx_;
  std::vector<BodyLine> lines_;
};

std::vector<Effect> parseBody(ReadContext& ctx, const std::vector<SourceLine>& lines) {
  MacroExpansion expansion;
  ctx.expansion = &expansion;
  BodyParser parser(ctx, splitKeywords(lines));
  std::vector<Effect> effects = parser.parseBody();
  ctx.expansion = nullptr;
  if (expansion.tooLarge && !lines.empty())
    ctx.diagnostics->error(ctx.file, lines.front().number, 0,
                           "the macros this body calls expand to more than " +
                               std::to_string(kMaxExpandedMacroLines) +
                               " lines (macros calling macros several times each)");
  return effects;
}

// ---------------------------------------------------------------------------------------
// The four files

std::string joinPath(const std::string& dir, const char* name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

void readComputationalActions(const DsGrammarText& text, DsGrammar& grammar,
                              Diagnostics& diagnostics) {
  ReadContext ctx;
  ctx.file = joinPath(text.directory, "computational-actions.txt");
  ctx.diagnostics = &diagnostics;
  for (const std::vector<SourceLine>& block :
       readBlocks(text.computationalActions, ctx.file, diagnostics)) {
    DsAction action;
    std::string name = block[0].text;
    action.file = ctx.file;
    action.line = block[0].number;
    if (!name.empty() && name[0] == '*') {
      action.optional = false;
      name.erase(0, 1);
    }
    if (!name.empty() && name[0] == '+') {
      action.exhaustive = true;
      name.erase(0, 1);
    }
    bool nameOk = !name.empty();
    for (char c : name) nameOk = nameOk && !isSpace(c) && c != '(' && c != ')';
    if (!nameOk) {
      diagnostics.error(ctx.file, block[0].number, static_cast<int>(block[0].begin) + 1,
                        "expected an action name (optionally prefixed by * or +) before its IF "
                        "line, found '" +
                            block[0].text + "'");
      continue;
    }
    action.name = name;
    action.hypothesis = name.compare(0, 3, "hyp") == 0;
    if (block.size() < 2) {
      diagnostics.error(ctx.file, block[0].number, 0,
                        "expected IF/THEN/ELSE lines after the action name '" + name + "'");
      continue;
    }
    action.effects = parseBody(ctx, std::vector<SourceLine>(block.begin() + 1, block.end()));
    for (DsAction& existing : grammar.computational) {
      if (existing.name == action.name) {
        diagnostics.warning(ctx.file, action.line, 0,
                            "action '" + name + "' is defined again; the later definition is used");
        existing = action;
        action.name.clear();
        break;
      }
    }
    if (!action.name.empty()) grammar.computational.push_back(std::move(action));
  }
}

// Lexical templates: name, parameters and body lines.
struct Template {
  std::string name;
  std::vector<std::string> parameters;
  std::vector<SourceLine> lines;
  int line = 0;
};

std::map<std::string, Macro> readMacros(const DsGrammarText& text, Diagnostics& diagnostics) {
  std::map<std::string, Macro> macros;
  const std::string file = joinPath(text.directory, "lexical-macros.txt");
  for (const std::vector<SourceLine>& block : readBlocks(text.lexicalMacros, file, diagnostics)) {
    Macro m;
    m.file = file;
    const std::string& header = block[0].text;
    const std::size_t open = header.find('(');
    if (open != std::string::npos && header.back() == ')') {
      std::vector<std::string> args =
          splitTopLevel(std::string_view(header).substr(open + 1, header.size() - open - 2), ',');
      bool allParameters = !args.empty();
      for (const std::string& a : args) {
        bool upper = !a.empty();
        for (char c : a) upper = upper && std::isupper(static_cast<unsigned char>(c)) != 0;
        allParameters = allParameters && upper;
      }
      if (allParameters) {
        m.name = header.substr(0, open);
        m.parameters = args;
      } else {
        m.name = header;  // an instantiated macro, e.g. event_restrictor(past)
      }
    } else if (open == std::string::npos) {
      m.name = header;
    } else {
      diagnostics.error(file, block[0].number, static_cast<int>(block[0].begin) + 1,
                        "expected a macro header 'name', 'name(PARAM,...)' or 'name(value)'");
      continue;
    }
    if (block.size() < 2) {
      diagnostics.error(file, block[0].number, 0, "expected effects after macro '" + header + "'");
      continue;
    }
    m.lines.assign(block.begin() + 1, block.end());
    if (macros.count(m.name) > 0)
      diagnostics.warning(file, block[0].number, 0,
                          "macro '" + m.name + "' is defined again; the later definition is used");
    macros[m.name] = std::move(m);
  }
  return macros;
}

std::map<std::string, Template> readTemplates(const DsGrammarText& text, Diagnostics& diagnostics) {
  std::map<std::string, Template> templates;
  const std::string file = joinPath(text.directory, "lexical-actions.txt");
  for (const std::vector<SourceLine>& block : readBlocks(text.lexicalActions, file, diagnostics)) {
    const std::string& header = block[0].text;
    const std::size_t open = header.find('(');
    if (open == std::string::npos || open == 0 || header.back() != ')') {
      diagnostics.error(file, block[0].number, static_cast<int>(block[0].begin) + 1,
                        "expected a template header 'name(PARAM,...)', found '" + header + "'");
      continue;
    }
    Template t;
    t.name = header.substr(0, open);
    t.parameters =
        splitTopLevel(std::string_view(header).substr(open + 1, header.size() - open - 2), ',');
    t.lines.assign(block.begin() + 1, block.end());
    t.line = block[0].number;
    // A parameter is a word the body's text is searched for: an empty one (`name(,X)`,
    // `name()`) would match everywhere.
    const auto notAWord = std::find_if(t.parameters.begin(), t.parameters.end(), [](const auto& p) {
      return p.empty() || !std::all_of(p.begin(), p.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
             });
    });
    if (notAWord != t.parameters.end()) {
      diagnostics.error(file, t.line, static_cast<int>(block[0].begin + open) + 2,
                        "expected template parameters such as 'name(PRED,TENSE)': each a word of "
                        "letters, digits or '_', found '" +
                            *notAWord + "' in '" + header + "'");
      continue;
    }
    if (t.lines.empty()) {
      diagnostics.error(file, t.line, 0,
                        "expected IF/THEN/ELSE lines after template '" + header + "'");
      continue;
    }
    if (templates.count(t.name) > 0)
      diagnostics.warning(
          file, t.line, 0,
          "template '" + t.name + "' is defined again; the later definition is used");
    templates[t.name] = std::move(t);
  }
  return templates;
}

void readLexicon(const DsGrammarText& text, const std::map<std::string, Template>& templates,
                 const std::map<std::string, Macro>& macros, DsGrammar& grammar,
                 Diagnostics& diagnostics) {
  const std::string actionsFile = joinPath(text.directory, "lexical-actions.txt");
  const std::string lexiconFile = joinPath(text.directory, "lexicon.txt");

  // Check every template once with its parameters left as they are: syntax errors are
  // reported at the template, missing macros only when an entry needs them.
  std::set<std::string> brokenTemplates;
  for (const auto& [name, t] : templates) {
    Diagnostics local;
    ReadContext ctx;
    ctx.file = actionsFile;
    ctx.diagnostics = &local;
    ctx.macros = &macros;
    parseBody(ctx, t.lines);
    bool broken = false;
    for (const Diagnostic& d : local) {
      if (d.message.rfind("unknown effect or macro", 0) == 0 || d.message.rfind("in macro", 0) == 0)
        continue;
      diagnostics.add(d.severity, d.file, d.line, d.column, d.message);
      broken = true;
    }
    if (broken) brokenTemplates.insert(name);
  }

  std::map<std::string, int> missingTemplates;  // name -> first line
  std::map<std::string, int> missingCounts;
  std::set<std::string> reported;
  std::unordered_map<std::string, std::shared_ptr<const std::vector<Effect>>> cache;
  for (const SourceLine& line : readLines(text.lexicon, lexiconFile, diagnostics)) {
    if (line.blank) continue;
    std::vector<std::string> fields;
    for (std::string_view f : text::splitFields(line.text)) fields.emplace_back(f);
    if (fields.size() < 2) {
      diagnostics.error(lexiconFile, line.number, static_cast<int>(line.begin) + 1,
                        "expected 'word template [argument...]'");
      continue;
    }
    const std::string& word = fields[0];
    const std::string& name = fields[1];
    auto it = templates.find(name);
    if (it == templates.end()) {
      missingTemplates.emplace(name, line.number);
      ++missingCounts[name];
      continue;
    }
    if (brokenTemplates.count(name) > 0) continue;
    const Template& t = it->second;
    std::vector<std::string> args(fields.begin() + 2, fields.end());
    std::vector<SourceLine> lines = t.lines;
    std::string key = name;
    for (SourceLine& s : lines) {
      replaceText(s, substituteParameters(s.text, t.parameters, args));
      key += '\n';
      key += s.raw;
    }
    std::shared_ptr<const std::vector<Effect>>& effects = cache[key];
    if (!effects) {
      Diagnostics local;
      ReadContext ctx;
      ctx.file = actionsFile;
      ctx.diagnostics = &local;
      ctx.macros = &macros;
      auto parsed = std::make_shared<std::vector<Effect>>(parseBody(ctx, lines));
      if (local.hasErrors()) {
        std::string reason = !ctx.missingMacro.empty()
                                 ? "no macro '" + ctx.missingMacro + "' in lexical-macros.txt"
                                 : local.items().front().message;
        if (reported.insert(name + "|" + reason).second)
          diagnostics.note(
              lexiconFile, line.number, 0,
              "entries of template '" + name + "' like '" + word + "' are skipped: " + reason);
        effects = std::make_shared<std::vector<Effect>>();  // remembered as unusable
        continue;
      }
      effects = parsed;
    }
    if (effects->empty()) continue;
    LexicalEntry entry;
    entry.word = word;
    entry.templateName = name;
    entry.arguments = std::move(args);
    entry.line = line.number;
    entry.action.name = name;
    entry.action.effects = *effects;
    entry.action.file = lexiconFile;
    entry.action.line = line.number;
    grammar.addEntry(std::move(entry));
  }
  for (const auto& [name, firstLine] : missingTemplates)
    diagnostics.note(lexiconFile, firstLine, 0,
                     "template '" + name + "' is not in lexical-actions.txt; its " +
                         std::to_string(missingCounts[name]) + " entries are skipped");
}

bool readFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
  return true;
}

}  // namespace

DsGrammarLoad parseDsGrammar(const DsGrammarText& text) {
  DsGrammarLoad load;
  load.grammar.directory = text.directory;
  readComputationalActions(text, load.grammar, load.diagnostics);
  std::map<std::string, Macro> macros = readMacros(text, load.diagnostics);
  std::map<std::string, Template> templates = readTemplates(text, load.diagnostics);
  readLexicon(text, templates, macros, load.grammar, load.diagnostics);
  return load;
}

DsGrammarLoad loadDsGrammar(const std::string& directory) {
  DsGrammarText text;
  text.directory = directory;
  const std::string comp = joinPath(directory, "computational-actions.txt");
  if (!readFile(comp, &text.computationalActions)) {
    DsGrammarLoad load;
    load.grammar.directory = directory;
    load.diagnostics.error(comp, 0, 0, "cannot open the computational actions of a DyLan grammar");
    return load;
  }
  readFile(joinPath(directory, "lexical-actions.txt"), &text.lexicalActions);
  readFile(joinPath(directory, "lexical-macros.txt"), &text.lexicalMacros);
  readFile(joinPath(directory, "lexicon.txt"), &text.lexicon);
  return parseDsGrammar(text);
}

// ---------------------------------------------------------------------------------------
// Learned lexicons

namespace {

// DyLan prints an unbound metavariable as `X=null[hash]` (`META=...` for the variable of an
// existential) or as `null`; read them back as metavariables.
std::string lenientLine(const std::string& line) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    const std::size_t eq = line.find("=null[", i);
    if (eq == std::string::npos) {
      out += line.substr(i);
      break;
    }
    std::size_t nameStart = eq;
    while (nameStart > i && std::isalnum(static_cast<unsigned char>(line[nameStart - 1])) != 0)
      --nameStart;
    const std::size_t close = line.find(']', eq);
    if (nameStart == eq || close == std::string::npos) {
      out += line.substr(i, eq + 1 - i);
      i = eq + 1;
      continue;
    }
    const std::string name = line.substr(nameStart, eq - nameStart);
    out += line.substr(i, nameStart - i);
    out += name == "META" ? "x" : name;
    i = close + 1;
  }
  return out;
}

}  // namespace

std::vector<LexicalEntry> parseLearnedLexicon(std::string_view text, const std::string& file,
                                              Diagnostics& diagnostics) {
  std::vector<LexicalEntry> entries;
  for (std::vector<SourceLine>& block : readBlocks(text, file, diagnostics)) {
    const SourceLine& header = block[0];
    LexicalEntry entry;
    entry.line = header.number;
    const std::string& h = header.text;
    const std::size_t comma = h.find(',');
    if (h.size() < 5 || h.front() != '[' || h.back() != ']' || comma == std::string::npos) {
      diagnostics.error(file, header.number, static_cast<int>(header.begin) + 1,
                        "expected '[probability,rank]' at the start of a learned entry");
      continue;
    }
    try {
      entry.probability = std::stod(h.substr(1, comma - 1));
      entry.rank = std::stoi(h.substr(comma + 1, h.size() - comma - 2));
    } catch (const std::exception&) {
      diagnostics.error(file, header.number, static_cast<int>(header.begin) + 1,
                        "expected numbers in '[probability,rank]'");
      continue;
    }
    if (!(entry.probability >= 0.0 && entry.probability <= 1.0)) {
      diagnostics.error(file, header.number, static_cast<int>(header.begin) + 2,
                        "expected a probability between 0 and 1");
      continue;
    }
    if (block.size() < 3) {
      diagnostics.error(file, header.number, 0, "expected a word and an action after the header");
      continue;
    }
    entry.word = block[1].text;
    std::vector<SourceLine> body(block.begin() + 2, block.end());
    for (SourceLine& s : body) replaceText(s, lenientLine(s.text));
    ReadContext ctx;
    ctx.file = file;
    ctx.diagnostics = &diagnostics;
    const int before = diagnostics.errorCount();
    entry.action.effects = parseBody(ctx, body);
    if (diagnostics.errorCount() > before) continue;
    entry.action.name = entry.word;
    entry.action.file = file;
    entry.action.line = header.number;
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<LexicalEntry> loadLearnedLexicon(const std::string& path, Diagnostics& diagnostics) {
  std::string text;
  if (!readFile(path, &text)) {
    diagnostics.error(path, 0, 0, "cannot open the learned lexicon");
    return {};
  }
  return parseLearnedLexicon(text, path, diagnostics);
}

void useLearnedLexicon(DsGrammar& grammar, std::vector<LexicalEntry> entries) {
  grammar.clearLexicon();
  for (LexicalEntry& e : entries) grammar.addEntry(std::move(e));
  grammar.probabilistic = true;
}

}  // namespace gwb::ds
