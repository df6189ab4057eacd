#include "ui/common/value_format.h"

#include <cmath>

#include <QLatin1Char>

namespace gwb::ui {

QString numberFormatKey(NumberFormat format) {
  switch (format) {
    case NumberFormat::Probability: return QStringLiteral("probability");
    case NumberFormat::LogProbability: return QStringLiteral("log");
    case NumberFormat::Scaled: return QStringLiteral("scaled");
  }
  return QStringLiteral("probability");
}

NumberFormat numberFormatFromKey(const QString& key) {
  if (key == QLatin1String("log")) return NumberFormat::LogProbability;
  if (key == QLatin1String("scaled")) return NumberFormat::Scaled;
  return NumberFormat::Probability;
}

QString formatPlain(double value, int digits) {
  if (std::isnan(value)) return QStringLiteral("nan");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return QString::number(value, 'g', digits);
}

QString formatLog(double logProbability, int decimals) {
  if (std::isinf(logProbability))
    return logProbability > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  if (std::isnan(logProbability)) return QStringLiteral("nan");
  // Avoid "-0.000" for log 1.
  if (std::abs(logProbability) < 0.5 * std::pow(10.0, -decimals)) return QStringLiteral("0");
  return QString::number(logProbability, 'f', decimals);
}

QString formatProbabilityFromLog(double logProbability, int digits) {
  if (std::isnan(logProbability)) return QStringLiteral("nan");
  if (std::isinf(logProbability) && logProbability < 0) return QStringLiteral("0");
  constexpr double kLn10 = 2.302585092994045684;
  const double log10 = logProbability / kLn10;
  // Ordinary magnitudes: let QString choose between fixed and exponent notation.
  if (log10 > -300.0 && log10 < 300.0) return formatPlain(std::exp(logProbability), digits);
  // Beyond double range: mantissa and exponent computed from the logarithm.
  double exponent = std::floor(log10);
  double mantissa = std::pow(10.0, log10 - exponent);
  const double roundTo = std::pow(10.0, digits - 1);
  mantissa = std::round(mantissa * roundTo) / roundTo;
  if (mantissa >= 10.0) {
    mantissa /= 10.0;
    exponent += 1.0;
  }
  return QString::number(mantissa, 'g', digits) % QLatin1Char('e') %
         (exponent < 0 ? QStringLiteral("-") : QStringLiteral("+")) %
         QString::number(static_cast<qint64>(std::abs(exponent)));
}

QString formatReadableProbabilityFromLog(double logProbability, int digits) {
  constexpr double kSmallestPlain = -13.815510557964274;  // ln 1e-6
  if (std::isnan(logProbability) || logProbability >= kSmallestPlain ||
      (std::isinf(logProbability) && logProbability < 0))
    return formatProbabilityFromLog(logProbability, digits);
  constexpr double kLn10 = 2.302585092994045684;
  return QStringLiteral("10^") % QString::number(logProbability / kLn10, 'f', 2);
}

}  // namespace gwb::ui
