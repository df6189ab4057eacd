// Reading topics off a Viterbi parse of a social-cue grammar (social_grammar.h).
//
// An utterance is the subtree of a node labelled `Sentence` (sentence-level grammars) or
// `Sentence.t` (the discourse grammar, one per utterance of the recording, left to right). Its
// topic is the t of its `Topic.t` child (or of `Sentence.t` when there is none); each word's
// topic is the t of the preterminal `Word.t` above it (`Word.None`: the null topic):
//
//   (Sentence (Topic.dog (T.dog ...) (Topic.None ##)) (Words.dog (Word.None and) (Words.dog
//     (Word.dog puppy))))                      → topic dog; and/None, puppy/dog
//
// Trees are walked with an explicit stack: a recording's tree is thousands of levels deep.
// A string with no parse (a word the grammar lacks, a grammar pruned too far) is decoded as
// the null topic everywhere and counted as a failure.
#pragma once

#include <string>
#include <vector>

#include "gwb/common/batch.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/parse_tree.h"
#include "gwb/grounded/social_corpus.h"

namespace gwb {

struct DecodedUtterance {
  std::string topic;                    // kNullTopic for a non-topical utterance
  std::vector<std::string> words;       // the words under Word.* preterminals, in order
  std::vector<std::string> wordTopics;  // one per word
};

// Every utterance of `tree`, left to right. An empty tree gives none.
std::vector<DecodedUtterance> decodeSocialTree(const ParseTree& tree);
// The Sentence / Sentence.t nodes of a tree, left to right (the utterances decodeSocialTree
// reads, in its order).
std::vector<int> sentenceNodes(const ParseTree& tree);

// The utterance-topic rule of the paper's evaluation (the gold annotation's own rule: an
// utterance is topical only when it has a topical word): an utterance whose topic is t but none
// of whose words was drawn from Word.t becomes None. Word topics are left as they are. Applied
// to our parses, this rule gives the paper's figures (docs/grounded-learning.md, Reproduction).
// Returns how many utterances it changed.
std::size_t labelTopicFromWords(std::vector<DecodedUtterance>& utterances);

// What to predict for an utterance that did not parse: the null topic everywhere.
DecodedUtterance nullDecoding(const std::vector<std::string>& words);

struct CorpusDecoding {
  std::vector<DecodedUtterance> utterances;  // one per corpus utterance, in order
  std::size_t failures = 0;  // strings (utterances or recordings) with no parse: null-decoded
  bool cancelled = false;    // stopped by the cancel flag: strings not reached are null-decoded
                             // and not counted as failures
  // With SocialDecodeOptions::keepTrees only: one Viterbi tree per string (utterance or
  // recording; empty when it did not parse), and for each utterance its string's index in
  // `trees` (-1: no parse) and the node of its Sentence subtree there (-1: none).
  std::vector<ParseTree> trees;
  std::vector<int> treeOfUtterance;
  std::vector<int> nodeOfUtterance;
};

struct SocialDecodeOptions {
  BatchControl control;    // threads, progress (one item per string), cancel flag
  bool keepTrees = false;  // keep the Viterbi trees behind the decoding (see CorpusDecoding)
};

// Viterbi-parses the corpus with `grammar` (a social_grammar.h grammar or one learned from it)
// and decodes every utterance: each utterance on its own for sentence-level grammars, each
// recording as one string for the discourse grammar. `cues` are the cues the grammar was made
// with (the input strings keep only those). Strings are parsed on the batch service (batch.h);
// the result does not depend on the thread count.
CorpusDecoding decodeSocialCorpus(const CompiledGrammar& grammar, const SocialCorpus& corpus,
                                  const std::vector<Recording>& recordings, bool discourse,
                                  const std::vector<std::string>& cues,
                                  const SocialDecodeOptions& options);
// The same with `threads` threads and nothing else.
CorpusDecoding decodeSocialCorpus(const CompiledGrammar& grammar, const SocialCorpus& corpus,
                                  const std::vector<Recording>& recordings, bool discourse,
                                  const std::vector<std::string>& cues, int threads = 1);

}  // namespace gwb
