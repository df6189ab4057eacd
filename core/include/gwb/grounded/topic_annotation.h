// Topic annotations: one topic label per utterance, from any number of annotators.
//
// This is the format for annotations users bring themselves (the paper's human discourse
// annotations, section 7.4, are not public), for the labels a model predicts, and for the raw
// gold topics turned into label sequences. One line per utterance, one column per annotator,
// columns separated by tabs or spaces (labels never hold spaces):
//
//     # annotators: h1 h2          (optional; names the columns, else they are 1, 2, ...)
//     car     car
//     none    car
//     ?       car                  ('?' or NA: this annotator left the utterance out)
//
// A label is a topic, with or without its leading dot (`.car` = `car`); `none`, `None`, `-` and
// `##` are the null topic (stored as kNullTopic). Other lines starting with '#' are comments.
// Every utterance line must have the same number of columns. Errors are values with file:line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"

namespace gwb {

struct GoldAnnotation;  // social_corpus.h

struct TopicAnnotations {
  std::string source;
  std::vector<std::string> annotators;
  // labels[a][u]: annotator a's label for utterance u; nullopt where the annotator gave none.
  std::vector<std::vector<std::optional<std::string>>> labels;
  std::vector<int> lines;  // the file line of each utterance

  std::size_t utteranceCount() const { return lines.size(); }
  // The column of annotator `name`: a name from the header, else a column number "1", "2", ...
  std::optional<std::size_t> annotatorIndex(std::string_view name) const;
};

struct TopicAnnotationsLoad {
  TopicAnnotations annotations;
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

TopicAnnotationsLoad readTopicAnnotations(std::string_view text, const std::string& sourceName);
TopicAnnotationsLoad loadTopicAnnotationsFile(const std::string& path);

// Writes labels one a line (nullopt as '?', the null topic as `None`), with an annotators header
// when there is more than one column or the column has a name.
std::string topicAnnotationsText(const TopicAnnotations& annotations);

// The raw gold topics as one label per utterance: the topic, the null topic, or several topics
// joined by '+' in the order written (`dog+pig`).
std::vector<std::optional<std::string>> goldTopicLabels(const GoldAnnotation& gold);

}  // namespace gwb
