#include "gwb/grounded/topic_annotation.h"

#include <sstream>

#include "common/text_lines.h"
#include "gwb/grounded/social_corpus.h"

namespace gwb {

namespace {

using text::isSpace;
using text::splitFields;

std::optional<std::string> normaliseLabel(std::string_view label) {
  if (label == "?" || label == "NA") return std::nullopt;
  if (label == "none" || label == "None" || label == "NONE" || label == "-" || label == "##")
    return kNullTopic;
  if (label.size() > 1 && label.front() == '.') label.remove_prefix(1);
  return std::string(label);
}

// A topic as written so that normaliseLabel reads it back: a topic the reader would change (a
// reserved word such as "NA", or a name that starts with a dot), take for a comment (a name that
// starts with '#') or for a byte-order mark (at the start of the text) gets a leading dot.
std::string writtenLabel(const std::string& topic) {
  const bool startsLikeAMarker =
      topic.front() == '#' || std::string_view(topic).substr(0, 3) == text::kByteOrderMark;
  if (topic == kNullTopic || (normaliseLabel(topic) == topic && !startsLikeAMarker)) return topic;
  return "." + topic;
}

}  // namespace

std::optional<std::size_t> TopicAnnotations::annotatorIndex(std::string_view name) const {
  for (std::size_t i = 0; i < annotators.size(); ++i)
    if (annotators[i] == name) return i;
  // A column number, also when the columns have names.
  std::size_t number = 0;
  for (char c : name) {
    if (c < '0' || c > '9' || number > annotators.size()) return std::nullopt;
    number = number * 10 + static_cast<std::size_t>(c - '0');
  }
  if (name.empty() || number < 1 || number > annotators.size()) return std::nullopt;
  return number - 1;
}

TopicAnnotationsLoad readTopicAnnotations(std::string_view text, const std::string& sourceName) {
  TopicAnnotationsLoad load;
  TopicAnnotations& a = load.annotations;
  a.source = sourceName;
  std::vector<std::string> header;
  int headerLine = 0;
  int lineNumber = 0;
  std::size_t columns = 0;
  for (const text::Line& numbered : text::splitLines(text)) {
    const std::string_view line = numbered.text;
    lineNumber = numbered.number;
    // A comment starts with '#' (after any blanks, so that a first label '#' is never written
    // back as a comment), but a line may well start with the null-topic label "##".
    const std::string_view start = text::trim(line);
    const bool comment =
        !start.empty() && start.front() == '#' &&
        (start.size() == 1 || start[1] != '#' || (start.size() > 2 && !isSpace(start[2])));
    if (comment) {
      constexpr std::string_view kHeader = "annotators:";
      std::vector<std::string_view> fields = splitFields(start.substr(1));
      if (!fields.empty() && fields.front() == kHeader) {
        if (!a.lines.empty() || headerLine != 0) {
          load.diagnostics.error(sourceName, lineNumber, 1,
                                 "the annotators header must come before the first label");
          continue;
        }
        headerLine = lineNumber;
        for (std::size_t i = 1; i < fields.size(); ++i) header.emplace_back(fields[i]);
      }
      continue;
    }
    const std::vector<std::string_view> fields = splitFields(line);
    if (columns == 0) {
      if (fields.empty()) {
        load.diagnostics.error(sourceName, lineNumber, 0,
                               "empty line: expected one topic label per annotator");
        continue;
      }
      columns = fields.size();
      a.labels.assign(columns, {});
    }
    if (fields.size() != columns) {
      load.diagnostics.error(sourceName, lineNumber, 0,
                             "expected " + std::to_string(columns) +
                                 " label(s), one per "
                                 "annotator, found " +
                                 std::to_string(fields.size()));
      continue;
    }
    for (std::size_t c = 0; c < columns; ++c) a.labels[c].push_back(normaliseLabel(fields[c]));
    a.lines.push_back(lineNumber);
  }
  if (columns == 0) {
    load.diagnostics.error(sourceName, 0, 0, "no topic labels");
    return load;
  }
  if (!header.empty() && header.size() != columns) {
    load.diagnostics.error(sourceName, headerLine, 0,
                           "the header names " + std::to_string(header.size()) +
                               " annotator(s) but the lines have " + std::to_string(columns) +
                               " column(s)");
    header.clear();
  }
  if (header.empty())
    for (std::size_t c = 0; c < columns; ++c) header.push_back(std::to_string(c + 1));
  a.annotators = header;
  return load;
}

TopicAnnotationsLoad loadTopicAnnotationsFile(const std::string& path) {
  TopicAnnotationsLoad load = text::loadTextFile<TopicAnnotationsLoad>(path, readTopicAnnotations);
  load.annotations.source = path;  // also when the file could not be read
  return load;
}

std::string topicAnnotationsText(const TopicAnnotations& annotations) {
  std::ostringstream out;
  const bool named = annotations.annotators.size() > 1 ||
                     (annotations.annotators.size() == 1 && annotations.annotators[0] != "1");
  if (named) {
    out << "# annotators:";
    for (const std::string& name : annotations.annotators) out << ' ' << name;
    out << '\n';
  }
  for (std::size_t u = 0; u < annotations.utteranceCount(); ++u) {
    for (std::size_t c = 0; c < annotations.labels.size(); ++c) {
      if (c > 0) out << '\t';
      const auto& label = annotations.labels[c][u];
      out << (label ? writtenLabel(*label) : std::string("?"));
    }
    out << '\n';
  }
  return out.str();
}

std::vector<std::optional<std::string>> goldTopicLabels(const GoldAnnotation& gold) {
  std::vector<std::optional<std::string>> labels;
  labels.reserve(gold.utterances.size());
  for (const GoldUtterance& u : gold.utterances) {
    if (u.topics.empty()) {
      labels.emplace_back(kNullTopic);
      continue;
    }
    std::string joined;
    for (const std::string& t : u.topics) joined += (joined.empty() ? "" : "+") + t;
    labels.emplace_back(joined);
  }
  return labels;
}

}  // namespace gwb
