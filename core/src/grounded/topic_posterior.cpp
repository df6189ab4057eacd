#include "gwb/grounded/topic_posterior.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

#include "common/parallel.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/grounded/topic_transitions.h"

namespace gwb {

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

double logAdd(double a, double b) {
  if (a == kMinusInfinity) return b;
  if (b == kMinusInfinity) return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(std::min(a, b) - hi));
}

double safeLog(double p) { return p > 0.0 ? std::log(p) : kMinusInfinity; }

std::optional<std::string> suffix(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return name.substr(prefix.size());
}

// The probability of rule lhs → rhs (nonterminals given by name), 0 when absent.
double ruleProbability(const Grammar& g, const std::string& lhs,
                       const std::vector<std::string>& rhs) {
  const auto l = g.symbols().findNonterminal(lhs);
  if (!l) return 0.0;
  std::vector<SymbolId> ids;
  for (const std::string& name : rhs) {
    const auto id = g.symbols().findNonterminal(name);
    if (!id) return 0.0;
    ids.push_back(*id);
  }
  const auto rule = g.findRule(*l, ids);
  return rule ? g.rule(*rule).probability : 0.0;
}

double lexicalProbability(const Grammar& g, const std::string& lhs, const std::string& word) {
  const auto l = g.symbols().findNonterminal(lhs);
  const auto w = g.symbols().findTerminal(word);
  if (!l || !w) return 0.0;
  const auto rule = g.findRule(*l, {*w});
  return rule ? g.rule(*rule).probability : 0.0;
}

// The topics of a social-cue grammar: None first, then the others in grammar order.
std::vector<std::string> grammarTopics(const Grammar& g) {
  std::vector<std::string> topics;
  for (SymbolId lhs : g.lhsSymbols()) {
    if (auto t = suffix(g.symbols().name(lhs), "Words.")) topics.push_back(*t);
  }
  const auto none = std::find(topics.begin(), topics.end(), kNullTopic);
  if (none != topics.end()) std::rotate(topics.begin(), none, none + 1);
  return topics;
}

}  // namespace

const char* topicDecodingModeName(TopicDecodingMode mode) {
  return mode == TopicDecodingMode::Viterbi ? "viterbi" : "marginal";
}

std::vector<std::string> bestWordTopics(const Grammar& grammar, const std::string& topic,
                                        const std::vector<std::string>& words) {
  std::vector<std::string> topics(words.size(), kNullTopic);
  if (topic == kNullTopic) return topics;
  const std::string wordsSymbol = "Words." + topic;
  const std::string word = "Word." + topic;
  const std::string none = "Word." + kNullTopic;
  const double goOnTopical = ruleProbability(grammar, wordsSymbol, {word, wordsSymbol});
  const double goOnNull = ruleProbability(grammar, wordsSymbol, {none, wordsSymbol});
  const double endTopical = ruleProbability(grammar, wordsSymbol, {word});
  const double endNull = ruleProbability(grammar, wordsSymbol, {none});
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool last = i + 1 == words.size();
    const double topical =
        (last ? endTopical : goOnTopical) * lexicalProbability(grammar, word, words[i]);
    const double null = (last ? endNull : goOnNull) * lexicalProbability(grammar, none, words[i]);
    if (topical > null) topics[i] = topic;
  }
  return topics;
}

TopicEmissions topicEmissions(const Grammar& grammar, const SocialCorpus& corpus,
                              const std::vector<std::string>& cues, bool discourse, int threads) {
  TopicEmissions out;
  out.topics = grammarTopics(grammar);
  const std::size_t topicCount = out.topics.size();
  out.logE.assign(corpus.utterances.size(), std::vector<double>(topicCount, kMinusInfinity));

  // The utterance grammar: GWB.Utterance → Sentence.t for every topic.
  Grammar g = grammar;
  const SymbolId root = g.symbols().intern("GWB.Utterance", SymbolKind::Nonterminal);
  std::vector<SymbolId> sentence(topicCount);
  for (std::size_t k = 0; k < topicCount; ++k) {
    const std::string& t = out.topics[k];
    sentence[k] = g.symbols().intern("Sentence." + t, SymbolKind::Nonterminal);
    if (!discourse) {
      const double p = ruleProbability(grammar, "Sentence", {"Topic." + t, "Words." + t});
      Rule rule;
      rule.lhs = sentence[k];
      rule.rhs = {g.symbols().intern("Topic." + t, SymbolKind::Nonterminal),
                  g.symbols().intern("Words." + t, SymbolKind::Nonterminal)};
      rule.probability = p;
      if (!g.findRule(rule.lhs, rule.rhs)) g.addRule(rule);
    }
    Rule top;
    top.lhs = root;
    top.rhs = {sentence[k]};
    top.probability = 1.0;
    g.addRule(top);
  }
  g.setStart(root);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(g, diagnostics, "utterance grammar");
  if (!compiled) {
    out.failures = corpus.utterances.size();
    return out;
  }
  std::unordered_map<SymbolId, std::size_t> topicOf;
  for (std::size_t k = 0; k < topicCount; ++k) topicOf.emplace(sentence[k], k);

  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> failures{0};
  const auto work = [&] {
    EarleyParser parser(*compiled);
    ParseOptions options;
    options.viterbi = false;
    EarleyChart chart;
    for (std::size_t i = next++; i < corpus.utterances.size(); i = next++) {
      const std::vector<std::string> tokens = socialTokens(corpus.utterances[i], cues);
      const ParseResult result = parser.parse(tokens, options, chart);
      if (!result.success) {
        ++failures;
        continue;
      }
      const auto last = static_cast<std::int32_t>(tokens.size());
      const ConstSpan<EarleyItem> items = chart.set(tokens.size());
      for (std::size_t k = 0; k < items.size(); ++k) {
        const EarleyItem& item = items[k];
        if (item.origin != 0) continue;
        const CompiledRule& rule = compiled->rule(item.rule);
        if (static_cast<std::size_t>(item.dot) != rule.rhs.size()) continue;
        const auto it = topicOf.find(rule.lhs);
        if (it == topicOf.end()) continue;
        out.logE[i][it->second] = logAdd(
            out.logE[i][it->second], chart.logInner(ItemRef{last, static_cast<std::int32_t>(k)}));
      }
    }
  };
  parallel::runOnThreads(
      std::max(1, std::min<int>(threads, static_cast<int>(corpus.utterances.size()))), work);
  out.failures = failures;
  return out;
}

namespace {

// The discourse grammar's topic chain in log space, indexed like the emissions' topics.
struct LogChain {
  std::vector<double> initial;
  std::vector<double> ending;
  std::vector<std::vector<double>> transition;
};

LogChain logChain(const Grammar& grammar, const std::vector<std::string>& topics) {
  const std::size_t n = topics.size();
  LogChain c{std::vector<double>(n, kMinusInfinity), std::vector<double>(n, kMinusInfinity),
             std::vector<std::vector<double>>(n, std::vector<double>(n, kMinusInfinity))};
  const auto chain = topicTransitions(grammar);
  if (!chain) return c;
  for (std::size_t a = 0; a < n; ++a) {
    const auto ia = chain->indexOf(topics[a]);
    if (!ia) continue;
    const auto ra = static_cast<Eigen::Index>(*ia);
    c.initial[a] = safeLog(chain->initial(ra));
    c.ending[a] = safeLog(chain->ending(ra));
    for (std::size_t b = 0; b < n; ++b) {
      const auto ib = chain->indexOf(topics[b]);
      if (ib) c.transition[a][b] = safeLog(chain->transition(ra, static_cast<Eigen::Index>(*ib)));
    }
  }
  return c;
}

// Forward-backward over utterances [first, first + count): the log posterior (unnormalised) of
// every topic of every utterance.
std::vector<std::vector<double>> logPosteriors(const LogChain& c,
                                               const std::vector<std::vector<double>>& logE,
                                               std::size_t first, std::size_t count) {
  const std::size_t n = c.initial.size();
  std::vector<std::vector<double>> alpha(count, std::vector<double>(n, kMinusInfinity));
  std::vector<std::vector<double>> beta(count, std::vector<double>(n, kMinusInfinity));
  for (std::size_t t = 0; t < n; ++t) alpha[0][t] = c.initial[t] + logE[first][t];
  for (std::size_t i = 1; i < count; ++i) {
    for (std::size_t t = 0; t < n; ++t) {
      double sum = kMinusInfinity;
      for (std::size_t s = 0; s < n; ++s) sum = logAdd(sum, alpha[i - 1][s] + c.transition[s][t]);
      alpha[i][t] = sum + logE[first + i][t];
    }
  }
  beta[count - 1] = c.ending;
  for (std::size_t i = count - 1; i-- > 0;) {
    for (std::size_t s = 0; s < n; ++s) {
      double sum = kMinusInfinity;
      for (std::size_t t = 0; t < n; ++t)
        sum = logAdd(sum, c.transition[s][t] + logE[first + i + 1][t] + beta[i + 1][t]);
      beta[i][s] = sum;
    }
  }
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t t = 0; t < n; ++t) alpha[i][t] += beta[i][t];
  return alpha;
}

std::size_t argmax(const std::vector<double>& scores) {
  return static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
}

}  // namespace

CorpusDecoding decodeSocialCorpusMarginal(const Grammar& grammar, const SocialCorpus& corpus,
                                          const std::vector<Recording>& recordings, bool discourse,
                                          const std::vector<std::string>& cues, int threads) {
  const TopicEmissions e = topicEmissions(grammar, corpus, cues, discourse, threads);
  const std::size_t n = corpus.utterances.size();
  // posterior[i]: unnormalised log posterior of each topic (sentence level: the emissions).
  std::vector<std::vector<double>> posterior = e.logE;
  if (discourse) {
    const LogChain chain = logChain(grammar, e.topics);
    for (const Recording& r : recordings) {
      const auto first = static_cast<std::size_t>(r.firstUtterance);
      const auto count = static_cast<std::size_t>(r.utterances);
      if (count == 0) continue;
      std::vector<std::vector<double>> p = logPosteriors(chain, e.logE, first, count);
      for (std::size_t i = 0; i < count; ++i) posterior[first + i] = std::move(p[i]);
    }
  }
  CorpusDecoding out;
  for (std::size_t i = 0; i < n; ++i) {
    const SocialUtterance& u = corpus.utterances[i];
    const std::size_t best = e.topics.empty() ? 0 : argmax(posterior[i]);
    if (e.topics.empty() || posterior[i][best] == kMinusInfinity) {
      ++out.failures;
      out.utterances.push_back(nullDecoding(u.words));
      continue;
    }
    DecodedUtterance d;
    d.topic = e.topics[best];
    d.words = u.words;
    d.wordTopics = bestWordTopics(grammar, d.topic, u.words);
    out.utterances.push_back(std::move(d));
  }
  return out;
}

}  // namespace gwb
