// The one place the project includes Eigen (as KenLM's util/ does for its own dependencies): every
// file that needs matrices includes this header, so Eigen's options are set once, the same for
// every translation unit. The options:
//   EIGEN_MPL2_ONLY  only Eigen's MPL2-licensed modules; a module under another licence fails
//                    to compile instead of slipping in.
// Public headers include it only when their types hold Eigen matrices (topic_transitions.h,
// transition_counts.h); sources that use Eigen internally include it in the .cpp. A CTest test
// (tests/core_include_rules.cmake) fails if any other core file includes Eigen directly.
#pragma once

#ifndef EIGEN_MPL2_ONLY
#define EIGEN_MPL2_ONLY
#endif

#include <Eigen/Dense>  // IWYU pragma: export
