#include "fuzz_input.h"

#include <cstdio>
#include <cstdlib>

namespace gwb::fuzz {

void requireInvariant(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

}  // namespace gwb::fuzz
