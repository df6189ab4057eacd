// Corpus files as the workbench opens them: the kind told from the content, plain sentences,
// recordings on one line; a byte-order mark and CR-only line ends read as the CLI reads them.
#include "gwb/grounded/corpus_file.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/earley/tokenize.h"
#include "shared_data.h"

namespace gwb {
namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

TEST(CorpusFileTest, DetectsTheKindOfFile) {
  struct Case {
    const char* text;
    CorpusKind kind;
  };
  const Case cases[] = {
      {"# comment\ni saw john\n", CorpusKind::Sentences},
      {"", CorpusKind::Sentences},
      {".dog # ## hi\r\n## yes\r\n", CorpusKind::SocialCues},
      {".dog ## a dog.dog\n## b\n", CorpusKind::GoldTopics},
      // A byte-order mark and CR-only line ends: the comment is a comment, the rest is seen.
      {"\xEF\xBB\xBF# a comment with ## in it\r## b\r", CorpusKind::GoldTopics},
      {"\xEF\xBB\xBF#comment\r.dog kid.eyes # ## hi\r", CorpusKind::SocialCues},
      {"\xEF\xBB\xBF#comment # ##\ri saw john\r", CorpusKind::Sentences},
  };
  for (const Case& c : cases) EXPECT_EQ(detectCorpusKind(c.text), c.kind) << c.text;
  EXPECT_STREQ(corpusKindName(CorpusKind::GoldTopics), "gold topics");
}

TEST(CorpusFileTest, SentencesSkipCommentsAndBlankLines) {
  struct Case {
    const char* text;
    std::vector<std::pair<int, const char*>> sentences;  // line, words
  };
  const Case cases[] = {
      {"# sentences\ni saw john\n\n  the man walked \n",
       {{2, "i saw john"}, {4, "the man walked"}}},
      {"\xEF\xBB\xBF# sentences\ri saw john\r\rthe\tman walked\r",
       {{2, "i saw john"}, {4, "the man walked"}}},
      {"\xEF\xBB\xBFi saw john\r\nsaw the the", {{1, "i saw john"}, {2, "saw the the"}}},
      {"## not a comment\n#nor this one? yes it is\n", {{1, "## not a comment"}}},
  };
  for (const Case& c : cases) {
    const SentenceCorpusLoad load = readSentenceCorpus(c.text, "s.txt");
    EXPECT_TRUE(load.diagnostics.empty());
    ASSERT_EQ(load.sentences.size(), c.sentences.size()) << c.text;
    for (std::size_t i = 0; i < c.sentences.size(); ++i) {
      EXPECT_EQ(load.sentences[i].line, c.sentences[i].first) << c.text;
      EXPECT_EQ(joined(load.sentences[i].words), c.sentences[i].second) << c.text;
    }
  }
}

// What `gwb parse -i` reads from the same file (sentenceLines): the same sentences.
TEST(CorpusFileTest, ASentenceFileReadsAsTheCliReadsIt) {
  const std::string path = testing::sourceDir() + "/tests/data/pp-cr-only-with-bom.txt";
  const CorpusFileLoad load = loadCorpusFile(path);
  ASSERT_TRUE(load.opened);
  EXPECT_TRUE(load.ok());
  EXPECT_EQ(load.kind, CorpusKind::Sentences);
  std::vector<std::string> cli;
  for (const std::string& line :
       sentenceLines("\xEF\xBB\xBFi saw john\rsaw the the\ri saw the man with the telescope\r"))
    cli.push_back(joined(tokenize(line)));
  ASSERT_EQ(load.sentences.size(), cli.size());
  for (std::size_t i = 0; i < cli.size(); ++i) {
    EXPECT_EQ(joined(load.sentences[i].words), cli[i]);
    EXPECT_EQ(load.sentences[i].line, static_cast<int>(i) + 1);
  }
}

TEST(CorpusFileTest, SocialCueFilesMayHoldARecordingOnALine) {
  const std::string text =
      "\xEF\xBB\xBF.dog kid.eyes mom.eyes # .pig kid.hands # ## and whats that\r"
      ".dog mom.hands # ## woof woof .dog kid.eyes mom.hands # ## thats nice ## come here you\r";
  const CorpusFileLoad load = readCorpusText(text, "c.yld");
  EXPECT_TRUE(load.ok()) << toString(load.diagnostics.items().front());
  EXPECT_EQ(load.kind, CorpusKind::SocialCues);
  const std::vector<std::pair<int, const char*>> expected = {
      {1, ".dog kid.eyes mom.eyes # .pig kid.hands # ## and whats that"},
      {2, ".dog mom.hands # ## woof woof"},
      {2, ".dog kid.eyes mom.hands # ## thats nice"},
      {2, "## come here you"},
  };
  ASSERT_EQ(load.social.utterances.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(load.social.utterances[i].line, expected[i].first);
    EXPECT_EQ(joined(writtenTokens(load.social.utterances[i])), expected[i].second);
  }
  EXPECT_EQ(load.social.utterances[0].objects[0].name, "dog");  // no byte-order mark in it
  // The CLI's corpus reader keeps one utterance a line unless asked.
  const SocialCorpusLoad oneALine = readSocialCorpus(text, "c.yld");
  EXPECT_EQ(oneALine.corpus.utterances.size(), 2u);
  EXPECT_EQ(oneALine.diagnostics.warningCount(), 4);  // words that look like objects or '##'
}

TEST(CorpusFileTest, GoldFilesAndUnreadableFiles) {
  const CorpusFileLoad gold =
      readCorpusText("\xEF\xBB\xBF.dog ## a puppy.dog\r## woof\r", "gold.topic.yld");
  EXPECT_TRUE(gold.ok());
  ASSERT_EQ(gold.kind, CorpusKind::GoldTopics);
  ASSERT_EQ(gold.gold.utterances.size(), 2u);
  EXPECT_EQ(gold.gold.utterances[0].topics, std::vector<std::string>{"dog"});
  EXPECT_EQ(gold.gold.utterances[0].wordTopics, (std::vector<std::string>{kNullTopic, "dog"}));
  EXPECT_EQ(gold.gold.utterances[1].line, 2);

  const CorpusFileLoad missing = loadCorpusFile(testing::sourceDir() + "/no/such/corpus.txt");
  EXPECT_FALSE(missing.opened);
  EXPECT_FALSE(missing.ok());
  const CorpusFileLoad utf16 =
      loadCorpusFile(testing::sourceDir() + "/tests/data/bad-input/social-corpus/utf16-file.yld");
  EXPECT_FALSE(utf16.opened);
  EXPECT_EQ(utf16.diagnostics.items().front().line, 1);
}

TEST(CorpusFileSharedTest, ARecordingOnOneLine) {
  GWB_REQUIRE_SHARED(path, "data/social-cues/recordings/A12.concat");
  const CorpusFileLoad load = loadCorpusFile(path);
  EXPECT_EQ(load.kind, CorpusKind::SocialCues);
  // recordings.tsv: A12 has 238 utterances and 2,038 tokens.
  ASSERT_EQ(load.social.utterances.size(), 238u);
  std::size_t tokens = 0;
  for (const SocialUtterance& u : load.social.utterances) tokens += writtenTokens(u).size();
  EXPECT_EQ(tokens, 2038u);
}

}  // namespace
}  // namespace gwb
