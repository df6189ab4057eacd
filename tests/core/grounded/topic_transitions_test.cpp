#include "gwb/grounded/topic_transitions.h"

#include <sstream>

#include <gtest/gtest.h>

#include "gwb/earley/grammar_io.h"
#include "shared_data.h"

namespace gwb {
namespace {

Grammar readEarleyx(const std::string& text, const std::string& root) {
  GrammarReadOptions options;
  options.format = GrammarFormat::Earleyx;
  options.root = root;
  options.runChecks = false;
  GrammarLoad load = readGrammar(text, "g", options);
  EXPECT_TRUE(load.ok());
  return std::move(load.grammar);
}

const char* kTwoTopics =
    "Discourse->[Discourse.car] : 0.75\n"
    "Discourse->[Discourse.truck] : 0.25\n"
    "Discourse.car->[Sentence.car Discourse.car] : 0.6\n"
    "Discourse.car->[Sentence.car Discourse.truck] : 0.3\n"
    "Discourse.car->[Sentence.car] : 0.1\n"
    "Discourse.truck->[Sentence.truck Discourse.car] : 0.2\n"
    "Discourse.truck->[Sentence.truck Discourse.truck] : 0.2\n"
    "Discourse.truck->[Sentence.truck] : 0.6\n"
    "Sentence.car->[_vroom] : 1\n"
    "Sentence.truck->[_beep] : 1\n";

TEST(TopicTransitionsTest, ReadsTheMarkovChain) {
  const Grammar g = readEarleyx(kTwoTopics, "Discourse");
  std::string error;
  const auto t = topicTransitions(g, &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->topics, (std::vector<std::string>{"car", "truck"}));
  EXPECT_DOUBLE_EQ(t->transition(0, 0), 0.6);
  EXPECT_DOUBLE_EQ(t->transition(0, 1), 0.3);
  EXPECT_DOUBLE_EQ(t->transition(1, 0), 0.2);
  EXPECT_DOUBLE_EQ(t->ending(1), 0.6);
  EXPECT_DOUBLE_EQ(t->initial(0), 0.75);
  const Eigen::MatrixXd p = t->stochastic();
  EXPECT_DOUBLE_EQ(p(0, 0), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(p(1, 1), 0.5);
  // π P = π for P = [[2/3, 1/3], [1/2, 1/2]]: π = (3/5, 2/5).
  const Eigen::VectorXd pi = t->stationary();
  EXPECT_NEAR(pi(0), 0.6, 1e-12);
  EXPECT_NEAR(pi(1), 0.4, 1e-12);

  // Occupancy with endings: Q = [[0.6, 0.3], [0.2, 0.2]], start (0.75, 0.25);
  // v = start (I − Q)⁻¹ = (2.5, 1.25): 2/3 of the utterances are about the car.
  const Eigen::VectorXd v = t->occupancy();
  EXPECT_NEAR(v(0), 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(v(1), 1.0 / 3.0, 1e-12);

  const auto top = topTransitions(*t, t->transition, 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].from + ">" + top[0].to, "car>car");
  EXPECT_EQ(top[1].from + ">" + top[1].to, "car>truck");
  const auto perTopic = topTransitionsPerTopic(*t, t->transition, 1);
  ASSERT_EQ(perTopic.size(), 2u);
  EXPECT_EQ(perTopic[1].from + ">" + perTopic[1].to, "truck>car");  // a tie: first column

  std::ostringstream csv;
  writeTransitionsCsv(*t, csv);
  EXPECT_EQ(csv.str(), "from,car,truck,end\ncar,0.6,0.3,0.1\ntruck,0.2,0.2,0.6\n");
}

// The stationary distribution says when it is not unique or not defined, rather than printing
// one least-squares answer as if it were the answer.
TEST(TopicTransitionsTest, StationaryDistributionSaysWhenItIsNotUniqueOrUndefined) {
  using Status = StationaryDistribution::Status;
  struct Case {
    const char* grammar;
    Status status;
    const char* mentions;  // in the explanation
  };
  const Case cases[] = {
      {kTwoTopics, Status::Unique, ""},
      // Every topic absorbing: any distribution is stationary.
      {"Discourse->[Discourse.a] : 0.5\nDiscourse->[Discourse.b] : 0.5\n"
       "Discourse.a->[Sentence.a Discourse.a] : 0.5\nDiscourse.a->[Sentence.a] : 0.5\n"
       "Discourse.b->[Sentence.b Discourse.b] : 0.5\nDiscourse.b->[Sentence.b] : 0.5\n"
       "Sentence.a->[_x] : 1\nSentence.b->[_y] : 1\n",
       Status::NotUnique, "2 closed classes of topics (2 absorbing"},
      // Topic b only ends: the chain given that the discourse goes on stops there.
      {"Discourse->[Discourse.a] : 1\n"
       "Discourse.a->[Sentence.a Discourse.b] : 0.5\nDiscourse.a->[Sentence.a] : 0.5\n"
       "Discourse.b->[Sentence.b] : 1\nSentence.a->[_x] : 1\nSentence.b->[_y] : 1\n",
       Status::Undefined, "(b) have no transition"},
      // A transient topic feeding one closed class: unique.
      {"Discourse->[Discourse.a] : 1\n"
       "Discourse.a->[Sentence.a Discourse.b] : 0.5\nDiscourse.a->[Sentence.a] : 0.5\n"
       "Discourse.b->[Sentence.b Discourse.b] : 0.5\nDiscourse.b->[Sentence.b] : 0.5\n"
       "Sentence.a->[_x] : 1\nSentence.b->[_y] : 1\n",
       Status::Unique, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.grammar);
    const auto t = topicTransitions(readEarleyx(c.grammar, "Discourse"));
    ASSERT_TRUE(t);
    const StationaryDistribution s = t->stationaryDistribution();
    EXPECT_EQ(s.status, c.status) << s.explanation;
    EXPECT_NE(s.explanation.find(c.mentions), std::string::npos) << s.explanation;
    if (c.status == Status::Undefined) {
      EXPECT_EQ(s.pi.size(), 0);
    } else {
      ASSERT_EQ(s.pi.size(), static_cast<Eigen::Index>(t->topics.size()));
      EXPECT_NEAR(s.pi.sum(), 1.0, 1e-12);
      EXPECT_LT((s.pi.transpose() * t->stochastic() - s.pi.transpose()).norm(), 1e-12);
    }
  }
}

// Without endings there is no occupancy (I − Q is singular). It used to fall back on a
// least-squares "stationary distribution" silently, even where there is none; now it says that
// the stationary distribution stands in, and whether that is unique.
TEST(TopicTransitionsTest, OccupancySaysWhenTheStationaryDistributionStandsIn) {
  using Status = StationaryDistribution::Status;
  const auto withEndings = topicTransitions(readEarleyx(kTwoTopics, "Discourse"));
  ASSERT_TRUE(withEndings);
  const Occupancy normal = withEndings->occupancyDistribution();
  EXPECT_TRUE(normal.fromEndings);
  EXPECT_TRUE(normal.explanation.empty());
  // Both topics absorbing, no endings: stationary, not unique.
  const auto absorbing = topicTransitions(
      readEarleyx("Discourse->[Discourse.a] : 0.5\nDiscourse->[Discourse.b] : 0.5\n"
                  "Discourse.a->[Sentence.a Discourse.a] : 1\n"
                  "Discourse.b->[Sentence.b Discourse.b] : 1\n"
                  "Sentence.a->[_x] : 1\nSentence.b->[_y] : 1\n",
                  "Discourse"));
  ASSERT_TRUE(absorbing);
  const Occupancy notUnique = absorbing->occupancyDistribution();
  EXPECT_FALSE(notUnique.fromEndings);
  EXPECT_EQ(notUnique.stationaryStatus, Status::NotUnique);
  EXPECT_NE(notUnique.explanation.find("no topic can end a discourse, so the stationary "
                                       "distribution (not unique) stands in"),
            std::string::npos)
      << notUnique.explanation;
  ASSERT_EQ(notUnique.share.size(), 2);
  EXPECT_NEAR(notUnique.share.sum(), 1.0, 1e-12);
  // A cycle a -> b -> a without endings: the stationary distribution is unique, (1/2, 1/2).
  const auto cycle =
      topicTransitions(readEarleyx("Discourse->[Discourse.a] : 1\n"
                                   "Discourse.a->[Sentence.a Discourse.b] : 1\n"
                                   "Discourse.b->[Sentence.b Discourse.a] : 1\n"
                                   "Sentence.a->[_x] : 1\nSentence.b->[_y] : 1\n",
                                   "Discourse"));
  ASSERT_TRUE(cycle);
  const Occupancy unique = cycle->occupancyDistribution();
  EXPECT_FALSE(unique.fromEndings);
  EXPECT_EQ(unique.stationaryStatus, Status::Unique);
  EXPECT_NEAR(unique.share(0), 0.5, 1e-12);
  EXPECT_NEAR(unique.share(1), 0.5, 1e-12);
}

TEST(TopicTransitionsTest, AGrammarWithoutDiscourseRulesIsAnError) {
  const Grammar g = readEarleyx("S->[_a] : 1\n", "S");
  std::string error;
  EXPECT_FALSE(topicTransitions(g, &error));
  EXPECT_EQ(error, "no transition rules Discourse.t -> Sentence.t Discourse.t' in the grammar");
}

TEST(TopicTransitionsTest, SharedUniformDiscourseGrammar) {
  GWB_REQUIRE_SHARED(path, "data/earleyx/grammars/socialDiscourse.grammar");
  GrammarReadOptions options;
  options.root = "Discourse";
  options.runChecks = false;
  const GrammarLoad load = loadGrammarFile(path, options);
  ASSERT_TRUE(load.ok());
  const auto t = topicTransitions(load.grammar);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->topics.size(), 31u);
  EXPECT_TRUE((t->transition.array() == 0.03125).all());
  const Eigen::VectorXd pi = t->stationary();
  for (Eigen::Index i = 0; i < pi.size(); ++i) EXPECT_NEAR(pi(i), 1.0 / 31.0, 1e-12);
}

TEST(TopicTransitionsTest, SharedLearnedDiscourseGrammar) {
  // The authors' VB output: car stays car, pig stays pig, with truck and dog next in line.
  GWB_REQUIRE_SHARED(path, "data/earleyx/grammars/unigram.discourse1.vb.iogrammar");
  GrammarReadOptions options;
  options.root = "Discourse";
  options.runChecks = false;
  const GrammarLoad load = loadGrammarFile(path, options);
  ASSERT_TRUE(load.ok());
  const auto t = topicTransitions(load.grammar);
  ASSERT_TRUE(t);
  const std::size_t car = *t->indexOf("car");
  const std::size_t truck = *t->indexOf("truck");
  const std::size_t pig = *t->indexOf("pig");
  const std::size_t dog = *t->indexOf("dog");
  const auto at = [&](std::size_t a, std::size_t b) {
    return t->transition(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b));
  };
  EXPECT_DOUBLE_EQ(at(car, car), 8.918324e-01);
  EXPECT_DOUBLE_EQ(at(car, truck), 6.744158e-02);
  EXPECT_DOUBLE_EQ(at(pig, pig), 8.926814e-01);
  EXPECT_DOUBLE_EQ(at(pig, dog), 7.927317e-02);
  const auto best = topTransitionsPerTopic(*t, t->stochastic(), 2);
  std::vector<std::string> fromCar;
  for (const auto& tr : best)
    if (tr.from == "car") fromCar.push_back(tr.to);
  EXPECT_EQ(fromCar, (std::vector<std::string>{"car", "truck"}));
}

}  // namespace
}  // namespace gwb
