#include "gwb/common/memory_budget.h"

#include <atomic>
#include <cctype>
#include <cmath>
#include <exception>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace gwb {

namespace {

std::atomic<std::uint64_t> budget{0};
std::atomic<std::uint64_t> reserved{0};

thread_local std::vector<std::string> contexts;
// The contexts that were live when an exception last unwound through a MemoryContext.
thread_local std::string unwoundContext;

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += ", ";
    out += part;
  }
  return out;
}

[[noreturn]] void throwExceeded(std::uint64_t total, std::string_view what) {
  std::string message = "out of memory";
  const std::string context = currentMemoryContext();
  if (!context.empty()) message += " while " + context;
  message += ": " + std::string(what) + " would need " + formatBytes(total) +
             ", over the memory budget of " + formatBytes(budget.load());
  throw MemoryBudgetExceeded(std::move(message));
}

}  // namespace

std::uint64_t physicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
}

std::uint64_t defaultMemoryBudget() {
  std::uint64_t limit = physicalMemoryBytes();
  struct rlimit addressSpace {};
  if (::getrlimit(RLIMIT_AS, &addressSpace) == 0 && addressSpace.rlim_cur != RLIM_INFINITY) {
    const auto cap = static_cast<std::uint64_t>(addressSpace.rlim_cur);
    if (limit == 0 || cap < limit) limit = cap;
  }
  return static_cast<std::uint64_t>(static_cast<double>(limit) * kDefaultMemoryFraction);
}

std::optional<std::uint64_t> parseByteSize(std::string_view text, std::string* error) {
  const auto fail = [&]() -> std::optional<std::uint64_t> {
    if (error)
      *error = "expected a size such as 512M, 4G or 1048576 (bytes; units K, M, G, T), found '" +
               std::string(text) + "'";
    return std::nullopt;
  };
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  if (i == 0) return fail();
  double number = 0.0;
  try {
    std::size_t used = 0;
    const std::string digits(text.substr(0, i));
    number = std::stod(digits, &used);
    if (used != digits.size()) return fail();
  } catch (const std::exception&) {
    return fail();
  }
  std::string unit;
  for (char c : text.substr(i))
    unit += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double scale = 1.0;
  if (!unit.empty() && unit != "B") {
    const std::string_view prefixes = "KMGT";
    const std::size_t power = prefixes.find(unit.front());
    const std::string rest = unit.substr(1);
    if (power == std::string_view::npos || !(rest.empty() || rest == "B" || rest == "IB"))
      return fail();
    scale = std::pow(1024.0, static_cast<double>(power + 1));
  }
  const double bytes = number * scale;
  if (!std::isfinite(bytes) || bytes >= 1.8e19) return fail();
  return static_cast<std::uint64_t>(bytes);
}

std::string formatBytes(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  std::ostringstream out;
  const double tenths = std::round(value * 10.0) / 10.0;
  if (tenths == std::floor(tenths)) {
    out << static_cast<std::uint64_t>(tenths);
  } else {
    out.setf(std::ios::fixed);
    out.precision(1);
    out << tenths;
  }
  out << ' ' << units[unit];
  return out.str();
}

void setMemoryBudget(std::uint64_t bytes) { budget = bytes; }
std::uint64_t memoryBudget() { return budget.load(); }
std::uint64_t reservedMemory() { return reserved.load(); }

void reserveMemory(std::uint64_t bytes, std::string_view what) {
  std::uint64_t before = reserved.load();
  for (;;) {
    const std::uint64_t limit = budget.load();
    const std::uint64_t after = before + bytes;
    if (limit != 0 && (after > limit || after < before)) throwExceeded(after, what);
    if (reserved.compare_exchange_weak(before, after)) return;
  }
}

void releaseMemory(std::uint64_t bytes) { reserved -= bytes; }

void checkMemoryEstimate(std::uint64_t bytes, std::string_view what) {
  const std::uint64_t limit = budget.load();
  const std::uint64_t before = reserved.load();
  const std::uint64_t after = before + bytes;
  if (limit != 0 && (after > limit || after < before)) throwExceeded(after, what);
}

MemoryContext::MemoryContext(std::string description)
    : uncaughtAtStart_(std::uncaught_exceptions()) {
  if (contexts.empty()) unwoundContext.clear();
  contexts.push_back(std::move(description));
}

MemoryContext::~MemoryContext() {
  if (std::uncaught_exceptions() > uncaughtAtStart_ && unwoundContext.empty())
    unwoundContext = joined(contexts);
  contexts.pop_back();
}

std::string currentMemoryContext() { return joined(contexts); }

std::string outOfMemoryMessage(const std::bad_alloc& failure) {
  if (const auto* exceeded = dynamic_cast<const MemoryBudgetExceeded*>(&failure))
    return exceeded->what();
  // The unwound context is the deeper one when the failure came from inside the live ones.
  std::string context = currentMemoryContext();
  if (unwoundContext.size() > context.size()) context = unwoundContext;
  std::string message = "out of memory";
  if (!context.empty()) message += " while " + context;
  message += " (" + std::string(failure.what()) + ")";
  return message;
}

}  // namespace gwb
