// Synthetic social-cue corpora (synthetic_corpus.h): the three files read back with the real
// readers and pass their checks (gold aligned with the corpus, recordings covering it with the
// right token counts); the same seed gives the same bytes, another seed other bytes.
#include "gwb/grounded/synthetic_corpus.h"

#include <gtest/gtest.h>

#include "gwb/grounded/social_corpus.h"

namespace gwb {
namespace {

TEST(SyntheticCorpus, ReadsBackAndPassesEveryCheck) {
  SyntheticCorpusOptions options;
  options.utterances = 450;
  options.utterancesPerRecording = 100;
  options.seed = 5;
  const SyntheticCorpus made = generateSocialCorpus(options);
  SocialCorpusLoad corpus = readSocialCorpus(made.corpus, "synthetic.yld");
  ASSERT_TRUE(corpus.ok());
  EXPECT_EQ(corpus.corpus.utterances.size(), 450u);
  EXPECT_EQ(corpus.corpus.cueOrder.size(), 5u);
  GoldAnnotationLoad gold = readGoldAnnotation(made.gold, "synthetic.gold.yld");
  ASSERT_TRUE(gold.ok());
  Diagnostics checks;
  alignGoldWithCorpus(gold.gold, corpus.corpus, checks);
  EXPECT_FALSE(checks.hasErrors());
  const RecordingsLoad recordings = readRecordings(made.recordings, "synthetic.recordings.tsv");
  ASSERT_TRUE(recordings.ok());
  ASSERT_EQ(recordings.recordings.size(), 5u);  // 4 of 100 and the last of 50
  EXPECT_EQ(recordings.recordings.back().utterances, 50);
  Diagnostics recordingChecks;
  checkRecordings(recordings.recordings, corpus.corpus, "synthetic.recordings.tsv",
                  recordingChecks);
  EXPECT_FALSE(recordingChecks.hasErrors())
      << (recordingChecks.empty() ? "" : toString(recordingChecks.items()[0]));
}

TEST(SyntheticCorpus, TheSeedFixesTheBytes) {
  SyntheticCorpusOptions options;
  options.utterances = 200;
  const SyntheticCorpus a = generateSocialCorpus(options);
  const SyntheticCorpus b = generateSocialCorpus(options);
  EXPECT_EQ(a.corpus, b.corpus);
  EXPECT_EQ(a.gold, b.gold);
  EXPECT_EQ(a.recordings, b.recordings);
  options.seed = 2;
  EXPECT_NE(generateSocialCorpus(options).corpus, a.corpus);
}

}  // namespace
}  // namespace gwb
