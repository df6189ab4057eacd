#include "gwb/grounded/topic_decoding.h"

#include <gtest/gtest.h>

#include "gwb/grounded/social_corpus.h"

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

}  // namespace
}  // namespace gwb
