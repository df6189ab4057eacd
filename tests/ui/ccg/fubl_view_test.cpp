// The FUBL learner view end to end, offscreen, on the tiny synthetic language of the core test
// "a tiny synthetic language is learned perfectly" (ccg_fubl_test.cpp), written to files at test
// time, plus one held-out sentence about a state the data never names (so one answer is wrong).
// What the view shows is checked against core objects: the curve's points are the observer's
// pass reports of an independent core run, the lexicon table's rows are the model's lexeme ×
// template entries with their weights, the filters keep exactly the lexemes that name the word or
// constant, the sentence entries are core's sentenceEntries with the best parse's marked, the
// evaluation rows are core's evaluation; cancelling lands on a chosen example (no clock); a model
// file opens in the lexicon browser without training (a bad one gives the reader's file:line); a
// weight that rounds to zero shows no sign; what a workspace keeps of the tab comes back in
// another view, and files that are gone are named while the rest opens; and the main window
// opens a test sentence in the CCG tab with the learned model and reopens the tab from a
// workspace.
#include "ui/ccg/fubl_view.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/fubl_learner.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "qt_printers.h"
#include "shared_data.h"
#include "synthetic_geography.h"
#include "ui/ccg/ccg_view.h"
#include "ui/ccg/fubl_lexicon_model.h"
#include "ui/ccg/fubl_pair_heatmap.h"
#include "ui/ccg/fubl_training_plot.h"
#include "ui/common/job_progress_bar.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"
#include "ui/frame/workspace.h"

namespace gwb::ui {
namespace {

namespace ccg = gwb::ccg;

void writeFile(const QString& path, const std::string& text) {
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(text.data(), static_cast<qint64>(text.size()));
}

class FublViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    const gwb::testing::SyntheticGeography synthetic = gwb::testing::syntheticGeography();
    std::string train = synthetic.train;
    std::string test = synthetic.test;
    test += "the capital of kansas\n(capital:c kansas:s)\n\n";  // a state never seen
    writeFile(path("train.ccg"), train);
    writeFile(path("train.types"), synthetic.types);
    writeFile(path("train.lang"), synthetic.lang);
    writeFile(path("test.ccg"), test);
    writeFile(path("fixed.geo"), synthetic.fixedLexicon);
    settings_.trainingPath = path("train.ccg");
    settings_.testPath = path("test.ccg");
    settings_.fixedLexiconPath = path("fixed.geo");
    settings_.modelPath = path("learned.ccgmodel");
    settings_.passes = 5;
    view_.resize(1300, 850);
    view_.show();
  }

  QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

  void train() {
    view_.setSettings(settings_);
    ASSERT_TRUE(view_.startTraining()) << view_.statusText().toStdString();
    ASSERT_TRUE(view_.waitForTraining());
    ASSERT_NE(view_.model(), nullptr) << view_.statusText().toStdString();
  }

  // The same run in core, reported to a recording observer.
  struct CoreRun : ccg::FublObserver {
    ccg::TypeSystem types;
    std::vector<ccg::SemanticExample> train;
    std::vector<ccg::SemanticExample> test;
    ccg::FactoredLexicon fixed;
    std::vector<ccg::PassSummary> passes;
    std::unique_ptr<ccg::FublLearner> learner;
    void onPass(const ccg::PassSummary& summary, const ccg::FactoredLexicon& /*l*/) override {
      passes.push_back(summary);
    }
  };
  // `pruneAfterLastPass` off: the lexicon as the last pass left it (a cancelled run's).
  std::unique_ptr<CoreRun> coreRun(int passes, bool pruneAfterLastPass = true) const {
    ccg::FublOptions options;
    options.passes = passes;
    options.pruneAfterLastPass = pruneAfterLastPass;
    return coreRun(options);
  }
  std::unique_ptr<CoreRun> coreRun(const ccg::FublOptions& options) const {
    auto run = std::make_unique<CoreRun>();
    run->types =
        ccg::loadTypeSystem(path("train.types").toStdString(), path("train.lang").toStdString())
            .types;
    run->train = ccg::loadSemanticExamples(path("train.ccg").toStdString()).examples;
    run->test = ccg::loadSemanticExamples(path("test.ccg").toStdString()).examples;
    run->fixed = ccg::loadFixedLexicon(path("fixed.geo").toStdString()).lexicon;
    run->learner = std::make_unique<ccg::FublLearner>(run->types, options);
    run->learner->train(run->train, run->fixed, ccg::FublControl{run.get(), nullptr});
    return run;
  }

  // The view shows `learner`'s lexicon as its model, and the model file holds it.
  void expectShownAndSaved(const ccg::FublLearner& learner) {
    ASSERT_NE(view_.model(), nullptr);
    EXPECT_EQ(ccg::writeFactoredLexicon(*view_.model()),
              ccg::writeFactoredLexicon(learner.lexicon()));
    QFile saved(settings_.modelPath);
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
    EXPECT_EQ(saved.readAll().toStdString(),
              ccg::writeCcgModel(learner.lexicon(), learner.options().parser));
  }

  QTemporaryDir dir_;
  FublTrainingSettings settings_;
  FublView view_;
};

TEST_F(FublViewTest, CurvePointsAreTheObserversPassReportsAndTheModelIsSaved) {
  train();
  const std::unique_ptr<CoreRun> core = coreRun(5);
  ASSERT_EQ(core->passes.size(), 5u);
  const QVector<QPointF> accuracy = view_.trainingPlot()->accuracyPoints();
  const QVector<QPointF> lexemes = view_.trainingPlot()->lexemePoints();
  ASSERT_EQ(accuracy.size(), 5);
  ASSERT_EQ(lexemes.size(), 5);
  ASSERT_EQ(view_.job().passes().size(), 5u);
  for (int p = 0; p < 5; ++p) {
    const ccg::PassSummary& s = core->passes[p];
    EXPECT_EQ(accuracy[p], QPointF(p + 1, 100.0 * s.correctBeforeUpdate / s.examples));
    EXPECT_EQ(lexemes[p], QPointF(p + 1, static_cast<double>(s.lexemes)));
    EXPECT_EQ(view_.job().passes()[p].logLikelihood, s.logLikelihood);
  }
  EXPECT_EQ(view_.passTable()->rowCount(), 5);
  EXPECT_EQ(view_.passTable()->item(4, 4)->text(), QString::number(core->passes[4].lexemes));
  // The learned language is learned perfectly: every training pair right in the last pass.
  EXPECT_EQ(accuracy.back().y(), 100.0);
  // The model file is core's writer's text of the core run's lexicon.
  QFile saved(settings_.modelPath);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  EXPECT_EQ(saved.readAll().toStdString(),
            ccg::writeCcgModel(core->learner->lexicon(), core->learner->options().parser));
  EXPECT_EQ(ccg::writeFactoredLexicon(*view_.model()),
            ccg::writeFactoredLexicon(core->learner->lexicon()));
  EXPECT_FALSE(view_.progressBar()->isRunning());
  EXPECT_TRUE(view_.progressBar()->bar()->format().contains(QStringLiteral("done")));
}

// The learning options of the form (cooling, the whole lexicon, averaged weights) reach the
// learner: the view shows and saves the model core trains with the same options, and a
// workspace keeps them.
TEST_F(FublViewTest, LearningOptionsReachTheLearnerAndTheWorkspace) {
  EXPECT_EQ(view_.settings().cooling, FublTrainingSettings().cooling);
  EXPECT_FALSE(view_.settings().keepLexicon);
  EXPECT_FALSE(view_.settings().averageWeights);
  // Every state name also reads as another state: the charts hold competing derivations, so
  // the updates are not zero and the cooling and the averaging change the weights.
  writeFile(path("fixed.geo"), gwb::testing::syntheticGeography().fixedLexicon +
                                   "texas :- NP : ohio:s\nohio :- NP : utah:s\n"
                                   "utah :- NP : iowa:s\niowa :- NP : texas:s\n");
  settings_.passes = 3;
  settings_.cooling = 0.25;
  settings_.keepLexicon = true;
  settings_.averageWeights = true;
  train();
  ccg::FublOptions options;
  options.passes = 3;
  options.coolingRate = 0.25;
  options.pruneAfterLastPass = false;
  options.averageWeights = true;
  const std::unique_ptr<CoreRun> core = coreRun(options);
  ASSERT_NE(view_.model(), nullptr);
  EXPECT_EQ(ccg::writeFactoredLexicon(*view_.model()),
            ccg::writeFactoredLexicon(core->learner->model()));
  QFile saved(settings_.modelPath);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  EXPECT_EQ(saved.readAll().toStdString(),
            ccg::writeCcgModel(core->learner->model(), core->learner->options().parser));
  // Not vacuous: without the averaging, the cooling or the whole lexicon the model differs.
  for (int change = 0; change < 3; ++change) {
    ccg::FublOptions without = options;
    if (change == 0) without.averageWeights = false;
    if (change == 1) without.coolingRate = FublTrainingSettings().cooling;
    if (change == 2) without.pruneAfterLastPass = true;
    EXPECT_NE(ccg::writeFactoredLexicon(coreRun(without)->learner->model()),
              ccg::writeFactoredLexicon(*view_.model()))
        << change;
  }
  FublView other;
  other.restoreState(view_.state());
  EXPECT_EQ(other.settings().cooling, 0.25);
  EXPECT_TRUE(other.settings().keepLexicon);
  EXPECT_TRUE(other.settings().averageWeights);
  // A workspace without them (older) gets the defaults.
  QJsonObject older = view_.state();
  older.remove(QStringLiteral("cooling"));
  older.remove(QStringLiteral("keepLexicon"));
  older.remove(QStringLiteral("averageWeights"));
  other.restoreState(older);
  EXPECT_EQ(other.settings().cooling, FublTrainingSettings().cooling);
  EXPECT_FALSE(other.settings().keepLexicon);
  EXPECT_FALSE(other.settings().averageWeights);
}

// "Keep items used ≥" (FublOptions::keepPosterior) reaches the learner's final pruning, is off
// while the whole lexicon is kept, and a workspace keeps it (older ones: the learner's default).
TEST_F(FublViewTest, KeepPosteriorReachesTheFinalPruningAndTheWorkspace) {
  EXPECT_EQ(view_.settings().keepPosterior, ccg::FublOptions().keepPosterior);
  EXPECT_EQ(view_.settings().keepPosterior, 0.1);
  auto* box = view_.findChild<QDoubleSpinBox*>(QStringLiteral("fublKeepPosteriorBox"));
  auto* whole = view_.findChild<QCheckBox*>(QStringLiteral("fublKeepLexiconBox"));
  ASSERT_NE(box, nullptr);
  ASSERT_NE(whole, nullptr);
  whole->setChecked(true);
  EXPECT_FALSE(box->isEnabled());
  whole->setChecked(false);
  EXPECT_TRUE(box->isEnabled());
  writeFile(path("fixed.geo"), gwb::testing::syntheticGeography().fixedLexicon +
                                   "texas :- NP : ohio:s\nohio :- NP : utah:s\n"
                                   "utah :- NP : iowa:s\niowa :- NP : texas:s\n");
  settings_.passes = 3;
  settings_.keepPosterior = 0.01;
  train();
  ccg::FublOptions options;
  options.passes = 3;
  options.keepPosterior = 0.01;
  ASSERT_NE(view_.model(), nullptr);
  EXPECT_EQ(ccg::writeFactoredLexicon(*view_.model()),
            ccg::writeFactoredLexicon(coreRun(options)->learner->model()));
  // Not vacuous: y*'s items alone are fewer.
  options.keepPosterior = 0.0;
  EXPECT_LT(coreRun(options)->learner->model().lexemes().size(), view_.model()->lexemes().size());
  FublView other;
  other.restoreState(view_.state());
  EXPECT_EQ(other.settings().keepPosterior, 0.01);
  QJsonObject older = view_.state();
  older.remove(QStringLiteral("keepPosterior"));
  other.restoreState(older);
  EXPECT_EQ(other.settings().keepPosterior, ccg::FublOptions().keepPosterior);
}

TEST_F(FublViewTest, LexiconTableRowsAreTheModelsEntriesWithTheirWeights) {
  train();
  const ccg::FactoredLexicon& model = *view_.model();
  FublLexiconModel* table = view_.lexiconModel();
  // Every lexeme × template pair that makes an entry, once.
  std::set<std::pair<int, int>> entries;
  for (const ccg::Lexeme& lexeme : model.lexemes()) {
    std::string phrase;
    for (const std::string& w : lexeme.words) phrase += (phrase.empty() ? "" : " ") + w;
    for (const ccg::LexicalEntry& e : model.entriesFor(phrase)) {
      entries.emplace(e.lexeme, e.lexicalTemplate);
    }
  }
  ASSERT_EQ(table->rowCount(), static_cast<int>(entries.size()));
  EXPECT_EQ(static_cast<std::size_t>(table->rowCount()), model.entryCount());
  for (int row = 0; row < table->rowCount(); ++row) {
    const ccg::Lexeme& lexeme = model.lexemes()[table->lexemeAt(row)];
    const ccg::LexicalTemplate& t = model.templates()[table->templateAt(row)];
    EXPECT_TRUE(entries.count({table->lexemeAt(row), table->templateAt(row)}) > 0);
    EXPECT_EQ(table->data(table->index(row, FublLexiconModel::TemplateColumn)).toString(),
              QString::fromStdString(ccg::templateKey(t)));
    const double lw = model.weight(ccg::lexemeFeature(lexeme));
    const double tw = model.weight(ccg::templateFeature(t));
    const double pw = model.weight(ccg::pairFeature(lexeme, t));
    EXPECT_EQ(table
                  ->data(table->index(row, FublLexiconModel::LexemeWeightColumn),
                         FublLexiconModel::kSortRole)
                  .toDouble(),
              lw);
    EXPECT_EQ(table->pairWeight(row), pw);
    EXPECT_EQ(
        table->data(table->index(row, FublLexiconModel::ScoreColumn), FublLexiconModel::kSortRole)
            .toDouble(),
        lw + 0.1 * tw + pw);
  }
  // Sorting by score, highest first, through the proxy the table shows.
  view_.lexiconTable()->sortByColumn(FublLexiconModel::ScoreColumn, Qt::DescendingOrder);
  FublLexiconFilter* proxy = view_.lexiconFilter();
  for (int r = 1; r < proxy->rowCount(); ++r) {
    EXPECT_GE(proxy->index(r - 1, FublLexiconModel::ScoreColumn)
                  .data(FublLexiconModel::kSortRole)
                  .toDouble(),
              proxy->index(r, FublLexiconModel::ScoreColumn)
                  .data(FublLexiconModel::kSortRole)
                  .toDouble());
  }
  // The heatmap, unfiltered: a row per lexeme with an entry, its cells the pair weights.
  std::set<int> lexemesWithEntries;
  for (const auto& [l, t] : entries) lexemesWithEntries.insert(l);
  FublPairHeatmap* heatmap = view_.heatmap();
  ASSERT_EQ(heatmap->rowLexemes().size(), lexemesWithEntries.size());
  int cells = 0;
  for (int r = 0; r < static_cast<int>(heatmap->rowLexemes().size()); ++r) {
    for (int c = 0; c < static_cast<int>(heatmap->columnTemplates().size()); ++c) {
      const int l = heatmap->rowLexemes()[r];
      const int t = heatmap->columnTemplates()[c];
      const std::optional<double> value = heatmap->valueAt(r, c);
      ASSERT_EQ(value.has_value(), entries.count({l, t}) > 0);
      if (value) {
        ++cells;
        EXPECT_EQ(*value, model.weight(ccg::pairFeature(model.lexemes()[l], model.templates()[t])));
      }
    }
  }
  EXPECT_EQ(cells, static_cast<int>(entries.size()));
}

TEST_F(FublViewTest, FiltersKeepTheLexemesWithTheWordOrConstant) {
  train();
  const ccg::FactoredLexicon& model = *view_.model();
  FublLexiconModel* table = view_.lexiconModel();
  struct Case {
    QString text;
    FublLexiconFilter::Mode mode;
    std::function<bool(const ccg::Lexeme&)> expected;
  };
  const auto hasWord = [](const ccg::Lexeme& l, const std::string& w) {
    return std::find(l.words.begin(), l.words.end(), w) != l.words.end();
  };
  const auto hasConstant = [](const ccg::Lexeme& l, const std::string& c) {
    return std::find(l.constants.begin(), l.constants.end(), c) != l.constants.end();
  };
  const std::vector<Case> cases = {
      {QStringLiteral("texas"), FublLexiconFilter::Mode::Word,
       [&](const ccg::Lexeme& l) { return hasWord(l, "texas"); }},
      {QStringLiteral("texas:s"), FublLexiconFilter::Mode::Constant,
       [&](const ccg::Lexeme& l) { return hasConstant(l, "texas:s"); }},
      {QStringLiteral("next_to"), FublLexiconFilter::Mode::Constant,
       [&](const ccg::Lexeme& l) { return hasConstant(l, "next_to:t"); }},
      {QStringLiteral("RIVERS"), FublLexiconFilter::Mode::Any,
       [&](const ccg::Lexeme& l) { return hasWord(l, "rivers"); }},
      {QStringLiteral("texas"), FublLexiconFilter::Mode::Constant,
       [&](const ccg::Lexeme& l) { return hasConstant(l, "texas:s"); }},
      {QStringLiteral("nothing-like-this"), FublLexiconFilter::Mode::Any,
       [](const ccg::Lexeme&) { return false; }},
  };
  for (const Case& c : cases) {
    view_.setFilter(c.text, c.mode);
    int expected = 0;
    for (int row = 0; row < table->rowCount(); ++row) {
      expected += c.expected(model.lexemes()[table->lexemeAt(row)]) ? 1 : 0;
    }
    FublLexiconFilter* proxy = view_.lexiconFilter();
    EXPECT_EQ(proxy->rowCount(), expected) << c.text.toStdString();
    for (int r = 0; r < proxy->rowCount(); ++r) {
      const int row = proxy->mapToSource(proxy->index(r, 0)).row();
      EXPECT_TRUE(c.expected(model.lexemes()[table->lexemeAt(row)])) << c.text.toStdString();
    }
    std::set<int> shownLexemes;
    for (int r = 0; r < proxy->rowCount(); ++r) {
      shownLexemes.insert(table->lexemeAt(proxy->mapToSource(proxy->index(r, 0)).row()));
    }
    EXPECT_EQ(view_.heatmap()->rowLexemes().size(), shownLexemes.size()) << c.text.toStdString();
  }
  // The word filter finds the state word in training that splitting must have made a lexeme.
  view_.setFilter(QStringLiteral("texas"), FublLexiconFilter::Mode::Word);
  EXPECT_GT(view_.lexiconFilter()->rowCount(), 0);
}

TEST_F(FublViewTest, LexemeTemplatesAndTheEntriesOfATestSentence) {
  train();
  const ccg::FactoredLexicon& model = *view_.model();
  const int texas = model.findLexeme({{"texas"}, {"texas:s"}});
  ASSERT_GE(texas, 0);
  view_.selectLexeme(texas);
  int expected = 0;
  for (const ccg::LexicalEntry& e : model.entriesFor("texas")) expected += e.lexeme == texas;
  ASSERT_GT(expected, 0);
  ASSERT_EQ(view_.lexemeTemplateTable()->rowCount(), expected);
  for (int r = 0; r < expected; ++r) {
    const QString templateText = view_.lexemeTemplateTable()->item(r, 0)->text();
    const int t = [&] {
      for (int i = 0; i < static_cast<int>(model.templates().size()); ++i) {
        if (QString::fromStdString(ccg::templateKey(model.templates()[i])) == templateText)
          return i;
      }
      return -1;
    }();
    ASSERT_GE(t, 0);
    EXPECT_EQ(
        view_.lexemeTemplateTable()->item(r, 2)->text(),
        QString::number(
            model.weight(ccg::pairFeature(model.lexemes()[texas], model.templates()[t])), 'f', 3));
  }
  // The entries of each test sentence: core's sentenceEntries, those of the best parse marked.
  for (int i = 0; i < static_cast<int>(view_.testExamples().size()); ++i) {
    view_.selectTestSentence(i);
    ASSERT_TRUE(view_.waitForSentenceParse());
    const ccg::SemanticExample& example = view_.testExamples()[i];
    const std::vector<ccg::SpanEntry> spans = ccg::sentenceEntries(model, example.words);
    QTableWidget* shown = view_.sentenceEntryTable();
    ASSERT_EQ(shown->rowCount(), static_cast<int>(spans.size()));
    ccg::CkyChart chart(model, example.words, view_.parserOptions());
    std::set<std::tuple<int, int, int, int>> leaves;
    std::function<void(const ccg::DerivationNode&)> collect = [&](const ccg::DerivationNode& n) {
      if (n.children.empty()) leaves.emplace(n.begin, n.end, n.lexeme, n.lexicalTemplate);
      for (const ccg::DerivationNode& child : n.children) collect(child);
    };
    const std::vector<ccg::Derivation> best = chart.kBest(1);
    if (!best.empty()) collect(best.front().root);
    int marked = 0;
    for (int r = 0; r < shown->rowCount(); ++r) {
      const ccg::SpanEntry& s = spans[r];
      const bool inBest =
          leaves.count({s.begin, s.end, s.entry->lexeme, s.entry->lexicalTemplate}) > 0;
      EXPECT_EQ(shown->item(r, 2)->text(), inBest ? QStringLiteral("\u2713") : QString());
      EXPECT_EQ(shown->item(r, 0)->text(), QStringLiteral("%1\u2013%2").arg(s.begin).arg(s.end));
      marked += inBest ? 1 : 0;
    }
    // A parsed sentence marks its lexical steps; the unseen state has none to mark.
    EXPECT_EQ(marked > 0, !best.empty()) << i;
  }
}

TEST_F(FublViewTest, EvaluationRowsAreCoresEvaluation) {
  train();
  ASSERT_TRUE(view_.hasEvaluation());
  const std::unique_ptr<CoreRun> core = coreRun(5);
  ccg::CkyOptions parser;
  parser.types = &core->types;
  ccg::EvaluationOptions diagnosing;
  diagnosing.diagnoseErrors = true;
  const ccg::EvaluationResult expected =
      ccg::evaluateSemanticParser(core->learner->lexicon(), parser, core->test, diagnosing);
  QTableWidget* table = view_.evaluationTable();
  ASSERT_EQ(table->rowCount(), static_cast<int>(core->test.size()));
  int wrong = 0;
  for (int r = 0; r < table->rowCount(); ++r) {
    const ccg::SentenceResult& result = expected.sentences[r];
    EXPECT_EQ(table->item(r, 1)->text(),
              result.correct ? QStringLiteral("\u2713") : QStringLiteral("\u2717"));
    EXPECT_EQ(table->item(r, 4)->text(), result.answer
                                             ? QString::fromStdString(ccg::toString(result.answer))
                                             : QStringLiteral("(no parse)"));
    EXPECT_EQ(table->item(r, 5)->text(),
              QString::fromStdString(ccg::toString(core->test[r].logicalForm)));
    // Why: the diagnosis's kind in the cell, core's whole description as its tooltip.
    EXPECT_EQ(table->item(r, 3)->text().isEmpty(), result.correct) << r;
    if (!result.correct) {
      EXPECT_TRUE(table->item(r, 3)->text().startsWith(
          QString::fromStdString(ccg::toString(result.diagnosis.kind))));
      EXPECT_EQ(table->item(r, 3)->toolTip(),
                QString::fromStdString(ccg::describe(result.diagnosis)));
    }
    wrong += result.correct ? 0 : 1;
  }
  // The held-out combinations are right, the unseen state is not.
  EXPECT_EQ(expected.plain.correct, 3);
  EXPECT_EQ(wrong, 1);
  EXPECT_EQ(view_.evaluation().plain.correct, expected.plain.correct);
  EXPECT_TRUE(view_.scoresText().contains(
      QStringLiteral("F1 %1").arg(100 * expected.plain.f1(), 0, 'f', 1)))
      << view_.scoresText().toStdString();
  view_.setShowOnlyWrong(true);
  ASSERT_EQ(table->rowCount(), wrong);
  EXPECT_EQ(table->item(0, 2)->text(), QStringLiteral("the capital of kansas"));
  // Kansas is no lexeme's: gold cannot be derived, and the row says so.
  EXPECT_EQ(table->item(0, 3)->text(), QStringLiteral("not derivable \u2014 unseen: kansas"));
  EXPECT_TRUE(
      table->item(0, 3)->toolTip().startsWith(QStringLiteral("not derivable; words no "
                                                             "lexeme holds: kansas")))
      << table->item(0, 3)->toolTip().toStdString();
  EXPECT_EQ(view_.testIndexOfEvaluationRow(0), static_cast<int>(core->test.size()) - 1);
}

// Cancel from the worker after the third example of pass 2: the run stops there, one pass is
// reported, and the model kept, shown and saved is the first pass's — core's after one pass.
TEST_F(FublViewTest, CancelStopsAtAChosenExampleAndKeepsTheLastFinishedPass) {
  settings_.passes = 4;
  std::vector<std::pair<int, int>> seen;
  view_.job().setExampleHookForTesting([this, &seen](const ccg::FublProgress& progress) {
    seen.emplace_back(progress.pass, progress.example);
    if (progress.pass == 2 && progress.example == 3) view_.job().cancel();
  });
  view_.setSettings(settings_);
  ASSERT_TRUE(view_.startTraining());
  ASSERT_TRUE(view_.waitForTraining());
  EXPECT_TRUE(view_.job().wasCancelled());
  EXPECT_TRUE(view_.job().errorText().isEmpty()) << view_.job().errorText().toStdString();
  const std::unique_ptr<CoreRun> core = coreRun(1, false);
  ASSERT_EQ(seen.size(), core->train.size() + 3);
  EXPECT_EQ(seen.back(), std::make_pair(2, 3));
  EXPECT_EQ(view_.trainingPlot()->accuracyPoints().size(), 1);
  EXPECT_EQ(view_.passTable()->rowCount(), 1);
  expectShownAndSaved(*core->learner);
  EXPECT_FALSE(view_.hasEvaluation());
  EXPECT_TRUE(view_.progressBar()->bar()->format().contains(QStringLiteral("cancelled")))
      << view_.progressBar()->bar()->format().toStdString();
  // Sentences are listed, unmarked, and can still be opened.
  EXPECT_EQ(view_.evaluationTable()->rowCount(), static_cast<int>(core->test.size()));
  EXPECT_EQ(view_.evaluationTable()->item(0, 1)->text(), QString());
}

// Cancel from the worker during the final pruning (the hook's second visit of pass 2, example 3:
// the pruning re-parses report the last pass's number): every pass is finished and reported,
// nothing is pruned, and the model kept, shown and saved is the last pass's unpruned lexicon.
// Uncancelled, the pruning's progress reaches the view (the status line names it).
TEST_F(FublViewTest, CancelDuringTheFinalPruningKeepsTheLastPassUnpruned) {
  settings_.passes = 2;
  int visits = 0;
  view_.job().setExampleHookForTesting([this, &visits](const ccg::FublProgress& progress) {
    if (progress.pass == 2 && progress.example == 3 && ++visits == 2) view_.job().cancel();
  });
  view_.setSettings(settings_);
  ASSERT_TRUE(view_.startTraining());
  ASSERT_TRUE(view_.waitForTraining());
  EXPECT_EQ(visits, 2);
  EXPECT_TRUE(view_.job().wasCancelled());
  EXPECT_EQ(view_.passTable()->rowCount(), 2);
  const std::unique_ptr<CoreRun> unpruned = coreRun(2, false);
  expectShownAndSaved(*unpruned->learner);
  EXPECT_FALSE(view_.hasEvaluation());

  FublView other;
  QStringList statuses;
  int reports = 0;
  QObject::connect(&other.job(), &FublTrainingJob::pruningProgress, &other,
                   [&](int example, int examples) {
                     ++reports;
                     EXPECT_LE(example, examples);
                     statuses << other.statusText();
                   });
  settings_.modelPath = path("other.model");
  other.setSettings(settings_);
  ASSERT_TRUE(other.startTraining());
  ASSERT_TRUE(other.waitForTraining());
  EXPECT_FALSE(other.job().wasCancelled());
  ASSERT_GT(reports, 0);
  EXPECT_TRUE(statuses.last().contains(QStringLiteral("best correct parses")))
      << statuses.last().toStdString();
  EXPECT_TRUE(statuses.last().contains(QStringLiteral("at least 0.1 times in expectation")))
      << statuses.last().toStdString();
  const std::unique_ptr<CoreRun> pruned = coreRun(2);
  ASSERT_NE(other.model(), nullptr);
  EXPECT_EQ(ccg::writeFactoredLexicon(*other.model()),
            ccg::writeFactoredLexicon(pruned->learner->lexicon()));
}

TEST_F(FublViewTest, UnreadableTrainingFileIsReportedNotCrashed) {
  settings_.trainingPath = path("missing.ccg");
  view_.setSettings(settings_);
  ASSERT_TRUE(view_.startTraining());
  ASSERT_TRUE(view_.waitForTraining());
  EXPECT_EQ(view_.model(), nullptr);
  EXPECT_TRUE(view_.statusText().startsWith(QStringLiteral("Training failed")))
      << view_.statusText().toStdString();
}

// A saved model opens in the lexicon browser of another view without training: the same
// lexicon and weights, typed with the training file's types, the test sentences listed, not
// evaluated. A bad model gives the reader's file:line error and the view keeps its model; a
// missing one names the file.
TEST_F(FublViewTest, OpenModelShowsASavedModelWithoutTraining) {
  train();
  FublView other;
  other.resize(1300, 850);
  other.setSettings(settings_);
  QString error;
  ASSERT_TRUE(other.openModelFile(settings_.modelPath, &error)) << error.toStdString();
  EXPECT_TRUE(error.isEmpty());
  ASSERT_NE(other.model(), nullptr);
  EXPECT_EQ(ccg::writeFactoredLexicon(*other.model()), ccg::writeFactoredLexicon(*view_.model()));
  EXPECT_EQ(other.model()->entryCount(), view_.model()->entryCount()) << "typed as in training";
  EXPECT_EQ(other.lexiconModel()->rowCount(), view_.lexiconModel()->rowCount());
  EXPECT_EQ(other.shownModelPath(), settings_.modelPath);
  EXPECT_FALSE(other.hasEvaluation());
  EXPECT_EQ(other.testExamples().size(), view_.testExamples().size());
  EXPECT_EQ(other.pages()->currentIndex(), 1) << "the lexicon page";
  EXPECT_TRUE(other.statusText().contains(QStringLiteral("type-checked with train.types")))
      << other.statusText().toStdString();
  EXPECT_EQ(other.lexiconStatusLabel()->text(), other.statusText());

  // A model whose lexeme line does not read: the reader's file:line, the model kept.
  QString text = QString::fromStdString(ccg::writeCcgModel(*view_.model(), view_.parserOptions()));
  QStringList lines = text.split(QLatin1Char('\n'));
  int broken = -1;
  for (int i = 0; i < lines.size() && broken < 0; ++i) {
    if (lines[i].startsWith(QLatin1String("lexeme "))) {
      lines[i] = QStringLiteral("lexeme ((( :- nonsense");
      broken = i + 1;
    }
  }
  ASSERT_GT(broken, 0);
  writeFile(path("bad.ccgmodel"), lines.join(QLatin1Char('\n')).toStdString());
  const auto shown = other.model();
  EXPECT_FALSE(other.openModelFile(path("bad.ccgmodel"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("bad.ccgmodel:%1").arg(broken))) << error.toStdString();
  EXPECT_EQ(other.statusText(), error);
  EXPECT_EQ(other.model(), shown);
  EXPECT_EQ(other.shownModelPath(), settings_.modelPath);

  EXPECT_FALSE(other.openModelFile(path("gone.ccgmodel"), &error));
  EXPECT_TRUE(error.contains(QDir::toNativeSeparators(path("gone.ccgmodel"))))
      << error.toStdString();
  EXPECT_EQ(other.model(), shown);
}

// Weights that round to zero show as 0.000, never -0.000, in the lexicon table and the
// lexeme's templates; the value itself (sorting, tooltip) keeps its sign.
TEST_F(FublViewTest, WeightsThatRoundToZeroShowNoSign) {
  struct Case {
    double value;
    const char* shown;
  };
  for (const Case& c :
       {Case{-1e-12, "0.000"}, Case{-0.0004, "0.000"}, Case{-0.0, "0.000"}, Case{0.0004, "0.000"},
        Case{-0.25, "-0.250"}, Case{1.5, "1.500"}, Case{-12.0001, "-12.000"}}) {
    EXPECT_EQ(formatWeight(c.value).toStdString(), c.shown) << c.value;
  }
  train();
  auto model = std::make_shared<ccg::FactoredLexicon>(*view_.model());
  const ccg::Lexeme& lexeme = model->lexemes().front();
  model->setWeight(ccg::lexemeFeature(lexeme), -1e-9);
  std::string error;
  ASSERT_TRUE(
      ccg::saveCcgModel(*model, view_.parserOptions(), path("tiny.ccgmodel").toStdString(), &error))
      << error;
  ASSERT_TRUE(view_.openModelFile(path("tiny.ccgmodel")));
  const FublLexiconModel* table = view_.lexiconModel();
  int row = -1;
  for (int r = 0; r < table->rowCount() && row < 0; ++r)
    if (table->lexemeAt(r) == 0) row = r;
  ASSERT_GE(row, 0);
  const QModelIndex cell = table->index(row, FublLexiconModel::LexemeWeightColumn);
  EXPECT_LT(table->lexemeWeight(row), 0.0);
  EXPECT_EQ(table->data(cell).toString(), QStringLiteral("0.000"));
  EXPECT_LT(table->data(cell, FublLexiconModel::kSortRole).toDouble(), 0.0);
  view_.selectLexeme(0);
  EXPECT_FALSE(view_.lexemeTemplateTable()->rowCount() == 0);
  for (int r = 0; r < view_.lexemeTemplateTable()->rowCount(); ++r)
    for (int c = 1; c < view_.lexemeTemplateTable()->columnCount(); ++c)
      EXPECT_NE(view_.lexemeTemplateTable()->item(r, c)->text(), QStringLiteral("-0.000"));
}

// What a workspace keeps of the tab comes back in another view: the form, the page, the filter
// and the saved model in the browser. Files that are gone are named after "Workspace:" and the
// rest opens.
TEST_F(FublViewTest, WorkspaceStateComesBackAndMissingFilesAreNamed) {
  train();
  view_.pages()->setCurrentIndex(1);
  view_.setFilter(QStringLiteral("texas"), FublLexiconFilter::Mode::Word);
  const QJsonObject state = view_.state();
  EXPECT_EQ(state.value(QStringLiteral("shownModel")).toString(), settings_.modelPath);
  {
    FublView other;
    other.restoreState(state);
    const FublTrainingSettings s = other.settings();
    EXPECT_EQ(s.trainingPath, settings_.trainingPath);
    EXPECT_EQ(s.testPath, settings_.testPath);
    EXPECT_EQ(s.fixedLexiconPath, settings_.fixedLexiconPath);
    EXPECT_EQ(s.modelPath, settings_.modelPath);
    EXPECT_EQ(s.passes, settings_.passes);
    ASSERT_NE(other.model(), nullptr) << other.statusText().toStdString();
    EXPECT_EQ(ccg::writeFactoredLexicon(*other.model()), ccg::writeFactoredLexicon(*view_.model()));
    EXPECT_EQ(other.pages()->currentIndex(), 1);
    EXPECT_EQ(other.lexiconFilter()->filterText(), QStringLiteral("texas"));
    EXPECT_EQ(other.lexiconFilter()->mode(), FublLexiconFilter::Mode::Word);
    EXPECT_EQ(other.lexiconFilter()->rowCount(), view_.lexiconFilter()->rowCount());
    EXPECT_FALSE(other.statusText().contains(QStringLiteral("Workspace")))
        << other.statusText().toStdString();
    EXPECT_EQ(other.state(), state);
  }
  // The test file and the model are gone: both named; the form and the rest still open.
  ASSERT_TRUE(QFile::remove(settings_.testPath));
  ASSERT_TRUE(QFile::remove(settings_.modelPath));
  FublView other;
  other.restoreState(state);
  EXPECT_EQ(other.settings().trainingPath, settings_.trainingPath);
  EXPECT_EQ(other.settings().testPath, settings_.testPath);
  EXPECT_EQ(other.model(), nullptr);
  EXPECT_EQ(other.pages()->currentIndex(), 0) << "no model to browse";
  EXPECT_EQ(other.lexiconFilter()->filterText(), QStringLiteral("texas"));
  const QString status = other.statusText();
  EXPECT_TRUE(status.contains(QStringLiteral("Workspace: the test file %1 is missing")
                                  .arg(QDir::toNativeSeparators(settings_.testPath))))
      << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("the model file %1 is missing")
                                  .arg(QDir::toNativeSeparators(settings_.modelPath))))
      << status.toStdString();
  EXPECT_FALSE(status.contains(QStringLiteral("the training file"))) << status.toStdString();
  // The form still trains (the test file gone: evaluated on the training pairs).
  other.setSettings([&] {
    FublTrainingSettings s = other.settings();
    s.testPath.clear();
    s.passes = 1;
    return s;
  }());
  ASSERT_TRUE(other.startTraining());
  ASSERT_TRUE(other.waitForTraining());
  EXPECT_NE(other.model(), nullptr) << other.statusText().toStdString();
}

// The main window saves a FUBL tab in a workspace file (kind "fubl", its files relative to the
// workspace) and opens it again with the model in the browser.
TEST(FublMainWindowTest, AWorkspaceReopensTheLearnerTabWithItsModel) {
  QTemporaryDir scratch;
  ASSERT_TRUE(scratch.isValid());
  QSettings store(scratch.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings settings(store);
  const std::string sample = gwb::testing::sourceDir() + "/samples/ccg/geography";
  ASSERT_TRUE(QDir(scratch.path()).mkpath(QStringLiteral("data")));
  for (const char* suffix : {".ccg", ".types", ".lang"}) {
    ASSERT_TRUE(QFile::copy(QString::fromStdString(sample + suffix),
                            scratch.filePath(QStringLiteral("data/geo") + QLatin1String(suffix))));
  }
  FublTrainingSettings training;
  training.trainingPath = scratch.filePath(QStringLiteral("data/geo.ccg"));
  training.modelPath = scratch.filePath(QStringLiteral("data/geo.ccgmodel"));
  training.passes = 2;
  const QString file = scratch.filePath(QStringLiteral("course.gwb-workspace"));
  std::string lexicon;
  {
    MainWindow window(settings);
    FublView* fubl = window.openFublView(&training);
    ASSERT_TRUE(fubl->startTraining());
    ASSERT_TRUE(fubl->waitForTraining());
    ASSERT_NE(fubl->model(), nullptr) << fubl->statusText().toStdString();
    lexicon = ccg::writeFactoredLexicon(*fubl->model());
    const Workspace captured = window.captureWorkspace();
    ASSERT_EQ(captured.documents.size(), 1U);
    EXPECT_EQ(captured.documents[0].kind, WorkspaceDocument::Kind::Fubl);
    EXPECT_EQ(captured.documents[0].path, training.trainingPath);
    QString error;
    ASSERT_TRUE(captured.save(file, &error)) << error.toStdString();
  }
  QFile saved(file);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  const QByteArray text = saved.readAll();
  EXPECT_TRUE(text.contains("\"kind\": \"fubl\"")) << text.toStdString();
  EXPECT_TRUE(text.contains("\"shownModel\": \"data/geo.ccgmodel\"")) << text.toStdString();
  EXPECT_FALSE(text.contains(scratch.path().toUtf8())) << "paths relative to the workspace";

  MainWindow window(settings);
  QString error;
  const std::optional<Workspace> workspace = Workspace::load(file, &error);
  ASSERT_TRUE(workspace) << error.toStdString();
  ASSERT_TRUE(window.applyWorkspace(*workspace, &error)) << error.toStdString();
  auto* fubl = qobject_cast<FublView*>(window.documentTabs()->currentWidget());
  ASSERT_NE(fubl, nullptr);
  EXPECT_EQ(fubl->settings().trainingPath, training.trainingPath);
  EXPECT_EQ(fubl->settings().passes, 2);
  ASSERT_NE(fubl->model(), nullptr) << fubl->statusText().toStdString();
  EXPECT_EQ(ccg::writeFactoredLexicon(*fubl->model()), lexicon);
}

TEST(FublMainWindowTest, ATestSentenceOpensInTheCcgTabWithTheLearnedModel) {
  QTemporaryDir scratch;
  ASSERT_TRUE(scratch.isValid());
  QSettings store(scratch.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings settings(store);
  MainWindow window(settings);
  // The sample pairs: geography.types/.lang beside them type-check the run.
  FublTrainingSettings training;
  training.trainingPath = QString::fromStdString(gwb::testing::sourceDir()) +
                          QStringLiteral("/samples/ccg/geography.ccg");
  training.modelPath = scratch.filePath(QStringLiteral("geo.ccgmodel"));
  training.passes = 2;
  FublView* fubl = window.openFublView(&training);
  ASSERT_NE(fubl, nullptr);
  EXPECT_EQ(window.documentTabs()->currentWidget(), fubl);
  ASSERT_TRUE(fubl->startTraining());
  ASSERT_TRUE(fubl->waitForTraining());
  ASSERT_TRUE(fubl->hasEvaluation()) << fubl->statusText().toStdString();
  EXPECT_EQ(window.ccgViewOfLearner(fubl), nullptr);
  const int index = 1;
  ASSERT_TRUE(fubl->openTestSentence(index));
  CcgView* ccg = window.ccgViewOfLearner(fubl);
  ASSERT_NE(ccg, nullptr);
  EXPECT_EQ(window.documentTabs()->currentWidget(), ccg);
  ASSERT_TRUE(ccg->waitForParse());
  QStringList words;
  for (const std::string& w : fubl->testExamples()[index].words) words << QString::fromStdString(w);
  EXPECT_EQ(ccg->sentence(), words.join(QLatin1Char(' ')));
  EXPECT_EQ(ccg->lexicon(), fubl->model().get());
  ASSERT_NE(ccg->chart(), nullptr) << ccg->statusText().toStdString();
  // The tab's best parse is the evaluation's answer, marked against the gold form.
  const ccg::SentenceResult& result = fubl->evaluation().sentences[index];
  ASSERT_FALSE(ccg->derivations().empty());
  EXPECT_EQ(ccg::toString(ccg->derivations().front().logicalForm), ccg::toString(result.answer));
  EXPECT_EQ(ccg->derivationTable()->item(0, 4)->text(),
            result.correct ? QStringLiteral("\u2713") : QStringLiteral("\u2717"));
  // A second request reuses the learner's CCG tab.
  const int tabs = window.documentTabs()->count();
  ASSERT_TRUE(fubl->openTestSentence(0));
  EXPECT_EQ(window.documentTabs()->count(), tabs);
  EXPECT_EQ(window.ccgViewOfLearner(fubl), ccg);
  ASSERT_TRUE(ccg->waitForParse());
}

}  // namespace
}  // namespace gwb::ui
