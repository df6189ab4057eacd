#include "gwb/common/distribution.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace gwb {

void SingleProcess::abort(const std::string& message) {
  std::cerr << message << std::endl;
  std::exit(1);
}

void SingleProcess::send(int, const std::string&) {
  throw std::logic_error("distribution: a single process has no other rank to send to");
}

std::string SingleProcess::receiveFromAny(int*) {
  throw std::logic_error("distribution: a single process has no other rank to receive from");
}

Distribution& singleProcess() {
  static SingleProcess one;
  return one;
}

std::vector<std::size_t> balancedRanges(const std::vector<std::size_t>& costs, int parts) {
  const auto count = static_cast<std::size_t>(std::max(1, parts));
  long double total = 0;
  for (std::size_t cost : costs) total += static_cast<long double>(cost);
  std::vector<std::size_t> bounds(count + 1, costs.size());
  bounds[0] = 0;
  // Range p ends at the first item whose running cost reaches p+1 shares of the total (rounded
  // to the nearer item boundary), so that the parts differ by at most about one item.
  long double running = 0;
  std::size_t item = 0;
  for (std::size_t p = 1; p < count; ++p) {
    const long double target =
        total * static_cast<long double>(p) / static_cast<long double>(count);
    while (item < costs.size()) {
      const long double next = running + static_cast<long double>(costs[item]);
      if (next > target && next - target > target - running) break;
      running = next;
      ++item;
      if (running >= target) break;
    }
    bounds[p] = item;
  }
  return bounds;
}

}  // namespace gwb
