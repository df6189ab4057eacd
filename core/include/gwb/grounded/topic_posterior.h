// Posterior ("marginal") topic decoding for social-cue grammars, beside the Viterbi decoding of
// topic_decoding.h.
//
// Both grammar families factor over utterances: an utterance's string is fixed by the input,
// and only the topic labels vary. Utterance i with topic t contributes the emission
//
//   e_i(t) = inside of Sentence.t over the utterance's tokens   (summed over all derivations:
//            which object is topical is fixed by t, but each word may still be Word.t or
//            Word.None)
//
// so the sentence-level model is a mixture, P(t | u_i) ∝ P(Sentence → Topic.t Words.t) e_i(t),
// and the discourse model is a hidden Markov model over topics with initial P(Discourse →
// Discourse.t), transitions P(Discourse.t → Sentence.t Discourse.t') and ending P(Discourse.t →
// Sentence.t). Marginal decoding gives each utterance its most probable topic under the
// posterior (forward-backward for the discourse model) instead of the topic of the single best
// derivation; this is what Earleyx's `-decode socialmarginal` computes. Each word's topic then
// comes from the best derivation of Words.t given the utterance's topic: position by position,
// Word.t or Word.None, whichever of P(Words.t → Word.x Words.t) P(Word.x → w) (or the final
// rule P(Words.t → Word.x) at the last word) is larger, None on a tie.
//
// Emissions are read off one Earley chart per utterance, parsed with an "utterance grammar":
// the learned grammar plus GWB.Utterance → Sentence.t for every topic (and Sentence.t → Topic.t
// Words.t for sentence-level grammars, weighted by the topic's Sentence rule).
#pragma once

#include <string>
#include <vector>

#include "gwb/earley/grammar.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_decoding.h"

namespace gwb {

enum class TopicDecodingMode { Viterbi, Marginal };
const char* topicDecodingModeName(TopicDecodingMode mode);  // "viterbi" / "marginal"

// Per utterance, log e_i(t) for every topic of `topics` (−inf where t cannot produce it).
struct TopicEmissions {
  std::vector<std::string> topics;        // T', None first when present
  std::vector<std::vector<double>> logE;  // [utterance][topic]
  std::size_t failures = 0;               // utterances no topic can produce
};

// `discourse`: the grammar is a discourse grammar (Sentence.t rules), else a sentence-level one
// (Sentence → Topic.t Words.t, whose probability is folded into e_i(t)).
TopicEmissions topicEmissions(const Grammar& grammar, const SocialCorpus& corpus,
                              const std::vector<std::string>& cues, bool discourse,
                              int threads = 1);

// Marginal decoding of every utterance (see above). Recordings are the discourse model's
// sequences; the sentence-level model ignores them.
CorpusDecoding decodeSocialCorpusMarginal(const Grammar& grammar, const SocialCorpus& corpus,
                                          const std::vector<Recording>& recordings, bool discourse,
                                          const std::vector<std::string>& cues, int threads = 1);

// The best word topics of `words` under Words.t (kNullTopic: all None).
std::vector<std::string> bestWordTopics(const Grammar& grammar, const std::string& topic,
                                        const std::vector<std::string>& words);

}  // namespace gwb
