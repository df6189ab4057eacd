#include "shared_data.h"

#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace gwb::testing {

std::string sharedDir() {
  if (const char* env = std::getenv("GWB_SHARED_DIR"); env && *env) return env;
  return GWB_SHARED_DIR_DEFAULT;
}

std::string sharedPath(const std::string& relative) { return sharedDir() + "/" + relative; }

bool fileExists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

bool runningInCi() {
  const char* ci = std::getenv("CI");
  return ci && (std::strcmp(ci, "true") == 0 || std::strcmp(ci, "1") == 0);
}

std::string sourceDir() { return GWB_SOURCE_DIR; }

}  // namespace gwb::testing
