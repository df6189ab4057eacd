// The default memory budget of one Dynamic Syntax parse.
//
// The DS parser's DAG keeps every partial tree, so a long sentence can take more memory than the
// machine has; DsParseOptions::maxBytes bounds it. `gwb ds parse --max-memory` and the DS stepper
// start from this default. Sizes are read and printed with gwb/common/memory_budget.h's
// parseByteSize and formatBytes, like every other command's --max-memory.
#pragma once

#include <cstddef>

namespace gwb::ds {

// A quarter of physical memory (1 GiB when the system does not say).
std::size_t defaultParseMemoryBudget();

}  // namespace gwb::ds
