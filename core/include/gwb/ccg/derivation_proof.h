// A CCG derivation in the standard proof layout (Steedman's notation): the words on top, a line
// under each word or lexeme with its lexical category, and under the categories of two adjacent
// constituents a line labelled with the combinator (`>`, `<`, `>B`, `<B`) and, under it, the
// category and logical form it builds.
//
// ProofLayout places every node of a derivation on a row: lexical entries on row 0, a
// combination one row below the lower of its two children. Nodes on one row cover disjoint word
// ranges (two constituents of one derivation either nest or do not overlap), so a row can be
// drawn as one line of the proof. Columns are the derivation's words, numbered from 0 at its
// first word (a derivation of an inner chart entry starts at that entry's first word). Lines come
// children first (post-order), so every line's children precede it.
//
// proofToLatex writes the layout as a plain `tabular` (one column per word; a combinator line is
// `\multicolumn{k}{c}{\hrulefill$>$}` followed by a row with the category and one with the
// logical form in `\texttt`), so it compiles with no package at all — unlike ccg.sty, which
// exists in several incompatible versions. Every word, category and logical form is escaped for
// LaTeX.
#pragma once

#include <string>
#include <vector>

#include "gwb/ccg/category.h"
#include "gwb/ccg/cky_parser.h"

namespace gwb::ccg {

struct ProofLine {
  int begin = 0;  // columns (words) covered: begin..end-1
  int end = 0;
  int row = 0;  // 0: lexical; a combination is one row below its lower child
  Combinator combinator = Combinator::Lexical;
  std::string category;
  std::string logicalForm;
  int lexeme = -1;  // lexical lines
  int lexicalTemplate = -1;
};

struct ProofLayout {
  std::vector<std::string> words;  // the derivation's words
  std::vector<ProofLine> lines;    // children before parents; the root last
  int rows = 0;
};

// `words` are the sentence's words; the layout keeps those the derivation covers.
ProofLayout layoutProof(const DerivationNode& root, const std::vector<std::string>& words);

// The layout as a LaTeX tabular (see above); `comment` becomes `%` lines on top.
std::string proofToLatex(const ProofLayout& layout, const std::string& comment = {});

// Escapes LaTeX's special characters in text mode ("next_to:t $0" -> "next\_to:t \$0").
std::string latexEscapeText(const std::string& text);

}  // namespace gwb::ccg
