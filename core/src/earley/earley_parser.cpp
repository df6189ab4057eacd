// EarleyParser's entry points; the forward pass itself is EarleyRun (earley_run.h).
#include "gwb/earley/earley_parser.h"

#include "earley/earley_run.h"

namespace gwb {

using earley_internal::EarleyRun;
using earley_internal::LinearNumeric;
using earley_internal::LogNumeric;

void EarleyParser::replaySet(const std::vector<std::string>& words, const ParseOptions& options,
                             const EarleyChart& chart, std::size_t set) {
  // A chart that borrows the finished sets (their items and waiting lists stay in `chart`'s
  // storage) and builds only set `set`, in buffers of its own.
  EarleyChart view;
  view.grammar_ = &grammar_;
  view.mode_ = chart.mode_;
  view.sets_ = chart.sets_;
  if (chart.mode_ == NumericMode::Log) {
    EarleyRun<LogNumeric>(grammar_, options, view).replaySet(words, set);
  } else {
    EarleyRun<LinearNumeric>(grammar_, options, view).replaySet(words, set);
  }
}

ParseResult EarleyParser::parse(const std::vector<std::string>& words,
                                const ParseOptions& options) {
  EarleyChart chart;
  return parse(words, options, chart);
}

ParseResult EarleyParser::parse(const std::vector<std::string>& words, const ParseOptions& options,
                                EarleyChart& chart) {
  if (options.mode == NumericMode::Log)
    return EarleyRun<LogNumeric>(grammar_, options, chart).run(words);
  return EarleyRun<LinearNumeric>(grammar_, options, chart).run(words);
}

}  // namespace gwb
