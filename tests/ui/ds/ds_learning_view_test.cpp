// DS lexicon learning in the workbench, offscreen, on a training file of four items with the
// shared DyLan induction seed: what the view shows is checked against core's own objects — the
// curve's points against the learner's observer reports, the bars against the learned
// probabilities, the alignment's colours against alignFields of maxMapping's result, the
// derivation's DAG against HypothesisSearch::derivation — and Cancel is checked at a fixed item
// (the worker is held there until Cancel is clicked; no clock).
#include "ui/ds/ds_learning_view.h"

#include <algorithm>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/hypothesis_search.h"
#include "gwb/ds/lexicon_evaluation.h"
#include "gwb/ds/lexicon_learner.h"
#include "gwb/ds/max_mapping.h"
#include "gwb/ds/semantic_corpus.h"
#include "shared_data.h"
#include "ui/common/job_progress_bar.h"
#include "ui/ds/ds_dag_model.h"
#include "ui/ds/ds_stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/gui_options.h"
#include "ui/frame/main_window.h"

namespace gwb::ui {
namespace {

namespace ds = gwb::ds;

constexpr const char* kSeed = "data/dylan/2013-english-ttr-induction-seed";

QString trainFile() {
  return QString::fromStdString(gwb::testing::sourceDir() + "/tests/data/ds/eval/tiny-train.txt");
}

// What core reports to an observer, item by item.
struct Report {
  std::size_t items;
  std::size_t hypotheses;
  double mean;
};

class Recorder : public ds::LearningObserver {
 public:
  void onItem(const ds::LearningProgress& p, const ds::SemanticExample& /*example*/,
              const ds::ExampleHypotheses& /*hypotheses*/) override {
    reports.push_back({p.itemsDone, p.hypotheses, p.meanHypothesesPerItem});
  }
  std::vector<Report> reports;
};

class DsLearningViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GWB_REQUIRE_SHARED(actions, std::string(kSeed) + "/computational-actions.txt");
    seedDirectory_ = gwb::testing::sharedPath(kSeed);
    view_.resize(1200, 760);
    view_.show();
    view_.setSeedDirectory(QString::fromStdString(seedDirectory_));
    view_.setTrainPath(trainFile());
  }

  void learn() {
    ASSERT_TRUE(view_.startLearning()) << view_.statusText().toStdString();
    ASSERT_TRUE(view_.waitForLearning());
    ASSERT_NE(view_.lexicon(), nullptr) << view_.statusText().toStdString();
  }

  const ds::DsGrammar& seed() {
    if (!seed_) seed_ = std::make_shared<ds::DsGrammarLoad>(ds::loadDsGrammar(seedDirectory_));
    return seed_->grammar;
  }

  std::vector<ds::SemanticExample> corpus() {
    Diagnostics diagnostics;
    return ds::loadSemanticCorpus(trainFile().toStdString(), diagnostics);
  }

  std::string seedDirectory_;
  std::shared_ptr<ds::DsGrammarLoad> seed_;
  DsLearningView view_;
};

TEST_F(DsLearningViewTest, TheCurveIsTheLearnersReports) {
  std::vector<LearningPoint> signalled;
  QObject::connect(view_.job(), &DsLearningJob::itemLearned, &view_,
                   [&signalled](const LearningPoint& p) { signalled.push_back(p); });
  learn();
  // The same run by core, observed directly.
  const ds::HypothesisSearch search(seed());
  ds::LearningOptions options;
  options.batch = 1;
  Recorder recorder;
  const std::vector<ds::SemanticExample> items = corpus();
  const ds::LearningResult expected = ds::learnLexicon(
      items,
      [&](const ds::SemanticExample& ex, std::size_t) {
        return search.hypotheses(ex, ds::HypothesisSearchOptions());
      },
      options, &recorder);
  ASSERT_EQ(recorder.reports.size(), items.size());
  const QVector<QPointF> size = view_.lexiconSizePoints();
  const QVector<QPointF> mean = view_.meanHypothesesPoints();
  ASSERT_EQ(static_cast<std::size_t>(size.size()), recorder.reports.size());
  ASSERT_EQ(static_cast<std::size_t>(mean.size()), recorder.reports.size());
  ASSERT_EQ(signalled.size(), recorder.reports.size());
  for (std::size_t i = 0; i < recorder.reports.size(); ++i) {
    const Report& r = recorder.reports[i];
    const auto at = static_cast<int>(i);
    EXPECT_DOUBLE_EQ(size[at].x(), static_cast<double>(r.items)) << i;
    EXPECT_DOUBLE_EQ(size[at].y(), static_cast<double>(r.hypotheses)) << i;
    EXPECT_DOUBLE_EQ(mean[at].x(), static_cast<double>(r.items)) << i;
    EXPECT_DOUBLE_EQ(mean[at].y(), r.mean) << i;
    EXPECT_EQ(signalled[i].items, static_cast<qint64>(r.items));
    EXPECT_EQ(signalled[i].total, static_cast<qint64>(items.size()));
  }
  EXPECT_FALSE(view_.job()->result().cancelled);
  EXPECT_EQ(view_.lexicon()->hypotheses().size(), expected.em.hypotheses().size());
  EXPECT_EQ(ds::learnedLexiconText(*view_.lexicon(), 5), ds::learnedLexiconText(expected.em, 5));
}

TEST_F(DsLearningViewTest, BarsAreTheLearnedProbabilitiesWithTheirActions) {
  learn();
  const ds::IncrementalEm& em = *view_.lexicon();
  QStringList words;
  for (const std::string& w : em.words()) words << QString::fromStdString(w);
  ASSERT_EQ(view_.words(), words);
  ASSERT_FALSE(words.isEmpty());
  for (const QString& word : words) {
    ASSERT_TRUE(view_.selectWord(word));
    EXPECT_EQ(view_.selectedWord(), word);
    const std::vector<int> ranked = em.ranked(word.toStdString());
    EXPECT_EQ(view_.barHypotheses(), ranked) << word.toStdString();
    const QVector<double> bars = view_.barValues();
    ASSERT_EQ(static_cast<std::size_t>(bars.size()), ranked.size());
    for (std::size_t r = 0; r < ranked.size(); ++r) {
      const ds::LearnedHypothesis& h = em.hypotheses()[static_cast<std::size_t>(ranked[r])];
      EXPECT_DOUBLE_EQ(bars[static_cast<int>(r)], h.probability) << word.toStdString() << r;
      view_.selectHypothesis(static_cast<int>(r));
      EXPECT_EQ(view_.selectedHypothesis(), ranked[r]);
      EXPECT_EQ(view_.actionText().toStdString(), h.action);
    }
    view_.selectHypothesis(0);
    EXPECT_TRUE(view_.actionText().startsWith(QStringLiteral("IF")));
    EXPECT_TRUE(view_.actionText().contains(QStringLiteral("THEN")));
  }
  EXPECT_FALSE(view_.selectWord(QStringLiteral("no-such-word")));
}

TEST_F(DsLearningViewTest, TheTestItemAlignmentIsMaxMappings) {
  learn();
  view_.setTop(2);
  ASSERT_EQ(view_.testItemCount(), 4);  // the training items by default
  const std::vector<ds::SemanticExample> items = corpus();
  // The grammar the view parses with, made here by core.
  ds::DsGrammar grammar = seed();
  Diagnostics diagnostics;
  ds::useLearnedLexicon(
      grammar, ds::parseLearnedLexicon(ds::learnedLexiconText(*view_.lexicon(), 2), "<learned>",
                                       diagnostics));
  ASSERT_FALSE(diagnostics.hasErrors());
  const ds::DsParser parser(grammar);
  for (int index = 0; index < view_.testItemCount(); ++index) {
    ASSERT_TRUE(view_.selectTestItem(index));
    ASSERT_TRUE(view_.waitForInspection());
    const ds::ItemEvaluation* shown = view_.evaluation();
    ASSERT_NE(shown, nullptr);
    const ds::ItemEvaluation expected =
        ds::evaluateItem(parser, items[static_cast<std::size_t>(index)],
                         ds::LexiconEvaluationOptions::bestFirstOptions());
    EXPECT_EQ(shown->outcome, expected.outcome) << expected.sentence;
    EXPECT_EQ(shown->parsed.toString(), expected.parsed.toString());
    EXPECT_DOUBLE_EQ(shown->mapping.score, expected.mapping.score);
    const ds::FieldAlignment alignment =
        ds::alignFields(expected.parsed, expected.gold, expected.mapping);
    // Each side's rows: the field, in the colour of its match.
    const auto check = [](QTableWidget* table, const std::vector<ds::AlignedField>& fields) {
      ASSERT_EQ(table->rowCount(), static_cast<int>(fields.size()));
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const QTableWidgetItem* cell = table->item(static_cast<int>(i), 0);
        ASSERT_NE(cell, nullptr);
        EXPECT_EQ(cell->text().trimmed().toStdString(), fields[i].text);
        EXPECT_EQ(cell->background().color(), DsLearningView::matchColor(fields[i].match))
            << fields[i].label << " " << ds::fieldMatchName(fields[i].match);
        EXPECT_EQ(table->item(static_cast<int>(i), 1)->text().toStdString(), fields[i].partner);
      }
    };
    check(view_.goldTable(), alignment.gold);
    check(view_.parsedTable(), alignment.hypothesis);
    EXPECT_TRUE(view_.scoreText().contains(QString::number(expected.mapping.f(), 'f', 3)));
  }
  // A covered item's gold fields are all matched when the parse is right.
  ASSERT_TRUE(view_.selectTestItem(0));  // "you go"
  ASSERT_TRUE(view_.waitForInspection());
  ASSERT_TRUE(view_.evaluation()->covered());

  // "Open in DS stepper": the stepper parses the item with the learned grammar, best-first, to
  // the same record type.
  DsStepperView stepper;
  QObject::connect(&view_, &DsLearningView::openInStepper, &stepper,
                   [&stepper](std::shared_ptr<const ds::DsGrammar> learned,
                              const QString& directory, const QString& sentence) {
                     stepper.useGrammar(std::move(learned), directory);
                     stepper.setBestFirst(true);
                     stepper.setSentence(sentence);
                     stepper.parse();
                   });
  QPushButton* open = nullptr;
  for (QPushButton* b : view_.findChildren<QPushButton*>())
    if (b->text() == QStringLiteral("Open in DS stepper")) open = b;
  ASSERT_NE(open, nullptr);
  ASSERT_TRUE(open->isEnabled());
  view_.showTab(DsLearningView::TestTab);
  QTest::mouseClick(open, Qt::LeftButton);
  ASSERT_TRUE(stepper.waitForParse());
  ASSERT_NE(stepper.dagModel()->result(), nullptr) << stepper.statusText().toStdString();
  EXPECT_EQ(stepper.dagModel()->result()->outcome, view_.evaluation()->outcome);
  EXPECT_EQ(stepper.sentence(), QStringLiteral("you go"));
  EXPECT_EQ(stepper.grammarDirectory(), QDir::cleanPath(QString::fromStdString(seedDirectory_)));
}

// A test file of its own, made so that the parses miss a gold field ("you go" with a tense the
// training never showed) and add one ("you can go" against a gold type without "can"): the
// colours say so, as alignFields does.
TEST_F(DsLearningViewTest, MissingAndExtraFieldsAreColouredSo) {
  learn();
  view_.setTestPath(
      QString::fromStdString(gwb::testing::sourceDir() + "/tests/data/ds/eval/tiny-test.txt"));
  ASSERT_EQ(view_.testItemCount(), 3);
  std::vector<std::string> seen;
  for (int index = 0; index < 3; ++index) {
    ASSERT_TRUE(view_.selectTestItem(index));
    ASSERT_TRUE(view_.waitForInspection());
    ASSERT_NE(view_.evaluation(), nullptr);
    const ds::FieldAlignment& a = view_.alignment();
    const ds::FieldAlignment expected = ds::alignFields(
        view_.evaluation()->parsed, view_.evaluation()->gold, view_.evaluation()->mapping);
    ASSERT_EQ(a.gold.size(), expected.gold.size());
    for (std::size_t i = 0; i < a.gold.size(); ++i) {
      EXPECT_EQ(a.gold[i].match, expected.gold[i].match);
      EXPECT_EQ(view_.goldTable()->item(static_cast<int>(i), 0)->background().color(),
                DsLearningView::matchColor(a.gold[i].match));
      seen.push_back(std::string("gold ") + ds::fieldMatchName(a.gold[i].match));
    }
    for (std::size_t i = 0; i < a.hypothesis.size(); ++i) {
      EXPECT_EQ(view_.parsedTable()->item(static_cast<int>(i), 0)->background().color(),
                DsLearningView::matchColor(a.hypothesis[i].match));
      seen.push_back(std::string("parsed ") + ds::fieldMatchName(a.hypothesis[i].match));
    }
  }
  const auto has = [&seen](const char* what) {
    return std::find(seen.begin(), seen.end(), what) != seen.end();
  };
  EXPECT_TRUE(has("gold matched"));
  EXPECT_TRUE(has("gold missing")) << "the tense of \"you go\"";
  EXPECT_TRUE(has("parsed extra")) << "the feature of \"can\"";
}

TEST_F(DsLearningViewTest, ADerivationIsTheHypothesisStepsAsDagEdges) {
  learn();
  const ds::IncrementalEm& em = *view_.lexicon();
  ASSERT_TRUE(view_.selectWord(QStringLiteral("go")));
  const int id = view_.selectedHypothesis();
  ASSERT_GE(id, 0);
  const ds::LearnedHypothesis& h = em.hypotheses()[static_cast<std::size_t>(id)];
  ASSERT_FALSE(h.items.empty());
  ASSERT_TRUE(view_.showDerivation(id));
  ASSERT_TRUE(view_.waitForInspection());
  const ds::HypothesisDerivation* shown = view_.derivation();
  ASSERT_NE(shown, nullptr);
  ASSERT_TRUE(shown->found()) << shown->note;
  // Core's own derivation of it in the same training item.
  const ds::HypothesisSearch search(seed());
  const ds::HypothesisDerivation expected =
      search.derivation(corpus()[static_cast<std::size_t>(h.items.front())], h.word, h.key, {});
  ASSERT_TRUE(expected.found());
  ASSERT_EQ(shown->path.size(), expected.path.size());
  for (std::size_t i = 0; i < expected.path.size(); ++i)
    EXPECT_EQ(shown->path[i].action, expected.path[i].action);
  EXPECT_EQ(shown->stepWord, expected.stepWord);
  // The DAG view shows one edge per step, all of them, on the success path.
  DsDagModel* dag = view_.dagModel();
  ASSERT_NE(dag->result(), nullptr);
  EXPECT_EQ(dag->edgeCount(), static_cast<int>(expected.path.size()));
  EXPECT_EQ(dag->visibleEdges(), dag->edgeCount());
  EXPECT_TRUE(dag->succeeded());
  for (int e = 0; e < dag->edgeCount(); ++e) EXPECT_TRUE(dag->isOnPath(e));
  // The steps table: one row per step, the hypothesis's own highlighted.
  QTableWidget* steps = view_.stepsTable();
  ASSERT_EQ(steps->rowCount(), static_cast<int>(expected.path.size()));
  const std::vector<int> mine = expected.hypothesisEdges();
  ASSERT_FALSE(mine.empty());
  for (int row = 0; row < steps->rowCount(); ++row) {
    const bool highlighted = steps->item(row, 0)->background().style() != Qt::NoBrush;
    const bool expectedMine = std::find(mine.begin(), mine.end(), row) != mine.end();
    EXPECT_EQ(highlighted, expectedMine) << row;
  }
  std::string action;
  for (const int e : mine)
    action += (action.empty() ? "" : "\n") + expected.path[static_cast<std::size_t>(e)].action;
  EXPECT_EQ(ds::canonicalHypothesisKey(action), h.key);
}

// Cancel at a fixed item: the worker is held before item 2 (0-based 1) until Cancel is clicked,
// so exactly two items are learned; what was learned can be saved and reloads.
TEST_F(DsLearningViewTest, CancelKeepsWhatWasLearnedAndItSaves) {
  std::promise<void> reached;
  DsLearningJob* job = view_.job();
  job->setItemHook([&reached, job](std::size_t item) {
    if (item != 1) return;
    reached.set_value();
    while (!job->backgroundJob().isCancelRequested()) std::this_thread::yield();
  });
  ASSERT_TRUE(view_.startLearning());
  reached.get_future().wait();
  auto* bar = view_.findChild<JobProgressBar*>();
  ASSERT_NE(bar, nullptr);
  ASSERT_TRUE(bar->cancelButton()->isEnabled());
  QTest::mouseClick(bar->cancelButton(), Qt::LeftButton);
  ASSERT_TRUE(view_.waitForLearning());
  job->setItemHook(nullptr);
  ASSERT_NE(view_.lexicon(), nullptr);
  EXPECT_TRUE(job->result().cancelled);
  EXPECT_EQ(job->result().progress.itemsDone, 2u);
  EXPECT_EQ(view_.lexiconSizePoints().size(), 2);
  EXPECT_TRUE(view_.statusText().startsWith(QStringLiteral("Cancelled after 2 of 4")))
      << view_.statusText().toStdString();
  EXPECT_EQ(view_.lexicon()->examplesObserved(), 2u);

  // Saving writes the top-1..N lexicons and the lossless file, core's texts, and they reload.
  view_.setTop(3);
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString out = dir.filePath(QStringLiteral("learned"));
  QString error;
  ASSERT_TRUE(view_.saveLexicons(out, &error)) << error.toStdString();
  for (int top = 1; top <= 3; ++top) {
    QFile file(out + QStringLiteral("/lexicon.lex-top-%1.txt").arg(top));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << top;
    EXPECT_EQ(file.readAll().toStdString(), ds::learnedLexiconText(*view_.lexicon(), top));
    Diagnostics diagnostics;
    EXPECT_FALSE(ds::loadLearnedLexicon(file.fileName().toStdString(), diagnostics).empty());
    EXPECT_FALSE(diagnostics.hasErrors());
  }
  EXPECT_FALSE(QFile::exists(out + QStringLiteral("/lexicon.lex-top-4.txt")));
  QFile lossless(out + QStringLiteral("/hypotheses.tsv"));
  ASSERT_TRUE(lossless.open(QIODevice::ReadOnly));
  EXPECT_EQ(lossless.readAll().toStdString(), ds::losslessLexiconText(*view_.lexicon()));

  // A second run after the cancelled one learns all four items.
  learn();
  EXPECT_FALSE(job->result().cancelled);
  EXPECT_EQ(view_.lexiconSizePoints().size(), 4);
}

TEST_F(DsLearningViewTest, MissingInputsAreReportedNotRun) {
  view_.setSeedDirectory(QStringLiteral("/nonexistent"));
  EXPECT_FALSE(view_.startLearning());
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("not a DyLan grammar folder")));
  view_.setSeedDirectory(QString::fromStdString(seedDirectory_));
  view_.setTrainPath(QStringLiteral("/nonexistent/train.txt"));
  EXPECT_FALSE(view_.startLearning());
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("no such training file")));
  EXPECT_FALSE(view_.isLearning());
  EXPECT_EQ(view_.lexicon(), nullptr);
}

TEST(DsLearningWindowTest, TheMenuOpensOneLearningTabAndTheViewOptionParses) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings app(settings);
  MainWindow window(app);
  QAction* entry = nullptr;
  for (QAction* menu : window.menuBar()->actions())
    if (menu->menu() != nullptr)
      for (QAction* a : menu->menu()->actions())
        if (a->text().contains(QStringLiteral("lexicon learning"))) entry = a;
  ASSERT_NE(entry, nullptr);
  entry->trigger();
  DsLearningView* first = window.findChild<DsLearningView*>();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(window.openDsLearning(), first) << "one learning tab";

  const GuiCommandLine line = parseGuiOptions(
      {QStringLiteral("grammar-workbench"), QStringLiteral("--view"), QStringLiteral("ds-learn"),
       QStringLiteral("--ds-train"), QStringLiteral("train.txt"), QStringLiteral("--ds-word"),
       QStringLiteral("go"), QStringLiteral("--ds-test-item"), QStringLiteral("2"),
       QStringLiteral("--ds-learn-tab"), QStringLiteral("test")});
  ASSERT_EQ(line.action, GuiCommandLine::Action::Run) << line.text.toStdString();
  EXPECT_EQ(line.options.view, QStringLiteral("ds-learn"));
  EXPECT_EQ(line.options.dsTrain, QStringLiteral("train.txt"));
  EXPECT_EQ(line.options.dsWord, QStringLiteral("go"));
  EXPECT_EQ(line.options.dsTestItem, 2);
  EXPECT_EQ(line.options.dsLearnTab, QStringLiteral("test"));
  const GuiCommandLine bad =
      parseGuiOptions({QStringLiteral("grammar-workbench"), QStringLiteral("--ds-learn-tab"),
                       QStringLiteral("charts")});
  EXPECT_EQ(bad.action, GuiCommandLine::Action::Error);
}

}  // namespace
}  // namespace gwb::ui
