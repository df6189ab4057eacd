#include "gwb/earley/batch_parse.h"

#include <memory>
#include <optional>
#include <stdexcept>

#include "gwb/common/memory_budget.h"

namespace gwb {

BatchParse parseBatch(const CompiledGrammar& grammar,
                      const std::vector<std::vector<std::string>>& sentences,
                      const BatchParseOptions& options) {
  if (options.parse.observer != nullptr)
    throw std::invalid_argument("parseBatch: a parse observer cannot watch several parses");
  BatchParse out;
  out.results.resize(sentences.size());
  for (ParseResult& r : out.results) r.cancelled = true;
  out.outcome = runBatch(sentences.size(), options.control, [&]() -> BatchWorker {
    auto parser = std::make_shared<EarleyParser>(grammar);
    auto chart = std::make_shared<EarleyChart>();
    return [&, parser, chart](std::size_t item) {
      const std::vector<std::string>& words = sentences[item];
      std::optional<MemoryContext> described;
      if (options.describeItem) described.emplace(options.describeItem(item));
      const MemoryContext length("a sentence of " + std::to_string(words.size()) + " words");
      ParseResult result = parser->parse(words, options.parse, *chart);
      if (options.inspectChart) options.inspectChart(item, result, *chart);
      out.results[item] = std::move(result);
    };
  });
  return out;
}

}  // namespace gwb
