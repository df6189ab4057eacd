// The experiment runner end to end on the offscreen platform: jobs started from the form run
// on the worker thread, and the table's numbers must equal core's runSocialExperiment called
// directly with the same settings (loaded and averaged here, not through the panel's code);
// the paper's rows hold the published numbers.
#include "ui/grounded/experiment_panel.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/social_experiment.h"
#include "gwb/grounded/social_grammar.h"
#include "shared_data.h"
#include "ui/grounded/experiment_paper.h"
#include "ui/grounded/experiment_table.h"

namespace gwb::ui {
namespace {

constexpr int kTimeoutMs = 600000;  // only "it did not hang": no test races the clock

struct CoreInputs {
  gwb::SocialCorpus corpus;
  gwb::GoldAnnotation gold;
  std::vector<gwb::Recording> recordings;
  gwb::Lexicon dictionary;
};

CoreInputs loadCore(const std::string& corpus, const std::string& gold,
                    const std::string& recordings) {
  CoreInputs in;
  gwb::SocialCorpusLoad c = gwb::loadSocialCorpusFile(corpus);
  EXPECT_TRUE(c.ok());
  in.corpus = std::move(c.corpus);
  gwb::GoldAnnotationLoad g = gwb::loadGoldAnnotationFile(gold);
  EXPECT_TRUE(g.ok());
  gwb::Diagnostics checks;
  gwb::alignGoldWithCorpus(g.gold, in.corpus, checks);
  EXPECT_FALSE(checks.hasErrors());
  in.gold = std::move(g.gold);
  const gwb::RecordingsLoad r = gwb::loadRecordingsFile(recordings);
  EXPECT_TRUE(r.ok());
  in.recordings = r.recordings;
  in.dictionary = gwb::goldLexicon(in.gold);
  return in;
}

// The metric row of one core run, in the table's column order.
std::vector<double> coreRow(const CoreInputs& in, gwb::SocialModel model, const std::string& cues,
                            double alpha, int iterations, std::uint64_t seed) {
  gwb::SocialExperimentOptions options;
  options.model = model;
  options.cues = *gwb::CueSelection::parse(cues)->select(in.corpus.cueOrder);
  options.alpha = alpha;
  options.iterations = iterations;
  options.seed = seed;
  const gwb::SocialExperimentResult r =
      gwb::runSocialExperiment(in.corpus, in.gold, in.dictionary, in.recordings, options);
  EXPECT_TRUE(r.ok());
  const gwb::GroundedScores& s = r.scores;
  return {s.accuracy(),          s.topic.f1(),       s.topic.precision(), s.topic.recall(),
          s.word.f1(),           s.word.precision(), s.word.recall(),     s.lexicon.f1(),
          s.lexicon.precision(), s.lexicon.recall(), r.freeEnergy};
}

std::string dataPath(const std::string& name) {
  return gwb::testing::sourceDir() + "/tests/data/grounded/" + name;
}

ExperimentSpec tinySpec() {
  ExperimentSpec spec;
  spec.corpusPath = QString::fromStdString(dataPath("tiny.yld"));
  spec.goldPath = QString::fromStdString(dataPath("tiny.gold.yld"));
  spec.recordingsPath = QString::fromStdString(dataPath("tiny.recordings.tsv"));
  return spec;
}

double mean(const std::vector<std::vector<double>>& rows, std::size_t c) {
  double sum = 0.0;
  for (const auto& row : rows) sum += row[c];
  return sum / static_cast<double>(rows.size());
}

double sampleSd(const std::vector<std::vector<double>>& rows, std::size_t c) {
  const double m = mean(rows, c);
  double squares = 0.0;
  for (const auto& row : rows) squares += (row[c] - m) * (row[c] - m);
  return std::sqrt(squares / static_cast<double>(rows.size() - 1));
}

double cell(const ExperimentTableModel& table, int row, ExperimentMetric metric, int role) {
  return table.data(table.index(row, ExperimentTableModel::columnOf(metric)), role).toDouble();
}

// Two seeds of VB on the tiny corpus through the form: each seed's row and the mean ± sd equal
// the core's.
TEST(ExperimentPanelTest, TableEqualsTheCoreOverSeeds) {
  ExperimentPanel panel;
  ExperimentSpec spec = tinySpec();
  spec.model = gwb::SocialModel::Vb;
  spec.cues = QStringLiteral("all");
  spec.alpha = 0.01;
  spec.iterations = 3;
  spec.seeds = {1, 2};
  panel.setSpec(spec);
  QSignalSpy seeds(&panel, &ExperimentPanel::seedFinished);
  QString error;
  ASSERT_TRUE(panel.startRun(&error)) << error.toStdString();
  ASSERT_TRUE(panel.waitUntilIdle(kTimeoutMs));
  EXPECT_EQ(seeds.count(), 2);

  const CoreInputs in =
      loadCore(dataPath("tiny.yld"), dataPath("tiny.gold.yld"), dataPath("tiny.recordings.tsv"));
  const std::vector<std::vector<double>> rows = {
      coreRow(in, gwb::SocialModel::Vb, "all", 0.01, 3, 1),
      coreRow(in, gwb::SocialModel::Vb, "all", 0.01, 3, 2)};

  const ExperimentTableModel& table = *panel.table();
  ASSERT_EQ(table.rowCount(), 2);  // ours, then the paper's Table 2 row
  const int ours = table.rowOf(panel.spec());
  ASSERT_EQ(ours, 0);
  EXPECT_EQ(table.data(table.index(ours, 0), ExperimentTableModel::CountRole).toInt(), 2);
  for (int m = 0; m < kExperimentMetricCount; ++m) {
    const auto metric = static_cast<ExperimentMetric>(m);
    const auto c = static_cast<std::size_t>(m);
    EXPECT_NEAR(cell(table, ours, metric, ExperimentTableModel::MeanRole), mean(rows, c), 1e-9)
        << experimentMetricKey(metric);
    EXPECT_NEAR(cell(table, ours, metric, ExperimentTableModel::SdRole), sampleSd(rows, c), 1e-9)
        << experimentMetricKey(metric);
  }
  // The CSV: a row per seed with the core's numbers, then mean and sd, then the paper.
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("table.csv"));
  ASSERT_TRUE(panel.exportCsv(path, &error)) << error.toStdString();
  std::ifstream csv(path.toStdString());
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line,
            "model,cues,alpha,iterations,source,acc,topic_f1,topic_p,topic_r,word_f1,word_p,"
            "word_r,lex_f1,lex_p,lex_r,energy");
  std::vector<std::string> sources;
  while (std::getline(csv, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
    ASSERT_GE(fields.size(), 5U);
    EXPECT_EQ(fields[0], "vb");
    EXPECT_EQ(fields[1], "all");
    sources.push_back(fields[4]);
    if (fields[4] == "seed 1" || fields[4] == "seed 2") {
      const std::vector<double>& row = rows[fields[4] == "seed 1" ? 0 : 1];
      ASSERT_EQ(fields.size(), 5U + row.size());
      for (std::size_t c = 0; c < row.size(); ++c) EXPECT_EQ(std::stod(fields[5 + c]), row[c]);
    }
  }
  EXPECT_EQ(sources, (std::vector<std::string>{"seed 1", "seed 2", "mean", "sd", "paper Table 2"}));
}

// The paper's rows carry the published numbers; missing columns are NaN.
TEST(ExperimentPanelTest, PaperRowsHoldThePublishedNumbers) {
  const auto vbAll = paperResult(gwb::SocialModel::Vb, QStringLiteral("all"));
  ASSERT_TRUE(vbAll);
  EXPECT_EQ(vbAll->table, QStringLiteral("Table 2"));
  EXPECT_EQ(vbAll->values[static_cast<std::size_t>(ExperimentMetric::Accuracy)], 53.14);
  EXPECT_EQ(vbAll->values[static_cast<std::size_t>(ExperimentMetric::TopicF1)], 60.89);
  const auto init = paperResult(gwb::SocialModel::DiscourseInit, QStringLiteral("all"));
  ASSERT_TRUE(init);
  EXPECT_EQ(init->values[static_cast<std::size_t>(ExperimentMetric::Accuracy)], 55.78);
  EXPECT_EQ(init->values[static_cast<std::size_t>(ExperimentMetric::FreeEnergy)], 149458);
  const auto discourseAll = paperResult(gwb::SocialModel::Discourse, QStringLiteral("all"));
  EXPECT_EQ(discourseAll->values[static_cast<std::size_t>(ExperimentMetric::FreeEnergy)], 150023);
  const auto none = paperResult(gwb::SocialModel::Discourse, QStringLiteral("none"));
  ASSERT_TRUE(none);
  EXPECT_EQ(none->table, QStringLiteral("Table 3"));
  EXPECT_EQ(none->values[static_cast<std::size_t>(ExperimentMetric::Accuracy)], 40.63);
  EXPECT_EQ(none->values[static_cast<std::size_t>(ExperimentMetric::TopicF1)], 42.01);
  EXPECT_TRUE(std::isnan(none->values[static_cast<std::size_t>(ExperimentMetric::TopicPrecision)]));
  const auto drop = paperResult(gwb::SocialModel::DiscourseInit, QStringLiteral("drop:kid.eyes"));
  ASSERT_TRUE(drop);
  EXPECT_EQ(drop->table, QStringLiteral("Table 4"));
  EXPECT_EQ(drop->values[static_cast<std::size_t>(ExperimentMetric::LexiconF1)], 19.7);
  const auto only = paperResult(gwb::SocialModel::Vb, QStringLiteral("only:kid.eyes"));
  ASSERT_TRUE(only);
  EXPECT_EQ(only->values[static_cast<std::size_t>(ExperimentMetric::Accuracy)], 47.2);
  EXPECT_FALSE(paperResult(gwb::SocialModel::Em, QStringLiteral("all")));

  // In the table, the paper's row follows ours and shows "—" where the paper has no number.
  ExperimentTableModel table;
  ExperimentSpec spec = tinySpec();
  spec.model = gwb::SocialModel::Discourse;
  spec.cues = QStringLiteral("none");
  ExperimentOutcome outcome;
  outcome.seed = 1;
  outcome.values.fill(10.0);
  table.addOutcome(spec, outcome);
  ASSERT_EQ(table.rowCount(), 2);
  EXPECT_TRUE(table.data(table.index(1, 0), ExperimentTableModel::PaperRole).toBool());
  EXPECT_EQ(cell(table, 1, ExperimentMetric::Accuracy, ExperimentTableModel::MeanRole), 40.63);
  EXPECT_EQ(
      table
          .data(table.index(1, ExperimentTableModel::columnOf(ExperimentMetric::TopicPrecision)),
                Qt::DisplayRole)
          .toString(),
      QStringLiteral("\u2014"));
  EXPECT_EQ(table
                .data(table.index(0, ExperimentTableModel::columnOf(ExperimentMetric::Accuracy)),
                      Qt::DisplayRole)
                .toString(),
            QStringLiteral("10.00"));
  // A second outcome of the same setting joins the row; another setting adds rows.
  outcome.seed = 2;
  outcome.values.fill(12.0);
  table.addOutcome(spec, outcome);
  EXPECT_EQ(table.rowCount(), 2);
  EXPECT_EQ(cell(table, 0, ExperimentMetric::Accuracy, ExperimentTableModel::MeanRole), 11.0);
  EXPECT_NEAR(cell(table, 0, ExperimentMetric::Accuracy, ExperimentTableModel::SdRole),
              std::sqrt(2.0), 1e-12);
  spec.alpha = 0.1;
  table.addOutcome(spec, outcome);
  EXPECT_EQ(table.rowCount(), 4);
}

TEST(ExperimentPanelTest, SeedListsAndSpecs) {
  std::vector<quint64> seeds;
  ASSERT_TRUE(parseSeedList(QStringLiteral("1-3, 7,9-10"), &seeds));
  EXPECT_EQ(seeds, (std::vector<quint64>{1, 2, 3, 7, 9, 10}));
  EXPECT_EQ(seedListText(seeds), QStringLiteral("1-3,7,9-10"));
  QString error;
  EXPECT_FALSE(parseSeedList(QStringLiteral("3-1"), &seeds, &error));
  EXPECT_FALSE(parseSeedList(QStringLiteral(""), &seeds, &error));
  EXPECT_FALSE(parseSeedList(QStringLiteral("x"), &seeds, &error));
  ExperimentSpec spec;
  ASSERT_TRUE(applyExperimentSpec(
      &spec,
      QStringLiteral("model=discourse+init;cues=drop:kid.eyes;alpha=0.01;iterations=5;seeds=2-3"),
      &error))
      << error.toStdString();
  EXPECT_EQ(spec.model, gwb::SocialModel::DiscourseInit);
  EXPECT_EQ(spec.cues, QStringLiteral("drop:kid.eyes"));
  EXPECT_EQ(spec.alpha, 0.01);
  EXPECT_EQ(spec.iterations, 5);
  EXPECT_EQ(spec.seeds, (std::vector<quint64>{2, 3}));
  EXPECT_FALSE(applyExperimentSpec(&spec, QStringLiteral("model=mcmc"), &error));
  EXPECT_FALSE(applyExperimentSpec(&spec, QStringLiteral("cues=some"), &error));

  // The form rejects a bad cue set and a corpus that is not there, starting nothing.
  ExperimentPanel panel;
  ExperimentSpec bad = tinySpec();
  bad.cues = QStringLiteral("drop");
  EXPECT_FALSE(panel.startRun(bad, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("Cues"))) << error.toStdString();
  bad = tinySpec();
  bad.corpusPath = QStringLiteral("/nonexistent/corpus.yld");
  EXPECT_FALSE(panel.startRun(bad, &error));
  EXPECT_EQ(panel.statusLabel()->text(), error);
  EXPECT_FALSE(panel.isBusy());
  // A cue the corpus does not have fails the job with the core's message.
  bad = tinySpec();
  bad.cues = QStringLiteral("only:dad.eyes");
  QSignalSpy finished(&panel, &ExperimentPanel::jobFinished);
  ASSERT_TRUE(panel.startRun(bad, &error));
  ASSERT_TRUE(panel.waitUntilIdle(kTimeoutMs));
  ASSERT_EQ(finished.count(), 1);
  EXPECT_TRUE(finished.at(0).at(0).toString().contains(QStringLiteral("dad.eyes")));
  EXPECT_EQ(panel.table()->rowCount(), 0);
}

// The real corpus: VB with all cues, two iterations, seed 1 — the row equals the core's; and a
// discourse job cancelled in its first iteration adds nothing and leaves the runner usable.
TEST(ExperimentPanelTest, RealCorpusRowAndCancel) {
  GWB_REQUIRE_SHARED(corpus, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(gold, "data/earleyx/data/gold.topic.ortho.yld");
  GWB_REQUIRE_SHARED(recordings, "data/social-cues/recordings.tsv");
  ExperimentPanel panel;
  ExperimentSpec spec;
  spec.corpusPath = QString::fromStdString(corpus);
  spec.goldPath = QString::fromStdString(gold);
  spec.recordingsPath = QString::fromStdString(recordings);
  spec.model = gwb::SocialModel::Discourse;
  spec.iterations = 30;
  spec.seeds = {1, 2, 3};
  bool cancelled = false;
  QObject::connect(panel.progressBar(), &QProgressBar::valueChanged, &panel, [&](int value) {
    if (value > 0 && !cancelled) {
      cancelled = true;
      panel.cancelRun();
    }
  });
  QSignalSpy finished(&panel, &ExperimentPanel::jobFinished);
  QString error;
  ASSERT_TRUE(panel.startRun(spec, &error)) << error.toStdString();
  ASSERT_TRUE(panel.waitUntilIdle(kTimeoutMs));
  EXPECT_TRUE(cancelled);
  ASSERT_EQ(finished.count(), 1);
  EXPECT_TRUE(finished.at(0).at(0).toString().isEmpty());
  EXPECT_EQ(panel.table()->rowCount(), 0);
  EXPECT_TRUE(panel.statusLabel()->text().contains(QStringLiteral("Cancelled")));

  QObject::disconnect(panel.progressBar(), nullptr, &panel, nullptr);
  spec.model = gwb::SocialModel::Vb;
  spec.iterations = 2;
  spec.seeds = {1};
  ASSERT_TRUE(panel.startRun(spec, &error)) << error.toStdString();
  ASSERT_TRUE(panel.waitUntilIdle(kTimeoutMs));
  const CoreInputs in = loadCore(corpus, gold, recordings);
  const std::vector<double> row = coreRow(in, gwb::SocialModel::Vb, "all", 0.001, 2, 1);
  const ExperimentTableModel& table = *panel.table();
  ASSERT_EQ(table.rowCount(), 2);
  for (int m = 0; m < kExperimentMetricCount; ++m) {
    EXPECT_EQ(cell(table, 0, static_cast<ExperimentMetric>(m), ExperimentTableModel::MeanRole),
              row[static_cast<std::size_t>(m)]);
  }
  EXPECT_EQ(cell(table, 1, ExperimentMetric::Accuracy, ExperimentTableModel::MeanRole), 53.14);
}

}  // namespace
}  // namespace gwb::ui
