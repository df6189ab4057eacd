// Synthetic social-cue corpora of any size, for scaling studies (docs/scale-out.md): the three
// files of the social-cue experiments — the corpus (.yld: objects with their cues, then the
// words), the gold annotation (topic and topical words) and the recordings table — drawn from a
// small generative model with the shape of Frank et al.'s corpus:
//
//   - a recording is a run of utterances whose topic follows a Markov chain: it stays with
//     probability `stay`, else is drawn afresh (None with probability `noTopic`, else uniformly
//     among the objects);
//   - the objects present are the topic (if any) and 0–2 others; each of the five cues
//     (kid.eyes, kid.hands, mom.eyes, mom.hands, mom.point) marks an object with one
//     probability when it is the topic and a lower one when it is not;
//   - an utterance has 1–8 words; each is one of the topic's own words with probability
//     `topicWord` (gold-annotated word.topic), else a function word drawn from a Zipf law.
//
// The same options and seed give the same files, byte for byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gwb {

struct SyntheticCorpusOptions {
  std::size_t utterances = 1000;
  std::size_t utterancesPerRecording = 200;  // the last recording may be shorter
  int objects = 30;
  int wordsPerObject = 3;
  int functionWords = 200;
  double stay = 0.6;
  double noTopic = 0.25;
  double topicWord = 0.2;
  std::uint64_t seed = 1;
};

struct SyntheticCorpus {
  std::string corpus;      // .yld, as socialall.ortho.yld
  std::string gold;        // as gold.topic.ortho.yld
  std::string recordings;  // as recordings.tsv
};

SyntheticCorpus generateSocialCorpus(const SyntheticCorpusOptions& options);

}  // namespace gwb
