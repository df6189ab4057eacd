// The Distribution (gwb/common/distribution.h) over MPI: one rank per process that `mpirun`
// started, MPI_COMM_WORLD as the group. Only this target (gwb_mpi) sees MPI's headers.
#pragma once

#include <memory>

#include "gwb/common/distribution.h"

namespace gwb::mpi {

// True when this process was started by an MPI launcher (mpirun/mpiexec of OpenMPI, or a PMI
// launcher): only then does startMpi initialise MPI, so that a plain `gwb ...` never touches it.
bool launchedByMpirun();

// Initialises MPI (with threads: the caller's worker threads never call MPI themselves) and
// returns the world as a Distribution; MPI is finalised when it is destroyed.
std::unique_ptr<Distribution> startMpi(int& argc, char**& argv);

}  // namespace gwb::mpi
