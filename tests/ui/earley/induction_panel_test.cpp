// The induction panel end to end on the offscreen platform: runs started from the form go
// through the worker thread and the queued observer, and what is plotted, listed, exported and
// saved must equal what core's induceGrammar computes when called directly with the same
// settings (built here by hand, not through the panel's code).
#include "ui/earley/induction_panel.h"

#include <fstream>
#include <sstream>

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"
#include "gwb/earley/induction_output.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"
#include "ui/earley/free_energy_plot.h"
#include "ui/earley/induction_runs.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"
#include "ui/grounded/experiment_panel.h"

namespace gwb::ui {
namespace {

constexpr int kTimeoutMs = 600000;  // only "it did not hang": no test races the clock

std::string samplePath(const std::string& name) {
  return gwb::testing::sourceDir() + "/samples/" + name;
}

std::vector<std::vector<std::string>> readSentences(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> sentences;
  std::string line;
  while (std::getline(in, line)) {
    auto words = gwb::tokenize(line);
    if (!words.empty()) sentences.push_back(std::move(words));
  }
  return sentences;
}

// The core driver, called directly: the reference for everything the panel shows.
gwb::InductionResult runCore(const std::string& grammarPath, const std::string& corpusPath,
                             const gwb::InductionOptions& options, const std::string& root = "") {
  gwb::GrammarReadOptions read;
  read.root = root;
  read.runChecks = false;
  gwb::GrammarLoad load = gwb::loadGrammarFile(grammarPath, read);
  EXPECT_TRUE(load.ok());
  return gwb::induceGrammar(std::move(load.grammar), readSentences(corpusPath), options);
}

void expectPlotEqualsRecords(const FreeEnergyPlot& plot, int id,
                             const std::vector<gwb::IterationRecord>& records, bool earleyx) {
  const QVector<QPointF> energy = plot.freeEnergyPoints(id);
  const QVector<QPointF> likelihood = plot.negLogLikelihoodPoints(id);
  ASSERT_EQ(energy.size(), static_cast<int>(records.size()));
  ASSERT_EQ(likelihood.size(), static_cast<int>(records.size()));
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto at = static_cast<int>(i);
    EXPECT_EQ(energy[at].x(), records[i].iteration);
    EXPECT_EQ(energy[at].y(), earleyx ? records[i].freeEnergy : records[i].variationalFreeEnergy);
    EXPECT_EQ(likelihood[at].x(), records[i].iteration);
    EXPECT_EQ(likelihood[at].y(), records[i].negLogLikelihood);
  }
}

class InductionPanelTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.isValid()); }
  QString tempPath(const QString& name) const { return dir_.filePath(name); }

  QTemporaryDir dir_;
  InductionPanel panel_;
};

// A small VB run through the form: the plotted points are the core's iteration records.
TEST_F(InductionPanelTest, VbRunPlotsTheCoreRecords) {
  InductionSettings settings;
  settings.label = QStringLiteral("pp vb");
  settings.grammarPath = QString::fromStdString(samplePath("pp-attachment.cfg"));
  settings.corpusPath = QString::fromStdString(samplePath("pp-attachment.txt"));
  settings.method = gwb::InductionMethod::Vb;
  settings.defaultPrior = 0.5;
  settings.priors = {QStringLiteral("N -> _*=0.25"), QStringLiteral("V -> _saw=2")};
  settings.iterations = 6;
  settings.tolerance = 0.0;
  settings.init = gwb::InitMethod::Uniform;
  settings.seed = 7;
  settings.noise = 0.3;
  panel_.setSettings(settings);
  QString error;
  const int id = panel_.startRun(&error);  // from the form
  ASSERT_GT(id, 0) << error.toStdString();
  ASSERT_TRUE(panel_.waitUntilIdle(kTimeoutMs));

  gwb::InductionOptions options;
  options.method = gwb::InductionMethod::Vb;
  options.maxIterations = 6;
  options.tolerance = 0.0;
  options.defaultPrior = 0.5;
  options.priorOverrides.push_back(*gwb::parsePriorOverride("N -> _*=0.25"));
  options.priorOverrides.push_back(*gwb::parsePriorOverride("V -> _saw=2"));
  options.init = gwb::InitMethod::Uniform;
  options.seed = 7;
  options.noise = 0.3;
  const gwb::InductionResult core =
      runCore(samplePath("pp-attachment.cfg"), samplePath("pp-attachment.txt"), options);
  ASSERT_TRUE(core.ok());
  ASSERT_GE(core.records.size(), 2U);  // six, or fewer if the objective rose (VB stops there)

  const InductionRun* run = panel_.runModel()->run(id);
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->status, InductionRun::Status::Finished);
  EXPECT_EQ(run->records.size(), core.records.size());
  EXPECT_EQ(run->sentences, 4);
  expectPlotEqualsRecords(*panel_.plot(), id, core.records, true);
  panel_.plot()->setEnergyKind(FreeEnergyPlot::EnergyKind::Variational);
  expectPlotEqualsRecords(*panel_.plot(), id, core.records, false);
  EXPECT_EQ(panel_.plot()->legendNames(), QStringList{QStringLiteral("pp vb")});
  // The learned grammar is the core's, rule for rule.
  ASSERT_NE(run->grammar, nullptr);
  ASSERT_EQ(run->grammar->ruleCount(), core.grammar.ruleCount());
  for (gwb::RuleId r = 0; r < static_cast<gwb::RuleId>(core.grammar.ruleCount()); ++r)
    EXPECT_EQ(run->grammar->rule(r).probability, core.grammar.rule(r).probability);
}

// Two runs overlaid (EM and VB), one hidden, then removed: the plot and legend follow the list.
TEST_F(InductionPanelTest, OverlaidRunsAndTheRunList) {
  InductionSettings vb;
  vb.label = QStringLiteral("vb");
  vb.grammarPath = QString::fromStdString(samplePath("pp-attachment.cfg"));
  vb.corpusPath = QString::fromStdString(samplePath("pp-attachment.txt"));
  vb.iterations = 3;
  InductionSettings em = vb;
  em.label = QStringLiteral("em");
  em.method = gwb::InductionMethod::Em;
  const int first = panel_.startRun(vb);
  const int second = panel_.startRun(em);  // queued behind the first
  ASSERT_GT(first, 0);
  ASSERT_GT(second, 0);
  ASSERT_TRUE(panel_.waitUntilIdle(kTimeoutMs));
  EXPECT_EQ(panel_.runModel()->rowCount(), 2);
  EXPECT_EQ(panel_.plot()->legendNames(),
            (QStringList{QStringLiteral("vb"), QStringLiteral("em")}));

  gwb::InductionOptions options;
  options.method = gwb::InductionMethod::Em;
  options.maxIterations = 3;
  const gwb::InductionResult core =
      runCore(samplePath("pp-attachment.cfg"), samplePath("pp-attachment.txt"), options);
  // EM has no free energy: only −log p is drawn.
  EXPECT_TRUE(panel_.plot()->freeEnergyPoints(second).isEmpty());
  const QVector<QPointF> likelihood = panel_.plot()->negLogLikelihoodPoints(second);
  ASSERT_EQ(likelihood.size(), static_cast<int>(core.records.size()));
  for (int i = 0; i < likelihood.size(); ++i)
    EXPECT_EQ(likelihood[i].y(), core.records[static_cast<std::size_t>(i)].negLogLikelihood);

  // Hiding through the check box takes the run out of the legend and the CSV.
  InductionRunModel* model = panel_.runModel();
  ASSERT_TRUE(model->setData(model->index(model->rowOf(first), InductionRunModel::Name),
                             Qt::Unchecked, Qt::CheckStateRole));
  EXPECT_EQ(panel_.plot()->legendNames(), QStringList{QStringLiteral("em")});
  EXPECT_FALSE(panel_.curvesCsv().contains(QStringLiteral(",vb,")));
  panel_.removeRun(second);
  EXPECT_EQ(model->rowCount(), 1);
  EXPECT_FALSE(panel_.plot()->hasRun(second));
  EXPECT_TRUE(panel_.plot()->legendNames().isEmpty());
}

// The CSV holds every record at full precision: parsing it back gives the core's numbers.
TEST_F(InductionPanelTest, CsvExportHoldsTheCoreRecords) {
  InductionSettings settings;
  settings.label = QStringLiteral("with, comma");
  settings.grammarPath = QString::fromStdString(samplePath("pp-attachment.cfg"));
  settings.corpusPath = QString::fromStdString(samplePath("pp-attachment.txt"));
  settings.iterations = 4;
  settings.tolerance = 0.0;
  const int id = panel_.startRun(settings);
  ASSERT_GT(id, 0);
  ASSERT_TRUE(panel_.waitUntilIdle(kTimeoutMs));
  gwb::InductionOptions options;
  options.maxIterations = 4;
  options.tolerance = 0.0;
  const gwb::InductionResult core =
      runCore(samplePath("pp-attachment.cfg"), samplePath("pp-attachment.txt"), options);

  const QString path = tempPath(QStringLiteral("curves.csv"));
  QString error;
  ASSERT_TRUE(panel_.exportCsv(path, &error)) << error.toStdString();
  std::ifstream in(path.toStdString());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "run,label,method,iteration,neg_log_likelihood,free_energy,variational_free_energy,"
            "objective,live_rules,seconds,failures");
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    const std::string prefix = std::to_string(id) + ",\"with, comma\",vb,";
    ASSERT_EQ(line.rfind(prefix, 0), 0U) << line;
    std::vector<std::string> fields;
    std::stringstream rest(line.substr(prefix.size()));
    for (std::string field; std::getline(rest, field, ',');) fields.push_back(field);
    ASSERT_EQ(fields.size(), 8U) << line;
    ASSERT_LT(rows, core.records.size());
    const gwb::IterationRecord& r = core.records[rows];
    EXPECT_EQ(std::stoi(fields[0]), r.iteration);
    EXPECT_EQ(std::stod(fields[1]), r.negLogLikelihood);
    EXPECT_EQ(std::stod(fields[2]), r.freeEnergy);
    EXPECT_EQ(std::stod(fields[3]), r.variationalFreeEnergy);
    EXPECT_EQ(std::stod(fields[4]), r.objective);
    EXPECT_EQ(std::stoul(fields[5]), r.liveRules);
    EXPECT_EQ(std::stoul(fields[7]), r.failures);
    ++rows;
  }
  EXPECT_EQ(rows, core.records.size());

  // PNG and PDF exports write real files.
  ASSERT_TRUE(panel_.exportPng(tempPath(QStringLiteral("curves.png")), &error));
  ASSERT_TRUE(panel_.exportPdf(tempPath(QStringLiteral("curves.pdf")), &error));
  QFile png(tempPath(QStringLiteral("curves.png")));
  ASSERT_TRUE(png.open(QIODevice::ReadOnly));
  EXPECT_TRUE(png.read(4).endsWith("PNG"));
  QFile pdf(tempPath(QStringLiteral("curves.pdf")));
  ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
  EXPECT_TRUE(pdf.read(5).startsWith("%PDF"));

  // The learned grammar saves as the CLI writes it (writeInducedEarleyx of the core's result).
  const QString saved = tempPath(QStringLiteral("learned.iogrammar"));
  ASSERT_TRUE(panel_.saveGrammar(id, saved, &error)) << error.toStdString();
  std::ostringstream expected;
  ASSERT_TRUE(gwb::writeInducedEarleyx(core.grammar, gwb::InductionMethod::Vb, expected));
  QFile file(saved);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_EQ(file.readAll().toStdString(), expected.str());
}

// Cancel stops mid-run; the run keeps the grammar of its last completed iteration, which equals
// the core's after that many iterations and can be saved and read back.
TEST_F(InductionPanelTest, CancelLeavesAUsableGrammar) {
  // A corpus long enough that an iteration takes a while: the sample, many times over.
  const QString corpus = tempPath(QStringLiteral("long.txt"));
  {
    std::ifstream in(samplePath("pp-attachment.txt"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(corpus.toStdString());
    for (int i = 0; i < 3000; ++i) out << text;
  }
  InductionSettings settings;
  settings.grammarPath = QString::fromStdString(samplePath("pp-attachment.cfg"));
  settings.corpusPath = corpus;
  settings.iterations = 10000;
  settings.tolerance = 0.0;
  const int id = panel_.startRun(settings);
  ASSERT_GT(id, 0);
  // Cancel as soon as two iterations are in.
  const QMetaObject::Connection canceller =
      QObject::connect(panel_.runModel(), &QAbstractItemModel::dataChanged, &panel_, [&] {
        const InductionRun* run = panel_.runModel()->run(id);
        if (run && run->records.size() >= 2) panel_.cancelRun();
      });
  ASSERT_TRUE(panel_.waitUntilIdle(kTimeoutMs));
  QObject::disconnect(canceller);
  const InductionRun* run = panel_.runModel()->run(id);
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->status, InductionRun::Status::Cancelled);
  ASSERT_GE(run->records.size(), 2U);
  EXPECT_LT(run->records.size(), 10000U);
  ASSERT_NE(run->grammar, nullptr);
  EXPECT_FALSE(panel_.isBusy());

  gwb::InductionOptions options;
  options.maxIterations = static_cast<int>(run->records.size());
  options.tolerance = 0.0;
  const gwb::InductionResult core =
      runCore(samplePath("pp-attachment.cfg"), corpus.toStdString(), options);
  ASSERT_EQ(core.records.size(), run->records.size());
  expectPlotEqualsRecords(*panel_.plot(), id, core.records, true);
  for (gwb::RuleId r = 0; r < static_cast<gwb::RuleId>(core.grammar.ruleCount()); ++r)
    EXPECT_EQ(run->grammar->rule(r).probability, core.grammar.rule(r).probability);

  const QString saved = tempPath(QStringLiteral("cancelled.iogrammar"));
  QString error;
  ASSERT_TRUE(panel_.saveGrammar(id, saved, &error)) << error.toStdString();
  const gwb::GrammarLoad reread = gwb::loadGrammarFile(saved.toStdString());
  EXPECT_TRUE(reread.ok());
  EXPECT_EQ(reread.grammar.ruleCount(), core.grammar.ruleCount());

  // The panel takes another run afterwards.
  settings.corpusPath = QString::fromStdString(samplePath("pp-attachment.txt"));
  settings.iterations = 2;
  const int next = panel_.startRun(settings);
  ASSERT_GT(next, 0);
  ASSERT_TRUE(panel_.waitUntilIdle(kTimeoutMs));
  EXPECT_EQ(panel_.runModel()->run(next)->status, InductionRun::Status::Finished)
      << panel_.runModel()->run(next)->message.toStdString();
  EXPECT_EQ(panel_.runModel()->run(next)->records.size(), 2U);
}

// Errors in the form start nothing and say what is wrong; unreadable inputs fail the run.
TEST_F(InductionPanelTest, FormErrorsAreReported) {
  InductionSettings settings;
  settings.grammarPath = QString::fromStdString(samplePath("pp-attachment.cfg"));
  settings.corpusPath = QString::fromStdString(samplePath("pp-attachment.txt"));
  settings.priors = {QStringLiteral("N -> _*=0.5"), QStringLiteral("N ->=")};
  panel_.setSettings(settings);
  QString error;
  EXPECT_EQ(panel_.startRun(&error), -1);
  EXPECT_TRUE(error.contains(QStringLiteral("prior 2"))) << error.toStdString();
  EXPECT_EQ(panel_.statusLabel()->text(), error);
  EXPECT_EQ(panel_.runModel()->rowCount(), 0);

  settings.priors.clear();
  settings.corpusPath = tempPath(QStringLiteral("missing.txt"));
  EXPECT_EQ(panel_.startRun(settings, &error), -1);
  EXPECT_TRUE(error.contains(QStringLiteral("Corpus"))) << error.toStdString();

  // A grammar file that is not a grammar: the run starts, then fails with the reader's message.
  const QString bad = tempPath(QStringLiteral("bad.cfg"));
  {
    std::ofstream out(bad.toStdString());
    out << "S -> -> [0.5]\n";
  }
  settings.corpusPath = QString::fromStdString(samplePath("pp-attachment.txt"));
  settings.grammarPath = bad;
  const int id = panel_.startRun(settings, &error);
  ASSERT_GT(id, 0);
  ASSERT_TRUE(panel_.waitUntilIdle(kTimeoutMs));
  const InductionRun* run = panel_.runModel()->run(id);
  EXPECT_EQ(run->status, InductionRun::Status::Failed);
  EXPECT_TRUE(run->message.contains(QStringLiteral("bad.cfg"))) << run->message.toStdString();
  EXPECT_EQ(run->grammar, nullptr);
}

TEST(InductionSpecTest, AppliesKeyValuePairs) {
  InductionSettings s;
  QString error;
  ASSERT_TRUE(applyInductionSpec(
      &s,
      QStringLiteral("label=VB sparse;method=em;prior=Word.* -> _* except Word.None=0.001;"
                     "iterations=12;init=uniform;seed=4;noise=0.2;threads=2"),
      &error))
      << error.toStdString();
  EXPECT_EQ(s.label, QStringLiteral("VB sparse"));
  EXPECT_EQ(s.method, gwb::InductionMethod::Em);
  EXPECT_EQ(s.priors, QStringList{QStringLiteral("Word.* -> _* except Word.None=0.001")});
  EXPECT_EQ(s.iterations, 12);
  EXPECT_EQ(s.init, gwb::InitMethod::Uniform);
  EXPECT_EQ(s.seed, 4U);
  EXPECT_EQ(s.noise, 0.2);
  EXPECT_EQ(s.threads, 2);
  EXPECT_FALSE(applyInductionSpec(&s, QStringLiteral("colour=red"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("colour")));
  EXPECT_FALSE(applyInductionSpec(&s, QStringLiteral("iterations=-3"), &error));
}

// The real social-cue corpus and the authors' unigram grammar, two VB iterations with the
// paper's sparse prior, on two threads: the curve equals the core's.
TEST_F(InductionPanelTest, RealUnigramGrammarVbCurve) {
  GWB_REQUIRE_SHARED(grammar, "data/earleyx/grammars/unigram.grammar");
  GWB_REQUIRE_SHARED(corpus, "data/earleyx/data/socialall.ortho.yld");
  InductionSettings settings;
  settings.grammarPath = QString::fromStdString(grammar);
  settings.corpusPath = QString::fromStdString(corpus);
  settings.priors = {QStringLiteral("Word.* -> _* except Word.None=0.001")};
  settings.iterations = 2;
  settings.threads = 2;
  const int id = panel_.startRun(settings);
  ASSERT_GT(id, 0);
  ASSERT_TRUE(panel_.waitUntilIdle(kTimeoutMs));
  gwb::InductionOptions options;
  options.maxIterations = 2;
  options.priorOverrides.push_back(*gwb::parsePriorOverride("Word.* -> _* except Word.None=0.001"));
  const gwb::InductionResult core = runCore(grammar, corpus, options);
  ASSERT_EQ(core.records.size(), 2U);
  EXPECT_EQ(panel_.runModel()->run(id)->sentences, 4763);
  expectPlotEqualsRecords(*panel_.plot(), id, core.records, true);
}

// Research > Grammar induction… and Experiments… open the panels, once each.
TEST(ResearchMenuTest, OpensTheInductionAndExperimentPanels) {
  QTemporaryDir dir;
  QSettings store(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings settings(store);
  MainWindow window(settings);
  QMenu* menu = window.researchMenu();
  ASSERT_NE(menu, nullptr);
  const auto trigger = [menu](const QString& text) {
    for (QAction* action : menu->actions()) {
      if (action->text() == text) {
        action->trigger();
        return true;
      }
    }
    return false;
  };
  ASSERT_TRUE(trigger(QStringLiteral("&Grammar induction\u2026")));
  ASSERT_TRUE(trigger(QStringLiteral("&Experiments\u2026")));
  ASSERT_TRUE(trigger(QStringLiteral("&Grammar induction\u2026")));
  EXPECT_EQ(window.findChildren<InductionPanel*>().size(), 1);
  EXPECT_EQ(window.findChildren<ExperimentPanel*>().size(), 1);
  EXPECT_EQ(window.showInductionPanel(), window.findChild<InductionPanel*>());
  EXPECT_TRUE(window.showExperimentPanel()->isVisible());
}

}  // namespace
}  // namespace gwb::ui
