// Tokens of the parenthesised notation shared by the GeoQuery files (logical forms, types,
// signatures): '(' , ')' and atoms (maximal runs of other non-space characters), each with its
// 1-based line and column. `//` starts a comment to the end of the line when asked for.
// Internal to gwb_core.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gwb::ccg::detail {

struct SexprToken {
  enum class Kind { Open, Close, Atom } kind = Kind::Atom;
  std::string_view text;
  int line = 1;
  int column = 1;
};

inline std::vector<SexprToken> tokenizeSexpr(std::string_view text, int firstLine, int firstColumn,
                                             bool slashComments) {
  std::vector<SexprToken> tokens;
  int line = firstLine;
  int column = firstColumn;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      column = 1;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++column;
      ++i;
      continue;
    }
    if (slashComments && c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '(' || c == ')') {
      tokens.push_back({c == '(' ? SexprToken::Kind::Open : SexprToken::Kind::Close,
                        text.substr(i, 1), line, column});
      ++column;
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && text[i] != '(' && text[i] != ')' && text[i] != ' ' &&
           text[i] != '\t' && text[i] != '\n' && text[i] != '\r' && text[i] != '\f' &&
           text[i] != '\v' &&
           !(slashComments && text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/')) {
      ++i;
    }
    tokens.push_back({SexprToken::Kind::Atom, text.substr(start, i - start), line, column});
    column += static_cast<int>(i - start);
  }
  return tokens;
}

}  // namespace gwb::ccg::detail
