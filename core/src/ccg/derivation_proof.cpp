#include "gwb/ccg/derivation_proof.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "gwb/ccg/term.h"

namespace gwb::ccg {

ProofLayout layoutProof(const DerivationNode& root, const std::vector<std::string>& words) {
  ProofLayout layout;
  for (int w = root.begin; w < root.end && w < static_cast<int>(words.size()); ++w) {
    layout.words.push_back(words[static_cast<std::size_t>(w)]);
  }
  // Post-order without recursion: (node, children visited) on a stack; rows of finished nodes
  // by address.
  std::vector<std::pair<const DerivationNode*, bool>> stack{{&root, false}};
  std::vector<std::pair<const DerivationNode*, int>> rowOf;
  const auto findRow = [&rowOf](const DerivationNode* node) {
    for (auto it = rowOf.rbegin(); it != rowOf.rend(); ++it) {
      if (it->first == node) return it->second;
    }
    return 0;
  };
  while (!stack.empty()) {
    auto [node, visited] = stack.back();
    stack.pop_back();
    if (!visited && !node->children.empty()) {
      stack.emplace_back(node, true);
      for (auto it = node->children.rbegin(); it != node->children.rend(); ++it) {
        stack.emplace_back(&*it, false);
      }
      continue;
    }
    ProofLine line;
    line.begin = node->begin - root.begin;
    line.end = node->end - root.begin;
    line.combinator = node->combinator;
    line.category = node->category ? toString(node->category) : std::string("?");
    line.logicalForm = node->semantics ? toString(node->semantics) : std::string();
    line.lexeme = node->lexeme;
    line.lexicalTemplate = node->lexicalTemplate;
    line.row = 0;
    for (const DerivationNode& child : node->children) {
      line.row = std::max(line.row, findRow(&child) + 1);
    }
    rowOf.emplace_back(node, line.row);
    layout.rows = std::max(layout.rows, line.row + 1);
    layout.lines.push_back(std::move(line));
  }
  return layout;
}

std::string latexEscapeText(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '$': out += "\\$"; break;
      case '&': out += "\\&"; break;
      case '#': out += "\\#"; break;
      case '%': out += "\\%"; break;
      case '_': out += "\\_"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '<': out += "\\textless{}"; break;
      case '>': out += "\\textgreater{}"; break;
      case '|': out += "\\textbar{}"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

// A category in math mode: atoms upright, slashes as /, \backslash, |.
std::string latexCategory(const std::string& category) {
  std::string out = "$";
  std::string atom;
  const auto flush = [&] {
    if (!atom.empty()) out += "\\mathrm{" + latexEscapeText(atom) + "}";
    atom.clear();
  };
  for (const char c : category) {
    if (c == '/' || c == '\\' || c == '|' || c == '(' || c == ')') {
      flush();
      out += c == '\\' ? "\\backslash " : std::string(1, c);
    } else {
      atom += c;
    }
  }
  flush();
  return out + "$";
}

std::string latexCombinator(Combinator combinator) {
  switch (combinator) {
    case Combinator::ForwardApplication: return "$>$";
    case Combinator::BackwardApplication: return "$<$";
    case Combinator::ForwardComposition: return "$>\\mathbf{B}$";
    case Combinator::BackwardComposition: return "$<\\mathbf{B}$";
    case Combinator::Skip: return "\\textit{skip}";
    case Combinator::Lexical: break;
  }
  return "";
}

// One tabular row over `columns` columns with `cells` (begin, end, text) placed; the rest empty.
std::string tabularRow(int columns,
                       std::vector<std::pair<std::pair<int, int>, std::string>> cells) {
  std::sort(cells.begin(), cells.end());
  std::string out = "  ";
  int column = 0;
  bool first = true;
  const auto separator = [&] {
    if (!first) out += " & ";
    first = false;
  };
  for (const auto& [span, text] : cells) {
    while (column < span.first) {
      separator();
      ++column;
    }
    separator();
    out += "\\multicolumn{" + std::to_string(span.second - span.first) + "}{c}{" + text + "}";
    column = span.second;
  }
  while (column < columns) {
    separator();
    ++column;
  }
  return out + " \\\\\n";
}

}  // namespace

std::string proofToLatex(const ProofLayout& layout, const std::string& comment) {
  std::ostringstream out;
  std::istringstream commentLines(comment);
  for (std::string line; std::getline(commentLines, line);) out << "% " << line << '\n';
  const int columns = static_cast<int>(layout.words.size());
  out << "% A CCG derivation as a plain tabular (Grammar Workbench; no package needed).\n";
  out << "\\begin{tabular}{*{" << columns << "}{c}}\n";
  std::vector<std::pair<std::pair<int, int>, std::string>> wordCells;
  wordCells.reserve(layout.words.size());
  for (int w = 0; w < columns; ++w) {
    wordCells.push_back({{w, w + 1}, "\\textit{" + latexEscapeText(layout.words[w]) + "}"});
  }
  out << tabularRow(columns, wordCells);
  for (int row = 0; row < layout.rows; ++row) {
    std::vector<std::pair<std::pair<int, int>, std::string>> rules;
    std::vector<std::pair<std::pair<int, int>, std::string>> categories;
    std::vector<std::pair<std::pair<int, int>, std::string>> forms;
    for (const ProofLine& line : layout.lines) {
      if (line.row != row) continue;
      const std::pair<int, int> span{line.begin, line.end};
      const std::string label = latexCombinator(line.combinator);
      rules.emplace_back(span, "\\hrulefill" + (label.empty() ? "" : "\\," + label));
      categories.emplace_back(span, latexCategory(line.category));
      forms.emplace_back(span, "\\scriptsize\\texttt{" + latexEscapeText(line.logicalForm) + "}");
    }
    out << tabularRow(columns, rules) << tabularRow(columns, categories)
        << tabularRow(columns, forms);
  }
  out << "\\end{tabular}\n";
  return out.str();
}

}  // namespace gwb::ccg
