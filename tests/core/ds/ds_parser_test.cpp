#include "gwb/ds/ds_parser.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/record_type.h"
#include "gwb/ds/semantic_corpus.h"
#include "shared_data.h"

namespace gwb::ds {
namespace {

struct ReferenceRow {
  std::string id;
  std::string sentence;
  std::string result;
  std::string rootRecordType;
  std::string maximalSemantics;
};

std::vector<ReferenceRow> readReference(const std::string& path) {
  std::vector<ReferenceRow> rows;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> cols;
    std::istringstream fields(line);
    for (std::string c; std::getline(fields, c, '\t');) cols.push_back(c);
    if (cols.size() < 6) continue;
    rows.push_back({cols[0], cols[1], cols[2], cols[3], cols[5]});
  }
  return rows;
}

// True if `formula` is a record type equal to `expected` up to relabelling ("-": no formula).
bool sameRecordType(const FormulaPtr& formula, const std::string& expected, std::string* why) {
  if (expected == "-") return true;
  auto reference = RecordType::parse(expected);
  if (!reference) {
    *why = "bad reference " + expected;
    return false;
  }
  if (!formula || !formula->isRecord()) {
    *why = "no record type (" + (formula ? formula->text() : std::string("null")) + ")";
    return false;
  }
  if (equalUpToRelabelling(formula->recordType(), *reference)) return true;
  *why = formula->text() + "\n   vs DyLan's " + expected;
  return false;
}

class DsReferenceTest : public ::testing::TestWithParam<SearchStrategy> {};

TEST_P(DsReferenceTest, GivesDyLansResultsOnTheReferenceSentences) {
  GWB_REQUIRE_SHARED(reference, "reference/dylan/parses-2013-english-ttr.tsv");
  GWB_REQUIRE_SHARED(actions, "data/dylan/2013-english-ttr/computational-actions.txt");
  const DsGrammarLoad load = loadDsGrammar(actions.substr(0, actions.rfind('/')));
  ASSERT_TRUE(load.ok());
  const DsParser parser(load.grammar);
  DsParseOptions options;
  options.strategy = GetParam();
  const std::vector<ReferenceRow> rows = readReference(reference);
  ASSERT_EQ(rows.size(), 23u);
  int matching = 0;
  for (const ReferenceRow& row : rows) {
    const DsParseResult result = parser.parse(row.sentence, options);
    std::string why;
    const bool outcome = row.result == outcomeName(result.outcome);
    const bool root = sameRecordType(result.rootFormula, row.rootRecordType, &why);
    EXPECT_TRUE(outcome) << row.sentence << ": " << outcomeName(result.outcome) << " vs DyLan's "
                         << row.result;
    EXPECT_TRUE(root) << row.sentence << ": root " << why;
    const bool maximal = sameRecordType(result.maximalSemantics, row.maximalSemantics, &why);
    EXPECT_TRUE(maximal) << row.sentence << ": maximal semantics " << why;
    if (outcome && root && maximal) ++matching;
    // Failed sentences fail where DyLan's do: at the first word no tree can take.
    if (row.result == "FAILED") {
      EXPECT_GE(result.failedWord, 0) << row.sentence;
    }
  }
  EXPECT_EQ(matching, 23);
}

INSTANTIATE_TEST_SUITE_P(Strategies, DsReferenceTest,
                         ::testing::Values(SearchStrategy::BreadthFirst,
                                           SearchStrategy::BestFirst));

std::string toyDir() { return testing::sourceDir() + "/tests/data/ds/toy"; }

TEST(DsParserTest, ParsesTheToyGrammar) {
  const DsGrammarLoad load = loadDsGrammar(toyDir());
  ASSERT_TRUE(load.ok());
  const DsParser parser(load.grammar);
  struct Case {
    const char* sentence;
    ParseOutcome outcome;
    int failedWord;
    const char* root;  // up to relabelling; "-" for none
  };
  const Case cases[] = {
      {"ann sleeps", ParseOutcome::Parsed, -1,
       "[x1==ann : e|head==e1 : es|e1==sleep : es|p1==agent(e1, x1) : t]"},
      {"bob ran", ParseOutcome::Parsed, -1,
       "[x==bob : e|head==e : es|e==run : es|p==agent(e, x) : t]"},
      {"ann sleeps quietly", ParseOutcome::Parsed, -1,
       "[x1==ann : e|head==e1 : es|e1==sleep : es|p1==agent(e1, x1) : t|p2==quiet(e1) : t]"},
      {"ann", ParseOutcome::Incomplete, -1, "-"},
      {"sleeps ann", ParseOutcome::Failed, 0, "-"},
      {"ann bob", ParseOutcome::Failed, 1, "-"},
      {"ann sleeps sings", ParseOutcome::Failed, 2, "-"},  // no usable entry for "sings"
      {"", ParseOutcome::Incomplete, -1, "-"},
  };
  for (SearchStrategy strategy : {SearchStrategy::BreadthFirst, SearchStrategy::BestFirst}) {
    DsParseOptions options;
    options.strategy = strategy;
    for (const Case& c : cases) {
      const DsParseResult r = parser.parse(c.sentence, options);
      EXPECT_EQ(r.outcome, c.outcome) << c.sentence;
      EXPECT_EQ(r.failedWord, c.failedWord) << c.sentence;
      std::string why;
      EXPECT_TRUE(sameRecordType(r.rootFormula, c.root, &why)) << c.sentence << ": " << why;
      EXPECT_GE(r.finalNode, 0) << c.sentence;
    }
  }
}

TEST(DsParserTest, BuildsAnAcyclicDagWithTheSuccessfulPath) {
  const DsGrammarLoad load = loadDsGrammar(toyDir());
  ASSERT_TRUE(load.ok());
  const DsParser parser(load.grammar);
  const DsParseResult r = parser.parse("ann sleeps quietly");
  ASSERT_EQ(r.outcome, ParseOutcome::Parsed);
  const ParseDag& dag = r.dag;
  // Every edge goes to more words, or within a word to a node created later.
  for (const DagEdge& e : dag.edges()) {
    const DagNode& from = dag.node(e.from);
    const DagNode& to = dag.node(e.to);
    if (e.lexical) {
      EXPECT_EQ(to.wordsConsumed, from.wordsConsumed + 1);
      EXPECT_EQ(e.wordIndex, from.wordsConsumed);
    } else {
      EXPECT_EQ(to.wordsConsumed, from.wordsConsumed);
      EXPECT_GT(e.to, e.from);
    }
  }
  // The path runs from the axiom to the complete tree, one lexical edge per word.
  ASSERT_FALSE(r.path.empty());
  EXPECT_EQ(dag.edges()[static_cast<std::size_t>(r.path.front())].from, 0);
  EXPECT_EQ(dag.edges()[static_cast<std::size_t>(r.path.back())].to, r.finalNode);
  int lexical = 0;
  for (std::size_t i = 0; i < r.path.size(); ++i) {
    const DagEdge& e = dag.edges()[static_cast<std::size_t>(r.path[i])];
    if (i > 0) {
      EXPECT_EQ(dag.edges()[static_cast<std::size_t>(r.path[i - 1])].to, e.from);
    }
    lexical += e.lexical ? 1 : 0;
  }
  EXPECT_EQ(lexical, 3);
  EXPECT_TRUE(dag.node(r.finalNode).complete);
  // The DOT export draws every node and edge, the path in red.
  const std::string dot = dag.toDot(r.path);
  EXPECT_EQ(dot.rfind("digraph ds_parse {", 0), 0u);
  std::size_t red = 0;
  for (std::size_t at = dot.find("color=red"); at != std::string::npos;
       at = dot.find("color=red", at + 1))
    ++red;
  EXPECT_EQ(red, r.path.size());
  EXPECT_NE(dot.find("peripheries=2"), std::string::npos);
  EXPECT_NE(dot.find("label=\"sleeps"), std::string::npos);
  // Closures are recorded on the edges that triggered them.
  bool sawClosure = false;
  for (const DagEdge& e : dag.edges())
    for (const std::string& name : e.closure) sawClosure = sawClosure || name == "elimination";
  EXPECT_TRUE(sawClosure);
}

TEST(DsParserTest, KeepsABeamOfTreesPerWord) {
  GWB_REQUIRE_SHARED(actions, "data/dylan/2013-english-ttr/computational-actions.txt");
  const DsGrammarLoad load = loadDsGrammar(actions.substr(0, actions.rfind('/')));
  ASSERT_TRUE(load.ok());
  const DsParser parser(load.grammar);
  DsParseOptions all;
  DsParseOptions beam;
  beam.beam = 3;
  for (const char* sentence : {"john likes mary", "a man likes mary", "john arrives from london"}) {
    const DsParseResult full = parser.parse(sentence, all);
    const DsParseResult narrow = parser.parse(sentence, beam);
    EXPECT_EQ(narrow.outcome, ParseOutcome::Parsed) << sentence;
    EXPECT_LE(narrow.dag.nodes().size(), full.dag.nodes().size()) << sentence;
    ASSERT_TRUE(narrow.rootFormula && full.rootFormula);
    EXPECT_TRUE(
        equalUpToRelabelling(narrow.rootFormula->recordType(), full.rootFormula->recordType()));
  }
}

TEST(DsParserTest, CancelStopsTheSearchAndSaysSo) {
  const DsGrammarLoad load = loadDsGrammar(toyDir());
  ASSERT_TRUE(load.ok());
  const DsParser parser(load.grammar);
  for (SearchStrategy strategy : {SearchStrategy::BreadthFirst, SearchStrategy::BestFirst}) {
    std::atomic<bool> cancel{false};
    DsParseOptions options;
    options.strategy = strategy;
    options.cancel = &cancel;
    const DsParseResult free = parser.parse("ann sleeps quietly", options);
    EXPECT_EQ(free.outcome, ParseOutcome::Parsed);
    EXPECT_FALSE(free.cancelled);
    EXPECT_GT(free.dag.nodes().size(), 3u);

    cancel = true;
    const DsParseResult stopped = parser.parse("ann sleeps quietly", options);
    EXPECT_TRUE(stopped.cancelled);
    EXPECT_FALSE(stopped.truncated);
    EXPECT_NE(stopped.outcome, ParseOutcome::Parsed);
    EXPECT_EQ(stopped.dag.nodes().size(), 1u);  // the axiom, and nothing after it

    // The size bound is not a cancel, and says so apart.
    DsParseOptions small;
    small.strategy = strategy;
    small.maxNodes = 2;
    const DsParseResult bounded = parser.parse("ann sleeps quietly", small);
    EXPECT_TRUE(bounded.truncated);
    EXPECT_FALSE(bounded.cancelled);
  }
}

// The memory budget: a parse that fits gives the same DAG as without one; one that does not
// stops before passing it, with truncated and memoryExhausted set. The estimate grows with the
// trees, not only with their number: a longer sentence's trees cost more each.
TEST(DsParserTest, AMemoryBudgetBoundsTheDagAndSaysSo) {
  GWB_REQUIRE_SHARED(actions, "data/dylan/2013-english-ttr/computational-actions.txt");
  const DsGrammarLoad load = loadDsGrammar(actions.substr(0, actions.rfind('/')));
  ASSERT_TRUE(load.ok());
  const DsParser parser(load.grammar);
  const std::string sentence = "john likes mary who likes john who likes mary";
  for (SearchStrategy strategy : {SearchStrategy::BreadthFirst, SearchStrategy::BestFirst}) {
    SCOPED_TRACE(static_cast<int>(strategy));
    DsParseOptions options;
    options.strategy = strategy;
    const DsParseResult free = parser.parse(sentence, options);
    EXPECT_EQ(free.outcome, ParseOutcome::Parsed);
    EXPECT_FALSE(free.truncated);
    EXPECT_GT(free.approximateBytes, free.dag.nodes().size() * sizeof(DagNode));

    options.maxBytes = free.approximateBytes;  // exactly enough
    const DsParseResult enough = parser.parse(sentence, options);
    EXPECT_FALSE(enough.truncated);
    EXPECT_EQ(enough.dag.nodes().size(), free.dag.nodes().size());
    EXPECT_EQ(enough.approximateBytes, free.approximateBytes);

    options.maxBytes = free.approximateBytes / 3;
    const DsParseResult bounded = parser.parse(sentence, options);
    EXPECT_TRUE(bounded.truncated);
    EXPECT_TRUE(bounded.memoryExhausted);
    EXPECT_FALSE(bounded.cancelled);
    EXPECT_LE(bounded.approximateBytes, options.maxBytes);
    EXPECT_LT(bounded.dag.nodes().size(), free.dag.nodes().size());

    // The tree limit alone is not the memory limit.
    DsParseOptions few;
    few.strategy = strategy;
    few.maxNodes = 5;
    const DsParseResult counted = parser.parse(sentence, few);
    EXPECT_TRUE(counted.truncated);
    EXPECT_FALSE(counted.memoryExhausted);
  }
  // Bytes per tree grow with the sentence (trees grow), which is why the tree limit alone does
  // not bound memory.
  const DsParseResult shortOne = parser.parse("john likes mary");
  const DsParseResult longOne =
      parser.parse("john likes mary who likes john who likes mary who likes john");
  EXPECT_GT(longOne.approximateBytes / longOne.dag.nodes().size(),
            shortOne.approximateBytes / shortOne.dag.nodes().size());
}

// A lexicon whose action nests the root formula once more with every word: `conjoin` of a
// non-TTR formula gives ((g(a) & g(a)) & g(a)) ..., `put(fo(f(X)))` gives f(f(f(...))). Every
// recursive walk over such a formula (substitution, evaluation, destruction) went as deep as
// the sentence is long; a long enough sentence overflowed the stack. The action now fails once
// the formula would nest more than kMaxBuiltFormulaDepth deep, the parse says why, and no
// formula in the DAG is deeper.
TEST(DsParserTest, FormulasNestingOnceMorePerWordStopAtTheDepthBound) {
  for (const char* effect : {"conjoin(g(a))", "put(fo(f(X)))"}) {
    SCOPED_TRACE(effect);
    DsGrammarText text;
    text.directory = "g";
    text.computationalActions = "noop\nIF ?ty(t)\nTHEN do_nothing\nELSE abort\n";
    text.lexicalActions = std::string("deeper(W)\nIF ?ty(t)\n") +
                          (std::string(effect).rfind("put", 0) == 0 ? "   fo(X)\n" : "") + "THEN " +
                          effect + "\nELSE abort\n";
    // The first word gives the root its formula.
    text.lexicalActions += "\nfirst(W)\nIF ?ty(t)\nTHEN put(fo(a))\nELSE abort\n";
    text.lexicon = "start first start\nw deeper w\n";
    const DsGrammarLoad load = parseDsGrammar(text);
    ASSERT_TRUE(load.ok()) << (load.diagnostics.empty() ? ""
                                                        : toString(load.diagnostics.items()[0]));
    const DsParser parser(load.grammar);
    // Short enough: every word is taken.
    std::vector<std::string> words{"start"};
    words.resize(100, "w");
    const DsParseResult fine = parser.parse(words);
    EXPECT_EQ(fine.outcome, ParseOutcome::Incomplete);
    EXPECT_FALSE(fine.formulaTooDeep);
    // Too long: the word that would nest it past the bound fails, and the parse says why.
    words.resize(static_cast<std::size_t>(kMaxBuiltFormulaDepth) + 200, "w");
    const DsParseResult deep = parser.parse(words);
    EXPECT_EQ(deep.outcome, ParseOutcome::Failed);
    EXPECT_TRUE(deep.formulaTooDeep);
    EXPECT_GT(deep.failedWord, kMaxBuiltFormulaDepth / 2);
    EXPECT_LE(deep.failedWord, kMaxBuiltFormulaDepth);
    int deepest = 0;
    for (const DagNode& node : deep.dag.nodes())
      if (const FormulaPtr f = node.tree->pointedNode().formula())
        deepest = std::max(deepest, f->depth());
    EXPECT_LE(deepest, kMaxBuiltFormulaDepth);
    EXPECT_GT(deepest, kMaxBuiltFormulaDepth - 3);
  }
}

TEST(DsParserTest, ParsesWithALearnedProbabilisticLexicon) {
  // Eshghi, Hough & Purver 2013, Table 1: with the authors' top-1 and top-2 lexicons and the
  // 2013 seed grammar, 59% and 85% of the 100 test utterances are covered (every word parsed).
  GWB_REQUIRE_SHARED(seed, "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
  GWB_REQUIRE_SHARED(test, "data/dylan/childes-eve/CHILDESconversion100TestFinal.txt");
  Diagnostics diagnostics;
  const std::vector<SemanticExample> corpus = loadSemanticCorpus(test, diagnostics);
  ASSERT_EQ(corpus.size(), 100u);
  for (const auto& [top, coverage] : {std::pair<int, int>{1, 59}, std::pair<int, int>{2, 85}}) {
    GWB_REQUIRE_SHARED(lexicon, "data/dylan/2013-ttr-learner-output/lexicon.lex-top-" +
                                    std::to_string(top) + ".txt");
    DsGrammarLoad load = loadDsGrammar(seed.substr(0, seed.rfind('/')));
    ASSERT_TRUE(load.ok());
    useLearnedLexicon(load.grammar, loadLearnedLexicon(lexicon, diagnostics));
    ASSERT_TRUE(diagnostics.empty());
    EXPECT_TRUE(load.grammar.probabilistic);
    const DsParser parser(load.grammar);
    int covered = 0;
    for (const SemanticExample& example : corpus) {
      const DsParseResult r = parser.parse(example.sentence);
      covered += r.outcome != ParseOutcome::Failed ? 1 : 0;
      // Paths carry the log probabilities of their lexical edges.
      if (r.outcome == ParseOutcome::Parsed) {
        double sum = 0;
        for (int e : r.path) sum += r.dag.edges()[static_cast<std::size_t>(e)].logProbability;
        EXPECT_NEAR(r.dag.node(r.finalNode).logProbability, sum, 1e-9);
        EXPECT_LE(sum, 0.0);
      }
    }
    EXPECT_EQ(covered, coverage) << "top-" << top;
  }
}

// Every tree of every DAG has its pointer on one of its nodes (DsTree's invariant; the DAG
// view and the DOT export draw the pointed node). The 2009 grammar's merge broke it.
TEST(DsParserTest, EveryTreeOfEveryDyLanGrammarPointsAtANode) {
  GWB_REQUIRE_SHARED(dylan, "data/dylan");
  for (const char* folder : {"2009-english", "2013-english-ttr"}) {
    const DsGrammarLoad load = loadDsGrammar(dylan + "/" + folder);
    ASSERT_TRUE(load.ok()) << folder;
    const DsParser parser(load.grammar);
    for (const char* sentence : {"john likes mary", "mary likes john"}) {
      const DsParseResult r = parser.parse(sentence);
      EXPECT_EQ(r.outcome, ParseOutcome::Parsed) << folder << ": " << sentence;
      for (const DagNode& n : r.dag.nodes())
        ASSERT_NE(n.tree->find(n.tree->pointer()), nullptr)
            << folder << ": " << sentence << ": tree " << n.id << "\n"
            << n.tree->toString();
      EXPECT_FALSE(r.dag.toDot(r.path).empty());
    }
  }
}

TEST(DsParserTest, SplitsSentencesIntoWords) {
  EXPECT_EQ(splitWords("  john\tlikes  mary \n"),
            (std::vector<std::string>{"john", "likes", "mary"}));
  EXPECT_TRUE(splitWords("   ").empty());
}

}  // namespace
}  // namespace gwb::ds
