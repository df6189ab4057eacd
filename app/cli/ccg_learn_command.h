// `gwb ccg train|evaluate|crossval` (ccg_learn_command.cpp), added under `gwb ccg`.
#pragma once

#include <CLI/CLI.hpp>

namespace gwb::cli {

void addCcgLearnCommands(CLI::App& ccg, int& exitStatus);

}  // namespace gwb::cli
