// grammar-workbench [FILE...] [--view PAGE] [options...] [--screenshot OUT.png]
//
// The workbench's thin main: names the application, reads the command line
// (gwb::ui::parseGuiOptions, ui/frame/gui_options.h — `--help` lists every option) and runs the
// window as the options say (gwb::ui::runWorkbench, ui/frame/workbench_startup.h). An option
// it does not know or a value it cannot read is an error: a message naming the option, exit 1.
#include <iostream>

#include <QApplication>

#include "ui/frame/gui_options.h"
#include "ui/frame/workbench_startup.h"

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("GrammarWorkbench"));
  QApplication::setOrganizationDomain(QStringLiteral("grammar-workbench.org"));
  QApplication::setApplicationName(QStringLiteral("Grammar Workbench"));
  QApplication::setApplicationVersion(QStringLiteral(GWB_VERSION));

  const gwb::ui::GuiCommandLine command = gwb::ui::parseGuiOptions(QApplication::arguments());
  switch (command.action) {
    case gwb::ui::GuiCommandLine::Action::ShowHelp:
      std::cout << command.text.toStdString();
      return 0;
    case gwb::ui::GuiCommandLine::Action::ShowVersion:
      std::cout << QApplication::applicationName().toStdString() << ' '
                << QApplication::applicationVersion().toStdString() << '\n';
      return 0;
    case gwb::ui::GuiCommandLine::Action::Error:
      std::cerr << "grammar-workbench: " << command.text.toStdString() << '\n';
      return 1;
    case gwb::ui::GuiCommandLine::Action::Run: break;
  }
  return gwb::ui::runWorkbench(command.options);
}
