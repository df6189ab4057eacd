#include "gwb/earley/inside_outside.h"

namespace gwb {

ExpectedCounts accumulateExpectedCounts(const CompiledGrammar& grammar,
                                        const std::vector<std::string>& words, NumericMode mode,
                                        std::vector<double>& counts) {
  ParseOptions options;
  options.mode = mode;
  options.viterbi = false;
  const ParseResult result = EarleyParser(grammar).parseWithCounts(words, options, counts);
  ExpectedCounts out;
  out.parsed = result.success;
  out.logProbability = result.logProbability;
  return out;
}

}  // namespace gwb
