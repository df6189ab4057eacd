#include "gwb/grounded/topic_decoding.h"

#include <algorithm>
#include <atomic>
#include <string_view>

#include "common/parallel.h"
#include "gwb/earley/earley_parser.h"

namespace gwb {

namespace {

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::vector<DecodedUtterance> decodeSocialTree(const ParseTree& tree) {
  std::vector<DecodedUtterance> utterances;
  if (tree.empty() || tree.root() < 0) return utterances;
  constexpr std::string_view kSentence = "Sentence";
  constexpr std::string_view kTopic = "Topic.";
  constexpr std::string_view kWord = "Word.";
  // Pre-order, left to right: an utterance's words come after its Sentence node and before the
  // next one's.
  std::vector<int> stack{tree.root()};
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const ParseTree::Node& node = tree.node(id);
    if (node.terminal) continue;
    const std::string& label = node.label;
    if (label == kSentence || startsWith(label, "Sentence.")) {
      DecodedUtterance u;
      u.topic = label == kSentence ? kNullTopic : label.substr(kSentence.size() + 1);
      for (int child : node.children) {
        const std::string& childLabel = tree.node(child).label;
        if (!tree.node(child).terminal && startsWith(childLabel, kTopic)) {
          u.topic = childLabel.substr(kTopic.size());
          break;
        }
      }
      utterances.push_back(std::move(u));
    } else if (startsWith(label, kWord) && node.children.size() == 1 &&
               tree.node(node.children.front()).terminal && !utterances.empty()) {
      utterances.back().words.push_back(tree.node(node.children.front()).label);
      utterances.back().wordTopics.push_back(label.substr(kWord.size()));
      continue;
    }
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack.push_back(*it);
  }
  return utterances;
}

std::size_t labelTopicFromWords(std::vector<DecodedUtterance>& utterances) {
  std::size_t changed = 0;
  for (DecodedUtterance& u : utterances) {
    if (u.topic == kNullTopic) continue;
    if (std::find(u.wordTopics.begin(), u.wordTopics.end(), u.topic) != u.wordTopics.end())
      continue;
    u.topic = kNullTopic;
    ++changed;
  }
  return changed;
}

DecodedUtterance nullDecoding(const std::vector<std::string>& words) {
  DecodedUtterance u;
  u.topic = kNullTopic;
  u.words = words;
  u.wordTopics.assign(words.size(), kNullTopic);
  return u;
}

CorpusDecoding decodeSocialCorpus(const CompiledGrammar& grammar, const SocialCorpus& corpus,
                                  const std::vector<Recording>& recordings, bool discourse,
                                  const std::vector<std::string>& cues, int threads) {
  // The strings to parse: (first utterance, utterance count).
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  if (discourse) {
    for (const Recording& r : recordings) {
      spans.emplace_back(static_cast<std::size_t>(r.firstUtterance),
                         static_cast<std::size_t>(r.utterances));
    }
  } else {
    for (std::size_t i = 0; i < corpus.utterances.size(); ++i) spans.emplace_back(i, 1);
  }
  std::vector<std::vector<DecodedUtterance>> decoded(spans.size());
  std::vector<char> failed(spans.size(), 0);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    EarleyParser parser(grammar);
    ParseOptions options;
    options.viterbi = true;
    for (std::size_t s = next++; s < spans.size(); s = next++) {
      const auto [first, count] = spans[s];
      std::vector<std::string> tokens;
      for (std::size_t i = first; i < first + count; ++i) {
        const std::vector<std::string> one = socialTokens(corpus.utterances[i], cues);
        tokens.insert(tokens.end(), one.begin(), one.end());
      }
      const ParseResult result = parser.parse(tokens, options);
      std::vector<DecodedUtterance> utterances;
      if (result.success) utterances = decodeSocialTree(result.viterbiTree);
      bool ok = result.success && utterances.size() == count;
      for (std::size_t k = 0; ok && k < count; ++k)
        ok = utterances[k].words == corpus.utterances[first + k].words;
      if (!ok) {
        failed[s] = 1;
        utterances.clear();
        for (std::size_t i = first; i < first + count; ++i)
          utterances.push_back(nullDecoding(corpus.utterances[i].words));
      }
      decoded[s] = std::move(utterances);
    }
  };
  parallel::runOnThreads(std::max(1, std::min<int>(threads, static_cast<int>(spans.size()))), work);

  CorpusDecoding out;
  for (std::size_t s = 0; s < spans.size(); ++s) {
    out.failures += failed[s] != 0 ? 1 : 0;
    for (DecodedUtterance& u : decoded[s]) out.utterances.push_back(std::move(u));
  }
  return out;
}

}  // namespace gwb
