#include "gwb/grounded/social_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/induction_checkpoint.h"

namespace gwb {

namespace {

std::string ruleKey(const Grammar& g, const Rule& rule) {
  std::string key = g.symbols().name(rule.lhs);
  key += "->";
  for (SymbolId s : rule.rhs) {
    key += ' ';
    if (g.symbols().isTerminal(s)) key += '_';
    key += g.symbols().name(s);
  }
  return key;
}

// "Discourse.car" → "car" when `name` starts with `prefix`.
std::optional<std::string> suffix(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return name.substr(prefix.size());
}

bool isDiscourseModel(SocialModel model) {
  return model == SocialModel::Discourse || model == SocialModel::DiscourseInit;
}

InductionOptions inductionOptions(const SocialExperimentOptions& options, InductionMethod method) {
  InductionOptions io = options.earleyx ? InductionOptions::earleyx(method) : InductionOptions{};
  io.method = method;
  io.maxIterations = options.iterations;
  io.tolerance = options.tolerance;
  io.init = InitMethod::Uniform;
  io.seed = options.seed;
  io.noise = options.noise;
  io.threads = options.threads;
  io.chunkTokens = options.chunkTokens;
  return io;
}

SocialGrammarOptions grammarOptions(const SocialExperimentOptions& options,
                                    SocialGrammarKind kind) {
  SocialGrammarOptions g;
  g.kind = kind;
  g.cues = options.cues;
  g.wordAlpha = options.alpha;
  g.nullWordAlpha = options.nullWordAlpha;
  g.transitionAlpha = options.transitionAlpha;
  g.selfTransitionAlpha = options.selfTransitionAlpha;
  return g;
}

}  // namespace

const char* socialModelName(SocialModel model) {
  switch (model) {
    case SocialModel::Em: return "em";
    case SocialModel::Vb: return "vb";
    case SocialModel::Discourse: return "discourse";
    case SocialModel::DiscourseInit: return "discourse+init";
  }
  return "vb";
}

const char* socialTrainingStageName(SocialTrainingStage stage) {
  return stage == SocialTrainingStage::Discourse ? "discourse" : "sentence";
}

std::optional<SocialTrainingStage> parseSocialTrainingStage(std::string_view name) {
  for (SocialTrainingStage stage : {SocialTrainingStage::Sentence, SocialTrainingStage::Discourse})
    if (name == socialTrainingStageName(stage)) return stage;
  return std::nullopt;
}

std::optional<SocialModel> parseSocialModel(std::string_view name) {
  for (SocialModel m :
       {SocialModel::Em, SocialModel::Vb, SocialModel::Discourse, SocialModel::DiscourseInit})
    if (name == socialModelName(m)) return m;
  return std::nullopt;
}

void initializeDiscourseFromSentence(Grammar& discourse, const Grammar& sentence,
                                     double endProbability) {
  std::unordered_map<std::string, double> learned;
  std::unordered_map<std::string, double> topicWeight;  // t → P(Sentence → Topic.t Words.t)
  double topicTotal = 0.0;
  for (const Rule& rule : sentence.rules()) {
    learned.emplace(ruleKey(sentence, rule), rule.probability);
    if (sentence.symbols().name(rule.lhs) == "Sentence" && !rule.rhs.empty()) {
      if (auto t = suffix(sentence.symbols().name(rule.rhs[0]), "Topic.")) {
        topicWeight[*t] += rule.probability;
        topicTotal += rule.probability;
      }
    }
  }
  const auto topicProbability = [&](const std::string& t) {
    const auto it = topicWeight.find(t);
    return it == topicWeight.end() || topicTotal <= 0.0 ? 0.0 : it->second / topicTotal;
  };
  const SymbolTable& symbols = discourse.symbols();
  for (RuleId id = 0; id < static_cast<RuleId>(discourse.ruleCount()); ++id) {
    const Rule& rule = discourse.rule(id);
    const std::string& lhs = symbols.name(rule.lhs);
    const auto rhsName = [&](std::size_t i) { return symbols.name(rule.rhs[i]); };
    if (lhs == "Discourse" && rule.rhs.size() == 1) {
      if (auto t = suffix(rhsName(0), "Discourse."))
        discourse.setProbability(id, topicProbability(*t));
      continue;
    }
    if (suffix(lhs, "Discourse.")) {
      if (rule.rhs.size() == 1) {
        discourse.setProbability(id, endProbability);
      } else if (rule.rhs.size() == 2) {
        if (auto next = suffix(rhsName(1), "Discourse."))
          discourse.setProbability(id, (1.0 - endProbability) * topicProbability(*next));
      }
      continue;
    }
    if (suffix(lhs, "Sentence.")) {
      discourse.setProbability(id, 1.0);
      continue;
    }
    const auto it = learned.find(ruleKey(discourse, rule));
    if (it != learned.end()) discourse.setProbability(id, it->second);
  }
  // Renormalise every LHS (VB's mean-field weights do not sum to one).
  for (SymbolId lhs : discourse.lhsSymbols()) {
    const double sum = discourse.lhsProbabilitySum(lhs);
    if (!(sum > 0.0)) continue;
    for (RuleId id : discourse.rulesWithLhs(lhs))
      discourse.setProbability(id, discourse.rule(id).probability / sum);
  }
}

SocialExperimentResult runSocialExperiment(const SocialCorpus& corpus, const GoldAnnotation& gold,
                                           const Lexicon& goldDictionary,
                                           const std::vector<Recording>& recordings,
                                           const SocialExperimentOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  SocialExperimentResult result;
  Diagnostics& diag = result.diagnostics;
  const bool discourse = isDiscourseModel(options.model);
  const std::vector<Recording> spans =
      recordings.empty() ? wholeCorpusRecording(corpus) : recordings;
  InductionControl control;
  control.observer = options.observer;
  control.cancel = options.cancel;
  control.distribution = options.distribution;

  const auto sentencesOf = [&](bool perRecording) {
    std::vector<std::vector<std::string>> sentences;
    if (perRecording) {
      for (const Recording& r : spans)
        sentences.push_back(recordingTokens(corpus, r, options.cues));
    } else {
      for (const SocialUtterance& u : corpus.utterances)
        sentences.push_back(socialTokens(u, options.cues));
    }
    return sentences;
  };
  const SocialCheckpoints& checkpoints = options.checkpoints;
  const SocialTrainingStage lastStage =
      discourse ? SocialTrainingStage::Discourse : SocialTrainingStage::Sentence;
  if (checkpoints.resume != nullptr && checkpoints.resumeStage != lastStage &&
      options.model != SocialModel::DiscourseInit) {
    diag.error("", 0, 0,
               std::string("the checkpoint is of the ") +
                   socialTrainingStageName(checkpoints.resumeStage) + " stage, which " +
                   socialModelName(options.model) + " does not have");
    return result;
  }
  const auto train = [&](SocialGrammarKind kind, InductionMethod method,
                         const Grammar* initFrom) -> std::optional<InductionResult> {
    SocialGrammarBuild build = generateSocialGrammar(corpus, grammarOptions(options, kind));
    diag.append(build.diagnostics);
    if (!build.ok()) return std::nullopt;
    InductionOptions io = inductionOptions(options, method);
    if (initFrom != nullptr) {
      const double utterancesPerRecording =
          static_cast<double>(corpus.utterances.size()) / static_cast<double>(spans.size());
      initializeDiscourseFromSentence(build.grammar, *initFrom,
                                      1.0 / std::max(1.0, utterancesPerRecording));
      io.init = InitMethod::Given;
    }
    const SocialTrainingStage stage = kind == SocialGrammarKind::Discourse
                                          ? SocialTrainingStage::Discourse
                                          : SocialTrainingStage::Sentence;
    InductionControl stageControl = control;
    if (checkpoints.onCheckpoint) {
      stageControl.onCheckpoint = [&checkpoints, stage](const InductionCheckpoint& c) {
        checkpoints.onCheckpoint(stage, c);
      };
    }
    if (checkpoints.resume != nullptr && checkpoints.resumeStage == stage)
      stageControl.resume = checkpoints.resume;
    InductionResult r =
        induceGrammar(std::move(build.grammar), sentencesOf(kind == SocialGrammarKind::Discourse),
                      io, stageControl);
    diag.append(r.diagnostics);
    if (r.stopReason == StopReason::Cancelled) {
      diag.error("", 0, 0, std::string(socialModelName(options.model)) + ": cancelled");
      return std::nullopt;
    }
    if (!r.ok()) {
      diag.error("", 0, 0, std::string(socialModelName(options.model)) + ": " + r.message);
      return std::nullopt;
    }
    return r;
  };
  // discourse+init's sentence stage as it ended, from its final state: the grammar with the
  // learned θ and the records (what the discourse stage and the result use of it).
  const auto sentenceStageFrom =
      [&](const InductionCheckpoint& done) -> std::optional<InductionResult> {
    SocialGrammarBuild build =
        generateSocialGrammar(corpus, grammarOptions(options, SocialGrammarKind::Unigram));
    diag.append(build.diagnostics);
    if (!build.ok()) return std::nullopt;
    if (done.probabilities.size() != build.grammar.ruleCount() || done.records.empty()) {
      diag.error("", 0, 0,
                 "the sentence stage's final state has " +
                     std::to_string(done.probabilities.size()) +
                     " rule probabilities, the sentence-level grammar " +
                     std::to_string(build.grammar.ruleCount()) + " rules");
      return std::nullopt;
    }
    InductionResult r;
    r.grammar = std::move(build.grammar);
    for (RuleId id = 0; id < static_cast<RuleId>(r.grammar.ruleCount()); ++id)
      r.grammar.setProbability(id, done.probabilities[static_cast<std::size_t>(id)]);
    r.records = done.records;
    return r;
  };

  std::optional<InductionResult> trained;
  if (options.model == SocialModel::DiscourseInit) {
    std::optional<InductionResult> sentenceLevel;
    if (checkpoints.sentenceStageDone != nullptr) {
      sentenceLevel = sentenceStageFrom(*checkpoints.sentenceStageDone);
    } else if (checkpoints.resume != nullptr &&
               checkpoints.resumeStage == SocialTrainingStage::Discourse) {
      diag.error("", 0, 0,
                 "resuming discourse+init in its discourse stage needs the sentence stage's "
                 "final state");
      return result;
    } else {
      sentenceLevel = train(SocialGrammarKind::Unigram, InductionMethod::Vb, nullptr);
      if (sentenceLevel && checkpoints.onSentenceStageDone)
        checkpoints.onSentenceStageDone(finalCheckpoint(*sentenceLevel));
    }
    if (!sentenceLevel) return result;
    result.initRecords = sentenceLevel->records;
    trained = train(SocialGrammarKind::Discourse, InductionMethod::Vb, &sentenceLevel->grammar);
  } else {
    trained = train(discourse ? SocialGrammarKind::Discourse : SocialGrammarKind::Unigram,
                    options.model == SocialModel::Em ? InductionMethod::Em : InductionMethod::Vb,
                    nullptr);
  }
  if (!trained) return result;
  result.grammar = std::move(trained->grammar);
  result.records = std::move(trained->records);
  result.stopMessage = trained->message;
  result.freeEnergy = std::numeric_limits<double>::quiet_NaN();
  if (!result.records.empty()) {
    result.negLogLikelihood = result.records.back().negLogLikelihood;
    if (options.model != SocialModel::Em) result.freeEnergy = result.records.back().freeEnergy;
  }

  Diagnostics compileDiagnostics;
  const auto compiled = CompiledGrammar::compile(result.grammar, compileDiagnostics, "learned");
  if (!compiled) {
    diag.append(compileDiagnostics);
    diag.error("", 0, 0, "the learned grammar does not compile");
    return result;
  }
  CorpusDecoding decoding =
      options.decoding == TopicDecodingMode::Viterbi
          ? decodeSocialCorpus(*compiled, corpus, spans, discourse, options.cues, options.threads)
          : decodeSocialCorpusMarginal(result.grammar, corpus, spans, discourse, options.cues,
                                       options.threads);
  result.decodingFailures = decoding.failures;
  if (decoding.failures > 0) {
    diag.warning("", 0, 0,
                 std::to_string(decoding.failures) +
                     " string(s) had no Viterbi parse and were "
                     "decoded as the null topic");
  }
  result.decoded = std::move(decoding.utterances);
  if (options.topicFromWords) labelTopicFromWords(result.decoded);
  result.scores = scoreGrounded(gold, result.decoded, goldDictionary);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace gwb
