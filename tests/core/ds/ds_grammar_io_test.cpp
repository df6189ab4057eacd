#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/common/diagnostic.h"
#include "gwb/ds/ds_grammar.h"
#include "shared_data.h"

namespace gwb::ds {
namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string errorsOf(const Diagnostics& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) out += toString(d) + "\n";
  return out;
}

std::string toyDir() { return testing::sourceDir() + "/tests/data/ds/toy"; }

TEST(DsGrammarIoTest, LoadsEveryDyLanGrammarWithoutErrors) {
  struct Case {
    const char* dir;
    std::size_t computational;
    std::size_t hypotheses;
    std::size_t words;
  };
  const Case cases[] = {
      {"data/dylan/2013-english-ttr", 11, 0, 152},
      {"data/dylan/2009-english", 16, 0, 147},
      {"data/dylan/2013-english-ttr-induction-seed", 30, 20, 0},
      {"data/dylan/2023-english-ttr-induction-seed", 30, 20, 0},
  };
  for (const Case& c : cases) {
    GWB_REQUIRE_SHARED(dir, std::string(c.dir) + "/computational-actions.txt");
    const DsGrammarLoad load = loadDsGrammar(dir.substr(0, dir.rfind('/')));
    EXPECT_TRUE(load.ok()) << errorsOf(load.diagnostics);
    EXPECT_EQ(load.diagnostics.warningCount(), 0) << c.dir;
    EXPECT_EQ(load.grammar.computational.size(), c.computational) << c.dir;
    std::size_t hypotheses = 0;
    for (const DsAction& a : load.grammar.computational) hypotheses += a.hypothesis ? 1 : 0;
    EXPECT_EQ(hypotheses, c.hypotheses) << c.dir;
    EXPECT_EQ(load.grammar.lexicon().size(), c.words) << c.dir;
  }
}

TEST(DsGrammarIoTest, LoadsEveryLearnedLexicon) {
  const std::pair<const char*, std::size_t> cases[] = {
      {"data/dylan/2013-ttr-learner-output/lexicon.lex-top-1.txt", 241},
      {"data/dylan/2013-ttr-learner-output/lexicon.lex-top-2.txt", 480},
      {"data/dylan/2013-ttr-learner-output/lexicon.lex-top-3.txt", 695},
      {"data/dylan/2013-ttr-learner-output/lexicon.lex-top-4.txt", 888},
      {"data/dylan/2013-ttr-learner-output/lexicon.lex-top-5.txt", 1051},
  };
  for (const auto& [file, count] : cases) {
    GWB_REQUIRE_SHARED(path, file);
    Diagnostics diagnostics;
    const std::vector<LexicalEntry> entries = loadLearnedLexicon(path, diagnostics);
    EXPECT_TRUE(diagnostics.empty()) << toString(diagnostics.items().front());
    EXPECT_EQ(entries.size(), count) << file;
    for (const LexicalEntry& e : entries) {
      EXPECT_GT(e.probability, 0.0);
      EXPECT_LE(e.probability, 1.0);
      EXPECT_FALSE(e.action.effects.empty()) << e.word;
    }
  }
}

TEST(DsGrammarIoTest, ReadsDyLansStructures) {
  GWB_REQUIRE_SHARED(path, "data/dylan/2013-english-ttr/computational-actions.txt");
  const DsGrammarLoad load = loadDsGrammar(path.substr(0, path.rfind('/')));
  ASSERT_TRUE(load.ok());
  const DsGrammar& g = load.grammar;
  // Prefixes: * non-optional, no + in this grammar; the commented-out first link-evaluation
  // is not read.
  struct Case {
    const char* name;
    bool optional;
  };
  for (const Case& c :
       {Case{"intro-pred", true}, Case{"thinning", false}, Case{"elimination", false},
        Case{"link-evaluation", false}, Case{"merge", true}, Case{"anticipationL", true}}) {
    const DsAction* a = g.findAction(c.name);
    ASSERT_NE(a, nullptr) << c.name;
    EXPECT_EQ(a->optional, c.optional) << c.name;
  }
  // link-evaluation's THEN holds a nested IF block.
  const std::string link = g.findAction("link-evaluation")->toString();
  EXPECT_EQ(link,
            "IF    ?+eval\n"
            "      Ex.fo(x)\n"
            "      <\\/L>Ex.x\n"
            "      <\\/L>fo(X)\n"
            "THEN  conjoin(X)\n"
            "      delete(?+eval)\n"
            "      IF    </\\L>Ex.x\n"
            "            ¬</\\L>?+eval\n"
            "      THEN  go(/\\L)\n"
            "            put(?+eval)\n"
            "      ELSE  do_nothing\n"
            "ELSE  abort");
  // A verb: two IF blocks in sequence, with the event restrictor and content macros expanded.
  const std::vector<LexicalEntry>& likes = g.entries("likes");
  ASSERT_EQ(likes.size(), 1u);
  EXPECT_EQ(likes[0].label(), "likes: v_tran_fin(like, pres, s3)");
  ASSERT_EQ(likes[0].action.effects.size(), 2u);
  const std::string text = likes[0].action.toString();
  EXPECT_NE(text.find("ttrput([head : es|p1==pres(head) : t])"), std::string::npos) << text;
  EXPECT_NE(text.find("ttrput(R1^R2^(R1 ++ (R2 ++ [e1==like : es|"), std::string::npos) << text;
  // `ELSE IF` nests the second block in the ELSE branch.
  const std::vector<LexicalEntry>& will = g.entries("will");
  ASSERT_EQ(will.size(), 1u);
  ASSERT_EQ(will[0].action.effects.size(), 1u);
  const IfThenElse& ite = *will[0].action.effects[0].branch;
  ASSERT_EQ(ite.elseEffects.size(), 1u);
  EXPECT_EQ(ite.elseEffects[0].kind, EffectKind::IfThenElse);
  EXPECT_EQ(ite.elseEffects[0].branch->conditions.front()->text(), "?ty(t)");
  // Entries keep lexicon order: "read" is present tense first, then past.
  const std::vector<LexicalEntry>& read = g.entries("read");
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read[1].arguments[1], "pres");
  EXPECT_EQ(read[2].arguments[1], "past");
}

TEST(DsGrammarIoTest, ReadsTheToyGrammarWithMacrosCommentsAndMissingTemplates) {
  const DsGrammarLoad load = loadDsGrammar(toyDir());
  ASSERT_TRUE(load.ok()) << errorsOf(load.diagnostics);
  const DsGrammar& g = load.grammar;
  EXPECT_EQ(g.computational.size(), 6u);  // *never is inside a block comment
  EXPECT_EQ(g.findAction("never"), nullptr);
  EXPECT_EQ(g.nonOptionalActions().size(), 3u);
  EXPECT_EQ(g.optionalActions().size(), 3u);
  // A fully instantiated macro header is matched first, a parameterised one otherwise.
  EXPECT_NE(g.entries("ran")[0].action.toString().find("put(+past)"), std::string::npos);
  EXPECT_NE(g.entries("runs")[0].action.toString().find("put(+now)"), std::string::npos);
  // An entry whose template does not exist is skipped, with a note.
  EXPECT_TRUE(g.entries("sings").empty());
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_EQ(toString(load.diagnostics.items()[0]),
            toyDir() +
                "/lexicon.txt:8: note: template 'carol' is not in lexical-actions.txt; "
                "its 1 entries are skipped");
}

// Found by fuzz_dylan_grammar: a template parameter that is empty matched at every position of
// the body's text, so instantiating the template for a lexicon entry grew its text until memory
// ran out (std::bad_alloc after minutes). The header is rejected, and the entries that use the
// template are skipped with a note, as for any broken template.
TEST(DsGrammarIoTest, AnEmptyTemplateParameterIsAnErrorNotAnEndlessSubstitution) {
  for (const char* header : {"name(,AME)", "name()", "name(NAME,)", "name(NA ME)"}) {
    DsGrammarText grammar;
    grammar.directory = "g";
    grammar.lexicalActions = std::string(header) + "\nIF ?ty(e)\nTHEN put(ty(e))\n";
    grammar.lexicon = "st name arrest\nbob name bob x\n";
    const DsGrammarLoad load = parseDsGrammar(grammar);
    EXPECT_TRUE(load.grammar.entries("st").empty()) << header;
    EXPECT_EQ(errorsOf(load.diagnostics).rfind("g/lexical-actions.txt:1:", 0), 0u)
        << header << "\n"
        << errorsOf(load.diagnostics);
    EXPECT_NE(errorsOf(load.diagnostics).find("expected template parameters"), std::string::npos)
        << header;
  }
}

TEST(DsGrammarIoTest, MalformedFilesGiveLineColumnAndWhatWasExpected) {
  const std::string dir = testing::sourceDir() + "/tests/data/ds/malformed";
  std::istringstream expected(readText(dir + "/expected.tsv"));
  int cases = 0;
  for (std::string line; std::getline(expected, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("file\t", 0) == 0) continue;
    std::istringstream fields(line);
    std::string file;
    std::string lineText;
    std::string columnText;
    std::string message;
    std::getline(fields, file, '\t');
    std::getline(fields, lineText, '\t');
    std::getline(fields, columnText, '\t');
    std::getline(fields, message);
    const std::string text = readText(dir + "/" + file);
    ASSERT_FALSE(text.empty()) << file;
    Diagnostics diagnostics;
    std::string reportedFile;
    if (file.find(".lex-top") != std::string::npos) {
      reportedFile = file;
      parseLearnedLexicon(text, file, diagnostics);
    } else {
      DsGrammarText grammar;
      grammar.directory = "g";
      grammar.computationalActions = "ok\nIF ?ty(t)\nTHEN do_nothing\nELSE abort\n";
      grammar.lexicalActions = "name(NAME)\nIF ?ty(e)\nTHEN put(ty(e))\nELSE abort\n";
      if (file.find(".computational-actions.") != std::string::npos) {
        grammar.computationalActions = text;
        reportedFile = "g/computational-actions.txt";
      } else if (file.find(".lexical-actions.") != std::string::npos) {
        grammar.lexicalActions = text;
        reportedFile = "g/lexical-actions.txt";
      } else {
        grammar.lexicon = text;
        reportedFile = "g/lexicon.txt";
      }
      diagnostics = parseDsGrammar(grammar).diagnostics;
    }
    bool found = false;
    for (const Diagnostic& d : diagnostics) {
      if (d.severity == Severity::Error && d.file == reportedFile &&
          d.line == std::stoi(lineText) && d.column == std::stoi(columnText) &&
          d.message.find(message) != std::string::npos)
        found = true;
    }
    EXPECT_TRUE(found) << file << ": expected " << lineText << ":" << columnText << " " << message
                       << "\ngot:\n"
                       << errorsOf(diagnostics);
    ++cases;
  }
  EXPECT_EQ(cases, 14);
}

// Every reader of a DyLan grammar meets input nested 100,000 deep with a line-numbered error,
// never a stack overflow (nor the quadratic rescans of unbounded nesting).
TEST(DsGrammarIoTest, InputNested100000DeepIsAnErrorNotACrash) {
  constexpr int kDeep = 100000;
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    out.reserve(s.size() * static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  struct Case {
    std::string name;
    std::string effect;  // the THEN line of a lexical action
    std::string message;
  };
  const std::vector<Case> cases = {
      {"parenthesised type", "put(ty(" + repeat("(", kDeep) + "e" + repeat(")", kDeep) + "))",
       "type nested more than 100 deep"},
      {"arrow chain", "put(ty(" + repeat("e>", kDeep) + "t))", "type nested more than 100 deep"},
      {"left-nested arrows", "put(ty(" + repeat("(", kDeep) + "e" + repeat(">e)", kDeep) + "))",
       "type nested more than 100 deep"},
      {"record field type", "put(fo([x : " + repeat("(", kDeep) + "e" + repeat(")", kDeep) + "]))",
       "nested"},
      {"formula", "put(fo(" + repeat("f(", kDeep) + "x" + repeat(")", kDeep) + "))",
       "nested too deeply"},
      {"lambda chain", "put(fo(" + repeat("x^", kDeep) + "x))", "nested too deeply"},
      {"negated label", "put(" + repeat("\xC2\xAC", kDeep) + "+Q)", "nested too deeply"},
      {"modal label", "put(" + repeat("<\\/0>", kDeep) + "ty(e))", "nested too deeply"},
      {"modality", "go(<" + repeat("\\/0", kDeep) + ">)", "more than 32 operators"},
  };
  for (const Case& c : cases) {
    DsGrammarText grammar;
    grammar.directory = "g";
    grammar.computationalActions = "ok\nIF ?ty(t)\nTHEN do_nothing\nELSE abort\n";
    grammar.lexicalActions = "name(NAME)\nIF ?ty(e)\nTHEN " + c.effect + "\nELSE abort\n";
    const DsGrammarLoad load = parseDsGrammar(grammar);
    bool found = false;
    for (const Diagnostic& d : load.diagnostics)
      found = found || (d.severity == Severity::Error && d.file == "g/lexical-actions.txt" &&
                        d.line == 3 && d.message.find(c.message) != std::string::npos);
    EXPECT_TRUE(found) << c.name << ":\n" << errorsOf(load.diagnostics).substr(0, 500);
  }
  // The same in a type written in a condition of a computational action.
  DsGrammarText grammar;
  grammar.directory = "g";
  grammar.computationalActions =
      "deep\nIF ?ty(" + repeat("e>", kDeep) + "t)\nTHEN do_nothing\nELSE abort\n";
  grammar.lexicalActions = "name(NAME)\nIF ?ty(e)\nTHEN put(ty(e))\nELSE abort\n";
  const std::string errors = errorsOf(parseDsGrammar(grammar).diagnostics);
  EXPECT_NE(errors.find("g/computational-actions.txt:2:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("type nested more than 100 deep"), std::string::npos) << errors;
  // IF blocks nested 100,000 deep (each in the THEN of the one before).
  grammar.computationalActions = "deep\n" + repeat("IF ?ty(t)\nTHEN\n", kDeep) + "abort\n";
  const DsGrammarLoad ifs = parseDsGrammar(grammar);
  const std::string ifErrors = errorsOf(ifs.diagnostics);
  // The top IF is on line 2 and the one at depth 33 on line 2 + 2 * 33.
  EXPECT_NE(ifErrors.find("g/computational-actions.txt:68:4: error: IF blocks nested too deeply"),
            std::string::npos)
      << ifErrors.substr(0, 500);
}

// Macros calling macros multiply: k macros each calling the next twice expand to 2^k copies of
// the last one, and a macro calling itself twice did so up to the nesting limit of 16 (65,536
// copies, each error message reported at every call: a 2 KB fuzz input took 4.6 s to read).
// The work per body is bounded, whatever k is; a macro calling itself is an error.
TEST(DsGrammarIoTest, MacroExpansionIsBoundedAndSelfCallsAreErrors) {
  auto chainOfMacros = [](int k) {
    std::string macros;
    for (int i = 1; i < k; ++i) {
      const std::string next = "m" + std::to_string(i + 1);
      macros += "m" + std::to_string(i) + "\n\t" + next + "\n\t" + next + "\n\n";
    }
    macros += "m" + std::to_string(k) + "\n\tput(+Q)\n\tput(+R)\n";
    return macros;
  };
  auto load = [](const std::string& macros) {
    DsGrammarText grammar;
    grammar.directory = "g";
    grammar.computationalActions = "ok\nIF ?ty(t)\nTHEN do_nothing\nELSE abort\n";
    grammar.lexicalActions = "name(NAME)\nIF ?ty(e)\nTHEN m1\nELSE abort\n";
    grammar.lexicalMacros = macros;
    grammar.lexicon = "john name john\n";
    return parseDsGrammar(grammar);
  };
  // 2^8 copies of m8's two effects expand m2..m8 510 times in all: within the bound.
  const DsGrammarLoad small = load(chainOfMacros(8));
  ASSERT_TRUE(small.ok()) << errorsOf(small.diagnostics);
  ASSERT_EQ(small.grammar.entries("john").size(), 1u);
  const Effect& ite = small.grammar.entries("john")[0].action.effects.at(0);
  ASSERT_EQ(ite.kind, EffectKind::IfThenElse);
  EXPECT_EQ(ite.branch->thenEffects.size(), 256u);
  for (int k : {10, 16, 24, 40}) {
    const DsGrammarLoad big = load(chainOfMacros(k));
    const std::string errors = errorsOf(big.diagnostics);
    EXPECT_NE(errors.find("g/lexical-actions.txt:2: error: the macros this body calls expand to "
                          "more than 1000 lines"),
              std::string::npos)
        << k << ": " << errors.substr(0, 500);
    EXPECT_LE(big.diagnostics.size(), 2u) << k;  // not one per cut-off call
    EXPECT_TRUE(big.grammar.entries("john").empty()) << k;
  }
  // The fuzz finding's shape: a macro calling itself twice.
  const DsGrammarLoad self = load("m1\n\tput(+Q)\n\tm1\n\tm1\n");
  EXPECT_TRUE(self.grammar.entries("john").empty());
  EXPECT_LE(self.diagnostics.size(), 2u) << errorsOf(self.diagnostics).substr(0, 500);
  bool found = false;
  for (const Diagnostic& d : self.diagnostics)
    found = found || d.message.find("macro 'm1' calls itself") != std::string::npos;
  EXPECT_TRUE(found) << errorsOf(self.diagnostics).substr(0, 500);
  // Through another macro.
  const DsGrammarLoad cycle = load("m1\n\tm2\n\nm2\n\tput(+Q)\n\tm1\n");
  found = false;
  for (const Diagnostic& d : cycle.diagnostics)
    found = found || d.message.find("macro 'm1' calls itself") != std::string::npos;
  EXPECT_TRUE(found) << errorsOf(cycle.diagnostics).substr(0, 500);
}

TEST(DsGrammarIoTest, KeepsGoingAfterAnErrorAndReportsEveryOne) {
  DsGrammarText grammar;
  grammar.directory = "g";
  grammar.computationalActions =
      "first\nIF ?ty(q)\nTHEN abort\nELSE abort\n\n"
      "second\nIF ?ty(t)\nTHEN fly()\nELSE abort\n\n"
      "third\nIF ?ty(t)\nTHEN go(\\/0)\nELSE abort\n";
  const DsGrammarLoad load = parseDsGrammar(grammar);
  EXPECT_EQ(load.diagnostics.errorCount(), 2);
  // The good action is still read; the broken ones keep their good parts.
  ASSERT_NE(load.grammar.findAction("third"), nullptr);
  EXPECT_EQ(load.grammar.findAction("third")->toString(),
            "IF    ?ty(t)\nTHEN  go(\\/0)\nELSE  abort");
}

TEST(DsGrammarIoTest, ReadsLearnedLexiconsLeniently) {
  const std::string text =
      "[0.75,0]\n"
      "more\n"
      "IF    ?+eval\n"
      "      Ex.Fo(META=null[614785763])\n"
      "      <\\/L>Fo(X=null[1189367926])\n"
      "THEN  conjoin(X=null[1189367926])\n"
      "      IF    </\\L>Ex.x\n"
      "      THEN  go(</\\L>)\n"
      "      ELSE  do_nothing\n"
      "ELSE  abort\n"
      "IF    ?Ty(e)\n"
      "THEN  put(Fo(null))\n"
      "ELSE  abort\n";
  Diagnostics diagnostics;
  const std::vector<LexicalEntry> entries = parseLearnedLexicon(text, "l.txt", diagnostics);
  ASSERT_TRUE(diagnostics.empty()) << toString(diagnostics.items().front());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].word, "more");
  EXPECT_DOUBLE_EQ(entries[0].probability, 0.75);
  EXPECT_EQ(entries[0].action.toString(),
            "IF    ?+eval\n"
            "      Ex.fo(x)\n"
            "      <\\/L>fo(X)\n"
            "THEN  conjoin(X)\n"
            "      IF    </\\L>Ex.x\n"
            "      THEN  go(/\\L)\n"
            "      ELSE  do_nothing\n"
            "ELSE  abort\n"
            "IF    ?ty(e)\n"
            "THEN  put(fo(X))\n"
            "ELSE  abort");
}

}  // namespace
}  // namespace gwb::ds
