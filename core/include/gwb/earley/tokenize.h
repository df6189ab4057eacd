// Sentences as the parsers read them: a text cut into lines, a line into words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gwb {

// Splits a line into tokens on white space.
std::vector<std::string> tokenize(const std::string& line);
// The lines of an input text, one sentence each (`gwb parse`): blank lines kept, lines ended by
// LF, CRLF or a lone CR alike, a UTF-8 byte-order mark at the start dropped.
std::vector<std::string> sentenceLines(std::string_view text);

}  // namespace gwb
