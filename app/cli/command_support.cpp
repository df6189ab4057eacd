#include "command_support.h"

#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "gwb/common/memory_budget.h"

namespace gwb::cli {

void addMaxMemoryOption(CLI::App& command) {
  const auto apply = [](const std::string& text) {
    if (const auto bytes = parseByteSize(text)) setMemoryBudget(*bytes);
  };
  const CLI::Validator size(
      [](std::string& text) {
        std::string error;
        return parseByteSize(text, &error) ? std::string() : error;
      },
      "SIZE");
  command
      .add_option_function<std::string>(
          "--max-memory", apply,
          "memory budget for the parse charts, e.g. 512M or 4G (0: no limit; default " +
              formatBytes(defaultMemoryBudget()) + ", " +
              std::to_string(static_cast<int>(kDefaultMemoryFraction * 100)) +
              "% of physical memory or of ulimit -v)")
      ->check(size);
}

int runGuarded(const std::function<int()>& run) {
  try {
    return run();
  } catch (const MemoryBudgetExceeded& e) {
    std::cerr << "gwb: " << e.what() << "; raise the budget with --max-memory (0: no limit)\n";
  } catch (const std::bad_alloc& e) {
    std::cerr << "gwb: " << outOfMemoryMessage(e)
              << "; the machine (or ulimit -v) has no more memory to give\n";
  } catch (const std::exception& e) {
    std::cerr << "gwb: internal error: " << e.what() << '\n';
  }
  return 1;
}

namespace {
Distribution* currentDistribution = nullptr;
}  // namespace

Distribution& distribution() {
  return currentDistribution != nullptr ? *currentDistribution : singleProcess();
}

void setDistribution(Distribution* ranks) { currentDistribution = ranks; }

namespace {
bool failedTogether = false;
}  // namespace

int failedOnEveryRank(const Distribution& ranks, int status) {
  if (ranks.size() > 1) failedTogether = true;
  return status;
}

bool everyRankFailedTogether() { return failedTogether; }

}  // namespace gwb::cli
