#include "bench_support.h"

#include <cstdlib>
#include <sys/resource.h>
#include <sys/stat.h>

namespace gwb::bench {

std::string sharedDir() {
  if (const char* env = std::getenv("GWB_SHARED_DIR"); env && *env != '\0') return env;
  return GWB_SHARED_DIR;
}

std::string sharedPath(const std::string& relative) { return sharedDir() + "/" + relative; }

bool requireShared(benchmark::State& state, const std::string& relative, std::string* path) {
  *path = sharedPath(relative);
  if (fileSize(*path) >= 0) return true;
  const std::string message = "shared data not found: " + *path +
                              " (set GWB_SHARED_DIR or configure with -DGWB_SHARED_DIR=...)";
  state.SkipWithError(message.c_str());
  return false;
}

long long fileSize(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return -1;
  return static_cast<long long>(info.st_size);
}

double peakRssMiB() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  // glibc's ru_maxrss is a union member; Linux reports it in KiB.
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // NOLINT(*-pro-type-union-access)
}

void reportPeakRss(benchmark::State& state) {
  state.counters["peak_rss_MiB"] = benchmark::Counter(peakRssMiB());
}

}  // namespace gwb::bench
