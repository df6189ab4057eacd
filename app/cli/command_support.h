// What every `gwb` command shares: the --max-memory option and the top-level handling of a
// run that runs out of memory (memory_budget.h) or meets an unexpected error, so that no
// command ends in an abort.
#pragma once

#include <CLI/CLI.hpp>

#include "gwb/common/distribution.h"

namespace gwb::cli {

// Adds --max-memory SIZE ("512M", "4G", 0 for no limit) to `command`; its value replaces the
// default budget (a share of physical memory) set by main before the command line is parsed.
void addMaxMemoryOption(CLI::App& command);

// Runs `run` (a command's body) and turns an allocation failure or a stray exception into a
// message on stderr and exit status 1.
int runGuarded(const std::function<int()>& run);

// The ranks this process is one of: MPI's world under `mpirun` (when built with GWB_WITH_MPI),
// else a single process. main sets it before the commands run.
Distribution& distribution();
void setDistribution(Distribution* ranks);

// For an error every rank of `ranks` meets at the same point, after the same collective
// operations (rank 0 read a checkpoint and broadcast it, and every rank refuses it): rank 0 has
// printed it, and every rank returns `status`. When `ranks` is more than one process, main then
// lets them end on their own instead of stopping the job, which could kill rank 0 before its
// message is out. Returns `status`.
int failedOnEveryRank(const Distribution& ranks, int status);
// Whether a command said so (for main).
bool everyRankFailedTogether();

}  // namespace gwb::cli
