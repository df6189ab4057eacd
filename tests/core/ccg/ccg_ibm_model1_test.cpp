#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ccg/ibm_model1.h"
#include "gwb/ccg/semantic_examples.h"
#include "shared_data.h"

namespace gwb::ccg {
namespace {

TEST(CcgIbmModel1Test, TokensOfALogicalForm) {
  const std::vector<std::string> expected = {"argmax", "and",       "place:t",
                                             "loc:t",  "florida:s", "elevation:i"};
  EXPECT_EQ(logicalFormTokens(parseTerm("(argmax $0 (and (place:t $0) (loc:t $0 florida:s)) "
                                        "(elevation:i $0))")),
            expected);
}

// Two sentences sharing "texas" and the constant texas:s: EM pins texas to texas:s, and each
// other word to the constant it co-occurs with, as Model 1's fixed point does.
TEST(CcgIbmModel1Test, LearnsTheObviousAlignment) {
  WordConstantModel model;
  model.train({{{"big", "texas"}, {"big:t", "texas:s"}},
               {{"small", "texas"}, {"small:t", "texas:s"}},
               {{"big", "ohio"}, {"big:t", "ohio:s"}}},
              30);
  EXPECT_GT(model.probability("texas:s", "texas"), 0.9);
  EXPECT_GT(model.probability("big:t", "big"), 0.9);
  EXPECT_GT(model.probability("ohio:s", "ohio"), 0.5);
  EXPECT_EQ(model.probability("texas:s", "unseen"), 0.0);
  // Each word's distribution sums to one.
  for (const std::string& word : model.words()) {
    double sum = 0;
    for (const std::string& constant : model.constants()) sum += model.probability(constant, word);
    EXPECT_NEAR(sum, 1.0, 1e-12) << word;
  }
  // UBL's score: Σ t / (|words| · (|constants| + 1)).
  EXPECT_NEAR(model.lexemeScore({"big", "texas"}, {"texas:s"}),
              (model.probability("texas:s", "big") + model.probability("texas:s", "texas")) / 4,
              1e-15);
  EXPECT_NEAR(model.lexemeScore({"texas"}, {"texas:s"}), model.probability("texas:s", "texas") / 2,
              1e-15);
  EXPECT_NEAR(model.lexemeScore({"big"}, {"big:t", "texas:s"}),
              (model.probability("big:t", "big") + model.probability("texas:s", "big")) / 3, 1e-15);
  EXPECT_EQ(model.lexemeScore({"big"}, {}), 0.0);
}

// Against the Giza++ table shipped with the data: for the words Giza++ aligns confidently
// (t > 0.5), our Model 1 picks the same best constant for at least 95% of them.
TEST(CcgIbmModel1Test, SharedAgreesWithGizaOnConfidentWords) {
  GWB_REQUIRE_SHARED(trainPath, "data/geoquery/geosents600-typed.ccg.dev");
  GWB_REQUIRE_SHARED(gizaPath, "data/geoquery/geo600.dev.giza_probs");
  SemanticExamplesLoad train = loadSemanticExamples(trainPath);
  ASSERT_EQ(train.examples.size(), 600u);
  std::vector<AlignmentPair> pairs;
  for (const SemanticExample& example : train.examples) {
    pairs.push_back({example.words, logicalFormTokens(example.logicalForm)});
  }
  WordConstantModel model;
  model.train(pairs, 10);

  std::ifstream giza(gizaPath);
  std::map<std::string, std::pair<double, std::string>> gizaBest;  // word -> (t, constant)
  std::string line;
  while (std::getline(giza, line)) {
    const std::size_t a = line.find("  ::  ");
    const std::size_t b = line.find("  ::  ", a + 6);
    ASSERT_NE(b, std::string::npos) << line;
    const std::string constant = line.substr(0, a);
    const std::string word = line.substr(a + 6, b - a - 6);
    const double t = std::stod(line.substr(b + 6));
    auto& best = gizaBest[word];
    if (t > best.first) best = {t, constant};
  }
  int confident = 0;
  int agree = 0;
  for (const auto& [word, best] : gizaBest) {
    if (best.first <= 0.5 || word == kNullWord) continue;
    ++confident;
    std::string ours;
    double oursT = -1;
    for (const std::string& constant : model.constants()) {
      if (model.probability(constant, word) > oursT) {
        oursT = model.probability(constant, word);
        ours = constant;
      }
    }
    if (ours == best.second) ++agree;
  }
  std::printf("Giza++ confident words: %d, same best constant: %d\n", confident, agree);
  EXPECT_GT(confident, 50);
  EXPECT_GE(agree * 100, confident * 95);  // 172 of 174 when written
  EXPECT_GT(model.probability("texas:s", "texas"), 0.8);
}

}  // namespace
}  // namespace gwb::ccg
