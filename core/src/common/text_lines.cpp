#include "common/text_lines.h"

#include <algorithm>

namespace gwb::text {

std::string_view withoutByteOrderMark(std::string_view text) {
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark)
    text.remove_prefix(kByteOrderMark.size());
  return text;
}

bool isUtf16(std::string_view text) {
  return text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF";
}

std::vector<Line> splitLines(std::string_view text) {
  text = withoutByteOrderMark(text);
  // Room for every line first (an upper bound: "\r\n" counts twice), so that the lines are one
  // allocation: readers split every text they read, and a growing vector copies its lines
  // about twice over.
  const auto ends =
      std::count_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; });
  std::vector<Line> lines;
  lines.reserve(static_cast<std::size_t>(ends) + 1);
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    lines.push_back(Line{text.substr(start, end - start), ++number});
    // "\r\n" ends one line, as do a lone '\r' (classic Mac OS) and a lone '\n'.
    if (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n') ++end;
    start = end + 1;
  }
  return lines;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

bool isBlank(std::string_view line) { return std::all_of(line.begin(), line.end(), isSpace); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

namespace {

// Calls `visit(start, end)` for each maximal run of non-whitespace in `line`.
template <class Visit>
void forEachToken(std::string_view line, Visit visit) {
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !isSpace(line[i])) ++i;
    if (i > start) visit(start, i);
  }
}

std::size_t countTokens(std::string_view line) {
  std::size_t count = 0;
  forEachToken(line, [&](std::size_t, std::size_t) { ++count; });
  return count;
}

}  // namespace

// Both count first and allocate once (as splitLines does).
std::vector<Token> splitTokens(std::string_view line) {
  std::vector<Token> fields;
  fields.reserve(countTokens(line));
  forEachToken(line, [&](std::size_t start, std::size_t end) {
    fields.push_back(Token{line.substr(start, end - start), static_cast<int>(start) + 1});
  });
  return fields;
}

std::vector<std::string_view> splitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  fields.reserve(countTokens(line));
  forEachToken(line, [&](std::size_t start, std::size_t end) {
    fields.push_back(line.substr(start, end - start));
  });
  return fields;
}

}  // namespace gwb::text
