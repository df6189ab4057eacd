// Locating ../shared for tests and benchmarks.
//
// Tests that read real corpora, grammars or reference outputs call GWB_REQUIRE_SHARED(path):
// when the file is missing the test FAILS under CI (environment CI=true), where ../shared is
// always present beside the clone, and is SKIPPED with a clear message elsewhere.
#pragma once

#include <string>

namespace gwb::testing {

// The shared folder (GWB_SHARED_DIR from CMake, overridable by the environment variable).
std::string sharedDir();
// sharedDir() + "/" + relative.
std::string sharedPath(const std::string& relative);
bool fileExists(const std::string& path);
bool runningInCi();
// The project's source folder (for samples/ and tests/data/).
std::string sourceDir();

}  // namespace gwb::testing

// Use inside a TEST body: makes `var` the full path of `relative` under ../shared, or ends the
// test (failure in CI, skip elsewhere) when the file is not there.
#define GWB_REQUIRE_SHARED(var, relative)                                          \
  const std::string var = ::gwb::testing::sharedPath(relative);                    \
  if (!::gwb::testing::fileExists(var)) {                                          \
    if (::gwb::testing::runningInCi()) {                                           \
      FAIL() << "shared data missing in CI: " << var;                              \
    } else {                                                                       \
      GTEST_SKIP() << "shared data not found: " << var << " (set GWB_SHARED_DIR)"; \
    }                                                                              \
  }
