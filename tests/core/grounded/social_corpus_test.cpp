#include "gwb/grounded/social_corpus.h"

#include <set>

#include <gtest/gtest.h>

#include "gwb/common/atomic_file.h"
#include "shared_data.h"

namespace gwb {
namespace {

std::string firstDiagnostic(const Diagnostics& diagnostics) {
  return diagnostics.empty() ? std::string() : toString(diagnostics.items().front());
}

TEST(SocialCorpusTest, ReadsObjectsCuesAndWords) {
  const SocialCorpusLoad load = readSocialCorpus(
      ".dog kid.eyes mom.eyes # .pig kid.hands # ## and whats that\r\n## come here\r\n", "c");
  ASSERT_TRUE(load.ok()) << firstDiagnostic(load.diagnostics);
  ASSERT_EQ(load.corpus.utterances.size(), 2u);
  const SocialUtterance& u = load.corpus.utterances[0];
  ASSERT_EQ(u.objects.size(), 2u);
  EXPECT_EQ(u.objects[0].name, "dog");
  EXPECT_EQ(u.objects[0].cues, (std::vector<std::string>{"kid.eyes", "mom.eyes"}));
  EXPECT_EQ(u.objects[1].name, "pig");
  EXPECT_EQ(u.words, (std::vector<std::string>{"and", "whats", "that"}));
  EXPECT_TRUE(load.corpus.utterances[1].objects.empty());
  EXPECT_EQ(load.corpus.utterances[1].line, 2);
  // kid.hands is only ever seen alone, so it follows in order of first appearance.
  EXPECT_EQ(load.corpus.cueOrder, (std::vector<std::string>{"kid.eyes", "mom.eyes", "kid.hands"}));
  EXPECT_EQ(load.corpus.topics(), (std::vector<std::string>{"dog", "pig"}));
  EXPECT_EQ(load.corpus.wordCount(), 5u);
}

TEST(SocialCorpusTest, CueOrderRespectsEveryObject) {
  // First appearance says kid.eyes, mom.eyes, kid.hands; the second line puts kid.hands before
  // mom.eyes, which a topological order must respect.
  const SocialCorpusLoad load =
      readSocialCorpus(".a kid.eyes mom.eyes # ## w\n.b kid.hands mom.eyes # ## w\n", "c");
  ASSERT_TRUE(load.ok());
  EXPECT_EQ(load.corpus.cueOrder, (std::vector<std::string>{"kid.eyes", "kid.hands", "mom.eyes"}));
}

TEST(SocialCorpusTest, CuesInOppositeOrdersGiveANoteAndFirstAppearance) {
  const SocialCorpusLoad load = readSocialCorpus(".a x y # ## w\n.b y x # ## w\n", "c");
  ASSERT_TRUE(load.ok());
  EXPECT_EQ(load.corpus.cueOrder, (std::vector<std::string>{"x", "y"}));
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_EQ(load.diagnostics.items()[0].severity, Severity::Note);
  EXPECT_NE(load.diagnostics.items()[0].message.find("'x' before 'y'"), std::string::npos)
      << load.diagnostics.items()[0].message;
}

TEST(SocialCorpusTest, ManyCuesOnOneObjectKeepTheirOrder) {
  // One object with 600 cues: every pair is an order constraint (the reader once searched the
  // order for each pair, cubic in the cues; found by fuzz_social_corpus as a 2 s input).
  std::string line = ".o";
  std::vector<std::string> cues;
  for (int i = 0; i < 600; ++i) {
    cues.push_back("c" + std::to_string(i));
    line += " " + cues.back();
  }
  line += " # ## w\n";
  // A second object with two of them reversed: one note, the first appearance kept.
  line += ".p c1 c0 # ## w\n";
  const SocialCorpusLoad load = readSocialCorpus(line, "c");
  ASSERT_TRUE(load.ok());
  EXPECT_EQ(load.corpus.cueOrder, cues);
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_EQ(load.diagnostics.items()[0].severity, Severity::Note);
}

TEST(SocialCorpusTest, ReportsMalformedLinesWithFileAndLine) {
  struct Case {
    const char* text;
    const char* expected;  // the first diagnostic
  };
  const Case cases[] = {
      {".dog kid.eyes ## w\n",
       "c.yld:1:15: error: expected '#' to close object '.dog' before '##'"},
      {"kid.eyes # ## w\n",
       "c.yld:1:1: error: social cue 'kid.eyes' outside an object: expected "
       "'.object' before its cues"},
      {".dog kid.eyes #\n", "c.yld:1: error: missing '##' between the objects and the words"},
      {"## a\n\n## b\n",
       "c.yld:2: error: empty line: expected the objects present, '##' and the "
       "words"},
      {"# ## w\n", "c.yld:1:1: error: '#' closes no object: expected '.object' first"},
      {". # ## w\n", "c.yld:1:1: error: an object needs a name after '.'"},
      {".None # ## w\n", "c.yld:1:1: error: object name 'None' is reserved for the null topic"},
      {".dog .pig # ## w\n", "c.yld:1:6: error: expected '#' to close object '.dog' before '.pig'"},
      {".dog # ##\n",
       "c.yld:1: warning: utterance without words: no social-cue grammar can parse "
       "it"},
      {".dog kid.eyes kid.eyes # ## w\n",
       "c.yld:1:15: warning: cue 'kid.eyes' repeated on one object; read once"},
  };
  for (const Case& c : cases) {
    const SocialCorpusLoad load = readSocialCorpus(c.text, "c.yld");
    EXPECT_EQ(firstDiagnostic(load.diagnostics), c.expected) << c.text;
  }
}

TEST(SocialCorpusTest, SocialTokensKeepTheSelectedCuesInGrammarOrder) {
  const SocialCorpusLoad load =
      readSocialCorpus(".dog mom.eyes kid.eyes # .pig kid.hands # ## hi there\n", "c");
  ASSERT_TRUE(load.ok());
  const SocialUtterance& u = load.corpus.utterances[0];
  struct Case {
    std::vector<std::string> cues;
    std::string expected;
  };
  const Case cases[] = {
      {{"kid.eyes", "kid.hands", "mom.eyes"},
       ".dog kid.eyes mom.eyes # .pig kid.hands # ## hi there"},
      {{}, ".dog # .pig # ## hi there"},
      {{"mom.eyes"}, ".dog mom.eyes # .pig # ## hi there"},
  };
  for (const Case& c : cases) {
    std::string joined;
    for (const std::string& t : socialTokens(u, c.cues)) joined += (joined.empty() ? "" : " ") + t;
    EXPECT_EQ(joined, c.expected);
  }
}

TEST(SocialCorpusTest, GoldAnnotationMarksTopicsAndTopicalWords) {
  GoldAnnotationLoad load =
      readGoldAnnotation(".dog ## a puppy.dog dog.dog\n## woof\n.dog .pig ## mr.x\n", "g");
  ASSERT_TRUE(load.ok()) << firstDiagnostic(load.diagnostics);
  const GoldAnnotation& gold = load.gold;
  ASSERT_EQ(gold.utterances.size(), 3u);
  EXPECT_EQ(gold.utterances[0].topics, std::vector<std::string>{"dog"});
  EXPECT_EQ(gold.utterances[0].words, (std::vector<std::string>{"a", "puppy", "dog"}));
  EXPECT_EQ(gold.utterances[0].wordTopics, (std::vector<std::string>{kNullTopic, "dog", "dog"}));
  EXPECT_TRUE(gold.utterances[1].topics.empty());
  EXPECT_EQ(gold.topicLabelCount(), 3u);
  // "mr.x" reads as the word "mr" about x, until the corpus says the word is "mr.x".
  EXPECT_EQ(gold.topicalWordCount(), 3u);
  const SocialCorpusLoad corpus =
      readSocialCorpus(".dog # ## a puppy dog\n## woof\n.dog # .pig # ## mr.x\n", "c");
  Diagnostics diagnostics;
  alignGoldWithCorpus(load.gold, corpus.corpus, diagnostics);
  EXPECT_TRUE(diagnostics.empty()) << firstDiagnostic(diagnostics);
  EXPECT_EQ(load.gold.utterances[2].words, std::vector<std::string>{"mr.x"});
  EXPECT_EQ(load.gold.topicalWordCount(), 2u);
}

TEST(SocialCorpusTest, GoldThatDoesNotMatchTheCorpusIsReported) {
  struct Case {
    const char* gold;
    const char* expected;
  };
  const Case cases[] = {
      {"## a b\n", "g:1: error: 2 words, but line 1 of c has 3"},
      {"## a b d\n", "g:1: error: word 3 is 'd' but 'c' in c:1"},
      {"## a b c\n## x\n",
       "g: error: the gold annotation has 2 lines but the corpus c has 1 "
       "utterances"},
      {"dog ## a b c\n", "g:1:1: error: expected a topic '.object' or '##', found 'dog'"},
  };
  const SocialCorpusLoad corpus = readSocialCorpus("## a b c\n", "c");
  for (const Case& c : cases) {
    GoldAnnotationLoad load = readGoldAnnotation(c.gold, "g");
    Diagnostics diagnostics = load.diagnostics;
    alignGoldWithCorpus(load.gold, corpus.corpus, diagnostics);
    EXPECT_EQ(firstDiagnostic(diagnostics), c.expected) << c.gold;
  }
}

TEST(SocialCorpusTest, RecordingsTableIsCheckedAgainstTheCorpus) {
  const SocialCorpusLoad corpus = readSocialCorpus(".a # ## x y\n## z\n## w\n", "c");
  struct Case {
    const char* table;
    const char* expected;  // "" = no diagnostics
  };
  const Case cases[] = {
      {"recording\tfirst_line\tutterances\ttokens\nA\t1\t2\t7\nB\t3\t1\t2\n", ""},
      {"recording\tfirst_line\tutterances\ttokens\nA\t1\t2\t9\nB\t3\t1\t2\n",
       "r.tsv:2: error: recording 'A' has 7 tokens in the corpus, the table says 9"},
      {"recording\tfirst_line\tutterances\ttokens\nA\t1\t1\t5\nB\t3\t1\t2\n",
       "r.tsv:3: error: recording 'B' starts at line 3, expected line 2 (recordings must tile the "
       "corpus)"},
      {"recording\tfirst_line\tutterances\ttokens\nA\t1\t2\t7\n",
       "r.tsv: error: the recordings cover 2 of the 3 utterances"},
      {"id\tstart\nA\t1\t2\t8\n",
       "r.tsv:1:1: error: expected the header 'recording first_line utterances tokens'"},
      {"recording\tfirst_line\tutterances\ttokens\nA\tone\t2\t8\n",
       "r.tsv:2:3: error: first_line must be a line number (1 or more)"},
  };
  for (const Case& c : cases) {
    const RecordingsLoad load = readRecordings(c.table, "r.tsv");
    Diagnostics diagnostics = load.diagnostics;
    if (load.ok()) checkRecordings(load.recordings, corpus.corpus, "r.tsv", diagnostics);
    EXPECT_EQ(firstDiagnostic(diagnostics), c.expected) << c.table;
  }
}

TEST(SocialCorpusTest, RealCorpusHasThePapersCounts) {
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(goldPath, "data/earleyx/data/gold.topic.ortho.yld");
  GWB_REQUIRE_SHARED(recordingsPath, "data/social-cues/recordings.tsv");
  const SocialCorpusLoad corpus = loadSocialCorpusFile(corpusPath);
  ASSERT_TRUE(corpus.ok()) << firstDiagnostic(corpus.diagnostics);
  EXPECT_TRUE(corpus.diagnostics.empty()) << firstDiagnostic(corpus.diagnostics);
  EXPECT_EQ(corpus.corpus.utterances.size(), 4763u);
  EXPECT_EQ(corpus.corpus.topics().size(), 30u);
  EXPECT_EQ(corpus.corpus.vocabulary().size(), 1110u);
  EXPECT_EQ(corpus.corpus.cueOrder, (std::vector<std::string>{"kid.eyes", "kid.hands", "mom.eyes",
                                                              "mom.hands", "mom.point"}));

  GoldAnnotationLoad gold = loadGoldAnnotationFile(goldPath);
  ASSERT_TRUE(gold.ok()) << firstDiagnostic(gold.diagnostics);
  Diagnostics diagnostics;
  alignGoldWithCorpus(gold.gold, corpus.corpus, diagnostics);
  EXPECT_TRUE(diagnostics.empty()) << firstDiagnostic(diagnostics);
  std::size_t topical = 0;
  for (const GoldUtterance& u : gold.gold.utterances) topical += u.topics.empty() ? 0 : 1;
  EXPECT_EQ(topical, 2378u);
  EXPECT_EQ(gold.gold.topicLabelCount(), 2550u);
  EXPECT_EQ(gold.gold.topicalWordCount(), 1239u);

  const RecordingsLoad recordings = loadRecordingsFile(recordingsPath);
  ASSERT_TRUE(recordings.ok()) << firstDiagnostic(recordings.diagnostics);
  EXPECT_EQ(recordings.recordings.size(), 24u);
  checkRecordings(recordings.recordings, corpus.corpus, recordingsPath, diagnostics);
  EXPECT_TRUE(diagnostics.empty()) << firstDiagnostic(diagnostics);
}

TEST(SocialCorpusTest, RecordingTokensEqualTheSharedConcatFiles) {
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(recordingsPath, "data/social-cues/recordings.tsv");
  GWB_REQUIRE_SHARED(concatPath, "data/social-cues/recordings/A31.concat");
  const SocialCorpusLoad corpus = loadSocialCorpusFile(corpusPath);
  const RecordingsLoad recordings = loadRecordingsFile(recordingsPath);
  ASSERT_TRUE(corpus.ok() && recordings.ok());
  const Recording* a31 = nullptr;
  for (const Recording& r : recordings.recordings)
    if (r.id == "A31") a31 = &r;
  ASSERT_NE(a31, nullptr);
  std::string expected;
  ASSERT_TRUE(readWholeFile(concatPath, &expected));
  std::string joined;
  for (const std::string& t : recordingTokens(corpus.corpus, *a31, corpus.corpus.cueOrder))
    joined += (joined.empty() ? "" : " ") + t;
  while (!expected.empty() && (expected.back() == '\n' || expected.back() == '\r'))
    expected.pop_back();
  EXPECT_EQ(joined, expected);
}

}  // namespace
}  // namespace gwb
