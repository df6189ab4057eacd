// grammar-workbench [FILE...] [--root SYMBOL] [--view PAGE] [--sentence TEXT] [--step N|end]
//                   [--select SET:INDEX] [--no-session] [--screenshot OUT.png]
//
// Opens each FILE (grammar or corpus) in its own tab; with none, restores the last session's
// workspace (each tab opens when first shown; after an abnormal exit the user is asked first),
// or the first time — or with --no-session — the default one (the PP-attachment sample in the
// stepper). --view
// shows a page of the last grammar (grammar, stepper, tree),
// --sentence parses a sentence in its stepper and --step moves the stepper there (a number of
// operations, `end`, or `word:K` for the end of word K's scans). With --screenshot the window is
// shown at 1280x800 with throwaway settings (so neither the user's layout nor recent files affect
// it or are touched), grabbed to OUT.png once it has been laid out and painted, and the program
// exits. --agenda N turns on the stepper's agenda mode and runs N tasks (or end) of
// --agenda-strategy.
//
// Research views: --view discourse opens Research > Discourse segmentation with --corpus (and
// --gold, --recordings), adds each --annotations file, decodes with each --decode grammar, then
// shows --recording ID at --utterance N (1-based) with window --window K; --view transitions
// opens Research > Topic transitions with the FILE given (or --decode's grammar), --compare a
// second grammar (--difference shows first - second), --counts-corpus/--recordings for expected
// counts, --values prob|rescaled|counts and --order grammar|frequency|cluster. With --screenshot
// the research window is grabbed instead of the main window.
//
// --view induction opens Research > Grammar induction with --induce-grammar, --induce-corpus
// (and --root) in its form; each --induce "key=value;..." (label, method, prior, iterations,
// init, ... see induction_panel.h) is one run on top of those; --run starts them (one after
// the other) and, with --screenshot, waits for them. --view experiments opens Research >
// Experiments; each --experiment "model=vb;cues=all;iterations=20;seeds=1-2" is one job, run
// with --run.
//
// Help: --view help shows Help > Walkthrough (or --help-topic docs/formats.md, ...); --view
// shortcuts shows Help > Keyboard Shortcuts. With --screenshot that window is grabbed.
//
// Dynamic Syntax: --view ds opens Dynamic Syntax > DS stepper with --ds-grammar DIR (default: the
// shared DyLan 2013 English TTR grammar), parses --ds-sentence TEXT (breadth-first, or
// --ds-best-first), steps to --ds-step (a number of actions, end, or word:K) and selects DAG node
// --ds-select N.
#include <iostream>
#include <memory>
#include <vector>

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QSettings>
#include <QSize>
#include <QTemporaryDir>
#include <QTimer>

#include "ui/ds/ds_stepper_view.h"
#include "ui/earley/agenda_panel.h"
#include "ui/earley/earley_stepper.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/induction_panel.h"
#include "ui/earley/stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/help_window.h"
#include "ui/frame/main_window.h"
#include "ui/grounded/discourse_timeline.h"
#include "ui/grounded/discourse_view.h"
#include "ui/grounded/experiment_panel.h"
#include "ui/grounded/transition_view.h"

namespace {
// Long enough for the window to be mapped, laid out and painted on a virtual X server.
constexpr int kScreenshotDelayMs = 500;
}  // namespace

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("GrammarWorkbench"));
  QApplication::setOrganizationDomain(QStringLiteral("grammar-workbench.org"));
  QApplication::setApplicationName(QStringLiteral("Grammar Workbench"));
  QApplication::setApplicationVersion(QStringLiteral(GWB_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Workbench for probabilistic grammars: Earley parsing, grammar induction "
                     "and Dynamic Syntax."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("files"),
                               QStringLiteral("Grammar files to open (Earleyx or NLTK format)."),
                               QStringLiteral("[FILE...]"));
  const QCommandLineOption rootOption(
      QStringLiteral("root"),
      QStringLiteral("Start symbol for the grammars given on the command line."),
      QStringLiteral("SYMBOL"));
  const QCommandLineOption noSessionOption(
      QStringLiteral("no-session"),
      QStringLiteral("Start without restoring the last session's tabs (e.g. when restoring them "
                     "keeps failing)."));
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"),
      QStringLiteral("Show the window at 1280x800 (or --screenshot-size), save it as an image "
                     "to OUT and exit."),
      QStringLiteral("OUT.png"));
  const QCommandLineOption screenshotSizeOption(
      QStringLiteral("screenshot-size"),
      QStringLiteral("The window's size for --screenshot (default 1280x800)."),
      QStringLiteral("WxH"));
  const QCommandLineOption viewOption(
      QStringList{QStringLiteral("view")},
      QStringLiteral("The page to show for the last grammar: grammar, stepper or tree; a "
                     "research window: discourse, transitions, induction or experiments; or "
                     "help or shortcuts."),
      QStringLiteral("PAGE"));
  const QCommandLineOption sentenceOption(
      QStringLiteral("sentence"),
      QStringLiteral("A sentence to parse in the last grammar's Earley stepper."),
      QStringLiteral("TEXT"));
  const QCommandLineOption stepOption(
      QStringLiteral("step"),
      QStringLiteral("Where the stepper stops: a number of operations, end, or word:K."),
      QStringLiteral("N"));
  const QCommandLineOption selectOption(
      QStringLiteral("select"),
      QStringLiteral("An item to select in the stepper's chart: SET:INDEX."),
      QStringLiteral("SET:INDEX"));
  const QCommandLineOption agendaOption(
      QStringLiteral("agenda"),
      QStringLiteral("Turns on the stepper's agenda mode and runs N tasks of --agenda-strategy "
                     "(or end)."),
      QStringLiteral("N"));
  const QCommandLineOption agendaStrategyOption(
      QStringLiteral("agenda-strategy"),
      QStringLiteral("Agenda mode's strategy: earley, predict-first, complete-first, scan-first, "
                     "oldest, newest or random."),
      QStringLiteral("NAME"), QStringLiteral("earley"));
  // Research views (discourse segmentation, topic transitions).
  const auto researchOption = [](const char* name, const char* help, const char* value) {
    return QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help),
                              QString::fromLatin1(value));
  };
  const QCommandLineOption corpusOption =
      researchOption("corpus", "Discourse view: the social-cue corpus (.yld).", "FILE");
  const QCommandLineOption goldOption =
      researchOption("gold", "Discourse view: its gold topics (.yld).", "FILE");
  const QCommandLineOption recordingsOption = researchOption(
      "recordings", "Discourse/transitions view: the recordings table (.tsv).", "FILE");
  const QCommandLineOption annotationsOption = researchOption(
      "annotations", "Discourse view: a topic annotation file to add (repeatable).", "FILE");
  const QCommandLineOption decodeOption = researchOption(
      "decode", "Discourse view: a grammar to decode the corpus with (repeatable).", "GRAMMAR");
  const QCommandLineOption recordingOption =
      researchOption("recording", "Discourse view: the recording to show.", "ID");
  const QCommandLineOption utteranceOption =
      researchOption("utterance", "Discourse view: the utterance to scroll to (1-based).", "N");
  const QCommandLineOption windowOption = researchOption(
      "window", "Discourse view: the Pk/WindowDiff window (default: segeval's).", "K");
  const QCommandLineOption zoomOption =
      researchOption("zoom", "Discourse view: pixels per utterance.", "PX");
  const QCommandLineOption compareOption =
      researchOption("compare", "Transitions view: a second grammar to compare with.", "GRAMMAR");
  const QCommandLineOption differenceOption(
      QStringLiteral("difference"), QStringLiteral("Transitions view: show first - second."));
  const QCommandLineOption countsCorpusOption = researchOption(
      "counts-corpus", "Transitions view: a corpus for expected counts (.yld).", "FILE");
  const QCommandLineOption valuesOption =
      researchOption("values", "Transitions view: prob, rescaled or counts.", "WHAT");
  const QCommandLineOption orderOption =
      researchOption("order", "Transitions view: grammar, frequency or cluster.", "ORDER");
  const QCommandLineOption induceGrammarOption =
      researchOption("induce-grammar", "Induction view: the grammar to train.", "FILE");
  const QCommandLineOption induceCorpusOption =
      researchOption("induce-corpus", "Induction view: the training corpus.", "FILE");
  const QCommandLineOption induceOption = researchOption(
      "induce", "Induction view: one run's settings, key=value;... (repeatable).", "SPEC");
  const QCommandLineOption experimentOption = researchOption(
      "experiment", "Experiments view: one job, key=value;... (repeatable).", "SPEC");
  const QCommandLineOption helpTopicOption = researchOption(
      "help-topic", "Help window (--view help): the page, e.g. docs/formats.md.", "PATH");
  parser.addOption(helpTopicOption);
  const QCommandLineOption runOption(QStringLiteral("run"),
                                     QStringLiteral("Induction/experiments view: start the runs."));
  for (const QCommandLineOption* option :
       {&induceGrammarOption, &induceCorpusOption, &induceOption, &experimentOption, &runOption})
    parser.addOption(*option);
  for (const QCommandLineOption* option :
       {&corpusOption, &goldOption, &recordingsOption, &annotationsOption, &decodeOption,
        &recordingOption, &utteranceOption, &windowOption, &zoomOption, &compareOption,
        &differenceOption, &countsCorpusOption, &valuesOption, &orderOption})
    parser.addOption(*option);
  // The Dynamic Syntax stepper (--view ds).
  const QCommandLineOption dsGrammarOption(QStringLiteral("ds-grammar"),
                                           QStringLiteral("DS stepper: a DyLan grammar folder."),
                                           QStringLiteral("DIR"));
  const QCommandLineOption dsSentenceOption(QStringLiteral("ds-sentence"),
                                            QStringLiteral("DS stepper: the sentence to parse."),
                                            QStringLiteral("TEXT"));
  const QCommandLineOption dsStepOption(
      QStringLiteral("ds-step"),
      QStringLiteral("DS stepper: where to stop, a number of actions, end, or word:K."),
      QStringLiteral("N"));
  const QCommandLineOption dsSelectOption(QStringLiteral("ds-select"),
                                          QStringLiteral("DS stepper: the DAG node to select."),
                                          QStringLiteral("N"));
  const QCommandLineOption dsBestFirstOption(QStringLiteral("ds-best-first"),
                                             QStringLiteral("DS stepper: parse best-first."));
  for (const QCommandLineOption* option :
       {&dsGrammarOption, &dsSentenceOption, &dsStepOption, &dsSelectOption, &dsBestFirstOption})
    parser.addOption(*option);
  parser.addOption(rootOption);
  parser.addOption(selectOption);
  parser.addOption(viewOption);
  parser.addOption(sentenceOption);
  parser.addOption(stepOption);
  parser.addOption(agendaOption);
  parser.addOption(agendaStrategyOption);
  parser.addOption(screenshotOption);
  parser.addOption(screenshotSizeOption);
  parser.addOption(noSessionOption);
  parser.process(app);

  const QString screenshotPath = parser.value(screenshotOption);
  const bool takeScreenshot = parser.isSet(screenshotOption);

  std::unique_ptr<QSettings> store;
  QTemporaryDir scratch;
  if (takeScreenshot) {
    if (!scratch.isValid()) {
      std::cerr << "grammar-workbench: cannot create a temporary folder\n";
      return 1;
    }
    store = std::make_unique<QSettings>(scratch.filePath(QStringLiteral("settings.ini")),
                                        QSettings::IniFormat);
  } else {
    store = std::make_unique<QSettings>();
  }
  gwb::ui::AppSettings settings(*store);

  gwb::ui::MainWindow window(settings);
  QApplication::setWindowIcon(window.windowIcon());
  if (parser.positionalArguments().isEmpty()) {
    window.restoreSession(parser.isSet(noSessionOption)
                              ? gwb::ui::MainWindow::SessionStart::WithoutLastSession
                              : gwb::ui::MainWindow::SessionStart::RestoreLastSession);
  } else {
    window.openGrammars(parser.positionalArguments(), parser.value(rootOption));
  }
  const auto applyViewOptions = [&] {
    if (gwb::ui::GrammarView* view = window.grammarViewAt(window.documentCount() - 1)) {
      const QString page = parser.value(viewOption);
      if (page == QLatin1String("stepper")) view->showPage(gwb::ui::GrammarView::Page::Stepper);
      if (page == QLatin1String("tree")) view->showPage(gwb::ui::GrammarView::Page::Tree);
      gwb::ui::StepperView* stepper = view->stepperView();
      if (parser.isSet(sentenceOption)) stepper->setSentence(parser.value(sentenceOption));
      if (parser.isSet(stepOption)) {
        stepper->waitForParse();
        const QString step = parser.value(stepOption);
        if (step == QLatin1String("end")) {
          stepper->stepper()->runToEnd();
        } else if (step.startsWith(QLatin1String("word:"))) {
          const int words = step.mid(5).toInt();
          for (int i = 0; i < words; ++i) stepper->stepper()->nextWord();
        } else {
          stepper->stepper()->setApplied(step.toULongLong());
        }
      }
      if (parser.isSet(selectOption)) {
        stepper->waitForParse();
        const QStringList at = parser.value(selectOption).split(QLatin1Char(':'));
        if (at.size() == 2) stepper->selectItem({at[0].toInt(), at[1].toInt()});
      }
      if (parser.isSet(agendaOption)) {
        stepper->waitForParse();
        gwb::ui::AgendaPanel* agenda = stepper->agendaPanel();
        agenda->setActive(true);
        if (const auto strategy =
                gwb::parseAgendaStrategy(parser.value(agendaStrategyOption).toStdString()))
          agenda->setStrategy(*strategy);
        const QString steps = parser.value(agendaOption);
        if (steps == QLatin1String("end")) {
          agenda->runToEnd();
        } else {
          for (int i = 0; i < steps.toInt(); ++i) agenda->stepByStrategy();
        }
      }
    }
  };

  // The research windows: filled from the options; the one shown is what --screenshot grabs.
  QWidget* researchWindow = nullptr;
  const auto applyResearchOptions = [&] {
    const QString page = parser.value(viewOption);
    if (page == QLatin1String("discourse")) {
      gwb::ui::DiscourseView* view = window.showDiscourseView();
      researchWindow = view;
      if (parser.isSet(corpusOption)) {
        QString error;
        if (!view->loadCorpus(parser.value(corpusOption), parser.value(goldOption),
                              parser.value(recordingsOption), &error))
          std::cerr << error.toStdString() << '\n';
      }
      for (const QString& file : parser.values(annotationsOption)) {
        QString error;
        if (!view->addAnnotationFile(file, &error)) std::cerr << error.toStdString() << '\n';
      }
      for (const QString& grammar : parser.values(decodeOption)) {
        if (view->decodeGrammar(grammar, parser.value(rootOption)))
          view->waitForDecoding(30 * 60 * 1000);
        std::cerr << view->statusText().toStdString() << '\n';
      }
      if (parser.isSet(windowOption)) view->setWindow(parser.value(windowOption).toInt());
      if (parser.isSet(recordingOption)) view->setRecording(parser.value(recordingOption));
      if (parser.isSet(zoomOption))
        view->timeline()->setCellWidth(parser.value(zoomOption).toDouble());
      if (parser.isSet(utteranceOption))
        view->showUtterance(parser.value(utteranceOption).toInt() - 1);
    } else if (page == QLatin1String("transitions")) {
      gwb::ui::TransitionView* view = window.showTransitionView();
      researchWindow = view;
      QString grammar = parser.values(decodeOption).value(0);
      if (grammar.isEmpty()) grammar = parser.positionalArguments().value(0);
      QString error;
      if (!grammar.isEmpty() && !view->loadGrammarFile(grammar, &error))
        std::cerr << error.toStdString() << '\n';
      if (parser.isSet(compareOption) &&
          !view->loadComparisonFile(parser.value(compareOption), &error))
        std::cerr << error.toStdString() << '\n';
      view->setDifference(parser.isSet(differenceOption));
      if (parser.isSet(countsCorpusOption)) {
        if (view->setCorpus(parser.value(countsCorpusOption), parser.value(recordingsOption),
                            &error))
          view->waitForCounts(30 * 60 * 1000);
        std::cerr << view->statusText().toStdString() << '\n';
      }
      const QString values = parser.value(valuesOption);
      if (values == QLatin1String("rescaled"))
        view->setValues(gwb::ui::TransitionValues::RescaledRows);
      if (values == QLatin1String("counts"))
        view->setValues(gwb::ui::TransitionValues::ExpectedCounts);
      const QString order = parser.value(orderOption);
      if (order == QLatin1String("frequency")) view->setOrder(gwb::ui::TopicOrder::Frequency);
      if (order == QLatin1String("cluster")) view->setOrder(gwb::ui::TopicOrder::Clustering);
    } else if (page == QLatin1String("help")) {
      researchWindow =
          window.showHelp(parser.isSet(helpTopicOption) ? parser.value(helpTopicOption)
                                                        : QStringLiteral("docs/walkthrough.md"));
    } else if (page == QLatin1String("shortcuts")) {
      researchWindow = window.showShortcuts();
    } else if (page == QLatin1String("induction")) {
      gwb::ui::InductionPanel* panel = window.showInductionPanel();
      researchWindow = panel;
      gwb::ui::InductionSettings base = panel->settings();
      if (parser.isSet(induceGrammarOption)) {
        base.grammarPath = parser.value(induceGrammarOption);
        base.root.clear();  // the grammar's own default unless --root says otherwise
      }
      if (parser.isSet(induceCorpusOption)) base.corpusPath = parser.value(induceCorpusOption);
      if (parser.isSet(rootOption)) base.root = parser.value(rootOption);
      std::vector<gwb::ui::InductionSettings> runs;
      for (const QString& spec : parser.values(induceOption)) {
        gwb::ui::InductionSettings run = base;
        QString error;
        if (!gwb::ui::applyInductionSpec(&run, spec, &error)) {
          std::cerr << "grammar-workbench: --induce: " << error.toStdString() << '\n';
          continue;
        }
        runs.push_back(run);
      }
      panel->setSettings(runs.empty() ? base : runs.back());
      if (parser.isSet(runOption)) {
        if (runs.empty()) runs.push_back(base);
        for (const gwb::ui::InductionSettings& run : runs) {
          QString error;
          if (panel->startRun(run, &error) < 0)
            std::cerr << "grammar-workbench: " << error.toStdString() << '\n';
        }
        if (takeScreenshot) panel->waitUntilIdle(60 * 60 * 1000);
      }
    } else if (page == QLatin1String("experiments")) {
      gwb::ui::ExperimentPanel* panel = window.showExperimentPanel();
      researchWindow = panel;
      std::vector<gwb::ui::ExperimentSpec> jobs;
      for (const QString& text : parser.values(experimentOption)) {
        gwb::ui::ExperimentSpec spec = panel->spec();
        QString error;
        if (!gwb::ui::applyExperimentSpec(&spec, text, &error)) {
          std::cerr << "grammar-workbench: --experiment: " << error.toStdString() << '\n';
          continue;
        }
        jobs.push_back(spec);
      }
      if (!jobs.empty()) panel->setSpec(jobs.back());
      if (parser.isSet(runOption)) {
        if (jobs.empty()) jobs.push_back(panel->spec());
        for (const gwb::ui::ExperimentSpec& spec : jobs) {
          QString error;
          if (!panel->startRun(spec, &error))
            std::cerr << "grammar-workbench: " << error.toStdString() << '\n';
        }
        if (takeScreenshot) panel->waitUntilIdle(60 * 60 * 1000);
      }
    }
  };

  const auto applyDsOptions = [&] {
    if (parser.value(viewOption) != QLatin1String("ds")) return;
    gwb::ui::DsStepperView* ds = window.openDsStepper(parser.value(dsGrammarOption));
    // The docks (nonterminals, diagnostics) say nothing about a DS grammar; the DAG needs the
    // width.
    if (takeScreenshot)
      for (QDockWidget* dock : window.findChildren<QDockWidget*>()) dock->hide();
    ds->setBestFirst(parser.isSet(dsBestFirstOption));
    if (!parser.isSet(dsSentenceOption)) return;
    ds->setSentence(parser.value(dsSentenceOption));
    if (!ds->parse() || !ds->waitForParse()) {
      std::cerr << "grammar-workbench: " << ds->statusText().toStdString() << '\n';
      return;
    }
    if (parser.isSet(dsStepOption)) ds->goToStep(parser.value(dsStepOption));
    if (parser.isSet(dsSelectOption)) ds->selectNode(parser.value(dsSelectOption).toInt());
  };

  if (!takeScreenshot) {
    window.show();
    QTimer::singleShot(0, &window, applyViewOptions);
    QTimer::singleShot(0, &window, applyResearchOptions);
    QTimer::singleShot(0, &window, applyDsOptions);
    return QApplication::exec();
  }

  QSize screenshotSize(1280, 800);
  if (const QStringList wh = parser.value(screenshotSizeOption).split(QLatin1Char('x'));
      wh.size() == 2 && wh[0].toInt() > 0 && wh[1].toInt() > 0)
    screenshotSize = QSize(wh[0].toInt(), wh[1].toInt());
  window.resize(screenshotSize);
  window.show();
  QApplication::processEvents();
  applyViewOptions();
  applyResearchOptions();
  applyDsOptions();
  if (researchWindow) {
    researchWindow->resize(screenshotSize);
    researchWindow->move(0, 0);
    researchWindow->raise();
    QApplication::processEvents();
  }
  int status = 0;
  QTimer::singleShot(kScreenshotDelayMs, &window, [&] {
    QWidget* shown = researchWindow ? researchWindow : static_cast<QWidget*>(&window);
    if (!shown->grab().save(screenshotPath)) {
      std::cerr << "grammar-workbench: cannot write " << screenshotPath.toStdString() << '\n';
      status = 1;
    }
    QApplication::quit();
  });
  QApplication::exec();
  return status;
}
