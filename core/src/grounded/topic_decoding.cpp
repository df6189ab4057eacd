#include "gwb/grounded/topic_decoding.h"

#include <algorithm>
#include <memory>
#include <string_view>

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

std::vector<int> sentenceNodes(const ParseTree& tree) {
  std::vector<int> nodes;
  if (tree.empty() || tree.root() < 0) return nodes;
  std::vector<int> stack{tree.root()};
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const ParseTree::Node& node = tree.node(id);
    if (node.terminal) continue;
    if (node.label == "Sentence" || startsWith(node.label, "Sentence.")) {
      nodes.push_back(id);
      continue;  // utterances do not nest
    }
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack.push_back(*it);
  }
  return nodes;
}

CorpusDecoding decodeSocialCorpus(const CompiledGrammar& grammar, const SocialCorpus& corpus,
                                  const std::vector<Recording>& recordings, bool discourse,
                                  const std::vector<std::string>& cues,
                                  const SocialDecodeOptions& options) {
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
  const std::size_t utteranceCount = corpus.utterances.size();
  CorpusDecoding out;
  out.utterances.resize(utteranceCount);
  if (options.keepTrees) {
    out.trees.resize(spans.size());
    out.treeOfUtterance.assign(utteranceCount, -1);
    out.nodeOfUtterance.assign(utteranceCount, -1);
  }
  // 0: not reached (cancelled), 1: parsed and decoded, 2: failed.
  std::vector<char> state(spans.size(), 0);
  const BatchOutcome outcome = runBatch(spans.size(), options.control, [&]() -> BatchWorker {
    auto parser = std::make_shared<EarleyParser>(grammar);
    return [&, parser](std::size_t s) {
      ParseOptions parseOptions;
      parseOptions.viterbi = true;
      const auto [first, count] = spans[s];
      std::vector<std::string> tokens;
      for (std::size_t i = first; i < first + count; ++i) {
        const std::vector<std::string> one = socialTokens(corpus.utterances[i], cues);
        tokens.insert(tokens.end(), one.begin(), one.end());
      }
      ParseResult result = parser->parse(tokens, parseOptions);
      std::vector<DecodedUtterance> utterances;
      std::vector<int> nodes;
      if (result.success) {
        utterances = decodeSocialTree(result.viterbiTree);
        if (options.keepTrees) nodes = sentenceNodes(result.viterbiTree);
      }
      bool ok = result.success && utterances.size() == count &&
                (!options.keepTrees || nodes.size() == count);
      for (std::size_t k = 0; ok && k < count; ++k)
        ok = utterances[k].words == corpus.utterances[first + k].words;
      if (!ok) {
        state[s] = 2;
        for (std::size_t i = first; i < first + count; ++i)
          out.utterances[i] = nullDecoding(corpus.utterances[i].words);
        return;
      }
      state[s] = 1;
      for (std::size_t k = 0; k < count; ++k) {
        out.utterances[first + k] = std::move(utterances[k]);
        if (options.keepTrees) {
          out.treeOfUtterance[first + k] = static_cast<int>(s);
          out.nodeOfUtterance[first + k] = nodes[k];
        }
      }
      if (options.keepTrees) out.trees[s] = std::move(result.viterbiTree);
    };
  });
  out.cancelled = outcome.cancelled;
  for (std::size_t s = 0; s < spans.size(); ++s) {
    out.failures += state[s] == 2 ? 1 : 0;
    if (state[s] == 0) {
      const auto [first, count] = spans[s];
      for (std::size_t i = first; i < first + count; ++i)
        out.utterances[i] = nullDecoding(corpus.utterances[i].words);
    }
  }
  return out;
}

CorpusDecoding decodeSocialCorpus(const CompiledGrammar& grammar, const SocialCorpus& corpus,
                                  const std::vector<Recording>& recordings, bool discourse,
                                  const std::vector<std::string>& cues, int threads) {
  SocialDecodeOptions options;
  options.control.threads = threads;
  return decodeSocialCorpus(grammar, corpus, recordings, discourse, cues, options);
}

}  // namespace gwb
