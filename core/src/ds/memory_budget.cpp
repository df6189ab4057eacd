#include "gwb/ds/memory_budget.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace gwb::ds {

std::size_t physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
}

std::size_t defaultParseMemoryBudget() {
  const std::size_t physical = physicalMemoryBytes();
  return physical > 0 ? physical / 4 : std::size_t{1} << 30;
}

std::optional<std::size_t> parseByteSize(std::string_view text, std::string* error) {
  auto fail = [&]() -> std::optional<std::size_t> {
    if (error != nullptr)
      *error = "expected a size in bytes such as 800000000, 512M, 3G or 1.5GiB, found '" +
               std::string(text) + "'";
    return std::nullopt;
  };
  std::size_t i = 0;
  double number = 0.0;
  bool digits = false;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
    number = number * 10 + (text[i++] - '0');
    digits = true;
  }
  if (i < text.size() && text[i] == '.') {
    double scale = 0.1;
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0; ++i) {
      number += scale * (text[i] - '0');
      scale /= 10;
      digits = true;
    }
  }
  if (!digits) return fail();
  while (i < text.size() && text[i] == ' ') ++i;
  std::string unit;
  for (; i < text.size(); ++i)
    unit += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
  double multiplier = 1.0;
  if (!unit.empty() && unit != "B") {
    const std::string_view prefixes = "KMGT";
    const std::size_t p = prefixes.find(unit[0]);
    const std::string_view rest = std::string_view(unit).substr(1);
    if (p == std::string_view::npos || !(rest.empty() || rest == "B" || rest == "IB"))
      return fail();
    multiplier = std::pow(1024.0, static_cast<double>(p + 1));
  }
  const double bytes = std::floor(number * multiplier);
  if (bytes < 1 || bytes >= 9.2e18) return fail();
  return static_cast<std::size_t>(bytes);
}

std::string formatBytes(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buffer[32];
  if (unit == 0 || value >= 100)
    std::snprintf(buffer, sizeof buffer, "%.0f %s", value, units[unit]);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f %s", value, units[unit]);
  return buffer;
}

}  // namespace gwb::ds
