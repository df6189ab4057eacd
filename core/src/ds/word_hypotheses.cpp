#include "gwb/ds/word_hypotheses.h"

#include <functional>
#include <map>
#include <set>

namespace gwb::ds {

std::vector<std::vector<int>> wordAssignments(const std::vector<PathStep>& path, std::size_t words,
                                              std::size_t limit, bool* truncated) {
  if (truncated != nullptr) *truncated = false;
  // Maximal runs of lexical steps, as step indices.
  std::vector<std::vector<std::size_t>> runs;
  bool inRun = false;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!path[i].lexical) {
      inRun = false;
      continue;
    }
    if (!inRun) runs.emplace_back();
    runs.back().push_back(i);
    inRun = true;
  }
  std::vector<std::vector<int>> out;
  if (runs.empty() || runs.size() > words) return out;
  std::size_t steps = 0;
  for (const auto& run : runs) steps += run.size();
  if (steps < words) return out;

  // Choose cut points inside runs: piece count = runs + cuts = words. The piece starting at
  // step `from` of a run ends at `to` (exclusive), shortest first; ending the run moves on.
  std::vector<int> current(path.size(), -1);
  bool stopped = false;
  std::function<void(std::size_t, std::size_t, std::size_t)> cut =
      [&](std::size_t run, std::size_t from, std::size_t piecesLeft) {
        if (stopped) return;
        if (run == runs.size()) {
          if (piecesLeft == 0) {
            if (limit > 0 && out.size() == limit) {
              stopped = true;
              if (truncated != nullptr) *truncated = true;
              return;
            }
            out.push_back(current);
          }
          return;
        }
        const auto& runSteps = runs[run];
        const std::size_t runsAfter = runs.size() - run - 1;
        for (std::size_t to = from + 1; to <= runSteps.size(); ++to) {
          if (piecesLeft == 0) return;
          const int word = static_cast<int>(words - piecesLeft);
          for (std::size_t k = from; k < to; ++k) current[runSteps[k]] = word;
          if (to == runSteps.size()) {
            if (piecesLeft - 1 >= runsAfter) cut(run + 1, 0, piecesLeft - 1);
          } else {
            cut(run, to, piecesLeft - 1);
          }
          for (std::size_t k = from; k < to; ++k) current[runSteps[k]] = -1;
        }
      };
  cut(0, 0, words);
  return out;
}

std::vector<std::string> wordActions(const std::vector<PathStep>& path,
                                     const std::vector<int>& assignment, std::size_t words) {
  std::vector<std::string> texts(words);
  std::vector<bool> started(words, false);
  for (std::size_t i = 0; i < path.size() && i < assignment.size(); ++i) {
    const int w = assignment[i];
    if (w < 0 || static_cast<std::size_t>(w) >= words) continue;
    const auto word = static_cast<std::size_t>(w);
    if (started[word]) texts[word] += '\n';
    texts[word] += path[i].action;
    started[word] = true;
  }
  return texts;
}

std::vector<std::vector<std::string>> splitAtWordBoundaries(const std::vector<PathStep>& path,
                                                            std::size_t words, std::size_t limit,
                                                            bool* truncated) {
  std::vector<std::vector<std::string>> out;
  for (const std::vector<int>& assignment : wordAssignments(path, words, limit, truncated))
    out.push_back(wordActions(path, assignment, words));
  return out;
}

ExampleHypotheses collectWordHypotheses(const std::vector<std::string>& words,
                                        const std::vector<std::vector<PathStep>>& paths,
                                        std::size_t maxTuples) {
  ExampleHypotheses result;
  result.words = words;
  std::map<std::string, std::size_t> index;  // key -> position in result.hypotheses
  std::set<std::vector<std::string>> seen;   // tuples, as keys
  for (const std::vector<PathStep>& path : paths) {
    // One path cannot add more than maxTuples + 1 new tuples before the budget is hit.
    const std::size_t limit = maxTuples == 0 ? 0 : maxTuples + 1;
    for (const std::vector<std::string>& split : splitAtWordBoundaries(path, words.size(), limit)) {
      std::vector<std::string> keys;
      for (const std::string& action : split) keys.push_back(canonicalHypothesisKey(action));
      if (seen.count(keys) > 0) continue;
      if (maxTuples > 0 && result.tuples.size() == maxTuples) {
        result.budgetHit = true;
        break;
      }
      seen.insert(keys);
      std::vector<std::size_t> tuple;
      for (std::size_t w = 0; w < split.size(); ++w) {
        auto [it, inserted] = index.emplace(keys[w], result.hypotheses.size());
        if (inserted) result.hypotheses.push_back({keys[w], split[w]});
        tuple.push_back(it->second);
      }
      result.tuples.push_back(std::move(tuple));
    }
    if (result.budgetHit) break;
  }
  if (result.budgetHit)
    result.note = "stopped at the budget of " + std::to_string(maxTuples) +
                  " hypothesis tuples; further tuples were not considered";
  else if (result.tuples.empty())
    result.note = paths.empty() ? "no action sequence reaches the target record type"
                                : "no split of the action sequences gives one hypothesis per word";
  return result;
}

}  // namespace gwb::ds
