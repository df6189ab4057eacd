// Factored CCG lexicons (Kwiatkowski et al. 2011, section 5): lexemes, templates and the lexical
// entries they make, with the weights of the log-linear model's features.
//
// A lexeme pairs a word sequence with an ordered list of logical constants: (texas, [texas:s]),
// (cheapest, [argmin, cost]). A template is a category with a logical form over constant slots
// `#0`, `#1`, ...: `NP : #0`, `S|NP : (lambda $0 e (#0 $0))`. A lexical entry is a lexeme applied
// to a template: the slots replaced by the lexeme's constants, in order. A pair makes an entry
// only when the types fit: the template has as many slots as the lexeme has constants and, when
// a type system is given, the instantiated logical form type-checks and its type fits the
// category (typeFitsCategory: NP holds e, N <e,t>, X/Y a function from Y's to X's; S any).
//
// Weights are kept by feature name (parser features, cky_parser.h): `lexeme:WORDS :- CONSTANTS`,
// `template:CATEGORY : FORM`, `pair:LEXEME || TEMPLATE`, the logical-form features, `skip`.
// The lexicon file gives each lexeme and template its weight; any other feature is a `feature`
// line. Format (docs/formats.md, "Factored CCG lexicons"):
//
//     # comment
//     lexeme 0.5 what states :- state:t
//     template -0.1 S|NP : (lambda $0 e (#0 $0))
//     feature 1.25 pair:texas :- texas:s || NP : #0
//
// Invariants: lexemes and templates are unique (a repeated one is merged with a warning);
// template slots are numbered #0..#k-1 with each one used; indices are stable once added.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gwb/ccg/category.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/term.h"
#include "gwb/common/diagnostic.h"

namespace gwb::ccg {

struct Lexeme {
  std::vector<std::string> words;
  std::vector<std::string> constants;
};

struct LexicalTemplate {
  Category category;
  Term semantics;  // over slot constants #0..#slotCount-1
  int slotCount = 0;
};

struct LexicalEntry {
  int lexeme = -1;
  int lexicalTemplate = -1;
  Category category;
  Term semantics;
};

// "what states :- state:t", "NP : #0".
std::string lexemeKey(const Lexeme& lexeme);
std::string templateKey(const LexicalTemplate& lexicalTemplate);
std::string lexemeFeature(const Lexeme& lexeme);                      // "lexeme:" + key
std::string templateFeature(const LexicalTemplate& lexicalTemplate);  // "template:" + key
std::string pairFeature(const Lexeme& lexeme, const LexicalTemplate& lexicalTemplate);

// Whether a meaning of type `type` fits `category`: NP holds an entity (e), N an <e,t>, a
// complex category X/Y a function from what fits Y to what fits X; S and other atoms hold any
// type (the S of a question is an <e,t>, as in UBL's data).
bool typeFitsCategory(const TypePtr& type, const Category& category, const TypeSystem& types);

// The paper's maximal factoring (section 6.1) of `words :- category : semantics`: every constant
// of the form, in traversal order, becomes a slot — the operators argmax, argmin, count and sum
// included (operatorsAsConstants, term.h): (cheapest, [argmin, cost]). Entries turn them back
// into quantifiers (constantsAsOperators).
// `operators`: which operators are constants (term.h; exists, the and not too on request).
void maximalFactoring(const std::vector<std::string>& words, const Category& category,
                      const Term& semantics, Lexeme* lexeme, LexicalTemplate* lexicalTemplate,
                      LexicalOperators operators = LexicalOperators::Ranking);

class FactoredLexicon {
 public:
  // Index of the lexeme / template (an existing one when it is already there).
  int addLexeme(Lexeme lexeme, bool* added = nullptr);
  int addTemplate(LexicalTemplate lexicalTemplate, bool* added = nullptr);

  const std::vector<Lexeme>& lexemes() const { return lexemes_; }
  const std::vector<LexicalTemplate>& templates() const { return templates_; }
  int findLexeme(const Lexeme& lexeme) const;
  int findTemplate(const LexicalTemplate& lexicalTemplate) const;

  // Feature weights (0 for a feature not listed).
  double weight(const std::string& feature) const;
  bool hasWeight(const std::string& feature) const { return weights_.count(feature) > 0; }
  void setWeight(const std::string& feature, double value) { weights_[feature] = value; }
  const std::unordered_map<std::string, double>& weights() const { return weights_; }

  // Builds the lexical entries of every lexeme × template pair whose types fit (`types` may be
  // null: then only slot counts are checked). Call again after adding lexemes or templates.
  // Returns the number of entries.
  std::size_t buildEntries(const TypeSystem* types = nullptr);
  // Adds the entries of the pairs that involve a lexeme at index >= firstLexeme or a template at
  // index >= firstTemplate, keeping the others (for a learner that grows the lexicon). Returns
  // the number of entries added.
  std::size_t addEntries(const TypeSystem* types, int firstLexeme, int firstTemplate);
  // Removes the lexemes and templates from index lexemeCount / templateCount on, with their
  // entries and their lexeme and template weights (undoes additions).
  void truncate(int lexemeCount, int templateCount);
  // The entries whose lexeme's words are exactly `phrase` (words joined by single spaces).
  const std::vector<LexicalEntry>& entriesFor(const std::string& phrase) const;
  std::size_t entryCount() const { return entryCount_; }
  int longestLexeme() const { return longestLexeme_; }

 private:
  std::vector<Lexeme> lexemes_;
  std::vector<LexicalTemplate> templates_;
  std::unordered_map<std::string, int> lexemeIndex_;
  std::unordered_map<std::string, int> templateIndex_;
  std::unordered_map<std::string, double> weights_;
  std::unordered_map<std::string, std::vector<LexicalEntry>> entries_;
  std::size_t entryCount_ = 0;
  int longestLexeme_ = 0;
};

// A lexical entry over words begin..end-1 of a sentence.
struct SpanEntry {
  int begin = 0;
  int end = 0;
  const LexicalEntry* entry = nullptr;  // into the lexicon: valid while it is not changed
};

// `words` joined by single spaces: the phrase a lexeme's words make, as entriesFor() takes it.
std::string joinWords(const std::vector<std::string>& words);

// Every lexical entry of every phrase of `words` (spans of up to longestLexeme() words), by
// start, then end, then the lexicon's order of entries: the entries a parse of `words` can use
// (entries must have been built).
std::vector<SpanEntry> sentenceEntries(const FactoredLexicon& lexicon,
                                       const std::vector<std::string>& words);

struct LexiconLoad {
  FactoredLexicon lexicon;
  Diagnostics diagnostics;
};

// The factored lexicon format above.
LexiconLoad readFactoredLexicon(std::string_view text, const std::string& file);
LexiconLoad loadFactoredLexicon(const std::string& path);
std::string writeFactoredLexicon(const FactoredLexicon& lexicon);
// Written atomically (gwb/common/atomic_file.h): a failure leaves the old file whole.
bool saveFactoredLexicon(const FactoredLexicon& lexicon, const std::string& path,
                         std::string* error = nullptr);

// UBL's fixed lexicon (np-fixedlex.geo): `words :- CATEGORY : FORM` a line, each entry
// maximally factored. Blank lines and `//` comments are skipped.
LexiconLoad readFixedLexicon(std::string_view text, const std::string& file);
LexiconLoad loadFixedLexicon(const std::string& path);

// Adds the lexemes, templates and weights of `other` (its weights override).
void mergeLexicon(FactoredLexicon* into, const FactoredLexicon& other);

}  // namespace gwb::ccg
