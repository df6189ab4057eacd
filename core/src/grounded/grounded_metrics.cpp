#include "gwb/grounded/grounded_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <boost/math/distributions/chi_squared.hpp>

#include "common/text_lines.h"

namespace gwb {

namespace {

double percent(std::size_t part, std::size_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

double PrecisionRecall::precision() const { return percent(correct, predicted); }
double PrecisionRecall::recall() const { return percent(correct, gold); }
double PrecisionRecall::f1() const {
  const double p = precision();
  const double r = recall();
  return p + r == 0.0 ? 0.0 : 2.0 * p * r / (p + r);
}

double GroundedScores::accuracy() const { return percent(correctUtterances, utterances); }

double GroundedScores::labelAccuracy() const {
  // Correct topical utterances are topic.correct, so the rest of correctUtterances are Nones.
  return percent(correctUtterances, topic.gold + nullGold);
}

Lexicon goldLexicon(const GoldAnnotation& gold) {
  Lexicon lexicon;
  for (const GoldUtterance& u : gold.utterances) {
    for (std::size_t i = 0; i < u.words.size() && i < u.wordTopics.size(); ++i)
      if (u.wordTopics[i] != kNullTopic) lexicon.emplace(u.words[i], u.wordTopics[i]);
  }
  return lexicon;
}

LexiconLoad readLexicon(std::string_view text, const std::string& sourceName) {
  LexiconLoad load;
  for (const text::Line& line : text::splitLines(text)) {
    const std::vector<std::string_view> fields = text::splitFields(line.text);
    if (fields.empty() || fields.front().front() == '#') continue;
    if (fields.size() != 2) {
      load.diagnostics.error(
          sourceName, line.number, 0,
          "expected 'word topic', found " + std::to_string(fields.size()) + " field(s)");
      continue;
    }
    std::string_view topic = fields[1];
    if (topic.size() > 1 && topic.front() == '.') topic.remove_prefix(1);
    load.lexicon.emplace(std::string(fields[0]), std::string(topic));
  }
  return load;
}

LexiconLoad loadLexiconFile(const std::string& path) {
  return text::loadTextFile<LexiconLoad>(path, readLexicon);
}

Lexicon predictedLexicon(const std::vector<DecodedUtterance>& predicted) {
  std::map<std::string, std::map<std::string, std::size_t>> counts;
  for (const DecodedUtterance& u : predicted) {
    for (std::size_t i = 0; i < u.words.size() && i < u.wordTopics.size(); ++i)
      ++counts[u.words[i]][u.wordTopics[i]];
  }
  Lexicon lexicon;
  for (const auto& [word, byTopic] : counts) {
    // The most frequent topic; on a tie None first, then the first name (map order).
    const std::string* best = nullptr;
    std::size_t bestCount = 0;
    const auto none = byTopic.find(kNullTopic);
    if (none != byTopic.end()) {
      best = &none->first;
      bestCount = none->second;
    }
    for (const auto& [topic, count] : byTopic) {
      if (count > bestCount) {
        best = &topic;
        bestCount = count;
      }
    }
    if (best && *best != kNullTopic) lexicon.emplace(word, *best);
  }
  return lexicon;
}

GroundedScores scoreGrounded(const GoldAnnotation& gold,
                             const std::vector<DecodedUtterance>& predicted,
                             const Lexicon& goldDictionary, std::size_t* mismatches) {
  GroundedScores s;
  std::size_t bad = 0;
  const std::size_t n = gold.utterances.size();
  s.utterances = n;
  s.utteranceCorrect.assign(n, false);
  s.topic.gold = gold.topicLabelCount();
  s.word.gold = gold.topicalWordCount();
  for (std::size_t i = 0; i < n; ++i) {
    const GoldUtterance& g = gold.utterances[i];
    if (g.topics.empty()) ++s.nullGold;
    const bool have = i < predicted.size() && predicted[i].words == g.words &&
                      predicted[i].wordTopics.size() == g.words.size();
    if (!have) {
      ++bad;
      s.wordCorrect.insert(s.wordCorrect.end(), g.words.size(), false);
      continue;
    }
    const DecodedUtterance& p = predicted[i];
    const bool topical = p.topic != kNullTopic;
    const bool inGold = std::find(g.topics.begin(), g.topics.end(), p.topic) != g.topics.end();
    const bool correct = topical ? inGold : g.topics.empty();
    s.utteranceCorrect[i] = correct;
    if (correct) ++s.correctUtterances;
    if (topical) {
      ++s.topic.predicted;
      if (inGold) ++s.topic.correct;
    }
    for (std::size_t k = 0; k < g.words.size(); ++k) {
      const std::string& predictedTopic = p.wordTopics[k];
      const std::string& goldTopic = g.wordTopics[k];
      s.wordCorrect.push_back(predictedTopic == goldTopic);
      if (predictedTopic != kNullTopic) {
        ++s.word.predicted;
        if (predictedTopic == goldTopic) ++s.word.correct;
      }
    }
  }
  const Lexicon lexicon = predictedLexicon(predicted);
  s.lexicon.predicted = lexicon.size();
  s.lexicon.gold = goldDictionary.size();
  for (const auto& entry : lexicon)
    if (goldDictionary.count(entry) != 0U) ++s.lexicon.correct;
  if (mismatches) *mismatches = bad;
  return s;
}

ChiSquareTest chiSquareCorrectness(std::size_t correctA, std::size_t totalA, std::size_t correctB,
                                   std::size_t totalB, bool yates) {
  ChiSquareTest test;
  // The table, cell k = (row k / 2, column k % 2): rows are the models, columns correct/wrong.
  const std::vector<double> observed = {
      static_cast<double>(correctA), static_cast<double>(totalA - std::min(correctA, totalA)),
      static_cast<double>(correctB), static_cast<double>(totalB - std::min(correctB, totalB))};
  const std::vector<double> rows = {observed[0] + observed[1], observed[2] + observed[3]};
  const std::vector<double> columns = {observed[0] + observed[2], observed[1] + observed[3]};
  const double total = rows[0] + rows[1];
  if (rows[0] == 0 || rows[1] == 0 || columns[0] == 0 || columns[1] == 0) return test;
  std::vector<double> expected(4);
  double correction = 0.5;  // R: min(0.5, |O − E|), the same in every cell of a 2×2 table
  for (std::size_t k = 0; k < 4; ++k) {
    expected[k] = rows[k / 2] * columns[k % 2] / total;
    correction = std::min(correction, std::abs(observed[k] - expected[k]));
  }
  if (!yates) correction = 0.0;
  double statistic = 0.0;
  for (std::size_t k = 0; k < 4; ++k) {
    const double d = std::abs(observed[k] - expected[k]) - correction;
    statistic += d * d / expected[k];
  }
  test.statistic = statistic;
  // NaN rather than an exception when the statistic is not a number (a class no item has).
  using NoThrowPolicy = boost::math::policies::policy<
      boost::math::policies::domain_error<boost::math::policies::ignore_error>,
      boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
      boost::math::policies::evaluation_error<boost::math::policies::ignore_error>>;
  const boost::math::chi_squared_distribution<double, NoThrowPolicy> distribution(1.0);
  test.pValue = boost::math::cdf(boost::math::complement(distribution, statistic));
  return test;
}

ChiSquareTest chiSquareCorrectness(const std::vector<bool>& a, const std::vector<bool>& b,
                                   bool yates) {
  const auto correct = [](const std::vector<bool>& v) {
    return static_cast<std::size_t>(std::count(v.begin(), v.end(), true));
  };
  return chiSquareCorrectness(correct(a), a.size(), correct(b), b.size(), yates);
}

}  // namespace gwb
