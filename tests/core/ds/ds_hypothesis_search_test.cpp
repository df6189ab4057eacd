#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/ds_parser.h"
#include "gwb/ds/hypothesis_search.h"
#include "gwb/ds/lexicon_learner.h"
#include "shared_data.h"

namespace gwb::ds {
namespace {

SemanticExample item(const std::string& sentence, const std::string& semantics) {
  SemanticExample ex;
  ex.sentence = sentence;
  ex.semantics = RecordType::parse(semantics).value();
  return ex;
}

std::string folderOf(const std::string& file) { return file.substr(0, file.rfind('/')); }

// The tests search with the induction seed of the 2013 English TTR learner (its computational
// actions and macros), read once and copied into each test.
class DsHypothesisSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GWB_REQUIRE_SHARED(file,
                       "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
    seedFile = file;
    static const DsGrammarLoad loaded = loadDsGrammar(folderOf(file));
    ASSERT_TRUE(loaded.ok());
    seed = loaded;
  }

  std::string seedFile;  // the seed's computational-actions.txt
  DsGrammarLoad seed;
};

TEST_F(DsHypothesisSearchTest, FindsTheKnownActionsOfASimpleSentence) {
  const HypothesisSearch search(seed.grammar);
  const SemanticExample ex =
      item("you go", "[x==you : e|e1==go : es|p1==subj(e1, x) : t|head==e1 : es]");
  const ExampleHypotheses h = search.hypotheses(ex, {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  // The lexical actions a DS grammar writer gives these words (labels renamed).
  const std::string you =
      "IF    ?Ty(e)\nTHEN  put(Ty(e))\n      ttrput([x5==you : e|head==x5 : e])\nELSE  abort";
  const std::string go =
      "IF    ?Ty(e>t)\nTHEN  put(Ty(e>t))\n      ttrput(R1^(R1 ++ [e4==go : es|p9==subj(e4, "
      "R1.head) : t|head==e4 : es]))\nELSE  abort";
  bool found = false;
  for (const auto& t : h.tuples)
    found = found || (h.hypotheses[t[0]].key == canonicalHypothesisKey(you) &&
                      h.hypotheses[t[1]].key == canonicalHypothesisKey(go));
  std::string all;
  for (const auto& t : h.tuples)
    all += "\n--- " + h.hypotheses[t[0]].action + "\n+++ " + h.hypotheses[t[1]].action;
  EXPECT_TRUE(found) << all;
}

// A learned hypothesis traced back to its training item: the path that gave it, replayed as a
// DAG whose lexical edges of the word are exactly the hypothesis's steps.
TEST_F(DsHypothesisSearchTest, DerivationReplaysTheStepsOfAHypothesis) {
  const HypothesisSearch search(seed.grammar);
  const SemanticExample ex =
      item("you go", "[x==you : e|e1==go : es|p1==subj(e1, x) : t|head==e1 : es]");
  const ExampleHypotheses h = search.hypotheses(ex, {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  for (const std::size_t word : {std::size_t{0}, std::size_t{1}}) {
    const WordHypothesis& wanted = h.hypotheses[h.tuples[0][word]];
    const HypothesisDerivation d = search.derivation(ex, h.words[word], wanted.key, {});
    ASSERT_TRUE(d.found()) << d.note;
    EXPECT_EQ(d.wordIndex, static_cast<int>(word));
    ASSERT_EQ(d.stepWord.size(), d.path.size());
    // One edge per step, one node per tree, all on the path, ending at the target.
    const ParseDag& dag = d.replay.dag;
    ASSERT_EQ(dag.edges().size(), d.path.size());
    EXPECT_EQ(dag.nodes().size(), d.path.size() + 1);
    EXPECT_EQ(d.replay.path.size(), d.path.size());
    EXPECT_EQ(d.replay.outcome, ParseOutcome::Parsed);
    ASSERT_TRUE(d.replay.rootFormula && d.replay.rootFormula->isRecord());
    EXPECT_TRUE(equalUpToRelabelling(d.replay.rootFormula->recordType(), ex.semantics));
    // The hypothesis's edges are the word's lexical edges, and their steps make its action.
    std::string action;
    for (const int e : d.hypothesisEdges()) {
      const DagEdge& edge = dag.edges()[static_cast<std::size_t>(e)];
      EXPECT_TRUE(edge.lexical);
      EXPECT_EQ(edge.wordIndex, static_cast<int>(word));
      EXPECT_EQ(edge.word, h.words[word]);
      action += (action.empty() ? "" : "\n") + d.path[static_cast<std::size_t>(e)].action;
    }
    EXPECT_EQ(canonicalHypothesisKey(action), wanted.key);
    for (const DagEdge& edge : dag.edges()) {
      if (edge.lexical) {
        EXPECT_EQ(edge.word, h.words[static_cast<std::size_t>(edge.wordIndex)]);
      }
    }
  }
  const HypothesisDerivation none = search.derivation(ex, "go", "no such key", {});
  EXPECT_FALSE(none.found());
  EXPECT_FALSE(none.note.empty());
  EXPECT_TRUE(none.replay.dag.nodes().empty());
}

// An auxiliary carries no content of its own but a one-place feature of the event, on a
// LINKed tree (the authors' learned action for "can"): tree building plus content in one word.
TEST_F(DsHypothesisSearchTest, FindsLinkedFeatureActionsForAuxiliaries) {
  const HypothesisSearch search(seed.grammar);
  const ExampleHypotheses h =
      search.hypotheses(item("Mommy can read",
                             "[x==mommy : e|e1==read : es|p2==can_aux_feature(e1) : t|p5==subj(e1, "
                             "x) : t|head==e1 : es]"),
                        {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  const std::string can = seed.grammar.findAction("hyp-adj-t-generic")->toString() +
                          "\nIF    ?Ty(t)\nTHEN  put(Ty(t))\n      ttrput([head : es|p==can_aux_"
                          "feature(head) : t])\nELSE  abort";
  bool found = false;
  for (const auto& t : h.tuples)
    found = found || h.hypotheses[t[1]].key == canonicalHypothesisKey(can);
  EXPECT_TRUE(found);
  // A target no content can build (an event with no entity and no feature) says why it has no
  // tuple.
  const ExampleHypotheses none = search.hypotheses(item("Eve", "[e1==go : es|head==e1 : es]"), {});
  EXPECT_TRUE(none.tuples.empty());
  EXPECT_EQ(none.note, "no action sequence reaches the target record type");
}

// LINK adjunction of a ?ty(t) tree is searched with the seed's specific macros (off a ty(t)
// node, off the axiom, off a ?ty(e>t) node) but learned as hyp-adj-t-generic, as DyLan's
// hypothesiser records it: the authors' lexicons hold only the generic one, and one LINKed
// feature is one hypothesis, not one per macro that reached it.
TEST_F(DsHypothesisSearchTest, LinkAdjunctionIsLearnedAsTheGenericAction) {
  const HypothesisSearch search(seed.grammar);
  const ExampleHypotheses h =
      search.hypotheses(item("is Eve going_to read",
                             "[x==eve : e|e2==read : es|p8==subj(e2, x) : t|p9==go(e2) : t|p3==be_"
                             "aux_feature(e2) : t|head==e2 : es]"),
                        {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  const std::string generic = seed.grammar.findAction("hyp-adj-t-generic")->toString();
  std::vector<std::string> specific;
  for (const char* name : {"hyp-adj-t", "hyp-adj-t-init", "hyp-adj-t-req-et"})
    specific.push_back(seed.grammar.findAction(name)->toString());
  int linked = 0;
  for (const WordHypothesis& w : h.hypotheses) {
    for (const std::string& s : specific)
      EXPECT_EQ(w.action.find(s), std::string::npos) << w.action;
    if (w.action.find(generic) != std::string::npos) ++linked;
  }
  EXPECT_GT(linked, 0);
  // The derivation names the step after the action the word learned.
  bool named = false;
  for (const WordHypothesis& w : h.hypotheses) {
    if (w.action.rfind(generic, 0) != 0) continue;
    for (std::size_t i = 0; i < 4 && !named; ++i) {
      const HypothesisDerivation d =
          search.derivation(item("is Eve going_to read",
                                 "[x==eve : e|e2==read : es|p8==subj(e2, x) : t|p9==go(e2) : "
                                 "t|p3==be_aux_feature(e2) : t|head==e2 : es]"),
                            splitWords("is Eve going_to read")[i], w.key, {});
      if (!d.found()) continue;
      for (int e : d.hypothesisEdges())
        named = named ||
                d.replay.dag.edges()[static_cast<std::size_t>(e)].action == "hyp-adj-t-generic";
    }
    break;
  }
  EXPECT_TRUE(named);
}

// Determiners (cn>e with hyp-build-cn-e-*), nouns (cn) and transitive verbs (e>(e>t) with
// hyp-build-et-*): a tuple's word actions, loaded as a lexicon, parse the sentence back to its
// target record type.
TEST_F(DsHypothesisSearchTest, TuplesForDeterminersNounsAndTransitiveVerbsParseBack) {
  const std::string folder = folderOf(seedFile);
  const HypothesisSearch search(seed.grammar);
  const SemanticExample ex =
      item("you want your milk",
           "[r : [x : e|p5==milk(x) : t|head==x : e]|x2==your(r.head, r) : e|x1==you : e|e1==want "
           ": es|p3==subj(e1, x1) : t|p4==obj(e1, x2) : t|head==e1 : es]");
  const ExampleHypotheses h = search.hypotheses(ex, {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  // Some tuple, as a lexicon of its own, parses the sentence back to its target.
  bool reproduced = false;
  for (const auto& tuple : h.tuples) {
    DsGrammarLoad g = loadDsGrammar(folder);
    std::vector<LexicalEntry> tupleEntries;
    for (std::size_t i = 0; i < tuple.size(); ++i) {
      Diagnostics diagnostics;
      std::vector<LexicalEntry> e =
          parseLearnedLexicon("[1,0]\n" +
                                  std::string(i == 0   ? "you"
                                              : i == 1 ? "want"
                                              : i == 2 ? "your"
                                                       : "milk") +
                                  "\n" + h.hypotheses[tuple[i]].action + "\n",
                              "<test>", diagnostics);
      tupleEntries.insert(tupleEntries.end(), e.begin(), e.end());
    }
    useLearnedLexicon(g.grammar, std::move(tupleEntries));
    const DsParseResult t = DsParser(g.grammar).parse(ex.sentence);
    if (t.outcome == ParseOutcome::Parsed && t.rootFormula && t.rootFormula->isRecord() &&
        equalUpToRelabelling(t.rootFormula->recordType(), ex.semantics))
      reproduced = true;
    if (reproduced) break;
  }
  EXPECT_TRUE(reproduced);
}

// Whether some tuple of `h`, loaded as a lexicon of its own, parses the sentence back to its
// target record type (a complete tree).
bool someTupleParsesBack(const std::string& folder, const SemanticExample& ex,
                         const ExampleHypotheses& h) {
  const std::vector<std::string> words = splitWords(ex.sentence);
  for (const auto& tuple : h.tuples) {
    DsGrammarLoad g = loadDsGrammar(folder);
    std::vector<LexicalEntry> entries;
    for (std::size_t i = 0; i < tuple.size(); ++i) {
      Diagnostics diagnostics;
      std::vector<LexicalEntry> e =
          parseLearnedLexicon("[1,0]\n" + words[i] + "\n" + h.hypotheses[tuple[i]].action + "\n",
                              "<test>", diagnostics);
      entries.insert(entries.end(), e.begin(), e.end());
    }
    useLearnedLexicon(g.grammar, std::move(entries));
    DsParseOptions options;
    options.axiom = std::make_shared<const DsTree>(axiomFor(ex.semantics));
    const DsParseResult t = DsParser(g.grammar).parse(ex.sentence, options);
    if (t.outcome == ParseOutcome::Parsed && t.rootFormula && t.rootFormula->isRecord() &&
        equalUpToRelabelling(t.rootFormula->recordType(), ex.semantics))
      return true;
  }
  return false;
}

// Whether some tuple gives word `w` the hypothesis `action` (compared up to relabelling).
bool someTupleHas(const ExampleHypotheses& h, std::size_t w, const std::string& action) {
  for (const auto& t : h.tuples)
    if (h.hypotheses[t[w]].key == canonicalHypothesisKey(action)) return true;
  return false;
}

std::string allTuples(const ExampleHypotheses& h) {
  std::string all;
  for (const auto& t : h.tuples) {
    all += "\n===";
    for (std::size_t w : t) all += "\n--- " + h.hypotheses[w].action;
  }
  return all;
}

// A noun-phrase fragment ("Eve", "more juice": a record type headed by an entity) is searched
// from a ?ty(e) axiom; the proper noun gets the authors' learned action.
TEST_F(DsHypothesisSearchTest, NounPhraseFragmentsStartFromATypeEAxiom) {
  const HypothesisSearch search(seed.grammar);
  EXPECT_EQ(axiomFor(RecordType::parse("[x==eve : e|head==x : e]").value())
                .pointedNode()
                .requiredType()
                .toString(),
            "e");
  const ExampleHypotheses eve = search.hypotheses(item("Eve", "[x==eve : e|head==x : e]"), {});
  ASSERT_FALSE(eve.tuples.empty()) << eve.note;
  EXPECT_TRUE(someTupleHas(
      eve, 0,
      "IF    ?Ty(e)\nTHEN  put(Ty(e))\n      ttrput([x1==eve : e|head==x1 : e])\nELSE  abort"))
      << allTuples(eve);
  const SemanticExample juice =
      item("more juice",
           "[r : [x : e|p2==juice(x) : t|head==x : e]|x1==more(r.head, r) : e|head==x1 : e]");
  const ExampleHypotheses h = search.hypotheses(juice, {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  EXPECT_TRUE(someTupleParsesBack(folderOf(seedFile), juice, h));
}

// Adjectives and nouns as LINKed e>cn content (hyp-adj-cn-e): "grape" gets the authors' shape
// `R1^(R1 ++ [head==R1.head : e|p==grape(R1.head) : t])`, on a bare restrictor `[x : e|head==x
// : e]`, and the tuple parses back.
TEST_F(DsHypothesisSearchTest, FindsAdjectivesAsLinkedEToCnContent) {
  const HypothesisSearch search(seed.grammar);
  const SemanticExample ex =
      item("more grape juice",
           "[r : [x : e|p1==juice(x) : t|p==grape(x) : t|head==x : e]|x1==more(r.head, r) : "
           "e|head==x1 : e]");
  const ExampleHypotheses h = search.hypotheses(ex, {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  bool adjective = false;
  for (const auto& t : h.tuples) {
    const std::string& grape = h.hypotheses[t[1]].action;
    adjective =
        adjective || (grape.find("ttrput([x : e|head==x : e])") != std::string::npos &&
                      grape.find("hyp") == std::string::npos &&
                      grape.find("ttrput(R1^(R1 ++ [head==R1.head : e|p==grape(R1.head) : t]))") !=
                          std::string::npos);
  }
  EXPECT_TRUE(adjective) << allTuples(h);
  EXPECT_TRUE(someTupleParsesBack(folderOf(seedFile), ex, h));
}

// Three-place verbs: e>(e>(e>t)) content under hyp-build-eet-*, the subject as R1, the object
// as R2 and the indirect object as R3 (the authors' "give"), and the tuple parses back.
TEST_F(DsHypothesisSearchTest, FindsThreePlaceVerbs) {
  const HypothesisSearch search(seed.grammar);
  const SemanticExample ex =
      item("Mommy gives you it",
           "[x==mommy : e|x1==you : e|x2==it : e|e1==give : es|p1==subj(e1, x) : t|p2==obj(e1, "
           "x2) : t|p3==ind_obj(e1, x1) : t|head==e1 : es]");
  const ExampleHypotheses h = search.hypotheses(ex, {});
  ASSERT_FALSE(h.tuples.empty()) << h.note;
  const std::string give =
      seed.grammar.findAction("hyp-build-et-1")->toString() + "\n" +
      seed.grammar.findAction("hyp-build-eet-1")->toString() +
      "\nIF    ?Ty(e>(e>(e>t)))\nTHEN  put(Ty(e>(e>(e>t))))\n      ttrput(R3^R2^R1^(R3 ++ (R2 ++ "
      "(R1 ++ [e4==give : es|p1==subj(e4, R1.head) : t|p2==obj(e4, R2.head) : t|p3==ind_obj(e4, "
      "R3.head) : t|head==e4 : es]))))\nELSE  abort";
  EXPECT_TRUE(someTupleHas(h, 1, give)) << allTuples(h);
  EXPECT_TRUE(someTupleParsesBack(folderOf(seedFile), ex, h));
}

// Subject and object follow the tree: a transitive verb's R1 is the entity in subj(...), R2 the
// one in obj(...); the swapped reading (which also reaches the target) is not proposed.
TEST_F(DsHypothesisSearchTest, VerbArgumentsFollowTheirRoles) {
  const HypothesisSearch search(seed.grammar);
  const RecordType target =
      RecordType::parse(
          "[x1==it : e|x==i : e|e1==take : es|p2==subj(e1, x) : t|p3==obj(e1, x1) : "
          "t|head==e1 : es]")
          .value();
  const std::vector<std::string> verbs =
      search.contentActions(DsType::parse("e>(e>t)").value(), target);
  ASSERT_EQ(verbs.size(), 1u);
  EXPECT_NE(verbs[0].find("p2==subj(e1, R1.head) : t|p3==obj(e1, R2.head)"), std::string::npos)
      << verbs[0];
  const std::vector<std::string> intransitive =
      search.contentActions(DsType::parse("e>t").value(), target);
  for (const std::string& v : intransitive)
    EXPECT_NE(v.find("subj(e1, R.head)"), std::string::npos) << v;
}

// Learning with the real search gives the same lexicon for any thread count.
TEST_F(DsHypothesisSearchTest, SameLearnedLexiconForAnyThreadCount) {
  const HypothesisSearch search(seed.grammar);
  const std::vector<SemanticExample> corpus = {
      item("you go", "[x==you : e|e1==go : es|p1==subj(e1, x) : t|head==e1 : es]"),
      item("Eve", "[x==eve : e|head==x : e]"),
      item("more juice",
           "[r : [x : e|p2==juice(x) : t|head==x : e]|x1==more(r.head, r) : e|head==x1 : e]"),
      item("here", "[head : es|p1==here(head) : t]"),
      item("Eve go", "[x==eve : e|e1==go : es|p1==subj(e1, x) : t|head==e1 : es]"),
      item("more grape juice",
           "[r : [x : e|p1==juice(x) : t|p==grape(x) : t|head==x : e]|x1==more(r.head, r) : "
           "e|head==x1 : e]")};
  HypothesisSearchOptions searchOptions;
  const HypothesisGenerator generate = [&](const SemanticExample& ex, std::size_t) {
    return search.hypotheses(ex, searchOptions);
  };
  LearningOptions options;
  options.threads = 1;
  const LearningResult serial = learnLexicon(corpus, generate, options);
  EXPECT_EQ(serial.progress.itemsWithoutTuples, 0u);
  options.threads = 2;
  options.batch = 3;
  const LearningResult parallel = learnLexicon(corpus, generate, options);
  EXPECT_EQ(losslessLexiconText(parallel.em), losslessLexiconText(serial.em));
  EXPECT_EQ(learnedLexiconText(parallel.em, 3), learnedLexiconText(serial.em, 3));
}

// The per-item budget: a tiny one stops the search, and the note says so.
TEST_F(DsHypothesisSearchTest, ReportsTheBudget) {
  const HypothesisSearch search(seed.grammar);
  HypothesisSearchOptions tight;
  tight.maxExpansions = 3;
  const ExampleHypotheses h = search.hypotheses(
      item("you go", "[x==you : e|e1==go : es|p1==subj(e1, x) : t|head==e1 : es]"), tight);
  EXPECT_TRUE(h.budgetHit);
  EXPECT_NE(h.note.find("search stopped at its budget (3 trees"), std::string::npos) << h.note;
}

}  // namespace
}  // namespace gwb::ds

namespace gwb::ds {
namespace {

// Review (dsfinish): a seed that only has hyp-adj-t-generic (no specific LINK macros) must
// still search LINK adjunction of a ?ty(t) tree with it, as before the LINK change: skipping the
// generic action is only right when the specific macros stand in for it.
TEST_F(DsHypothesisSearchTest, AGenericOnlySeedStillSearchesLinkAdjunction) {
  std::ifstream in(seedFile, std::ios::binary);
  std::stringstream all;
  all << in.rdbuf();
  std::string actions = all.str();
  // Drop the three specific macros (each a block from its name to the next blank-line gap).
  for (const std::string name : {"\nhyp-adj-t-req-et\n", "\nhyp-adj-t-init\n", "\nhyp-adj-t\n"}) {
    const std::size_t at = actions.find(name);
    ASSERT_NE(at, std::string::npos) << name;
    const std::size_t end = actions.find("\n\n", at + name.size());
    ASSERT_NE(end, std::string::npos);
    actions.erase(at + 1, end - at);
  }
  DsGrammarText text;
  text.directory = "generic-only";
  text.computationalActions = actions;
  const DsGrammarLoad genericOnly = parseDsGrammar(text);
  ASSERT_TRUE(genericOnly.ok());
  ASSERT_NE(genericOnly.grammar.findAction("hyp-adj-t-generic"), nullptr);
  ASSERT_EQ(genericOnly.grammar.findAction("hyp-adj-t"), nullptr);
  ASSERT_EQ(genericOnly.grammar.findAction("hyp-adj-t-init"), nullptr);
  ASSERT_EQ(genericOnly.grammar.findAction("hyp-adj-t-req-et"), nullptr);
  const HypothesisSearch search(genericOnly.grammar);
  const ExampleHypotheses h =
      search.hypotheses(item("Mommy can read",
                             "[x==mommy : e|e1==read : es|p2==can_aux_feature(e1) : t|p5==subj(e1, "
                             "x) : t|head==e1 : es]"),
                        {});
  EXPECT_FALSE(h.tuples.empty()) << h.note;
}

}  // namespace
}  // namespace gwb::ds
