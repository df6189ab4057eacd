// The research windows in workspaces and at quit: each window's state survives a trip through a
// workspace file into a fresh main window (induction runs come back with their curves without
// training again; discourse rows are read and decoded again; transitions and experiment results
// as they were), a restore that can only partly succeed says what it could not, and quitting
// while an induction run is going asks first (through the test hook, not a message box).
#include <fstream>

#include <QApplication>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "gwb/earley/grammar_io.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/social_grammar.h"
#include "shared_data.h"
#include "ui/common/qcustomplot_include.h"
#include "ui/earley/free_energy_plot.h"
#include "ui/earley/induction_panel.h"
#include "ui/earley/induction_runs.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"
#include "ui/frame/workspace.h"
#include "ui/grounded/corpus_files_dialog.h"
#include "ui/grounded/discourse_view.h"
#include "ui/grounded/experiment_panel.h"
#include "ui/grounded/experiment_table.h"
#include "ui/grounded/segmentation_table.h"
#include "ui/grounded/transition_view.h"

namespace gwb::ui {
namespace {

constexpr int kTimeoutMs = 600000;  // only "it did not hang": no test races the clock

QString sample(const char* name) {
  return QString::fromStdString(gwb::testing::sourceDir() + "/samples/" + name);
}
QString grounded(const char* name) {
  return QString::fromStdString(gwb::testing::sourceDir() + "/tests/data/grounded/" + name);
}

InductionSettings ppSettings(const QString& label, gwb::InductionMethod method) {
  InductionSettings s;
  s.label = label;
  s.grammarPath = sample("pp-attachment.cfg");
  s.corpusPath = sample("pp-attachment.txt");
  s.method = method;
  s.iterations = 3;
  s.tolerance = 0.0;
  return s;
}

// A discourse grammar of the tiny grounded corpus, written to `path`.
void writeTinyDiscourseGrammar(const QString& path) {
  gwb::SocialCorpusLoad corpus = gwb::loadSocialCorpusFile(grounded("tiny.yld").toStdString());
  ASSERT_TRUE(corpus.ok());
  gwb::SocialGrammarOptions options;
  options.kind = gwb::SocialGrammarKind::Discourse;
  options.cues = corpus.corpus.cueOrder;
  const gwb::SocialGrammarBuild build = gwb::generateSocialGrammar(corpus.corpus, options);
  ASSERT_TRUE(build.ok());
  ASSERT_TRUE(gwb::saveGrammarFile(build.grammar, path.toStdString(), gwb::GrammarFormat::Earleyx));
}

class ResearchWorkspaceTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.isValid()); }
  QString path(const QString& name) const { return dir_.filePath(name); }
  // A fresh main window's view of the file (settings of its own, so no session is shared).
  std::unique_ptr<MainWindow> reopen(const QString& workspaceFile, const QString& tag) {
    stores_.push_back(
        std::make_unique<QSettings>(path(tag + QStringLiteral(".ini")), QSettings::IniFormat));
    settings_.push_back(std::make_unique<AppSettings>(*stores_.back()));
    auto window = std::make_unique<MainWindow>(*settings_.back());
    QString error;
    EXPECT_TRUE(window->loadWorkspace(workspaceFile, &error)) << error.toStdString();
    return window;
  }
  std::unique_ptr<MainWindow> makeWindow(const QString& tag) {
    stores_.push_back(
        std::make_unique<QSettings>(path(tag + QStringLiteral(".ini")), QSettings::IniFormat));
    settings_.push_back(std::make_unique<AppSettings>(*stores_.back()));
    return std::make_unique<MainWindow>(*settings_.back());
  }

  QTemporaryDir dir_;
  std::vector<std::unique_ptr<QSettings>> stores_;
  std::vector<std::unique_ptr<AppSettings>> settings_;
};

TEST(WorkspaceResearchKinds, RoundTripThroughJsonWithoutPaths) {
  Workspace workspace;
  const std::pair<WorkspaceDocument::Kind, const char*> kinds[] = {
      {WorkspaceDocument::Kind::Induction, "induction"},
      {WorkspaceDocument::Kind::Discourse, "discourse"},
      {WorkspaceDocument::Kind::Transitions, "transitions"},
      {WorkspaceDocument::Kind::Experiments, "experiments"}};
  for (const auto& [kind, name] : kinds) {
    WorkspaceDocument d;
    d.kind = kind;
    d.view = QJsonObject{{QStringLiteral("marker"), QString::fromLatin1(name)}};
    workspace.documents.push_back(d);
  }
  const QJsonObject json = workspace.toJson();
  const QJsonArray documents = json.value(QStringLiteral("documents")).toArray();
  ASSERT_EQ(documents.size(), 4);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(documents[i].toObject().value(QStringLiteral("kind")).toString(),
              QString::fromLatin1(kinds[i].second));
  QString error;
  const std::optional<Workspace> back = Workspace::fromJson(json, QString(), &error);
  ASSERT_TRUE(back) << error.toStdString();
  EXPECT_EQ(*back, workspace);
}

// Induction: runs come back with their settings, status and records, and their curves are
// plotted at once, with no run started; a saved learned grammar is read back from its file.
TEST_F(ResearchWorkspaceTest, InductionRunsRoundTripWithTheirCurves) {
  auto window = makeWindow(QStringLiteral("first"));
  InductionPanel* panel = window->showInductionPanel();
  QString error;
  const int vb = panel->startRun(ppSettings(QStringLiteral("pp vb, a long name that the run list "
                                                           "elides in the middle"),
                                            gwb::InductionMethod::Vb),
                                 &error);
  ASSERT_GT(vb, 0) << error.toStdString();
  const int em = panel->startRun(ppSettings(QStringLiteral("pp em"), gwb::InductionMethod::Em));
  ASSERT_GT(em, 0);
  ASSERT_TRUE(panel->waitUntilIdle(kTimeoutMs));
  const QString learned = path(QStringLiteral("learned.iogrammar"));
  ASSERT_TRUE(panel->saveGrammar(vb, learned, &error)) << error.toStdString();
  EXPECT_EQ(panel->runModel()->run(vb)->grammarFile, learned);  // kept by the workspace
  panel->runModel()->setData(panel->runModel()->index(panel->runModel()->rowOf(em), 0),
                             Qt::Unchecked, Qt::CheckStateRole);
  panel->selectRun(em);
  const QJsonObject before = panel->state();

  const QString file = path(QStringLiteral("induction.gwb-workspace"));
  ASSERT_TRUE(window->saveWorkspace(file, &error)) << error.toStdString();
  auto restored = reopen(file, QStringLiteral("second"));
  InductionPanel* again = restored->findChild<InductionPanel*>();
  ASSERT_NE(again, nullptr);
  EXPECT_FALSE(again->isBusy());  // nothing trains again
  EXPECT_EQ(again->state(), before);
  ASSERT_EQ(again->runModel()->rowCount(), 2);
  for (int row = 0; row < 2; ++row) {
    const InductionRun& original = panel->runModel()->runAt(row);
    const InductionRun& copy = again->runModel()->runAt(row);
    EXPECT_EQ(copy.name(), original.name());
    EXPECT_EQ(copy.status, InductionRun::Status::Finished);
    EXPECT_EQ(copy.visible, original.visible);
    ASSERT_EQ(copy.records.size(), original.records.size());
    ASSERT_FALSE(copy.records.empty());
    // The curves, point for point (EM's free energies are NaN and stay so).
    EXPECT_EQ(again->plot()->negLogLikelihoodPoints(copy.id),
              panel->plot()->negLogLikelihoodPoints(original.id));
    for (std::size_t i = 0; i < copy.records.size(); ++i) {
      EXPECT_EQ(copy.records[i].negLogLikelihood, original.records[i].negLogLikelihood);
      EXPECT_EQ(std::isnan(copy.records[i].freeEnergy), std::isnan(original.records[i].freeEnergy));
    }
  }
  EXPECT_EQ(again->plot()->freeEnergyPoints(again->runModel()->runAt(0).id),
            panel->plot()->freeEnergyPoints(vb));
  EXPECT_EQ(again->plot()->legendNames(), panel->plot()->legendNames());  // EM hidden in both
  EXPECT_EQ(again->selectedRunId(), again->runModel()->runAt(1).id);
  // The saved grammar is back; the unsaved one is named in the notice.
  ASSERT_NE(again->runModel()->runAt(0).grammar, nullptr);
  EXPECT_EQ(again->runModel()->runAt(0).grammar->ruleCount(),
            panel->runModel()->runAt(0).grammar->ruleCount());
  EXPECT_EQ(again->runModel()->runAt(1).grammar, nullptr);
  EXPECT_TRUE(again->restoreNotice().contains(QStringLiteral("pp em")))
      << again->restoreNotice().toStdString();
  EXPECT_TRUE(again->statusLabel()->text().contains(QStringLiteral("Re-run")));

  // Re-run trains the unsaved one again, with its settings.
  const int rerun = again->rerun(again->runModel()->runAt(1).id, &error);
  ASSERT_GT(rerun, 0) << error.toStdString();
  ASSERT_TRUE(again->waitUntilIdle(kTimeoutMs));
  EXPECT_EQ(again->runModel()->run(rerun)->records.size(),
            panel->runModel()->runAt(1).records.size());
  EXPECT_NE(again->runModel()->run(rerun)->grammar, nullptr);

  // The learned grammar's file is gone: the run keeps its curves, the notice names the file.
  ASSERT_TRUE(QFile::remove(learned));
  auto third = reopen(file, QStringLiteral("third"));
  InductionPanel* partial = third->findChild<InductionPanel*>();
  ASSERT_NE(partial, nullptr);
  EXPECT_EQ(partial->runModel()->runAt(0).records.size(),
            panel->runModel()->runAt(0).records.size());
  EXPECT_EQ(partial->runModel()->runAt(0).grammar, nullptr);
  EXPECT_TRUE(partial->restoreNotice().contains(QStringLiteral("learned.iogrammar")))
      << partial->restoreNotice().toStdString();
}

// Discourse, transitions and experiments: the restored windows report the states saved.
TEST_F(ResearchWorkspaceTest, DiscourseTransitionsAndExperimentsRoundTrip) {
  const QString grammar = path(QStringLiteral("tiny-discourse.grammar"));
  writeTinyDiscourseGrammar(grammar);
  const QString annotations = path(QStringLiteral("tiny-annotations.txt"));
  {
    std::ofstream out(annotations.toStdString());
    out << "# annotators: ann1 ann2\ndog dog\npig dog\nnone ?\n";
  }
  auto window = makeWindow(QStringLiteral("first"));
  DiscourseView* discourse = window->showDiscourseView();
  QString error;
  ASSERT_TRUE(discourse->loadCorpus(grounded("tiny.yld"), grounded("tiny.gold.yld"),
                                    grounded("tiny.recordings.tsv"), &error))
      << error.toStdString();
  ASSERT_TRUE(discourse->addAnnotationFile(annotations, &error)) << error.toStdString();
  ASSERT_TRUE(discourse->decodeGrammar(grammar));
  ASSERT_TRUE(discourse->waitForDecoding(kTimeoutMs));
  discourse->removeRow(1);  // annotator ann1: only ann2's row is kept
  discourse->setRecording(1);
  discourse->setWindow(2);
  discourse->setConvention(SegmentationMetricsModel::Convention::Error);
  ASSERT_EQ(discourse->data().rows().size(), 3u);  // gold, ann2, the model

  TransitionView* transitions = window->showTransitionView();
  ASSERT_TRUE(transitions->loadGrammarFile(grammar, &error)) << error.toStdString();
  transitions->setValues(TransitionValues::RescaledRows);
  transitions->setOrder(TopicOrder::Frequency);
  ASSERT_TRUE(transitions->setCorpus(grounded("tiny.yld"), grounded("tiny.recordings.tsv")));
  ASSERT_TRUE(transitions->waitForCounts(kTimeoutMs));

  ExperimentPanel* experiments = window->showExperimentPanel();
  ExperimentSpec spec;
  spec.model = gwb::SocialModel::Vb;
  spec.iterations = 2;
  spec.seeds = {1, 2};
  spec.corpusPath = grounded("tiny.yld");
  spec.goldPath = grounded("tiny.gold.yld");
  spec.recordingsPath = grounded("tiny.recordings.tsv");
  ASSERT_TRUE(experiments->startRun(spec, &error)) << error.toStdString();
  ASSERT_TRUE(experiments->waitUntilIdle(kTimeoutMs));
  ASSERT_EQ(experiments->table()->rowCount(), 2);  // ours and the paper's

  const Workspace captured = window->captureWorkspace();
  const QString file = path(QStringLiteral("research.gwb-workspace"));
  ASSERT_TRUE(captured.save(file, &error)) << error.toStdString();
  auto restored = reopen(file, QStringLiteral("second"));

  DiscourseView* discourseAgain = restored->findChild<DiscourseView*>();
  ASSERT_NE(discourseAgain, nullptr);
  // Saved again while its model row is still decoding, it keeps that row.
  EXPECT_EQ(discourseAgain->state(), discourse->state());
  ASSERT_TRUE(discourseAgain->waitForDecoding(kTimeoutMs));
  EXPECT_FALSE(discourseAgain->isRestoring());
  EXPECT_EQ(discourseAgain->state(), discourse->state());
  ASSERT_EQ(discourseAgain->data().rows().size(), 3u);
  EXPECT_EQ(discourseAgain->data().rows()[1].name, discourse->data().rows()[1].name);
  EXPECT_EQ(discourseAgain->data().rows()[2].labels, discourse->data().rows()[2].labels);
  EXPECT_EQ(discourseAgain->recording(), 1);
  EXPECT_EQ(discourseAgain->convention(), SegmentationMetricsModel::Convention::Error);
  EXPECT_TRUE(discourseAgain->restoreNotice().isEmpty())
      << discourseAgain->restoreNotice().toStdString();

  TransitionView* transitionsAgain = restored->findChild<TransitionView*>();
  ASSERT_NE(transitionsAgain, nullptr);
  ASSERT_TRUE(transitionsAgain->waitForCounts(kTimeoutMs));
  EXPECT_EQ(transitionsAgain->state(), transitions->state());
  EXPECT_EQ(transitionsAgain->csvText(), transitions->csvText());
  EXPECT_TRUE(transitionsAgain->hasCounts());

  ExperimentPanel* experimentsAgain = restored->findChild<ExperimentPanel*>();
  ASSERT_NE(experimentsAgain, nullptr);
  EXPECT_FALSE(experimentsAgain->isBusy());
  EXPECT_EQ(experimentsAgain->state(), experiments->state());
  EXPECT_EQ(experimentsAgain->table()->csv(), experiments->table()->csv());

  // The windows' own geometry travels with them.
  for (const WorkspaceDocument& d : captured.documents) {
    if (WorkspaceDocument::isResearchWindow(d.kind)) {
      EXPECT_TRUE(d.view.contains(QStringLiteral("geometry")));
    }
  }
}

// A restore that can only partly succeed keeps what it can and says what it could not.
TEST_F(ResearchWorkspaceTest, PartialRestoresExplainThemselves) {
  const QString grammar = path(QStringLiteral("tiny-discourse.grammar"));
  writeTinyDiscourseGrammar(grammar);
  const QString gone = path(QStringLiteral("gone.grammar"));
  const QString goneAnnotations = path(QStringLiteral("gone-annotations.txt"));

  TransitionView transitions;
  transitions.restoreState(QJsonObject{{QStringLiteral("grammar"), grammar},
                                       {QStringLiteral("comparison"), gone},
                                       {QStringLiteral("values"), QStringLiteral("rescaled-rows")},
                                       {QStringLiteral("difference"), true}});
  EXPECT_FALSE(transitions.topics().empty());  // the grammar is shown
  EXPECT_EQ(transitions.values(), TransitionValues::RescaledRows);
  EXPECT_TRUE(transitions.restoreNotice().contains(QStringLiteral("gone.grammar")))
      << transitions.restoreNotice().toStdString();
  EXPECT_TRUE(transitions.statusText().contains(QStringLiteral("Restored in part")));

  DiscourseView discourse;
  discourse.restoreState(
      QJsonObject{{QStringLiteral("corpus"), grounded("tiny.yld")},
                  {QStringLiteral("gold"), grounded("tiny.gold.yld")},
                  {QStringLiteral("rows"),
                   QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("annotation")},
                                          {QStringLiteral("source"), goneAnnotations},
                                          {QStringLiteral("name"), QStringLiteral("ann1")}},
                              QJsonObject{{QStringLiteral("kind"), QStringLiteral("model")},
                                          {QStringLiteral("source"), gone}}}},
                  {QStringLiteral("recording"), QStringLiteral("Z")}});
  ASSERT_TRUE(discourse.waitForDecoding(kTimeoutMs));
  EXPECT_EQ(discourse.data().rows().size(), 1u);  // the gold row
  for (const char* part : {"gone-annotations.txt", "gone.grammar", "\u201cZ\u201d"})
    EXPECT_TRUE(discourse.restoreNotice().contains(QString::fromUtf8(part)))
        << part << ": " << discourse.restoreNotice().toStdString();
  EXPECT_TRUE(discourse.statusText().contains(QStringLiteral("Restored in part")));

  ExperimentPanel experiments;
  EXPECT_TRUE(experiments.restoreState(
      QJsonObject{{QStringLiteral("form"),
                   QJsonObject{{QStringLiteral("corpus"), path(QStringLiteral("no.yld"))},
                               {QStringLiteral("model"), QStringLiteral("em")}}}}));
  EXPECT_TRUE(experiments.restoreNotice().contains(QStringLiteral("no.yld")));
  EXPECT_EQ(experiments.spec().model, gwb::SocialModel::Em);
}

// Quitting while a run is going asks: Keep running (the window stays), Wait (it closes by
// itself once the run ends), Cancel and quit (the run stops, the window closes).
TEST_F(ResearchWorkspaceTest, QuittingDuringAnInductionRunAsks) {
  using Choice = MainWindow::BusyQuitChoice;
  for (const Choice choice : {Choice::KeepRunning, Choice::Wait, Choice::CancelAndQuit}) {
    auto window = makeWindow(QStringLiteral("quit%1").arg(static_cast<int>(choice)));
    window->show();
    QStringList asked;
    window->setBusyQuitPrompt([&asked, choice](const QString& running) {
      asked << running;
      return choice;
    });
    InductionPanel* panel = window->showInductionPanel();
    InductionSettings settings = ppSettings(QStringLiteral("long"), gwb::InductionMethod::Vb);
    settings.iterations = 50;
    ASSERT_GT(panel->startRun(settings), 0);
    // The run is going until its end is delivered through the event loop, which has not run.
    ASSERT_TRUE(panel->isBusy());
    const bool closed = window->close();
    ASSERT_EQ(asked.size(), 1);
    EXPECT_TRUE(asked.front().contains(QStringLiteral("induction"))) << asked.front().toStdString();
    switch (choice) {
      case Choice::KeepRunning:
        EXPECT_FALSE(closed);
        EXPECT_TRUE(window->isVisible());
        EXPECT_FALSE(window->isQuitPending());
        ASSERT_TRUE(panel->waitUntilIdle(kTimeoutMs));
        break;
      case Choice::Wait:
        EXPECT_FALSE(closed);
        EXPECT_TRUE(window->isQuitPending());
        EXPECT_TRUE(window->isVisible());
        // Quitting again while waiting asks again: Keep running calls the quit off, Wait on.
        window->setBusyQuitPrompt([&asked](const QString& running) {
          asked << running;
          return Choice::KeepRunning;
        });
        EXPECT_FALSE(window->close());
        EXPECT_FALSE(window->isQuitPending());
        window->setBusyQuitPrompt([&asked](const QString& running) {
          asked << running;
          return Choice::Wait;
        });
        EXPECT_FALSE(window->close());
        EXPECT_TRUE(window->isQuitPending());
        ASSERT_EQ(asked.size(), 3);
        ASSERT_TRUE(panel->waitUntilIdle(kTimeoutMs));
        QCoreApplication::processEvents();  // the queued close
        EXPECT_FALSE(window->isVisible());
        EXPECT_EQ(asked.size(), 3);  // not asked again: nothing is going any more
        break;
      case Choice::CancelAndQuit:
        EXPECT_TRUE(closed);
        EXPECT_FALSE(window->isVisible());
        EXPECT_FALSE(panel->isBusy());
        break;
    }
  }
  // The experiment runner likewise.
  {
    auto window = makeWindow(QStringLiteral("quit-experiment"));
    window->show();
    QStringList asked;
    window->setBusyQuitPrompt([&asked](const QString& running) {
      asked << running;
      return Choice::CancelAndQuit;
    });
    ExperimentPanel* panel = window->showExperimentPanel();
    ExperimentSpec spec;
    spec.iterations = 5;
    spec.corpusPath = grounded("tiny.yld");
    spec.goldPath = grounded("tiny.gold.yld");
    spec.recordingsPath = grounded("tiny.recordings.tsv");
    QString error;
    ASSERT_TRUE(panel->startRun(spec, &error)) << error.toStdString();
    ASSERT_TRUE(panel->isBusy());
    EXPECT_TRUE(window->close());
    ASSERT_EQ(asked.size(), 1);
    EXPECT_TRUE(asked.front().contains(QStringLiteral("experiment")));
    EXPECT_FALSE(panel->isBusy());
  }
  // Nothing going: no question.
  auto idle = makeWindow(QStringLiteral("idle"));
  idle->show();
  bool asked = false;
  idle->setBusyQuitPrompt([&asked](const QString&) {
    asked = true;
    return Choice::KeepRunning;
  });
  idle->showInductionPanel();
  EXPECT_TRUE(idle->close());
  EXPECT_FALSE(asked);
}

// Exports of the transition heatmap name the grammar and the settings: the caption is the
// plot's title (PNG, PDF) and the CSV's first line.
TEST_F(ResearchWorkspaceTest, TransitionExportsNameTheirGrammar) {
  const QString grammar = path(QStringLiteral("tiny-discourse.grammar"));
  writeTinyDiscourseGrammar(grammar);
  TransitionView view;
  QString error;
  ASSERT_TRUE(view.loadGrammarFile(grammar, &error)) << error.toStdString();
  view.setValues(TransitionValues::RescaledRows);
  const QString caption = view.captionText();
  EXPECT_TRUE(caption.contains(QStringLiteral("tiny-discourse.grammar")));
  EXPECT_TRUE(caption.contains(QStringLiteral("rows rescaled")));
  EXPECT_TRUE(caption.contains(QStringLiteral("grammar order")));
  // The caption is an element of the plot itself, so PNG and PDF renderings carry it.
  bool inPlot = false;
  for (int i = 0; i < view.plot()->plotLayout()->elementCount(); ++i) {
    const auto* text = qobject_cast<QCPTextElement*>(view.plot()->plotLayout()->elementAt(i));
    if (text && text->text() == caption) inPlot = true;
  }
  EXPECT_TRUE(inPlot);
  const QString csv = path(QStringLiteral("m.csv"));
  ASSERT_TRUE(view.exportFile(csv, &error)) << error.toStdString();
  QFile file(csv);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
  ASSERT_GE(lines.size(), 2);
  EXPECT_EQ(lines[0], QStringLiteral("# ") + caption);
  EXPECT_TRUE(lines[1].startsWith(QStringLiteral("from,")));
  for (const char* name : {"m.png", "m.pdf"})
    EXPECT_TRUE(view.exportFile(path(QString::fromLatin1(name)), &error)) << name;
}

// The corpus form: one dialog, a labelled row per file saying what it is for, filled with
// ../shared's files (as the experiments panel's form) unless the window already has its own.
TEST(CorpusFilesDialog, OneFormFilledFromTheSharedData) {
  const CorpusFiles defaults = CorpusFilesDialog::defaultFiles();
  CorpusFilesDialog discourse(QStringLiteral("Open a corpus for discourse segmentation"),
                              QStringLiteral("The corpus whose recordings are shown as timelines."),
                              CorpusFilesDialog::Fields::CorpusGoldRecordings);
  ASSERT_NE(discourse.goldEdit(), nullptr);
  EXPECT_EQ(discourse.files(), defaults);
  const ExperimentSpec experiments = ExperimentSpec().withDefaultFiles();
  EXPECT_EQ(defaults.corpus, experiments.corpusPath);
  EXPECT_EQ(defaults.gold, experiments.goldPath);
  EXPECT_EQ(defaults.recordings, experiments.recordingsPath);
  // Every field's row says what the file is for.
  for (QLineEdit* edit : {discourse.corpusEdit(), discourse.goldEdit(), discourse.recordingsEdit()})
    EXPECT_FALSE(edit->toolTip().isEmpty());

  // With GWB_SCREENSHOT_DIR set (under Xvfb), a picture of the form for a look.
  if (const QByteArray out = qgetenv("GWB_SCREENSHOT_DIR"); !out.isEmpty()) {
    discourse.show();
    QCoreApplication::processEvents();
    discourse.grab().save(
        QDir(QString::fromLocal8Bit(out)).filePath(QStringLiteral("corpus-form.png")));
  }
  const CorpusFiles own{grounded("tiny.yld"), QString(), grounded("tiny.recordings.tsv")};
  discourse.setFiles(own);
  EXPECT_EQ(discourse.files(), own);  // not mixed with ../shared's gold
  QPushButton* open = discourse.buttons()->button(QDialogButtonBox::Open);
  ASSERT_NE(open, nullptr);
  EXPECT_TRUE(open->isEnabled());
  discourse.corpusEdit()->setText(QStringLiteral("/no/such/corpus.yld"));
  EXPECT_FALSE(open->isEnabled());

  CorpusFilesDialog counts(QStringLiteral("t"), QStringLiteral("why"),
                           CorpusFilesDialog::Fields::CorpusRecordings);
  EXPECT_EQ(counts.goldEdit(), nullptr);
  EXPECT_TRUE(counts.files().gold.isEmpty());
}

}  // namespace
}  // namespace gwb::ui
