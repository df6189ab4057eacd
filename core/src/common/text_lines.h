// Lines and whitespace-separated fields of a text, and reading a text file into a loader: the
// small pieces every plain-text reader of the core (grammars, corpora, gold annotations,
// recordings, topic annotations, lexicons) needs. Internal to gwb_core (not an installed header).
//
// Invariants: views point into the caller's text, which must outlive them. Lines end at "\r\n"
// (CRLF files such as socialall.ortho.yld exist), at a lone '\n' and at a lone '\r' (classic
// Mac OS files), all alike, so that a file with CR-only line ends is never read as one giant
// line; a line never holds its terminator. A UTF-8 byte-order mark (EF BB BF) at the start of a
// text is not part of its first line. Lines are numbered from 1, and a final line end does not
// start another line. Whitespace is ' ', '\t', '\r', '\f'
// and '\v' (not '\n', which only ends lines). Columns are 1-based byte offsets.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/atomic_file.h"

namespace gwb::text {

struct Line {
  std::string_view text;  // without the line terminator
  int number = 0;         // 1-based
};

// The UTF-8 encoding of U+FEFF, which some editors put at the start of a text file.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
// `text` without a leading byte-order mark.
std::string_view withoutByteOrderMark(std::string_view text);

// Whether `text` starts with a UTF-16 byte-order mark (FF FE or FE FF): a file saved as UTF-16,
// whose every other byte is 0 for ASCII text; the readers expect UTF-8 and say so.
bool isUtf16(std::string_view text);
inline constexpr const char* kUtf16Message =
    "the file is UTF-16 encoded; expected UTF-8 (or ASCII) text: save it as UTF-8";

// Splits `text` (a leading byte-order mark dropped) at "\r\n", '\n' and '\r'.
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
// Load whose `diagnostics` hold the error (file name, line 0), and when it is UTF-16, one whose
// diagnostics say so. Load is any of the core's *Load results (a struct with a
// `Diagnostics diagnostics` member).
template <class Load, class Read>
Load loadTextFile(const std::string& path, Read read) {
  std::string content;
  std::string error;
  if (!readWholeFile(path, &content, &error)) {
    Load load;
    load.diagnostics.error(path, 0, 0, error);
    return load;
  }
  if (isUtf16(content)) {
    Load load;
    load.diagnostics.error(path, 1, 1, kUtf16Message);
    return load;
  }
  return read(std::string_view(content), path);
}

}  // namespace gwb::text
