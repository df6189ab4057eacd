// How the stepper shows probabilities: as probabilities, as natural-log probabilities, or as
// the scaled values the parser actually stores.
//
// Probabilities on a long discourse fall far below the smallest double (a 2,000-word prefix
// has probability around e^-9000), so they are always formatted from their logarithm:
// "0.35", "1.2e-05", "3.1e-3912" — never "0". Only a true zero (log = -inf) prints as 0.
#pragma once

#include <QString>

namespace gwb::ui {

enum class NumberFormat { Probability, LogProbability, Scaled };

// "probability" / "log" / "scaled", for workspace files; and back (Probability if unknown).
QString numberFormatKey(NumberFormat format);
NumberFormat numberFormatFromKey(const QString& key);

// A probability given by its natural logarithm, with `digits` significant digits.
QString formatProbabilityFromLog(double logProbability, int digits = 4);
// For readers rather than for checking digits: a probability of at least 1e-6 as by
// formatProbabilityFromLog ("0.35", "1.2e-05"); a smaller one as a power of ten with its
// log10 ("10^-209.14"), which a reader can compare at a glance where "7.3e-210" cannot be.
QString formatReadableProbabilityFromLog(double logProbability, int digits = 4);
// A log probability ("-3.412"; "-inf").
QString formatLog(double logProbability, int decimals = 3);
// A plain double with `digits` significant digits ("0.35", "1.2e-05").
QString formatPlain(double value, int digits = 4);

}  // namespace gwb::ui
