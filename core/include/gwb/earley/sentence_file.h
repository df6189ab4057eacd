// Sentences to learn from (induction.h), as a file holds them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gwb {

// Training data as `gwb induce` and the workbench read it: one sentence (or whole discourse) per
// line, tokenized on white space, blank lines skipped and counted. Lines end at LF, CRLF or a
// lone CR alike; a UTF-8 byte-order mark at the start is not part of the first word.
struct SentenceFile {
  std::vector<std::vector<std::string>> sentences;
  std::size_t blankLines = 0;
  std::string error;  // the file cannot be read (names it); empty on success
  bool ok() const { return error.empty(); }
};
SentenceFile readSentenceFile(const std::string& path);
// The same from a text already read (`error` stays empty).
SentenceFile readSentenceText(std::string_view text);

}  // namespace gwb
