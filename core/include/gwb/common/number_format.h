// Numbers as text, the one way every writer of the project prints them: the shortest decimal
// text that reads back to exactly the same double (std::to_chars), so that a grammar, a CSV or a
// trace written and read again holds the same bits.
#pragma once

#include <string>

namespace gwb {

// Shortest text that reads back to exactly `value` ("0.5", "1e-10", "1e+10", "inf", "nan").
std::string formatProbability(double value);
// Java's Double.toString, closely enough for Earleyx-compatible files: formatProbability with at
// least one decimal ("0.0", "4.0"), and "Infinity", "-Infinity", "NaN".
std::string formatJavaDouble(double value);

}  // namespace gwb
