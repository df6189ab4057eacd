#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/ds_parser.h"
#include "gwb/ds/hypothesis_search.h"
#include "shared_data.h"

namespace gwb::ds {
namespace {

SemanticExample item(const std::string& sentence, const std::string& semantics) {
  SemanticExample ex;
  ex.sentence = sentence;
  ex.semantics = RecordType::parse(semantics).value();
  return ex;
}

TEST(DsHypothesisSearchTest, FindsTheKnownActionsOfASimpleSentence) {
  GWB_REQUIRE_SHARED(seedFile,
                     "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
  const DsGrammarLoad seed = loadDsGrammar(seedFile.substr(0, seedFile.rfind('/')));
  ASSERT_TRUE(seed.ok());
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

// An auxiliary carries no content of its own but a one-place feature of the event, on a
// LINKed tree (the authors' learned action for "can"): tree building plus content in one word.
TEST(DsHypothesisSearchTest, FindsLinkedFeatureActionsForAuxiliaries) {
  GWB_REQUIRE_SHARED(seedFile,
                     "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
  const DsGrammarLoad seed = loadDsGrammar(seedFile.substr(0, seedFile.rfind('/')));
  ASSERT_TRUE(seed.ok());
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
  // A target no content can build says why it has no tuple.
  const ExampleHypotheses none = search.hypotheses(item("Eve", "[x==eve : e|head==x : e]"), {});
  EXPECT_TRUE(none.tuples.empty());
  EXPECT_EQ(none.note, "no action sequence reaches the target record type");
}

// Determiners (cn>e with hyp-build-cn-e-*), nouns (cn) and transitive verbs (e>(e>t) with
// hyp-build-et-*): a tuple's word actions, loaded as a lexicon, parse the sentence back to its
// target record type.
TEST(DsHypothesisSearchTest, TuplesForDeterminersNounsAndTransitiveVerbsParseBack) {
  GWB_REQUIRE_SHARED(seedFile,
                     "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
  const std::string folder = seedFile.substr(0, seedFile.rfind('/'));
  const DsGrammarLoad seed = loadDsGrammar(folder);
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

// The per-item budget: a tiny one stops the search, and the note says so.
TEST(DsHypothesisSearchTest, ReportsTheBudget) {
  GWB_REQUIRE_SHARED(seedFile,
                     "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
  const DsGrammarLoad seed = loadDsGrammar(seedFile.substr(0, seedFile.rfind('/')));
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
