// gwb: the command-line twin of Grammar Workbench. Every workbench feature runs headless here.
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "command_support.h"
#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/memory_budget.h"
#ifdef GWB_WITH_MPI
#include "gwb/mpi/mpi_distribution.h"
#endif

int main(int argc, char** argv) {
  // Under mpirun every rank runs this main; rank 0 alone writes to stdout (the commands that
  // distribute their work gather the results there), and a rank that fails ends the whole job.
  std::unique_ptr<gwb::Distribution> world;
#ifdef GWB_WITH_MPI
  if (gwb::mpi::launchedByMpirun()) world = gwb::mpi::startMpi(argc, argv);
#endif
  gwb::Distribution& ranks = world ? *world : gwb::singleProcess();
  gwb::cli::setDistribution(&ranks);
  if (!ranks.leader()) std::cout.setstate(std::ios::badbit);
  CLI::App app{
      "gwb — Grammar Workbench on the command line: grammars, Earley parsing, "
      "induction, Dynamic Syntax"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gwb ") + GWB_VERSION);
  gwb::setMemoryBudget(gwb::defaultMemoryBudget());
  // Fault injection for the tests of output sets (tests/cli/output_sets.sh): "N" makes the
  // process kill itself (SIGKILL, as `kill -9` would) after renaming N files of a set into
  // place; "N:TERM" sends itself SIGTERM instead.
  if (const char* fault = std::getenv("GWB_TEST_KILL_AFTER_RENAMES")) {
    char* rest = nullptr;
    const std::size_t after = std::strtoul(fault, &rest, 10);
    const int signal = std::string(rest) == ":TERM" ? SIGTERM : SIGKILL;
    gwb::setOutputSetRenameHook([after, signal](std::size_t renamed) {
      if (renamed == after) std::raise(signal);
    });
  }
  int exitStatus = 0;
  gwb::cli::addGrammarCommands(app, exitStatus);
  gwb::cli::addParseCommand(app, exitStatus);
  gwb::cli::addDsCommand(app, exitStatus);
  gwb::cli::addGroundedCommands(app, exitStatus);
  gwb::cli::addExperimentCommand(app, exitStatus);
  gwb::cli::addInduceCommand(app, exitStatus);
  gwb::cli::addOutputsCommand(app, exitStatus);
  gwb::cli::addCcgCommand(app, exitStatus);
  const int status = gwb::cli::runGuarded([&] {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    return exitStatus;
  });
  // The other ranks may be waiting for this one in a collective operation: stop them all (the
  // error itself has been printed). Not when every rank failed at the same point: they all end
  // by themselves, and rank 0's message is not cut off.
  if (status != 0 && ranks.size() > 1 && !gwb::cli::everyRankFailedTogether())
    ranks.abort("gwb: stopping all ranks after an error (exit status " + std::to_string(status) +
                ")");
  return status;
}
