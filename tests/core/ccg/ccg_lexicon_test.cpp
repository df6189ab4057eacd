#include <filesystem>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ccg/lexicon.h"
#include "gwb/common/atomic_file.h"
#include "shared_data.h"

namespace gwb::ccg {
namespace {

const char* kSample =
    "# a tiny factored lexicon\n"
    "lexeme 0.5 texas :- texas:s\n"
    "lexeme 0 states :- state:t\n"
    "lexeme -1.25 border :- next_to:t\n"
    "lexeme 0 what :-\n"
    "template -0.1 NP : #0\n"
    "template -0.2 N : (lambda $0 e (#0 $0))\n"
    "template -0.3 (S\\NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))\n"
    "template 0 S/N : (lambda $0 <e,t> (exists $1 ($0 $1)))\n"
    "feature 2 pair:texas :- texas:s || NP : #0\n"
    "feature -0.5 skip\n";

TypeSystem geoTypes() {
  TypeSystemLoad load = readTypeSystem("(n lo (s lo) (c lo))", "t",
                                       "((state:t s t) (next_to:t s s t) (city:t c t))", "l");
  EXPECT_FALSE(load.diagnostics.hasErrors());
  return load.types;
}

TEST(CcgLexiconTest, ReadsWritesAndReadsBack) {
  LexiconLoad load = readFactoredLexicon(kSample, "sample");
  ASSERT_TRUE(load.diagnostics.empty()) << toString(load.diagnostics.items()[0]);
  const FactoredLexicon& lexicon = load.lexicon;
  EXPECT_EQ(lexicon.lexemes().size(), 4u);
  EXPECT_EQ(lexicon.templates().size(), 4u);
  EXPECT_EQ(lexicon.templates()[2].slotCount, 1);
  EXPECT_EQ(lexicon.weight("lexeme:texas :- texas:s"), 0.5);
  EXPECT_EQ(lexicon.weight("template:N : (lambda $0 e (#0 $0))"), -0.2);
  EXPECT_EQ(lexicon.weight("pair:texas :- texas:s || NP : #0"), 2);
  EXPECT_EQ(lexicon.weight("skip"), -0.5);
  EXPECT_EQ(lexicon.weight("unknown"), 0);
  const std::string written = writeFactoredLexicon(lexicon);
  LexiconLoad again = readFactoredLexicon(written, "again");
  ASSERT_TRUE(again.diagnostics.empty());
  EXPECT_EQ(writeFactoredLexicon(again.lexicon), written);
  EXPECT_NE(written.find("lexeme -1.25 border :- next_to:t\n"), std::string::npos);
  EXPECT_NE(written.find("feature -0.5 skip\n"), std::string::npos);
  // Weights are written in the shortest form that reads back to the same double.
  FactoredLexicon weights;
  const double values[] = {0.1, 1e-5, 1e308, 0.1 + 0.2, -2.5, 1.0 / 3.0};
  for (std::size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
    weights.setWeight("f" + std::to_string(i), values[i]);
  }
  const std::string text = writeFactoredLexicon(weights);
  EXPECT_NE(text.find("feature 0.1 f0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("feature 0.30000000000000004 f3\n"), std::string::npos) << text;
  LexiconLoad back = readFactoredLexicon(text, "weights");
  for (std::size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
    EXPECT_EQ(back.lexicon.weight("f" + std::to_string(i)), values[i]);
  }
}

TEST(CcgLexiconTest, SavesAtomically) {
  LexiconLoad load = readFactoredLexicon(kSample, "sample");
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gwb_ccg_lexicon_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "lexicon.flex").string();
  std::string error;
  ASSERT_TRUE(saveFactoredLexicon(load.lexicon, path, &error)) << error;
  LexiconLoad back = loadFactoredLexicon(path);
  EXPECT_TRUE(back.diagnostics.empty());
  EXPECT_EQ(writeFactoredLexicon(back.lexicon), writeFactoredLexicon(load.lexicon));
  // A target in a folder that does not exist fails cleanly.
  EXPECT_FALSE(saveFactoredLexicon(load.lexicon, (dir / "no" / "such.flex").string(), &error));
  EXPECT_FALSE(error.empty());
  std::filesystem::remove_all(dir);
  LexiconLoad missing = loadFactoredLexicon((dir / "missing.flex").string());
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_EQ(missing.diagnostics.items()[0].line, 0);
}

TEST(CcgLexiconTest, BadLinesNameLineAndColumn) {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"lexicon 1 a :- b:e",
       "f:1:1: error: expected 'lexeme', 'template' or 'feature', found 'lexicon'"},
      {"lexeme 1",
       "f:1:1: error: expected 'lexeme WEIGHT ...' (see docs/formats.md, \"Factored CCG "
       "lexicons\")"},
      {"lexeme one a :- b:e",
       "f:1:8: error: expected a weight (a finite decimal number), found 'one'"},
      {"lexeme nan a :- b:e",
       "f:1:8: error: expected a weight (a finite decimal number), found 'nan'"},
      {"lexeme 1 a b:e",
       "f:1:10: error: expected 'WORDS :- CONSTANTS' (a ':-' with spaces around it)"},
      {"lexeme 1 :- b:e", "f:1:10: error: a lexeme needs at least one word before ':-'"},
      {"lexeme 1 a :- (b:e)",
       "f:1:15: error: expected a logical constant (such as texas:s), found '(b:e)'"},
      {"template 1 NP #0",
       "f:1:12: error: expected 'CATEGORY : LOGICAL-FORM' (a ':' with spaces around it)"},
      {"template 1 NP/ : #0", "f:1:15: error: expected a category, found the end of the text"},
      {"template 1 NP : (a:t", "f:1:21: error: expected ')', found the end of the text"},
      {"template 1 NP : #1",
       "f:1:12: error: template slots must be numbered #0 to #0 with none left out"},
      {"template 1 NP : #x",
       "f:1:12: error: bad slot '#x': expected '#' and a number (#0, #1, ...)"},
      {"template 1 S : (a:t $0)",
       "f:1:12: error: the template's logical form has a free variable $0"},
      {"template 1 NP :", "f:1:16: error: expected a logical form after ':'"},
  };
  for (const Case& c : cases) {
    LexiconLoad load = readFactoredLexicon(c.text, "f");
    ASSERT_EQ(load.diagnostics.size(), 1u) << c.text;
    EXPECT_EQ(toString(load.diagnostics.items()[0]), c.expected);
    EXPECT_TRUE(load.lexicon.lexemes().empty() && load.lexicon.templates().empty()) << c.text;
  }
  // One run reports every bad line and keeps the good ones.
  LexiconLoad load =
      readFactoredLexicon("lexeme x a :- b:e\nlexeme 1 c :- d:e\ntemplate 1 NP", "f");
  EXPECT_EQ(load.diagnostics.errorCount(), 2);
  EXPECT_EQ(load.lexicon.lexemes().size(), 1u);
  // A repeated lexeme is a warning.
  LexiconLoad repeated = readFactoredLexicon("lexeme 1 c :- d:e\nlexeme 2 c :- d:e\n", "f");
  EXPECT_EQ(repeated.diagnostics.warningCount(), 1);
  EXPECT_EQ(repeated.lexicon.weight("lexeme:c :- d:e"), 2);
}

TEST(CcgLexiconTest, EntriesAreLexemesTimesTemplatesWhereTypesFit) {
  LexiconLoad load = readFactoredLexicon(kSample, "sample");
  FactoredLexicon& lexicon = load.lexicon;
  auto describe = [&](const std::string& phrase) {
    std::vector<std::string> out;
    for (const LexicalEntry& entry : lexicon.entriesFor(phrase)) {
      out.push_back(toString(entry.category) + " : " + toString(entry.semantics));
    }
    return out;
  };
  // Without types: every pair with matching slot counts.
  EXPECT_EQ(lexicon.buildEntries(nullptr), 3u * 3u + 1u);  // 1-slot and 0-slot pairs
  EXPECT_EQ(describe("texas"),
            (std::vector<std::string>{"NP : texas:s", "N : (lambda $0 e (texas:s $0))",
                                      "(S\\NP)/NP : (lambda $0 e (lambda $1 e (texas:s $1 $0)))"}));
  EXPECT_EQ(describe("what"),
            (std::vector<std::string>{"S/N : (lambda $0 <e,t> (exists $1 ($0 $1)))"}));
  // With types: the logical form must check and fit the category.
  const TypeSystem types = geoTypes();
  EXPECT_EQ(lexicon.buildEntries(&types), 4u);
  EXPECT_EQ(describe("texas"), (std::vector<std::string>{"NP : texas:s"}));
  EXPECT_EQ(describe("states"), (std::vector<std::string>{"N : (lambda $0 e (state:t $0))"}));
  EXPECT_EQ(
      describe("border"),
      (std::vector<std::string>{"(S\\NP)/NP : (lambda $0 e (lambda $1 e (next_to:t $1 $0)))"}));
  EXPECT_TRUE(describe("nowhere").empty());
}

TEST(CcgLexiconTest, MaximalFactoring) {
  Lexeme lexeme;
  LexicalTemplate lexicalTemplate;
  std::string error;
  maximalFactoring({"boston"}, parseCategory("N\\N"),
                   parseTerm("(lambda $3 <e,t> (lambda $4 e (and ($3 $4) (from:t $4 bos:c))))"),
                   &lexeme, &lexicalTemplate);
  EXPECT_EQ(lexemeKey(lexeme), "boston :- from:t bos:c");
  EXPECT_EQ(templateKey(lexicalTemplate),
            "N\\N : (lambda $0 <e,t> (lambda $1 e (and ($0 $1) (#0 $1 #1))))");
  EXPECT_EQ(lexicalTemplate.slotCount, 2);
}

// The maximal factoring of `words` |- category : term, as (lexeme, template).
std::pair<Lexeme, LexicalTemplate> maximallyFactored(const std::vector<std::string>& words,
                                                     const std::string& category,
                                                     const std::string& term) {
  std::pair<Lexeme, LexicalTemplate> factored;
  maximalFactoring(words, parseCategory(category), parseTerm(term), &factored.first,
                   &factored.second);
  return factored;
}

// The paper's lexemes hold the operators that words name: "(cheapest, [argmin, cost])"
// (section 5.1). Maximal factoring puts argmax / argmin / count / sum in the lexeme, in traversal
// order, so that "highest" and "lowest" differ in their lexemes and share one template.
TEST(CcgLexiconTest, MaximalFactoringPutsOperatorsInTheLexeme) {
  const auto [lowest, lowestTemplate] =
      maximallyFactored({"lowest", "point"}, "NP", "(argmin $1 (place:t $1) (elevation:i $1))");
  EXPECT_EQ(lexemeKey(lowest), "lowest point :- argmin place:t elevation:i");
  EXPECT_EQ(templateKey(lowestTemplate), "NP : (#0 (lambda $0 e (#1 $0)) (lambda $0 e (#2 $0)))");
  const auto [highest, highestTemplate] =
      maximallyFactored({"highest", "point"}, "NP", "(argmax $0 (place:t $0) (elevation:i $0))");
  EXPECT_EQ(lexemeKey(highest), "highest point :- argmax place:t elevation:i");
  EXPECT_EQ(templateKey(highestTemplate), templateKey(lowestTemplate));
  // count inside a lambda, with a slot variable in its body.
  const auto [many, manyTemplate] = maximallyFactored(
      {"how", "many"}, "S/(S|NP)", "(lambda $0 <e,t> (count $1 (and ($0 $1) (city:t $1))))");
  EXPECT_EQ(lexemeKey(many), "how many :- count city:t");
  EXPECT_EQ(templateKey(manyTemplate),
            "S/(S|NP) : (lambda $0 <e,t> (#0 (lambda $1 e (and ($0 $1) (#1 $1)))))");

  // Lexemes fill the shared template back into quantifiers; an operator in a predicate's slot,
  // or a predicate in the operator's, does not type-check.
  FactoredLexicon lexicon;
  lexicon.addLexeme(lowest);
  lexicon.addLexeme(highest);
  lexicon.addLexeme({{"texas"}, {"texas:s"}});
  lexicon.addLexeme({{"odd"}, {"place:t", "argmax", "elevation:i"}});
  lexicon.addTemplate(lowestTemplate);
  lexicon.addTemplate(highestTemplate);
  lexicon.addTemplate({parseCategory("NP"), parseTerm("#0"), 1});
  TypeSystemLoad types =
      readTypeSystem("(lo (s lo) (p lo))", "t", "((place:t p t) (elevation:i lo i))", "l");
  ASSERT_FALSE(types.diagnostics.hasErrors());
  EXPECT_EQ(lexicon.buildEntries(&types.types), 3u);
  ASSERT_EQ(lexicon.entriesFor("lowest point").size(), 1u);
  EXPECT_TRUE(exactMatch(lexicon.entriesFor("lowest point").front().semantics,
                         parseTerm("(argmin $0 (place:t $0) (elevation:i $0))")));
  ASSERT_EQ(lexicon.entriesFor("highest point").size(), 1u);
  EXPECT_EQ(toString(lexicon.entriesFor("highest point").front().semantics),
            "(argmax $0 (place:t $0) (elevation:i $0))");
  EXPECT_TRUE(lexicon.entriesFor("odd").empty());
}

TEST(CcgLexiconTest, FixedLexiconReportsBadLines) {
  LexiconLoad load = readFixedLexicon(
      "texas :- NP : texas:s\nno arrow\n :- NP : a:e\nx :- NP : #0\ny :- NP (a:e)\n"
      "z :- S : (state:t $1)\n// comment\n",
      "fixed");
  std::vector<std::string> messages;
  for (const Diagnostic& d : load.diagnostics) messages.push_back(toString(d));
  const std::vector<std::string> expected = {
      "fixed:2:1: error: expected 'WORDS :- CATEGORY : LOGICAL-FORM'",
      "fixed:3:2: error: expected at least one word before ':-'",
      "fixed:4:1: error: constants starting with '#' are template slots, not allowed in a lexical "
      "entry",
      "fixed:5:6: error: expected 'CATEGORY : LOGICAL-FORM' (a ':' with spaces around it)",
      "fixed:6:1: error: the logical form has a free variable $1",
  };
  EXPECT_EQ(messages, expected);
  EXPECT_EQ(load.lexicon.lexemes().size(), 1u);
}

TEST(CcgLexiconTest, FixedLexiconsOfTheData) {
  GWB_REQUIRE_SHARED(geo880, "data/geoquery/np-fixedlex.geo");
  for (const std::string& path :
       {geo880, testing::sharedPath("data/geoquery/geo250/en-np-fixedlex.geo"),
        testing::sharedPath("data/geoquery/geo250/es-np-fixedlex.geo"),
        testing::sharedPath("data/geoquery/geo250/ja-np-fixedlex.geo"),
        testing::sharedPath("data/geoquery/geo250/tr-np-fixedlex.geo")}) {
    LexiconLoad load = loadFixedLexicon(path);
    EXPECT_TRUE(load.diagnostics.empty()) << path << ": " << toString(load.diagnostics.items()[0]);
    EXPECT_EQ(load.lexicon.templates().size(), 1u) << path;  // NP : #0
    EXPECT_GT(load.lexicon.lexemes().size(), 50u) << path;
  }
  LexiconLoad load = loadFixedLexicon(geo880);
  EXPECT_EQ(load.lexicon.lexemes().size(), 2382u);  // 2401 lines, 19 of them repeated
  EXPECT_EQ(load.lexicon.longestLexeme(), 6);
  EXPECT_EQ(load.lexicon.buildEntries(nullptr), 2382u);
  ASSERT_EQ(load.lexicon.entriesFor("the united states").size(), 1u);
  EXPECT_EQ(toString(load.lexicon.entriesFor("the united states")[0].semantics), "usa:co");
  EXPECT_EQ(load.lexicon.entriesFor("alabama").size(), 2u);  // alabama:s and alabama:n
}

// The entries of a sentence are those of each of its phrases, by start, then end.
TEST(CcgLexiconTest, SentenceEntriesAreThoseOfEveryPhrase) {
  LexiconLoad load = readFactoredLexicon(
      "lexeme 1 texas :- texas:s\nlexeme 1 the capital of :- capital:c\n"
      "lexeme 1 capital :- capital:c\nlexeme 0 the :-\n"
      "template 0 NP : #0\ntemplate 0 NP/NP : (lambda $0 e (#0 $0))\n",
      "l");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  load.lexicon.buildEntries(nullptr);
  const std::vector<std::string> words = {"the", "capital", "of", "texas"};
  std::vector<std::string> got;
  for (const SpanEntry& span : sentenceEntries(load.lexicon, words)) {
    got.push_back(std::to_string(span.begin) + "-" + std::to_string(span.end) + " " +
                  lexemeKey(load.lexicon.lexemes()[span.entry->lexeme]) + " | " +
                  templateKey(load.lexicon.templates()[span.entry->lexicalTemplate]));
  }
  // "the" has no constants and no template has no slot: no entry; the other lexemes pair with
  // both one-slot templates (no type system: slot counts only).
  const std::vector<std::string> expected = {
      "0-3 the capital of :- capital:c | NP : #0",
      "0-3 the capital of :- capital:c | NP/NP : (lambda $0 e (#0 $0))",
      "1-2 capital :- capital:c | NP : #0",
      "1-2 capital :- capital:c | NP/NP : (lambda $0 e (#0 $0))",
      "3-4 texas :- texas:s | NP : #0",
      "3-4 texas :- texas:s | NP/NP : (lambda $0 e (#0 $0))",
  };
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(sentenceEntries(load.lexicon, {}).empty());
}

}  // namespace
}  // namespace gwb::ccg
