#include "gwb/earley/sentence_file.h"

#include "common/text_lines.h"
#include "gwb/earley/tokenize.h"

namespace gwb {

SentenceFile readSentenceFile(const std::string& path) {
  SentenceFile file;
  std::string text;
  if (!readWholeFile(path, &text, &file.error)) {
    if (file.error.empty()) file.error = "cannot read " + path;
    return file;
  }
  return readSentenceText(text);
}

SentenceFile readSentenceText(std::string_view text) {
  SentenceFile file;
  for (const text::Line& line : text::splitLines(text)) {
    std::vector<std::string> words = tokenize(std::string(line.text));
    if (words.empty()) {
      ++file.blankLines;
    } else {
      file.sentences.push_back(std::move(words));
    }
  }
  return file;
}

}  // namespace gwb
