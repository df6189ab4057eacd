#include "ui/frame/workbench_startup.h"

#include <iostream>
#include <memory>
#include <vector>

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include "gwb/earley/agenda_earley.h"
#include "ui/ccg/ccg_view.h"
#include "ui/ccg/fubl_view.h"
#include "ui/ds/ds_learning_view.h"
#include "ui/ds/ds_stepper_view.h"
#include "ui/earley/agenda_panel.h"
#include "ui/earley/earley_stepper.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/induction_panel.h"
#include "ui/earley/stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/gui_options.h"
#include "ui/frame/help_window.h"
#include "ui/frame/main_window.h"
#include "ui/grounded/discourse_timeline.h"
#include "ui/grounded/discourse_view.h"
#include "ui/grounded/experiment_panel.h"
#include "ui/grounded/transition_view.h"

namespace gwb::ui {

namespace {

// Long enough for the window to be mapped, laid out and painted on a virtual X server.
constexpr int kScreenshotDelayMs = 500;
// How long a decoding or a count may take before the options go on without it.
constexpr int kJobWaitMs = 30 * 60 * 1000;
// How long --run --screenshot waits for induction runs and experiments.
constexpr int kRunsWaitMs = 60 * 60 * 1000;

void report(const QString& message) { std::cerr << message.toStdString() << '\n'; }

void reportError(const QString& message) {
  std::cerr << "grammar-workbench: " << message.toStdString() << '\n';
}

void moveStepper(StepperView* stepper, const QString& step) {
  if (step == QLatin1String("end")) {
    stepper->stepper()->runToEnd();
  } else if (step.startsWith(QLatin1String("word:"))) {
    const int words = step.mid(5).toInt();
    for (int i = 0; i < words; ++i) stepper->stepper()->nextWord();
  } else {
    stepper->stepper()->setApplied(step.toULongLong());
  }
}

void runAgenda(StepperView* stepper, const GuiOptions& options) {
  AgendaPanel* agenda = stepper->agendaPanel();
  agenda->setActive(true);
  if (const auto strategy = gwb::parseAgendaStrategy(options.agendaStrategy.toStdString()))
    agenda->setStrategy(*strategy);
  if (*options.agenda == QLatin1String("end")) {
    agenda->runToEnd();
  } else {
    for (int i = 0; i < options.agenda->toInt(); ++i) agenda->stepByStrategy();
  }
}

DiscourseView* showDiscourse(MainWindow& window, const GuiOptions& options) {
  DiscourseView* view = window.showDiscourseView();
  QString error;
  if (options.corpus &&
      !view->loadCorpus(*options.corpus, options.gold, options.recordings, &error))
    report(error);
  for (const QString& file : options.annotations) {
    if (!view->addAnnotationFile(file, &error)) report(error);
  }
  for (const QString& grammar : options.decode) {
    if (view->decodeGrammar(grammar, options.root)) view->waitForDecoding(kJobWaitMs);
    report(view->statusText());
  }
  if (options.window) view->setWindow(*options.window);
  if (options.recording) view->setRecording(*options.recording);
  if (options.zoom) view->timeline()->setCellWidth(*options.zoom);
  if (options.utterance) view->showUtterance(*options.utterance - 1);
  return view;
}

TransitionView* showTransitions(MainWindow& window, const GuiOptions& options) {
  TransitionView* view = window.showTransitionView();
  QString grammar = options.decode.value(0);
  if (grammar.isEmpty()) grammar = options.files.value(0);
  QString error;
  if (!grammar.isEmpty() && !view->loadGrammarFile(grammar, &error)) report(error);
  if (options.compare && !view->loadComparisonFile(*options.compare, &error)) report(error);
  view->setDifference(options.difference);
  if (options.countsCorpus) {
    if (view->setCorpus(*options.countsCorpus, options.recordings, &error))
      view->waitForCounts(kJobWaitMs);
    report(view->statusText());
  }
  if (options.values == QLatin1String("rescaled")) view->setValues(TransitionValues::RescaledRows);
  if (options.values == QLatin1String("counts")) view->setValues(TransitionValues::ExpectedCounts);
  if (options.order == QLatin1String("frequency")) view->setOrder(TopicOrder::Frequency);
  if (options.order == QLatin1String("cluster")) view->setOrder(TopicOrder::Clustering);
  return view;
}

InductionPanel* showInduction(MainWindow& window, const GuiOptions& options) {
  InductionPanel* panel = window.showInductionPanel();
  InductionSettings base = panel->settings();
  if (options.induceGrammar) {
    base.grammarPath = *options.induceGrammar;
    base.root.clear();  // the grammar's own default unless --root says otherwise
  }
  if (options.induceCorpus) base.corpusPath = *options.induceCorpus;
  if (!options.root.isEmpty()) base.root = options.root;
  std::vector<InductionSettings> runs;
  for (const QString& spec : options.induce) {
    InductionSettings run = base;
    QString error;
    if (applyInductionSpec(&run, spec, &error)) {
      runs.push_back(run);
    } else {
      reportError(QStringLiteral("--induce: ") + error);
    }
  }
  panel->setSettings(runs.empty() ? base : runs.back());
  if (!options.run) return panel;
  if (runs.empty()) runs.push_back(base);
  for (const InductionSettings& run : runs) {
    QString error;
    if (panel->startRun(run, &error) < 0) reportError(error);
  }
  if (options.takeScreenshot()) panel->waitUntilIdle(kRunsWaitMs);
  return panel;
}

ExperimentPanel* showExperiments(MainWindow& window, const GuiOptions& options) {
  ExperimentPanel* panel = window.showExperimentPanel();
  std::vector<ExperimentSpec> jobs;
  for (const QString& text : options.experiments) {
    ExperimentSpec spec = panel->spec();
    QString error;
    if (applyExperimentSpec(&spec, text, &error)) {
      jobs.push_back(spec);
    } else {
      reportError(QStringLiteral("--experiment: ") + error);
    }
  }
  if (!jobs.empty()) panel->setSpec(jobs.back());
  if (!options.run) return panel;
  if (jobs.empty()) jobs.push_back(panel->spec());
  for (const ExperimentSpec& spec : jobs) {
    QString error;
    if (!panel->startRun(spec, &error)) reportError(error);
  }
  if (options.takeScreenshot()) panel->waitUntilIdle(kRunsWaitMs);
  return panel;
}

// The window --screenshot grabs and the settings it uses.
int takeScreenshot(MainWindow& window, const GuiOptions& options) {
  window.resize(options.screenshotSize);
  window.show();
  QApplication::processEvents();
  applyGrammarOptions(window, options);
  QWidget* researchWindow = applyResearchOptions(window, options);
  applyDsOptions(window, options);
  applyCcgOptions(window, options);
  applyFublOptions(window, options);
  if (researchWindow) {
    researchWindow->resize(options.screenshotSize);
    researchWindow->move(0, 0);
    researchWindow->raise();
    QApplication::processEvents();
  }
  int status = 0;
  QTimer::singleShot(kScreenshotDelayMs, &window, [&] {
    QWidget* shown = researchWindow ? researchWindow : static_cast<QWidget*>(&window);
    if (!shown->grab().save(*options.screenshotPath)) {
      reportError(QStringLiteral("cannot write ") + *options.screenshotPath);
      status = 1;
    }
    QApplication::quit();
  });
  QApplication::exec();
  return status;
}

}  // namespace

void applyGrammarOptions(MainWindow& window, const GuiOptions& options) {
  GrammarView* view = window.grammarViewAt(window.documentCount() - 1);
  if (view == nullptr) return;
  if (options.view == QLatin1String("stepper")) view->showPage(GrammarView::Page::Stepper);
  if (options.view == QLatin1String("tree")) view->showPage(GrammarView::Page::Tree);
  StepperView* stepper = view->stepperView();
  if (options.sentence) stepper->setSentence(*options.sentence);
  if (options.step) {
    stepper->waitForParse();
    moveStepper(stepper, *options.step);
  }
  if (options.select) {
    stepper->waitForParse();
    stepper->selectItem({options.select->first, options.select->second});
  }
  if (options.agenda) {
    stepper->waitForParse();
    runAgenda(stepper, options);
  }
}

QWidget* applyResearchOptions(MainWindow& window, const GuiOptions& options) {
  if (options.view == QLatin1String("discourse")) return showDiscourse(window, options);
  if (options.view == QLatin1String("transitions")) return showTransitions(window, options);
  if (options.view == QLatin1String("induction")) return showInduction(window, options);
  if (options.view == QLatin1String("experiments")) return showExperiments(window, options);
  if (options.view == QLatin1String("help"))
    return window.showHelp(options.helpTopic.value_or(QStringLiteral("docs/walkthrough.md")));
  if (options.view == QLatin1String("shortcuts")) return window.showShortcuts();
  return nullptr;
}

namespace {

// DS lexicon learning (--view ds-learn).
void applyDsLearningOptions(MainWindow& window, const GuiOptions& options) {
  DsLearningView* view = window.openDsLearning();
  if (options.takeScreenshot())
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) dock->hide();
  if (!options.dsSeed.isEmpty()) view->setSeedDirectory(options.dsSeed);
  if (options.dsTop) view->setTop(*options.dsTop);
  if (options.dsTest) view->setTestPath(*options.dsTest);
  if (!options.dsTrain) return;
  view->setTrainPath(*options.dsTrain);
  if (!view->startLearning() || !view->waitForLearning() || view->lexicon() == nullptr) {
    reportError(view->statusText());
    return;
  }
  if (options.dsWord && !view->selectWord(*options.dsWord))
    reportError(QStringLiteral("--ds-word: %1 was not learned").arg(*options.dsWord));
  if (options.dsTestItem) {
    if (!view->selectTestItem(*options.dsTestItem - 1))
      reportError(QStringLiteral("--ds-test-item: no item %1").arg(*options.dsTestItem));
    view->waitForInspection();
  }
  const QString& tab = options.dsLearnTab;
  if (tab == QLatin1String("derivation")) {
    if (!view->showDerivation(view->selectedHypothesis())) {
      reportError(QStringLiteral("--ds-learn-tab derivation: no hypothesis selected"));
      return;
    }
    view->waitForInspection();
  }
  if (tab == QLatin1String("words")) view->showTab(DsLearningView::WordsTab);
  if (tab == QLatin1String("test")) view->showTab(DsLearningView::TestTab);
  if (tab == QLatin1String("derivation")) view->showTab(DsLearningView::DerivationTab);
}

}  // namespace

void applyDsOptions(MainWindow& window, const GuiOptions& options) {
  if (options.view == QLatin1String("ds-learn")) {
    applyDsLearningOptions(window, options);
    return;
  }
  if (options.view != QLatin1String("ds")) return;
  DsStepperView* ds = window.openDsStepper(options.dsGrammar);
  // The docks (nonterminals, diagnostics) say nothing about a DS grammar; the DAG needs the
  // width.
  if (options.takeScreenshot())
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) dock->hide();
  ds->setBestFirst(options.dsBestFirst);
  if (!options.dsSentence) return;
  ds->setSentence(*options.dsSentence);
  if (!ds->parse() || !ds->waitForParse()) {
    reportError(ds->statusText());
    return;
  }
  if (options.dsStep) ds->goToStep(*options.dsStep);
  if (options.dsSelect) ds->selectNode(*options.dsSelect);
}

void applyCcgOptions(MainWindow& window, const GuiOptions& options) {
  if (options.view != QLatin1String("ccg")) return;
  const QString lexicon = options.ccgLexicon.isEmpty() ? MainWindow::samplesDirectory() +
                                                             QStringLiteral("/ccg/geography.flex")
                                                       : options.ccgLexicon;
  CcgView* ccg = window.openCcgView(lexicon);
  if (!ccg) {
    reportError(QStringLiteral("%1: not a CCG lexicon or model that can be read").arg(lexicon));
    return;
  }
  // The docks (nonterminals, diagnostics) say nothing about a CCG lexicon; the chart and the
  // proof need the room.
  if (options.takeScreenshot())
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) dock->hide();
  if (!options.ccgSentence) return;
  ccg->setSentence(*options.ccgSentence);
  if (!ccg->parse() || !ccg->waitForParse()) {
    reportError(ccg->statusText());
    return;
  }
  if (options.ccgStep && !ccg->goToStep(*options.ccgStep)) {
    reportError(QStringLiteral("--ccg-step: expected a number of steps, end, or cell:B-E of the "
                               "chart, found '%1'")
                    .arg(*options.ccgStep));
  }
  if (options.ccgCell) {
    const QStringList parts = options.ccgCell->split(QLatin1Char('-'));
    bool okBegin = false;
    bool okEnd = false;
    const int begin = parts.value(0).toInt(&okBegin);
    const int end = parts.value(1).toInt(&okEnd);
    if (parts.size() != 2 || !okBegin || !okEnd || begin < 0 || end <= begin ||
        end > ccg->chart()->length()) {
      reportError(QStringLiteral("--ccg-cell: expected B-E with 0 <= B < E <= %1, found '%2'")
                      .arg(ccg->chart()->length())
                      .arg(*options.ccgCell));
    } else {
      ccg->selectCell(begin, end);
    }
  }
}

void applyFublOptions(MainWindow& window, const GuiOptions& options) {
  if (options.view != QLatin1String("fubl")) return;
  FublTrainingSettings settings;
  settings.trainingPath = options.fublTrain.isEmpty() ? MainWindow::samplesDirectory() +
                                                            QStringLiteral("/ccg/geography.ccg")
                                                      : options.fublTrain;
  settings.fixedLexiconPath = options.fublFixed;
  settings.testPath = options.fublTest;
  settings.modelPath = options.fublModel;
  if (options.fublTrain.isEmpty() && settings.modelPath.isEmpty()) {
    settings.modelPath = QDir::temp().filePath(QStringLiteral("geography.ccgmodel"));
  }
  if (options.fublPasses) settings.passes = *options.fublPasses;
  if (options.fublSeed) settings.seed = static_cast<quint64>(*options.fublSeed);
  FublView* fubl = window.openFublView(&settings);
  const QStringList pages = {QStringLiteral("training"), QStringLiteral("lexicon"),
                             QStringLiteral("evaluation")};
  // What to show once a model is there (at once when a screenshot waits for the run).
  auto afterRun = [&window, fubl, options, pages] {
    if (!options.fublFilter.isEmpty()) {
      fubl->setFilter(options.fublFilter, FublLexiconFilter::Mode::Any);
    }
    if (!options.fublPage.isEmpty())
      fubl->pages()->setCurrentIndex(pages.indexOf(options.fublPage));
    if (options.fublOpen) {
      if (!fubl->openTestSentence(*options.fublOpen - 1)) {
        reportError(QStringLiteral("--fubl-open: no test sentence %1 (or no model)")
                        .arg(*options.fublOpen));
      } else if (CcgView* ccg = window.ccgViewOfLearner(fubl)) {
        ccg->waitForParse();
      }
    }
  };
  if (!options.fublOpenModel.isEmpty()) {
    // A model to look at, not to train: shown in the browser with the page and filter asked.
    QString error;
    if (!fubl->openModelFile(options.fublOpenModel, &error)) {
      reportError(QStringLiteral("--fubl-open-model: %1").arg(error));
      return;
    }
    fubl->waitForSentenceParse();
    afterRun();
    return;
  }
  if (!options.fublPage.isEmpty()) fubl->pages()->setCurrentIndex(pages.indexOf(options.fublPage));
  if (!options.run) return;
  if (!fubl->startTraining()) {
    reportError(fubl->statusText());
    return;
  }
  if (options.takeScreenshot()) {
    fubl->waitForTraining(kRunsWaitMs);
    fubl->waitForSentenceParse();
    afterRun();
  } else {
    QObject::connect(fubl, &FublView::trainingFinished, fubl, afterRun, Qt::SingleShotConnection);
  }
}

int runWorkbench(const GuiOptions& options) {
  std::unique_ptr<QSettings> store;
  QTemporaryDir scratch;
  if (options.takeScreenshot()) {
    if (!scratch.isValid()) {
      reportError(QStringLiteral("cannot create a temporary folder"));
      return 1;
    }
    store = std::make_unique<QSettings>(scratch.filePath(QStringLiteral("settings.ini")),
                                        QSettings::IniFormat);
  } else {
    store = std::make_unique<QSettings>();
  }
  AppSettings settings(*store);

  MainWindow window(settings);
  QApplication::setWindowIcon(window.windowIcon());
  if (options.files.isEmpty()) {
    window.restoreSession(options.noSession ? MainWindow::SessionStart::WithoutLastSession
                                            : MainWindow::SessionStart::RestoreLastSession);
  } else {
    window.openGrammars(options.files, options.root);
  }
  if (options.takeScreenshot()) return takeScreenshot(window, options);

  window.show();
  QTimer::singleShot(0, &window, [&window, &options] {
    applyGrammarOptions(window, options);
    applyResearchOptions(window, options);
    applyDsOptions(window, options);
    applyCcgOptions(window, options);
    applyFublOptions(window, options);
  });
  return QApplication::exec();
}

}  // namespace gwb::ui
