#include "gwb/ds/lexicon_evaluation.h"

#include <mutex>

#include "common/parallel.h"

namespace gwb::ds {

namespace {

RecordType asRecord(const FormulaPtr& f) {
  if (f && f->isRecord()) return f->recordType();
  return RecordType();
}

}  // namespace

ItemEvaluation evaluateItem(const DsParser& parser, const SemanticExample& example,
                            const DsParseOptions& options) {
  ItemEvaluation item;
  item.sentence = example.sentence;
  item.line = example.line;
  item.gold = example.semantics;
  const std::vector<std::string> words = splitWords(example.sentence);
  const DsParseResult r = parser.parse(words, options);
  item.outcome = r.outcome;
  item.failedWord = r.failedWord;
  item.truncated = r.truncated;
  if (r.outcome == ParseOutcome::Parsed) {
    item.parsed = asRecord(r.rootFormula);
    if (item.parsed.empty()) item.parsed = asRecord(r.maximalSemantics);
  } else if (r.outcome == ParseOutcome::Incomplete) {
    item.parsed = asRecord(r.maximalSemantics);
  }
  item.mapping = maxMapping(item.parsed, item.gold);
  if (!item.covered()) {
    item.mapping.score = 0;
    item.mapping.pairs.clear();
  }
  return item;
}

std::vector<ItemEvaluation> evaluateLexicon(const DsGrammar& grammar,
                                            const std::vector<SemanticExample>& corpus,
                                            const LexiconEvaluationOptions& options) {
  const DsParser parser(grammar);
  std::vector<ItemEvaluation> items(corpus.size());
  std::vector<bool> done(corpus.size(), false);
  std::atomic<std::size_t> next{0};
  std::size_t finished = 0;
  std::mutex progressMutex;
  DsParseOptions parseOptions = options.parse;
  if (options.cancel != nullptr) parseOptions.cancel = options.cancel;
  parallel::runOnThreads(options.threads, [&] {
    for (;;) {
      if (options.cancel != nullptr && options.cancel->load()) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= corpus.size()) return;
      ItemEvaluation item = evaluateItem(parser, corpus[i], parseOptions);
      if (options.cancel != nullptr && options.cancel->load()) return;
      items[i] = std::move(item);
      std::lock_guard<std::mutex> lock(progressMutex);
      done[i] = true;
      ++finished;
      if (options.progress) options.progress(finished, corpus.size());
    }
  });
  // Keep the items finished before a cancel, in corpus order, up to the first missing one.
  std::size_t kept = 0;
  while (kept < items.size() && done[kept]) ++kept;
  items.resize(kept);
  return items;
}

EvaluationSummary summarize(const std::vector<ItemEvaluation>& items) {
  EvaluationSummary s;
  double score = 0;
  double hypothesisFields = 0;
  double goldFields = 0;
  for (const ItemEvaluation& item : items) {
    ++s.items;
    s.truncated += item.truncated ? 1 : 0;
    goldFields += item.mapping.goldSize;
    if (!item.covered()) continue;
    ++s.covered;
    s.complete += item.complete() ? 1 : 0;
    s.macroPrecision += item.mapping.precision();
    s.macroRecall += item.mapping.recall();
    s.macroF += item.mapping.f();
    score += item.mapping.score;
    hypothesisFields += item.mapping.hypothesisSize;
  }
  if (s.items > 0) {
    s.macroPrecision /= s.items;
    s.macroRecall /= s.items;
    s.macroF /= s.items;
  }
  s.microPrecision = hypothesisFields > 0 ? score / hypothesisFields : 0.0;
  s.microRecall = goldFields > 0 ? score / goldFields : 0.0;
  const double pr = s.microPrecision + s.microRecall;
  s.microF = pr > 0 ? 2 * s.microPrecision * s.microRecall / pr : 0.0;
  return s;
}

}  // namespace gwb::ds
