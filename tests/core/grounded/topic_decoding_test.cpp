#include "gwb/grounded/topic_decoding.h"

#include <atomic>
#include <memory>

#include <gtest/gtest.h>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/social_grammar.h"

namespace gwb {
namespace {

std::string dump(const std::vector<DecodedUtterance>& utterances) {
  std::string out;
  for (const DecodedUtterance& u : utterances) {
    out += u.topic + ":";
    for (std::size_t i = 0; i < u.words.size(); ++i)
      out += " " + u.words[i] + "/" + u.wordTopics[i];
    out += "\n";
  }
  return out;
}

TEST(TopicDecodingTest, ReadsTopicsOffTrees) {
  struct Case {
    const char* tree;
    const char* expected;
  };
  const Case cases[] = {
      // A sentence-level tree, as `gwb parse --viterbi` prints it for unigram.grammar.
      {"( (Sentence (Topic.dog (T.dog (PSEUDO.DOG .dog) (Socials.Topical.mom.point #)) "
       "(Topic.None ##)) (Words.dog (Word.None and) (Words.dog (Word.dog puppy)))))",
       "dog: and/None puppy/dog\n"},
      {"(Sentence (Topic.None ##) (Words.None (Word.None come) (Words.None (Word.None here))))",
       "None: come/None here/None\n"},
      // The discourse grammar: one Sentence.t per utterance, left to right.
      {"(Discourse (Discourse.car (Sentence.car (Topic.car (T.car (PSEUDO.CAR .car) #) "
       "(Topic.None ##)) (Words.car (Word.car car))) (Discourse.None (Sentence.None (Topic.None "
       "##) (Words.None (Word.None there))) (Discourse.car (Sentence.car (Topic.car ##) "
       "(Words.car (Word.None is) (Words.car (Word.car it))))))))",
       "car: car/car\nNone: there/None\ncar: is/None it/car\n"},
      {"", ""},
  };
  for (const Case& c : cases) {
    std::string error;
    const ParseTree tree = parsePtb(c.tree, &error);
    EXPECT_EQ(dump(decodeSocialTree(tree)), c.expected) << c.tree << error;
  }
}

TEST(TopicDecodingTest, DeepDiscourseTreesDoNotOverflowTheStack) {
  // 50,000 utterances in one right-branching discourse, built directly.
  ParseTree tree;
  const int n = 50000;
  int parent = tree.addNode("Discourse", false);
  tree.setRoot(parent);
  for (int i = 0; i < n; ++i) {
    const std::string topic = i % 3 == 0 ? "pig" : "dog";
    const int discourse = tree.addNode("Discourse." + topic, false);
    tree.node(parent).children.push_back(discourse);
    const int sentence = tree.addNode("Sentence." + topic, false);
    const int topicNode = tree.addNode("Topic." + topic, false);
    const int words = tree.addNode("Words." + topic, false);
    const int word = tree.addNode("Word." + topic, false);
    const int leaf = tree.addNode("w" + std::to_string(i), true);
    tree.node(word).children.push_back(leaf);
    tree.node(words).children.push_back(word);
    tree.node(sentence).children = {topicNode, words};
    tree.node(discourse).children.push_back(sentence);
    parent = discourse;
  }
  const std::vector<DecodedUtterance> utterances = decodeSocialTree(tree);
  ASSERT_EQ(utterances.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(utterances[0].topic, "pig");
  EXPECT_EQ(utterances[1].topic, "dog");
  EXPECT_EQ(utterances[n - 1].words, std::vector<std::string>{"w49999"});
}

TEST(TopicDecodingTest, NullDecodingMarksEverythingNonTopical) {
  const DecodedUtterance u = nullDecoding({"a", "b"});
  EXPECT_EQ(u.topic, kNullTopic);
  EXPECT_EQ(u.wordTopics, (std::vector<std::string>{kNullTopic, kNullTopic}));
}

TEST(TopicDecodingTest, TopicFromWordsKeepsATopicOnlyWithAWordOfIt) {
  // (topic, word topics) → expected topic: the gold annotation's rule, written out by hand.
  std::vector<DecodedUtterance> utterances = {
      {"dog", {"a", "puppy"}, {kNullTopic, "dog"}},          // a dog word: stays dog
      {"dog", {"look", "there"}, {kNullTopic, kNullTopic}},  // no topical word: None
      {kNullTopic, {"hi"}, {kNullTopic}},                    // None stays None
      {"pig", {}, {}},                                       // no words at all: None
      {"car", {"vroom", "car"}, {"car", "car"}},             // all topical: stays car
  };
  EXPECT_EQ(labelTopicFromWords(utterances), 2u);
  EXPECT_EQ(dump(utterances),
            "dog: a/None puppy/dog\nNone: look/None there/None\nNone: hi/None\nNone:\n"
            "car: vroom/car car/car\n");
  EXPECT_EQ(labelTopicFromWords(utterances), 0u);  // applying it again changes nothing
}

// A corpus of two recordings (A: utterances 1-3, B: 4-5) and a grammar of each kind for it.
struct DecodingSetup {
  SocialCorpus corpus;
  std::vector<Recording> recordings;
  std::vector<std::shared_ptr<const Grammar>> sources;           // the compiled grammars use them
  std::vector<std::shared_ptr<const CompiledGrammar>> grammars;  // unigram, discourse
};

DecodingSetup decodingSetup() {
  DecodingSetup setup;
  const SocialCorpusLoad load = readSocialCorpus(
      ".dog kid.eyes # .pig # ## the doggie\n.pig kid.eyes mom.eyes # ## a piggie\n## hi\n"
      ".dog mom.eyes # ## doggie woof\n.pig # ## piggie\n",
      "tiny");
  EXPECT_TRUE(load.ok());
  setup.corpus = load.corpus;
  const RecordingsLoad recordings = readRecordings(
      "recording\tfirst_line\tutterances\ttokens\nA\t1\t3\t0\nB\t4\t2\t0\n", "tiny.tsv");
  EXPECT_TRUE(recordings.ok());
  setup.recordings = recordings.recordings;
  for (const SocialGrammarKind kind : {SocialGrammarKind::Unigram, SocialGrammarKind::Discourse}) {
    SocialGrammarOptions options;
    options.kind = kind;
    options.cues = setup.corpus.cueOrder;
    SocialGrammarBuild build = generateSocialGrammar(setup.corpus, options);
    EXPECT_TRUE(build.ok());
    setup.sources.push_back(std::make_shared<const Grammar>(std::move(build.grammar)));
    Diagnostics diagnostics;
    auto compiled = CompiledGrammar::compile(*setup.sources.back(), diagnostics);
    EXPECT_TRUE(compiled);
    setup.grammars.push_back(std::make_shared<const CompiledGrammar>(std::move(*compiled)));
  }
  return setup;
}

TEST(TopicDecodingTest, CorpusDecodingKeepsTreesAndIgnoresTheThreadCount) {
  const DecodingSetup setup = decodingSetup();
  for (const bool discourse : {false, true}) {
    const CompiledGrammar& grammar = *setup.grammars[discourse ? 1 : 0];
    const CorpusDecoding plain = decodeSocialCorpus(grammar, setup.corpus, setup.recordings,
                                                    discourse, setup.corpus.cueOrder, 1);
    EXPECT_EQ(plain.failures, 0u);
    EXPECT_TRUE(plain.trees.empty());
    ASSERT_EQ(plain.utterances.size(), 5u);
    EXPECT_EQ(plain.utterances[3].words, (std::vector<std::string>{"doggie", "woof"}));
    for (const int threads : {1, 4}) {
      SocialDecodeOptions options;
      options.keepTrees = true;
      options.control.threads = threads;
      const CorpusDecoding kept = decodeSocialCorpus(grammar, setup.corpus, setup.recordings,
                                                     discourse, setup.corpus.cueOrder, options);
      EXPECT_EQ(dump(kept.utterances), dump(plain.utterances)) << discourse << threads;
      EXPECT_FALSE(kept.cancelled);
      // One tree per string; each utterance's Sentence subtree decodes to that utterance.
      ASSERT_EQ(kept.trees.size(), discourse ? 2u : 5u);
      for (std::size_t u = 0; u < 5; ++u) {
        const int tree = kept.treeOfUtterance[u];
        EXPECT_EQ(tree, discourse ? (u < 3 ? 0 : 1) : static_cast<int>(u));
        const ParseTree sentence =
            subtree(kept.trees[static_cast<std::size_t>(tree)], kept.nodeOfUtterance[u]);
        EXPECT_EQ(dump(decodeSocialTree(sentence)), dump({kept.utterances[u]})) << u;
        EXPECT_EQ(sentenceNodes(sentence), std::vector<int>{0});
      }
    }
  }
}

TEST(TopicDecodingTest, CorpusDecodingNullDecodesFailuresAndCancelledStrings) {
  const DecodingSetup setup = decodingSetup();
  SocialCorpus other = setup.corpus;
  other.utterances[4].words = {"zebra"};  // a word no grammar has: recording B fails
  for (const bool discourse : {false, true}) {
    const CompiledGrammar& grammar = *setup.grammars[discourse ? 1 : 0];
    SocialDecodeOptions options;
    options.keepTrees = true;
    const CorpusDecoding decoded = decodeSocialCorpus(grammar, other, setup.recordings, discourse,
                                                      setup.corpus.cueOrder, options);
    EXPECT_EQ(decoded.failures, 1u);
    EXPECT_EQ(decoded.treeOfUtterance[4], -1);
    EXPECT_EQ(dump({decoded.utterances[4]}), "None: zebra/None\n");
    EXPECT_EQ(decoded.treeOfUtterance[3], discourse ? -1 : 3);

    // Cancelled after the first string (one thread: strings in order).
    std::atomic<bool> cancel{false};
    BatchProgressFunction observer([&](std::size_t, std::size_t, std::size_t) { cancel = true; });
    options.control.observer = &observer;
    options.control.cancel = &cancel;
    const CorpusDecoding cut = decodeSocialCorpus(grammar, setup.corpus, setup.recordings,
                                                  discourse, setup.corpus.cueOrder, options);
    EXPECT_TRUE(cut.cancelled);
    EXPECT_EQ(cut.failures, 0u);
    EXPECT_EQ(cut.treeOfUtterance[4], -1);
    EXPECT_EQ(cut.treeOfUtterance[0], 0);
    EXPECT_EQ(dump({cut.utterances[4]}), "None: piggie/None\n");
  }
}

}  // namespace
}  // namespace gwb
