#include "gwb/earley/tokenize.h"

#include <sstream>

#include "common/text_lines.h"

namespace gwb {

std::vector<std::string> sentenceLines(std::string_view text) {
  std::vector<std::string> lines;
  for (const text::Line& line : text::splitLines(text)) lines.emplace_back(line.text);
  return lines;
}

std::vector<std::string> tokenize(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

}  // namespace gwb
