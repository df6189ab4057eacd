#include "gwb/earley/induction_estep.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

#include "common/parallel.h"
#include "gwb/common/diagnostic.h"
#include "gwb/common/distribution.h"

namespace gwb {

namespace {

// A word that is no terminal of the grammar, with no unknown-word model to stand in: the
// sentence cannot parse, and is not handed to the E-step at all.
bool hasUnknownWord(const CompiledGrammar& grammar, const std::vector<std::string>& words) {
  if (grammar.hasUnknownWordModel()) return false;
  const SymbolTable& symbols = grammar.symbols();
  return std::any_of(words.begin(), words.end(),
                     [&](const std::string& w) { return !symbols.findTerminal(w).has_value(); });
}

// Chunk c is sentences [starts[c], starts[c + 1]): the fewest consecutive sentences with at
// least `chunkTokens` tokens (a long discourse is a chunk of its own).
std::vector<std::size_t> chunkStarts(const std::vector<std::vector<std::string>>& sentences,
                                     std::size_t chunkTokens) {
  std::vector<std::size_t> starts;
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    if (tokens == 0) starts.push_back(i);
    tokens += sentences[i].size();
    if (tokens >= std::max<std::size_t>(1, chunkTokens)) tokens = 0;
  }
  starts.push_back(sentences.size());
  return starts;
}

// Adds one chunk's sums to the total: the one place where chunks are summed, in chunk order.
void addChunk(ExpectationResult& result, const std::vector<double>& counts, double negLogLikelihood,
              const std::vector<std::size_t>& failed) {
  for (std::size_t r = 0; r < counts.size(); ++r) result.counts[r] += counts[r];
  result.negLogLikelihood += negLogLikelihood;
  result.failedSentences.insert(result.failedSentences.end(), failed.begin(), failed.end());
}

}  // namespace

ExpectationResult runExpectationStep(const CompiledGrammar& grammar,
                                     const std::vector<std::vector<std::string>>& sentences,
                                     const InductionOptions& options,
                                     const InductionControl& control, int iteration) {
  const std::size_t ruleCount = grammar.grammar().ruleCount();
  const std::vector<std::size_t> starts = chunkStarts(sentences, options.chunkTokens);
  const std::size_t chunkCount = starts.size() - 1;
  std::vector<std::size_t> chunkTokens(chunkCount, 0);
  for (std::size_t c = 0; c < chunkCount; ++c) {
    for (std::size_t i = starts[c]; i < starts[c + 1]; ++i) chunkTokens[c] += sentences[i].size();
  }
  // Over several ranks (distribution.h), each computes a consecutive range of chunks, balanced
  // by tokens; rank 0 gathers every chunk's sums and adds them up in chunk order — the very
  // additions one process makes — and broadcasts the total, so that the result is bitwise that
  // of one process for any number of ranks and threads.
  Distribution& ranks = control.distribution != nullptr ? *control.distribution : singleProcess();
  const bool distributed = ranks.size() > 1;
  std::size_t firstChunk = 0;
  std::size_t endChunk = chunkCount;
  if (distributed) {
    std::vector<std::size_t> costs = chunkTokens;
    for (std::size_t& cost : costs) ++cost;
    const std::vector<std::size_t> bounds = balancedRanges(costs, ranks.size());
    firstChunk = bounds[static_cast<std::size_t>(ranks.rank())];
    endChunk = bounds[static_cast<std::size_t>(ranks.rank()) + 1];
  }
  const std::size_t localChunks = endChunk - firstChunk;
  const std::size_t total = starts[endChunk] - starts[firstChunk];
  const std::size_t threads = std::max<std::size_t>(
      1, std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.threads)),
                               std::max<std::size_t>(1, localChunks)));
  const ExpectationStep step =
      control.expectationStep ? control.expectationStep : ExpectationStep(accumulateExpectedCounts);

  ExpectationResult result;
  result.counts.assign(ruleCount, 0.0);

  // Chunk c is computed in slot c % window and may start only once chunk c − window has been
  // added to the total, which bounds memory to `window` count vectors. A wide window keeps
  // every thread busy while one works through a long chunk (a whole recording, for the
  // discourse grammar) that the in-order reduction has to wait for. Among the chunks the window
  // admits, the one with the most tokens starts first, so that the last to finish are short
  // (the 24 recordings differ eightfold in length); the sums are still taken in chunk order.
  struct Slot {
    std::vector<double> counts;
    double negLogLikelihood = 0.0;
    std::vector<std::size_t> failed;
    bool ready = false;
  };
  const std::size_t window = 8 * threads;
  std::vector<Slot> slots(window);
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<char> started(chunkCount, 0);
  std::size_t startedCount = 0;
  std::size_t firstNotStarted = firstChunk;
  std::size_t reduced = firstChunk;
  ByteWriter chunkSums;  // distributed: this rank's chunks, in order, for rank 0
  bool stop = false;
  bool cancelled = false;
  std::mutex progressMutex;
  std::size_t done = 0;

  // Parses the sentences of `chunk` into `slot`; false when cancelled.
  const auto computeChunk = [&](std::size_t chunk, Slot& slot) {
    slot.counts.assign(ruleCount, 0.0);
    slot.negLogLikelihood = 0.0;
    slot.failed.clear();
    for (std::size_t i = starts[chunk]; i < starts[chunk + 1]; ++i) {
      if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed)) {
        return false;
      }
      const ExpectedCounts counted = hasUnknownWord(grammar, sentences[i])
                                         ? ExpectedCounts{}
                                         : step(grammar, sentences[i], options.mode, slot.counts);
      if (counted.parsed && std::isfinite(counted.logProbability)) {
        slot.negLogLikelihood -= counted.logProbability;
      } else {
        slot.failed.push_back(i);
      }
      if (control.observer != nullptr) {
        std::lock_guard<std::mutex> lock(progressMutex);
        control.observer->onProgress(iteration, ++done, total);
      }
    }
    return true;
  };
  // With `mutex` held: adds every finished chunk that is next in order to the total, so the
  // sum is the same whichever thread computed which chunk (distributed: keeps it for rank 0).
  const auto drainReadyChunks = [&] {
    while (reduced < endChunk && slots[reduced % window].ready) {
      Slot& next = slots[reduced % window];
      if (distributed) {
        chunkSums.putDoubles(next.counts);
        chunkSums.put<double>(next.negLogLikelihood);
        chunkSums.put<std::uint64_t>(next.failed.size());
        for (std::size_t i : next.failed) chunkSums.put<std::uint64_t>(i);
      } else {
        addChunk(result, next.counts, next.negLogLikelihood, next.failed);
      }
      next.ready = false;
      ++reduced;
    }
  };
  // With `mutex` held: the longest chunk not started that the window admits, or chunkCount.
  const auto chunkToStart = [&] {
    std::size_t best = chunkCount;
    const std::size_t end = std::min(endChunk, reduced + window);
    for (std::size_t c = firstNotStarted; c < end; ++c) {
      if (started[c] == 0 && (best == chunkCount || chunkTokens[c] > chunkTokens[best])) best = c;
    }
    return best;
  };
  const auto worker = [&]() {
    try {
      for (;;) {
        std::size_t chunk = chunkCount;
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] {
            if (stop || startedCount == localChunks) return true;
            chunk = chunkToStart();
            return chunk < chunkCount;
          });
          if (stop || startedCount == localChunks) return;
          started[chunk] = 1;
          ++startedCount;
          while (firstNotStarted < endChunk && started[firstNotStarted] != 0) ++firstNotStarted;
        }
        Slot& slot = slots[chunk % window];
        if (!computeChunk(chunk, slot)) {
          std::lock_guard<std::mutex> lock(mutex);
          stop = true;
          cancelled = true;
          changed.notify_all();
          return;
        }
        std::lock_guard<std::mutex> lock(mutex);
        slot.ready = true;
        drainReadyChunks();
        changed.notify_all();
      }
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        stop = true;  // the other threads stop at their next chunk
        changed.notify_all();
      }
      throw;  // runOnThreads hands the first one to the caller
    }
  };
  parallel::runOnThreads(static_cast<int>(threads), worker);
  result.cancelled = cancelled;
  if (!distributed) return result;

  // Every rank stops if any was cancelled (so none waits for the others' sums in vain).
  result.cancelled = !ranks.allTrue(!cancelled);
  if (result.cancelled) return result;
  const std::vector<std::string> parts = ranks.gather(chunkSums.bytes());
  std::string summed;
  if (ranks.leader()) {
    for (const std::string& part : parts) {
      ByteReader reader(part);
      while (!reader.atEnd()) {
        const std::vector<double> counts = reader.getDoubles();
        if (counts.size() != ruleCount)
          throw std::runtime_error("E-step: a rank sent counts of another grammar");
        const double negLogLikelihood = reader.get<double>();
        std::vector<std::size_t> failed(static_cast<std::size_t>(reader.get<std::uint64_t>()));
        for (std::size_t& i : failed) i = static_cast<std::size_t>(reader.get<std::uint64_t>());
        addChunk(result, counts, negLogLikelihood, failed);
      }
    }
    ByteWriter sum;
    sum.putDoubles(result.counts);
    sum.put<double>(result.negLogLikelihood);
    sum.put<std::uint64_t>(result.failedSentences.size());
    for (std::size_t i : result.failedSentences) sum.put<std::uint64_t>(i);
    summed = std::move(sum.bytes());
  }
  ranks.broadcast(summed);
  if (!ranks.leader()) {
    ByteReader reader(summed);
    result.counts = reader.getDoubles();
    result.negLogLikelihood = reader.get<double>();
    result.failedSentences.resize(static_cast<std::size_t>(reader.get<std::uint64_t>()));
    for (std::size_t& i : result.failedSentences)
      i = static_cast<std::size_t>(reader.get<std::uint64_t>());
  }
  return result;
}

std::vector<char> countSupport(const Grammar& grammar,
                               const std::vector<std::vector<std::string>>& sentences,
                               const InductionOptions& options, const InductionControl& control,
                               bool* cancelled) {
  // Uniform probabilities over the live rules of each LHS: no derivation is then so improbable
  // that its counts underflow, and the support of the counts is that of every θ > 0.
  Grammar uniform = grammar;
  for (SymbolId lhs : uniform.lhsSymbols()) {
    std::size_t live = 0;
    for (RuleId id : uniform.rulesWithLhs(lhs)) {
      if (uniform.rule(id).probability > 0.0) ++live;
    }
    for (RuleId id : uniform.rulesWithLhs(lhs)) {
      if (uniform.rule(id).probability > 0.0) {
        uniform.setProbability(id, 1.0 / static_cast<double>(live));
      }
    }
  }
  std::vector<char> support(grammar.ruleCount(), 0);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(uniform, diagnostics, "grammar");
  if (!compiled) return support;  // the real grammar's compile reports the problem
  InductionControl quiet = control;
  quiet.observer = nullptr;
  const ExpectationResult expected = runExpectationStep(*compiled, sentences, options, quiet);
  if (cancelled != nullptr) *cancelled = expected.cancelled;
  for (std::size_t r = 0; r < support.size(); ++r) support[r] = expected.counts[r] > 0.0 ? 1 : 0;
  return support;
}

}  // namespace gwb
