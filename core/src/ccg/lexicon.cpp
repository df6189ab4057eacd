#include "gwb/ccg/lexicon.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <set>

#include "common/text_lines.h"
#include "gwb/common/atomic_file.h"

namespace gwb::ccg {

std::string joinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

namespace {

// The slot numbers used in a template form; false when a '#' constant is not #<digits>.
bool collectSlots(const Term& term, std::set<int>* slots, std::string* bad) {
  if (term->kind == TermKind::Constant) {
    if (!term->name.empty() && term->name[0] == '#') {
      if (term->name.size() < 2 || term->name.size() > 4) {
        *bad = term->name;
        return false;
      }
      int value = 0;
      for (std::size_t i = 1; i < term->name.size(); ++i) {
        const char c = term->name[i];
        if (c < '0' || c > '9') {
          *bad = term->name;
          return false;
        }
        value = value * 10 + (c - '0');
      }
      slots->insert(value);
    }
    return true;
  }
  for (const Term& child : term->children) {
    if (!collectSlots(child, slots, bad)) return false;
  }
  return true;
}

std::optional<double> parseWeight(std::string_view token) {
  if (token.empty()) return std::nullopt;
  for (char c : token) {
    const bool allowed =
        (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E';
    if (!allowed) return std::nullopt;
  }
  if (token.front() == '+') token.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// The shortest text that reads back to the same double (std::to_chars without a format).
std::string formatWeight(double value) {
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

int columnIn(std::string_view line, std::string_view part) {
  return static_cast<int>(part.data() - line.data()) + 1;
}

// Position of " : " style separator `separator` surrounded by whitespace, or npos.
std::size_t findSeparator(std::string_view text, std::string_view separator, std::size_t from = 0) {
  std::size_t pos = from;
  while ((pos = text.find(separator, pos)) != std::string_view::npos) {
    const bool spaceBefore = pos == 0 || text::isSpace(text[pos - 1]);
    const std::size_t after = pos + separator.size();
    const bool spaceAfter = after >= text.size() || text::isSpace(text[after]);
    if (spaceBefore && spaceAfter) return pos;
    ++pos;
  }
  return std::string_view::npos;
}

bool isComment(std::string_view trimmed) {
  return (!trimmed.empty() && trimmed[0] == '#') ||
         (trimmed.size() >= 2 && trimmed[0] == '/' && trimmed[1] == '/');
}

// Reads "CATEGORY : FORM" into a template; false after reporting an error.
bool readTemplateText(std::string_view line, std::string_view text, const std::string& file,
                      int lineNumber, Diagnostics* diagnostics, LexicalTemplate* out) {
  const std::size_t colon = findSeparator(text, ":");
  if (colon == std::string_view::npos) {
    diagnostics->error(file, lineNumber, columnIn(line, text),
                       "expected 'CATEGORY : LOGICAL-FORM' (a ':' with spaces around it)");
    return false;
  }
  const std::string_view categoryText = text::trim(text.substr(0, colon));
  const std::string_view formText = text::trim(text.substr(colon + 1));
  Category category =
      readCategory(categoryText, file, lineNumber, columnIn(line, categoryText), diagnostics);
  if (!category) return false;
  if (formText.empty()) {
    diagnostics->error(file, lineNumber, columnIn(line, text) + static_cast<int>(colon) + 1,
                       "expected a logical form after ':'");
    return false;
  }
  Term form = readTerm(formText, file, lineNumber, columnIn(line, formText), diagnostics);
  if (!form) return false;
  out->category = category;
  out->semantics = form;
  return true;
}

}  // namespace

std::string lexemeKey(const Lexeme& lexeme) {
  std::string key = joinWords(lexeme.words) + " :-";
  for (const std::string& constant : lexeme.constants) key += " " + constant;
  return key;
}

std::string templateKey(const LexicalTemplate& lexicalTemplate) {
  return toString(lexicalTemplate.category) + " : " + toString(lexicalTemplate.semantics);
}

std::string lexemeFeature(const Lexeme& lexeme) { return "lexeme:" + lexemeKey(lexeme); }
std::string templateFeature(const LexicalTemplate& lexicalTemplate) {
  return "template:" + templateKey(lexicalTemplate);
}
std::string pairFeature(const Lexeme& lexeme, const LexicalTemplate& lexicalTemplate) {
  return "pair:" + lexemeKey(lexeme) + " || " + templateKey(lexicalTemplate);
}

bool typeFitsCategory(const TypePtr& type, const Category& category, const TypeSystem& types) {
  if (category->isAtomic()) {
    if (category->atom == "NP") return types.compatible(type, atomicType("e"));
    if (category->atom == "N") {
      return types.compatible(type, functionType(atomicType("e"), atomicType("t")));
    }
    return true;  // S holds any meaning (a question's S is an <e,t>), other atoms unchecked
  }
  return type->isFunction() && typeFitsCategory(type->from, category->argument, types) &&
         typeFitsCategory(type->to, category->result, types);
}

void maximalFactoring(const std::vector<std::string>& words, const Category& category,
                      const Term& semantics, Lexeme* lexeme, LexicalTemplate* lexicalTemplate,
                      LexicalOperators operators) {
  lexeme->words = words;
  // argmax, argmin, count and sum are constants too (the paper's (cheapest, [argmin, cost])).
  const Term withOperators = operatorsAsConstants(semantics, operators);
  lexeme->constants = constantsInOrder(withOperators);
  std::unordered_map<std::string, Term> slots;
  for (std::size_t i = 0; i < lexeme->constants.size(); ++i) {
    slots[lexeme->constants[i]] = makeConstant("#" + std::to_string(i));
  }
  lexicalTemplate->category = category;
  lexicalTemplate->semantics = canonicalTerm(replaceConstants(withOperators, slots));
  lexicalTemplate->slotCount = static_cast<int>(lexeme->constants.size());
}

int FactoredLexicon::addLexeme(Lexeme lexeme, bool* added) {
  const std::string key = lexemeKey(lexeme);
  auto [it, inserted] = lexemeIndex_.emplace(key, static_cast<int>(lexemes_.size()));
  if (inserted) {
    longestLexeme_ = std::max(longestLexeme_, static_cast<int>(lexeme.words.size()));
    lexemes_.push_back(std::move(lexeme));
  }
  if (added) *added = inserted;
  return it->second;
}

int FactoredLexicon::addTemplate(LexicalTemplate lexicalTemplate, bool* added) {
  const std::string key = templateKey(lexicalTemplate);
  auto [it, inserted] = templateIndex_.emplace(key, static_cast<int>(templates_.size()));
  if (inserted) templates_.push_back(std::move(lexicalTemplate));
  if (added) *added = inserted;
  return it->second;
}

int FactoredLexicon::findLexeme(const Lexeme& lexeme) const {
  auto it = lexemeIndex_.find(lexemeKey(lexeme));
  return it == lexemeIndex_.end() ? -1 : it->second;
}

int FactoredLexicon::findTemplate(const LexicalTemplate& lexicalTemplate) const {
  auto it = templateIndex_.find(templateKey(lexicalTemplate));
  return it == templateIndex_.end() ? -1 : it->second;
}

double FactoredLexicon::weight(const std::string& feature) const {
  auto it = weights_.find(feature);
  return it == weights_.end() ? 0.0 : it->second;
}

std::size_t FactoredLexicon::buildEntries(const TypeSystem* types) {
  entries_.clear();
  entryCount_ = 0;
  return addEntries(types, 0, 0);
}

std::size_t FactoredLexicon::addEntries(const TypeSystem* types, int firstLexeme,
                                        int firstTemplate) {
  std::size_t added = 0;
  // Templates by slot count.
  std::map<int, std::vector<int>> templatesBySlots;
  for (std::size_t t = 0; t < templates_.size(); ++t) {
    templatesBySlots[templates_[t].slotCount].push_back(static_cast<int>(t));
  }
  for (std::size_t l = 0; l < lexemes_.size(); ++l) {
    const Lexeme& lexeme = lexemes_[l];
    const bool newLexeme = static_cast<int>(l) >= firstLexeme;
    if (!newLexeme && firstTemplate >= static_cast<int>(templates_.size())) continue;
    auto candidates = templatesBySlots.find(static_cast<int>(lexeme.constants.size()));
    if (candidates == templatesBySlots.end()) continue;
    std::unordered_map<std::string, Term> slots;
    for (std::size_t i = 0; i < lexeme.constants.size(); ++i) {
      slots["#" + std::to_string(i)] = makeConstant(lexeme.constants[i]);
    }
    for (int t : candidates->second) {
      if (!newLexeme && t < firstTemplate) continue;
      const LexicalTemplate& lexicalTemplate = templates_[t];
      Term semantics = constantsAsOperators(replaceConstants(lexicalTemplate.semantics, slots));
      if (types != nullptr) {
        TypePtr type = typeCheck(semantics, *types, "", 0, 0, nullptr);
        if (!type) continue;
        if (!typeFitsCategory(type, lexicalTemplate.category, *types)) continue;
      }
      entries_[joinWords(lexeme.words)].push_back(
          {static_cast<int>(l), t, lexicalTemplate.category, semantics});
      ++added;
    }
  }
  entryCount_ += added;
  return added;
}

void FactoredLexicon::truncate(int lexemeCount, int templateCount) {
  lexemeCount = std::max(0, std::min(lexemeCount, static_cast<int>(lexemes_.size())));
  templateCount = std::max(0, std::min(templateCount, static_cast<int>(templates_.size())));
  for (std::size_t l = lexemeCount; l < lexemes_.size(); ++l) {
    lexemeIndex_.erase(lexemeKey(lexemes_[l]));
    weights_.erase(lexemeFeature(lexemes_[l]));
  }
  for (std::size_t t = templateCount; t < templates_.size(); ++t) {
    templateIndex_.erase(templateKey(templates_[t]));
    weights_.erase(templateFeature(templates_[t]));
  }
  lexemes_.resize(lexemeCount);
  templates_.resize(templateCount, LexicalTemplate{});
  longestLexeme_ = 0;
  for (const Lexeme& lexeme : lexemes_) {
    longestLexeme_ = std::max(longestLexeme_, static_cast<int>(lexeme.words.size()));
  }
  entryCount_ = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    auto& list = it->second;
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const LexicalEntry& entry) {
                                return entry.lexeme >= lexemeCount ||
                                       entry.lexicalTemplate >= templateCount;
                              }),
               list.end());
    entryCount_ += list.size();
    it = list.empty() ? entries_.erase(it) : std::next(it);
  }
}

const std::vector<LexicalEntry>& FactoredLexicon::entriesFor(const std::string& phrase) const {
  static const std::vector<LexicalEntry> kNone;
  auto it = entries_.find(phrase);
  return it == entries_.end() ? kNone : it->second;
}

LexiconLoad readFactoredLexicon(std::string_view text, const std::string& file) {
  LexiconLoad load;
  for (const text::Line& line : text::splitLines(text)) {
    const std::string_view trimmed = text::trim(line.text);
    if (trimmed.empty() || isComment(trimmed)) continue;
    const auto tokens = text::splitTokens(line.text);
    const std::string_view directive = tokens[0].text;
    if (directive != "lexeme" && directive != "template" && directive != "feature") {
      load.diagnostics.error(
          file, line.number, tokens[0].column,
          "expected 'lexeme', 'template' or 'feature', found '" + std::string(directive) + "'");
      continue;
    }
    if (tokens.size() < 3) {
      load.diagnostics.error(file, line.number, tokens[0].column,
                             "expected '" + std::string(directive) + " WEIGHT ...' (see " +
                                 "docs/formats.md, \"Factored CCG lexicons\")");
      continue;
    }
    const std::optional<double> weight = parseWeight(tokens[1].text);
    if (!weight) {
      load.diagnostics.error(file, line.number, tokens[1].column,
                             "expected a weight (a finite decimal number), found '" +
                                 std::string(tokens[1].text) + "'");
      continue;
    }
    const std::string_view rest = text::trim(
        line.text.substr(static_cast<std::size_t>(tokens[1].column - 1) + tokens[1].text.size()));
    if (directive == "feature") {
      load.lexicon.setWeight(std::string(rest), *weight);
      continue;
    }
    if (directive == "lexeme") {
      const std::size_t arrow = findSeparator(rest, ":-");
      if (arrow == std::string_view::npos) {
        load.diagnostics.error(file, line.number, columnIn(line.text, rest),
                               "expected 'WORDS :- CONSTANTS' (a ':-' with spaces around it)");
        continue;
      }
      Lexeme lexeme;
      for (std::string_view word : text::splitFields(rest.substr(0, arrow))) {
        lexeme.words.emplace_back(word);
      }
      if (lexeme.words.empty()) {
        load.diagnostics.error(file, line.number, columnIn(line.text, rest),
                               "a lexeme needs at least one word before ':-'");
        continue;
      }
      bool ok = true;
      for (const text::Token& constant : text::splitTokens(rest.substr(arrow + 2))) {
        const char first = constant.text.front();
        if (first == '#' || first == '$' ||
            constant.text.find_first_of("()") != std::string::npos) {
          load.diagnostics.error(
              file, line.number,
              columnIn(line.text, rest) + static_cast<int>(arrow) + 1 + constant.column,
              "expected a logical constant (such as texas:s), found '" +
                  std::string(constant.text) + "'");
          ok = false;
          break;
        }
        lexeme.constants.emplace_back(constant.text);
      }
      if (!ok) continue;
      bool added = false;
      const std::string feature = lexemeFeature(lexeme);
      load.lexicon.addLexeme(std::move(lexeme), &added);
      if (!added) {
        load.diagnostics.warning(file, line.number, 0,
                                 "repeated lexeme; its weight replaces the earlier one");
      }
      load.lexicon.setWeight(feature, *weight);
      continue;
    }
    // template
    LexicalTemplate lexicalTemplate;
    if (!readTemplateText(line.text, rest, file, line.number, &load.diagnostics,
                          &lexicalTemplate)) {
      continue;
    }
    std::set<int> slots;
    std::string bad;
    if (!collectSlots(lexicalTemplate.semantics, &slots, &bad)) {
      load.diagnostics.error(file, line.number, columnIn(line.text, rest),
                             "bad slot '" + bad + "': expected '#' and a number (#0, #1, ...)");
      continue;
    }
    if (!slots.empty() &&
        (*slots.begin() != 0 || *slots.rbegin() + 1 != static_cast<int>(slots.size()))) {
      load.diagnostics.error(file, line.number, columnIn(line.text, rest),
                             "template slots must be numbered #0 to #" +
                                 std::to_string(slots.size() - 1) + " with none left out");
      continue;
    }
    if (!freeVariables(lexicalTemplate.semantics).empty()) {
      load.diagnostics.error(file, line.number, columnIn(line.text, rest),
                             "the template's logical form has a free variable $" +
                                 std::to_string(freeVariables(lexicalTemplate.semantics).front()));
      continue;
    }
    lexicalTemplate.slotCount = static_cast<int>(slots.size());
    bool added = false;
    const std::string feature = templateFeature(lexicalTemplate);
    load.lexicon.addTemplate(std::move(lexicalTemplate), &added);
    if (!added) {
      load.diagnostics.warning(file, line.number, 0,
                               "repeated template; its weight replaces the earlier one");
    }
    load.lexicon.setWeight(feature, *weight);
  }
  return load;
}

LexiconLoad loadFactoredLexicon(const std::string& path) {
  return text::loadTextFile<LexiconLoad>(path, [](std::string_view text, const std::string& file) {
    return readFactoredLexicon(text, file);
  });
}

std::string writeFactoredLexicon(const FactoredLexicon& lexicon) {
  std::string out = "# Grammar Workbench factored CCG lexicon (docs/formats.md)\n";
  std::set<std::string> written;
  for (const Lexeme& lexeme : lexicon.lexemes()) {
    const std::string feature = lexemeFeature(lexeme);
    out += "lexeme " + formatWeight(lexicon.weight(feature)) + " " + lexemeKey(lexeme) + "\n";
    written.insert(feature);
  }
  for (const LexicalTemplate& lexicalTemplate : lexicon.templates()) {
    const std::string feature = templateFeature(lexicalTemplate);
    out += "template " + formatWeight(lexicon.weight(feature)) + " " +
           templateKey(lexicalTemplate) + "\n";
    written.insert(feature);
  }
  std::map<std::string, double> others;
  for (const auto& [feature, value] : lexicon.weights()) {
    if (written.count(feature) == 0) others.emplace(feature, value);
  }
  for (const auto& [feature, value] : others) {
    out += "feature " + formatWeight(value) + " " + feature + "\n";
  }
  return out;
}

bool saveFactoredLexicon(const FactoredLexicon& lexicon, const std::string& path,
                         std::string* error) {
  const std::string text = writeFactoredLexicon(lexicon);
  return writeFileAtomically(
      path, [&](std::ostream& out) { return static_cast<bool>(out << text); }, error);
}

LexiconLoad readFixedLexicon(std::string_view text, const std::string& file) {
  LexiconLoad load;
  for (const text::Line& line : text::splitLines(text)) {
    const std::string_view trimmed = text::trim(line.text);
    if (trimmed.empty() || (trimmed.size() >= 2 && trimmed[0] == '/' && trimmed[1] == '/')) {
      continue;
    }
    const std::size_t arrow = findSeparator(trimmed, ":-");
    if (arrow == std::string_view::npos) {
      load.diagnostics.error(file, line.number, columnIn(line.text, trimmed),
                             "expected 'WORDS :- CATEGORY : LOGICAL-FORM'");
      continue;
    }
    std::vector<std::string> words;
    for (std::string_view word : text::splitFields(trimmed.substr(0, arrow))) {
      words.emplace_back(word);
    }
    if (words.empty()) {
      load.diagnostics.error(file, line.number, columnIn(line.text, trimmed),
                             "expected at least one word before ':-'");
      continue;
    }
    LexicalTemplate entry;
    if (!readTemplateText(line.text, text::trim(trimmed.substr(arrow + 2)), file, line.number,
                          &load.diagnostics, &entry)) {
      continue;
    }
    if (!freeVariables(entry.semantics).empty()) {
      load.diagnostics.error(file, line.number, columnIn(line.text, trimmed),
                             "the logical form has a free variable $" +
                                 std::to_string(freeVariables(entry.semantics).front()));
      continue;
    }
    bool slotLike = false;
    for (const std::string& constant : constantsInOrder(entry.semantics)) {
      slotLike = slotLike || constant[0] == '#';
    }
    if (slotLike) {
      load.diagnostics.error(file, line.number, columnIn(line.text, trimmed),
                             "constants starting with '#' are template slots, not allowed in a "
                             "lexical entry");
      continue;
    }
    Lexeme lexeme;
    LexicalTemplate lexicalTemplate;
    maximalFactoring(words, entry.category, entry.semantics, &lexeme, &lexicalTemplate);
    load.lexicon.addLexeme(std::move(lexeme));
    load.lexicon.addTemplate(std::move(lexicalTemplate));
  }
  return load;
}

LexiconLoad loadFixedLexicon(const std::string& path) {
  return text::loadTextFile<LexiconLoad>(path, [](std::string_view text, const std::string& file) {
    return readFixedLexicon(text, file);
  });
}

void mergeLexicon(FactoredLexicon* into, const FactoredLexicon& other) {
  for (const Lexeme& lexeme : other.lexemes()) into->addLexeme(lexeme);
  for (const LexicalTemplate& lexicalTemplate : other.templates()) {
    into->addTemplate(lexicalTemplate);
  }
  for (const auto& [feature, value] : other.weights()) into->setWeight(feature, value);
}

std::vector<SpanEntry> sentenceEntries(const FactoredLexicon& lexicon,
                                       const std::vector<std::string>& words) {
  std::vector<SpanEntry> out;
  const int n = static_cast<int>(words.size());
  for (int begin = 0; begin < n; ++begin) {
    std::string phrase;
    for (int end = begin + 1; end <= n && end - begin <= lexicon.longestLexeme(); ++end) {
      if (end > begin + 1) phrase += ' ';
      phrase += words[end - 1];
      for (const LexicalEntry& entry : lexicon.entriesFor(phrase)) {
        out.push_back({begin, end, &entry});
      }
    }
  }
  return out;
}

}  // namespace gwb::ccg
