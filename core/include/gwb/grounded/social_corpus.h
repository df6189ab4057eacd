// The social-cue corpus of grounded word learning (Frank et al. 2013; Johnson, Demuth & Frank
// 2012; Luong, Frank & Johnson 2013, section 3), its gold annotation and its recordings.
//
// A corpus file (`socialall.ortho.yld`) holds one child-directed utterance a line. For every
// object present in the scene it lists `.object`, then the social cues on that object, then `#`;
// then `##`; then the words:
//
//     .dog kid.eyes mom.eyes # .pig kid.hands # ## and whats that is this a puppy dog
//
// A gold file (`gold.topic.ortho.yld`), aligned line by line, gives the utterance's topics
// before `##` (none: the null topic) and marks topical words as `word.topic`:
//
//     .dog ## and whats that is this a puppy.dog dog.dog
//
// A recordings table (`recordings.tsv`: recording, first_line, utterances, tokens) cuts the
// corpus into the sessions it was recorded in; the discourse model parses each one as a single
// string.
//
// Names: objects and topics are stored without their leading dot ("dog"); the null topic is
// kNullTopic. Invariants of a loaded corpus: every utterance has at least one word (utterances
// without words are reported and kept, but no grammar of this family can parse them); each
// object's cues appear once; `cueOrder` lists every cue of the corpus once, in an order that
// agrees with the order they are written in on every object whenever the file is consistent.
//
// Readers never throw on bad input: they return what they could read plus diagnostics with the
// file, 1-based line and column and what was expected. Lines may end in CRLF.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"

namespace gwb {

// The null topic: a non-topical utterance, or a word drawn from the general distribution.
inline const std::string kNullTopic = "None";

struct SocialObject {
  std::string name;               // without the leading '.', e.g. "dog"
  std::vector<std::string> cues;  // as written, e.g. {"kid.eyes", "mom.eyes"}
};

struct SocialUtterance {
  std::vector<SocialObject> objects;  // in the order written
  std::vector<std::string> words;
  int line = 0;  // 1-based line in the file it was read from
};

struct SocialCorpus {
  std::string source;  // the name the reader was given
  std::vector<SocialUtterance> utterances;
  // Every cue of the corpus once: a topological order of the orders seen on objects, ties broken
  // by first appearance (kid.eyes kid.hands mom.eyes mom.hands mom.point for the real corpus).
  std::vector<std::string> cueOrder;

  // The object names (the possible topics T), sorted by byte value.
  std::vector<std::string> topics() const;
  // The word types W, sorted by byte value.
  std::vector<std::string> vocabulary() const;
  std::size_t wordCount() const;  // word tokens
};

struct SocialCorpusLoad {
  SocialCorpus corpus;
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

SocialCorpusLoad readSocialCorpus(std::string_view text, const std::string& sourceName);

struct SocialCorpusReadOptions {
  // A line may hold several utterances, one after another (a whole recording on one line, as in
  // the `.concat` files): after the words, an object or '##' starts the next utterance, which
  // keeps the line's number. Off: one utterance a line, and such tokens are words (warned about).
  bool utterancesOnOneLine = false;
};
SocialCorpusLoad readSocialCorpus(std::string_view text, const std::string& sourceName,
                                  const SocialCorpusReadOptions& options);
// An unreadable file gives one error diagnostic.
SocialCorpusLoad loadSocialCorpusFile(const std::string& path);

// The utterance's tokens as written: each object with its cues in their order, '#', then '##'
// and the words (for an utterance read without errors, the tokens of its line).
std::vector<std::string> writtenTokens(const SocialUtterance& utterance);

// The tokens a grammar of this family parses for one utterance, keeping only the cues in
// `cues` and writing them in that order:  .dog kid.eyes # .pig # ## and whats that
std::vector<std::string> socialTokens(const SocialUtterance& utterance,
                                      const std::vector<std::string>& cues);

// ---- Gold annotation ----

struct GoldUtterance {
  std::vector<std::string> topics;      // empty: the null topic (names without '.')
  std::vector<std::string> words;       // the words, topic marks removed
  std::vector<std::string> wordTopics;  // one per word; kNullTopic for non-topical words
  int line = 0;
};

struct GoldAnnotation {
  std::string source;
  std::vector<GoldUtterance> utterances;
  std::size_t topicLabelCount() const;   // Σ |topics| (2,550 in the real corpus)
  std::size_t topicalWordCount() const;  // words with a topic (1,239 in the real corpus)
};

struct GoldAnnotationLoad {
  GoldAnnotation gold;
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

// A marked word `w.t` is split at its last '.' (the corpus check below repairs words that
// themselves hold a dot).
GoldAnnotationLoad readGoldAnnotation(std::string_view text, const std::string& sourceName);
GoldAnnotationLoad loadGoldAnnotationFile(const std::string& path);

// Checks that `gold` annotates `corpus`: as many lines, and the same words on each. A gold
// token `a.b` whose corpus word is `a.b` is read back as the unmarked word. Errors name the
// gold file's line.
void alignGoldWithCorpus(GoldAnnotation& gold, const SocialCorpus& corpus,
                         Diagnostics& diagnostics);

// ---- Recordings ----

struct Recording {
  std::string id;
  int firstUtterance = 0;  // 0-based index into the corpus (first_line − 1)
  int utterances = 0;
  int tokens = 0;  // tokens of the recording's string (objects, cues, #, ## and words)
  int line = 0;    // line in the table
};

struct RecordingsLoad {
  std::vector<Recording> recordings;
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

// Tab-separated with the header `recording first_line utterances tokens`.
RecordingsLoad readRecordings(std::string_view text, const std::string& sourceName);
RecordingsLoad loadRecordingsFile(const std::string& path);

// Checks that the recordings cover the corpus in order, without gaps or overlaps, and that
// their token counts agree with the corpus (all cues kept). Errors name the table's line.
void checkRecordings(const std::vector<Recording>& recordings, const SocialCorpus& corpus,
                     const std::string& sourceName, Diagnostics& diagnostics);

// One recording as a single string (the discourse model's input): the utterances' socialTokens
// one after another.
std::vector<std::string> recordingTokens(const SocialCorpus& corpus, const Recording& recording,
                                         const std::vector<std::string>& cues);

// When no recordings table is given: the whole corpus as one recording "all".
std::vector<Recording> wholeCorpusRecording(const SocialCorpus& corpus);

}  // namespace gwb
