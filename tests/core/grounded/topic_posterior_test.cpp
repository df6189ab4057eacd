#include "gwb/grounded/topic_posterior.h"

#include <cmath>

#include <gtest/gtest.h>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/grounded/social_experiment.h"
#include "gwb/grounded/social_grammar.h"

namespace gwb {
namespace {

SocialCorpus tinyCorpus() {
  const SocialCorpusLoad load = readSocialCorpus(
      ".dog kid.eyes # .pig # ## the doggie\n.pig kid.eyes mom.eyes # ## a piggie\n## hi\n"
      ".dog mom.eyes # ## doggie woof\n",
      "tiny");
  EXPECT_TRUE(load.ok());
  return load.corpus;
}

// Uneven probabilities, as if learned, renormalised per LHS.
Grammar unevenGrammar(const SocialCorpus& corpus, SocialGrammarKind kind) {
  SocialGrammarOptions options;
  options.kind = kind;
  options.cues = corpus.cueOrder;
  SocialGrammarBuild build = generateSocialGrammar(corpus, options);
  EXPECT_TRUE(build.ok());
  Grammar& g = build.grammar;
  double w = 1.0;
  for (RuleId id = 0; id < static_cast<RuleId>(g.ruleCount()); ++id) {
    g.setProbability(id, g.rule(id).probability * w);
    w = w > 1.7 ? 0.5 : w + 0.4;
  }
  for (SymbolId lhs : g.lhsSymbols()) {
    const double sum = g.lhsProbabilitySum(lhs);
    for (RuleId id : g.rulesWithLhs(lhs)) g.setProbability(id, g.rule(id).probability / sum);
  }
  return std::move(build.grammar);
}

double logSum(const std::vector<double>& values) {
  double hi = -INFINITY;
  for (double v : values) hi = std::max(hi, v);
  double sum = 0.0;
  for (double v : values) sum += std::exp(v - hi);
  return hi + std::log(sum);
}

// The emissions of a sentence-level grammar add up to the utterance's probability.
TEST(TopicPosteriorTest, SentenceEmissionsSumToTheStringProbability) {
  const SocialCorpus corpus = tinyCorpus();
  const Grammar g = unevenGrammar(corpus, SocialGrammarKind::Unigram);
  const TopicEmissions e = topicEmissions(g, corpus, corpus.cueOrder, false, 2);
  EXPECT_EQ(e.failures, 0u);
  EXPECT_EQ(e.topics, (std::vector<std::string>{kNullTopic, "dog", "pig"}));
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(g, diagnostics);
  ASSERT_TRUE(compiled);
  EarleyParser parser(*compiled);
  for (std::size_t i = 0; i < corpus.utterances.size(); ++i) {
    const ParseResult r = parser.parse(socialTokens(corpus.utterances[i], corpus.cueOrder));
    ASSERT_TRUE(r.success);
    EXPECT_NEAR(logSum(e.logE[i]), r.logProbability, 1e-10) << i;
  }
  // Only objects present (and None) can be topics: "## hi" has the null topic alone.
  EXPECT_TRUE(std::isinf(e.logE[2][1]) && std::isinf(e.logE[2][2]));
  EXPECT_FALSE(std::isinf(e.logE[2][0]));
}

// A discourse grammar started from a sentence-level one has transitions that ignore the previous
// topic, so forward-backward gives each utterance the sentence-level posterior.
TEST(TopicPosteriorTest, IndependentTransitionsGiveTheSentenceLevelPosterior) {
  const SocialCorpus corpus = tinyCorpus();
  const Grammar sentence = unevenGrammar(corpus, SocialGrammarKind::Unigram);
  SocialGrammarOptions options;
  options.kind = SocialGrammarKind::Discourse;
  options.cues = corpus.cueOrder;
  SocialGrammarBuild discourse = generateSocialGrammar(corpus, options);
  ASSERT_TRUE(discourse.ok());
  initializeDiscourseFromSentence(discourse.grammar, sentence, 0.2);
  Recording all;
  all.utterances = static_cast<int>(corpus.utterances.size());
  const CorpusDecoding a =
      decodeSocialCorpusMarginal(sentence, corpus, {all}, false, corpus.cueOrder);
  const CorpusDecoding b =
      decodeSocialCorpusMarginal(discourse.grammar, corpus, {all}, true, corpus.cueOrder, 2);
  ASSERT_EQ(a.utterances.size(), corpus.utterances.size());
  ASSERT_EQ(b.utterances.size(), corpus.utterances.size());
  for (std::size_t i = 0; i < corpus.utterances.size(); ++i) {
    EXPECT_EQ(a.utterances[i].topic, b.utterances[i].topic) << i;
    EXPECT_EQ(a.utterances[i].wordTopics, b.utterances[i].wordTopics) << i;
    EXPECT_EQ(a.utterances[i].words, corpus.utterances[i].words);
  }
  EXPECT_EQ(a.failures + b.failures, 0u);
}

TEST(TopicPosteriorTest, WordTopicsCompareTheTwoWaysToGenerateEachWord) {
  const Grammar g = [] {
    Grammar grammar;
    const auto nt = [&](const char* name) {
      return grammar.symbols().intern(name, SymbolKind::Nonterminal);
    };
    const auto add = [&](SymbolId lhs, std::vector<SymbolId> rhs, double p) {
      Rule r;
      r.lhs = lhs;
      r.rhs = std::move(rhs);
      r.probability = p;
      grammar.addRule(r);
    };
    const SymbolId words = nt("Words.dog");
    const SymbolId word = nt("Word.dog");
    const SymbolId none = nt("Word.None");
    add(words, {word, words}, 0.3);
    add(words, {none, words}, 0.4);
    add(words, {word}, 0.2);
    add(words, {none}, 0.1);
    const SymbolId the = grammar.symbols().intern("the", SymbolKind::Terminal);
    const SymbolId dog = grammar.symbols().intern("dog", SymbolKind::Terminal);
    add(word, {the}, 0.1);
    add(word, {dog}, 0.9);
    add(none, {the}, 0.5);
    add(none, {dog}, 0.5);
    return grammar;
  }();
  // the: 0.3·0.1 < 0.4·0.5 → None; dog (inside): 0.3·0.9 > 0.4·0.5 → dog;
  // the (last): 0.2·0.1 < 0.1·0.5 → None; dog (last): 0.2·0.9 > 0.1·0.5 → dog.
  EXPECT_EQ(bestWordTopics(g, "dog", {"the", "dog", "the"}),
            (std::vector<std::string>{kNullTopic, "dog", kNullTopic}));
  EXPECT_EQ(bestWordTopics(g, "dog", {"the", "dog"}),
            (std::vector<std::string>{kNullTopic, "dog"}));
  EXPECT_EQ(bestWordTopics(g, kNullTopic, {"dog"}), std::vector<std::string>{kNullTopic});
  EXPECT_EQ(bestWordTopics(g, "dog", {"cat"}), std::vector<std::string>{kNullTopic});
  EXPECT_STREQ(topicDecodingModeName(TopicDecodingMode::Marginal), "marginal");
}

}  // namespace
}  // namespace gwb
