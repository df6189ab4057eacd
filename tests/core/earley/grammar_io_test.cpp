#include "gwb/earley/grammar_io.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "gwb/common/atomic_file.h"
#include "gwb/common/number_format.h"
#include "shared_data.h"

namespace gwb {
namespace {

GrammarLoad read(const std::string& text, GrammarFormat format, const std::string& root = "") {
  GrammarReadOptions options;
  options.format = format;
  options.root = root;
  options.runChecks = false;
  return readGrammar(text, "test", options);
}

std::string allDiagnostics(const GrammarLoad& load) {
  std::string out;
  for (const Diagnostic& d : load.diagnostics) out += toString(d) + "\n";
  return out;
}

std::string earleyxText(const Grammar& grammar) {
  std::ostringstream out;
  std::string error;
  EXPECT_TRUE(writeEarleyx(grammar, out, &error)) << error;
  return out.str();
}

std::string nltkText(const Grammar& grammar) {
  std::ostringstream out;
  writeNltk(grammar, out);
  return out.str();
}

// Two grammars are the same when their rules are, in order, to the bit.
void expectSameGrammar(const Grammar& a, const Grammar& b) {
  ASSERT_EQ(a.ruleCount(), b.ruleCount());
  for (RuleId id = 0; id < static_cast<RuleId>(a.ruleCount()); ++id) {
    ASSERT_EQ(a.ruleText(id), b.ruleText(id));
    ASSERT_EQ(a.rule(id).probability, b.rule(id).probability) << a.ruleText(id);
    ASSERT_EQ(a.rule(id).prior, b.rule(id).prior) << a.ruleText(id);
    ASSERT_EQ(a.kind(id), b.kind(id));
  }
  ASSERT_EQ(a.start().has_value(), b.start().has_value());
  if (a.start()) {
    EXPECT_EQ(a.symbols().name(*a.start()), b.symbols().name(*b.start()));
  }
}

TEST(EarleyxReaderTest, ReadsEveryRuleKindAndThePriorColumn) {
  const GrammarLoad load = read(
      "ROOT->[S] : 1\n"
      "1 S->[NP VP] : 0.5\n"
      "1e+10 S->[_hello _world] : 5.000000e-01\n"
      "NP->[Det _dog] : 1.0\n"
      "0.1 Det->[_the] : 1\n"
      "VP->[_barks] : 1.0000005\n",
      GrammarFormat::Earleyx);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  const Grammar& g = load.grammar;
  ASSERT_EQ(g.ruleCount(), 6u);
  EXPECT_EQ(g.symbols().name(*g.start()), "ROOT");
  EXPECT_EQ(g.kind(0), RuleKind::Phrasal);
  EXPECT_EQ(g.kind(2), RuleKind::MultiTerminal);
  EXPECT_EQ(g.kind(3), RuleKind::Fragment);
  EXPECT_EQ(g.kind(4), RuleKind::Lexical);
  EXPECT_FALSE(g.rule(0).prior.has_value());
  EXPECT_EQ(g.rule(1).prior, 1.0);
  EXPECT_EQ(g.rule(2).prior, 1e10);
  EXPECT_EQ(g.rule(4).prior, 0.1);
  EXPECT_EQ(g.rule(5).probability, 1.0);  // Earleyx's rounding slack
  EXPECT_EQ(g.ruleText(3), "NP -> Det 'dog'");
  EXPECT_TRUE(g.hasPriors());
  EXPECT_FALSE(g.hasUnknownWordModel());
}

TEST(EarleyxReaderTest, TerminalsAndNonterminalsAreSeparateNameSpaces) {
  const GrammarLoad load = read("ROOT->[the _the] : 1\nthe->[_x] : 1\n", GrammarFormat::Earleyx);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  const auto& symbols = load.grammar.symbols();
  EXPECT_NE(*symbols.findTerminal("the"), *symbols.findNonterminal("the"));
  EXPECT_EQ(load.grammar.kind(0), RuleKind::Fragment);
}

TEST(EarleyxReaderTest, KeepsPunctuationSymbolNames) {
  const GrammarLoad load = read(
      "ROOT->[S] : 1\nS->[-LRB- PRP$ #] : 1\n-LRB-->[_-LRB-] : 1\nPRP$->[_its] : 1\n#->[_#] : 1\n",
      GrammarFormat::Earleyx);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  EXPECT_EQ(load.grammar.ruleText(1), "S -> -LRB- PRP$ #");
  EXPECT_EQ(load.grammar.ruleText(2), "-LRB- -> '-LRB-'");
}

TEST(EarleyxReaderTest, UnknownWordSignaturesAreDetected) {
  const GrammarLoad load =
      read("ROOT->[NN] : 1\nNN->[_dog] : 0.5\nNN->[_UNK-LC] : 0.5\n", GrammarFormat::Earleyx);
  EXPECT_TRUE(load.grammar.hasUnknownWordModel());
}

TEST(EarleyxReaderTest, StartSymbolIsRootThenTheOnlyUnusedSymbol) {
  EXPECT_EQ(read("S->[A] : 1\nA->[_a] : 1\n", GrammarFormat::Earleyx).grammar.start(),
            std::optional<SymbolId>(0));
  const GrammarLoad document = read(
      "Document->[Sentence Document] : 0.5\nDocument->[Sentence] : 0.5\n"
      "Sentence->[_a] : 1\n",
      GrammarFormat::Earleyx);
  ASSERT_TRUE(document.ok());
  EXPECT_EQ(document.grammar.symbols().name(*document.grammar.start()), "Document");
  const GrammarLoad ambiguous = read("A->[_a] : 1\nB->[_b] : 1\n", GrammarFormat::Earleyx);
  EXPECT_FALSE(ambiguous.ok());
  EXPECT_NE(allDiagnostics(ambiguous).find("pass --root"), std::string::npos);
  // The candidates, for a chooser; and the hint names the chooser of whoever reads.
  std::vector<std::string> candidates;
  for (SymbolId s : startSymbolCandidates(ambiguous.grammar))
    candidates.push_back(ambiguous.grammar.symbols().name(s));
  EXPECT_EQ(candidates, (std::vector<std::string>{"A", "B"}));
  EXPECT_TRUE(startSymbolCandidates(document.grammar).size() == 1 &&
              document.grammar.symbols().name(startSymbolCandidates(document.grammar)[0]) ==
                  "Document");
  GrammarReadOptions workbench;
  workbench.format = GrammarFormat::Earleyx;
  workbench.chooseRootHint = "pick one in the Start box";
  const std::string message =
      allDiagnostics(readGrammar("A->[_a] : 1\nB->[_b] : 1\n", "test", workbench));
  EXPECT_NE(message.find("2 candidates (A, B); pick one in the Start box"), std::string::npos)
      << message;
  EXPECT_EQ(message.find("--root"), std::string::npos) << message;
  const GrammarLoad chosen = read("A->[_a] : 1\nB->[_b] : 1\n", GrammarFormat::Earleyx, "B");
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ(chosen.grammar.symbols().name(*chosen.grammar.start()), "B");
  const GrammarLoad missing = read("A->[_a] : 1\n", GrammarFormat::Earleyx, "S");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(allDiagnostics(missing).find("start symbol 'S' has no rules"), std::string::npos);
}

TEST(EarleyxReaderTest, IdenticalDuplicatesMergeConflictingOnesAreErrors) {
  const GrammarLoad same =
      read("S->[_a] : 0.5\nS->[_a] : 0.5\nS->[_b] : 0.5\n", GrammarFormat::Earleyx);
  EXPECT_TRUE(same.ok());
  EXPECT_EQ(same.grammar.ruleCount(), 2u);
  EXPECT_EQ(same.diagnostics.warningCount(), 1);
  const GrammarLoad conflict =
      read("S->[_a] : 0.5\nS->[_b] : 0.5\nS->[_a] : 0.25\n", GrammarFormat::Earleyx);
  ASSERT_EQ(conflict.diagnostics.errorCount(), 1);
  EXPECT_EQ(toString(conflict.diagnostics.items()[0]),
            "test:3:11: error: conflicting duplicate: the rule on line 1 has probability 0.5, "
            "this one 0.25");
}

TEST(NltkReaderTest, ReadsAlternativesQuotesEpsilonAndPriors) {
  const GrammarLoad load = read(
      "# a comment\n"
      "%start S\n"
      "NP -> Det N [0.6] | \"John\" [0.4]   # trailing comment\n"
      "S -> NP VP [1.0]\n"
      "VP -> V NP [0.7]\n"
      "   | V [0.2]\n"
      "   | [0.1]\n"
      "Det -> 'the' [0.5; prior=0.1] | 'it\\'s' [0.5]\n"
      "N -> 'dog' [1]\nV -> 'saw' [1]\n",
      GrammarFormat::Nltk);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  const Grammar& g = load.grammar;
  EXPECT_EQ(g.symbols().name(*g.start()), "S");
  ASSERT_EQ(g.ruleCount(), 10u);
  EXPECT_EQ(g.ruleText(1), "NP -> 'John'");
  EXPECT_EQ(g.kind(5), RuleKind::Epsilon);
  EXPECT_EQ(g.ruleText(5), "VP -> ε");
  EXPECT_DOUBLE_EQ(g.rule(5).probability, 0.1);
  EXPECT_EQ(g.rule(6).prior, 0.1);
  EXPECT_EQ(g.symbols().name(g.rule(7).rhs[0]), "it's");
  EXPECT_EQ(g.rule(3).sourceLine, 5);
  EXPECT_EQ(g.rule(4).sourceLine, 6);
}

TEST(NltkReaderTest, CfgWithoutProbabilitiesIsUniform) {
  const GrammarLoad load =
      read("S -> NP VP\nNP -> 'a' | 'b' | 'c'\nVP -> 'v'\n", GrammarFormat::Nltk);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  EXPECT_EQ(load.grammar.symbols().name(*load.grammar.start()), "S");
  EXPECT_DOUBLE_EQ(load.grammar.rule(1).probability, 1.0 / 3.0);
  EXPECT_EQ(load.grammar.rule(0).probability, 1.0);
  EXPECT_EQ(load.diagnostics.items().front().severity, Severity::Note);
}

TEST(NltkReaderTest, MixingRulesWithAndWithoutProbabilitiesIsAnError) {
  const GrammarLoad load = read("S -> A [1.0]\nA -> 'a' | 'b' [0.5]\n", GrammarFormat::Nltk);
  ASSERT_EQ(load.diagnostics.errorCount(), 1) << allDiagnostics(load);
  EXPECT_EQ(toString(load.diagnostics.items()[0]),
            "test:2:6: error: expected a probability `[p]` at the end of this alternative (other "
            "rules have one)");
}

TEST(RoundTripTest, EarleyxWriteReadIsIdentical) {
  const std::string text =
      "ROOT->[S] : 1\n1 S->[NP VP] : 0.3333333333333333\n1e+10 NP->[_a _b] : 1\n"
      "0.001 VP->[X _c Y] : 1e-300\nX->[_x] : 1\nY->[_y] : 1\n";
  const GrammarLoad first = read(text, GrammarFormat::Earleyx);
  ASSERT_TRUE(first.ok()) << allDiagnostics(first);
  const std::string written = earleyxText(first.grammar);
  EXPECT_EQ(written, text);
  const GrammarLoad second = read(written, GrammarFormat::Earleyx);
  expectSameGrammar(first.grammar, second.grammar);
}

TEST(RoundTripTest, NltkWriteReadIsIdenticalEvenForAwkwardNames) {
  const GrammarLoad first = read(
      "ROOT->[S] : 1\nS->['' # PRP$ -LRB- a|b x->y] : 0.5\nS->[_it's _a\\b _#] : 0.5\n"
      "''->[_''] : 1\n#->[_#] : 1\nPRP$->[_its] : 1\n-LRB-->[_(] : 1\na|b->[_|] : 1\n"
      "x->y->[_->] : 1\n",
      GrammarFormat::Earleyx);
  ASSERT_TRUE(first.ok()) << allDiagnostics(first);
  const std::string written = nltkText(first.grammar);
  const GrammarLoad second = read(written, GrammarFormat::Nltk);
  ASSERT_TRUE(second.ok()) << allDiagnostics(second) << written;
  expectSameGrammar(first.grammar, second.grammar);
  EXPECT_EQ(nltkText(second.grammar), written);
}

TEST(RoundTripTest, EpsilonRulesCannotBeWrittenAsEarleyx) {
  const GrammarLoad load = read("S -> A 'b' [1]\nA -> [0.5] | 'a' [0.5]\n", GrammarFormat::Nltk);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  std::ostringstream out;
  std::string error;
  EXPECT_FALSE(writeEarleyx(load.grammar, out, &error));
  EXPECT_NE(error.find("ε-rule"), std::string::npos);
}

TEST(RoundTripTest, NamesTheEarleyxFormatCannotHoldAreRefused) {
  const GrammarLoad load = read("S -> _A [1]\n_A -> 'a' [1]\n", GrammarFormat::Nltk);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  std::ostringstream out;
  std::string error;
  EXPECT_FALSE(writeEarleyx(load.grammar, out, &error));
  EXPECT_NE(error.find("starts with `_`"), std::string::npos) << error;
}

// Found by fuzz_earleyx_grammar: a file starting with two byte-order marks reads with the second
// one as (part of) the first symbol; written first, that symbol's mark was skipped on reading back.
TEST(RoundTripTest, ASymbolBeginningWithAByteOrderMarkIsRefusedByTheEarleyxWriter) {
  const GrammarLoad load = read("\xEF\xBB\xBF\xEF\xBB\xBF->[S] : 0.", GrammarFormat::Earleyx);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  std::ostringstream out;
  std::string error;
  EXPECT_FALSE(writeEarleyx(load.grammar, out, &error));
  EXPECT_NE(error.find("begins with a byte-order mark"), std::string::npos) << error;
}

TEST(RoundTripTest, NltkOutputUsesPlainNumbersAndQuotesNltkCanRead) {
  const GrammarLoad load = read("S -> \"it's\" [0.25] | 'a' [0.75]\n", GrammarFormat::Nltk);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  const std::string text = nltkText(load.grammar);
  EXPECT_NE(text.find("S -> \"it's\" [0.25]"), std::string::npos) << text;
  EXPECT_NE(text.find("S -> 'a' [0.75]"), std::string::npos) << text;
}

TEST(FormatTest, ProbabilitiesPrintInShortestRoundTripForm) {
  EXPECT_EQ(formatProbability(0.5), "0.5");
  EXPECT_EQ(formatProbability(1.0), "1");
  EXPECT_EQ(formatProbability(1e10), "1e+10");
  EXPECT_EQ(formatProbability(1e-300), "1e-300");
  const double third = 1.0 / 3.0;
  EXPECT_EQ(std::stod(formatProbability(third)), third);
}

TEST(FormatTest, DetectsFormatByNameThenContent) {
  EXPECT_EQ(detectGrammarFormat("", "x.cfg"), GrammarFormat::Nltk);
  EXPECT_EQ(detectGrammarFormat("", "x.iogrammar"), GrammarFormat::Earleyx);
  EXPECT_EQ(detectGrammarFormat("\n1 S->[A] : 1\n", "x.txt"), GrammarFormat::Earleyx);
  EXPECT_EQ(detectGrammarFormat("# c\nS -> A [1]\n", "x.txt"), GrammarFormat::Nltk);
}

TEST(SaveTest, SavingIsAtomicAndReadsBack) {
  const GrammarLoad load = read("S -> 'a' [0.25] | 'b' [0.75]\n", GrammarFormat::Nltk);
  const std::string path = ::testing::TempDir() + "/gwb_save_test.cfg";
  std::string error;
  ASSERT_TRUE(saveGrammarFile(load.grammar, path, GrammarFormat::Auto, &error)) << error;
  const GrammarLoad back = loadGrammarFile(path);
  ASSERT_TRUE(back.ok()) << allDiagnostics(back);
  expectSameGrammar(load.grammar, back.grammar);
  // A failing writer leaves the old file whole.
  EXPECT_FALSE(writeFileAtomically(path, [](std::ostream& out) {
    out << "partial";
    return false;
  }));
  std::string text;
  ASSERT_TRUE(readWholeFile(path, &text));
  EXPECT_EQ(text.find("partial"), std::string::npos);
  std::remove(path.c_str());
}

TEST(SaveTest, SavedFilesKeepTheTargetsPermissions) {
  const GrammarLoad load = read("S -> 'a' [1]\n", GrammarFormat::Nltk);
  const std::string path = ::testing::TempDir() + "/gwb_mode_test.cfg";
  ASSERT_TRUE(saveGrammarFile(load.grammar, path, GrammarFormat::Nltk));
  ::chmod(path.c_str(), 0644);
  ASSERT_TRUE(saveGrammarFile(load.grammar, path, GrammarFormat::Nltk));
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
  std::remove(path.c_str());
}

TEST(SaveTest, ADirectoryIsAnIoError) {
  const GrammarLoad load = loadGrammarFile(::testing::TempDir());
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_NE(load.diagnostics.items()[0].message.find("is a directory"), std::string::npos);
}

TEST(EarleyxReaderTest, ABadLineLeavesNoSymbolsBehind) {
  const GrammarLoad load = read("S->[_a] : 1\nS->[Orphan _b] : nope\n", GrammarFormat::Earleyx);
  EXPECT_FALSE(load.grammar.symbols().findNonterminal("Orphan").has_value());
}

TEST(SaveTest, UnreadableFileIsOneClearError) {
  const GrammarLoad load = loadGrammarFile("/nonexistent/dir/g.grammar");
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_NE(toString(load.diagnostics.items()[0]).find("cannot open /nonexistent/dir/g.grammar"),
            std::string::npos);
}

// tests/data/malformed/: each file is a broken grammar; expected.tsv lists, per file, the
// first error as `file<TAB>line<TAB>column<TAB>message substring`.
TEST(MalformedGrammarsTest, EachGivesItsExpectedError) {
  const std::string folder = testing::sourceDir() + "/tests/data/malformed";
  std::ifstream table(folder + "/expected.tsv");
  ASSERT_TRUE(table) << "missing " << folder << "/expected.tsv";
  std::string line;
  int cases = 0;
  while (std::getline(table, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string file, lineText, columnText, message;
    std::getline(fields, file, '\t');
    std::getline(fields, lineText, '\t');
    std::getline(fields, columnText, '\t');
    std::getline(fields, message);
    SCOPED_TRACE(file);
    const GrammarLoad load = loadGrammarFile(folder + "/" + file);
    ASSERT_TRUE(load.diagnostics.hasErrors()) << file << " loaded without error";
    const Diagnostic* firstError = nullptr;
    for (const Diagnostic& d : load.diagnostics)
      if (d.severity == Severity::Error) {
        firstError = &d;
        break;
      }
    EXPECT_EQ(firstError->line, std::stoi(lineText)) << toString(*firstError);
    EXPECT_EQ(firstError->column, std::stoi(columnText)) << toString(*firstError);
    EXPECT_NE(firstError->message.find(message), std::string::npos) << toString(*firstError);
    ++cases;
  }
  EXPECT_GE(cases, 12);
}

// ---- round trips of random grammars --------------------------------------------------------

// A name of 1–6 characters drawn mostly from the characters the formats treat specially.
std::string randomName(std::mt19937& random) {
  static const std::string kAlphabet = "\\#|'\"[]%->; \t:_.0aZ\xc3\xa9()=";
  std::uniform_int_distribution<std::size_t> length(1, 6);
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string name;
  for (std::size_t k = length(random); k > 0; --k) {
    char c = kAlphabet[pick(random)];
    if (c == '\xc3') {
      name += "\xc3\xa9";  // é, whole
      continue;
    }
    if (c == '\xa9') c = 'b';
    name += c;
  }
  return name;
}

// A random grammar over random names: a start symbol, rules of 0–4 symbols (ε-rules only when
// `epsilon`), probabilities of every magnitude, some priors. No rule twice.
Grammar randomGrammar(std::mt19937& random, bool epsilon) {
  Grammar g;
  std::vector<SymbolId> nonterminals;
  std::vector<SymbolId> terminals;
  for (int k = 0; k < 5; ++k) {
    nonterminals.push_back(g.symbols().intern(randomName(random), SymbolKind::Nonterminal));
    terminals.push_back(g.symbols().intern(randomName(random), SymbolKind::Terminal));
  }
  std::uniform_int_distribution<int> ruleLength(epsilon ? 0 : 1, 4);
  std::uniform_int_distribution<std::size_t> pick(0, nonterminals.size() - 1);
  std::uniform_real_distribution<double> exponent(-320, 0);
  std::bernoulli_distribution coin(0.5);
  for (int k = 0; k < 12; ++k) {
    Rule rule;
    rule.lhs = nonterminals[pick(random)];
    for (int n = ruleLength(random); n > 0; --n)
      rule.rhs.push_back(coin(random) ? nonterminals[pick(random)] : terminals[pick(random)]);
    rule.probability = coin(random) ? std::pow(10.0, exponent(random))
                                    : std::uniform_real_distribution<double>(0, 1)(random);
    if (coin(random)) rule.prior = std::pow(10.0, 5 + exponent(random) / 30);
    if (g.findRule(rule.lhs, rule.rhs)) continue;
    g.addRule(std::move(rule));
  }
  g.setStart(g.rules()[pick(random) % g.ruleCount()].lhs);
  return g;
}

// The same rules, in order: names, symbol kinds, probabilities and priors to the bit, and the
// same start symbol.
void expectIdentical(const Grammar& a, const Grammar& b) {
  ASSERT_EQ(a.ruleCount(), b.ruleCount());
  const auto symbolText = [](const Grammar& g, SymbolId s) {
    return (g.symbols().isTerminal(s) ? "t:" : "n:") + g.symbols().name(s);
  };
  for (RuleId id = 0; id < static_cast<RuleId>(a.ruleCount()); ++id) {
    const Rule& x = a.rule(id);
    const Rule& y = b.rule(id);
    ASSERT_EQ(symbolText(a, x.lhs), symbolText(b, y.lhs));
    ASSERT_EQ(x.rhs.size(), y.rhs.size()) << a.ruleText(id);
    for (std::size_t k = 0; k < x.rhs.size(); ++k)
      ASSERT_EQ(symbolText(a, x.rhs[k]), symbolText(b, y.rhs[k])) << a.ruleText(id);
    ASSERT_EQ(x.probability, y.probability) << a.ruleText(id);
    ASSERT_EQ(x.prior, y.prior) << a.ruleText(id);
  }
  ASSERT_TRUE(b.start().has_value());
  EXPECT_EQ(a.symbols().name(*a.start()), b.symbols().name(*b.start()));
}

// Every writer's output reads back to the same grammar, whatever the symbol names hold. The
// Earleyx format may refuse a grammar (saying why); it has no start directive, so the start
// symbol is passed back as --root would pass it.
TEST(RoundTripTest, RandomGrammarsWithAwkwardNamesReadBackIdentically) {
  std::mt19937 random(20261125);
  int earleyxWritten = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Grammar grammar = randomGrammar(random, trial % 2 == 0);
    const std::string start = grammar.symbols().name(*grammar.start());

    const std::string nltk = nltkText(grammar);
    const GrammarLoad fromNltk = read(nltk, GrammarFormat::Nltk);
    ASSERT_TRUE(fromNltk.ok()) << allDiagnostics(fromNltk) << nltk;
    expectIdentical(grammar, fromNltk.grammar);
    if (::testing::Test::HasFatalFailure()) FAIL() << nltk;

    std::ostringstream out;
    std::string error;
    if (!writeEarleyx(grammar, out, &error)) {
      EXPECT_FALSE(error.empty());
      continue;
    }
    ++earleyxWritten;
    const GrammarLoad fromEarleyx = read(out.str(), GrammarFormat::Earleyx, start);
    ASSERT_TRUE(fromEarleyx.ok()) << allDiagnostics(fromEarleyx) << out.str();
    expectIdentical(grammar, fromEarleyx.grammar);
    if (::testing::Test::HasFatalFailure()) FAIL() << out.str();
  }
  EXPECT_GT(earleyxWritten, 10);  // the Earleyx writer was exercised, not only its refusals
}

TEST(NltkReaderTest, StartDirectiveReadsEscapes) {
  const GrammarLoad load =
      read("%start A\\#B\\ \\|\\'\\\"\\[\\\\ \nA\\#B\\ \\|\\'\\\"\\[\\\\ -> 'a' [1]\n",
           GrammarFormat::Nltk);
  ASSERT_TRUE(load.ok()) << allDiagnostics(load);
  EXPECT_EQ(load.grammar.symbols().name(*load.grammar.start()), "A#B |'\"[\\");
  EXPECT_FALSE(read("%start A B\nA -> 'a' [1]\n", GrammarFormat::Nltk).ok());
  EXPECT_FALSE(read("%start\nA -> 'a' [1]\n", GrammarFormat::Nltk).ok());
}

}  // namespace
}  // namespace gwb
