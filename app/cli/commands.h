// The `gwb` command line: each command group registers its subcommands on the CLI11 app.
// A command's callback stores its exit status in `exitStatus` (0 ok, 1 bad input / failure).
#pragma once

#include <CLI/CLI.hpp>

namespace gwb::cli {

void addGrammarCommands(CLI::App& app, int& exitStatus);
void addParseCommand(CLI::App& app, int& exitStatus);
void addDsCommand(CLI::App& app, int& exitStatus);
// `gwb ds evaluate` and `gwb ds learn`, registered on the `ds` group by addDsCommand.
void addDsLearnCommands(CLI::App& ds, int& exitStatus);
void addGroundedCommands(CLI::App& app, int& exitStatus);
void addExperimentCommand(CLI::App& app, int& exitStatus);
void addInduceCommand(CLI::App& app, int& exitStatus);
void addOutputsCommand(CLI::App& app, int& exitStatus);
void addCcgCommand(CLI::App& app, int& exitStatus);

}  // namespace gwb::cli
