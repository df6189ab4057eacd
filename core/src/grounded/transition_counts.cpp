#include "gwb/grounded/transition_counts.h"

#include <algorithm>
#include <memory>
#include <ostream>

#include "gwb/earley/inside_outside.h"

namespace gwb {

namespace {

std::optional<SymbolId> nonterminal(const Grammar& grammar, const std::string& name) {
  return grammar.symbols().findNonterminal(name);
}

}  // namespace

std::optional<RuleId> transitionRule(const Grammar& grammar, const std::string& from,
                                     const std::string& to) {
  const auto lhs = nonterminal(grammar, "Discourse." + from);
  const auto sentence = nonterminal(grammar, "Sentence." + from);
  const auto next = nonterminal(grammar, "Discourse." + to);
  if (!lhs || !sentence || !next) return std::nullopt;
  return grammar.findRule(*lhs, {*sentence, *next});
}

std::optional<RuleId> endingRule(const Grammar& grammar, const std::string& topic) {
  const auto lhs = nonterminal(grammar, "Discourse." + topic);
  const auto sentence = nonterminal(grammar, "Sentence." + topic);
  if (!lhs || !sentence) return std::nullopt;
  return grammar.findRule(*lhs, {*sentence});
}

std::optional<RuleId> initialRule(const Grammar& grammar, const std::string& topic) {
  const auto lhs = nonterminal(grammar, "Discourse");
  const auto next = nonterminal(grammar, "Discourse." + topic);
  if (!lhs || !next) return std::nullopt;
  return grammar.findRule(*lhs, {*next});
}

TransitionCounts expectedTransitionCounts(const CompiledGrammar& compiled,
                                          const TopicTransitions& transitions,
                                          const SocialCorpus& corpus,
                                          const std::vector<Recording>& recordings,
                                          const std::vector<std::string>& cues,
                                          const BatchControl& control) {
  const Grammar& grammar = compiled.grammar();
  const std::vector<std::string>& topics = transitions.topics;
  const std::size_t n = topics.size();
  // The rules counted, as slots: n·n transitions (row-major), then n endings, then n initials.
  std::vector<std::optional<RuleId>> slots;
  slots.reserve(n * n + 2 * n);
  for (const std::string& from : topics)
    for (const std::string& to : topics) slots.push_back(transitionRule(grammar, from, to));
  for (const std::string& t : topics) slots.push_back(endingRule(grammar, t));
  for (const std::string& t : topics) slots.push_back(initialRule(grammar, t));

  // Each recording's counts of the slots, kept apart so that the sum below has one order.
  std::vector<std::vector<double>> perRecording(recordings.size());
  std::vector<char> parsed(recordings.size(), 0);
  const BatchOutcome outcome = runBatch(recordings.size(), control, [&]() -> BatchWorker {
    auto counts = std::make_shared<std::vector<double>>(grammar.ruleCount(), 0.0);
    return [&, counts](std::size_t r) {
      std::fill(counts->begin(), counts->end(), 0.0);
      const std::vector<std::string> tokens = recordingTokens(corpus, recordings[r], cues);
      const ExpectedCounts e =
          accumulateExpectedCounts(compiled, tokens, NumericMode::Scaled, *counts);
      std::vector<double> mine(slots.size(), 0.0);
      for (std::size_t k = 0; k < slots.size(); ++k)
        if (slots[k]) mine[k] = (*counts)[static_cast<std::size_t>(*slots[k])];
      perRecording[r] = std::move(mine);
      parsed[r] = e.parsed ? 1 : 2;
    };
  });

  std::vector<double> total(slots.size(), 0.0);
  TransitionCounts out;
  for (std::size_t r = 0; r < recordings.size(); ++r) {
    if (parsed[r] == 0) continue;  // not reached (cancelled)
    ++out.strings;
    if (parsed[r] == 2) ++out.failures;
    for (std::size_t k = 0; k < slots.size(); ++k) total[k] += perRecording[r][k];
  }
  const auto size = static_cast<Eigen::Index>(n);
  out.transition = Eigen::MatrixXd::Zero(size, size);
  out.ending = Eigen::VectorXd::Zero(size);
  out.initial = Eigen::VectorXd::Zero(size);
  for (std::size_t i = 0; i < n; ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    for (std::size_t j = 0; j < n; ++j)
      out.transition(row, static_cast<Eigen::Index>(j)) = total[i * n + j];
    out.ending(row) = total[n * n + i];
    out.initial(row) = total[n * n + n + i];
  }
  out.cancelled = outcome.cancelled;
  return out;
}

void writeTransitionCountsCsv(const std::vector<std::string>& topics,
                              const TransitionCounts& counts, std::ostream& out) {
  writeTopicMatrixCsv(topics, counts.transition, counts.ending, out);
}

}  // namespace gwb
