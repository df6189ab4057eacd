#include "gwb/grounded/synthetic_corpus.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

namespace gwb {

namespace {

struct Cue {
  const char* name;
  double onTopic;
  double offTopic;
};
constexpr std::array<Cue, 5> kCues = {{{"kid.eyes", 0.55, 0.12},
                                       {"kid.hands", 0.35, 0.10},
                                       {"mom.eyes", 0.50, 0.10},
                                       {"mom.hands", 0.30, 0.06},
                                       {"mom.point", 0.20, 0.02}}};

// Uniform in [0, 1) from the generator, the same on every platform (std::uniform_real_distribution
// is not specified bit for bit).
double unit(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * (1.0 / 9007199254740992.0);
}
std::size_t below(std::mt19937_64& random, std::size_t n) {
  return static_cast<std::size_t>(unit(random) * static_cast<double>(n));
}

}  // namespace

SyntheticCorpus generateSocialCorpus(const SyntheticCorpusOptions& options) {
  std::mt19937_64 random(options.seed);
  const auto objects = static_cast<std::size_t>(std::max(1, options.objects));
  const auto perObject = static_cast<std::size_t>(std::max(1, options.wordsPerObject));
  const auto functionCount = static_cast<std::size_t>(std::max(1, options.functionWords));
  std::vector<std::string> objectNames(objects);
  for (std::size_t o = 0; o < objects; ++o) objectNames[o] = "obj" + std::to_string(o + 1);
  // Zipf's law over the function words: P(rank k) ∝ 1/k, drawn through the cumulative sums.
  std::vector<double> cumulative(functionCount);
  double sum = 0.0;
  for (std::size_t k = 0; k < functionCount; ++k) cumulative[k] = sum += 1.0 / double(k + 1);
  const auto functionWord = [&] {
    const double u = unit(random) * sum;
    const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
    return "w" + std::to_string(
                     std::min<std::size_t>(static_cast<std::size_t>(at), functionCount - 1) + 1);
  };

  std::ostringstream corpus, gold, recordings;
  recordings << "recording\tfirst_line\tutterances\ttokens\n";
  const std::size_t perRecording = std::max<std::size_t>(1, options.utterancesPerRecording);
  long topic = -1;  // -1: None
  std::size_t recordingStart = 0;
  std::size_t recordingTokens = 0;
  for (std::size_t u = 0; u < options.utterances; ++u) {
    if (u % perRecording == 0 || unit(random) >= options.stay) {
      topic = unit(random) < options.noTopic ? -1 : static_cast<long>(below(random, objects));
    }
    // The objects present: the topic and 0-2 others, in a fixed order.
    std::vector<std::size_t> present;
    if (topic >= 0) present.push_back(static_cast<std::size_t>(topic));
    const std::size_t others = below(random, 3);
    for (std::size_t k = 0; k < others; ++k) {
      const std::size_t o = below(random, objects);
      if (std::find(present.begin(), present.end(), o) == present.end()) present.push_back(o);
    }
    std::ostringstream line;
    for (std::size_t o : present) {
      line << '.' << objectNames[o];
      for (const Cue& cue : kCues) {
        if (unit(random) < (static_cast<long>(o) == topic ? cue.onTopic : cue.offTopic))
          line << ' ' << cue.name;
      }
      line << " # ";
    }
    line << "##";
    std::ostringstream goldLine;
    if (topic >= 0) goldLine << '.' << objectNames[static_cast<std::size_t>(topic)] << ' ';
    goldLine << "##";
    const std::size_t words = 1 + below(random, 8);
    for (std::size_t w = 0; w < words; ++w) {
      if (topic >= 0 && unit(random) < options.topicWord) {
        const std::string word = objectNames[static_cast<std::size_t>(topic)] + "w" +
                                 std::to_string(below(random, perObject) + 1);
        line << ' ' << word;
        goldLine << ' ' << word << '.' << objectNames[static_cast<std::size_t>(topic)];
      } else {
        const std::string word = functionWord();
        line << ' ' << word;
        goldLine << ' ' << word;
      }
    }
    const std::string text = line.str();
    corpus << text << '\n';
    gold << goldLine.str() << '\n';
    std::istringstream tokens(text);
    for (std::string token; tokens >> token;) ++recordingTokens;
    const bool lastOfRecording = (u + 1) % perRecording == 0 || u + 1 == options.utterances;
    if (lastOfRecording) {
      recordings << 'r' << recordingStart / perRecording + 1 << '\t' << recordingStart + 1 << '\t'
                 << u + 1 - recordingStart << '\t' << recordingTokens << '\n';
      recordingStart = u + 1;
      recordingTokens = 0;
    }
  }
  return {corpus.str(), gold.str(), recordings.str()};
}

}  // namespace gwb
