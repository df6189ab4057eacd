// gwb: the command-line twin of Grammar Workbench. Every workbench feature runs headless here.
#include <iostream>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"gwb — Grammar Workbench on the command line: grammars, Earley parsing, "
               "induction, Dynamic Syntax"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gwb ") + GWB_VERSION);
  int exitStatus = 0;
  gwb::cli::addGrammarCommands(app, exitStatus);
  gwb::cli::addParseCommand(app, exitStatus);
  gwb::cli::addDsCommand(app, exitStatus);
  gwb::cli::addGroundedCommands(app, exitStatus);
  gwb::cli::addExperimentCommand(app, exitStatus);
  gwb::cli::addInduceCommand(app, exitStatus);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return exitStatus;
}
