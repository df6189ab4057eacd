#include "gwb/grounded/grounded_metrics.h"

#include <gtest/gtest.h>

#include "shared_data.h"

namespace gwb {
namespace {

DecodedUtterance decoded(const std::string& topic, std::vector<std::string> words,
                         std::vector<std::string> topics) {
  return DecodedUtterance{topic, std::move(words), std::move(topics)};
}

const std::string& N = kNullTopic;

TEST(GroundedMetricsTest, ScoresAHandMadeExample) {
  // Four utterances: a topical one, a null one, a two-topic one, a topical one with no topical
  // word.
  const GoldAnnotationLoad gold = readGoldAnnotation(
      ".dog ## the doggie.dog\n## hi there\n.dog .pig ## a piggie.pig\n.car ## look\n", "g");
  ASSERT_TRUE(gold.ok());
  const std::vector<DecodedUtterance> predicted = {
      decoded("dog", {"the", "doggie"}, {"dog", "dog"}),  // right; 'the' a false word
      decoded("car", {"hi", "there"}, {N, "car"}),        // wrong topic, false word
      decoded("pig", {"a", "piggie"}, {N, "pig"}),        // one of the two gold topics
      decoded(N, {"look"}, {N}),                          // missed
  };
  const Lexicon dictionary = goldLexicon(gold.gold);
  EXPECT_EQ(dictionary, (Lexicon{{"doggie", "dog"}, {"piggie", "pig"}}));
  std::size_t mismatches = 99;
  const GroundedScores s = scoreGrounded(gold.gold, predicted, dictionary, &mismatches);
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(s.correctUtterances, 2u);
  EXPECT_DOUBLE_EQ(s.accuracy(), 50.0);
  EXPECT_EQ(s.utteranceCorrect, (std::vector<bool>{true, false, true, false}));
  // Topic: 2 correct of 3 predicted topical; gold labels dog, dog, pig, car = 4.
  EXPECT_EQ(s.topic.correct, 2u);
  EXPECT_EQ(s.topic.predicted, 3u);
  EXPECT_EQ(s.topic.gold, 4u);
  EXPECT_DOUBLE_EQ(s.topic.precision(), 200.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.topic.recall(), 50.0);
  EXPECT_DOUBLE_EQ(s.topic.f1(), 2 * (200.0 / 3.0) * 50.0 / (200.0 / 3.0 + 50.0));
  // Words: doggie, piggie right; the, there false; gold topical tokens 2.
  EXPECT_EQ(s.word.correct, 2u);
  EXPECT_EQ(s.word.predicted, 4u);
  EXPECT_EQ(s.word.gold, 2u);
  EXPECT_EQ(s.wordCorrect, (std::vector<bool>{false, true, true, false, true, true, true}));
  // Lexicon: the/dog, doggie/dog, there/car, piggie/pig; two right.
  EXPECT_EQ(s.lexicon.predicted, 4u);
  EXPECT_EQ(s.lexicon.correct, 2u);
  EXPECT_DOUBLE_EQ(s.lexicon.recall(), 100.0);
  EXPECT_DOUBLE_EQ(s.lexicon.precision(), 50.0);
}

TEST(GroundedMetricsTest, LabelAccuracyCountsEveryGoldLabelAndEveryNone) {
  // Gold: dog | None | dog+pig | None | car — 4 topic labels, 2 None utterances: 6 items.
  const GoldAnnotationLoad gold =
      readGoldAnnotation(".dog ## a\n## b\n.dog .pig ## c\n## d\n.car ## e\n", "g");
  ASSERT_TRUE(gold.ok());
  const std::vector<DecodedUtterance> predicted = {
      decoded("dog", {"a"}, {"dog"}),  // right: 1 item
      decoded(N, {"b"}, {N}),          // right None: 1 item
      decoded("pig", {"c"}, {"pig"}),  // one of two labels right: 1 item of 2
      decoded("car", {"d"}, {"car"}),  // wrong
      decoded(N, {"e"}, {N}),          // missed
  };
  const GroundedScores s = scoreGrounded(gold.gold, predicted, goldLexicon(gold.gold));
  EXPECT_EQ(s.nullGold, 2u);
  EXPECT_EQ(s.correctUtterances, 3u);
  EXPECT_DOUBLE_EQ(s.accuracy(), 60.0);       // 3 of 5 utterances
  EXPECT_DOUBLE_EQ(s.labelAccuracy(), 50.0);  // 3 of 6 items
}

TEST(GroundedMetricsTest, MissingOrMismatchedPredictionsCountAsWrong) {
  const GoldAnnotationLoad gold = readGoldAnnotation("## a\n.dog ## dog.dog\n", "g");
  ASSERT_TRUE(gold.ok());
  std::size_t mismatches = 0;
  const GroundedScores s =
      scoreGrounded(gold.gold, {decoded(N, {"b"}, {N})}, goldLexicon(gold.gold), &mismatches);
  EXPECT_EQ(mismatches, 2u);
  EXPECT_EQ(s.correctUtterances, 0u);
  EXPECT_EQ(s.wordCorrect, (std::vector<bool>{false, false}));
  EXPECT_DOUBLE_EQ(s.word.f1(), 0.0);
}

TEST(GroundedMetricsTest, LexiconTakesEachWordsMostFrequentTopic) {
  const std::vector<DecodedUtterance> predicted = {
      decoded("dog", {"dog", "dog", "the"}, {"dog", "dog", "dog"}),
      decoded("pig", {"dog", "the", "the"}, {"pig", N, N}),
      decoded("pig", {"oink", "oink"}, {"pig", "dog"}),  // a tie: by name
      decoded("pig", {"hm", "hm"}, {"pig", N}),          // a tie with None: None
  };
  EXPECT_EQ(predictedLexicon(predicted), (Lexicon{{"dog", "dog"}, {"oink", "dog"}}));
}

TEST(GroundedMetricsTest, ReadsLexiconFiles) {
  const LexiconLoad load = readLexicon("baby baby\n# note\n\nbigbird .bird\nbad line here\n", "l");
  EXPECT_EQ(load.lexicon, (Lexicon{{"baby", "baby"}, {"bigbird", "bird"}}));
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_EQ(toString(load.diagnostics.items()[0]),
            "l:5: error: expected 'word topic', found 3 field(s)");
}

TEST(GroundedMetricsTest, SharedGoldLexiconReads) {
  GWB_REQUIRE_SHARED(path, "data/fm-corpus/gold-lexicon.txt");
  const LexiconLoad load = loadLexiconFile(path);
  EXPECT_TRUE(load.ok());
  EXPECT_EQ(load.lexicon.size(), 37u);
  EXPECT_TRUE(load.lexicon.count({"moocow", "cow"}));
}

TEST(GroundedMetricsTest, ChiSquareMatchesRsChisqTest) {
  // Expected values: Pearson's statistic with R's Yates correction and p = erfc(sqrt(x / 2))
  // (the χ²₁ tail), computed independently.
  struct Case {
    std::size_t correctA, totalA, correctB, totalB;
    bool yates;
    double statistic, p;
  };
  const Case cases[] = {
      {60, 100, 45, 100, true, 3.929824561403509, 0.047436892824865406},
      {60, 100, 45, 100, false, 4.511278195488721, 0.03367206885634585},
      {10, 20, 10, 21, true, 0.0, 1.0},  // |O − E| < 0.5: Yates takes it all
      {2531, 4763, 2430, 4763, true, 4.206303140398725, 0.0402740187781311},
      {5, 5, 0, 5, true, 6.4, 0.011412036386001656},
      {5, 5, 5, 5, true, 0.0, 1.0},  // an empty column
  };
  for (const Case& c : cases) {
    const ChiSquareTest t =
        chiSquareCorrectness(c.correctA, c.totalA, c.correctB, c.totalB, c.yates);
    EXPECT_NEAR(t.statistic, c.statistic, 1e-12 * (1 + c.statistic));
    EXPECT_NEAR(t.pValue, c.p, 1e-12);
    EXPECT_EQ(t.degreesOfFreedom, 1);
  }
  const std::vector<bool> a = {true, true, true, true, true};
  const std::vector<bool> b = {false, false, false, false, false};
  EXPECT_NEAR(chiSquareCorrectness(a, b).statistic, 6.4, 1e-12);
  EXPECT_TRUE(chiSquareCorrectness(a, b).significant());
}

}  // namespace
}  // namespace gwb
