// Tokens of the parenthesised notation shared by the GeoQuery files (logical forms, types,
// signatures): '(' , ')' and atoms (maximal runs of other non-space characters), each with its
// 1-based line and column (lines end at LF, CRLF or a lone CR). `//` starts a comment to the end
// of the line when asked for.
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

// Reads the tokens of a text one at a time, in order: a reader that only ever looks at the
// next token (the logical-form reader) needs no token list, and stops scanning where it stops
// reading (at the first error, or after the one term it was asked for).
// Whether text[i] ends a line: LF, or a CR not followed by LF (the CR of CRLF is a character of
// the line, whose LF ends it), as in common/text_lines.h.
inline bool endsLine(std::string_view text, std::size_t i) {
  return text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
}

class SexprCursor {
 public:
  SexprCursor(std::string_view text, int firstLine, int firstColumn, bool slashComments)
      : text_(text), line_(firstLine), column_(firstColumn), slashComments_(slashComments) {
    advance();
  }

  // True when every token has been read (`current()` is then meaningless).
  bool atEnd() const { return atEnd_; }
  const SexprToken& current() const { return current_; }

  // Moves to the next token (or to the end).
  void advance() {
    while (i_ < text_.size()) {
      const char c = text_[i_];
      // LF, CRLF and a lone CR (classic Mac OS files) end lines alike.
      if (endsLine(text_, i_)) {
        ++line_;
        column_ = 1;
        ++i_;
        continue;
      }
      if (isSpace(c)) {
        ++column_;
        ++i_;
        continue;
      }
      if (startsComment(i_)) {
        while (i_ < text_.size() && text_[i_] != '\n' && text_[i_] != '\r') ++i_;
        continue;
      }
      if (c == '(' || c == ')') {
        current_ = {c == '(' ? SexprToken::Kind::Open : SexprToken::Kind::Close,
                    text_.substr(i_, 1), line_, column_};
        ++column_;
        ++i_;
        return;
      }
      const std::size_t start = i_;
      while (i_ < text_.size() && text_[i_] != '(' && text_[i_] != ')' && text_[i_] != '\n' &&
             !isSpace(text_[i_]) && !startsComment(i_)) {
        ++i_;
      }
      current_ = {SexprToken::Kind::Atom, text_.substr(start, i_ - start), line_, column_};
      column_ += static_cast<int>(i_ - start);
      return;
    }
    atEnd_ = true;
  }

 private:
  static bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
  }
  bool startsComment(std::size_t at) const {
    return slashComments_ && text_[at] == '/' && at + 1 < text_.size() && text_[at + 1] == '/';
  }

  std::string_view text_;
  std::size_t i_ = 0;
  int line_;
  int column_;
  bool slashComments_;
  bool atEnd_ = false;
  SexprToken current_;
};

inline std::vector<SexprToken> tokenizeSexpr(std::string_view text, int firstLine, int firstColumn,
                                             bool slashComments) {
  std::vector<SexprToken> tokens;
  for (SexprCursor cursor(text, firstLine, firstColumn, slashComments); !cursor.atEnd();
       cursor.advance()) {
    tokens.push_back(cursor.current());
  }
  return tokens;
}

}  // namespace gwb::ccg::detail
