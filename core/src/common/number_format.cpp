#include "gwb/common/number_format.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace gwb {

std::string formatProbability(double value) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (ec != std::errc()) return std::to_string(value);
  return std::string(buffer, end);
}

std::string formatJavaDouble(double value) {
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (std::isnan(value)) return "NaN";
  std::string text = formatProbability(value);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

}  // namespace gwb
