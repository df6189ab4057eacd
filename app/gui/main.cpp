// grammar-workbench [FILE...] [--root SYMBOL] [--screenshot OUT.png]
//
// Opens each FILE in its own tab. With --screenshot the window is shown at 1280x800 with
// throwaway settings (so neither the user's layout nor recent files affect it or are touched),
// grabbed to OUT.png once it has been laid out and painted, and the program exits.
#include <iostream>
#include <memory>

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include "ui/app_settings.h"
#include "ui/main_window.h"

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
  parser.addOption(rootOption);
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
  window.openGrammars(parser.positionalArguments(), parser.value(rootOption));

  if (!takeScreenshot) {
    window.show();
    return QApplication::exec();
  }

  window.resize(1280, 800);
  window.show();
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
