// Lines and whitespace-separated fields of a text, and reading a text file into a loader: the
// small pieces every plain-text reader of the core (grammars, corpora, gold annotations,
// recordings, topic annotations, lexicons) needs. Internal to gwb_core (not an installed header).
//
// Invariants: views point into the caller's text, which must outlive them. A line never holds its
// '\n' nor a '\r' before it (CRLF files such as socialall.ortho.yld exist); lines are numbered
// from 1, and a final newline does not start another line. Whitespace is ' ', '\t', '\r', '\f'
// and '\v' (not '\n', which only ends lines). Columns are 1-based byte offsets.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/atomic_file.h"

namespace gwb::text {

struct Line {
  std::string_view text;  // without the line terminator
  int number = 0;         // 1-based
};

// Splits on '\n', dropping a '\r' before it.
std::vector<Line> splitLines(std::string_view text);

bool isSpace(char c);
bool isBlank(std::string_view line);  // empty or whitespace only
std::string_view trim(std::string_view s);

struct Token {
  std::string_view text;
  int column = 0;  // 1-based
};

// The maximal runs of non-whitespace (tokens, fields), with where each starts.
std::vector<Token> splitTokens(std::string_view line);
// The same without columns.
std::vector<std::string_view> splitFields(std::string_view line);

// Reads `path` whole and returns `read(text, path)`; when the file cannot be read, a default
// Load whose `diagnostics` hold the error (file name, line 0). Load is any of the core's *Load
// results (a struct with a `Diagnostics diagnostics` member).
template <class Load, class Read>
Load loadTextFile(const std::string& path, Read read) {
  std::string content;
  std::string error;
  if (!readWholeFile(path, &content, &error)) {
    Load load;
    load.diagnostics.error(path, 0, 0, error);
    return load;
  }
  return read(std::string_view(content), path);
}

}  // namespace gwb::text
