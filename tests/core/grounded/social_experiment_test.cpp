#include "gwb/grounded/social_experiment.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include <gtest/gtest.h>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/induction_checkpoint.h"

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

GoldAnnotation tinyGold() {
  const GoldAnnotationLoad load = readGoldAnnotation(
      ".dog ## the doggie.dog\n.pig ## a piggie.pig\n## hi\n.dog ## doggie.dog woof\n", "gold");
  EXPECT_TRUE(load.ok());
  return load.gold;
}

std::vector<Recording> tinyRecordings(const SocialCorpus& corpus) {
  Recording a;
  a.id = "A";
  a.firstUtterance = 0;
  a.utterances = 2;
  Recording b;
  b.id = "B";
  b.firstUtterance = 2;
  b.utterances = static_cast<int>(corpus.utterances.size()) - 2;
  return {a, b};
}

SocialGrammarBuild build(const SocialCorpus& corpus, SocialGrammarKind kind) {
  SocialGrammarOptions options;
  options.kind = kind;
  options.cues = corpus.cueOrder;
  return generateSocialGrammar(corpus, options);
}

TEST(SocialExperimentTest, ModelNames) {
  for (SocialModel m :
       {SocialModel::Em, SocialModel::Vb, SocialModel::Discourse, SocialModel::DiscourseInit})
    EXPECT_EQ(parseSocialModel(socialModelName(m)), m);
  EXPECT_EQ(parseSocialModel("mcmc"), std::nullopt);
}

// Initialised from a sentence-level grammar, the discourse grammar gives a recording the
// product of its utterances' sentence-level probabilities, times (1 − e) per transition and e
// for the ending: the discourse layer adds nothing yet.
TEST(SocialExperimentTest, DiscourseInitialisationReproducesTheSentenceModel) {
  const SocialCorpus corpus = tinyCorpus();
  SocialGrammarBuild sentence = build(corpus, SocialGrammarKind::Unigram);
  ASSERT_TRUE(sentence.ok());
  // Uneven sentence-level probabilities, as if learned (not normalised, like VB weights).
  Grammar& s = sentence.grammar;
  double w = 1.0;
  for (RuleId id = 0; id < static_cast<RuleId>(s.ruleCount()); ++id) {
    s.setProbability(id, s.rule(id).probability * w);
    w = w > 1.5 ? 0.6 : w + 0.3;
  }
  SocialGrammarBuild discourse = build(corpus, SocialGrammarKind::Discourse);
  ASSERT_TRUE(discourse.ok());
  const double e = 0.25;
  initializeDiscourseFromSentence(discourse.grammar, s, e);

  // The sentence grammar, renormalised per LHS, is the reference.
  Grammar normalised = s;
  for (SymbolId lhs : normalised.lhsSymbols()) {
    const double sum = normalised.lhsProbabilitySum(lhs);
    for (RuleId id : normalised.rulesWithLhs(lhs))
      normalised.setProbability(id, normalised.rule(id).probability / sum);
  }
  Diagnostics diagnostics;
  const auto compiledSentence = CompiledGrammar::compile(normalised, diagnostics);
  const auto compiledDiscourse = CompiledGrammar::compile(discourse.grammar, diagnostics);
  ASSERT_TRUE(compiledSentence && compiledDiscourse);
  EarleyParser sentenceParser(*compiledSentence);
  EarleyParser discourseParser(*compiledDiscourse);
  for (const Recording& r : tinyRecordings(corpus)) {
    double expected = std::log(e) + (r.utterances - 1) * std::log(1.0 - e);
    for (int i = r.firstUtterance; i < r.firstUtterance + r.utterances; ++i) {
      const ParseResult one = sentenceParser.parse(
          socialTokens(corpus.utterances[static_cast<std::size_t>(i)], corpus.cueOrder));
      ASSERT_TRUE(one.success);
      expected += one.logProbability;
    }
    const ParseResult whole = discourseParser.parse(recordingTokens(corpus, r, corpus.cueOrder));
    ASSERT_TRUE(whole.success);
    EXPECT_NEAR(whole.logProbability, expected, 1e-10);
  }
}

TEST(SocialExperimentTest, DecodingGivesOneUtterancePerLineAndNullsFailures) {
  const SocialCorpus corpus = tinyCorpus();
  for (SocialGrammarKind kind : {SocialGrammarKind::Unigram, SocialGrammarKind::Discourse}) {
    const SocialGrammarBuild g = build(corpus, kind);
    Diagnostics diagnostics;
    const auto compiled = CompiledGrammar::compile(g.grammar, diagnostics);
    ASSERT_TRUE(compiled);
    const bool discourse = kind == SocialGrammarKind::Discourse;
    for (int threads : {1, 3}) {
      const CorpusDecoding d = decodeSocialCorpus(*compiled, corpus, tinyRecordings(corpus),
                                                  discourse, corpus.cueOrder, threads);
      EXPECT_EQ(d.failures, 0u);
      ASSERT_EQ(d.utterances.size(), corpus.utterances.size());
      for (std::size_t i = 0; i < corpus.utterances.size(); ++i)
        EXPECT_EQ(d.utterances[i].words, corpus.utterances[i].words);
    }
  }
  // A grammar made from the first two lines lacks "hi" and "woof": the second recording fails.
  SocialCorpus smaller = corpus;
  smaller.utterances.resize(2);
  const SocialGrammarBuild g = build(smaller, SocialGrammarKind::Discourse);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(g.grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const CorpusDecoding d =
      decodeSocialCorpus(*compiled, corpus, tinyRecordings(corpus), true, corpus.cueOrder);
  EXPECT_EQ(d.failures, 1u);
  ASSERT_EQ(d.utterances.size(), 4u);
  EXPECT_EQ(d.utterances[3].topic, kNullTopic);
  EXPECT_EQ(d.utterances[3].words, (std::vector<std::string>{"doggie", "woof"}));
}

TEST(SocialExperimentTest, EveryModelRunsAndThreadsDoNotChangeTheResult) {
  const SocialCorpus corpus = tinyCorpus();
  const GoldAnnotation gold = tinyGold();
  const Lexicon dictionary = goldLexicon(gold);
  for (SocialModel model :
       {SocialModel::Em, SocialModel::Vb, SocialModel::Discourse, SocialModel::DiscourseInit}) {
    SocialExperimentOptions options;
    options.model = model;
    options.cues = corpus.cueOrder;
    options.iterations = 4;
    options.seed = 3;
    std::vector<std::string> topics[2];
    double energy[2] = {0, 0};
    for (int threads : {1, 2}) {
      options.threads = threads;
      const SocialExperimentResult r =
          runSocialExperiment(corpus, gold, dictionary, tinyRecordings(corpus), options);
      ASSERT_TRUE(r.ok()) << socialModelName(model);
      EXPECT_EQ(r.records.size(), 4u);
      EXPECT_EQ(r.initRecords.size(), model == SocialModel::DiscourseInit ? 4u : 0u);
      EXPECT_EQ(r.decodingFailures, 0u);
      ASSERT_EQ(r.decoded.size(), 4u);
      EXPECT_EQ(r.scores.utterances, 4u);
      EXPECT_EQ(std::isnan(r.freeEnergy), model == SocialModel::Em);
      for (const DecodedUtterance& u : r.decoded) topics[threads - 1].push_back(u.topic);
      energy[threads - 1] = r.negLogLikelihood;
    }
    EXPECT_EQ(topics[0], topics[1]) << socialModelName(model);
    EXPECT_EQ(energy[0], energy[1]) << socialModelName(model);
  }
}

TEST(SocialExperimentTest, TopicFromWordsRelabelsOnlyUtterancesWithoutATopicalWord) {
  const SocialCorpus corpus = tinyCorpus();
  const GoldAnnotation gold = tinyGold();
  const Lexicon dictionary = goldLexicon(gold);
  SocialExperimentOptions options;
  options.model = SocialModel::Vb;
  options.cues = corpus.cueOrder;
  options.iterations = 3;
  const SocialExperimentResult parse =
      runSocialExperiment(corpus, gold, dictionary, tinyRecordings(corpus), options);
  options.topicFromWords = true;
  const SocialExperimentResult words =
      runSocialExperiment(corpus, gold, dictionary, tinyRecordings(corpus), options);
  ASSERT_TRUE(parse.ok() && words.ok());
  ASSERT_EQ(parse.decoded.size(), words.decoded.size());
  std::size_t utterancesNone = 0;
  for (std::size_t i = 0; i < parse.decoded.size(); ++i) {
    const DecodedUtterance& p = parse.decoded[i];
    const DecodedUtterance& w = words.decoded[i];
    EXPECT_EQ(w.wordTopics, p.wordTopics) << i;  // word topics are untouched
    const bool hasTopicalWord =
        std::find(p.wordTopics.begin(), p.wordTopics.end(), p.topic) != p.wordTopics.end();
    EXPECT_EQ(w.topic, hasTopicalWord ? p.topic : std::string(kNullTopic)) << i;
    utterancesNone += w.topic == kNullTopic ? 1 : 0;
  }
  // The scores are those of the relabelled utterances.
  EXPECT_EQ(words.scores.topic.predicted, parse.decoded.size() - utterancesNone);
  EXPECT_EQ(words.scores.word.correct, parse.scores.word.correct);
}

TEST(SocialExperimentTest, BadOptionsAreReported) {
  const SocialCorpus corpus = tinyCorpus();
  const GoldAnnotation gold = tinyGold();
  SocialExperimentOptions options;
  options.cues = {"mom.point"};
  const SocialExperimentResult r =
      runSocialExperiment(corpus, gold, goldLexicon(gold), {}, options);
  EXPECT_FALSE(r.ok());
  options.cues = {};
  options.threads = 0;
  EXPECT_FALSE(runSocialExperiment(corpus, gold, goldLexicon(gold), {}, options).ok());
}

// A cancel flag already set stops the first training run: an error naming the model and no
// scores; the same options without the flag run to the end.
TEST(SocialExperimentTest, ACancelledExperimentEndsWithAnErrorAndNoScores) {
  const SocialCorpus corpus = tinyCorpus();
  const GoldAnnotation gold = tinyGold();
  for (SocialModel model : {SocialModel::Vb, SocialModel::DiscourseInit}) {
    SocialExperimentOptions options;
    options.model = model;
    options.iterations = 3;
    std::atomic<bool> cancel{true};
    options.cancel = &cancel;
    const SocialExperimentResult cancelled =
        runSocialExperiment(corpus, gold, goldLexicon(gold), tinyRecordings(corpus), options);
    EXPECT_FALSE(cancelled.ok());
    bool namesCancel = false;
    for (const Diagnostic& d : cancelled.diagnostics)
      namesCancel = namesCancel || toString(d).find("cancelled") != std::string::npos;
    EXPECT_TRUE(namesCancel);
    EXPECT_TRUE(cancelled.decoded.empty());

    cancel = false;
    const SocialExperimentResult finished =
        runSocialExperiment(corpus, gold, goldLexicon(gold), tinyRecordings(corpus), options);
    EXPECT_TRUE(finished.ok());
    EXPECT_EQ(finished.decoded.size(), corpus.utterances.size());
  }
}

// Resumed from any checkpoint it handed out (through the text core writes), or — discourse+init —
// from the sentence stage's final state with or without a discourse checkpoint, an experiment
// ends bitwise as the uninterrupted one: θ, every record but its wall time, the decoded topics.
TEST(SocialExperimentTest, ResumedFromEveryCheckpointEndsAsTheUninterruptedRun) {
  const SocialCorpus corpus = tinyCorpus();
  const GoldAnnotation gold = tinyGold();
  const Lexicon dictionary = goldLexicon(gold);
  const auto roundTrip = [](const InductionCheckpoint& c) {
    std::string error;
    const auto read = parseInductionCheckpoint(formatInductionCheckpoint(c), &error);
    EXPECT_TRUE(read) << error;
    return read.value_or(InductionCheckpoint{});
  };
  const auto sameRecords = [](const std::vector<IterationRecord>& a,
                              const std::vector<IterationRecord>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto bits = [](double x) {
        std::uint64_t pattern = 0;
        std::memcpy(&pattern, &x, sizeof pattern);
        return pattern;
      };
      if (a[i].iteration != b[i].iteration || bits(a[i].objective) != bits(b[i].objective) ||
          bits(a[i].negLogLikelihood) != bits(b[i].negLogLikelihood) ||
          a[i].liveRules != b[i].liveRules || a[i].failures != b[i].failures)
        return false;
    }
    return true;
  };
  for (SocialModel model :
       {SocialModel::Em, SocialModel::Vb, SocialModel::Discourse, SocialModel::DiscourseInit}) {
    SocialExperimentOptions options;
    options.model = model;
    options.cues = corpus.cueOrder;
    options.iterations = 4;
    options.seed = 5;
    std::vector<std::pair<SocialTrainingStage, InductionCheckpoint>> saved;
    std::optional<InductionCheckpoint> sentenceDone;
    options.checkpoints.onCheckpoint = [&](SocialTrainingStage stage,
                                           const InductionCheckpoint& c) {
      saved.emplace_back(stage, roundTrip(c));
    };
    options.checkpoints.onSentenceStageDone = [&](const InductionCheckpoint& c) {
      sentenceDone = roundTrip(c);
    };
    const SocialExperimentResult whole =
        runSocialExperiment(corpus, gold, dictionary, tinyRecordings(corpus), options);
    ASSERT_TRUE(whole.ok()) << socialModelName(model);
    EXPECT_EQ(saved.size(), model == SocialModel::DiscourseInit ? 6u : 3u);
    EXPECT_EQ(sentenceDone.has_value(), model == SocialModel::DiscourseInit);
    options.checkpoints = {};

    // Each checkpoint, plus (discourse+init) the sentence stage's end with no discourse one.
    std::vector<SocialCheckpoints> starts;
    for (const auto& [stage, checkpoint] : saved) {
      SocialCheckpoints from;
      from.resumeStage = stage;
      from.resume = &checkpoint;
      if (stage == SocialTrainingStage::Discourse && model == SocialModel::DiscourseInit)
        from.sentenceStageDone = &*sentenceDone;
      starts.push_back(from);
    }
    if (sentenceDone) {
      SocialCheckpoints from;
      from.sentenceStageDone = &*sentenceDone;
      starts.push_back(from);
    }
    for (std::size_t k = 0; k < starts.size(); ++k) {
      options.checkpoints = starts[k];
      const SocialExperimentResult resumed =
          runSocialExperiment(corpus, gold, dictionary, tinyRecordings(corpus), options);
      ASSERT_TRUE(resumed.ok()) << socialModelName(model) << " from start " << k;
      ASSERT_EQ(resumed.grammar.ruleCount(), whole.grammar.ruleCount());
      bool sameTheta = true;
      for (std::size_t r = 0; r < whole.grammar.ruleCount(); ++r) {
        const auto id = static_cast<RuleId>(r);
        sameTheta =
            sameTheta && std::memcmp(&resumed.grammar.rule(id).probability,
                                     &whole.grammar.rule(id).probability, sizeof(double)) == 0;
      }
      EXPECT_TRUE(sameTheta) << socialModelName(model) << " from start " << k;
      EXPECT_TRUE(sameRecords(resumed.records, whole.records)) << socialModelName(model) << k;
      EXPECT_TRUE(sameRecords(resumed.initRecords, whole.initRecords))
          << socialModelName(model) << k;
      ASSERT_EQ(resumed.decoded.size(), whole.decoded.size());
      for (std::size_t i = 0; i < whole.decoded.size(); ++i) {
        EXPECT_EQ(resumed.decoded[i].topic, whole.decoded[i].topic);
        EXPECT_EQ(resumed.decoded[i].wordTopics, whole.decoded[i].wordTopics);
      }
    }
  }
  // A checkpoint of a stage the model does not have, and discourse+init's discourse stage
  // without the sentence stage's end, are errors.
  SocialExperimentOptions options;
  options.cues = corpus.cueOrder;
  options.iterations = 2;
  InductionCheckpoint any;
  options.checkpoints.resume = &any;
  options.checkpoints.resumeStage = SocialTrainingStage::Discourse;
  EXPECT_FALSE(runSocialExperiment(corpus, gold, dictionary, tinyRecordings(corpus), options).ok());
  options.model = SocialModel::DiscourseInit;
  EXPECT_FALSE(runSocialExperiment(corpus, gold, dictionary, tinyRecordings(corpus), options).ok());
}

}  // namespace
}  // namespace gwb
