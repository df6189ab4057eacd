// Expected transition counts (transition_counts.h) against what must hold of any discourse
// parse, and against inside-outside run recording by recording: each parsed recording uses one
// initial rule and one ending rule, and one transition or ending per utterance; the sums are
// bitwise the same for 1 and 4 threads.
#include "gwb/grounded/transition_counts.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <sstream>

#include <gtest/gtest.h>

#include "gwb/earley/inside_outside.h"
#include "gwb/grounded/social_grammar.h"

namespace gwb {
namespace {

struct CountsSetup {
  SocialCorpus corpus;
  std::vector<Recording> recordings;
  Grammar grammar;
};

// Three recordings (2, 1 and 3 utterances); the transition probabilities made uneven so that
// the counts are not all alike.
CountsSetup countsSetup() {
  CountsSetup s;
  const SocialCorpusLoad load = readSocialCorpus(
      ".dog kid.eyes # .pig # ## the doggie\n.pig kid.eyes mom.eyes # ## a piggie\n## hi\n"
      ".dog mom.eyes # ## doggie woof\n.pig # ## piggie\n.dog # .pig # ## look\n",
      "tiny");
  EXPECT_TRUE(load.ok());
  s.corpus = load.corpus;
  const RecordingsLoad recordings = readRecordings(
      "recording\tfirst_line\tutterances\ttokens\nA\t1\t2\t0\nB\t3\t1\t0\n"
      "C\t4\t3\t0\n",
      "tiny.tsv");
  EXPECT_TRUE(recordings.ok());
  s.recordings = recordings.recordings;
  SocialGrammarOptions options;
  options.kind = SocialGrammarKind::Discourse;
  options.cues = s.corpus.cueOrder;
  SocialGrammarBuild build = generateSocialGrammar(s.corpus, options);
  EXPECT_TRUE(build.ok());
  s.grammar = std::move(build.grammar);
  double w = 1.0;
  for (RuleId id = 0; id < static_cast<RuleId>(s.grammar.ruleCount()); ++id) {
    s.grammar.setProbability(id, s.grammar.rule(id).probability * w);
    w = w > 1.7 ? 0.5 : w + 0.4;
  }
  for (SymbolId lhs : s.grammar.lhsSymbols()) {
    const double sum = s.grammar.lhsProbabilitySum(lhs);
    for (RuleId id : s.grammar.rulesWithLhs(lhs))
      s.grammar.setProbability(id, s.grammar.rule(id).probability / sum);
  }
  return s;
}

bool bitwiseEqual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

TEST(TransitionCountsTest, CountsAddUpAndIgnoreTheThreadCount) {
  const CountsSetup s = countsSetup();
  const auto transitions = topicTransitions(s.grammar);
  ASSERT_TRUE(transitions);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(s.grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const std::vector<std::string> cues = grammarCues(s.grammar, s.corpus.cueOrder);
  EXPECT_EQ(cues, s.corpus.cueOrder);
  BatchControl control;
  const TransitionCounts one =
      expectedTransitionCounts(*compiled, *transitions, s.corpus, s.recordings, cues, control);
  control.threads = 4;
  const TransitionCounts four =
      expectedTransitionCounts(*compiled, *transitions, s.corpus, s.recordings, cues, control);
  EXPECT_EQ(one.strings, 3u);
  EXPECT_EQ(one.failures, 0u);
  EXPECT_FALSE(one.cancelled);
  EXPECT_TRUE(bitwiseEqual(one.transition, four.transition));
  EXPECT_TRUE(bitwiseEqual(one.ending, four.ending));
  EXPECT_TRUE(bitwiseEqual(one.initial, four.initial));

  // One initial and one ending rule per recording; one transition or ending per utterance.
  EXPECT_NEAR(one.initial.sum(), 3.0, 1e-12);
  EXPECT_NEAR(one.ending.sum(), 3.0, 1e-12);
  EXPECT_NEAR(one.transition.sum() + one.ending.sum(), 6.0, 1e-12);
  // Recording B has one utterance ("## hi": no object), so it starts and ends in None.
  const auto none = transitions->indexOf(kNullTopic);
  ASSERT_TRUE(none);
  EXPECT_GE(one.initial(static_cast<Eigen::Index>(*none)), 1.0 - 1e-12);

  // The same as inside-outside run on each recording by hand, read off by rule.
  std::vector<double> counts(s.grammar.ruleCount(), 0.0);
  for (const Recording& r : s.recordings)
    ASSERT_TRUE(accumulateExpectedCounts(*compiled, recordingTokens(s.corpus, r, cues),
                                         NumericMode::Log, counts)
                    .parsed);
  for (std::size_t i = 0; i < transitions->topics.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    const std::string& from = transitions->topics[i];
    for (std::size_t j = 0; j < transitions->topics.size(); ++j) {
      const auto rule = transitionRule(s.grammar, from, transitions->topics[j]);
      ASSERT_TRUE(rule);
      EXPECT_NEAR(one.transition(row, static_cast<Eigen::Index>(j)),
                  counts[static_cast<std::size_t>(*rule)], 1e-10);
    }
    EXPECT_NEAR(one.ending(row), counts[static_cast<std::size_t>(*endingRule(s.grammar, from))],
                1e-10);
    EXPECT_NEAR(one.initial(row), counts[static_cast<std::size_t>(*initialRule(s.grammar, from))],
                1e-10);
  }

  std::ostringstream csv;
  writeTransitionCountsCsv(transitions->topics, one, csv);
  const std::string text = csv.str();
  EXPECT_EQ(text.substr(0, 5), "from,");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
            static_cast<long>(transitions->topics.size() + 1));
}

TEST(TransitionCountsTest, RulesAGrammarLacksAndFailedOrCancelledRecordings) {
  CountsSetup s = countsSetup();
  const auto transitions = topicTransitions(s.grammar);
  ASSERT_TRUE(transitions);
  EXPECT_FALSE(transitionRule(s.grammar, "dog", "zebra"));
  EXPECT_FALSE(endingRule(s.grammar, "zebra"));
  EXPECT_FALSE(initialRule(s.grammar, "zebra"));
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(s.grammar, diagnostics);
  ASSERT_TRUE(compiled);
  SocialCorpus broken = s.corpus;
  broken.utterances[2].words = {"zebra"};  // recording B cannot parse
  BatchControl control;
  control.threads = 2;
  const TransitionCounts counts = expectedTransitionCounts(
      *compiled, *transitions, broken, s.recordings, s.corpus.cueOrder, control);
  EXPECT_EQ(counts.strings, 3u);
  EXPECT_EQ(counts.failures, 1u);
  EXPECT_NEAR(counts.initial.sum(), 2.0, 1e-12);
  EXPECT_NEAR(counts.transition.sum() + counts.ending.sum(), 5.0, 1e-12);

  std::atomic<bool> cancel{false};
  BatchProgressFunction observer([&](std::size_t, std::size_t, std::size_t) { cancel = true; });
  control.threads = 1;
  control.observer = &observer;
  control.cancel = &cancel;
  const TransitionCounts cut = expectedTransitionCounts(*compiled, *transitions, s.corpus,
                                                        s.recordings, s.corpus.cueOrder, control);
  EXPECT_TRUE(cut.cancelled);
  EXPECT_EQ(cut.strings, 1u);
  EXPECT_NEAR(cut.initial.sum(), 1.0, 1e-12);
  EXPECT_NEAR(cut.transition.sum() + cut.ending.sum(), 2.0, 1e-12);
}

}  // namespace
}  // namespace gwb
