// DiscourseData: what the discourse view shows — a social-cue corpus cut into recordings, and
// any number of rows of topic labels over it, one label per utterance.
//
// Rows come from three kinds of source: the raw gold annotation (goldTopicLabels: one topic, the
// null topic, or several joined by '+'), annotation files (topic_annotation.h; one row per
// annotator column) and models (a grammar's Viterbi parses decoded by decodeWithTrees, which
// also keeps the trees so that an utterance's parse can be shown). Invariants: every row has
// exactly corpus().utterances.size() labels (nullopt: the source left the utterance out), and
// the recordings cover the corpus in order without gaps (checkRecordings); without a recordings
// table the whole corpus is one recording "all". Plain C++; errors are Diagnostics naming the
// file and line.
//
// decodeWithTrees is core's decodeSocialCorpus with its trees kept (each string's Viterbi tree
// with the node of every utterance's Sentence subtree), run by core's batch service (threads,
// progress and cancel in `control`), as a model row.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gwb/common/batch.h"
#include "gwb/common/diagnostic.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/parse_tree.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/social_grammar.h"
#include "gwb/grounded/topic_decoding.h"

namespace gwb::ui {

using TopicLabels = std::vector<std::optional<std::string>>;

// A grammar's decoding of the whole corpus, with the trees behind it.
struct ModelDecoding {
  std::string grammarName;  // file name, for row names
  std::string grammarPath;
  std::string root;  // the start symbol the grammar was read with
  bool discourse = false;
  std::vector<std::string> cues;             // the cues kept in the input strings
  std::vector<DecodedUtterance> utterances;  // one per corpus utterance
  std::vector<ParseTree> trees;              // one per parsed string (empty: no parse)
  std::vector<int> treeOfUtterance;          // index into trees; -1 for a failed string
  std::vector<int> nodeOfUtterance;          // the utterance's Sentence node in its tree
  std::size_t failures = 0;                  // strings with no parse
  bool cancelled = false;
};

struct DiscourseRow {
  enum class Kind { Gold, Annotation, Model };
  Kind kind = Kind::Annotation;
  std::string name;                            // shown at the row's left
  std::string source;                          // the file it came from
  TopicLabels labels;                          // one per corpus utterance
  std::shared_ptr<const ModelDecoding> model;  // Kind::Model only
};

class DiscourseData {
 public:
  // Reads the corpus, the gold annotation (empty path: none) and the recordings table (empty:
  // the whole corpus as one recording). Errors are added to `diagnostics`; false when the data
  // cannot be used (unreadable corpus, gold that does not align, recordings that do not cover
  // the corpus).
  bool load(const std::string& corpusPath, const std::string& goldPath,
            const std::string& recordingsPath, Diagnostics& diagnostics);
  // The same from memory (tests).
  bool set(SocialCorpus corpus, std::optional<GoldAnnotation> gold,
           std::vector<Recording> recordings, Diagnostics& diagnostics);

  bool empty() const { return corpus_.utterances.empty(); }
  const SocialCorpus& corpus() const { return corpus_; }
  const std::optional<GoldAnnotation>& gold() const { return gold_; }
  const std::vector<Recording>& recordings() const { return recordings_; }
  std::size_t utteranceCount() const { return corpus_.utterances.size(); }
  // The corpus's topics in the palette's order: by gold frequency (most frequent first) when
  // there is a gold annotation, ties and otherwise by name.
  const std::vector<std::string>& topics() const { return topics_; }

  const std::vector<DiscourseRow>& rows() const { return rows_; }
  // Adds a row of labels; false and a diagnostic when it has the wrong number of labels.
  bool addRow(DiscourseRow row, Diagnostics& diagnostics);
  void removeRow(std::size_t index);
  // Adds one row per annotator of a topic annotation file; returns how many were added.
  std::size_t addAnnotationFile(const std::string& path, Diagnostics& diagnostics);
  // Adds a model row.
  void addModel(std::shared_ptr<const ModelDecoding> model);

  // The utterance's parse under a model row: the Sentence subtree (empty when the string did
  // not parse or the row is no model).
  ParseTree utteranceTree(std::size_t row, std::size_t utterance) const;
  // The utterance as the model's parser read it (its cues only) and in full (every cue).
  std::string utteranceText(std::size_t utterance, const std::vector<std::string>& cues) const;
  // Which recording holds an utterance.
  std::size_t recordingOf(std::size_t utterance) const;

 private:
  SocialCorpus corpus_;
  std::optional<GoldAnnotation> gold_;
  std::vector<Recording> recordings_;
  std::vector<std::string> topics_;
  std::vector<DiscourseRow> rows_;
};

// See the header comment. A cancelled decoding comes back `cancelled`.
ModelDecoding decodeWithTrees(const CompiledGrammar& grammar, const SocialCorpus& corpus,
                              const std::vector<Recording>& recordings, bool discourse,
                              const std::vector<std::string>& cues,
                              const BatchControl& control = {});

// isDiscourseGrammar and grammarCues (social_grammar.h), sentenceNodes (topic_decoding.h) and
// subtree (parse_tree.h) are core's.

}  // namespace gwb::ui
