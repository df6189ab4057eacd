// grammar-workbench [FILE...] [--root SYMBOL] [--view PAGE] [--sentence TEXT] [--step N|end]
//                   [--select SET:INDEX] [--screenshot OUT.png]
//
// Opens each FILE (grammar or corpus) in its own tab; with none, restores the last session's
// workspace, or the first time the default one (the PP-attachment sample in the stepper). --view
// shows a page of the last grammar (grammar, stepper, tree),
// --sentence parses a sentence in its stepper and --step moves the stepper there (a number of
// operations, `end`, or `word:K` for the end of word K's scans). With --screenshot the window is
// shown at 1280x800 with throwaway settings (so neither the user's layout nor recent files affect
// it or are touched), grabbed to OUT.png once it has been laid out and painted, and the program
// exits.
#include <iostream>
#include <memory>

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include "ui/app_settings.h"
#include "ui/earley_stepper.h"
#include "ui/grammar_view.h"
#include "ui/main_window.h"
#include "ui/stepper_view.h"

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
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"),
      QStringLiteral("Show the window at 1280x800, save it as an image to OUT and exit."),
      QStringLiteral("OUT.png"));
  const QCommandLineOption viewOption(
      QStringList{QStringLiteral("view")},
      QStringLiteral("The page to show for the last grammar: grammar, stepper or tree."),
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
  parser.addOption(rootOption);
  parser.addOption(selectOption);
  parser.addOption(viewOption);
  parser.addOption(sentenceOption);
  parser.addOption(stepOption);
  parser.addOption(screenshotOption);
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
    window.restoreSession();
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
    }
  };

  if (!takeScreenshot) {
    window.show();
    QTimer::singleShot(0, &window, applyViewOptions);
    return QApplication::exec();
  }

  window.resize(1280, 800);
  window.show();
  QApplication::processEvents();
  applyViewOptions();
  int status = 0;
  QTimer::singleShot(kScreenshotDelayMs, &window, [&] {
    if (!window.grab().save(screenshotPath)) {
      std::cerr << "grammar-workbench: cannot write " << screenshotPath.toStdString() << '\n';
      status = 1;
    }
    QApplication::quit();
  });
  QApplication::exec();
  return status;
}
