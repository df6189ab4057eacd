// The topic-transition heatmap: its cells against the grammar's own rules, orders, the
// difference view, expected counts and the CSV export.
#include "ui/grounded/transition_view.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <set>

#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "gwb/earley/grammar_io.h"
#include "gwb/grounded/social_grammar.h"
#include "shared_data.h"
#include "ui/common/qcustomplot_include.h"
#include "ui/grounded/transition_matrix.h"

namespace gwb::ui {
namespace {

std::string grounded(const std::string& name) {
  return gwb::testing::sourceDir() + "/tests/data/grounded/" + name;
}

std::shared_ptr<const gwb::Grammar> readEarleyx(const std::string& text) {
  gwb::GrammarReadOptions options;
  options.runChecks = false;
  gwb::GrammarLoad load = gwb::readGrammar(text, "test.grammar", options);
  EXPECT_TRUE(load.ok());
  return std::make_shared<const gwb::Grammar>(std::move(load.grammar));
}

// Every Discourse.t → Sentence.t Discourse.t' rule of a grammar, read straight off its rules:
// (t, t') → probability.
std::map<std::pair<std::string, std::string>, double> transitionRules(const gwb::Grammar& g) {
  std::map<std::pair<std::string, std::string>, double> rules;
  const std::string d = "Discourse.";
  const std::string s = "Sentence.";
  for (const gwb::Rule& rule : g.rules()) {
    const std::string& lhs = g.symbols().name(rule.lhs);
    if (lhs.rfind(d, 0) != 0 || rule.rhs.size() != 2) continue;
    const std::string& first = g.symbols().name(rule.rhs[0]);
    const std::string& second = g.symbols().name(rule.rhs[1]);
    const std::string from = lhs.substr(d.size());
    if (first != s + from || second.rfind(d, 0) != 0) continue;
    rules[{from, second.substr(d.size())}] = rule.probability;
  }
  return rules;
}

bool isPermutation(const std::vector<std::size_t>& order, std::size_t n) {
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::size_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  return sorted == identity;
}

// Checks that every cell of the view's colour map is the grammar's rule probability.
void expectCellsAreRuleProbabilities(const TransitionView& view, const gwb::Grammar& grammar) {
  const auto rules = transitionRules(grammar);
  const auto& order = view.displayOrder();
  const int n = static_cast<int>(view.topics().size());
  int compared = 0;
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const std::string& from = view.topics()[order[static_cast<std::size_t>(r)]];
      const std::string& to = view.topics()[order[static_cast<std::size_t>(c)]];
      const auto it = rules.find({from, to});
      const double expected = it == rules.end() ? 0.0 : it->second;
      EXPECT_DOUBLE_EQ(view.cellValue(r, c), expected) << from << " -> " << to;
      compared += it == rules.end() ? 0 : 1;
    }
  }
  EXPECT_EQ(compared, static_cast<int>(rules.size()));
}

TEST(TransitionView, TwoTopicsCellsAxesOrdersAndCsv) {
  TransitionView view;
  view.resize(800, 600);
  QString error;
  ASSERT_TRUE(view.loadGrammarFile(QString::fromStdString(grounded("two-topics.grammar")), &error))
      << error.toStdString();
  // From the file: car→car 0.6, car→truck 0.3, truck→car 0.2, truck→truck 0.2.
  EXPECT_DOUBLE_EQ(view.cellValue(0, 0), 0.6);
  EXPECT_DOUBLE_EQ(view.cellValue(0, 1), 0.3);
  EXPECT_DOUBLE_EQ(view.cellValue(1, 0), 0.2);
  EXPECT_DOUBLE_EQ(view.cellValue(1, 1), 0.2);
  EXPECT_EQ(view.csvText(), QStringLiteral("from,car,truck\ncar,0.6,0.3\ntruck,0.2,0.2\n"));
  // Matrix orientation: whole cells, row 0 on top.
  EXPECT_DOUBLE_EQ(view.plot()->xAxis->range().lower, -0.5);
  EXPECT_DOUBLE_EQ(view.plot()->xAxis->range().upper, 1.5);
  EXPECT_DOUBLE_EQ(view.plot()->yAxis->range().lower, -0.5);
  EXPECT_DOUBLE_EQ(view.plot()->yAxis->range().upper, 1.5);
  EXPECT_TRUE(view.plot()->yAxis->rangeReversed());
  // The gradient's top is dark (visible on white).
  const QRgb top = view.colorMap()->gradient().color(1.0, QCPRange(0, 1));
  EXPECT_LT(qGray(top), 100);

  // Rows rescaled: car row 0.6/0.9, 0.3/0.9; truck 0.5, 0.5.
  view.setValues(TransitionValues::RescaledRows);
  EXPECT_DOUBLE_EQ(view.cellValue(0, 0), 0.6 / 0.9);
  EXPECT_DOUBLE_EQ(view.cellValue(1, 1), 0.5);

  // Frequency: the occupancy of car (2/3) exceeds truck's; clustering: a permutation.
  view.setValues(TransitionValues::RuleProbabilities);
  view.setOrder(TopicOrder::Frequency);
  EXPECT_EQ(view.displayOrder(), (std::vector<std::size_t>{0, 1}));
  view.setOrder(TopicOrder::Clustering);
  EXPECT_TRUE(isPermutation(view.displayOrder(), 2));

  // The hover text names both topics and the probability.
  view.setOrder(TopicOrder::Grammar);
  const QString tip = view.cellToolTip(0, 1);
  EXPECT_TRUE(tip.contains(QStringLiteral("car \u2192 truck")));
  EXPECT_TRUE(tip.contains(QStringLiteral("0.3000")));
  // The map cell under the pixel centre of cell (row 1, column 0).
  view.plot()->replot();
  const QPointF centre(view.plot()->xAxis->coordToPixel(0), view.plot()->yAxis->coordToPixel(1));
  const auto cell = view.cellAt(centre);
  ASSERT_TRUE(cell);
  EXPECT_EQ(*cell, std::make_pair(1, 0));

  // Exports.
  QTemporaryDir dir;
  for (const char* name : {"m.csv", "m.png", "m.pdf"}) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    EXPECT_TRUE(view.exportFile(path, &error)) << name << error.toStdString();
    EXPECT_GT(QFileInfo(path).size(), 0) << name;
  }
  EXPECT_FALSE(view.exportFile(dir.filePath(QStringLiteral("m.xyz"))));
  std::ifstream csv(dir.filePath(QStringLiteral("m.csv")).toStdString());
  std::string caption;
  std::getline(csv, caption);
  EXPECT_EQ(caption, "# " + view.captionText().toStdString());  // names the grammar and settings
  std::string first;
  std::getline(csv, first);
  EXPECT_EQ(first, "from,car,truck");
}

TEST(TransitionView, DifferenceIsCellwiseOverTheUnionOfTopics) {
  const auto a = readEarleyx(
      "Discourse->[Discourse.car] : 0.75\nDiscourse->[Discourse.truck] : 0.25\n"
      "Discourse.car->[Sentence.car Discourse.car] : 0.6\n"
      "Discourse.car->[Sentence.car Discourse.truck] : 0.3\n"
      "Discourse.car->[Sentence.car] : 0.1\n"
      "Discourse.truck->[Sentence.truck Discourse.car] : 0.2\n"
      "Discourse.truck->[Sentence.truck Discourse.truck] : 0.2\n"
      "Discourse.truck->[Sentence.truck] : 0.6\n"
      "Sentence.car->[_vroom] : 1\nSentence.truck->[_beep] : 1\n");
  const auto b = readEarleyx(
      "Discourse->[Discourse.truck] : 0.5\nDiscourse->[Discourse.bus] : 0.5\n"
      "Discourse.truck->[Sentence.truck Discourse.truck] : 0.7\n"
      "Discourse.truck->[Sentence.truck Discourse.bus] : 0.1\n"
      "Discourse.truck->[Sentence.truck] : 0.2\n"
      "Discourse.bus->[Sentence.bus Discourse.truck] : 0.4\n"
      "Discourse.bus->[Sentence.bus Discourse.bus] : 0.4\n"
      "Discourse.bus->[Sentence.bus] : 0.2\n"
      "Sentence.truck->[_beep] : 1\nSentence.bus->[_honk] : 1\n");
  TransitionView view;
  ASSERT_TRUE(view.setGrammar(a, QStringLiteral("a")));
  EXPECT_FALSE(view.difference());
  view.setDifference(true);  // nothing to compare with yet
  EXPECT_FALSE(view.difference());
  ASSERT_TRUE(view.setComparison(b, QStringLiteral("b")));
  view.setDifference(true);
  ASSERT_TRUE(view.difference());
  ASSERT_EQ(view.topics(), (std::vector<std::string>{"car", "truck", "bus"}));
  // By hand: a − b with a missing topic as 0.
  const double expected[3][3] = {{0.6, 0.3, 0.0}, {0.2, 0.2 - 0.7, -0.1}, {0.0, -0.4, -0.4}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(view.cellValue(r, c), expected[r][c], 1e-15) << r << "," << c;
  // Symmetric scale around 0.
  EXPECT_DOUBLE_EQ(view.colorMap()->dataRange().lower, -view.colorMap()->dataRange().upper);
  view.setOrder(TopicOrder::Clustering);
  EXPECT_TRUE(isPermutation(view.displayOrder(), 3));
  view.setOrder(TopicOrder::Frequency);
  EXPECT_TRUE(isPermutation(view.displayOrder(), 3));
  EXPECT_EQ(view.displayOrder().back(), 2u);  // bus: not in a, frequency 0
  view.clearComparison();
  EXPECT_FALSE(view.difference());
  EXPECT_EQ(view.topics().size(), 2u);
}

TEST(TransitionView, RejectsAGrammarWithoutTransitions) {
  TransitionView view;
  QString error;
  EXPECT_FALSE(view.setGrammar(readEarleyx("S->[_a] : 1\n"), QStringLiteral("s"), &error));
  EXPECT_FALSE(error.isEmpty());
  EXPECT_TRUE(view.topics().empty());
}

// A grammar in which no topic can end has no occupancy; the frequency order then uses the
// stationary distribution, and the caption says so (it used to fall back silently).
TEST(TransitionView, FrequencyOrderSaysWhenTheStationaryDistributionStandsIn) {
  TransitionView view;
  QString error;
  ASSERT_TRUE(view.setGrammar(readEarleyx("Discourse->[Discourse.a] : 0.5\n"
                                          "Discourse->[Discourse.b] : 0.5\n"
                                          "Discourse.a->[Sentence.a Discourse.a] : 1\n"
                                          "Discourse.b->[Sentence.b Discourse.b] : 1\n"
                                          "Sentence.a->[_x] : 1\nSentence.b->[_y] : 1\n"),
                              QStringLiteral("absorbing"), &error))
      << error.toStdString();
  view.setOrder(TopicOrder::Frequency);
  EXPECT_TRUE(
      view.captionText().contains(QStringLiteral("stationary distribution (not unique) stands in")))
      << view.captionText().toStdString();
  view.setOrder(TopicOrder::Grammar);
  EXPECT_FALSE(view.captionText().contains(QStringLiteral("stands in")));
}

TEST(TransitionMatrix, ClusterOrderGroupsSimilarTopics) {
  // Two blocks {0, 2} and {1, 3}: topics move within their block only.
  Eigen::MatrixXd m(4, 4);
  m << 0.5, 0.0, 0.5, 0.0,  //
      0.0, 0.5, 0.0, 0.5,   //
      0.5, 0.0, 0.5, 0.0,   //
      0.0, 0.5, 0.0, 0.5;
  const std::vector<std::size_t> order = clusterOrder(m);
  ASSERT_TRUE(isPermutation(order, 4));
  const auto position = [&](std::size_t t) {
    return std::find(order.begin(), order.end(), t) - order.begin();
  };
  EXPECT_EQ(std::abs(position(0) - position(2)), 1);
  EXPECT_EQ(std::abs(position(1) - position(3)), 1);
}

TEST(TransitionView, ExpectedCountsAccountForEveryUtterance) {
  // A generated discourse grammar for the tiny corpus: each utterance is generated by exactly
  // one Discourse.t rule (a transition or an ending) and each recording starts once, so the
  // expected counts sum to the utterances and the initial counts to the recordings.
  gwb::SocialCorpusLoad corpus = gwb::loadSocialCorpusFile(grounded("tiny.yld"));
  ASSERT_TRUE(corpus.ok());
  gwb::SocialGrammarOptions options;
  options.kind = gwb::SocialGrammarKind::Discourse;
  options.cues = corpus.corpus.cueOrder;
  const gwb::SocialGrammarBuild build = gwb::generateSocialGrammar(corpus.corpus, options);
  ASSERT_TRUE(build.ok());
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("tiny.grammar"));
  ASSERT_TRUE(gwb::saveGrammarFile(build.grammar, path.toStdString(), gwb::GrammarFormat::Earleyx));

  TransitionView view;
  ASSERT_TRUE(view.loadGrammarFile(path));
  ASSERT_TRUE(view.setCorpus(QString::fromStdString(grounded("tiny.yld")),
                             QString::fromStdString(grounded("tiny.recordings.tsv"))));
  ASSERT_TRUE(view.waitForCounts(600000));
  ASSERT_TRUE(view.hasCounts()) << view.statusText().toStdString();
  view.setValues(TransitionValues::ExpectedCounts);
  double transitions = 0.0;
  const int n = static_cast<int>(view.topics().size());
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) transitions += view.cellValue(r, c);
  // 3 utterances in 2 recordings: 3 − 2 = 1 transition, 2 endings.
  EXPECT_NEAR(transitions, 1.0, 1e-9);
  EXPECT_TRUE(view.cellToolTip(0, 0).contains(QStringLiteral("expected count")));
}

TEST(TransitionView, SocialDiscourseGrammarCellsAreItsRules) {
  GWB_REQUIRE_SHARED(path, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(learned, "data/earleyx/grammars/unigram.discourse1.vb.iogrammar");
  for (const std::string& file : {path, learned}) {
    gwb::GrammarReadOptions options;
    options.runChecks = false;
    gwb::GrammarLoad load = gwb::loadGrammarFile(file, options);
    ASSERT_TRUE(load.ok()) << file;
    const auto grammar = std::make_shared<const gwb::Grammar>(std::move(load.grammar));
    TransitionView view;
    ASSERT_TRUE(view.setGrammar(grammar, QStringLiteral("g")));
    EXPECT_EQ(view.topics().size(), 31u) << file;  // 30 objects and None
    for (const TopicOrder order :
         {TopicOrder::Grammar, TopicOrder::Frequency, TopicOrder::Clustering}) {
      view.setOrder(order);
      ASSERT_TRUE(isPermutation(view.displayOrder(), view.topics().size()));
      expectCellsAreRuleProbabilities(view, *grammar);
    }
  }
}

}  // namespace
}  // namespace gwb::ui
