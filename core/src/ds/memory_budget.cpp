#include "gwb/ds/memory_budget.h"

#include "gwb/common/memory_budget.h"

namespace gwb::ds {

std::size_t defaultParseMemoryBudget() {
  const std::uint64_t physical = physicalMemoryBytes();
  return physical > 0 ? static_cast<std::size_t>(physical / 4) : std::size_t{1} << 30;
}

}  // namespace gwb::ds
