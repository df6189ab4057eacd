#include "ui/common/tree_export.h"

#include <array>
#include <ostream>
#include <utility>
#include <vector>

#include <QStringList>

#include "gwb/common/atomic_file.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {
// Deeper lines are not indented further, so that a discourse tree stays a reasonable file.
constexpr int kMaxIndent = 32;

struct Escape {
  QChar plain;
  const char* latex = nullptr;
};
const std::array<Escape, 10> kEscapes{{
    {QLatin1Char('\\'), "\\textbackslash{}"},
    {QLatin1Char('~'), "\\textasciitilde{}"},
    {QLatin1Char('^'), "\\textasciicircum{}"},
    {QLatin1Char('{'), "\\{"},
    {QLatin1Char('}'), "\\}"},
    {QLatin1Char('#'), "\\#"},
    {QLatin1Char('$'), "\\$"},
    {QLatin1Char('%'), "\\%"},
    {QLatin1Char('&'), "\\&"},
    {QLatin1Char('_'), "\\_"},
}};
}  // namespace

QString treeToPtb(const gwb::ParseTree& tree) { return toQString(tree.toPtb()); }

QString latexEscape(const QString& label) {
  QString out;
  out.reserve(label.size() + 8);
  for (const QChar c : label) {
    bool escaped = false;
    for (const Escape& e : kEscapes) {
      if (c == e.plain) {
        out += QLatin1String(e.latex);
        escaped = true;
        break;
      }
    }
    if (!escaped) out += c;
  }
  return out;
}

namespace {
// One pass, so that an escaped backslash never combines with what follows it.
QString latexUnescape(const QString& text) {
  QString out;
  out.reserve(text.size());
  for (qsizetype i = 0; i < text.size();) {
    bool matched = false;
    if (text[i] == QLatin1Char('\\')) {
      for (const Escape& e : kEscapes) {
        const QLatin1String latex(e.latex);
        if (QStringView(text).mid(i).startsWith(latex)) {
          out += e.plain;
          i += latex.size();
          matched = true;
          break;
        }
      }
    }
    if (!matched) out += text[i++];
  }
  return out;
}
}  // namespace

QString treeToForest(const gwb::ParseTree& tree, const QString& comment) {
  QString out;
  if (!comment.isEmpty()) {
    for (const QString& line : comment.split(QLatin1Char('\n')))
      out += QStringLiteral("% ") % line % QLatin1Char('\n');
  }
  out += QStringLiteral("% Needs \\usepackage{forest} in the preamble.\n");
  out += QStringLiteral("\\begin{forest}\n  for tree={s sep=2mm, l sep=3mm, inner sep=1pt}\n");
  if (tree.root() >= 0) {
    // (node, next child); a node opens with its label and closes after its last child.
    std::vector<std::pair<int, std::size_t>> stack{{tree.root(), 0}};
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      const gwb::ParseTree::Node& node = tree.node(id);
      const int depth = static_cast<int>(stack.size());
      if (next == 0) {
        out += QString(static_cast<qsizetype>(2) * std::min(depth, kMaxIndent), QLatin1Char(' ')) %
               QStringLiteral("[{") % latexEscape(toQString(node.label)) % QLatin1Char('}');
        // A preterminal and its word stay on one line: [{N} [{man}]].
        if (node.children.size() == 1 && tree.node(node.children[0]).terminal) {
          out += QStringLiteral(" [{") % latexEscape(toQString(tree.node(node.children[0]).label)) %
                 QStringLiteral("}]]");
          stack.pop_back();
          if (!stack.empty()) out += QLatin1Char('\n');
          continue;
        }
        if (!node.children.empty()) out += QLatin1Char('\n');
      }
      if (next < node.children.size()) {
        const int child = node.children[next++];
        stack.emplace_back(child, 0);
        continue;
      }
      if (out.endsWith(QLatin1Char('\n'))) out.chop(1);
      out += QLatin1Char(']');
      stack.pop_back();
      if (!stack.empty()) out += QLatin1Char('\n');
    }
    out += QLatin1Char('\n');
  }
  out += QStringLiteral("\\end{forest}\n");
  return out;
}

gwb::ParseTree forestToTree(const QString& text, QString* error) {
  gwb::ParseTree tree;
  const auto fail = [&](const QString& message, qsizetype at) {
    if (error) *error = message % QStringLiteral(" at offset ") % QString::number(at);
    return gwb::ParseTree();
  };
  // Only the body of the environment counts; comments run to the end of the line.
  QString body;
  for (const QString& line : text.split(QLatin1Char('\n'))) {
    qsizetype cut = -1;
    for (qsizetype i = 0; i < line.size(); ++i) {
      if (line[i] == QLatin1Char('%') && (i == 0 || line[i - 1] != QLatin1Char('\\'))) {
        cut = i;
        break;
      }
    }
    body += (cut >= 0 ? line.left(cut) : line) % QLatin1Char('\n');
  }
  qsizetype begin = body.indexOf(QStringLiteral("\\begin{forest}"));
  begin = begin < 0 ? 0 : begin + static_cast<qsizetype>(qstrlen("\\begin{forest}"));
  qsizetype end = body.indexOf(QStringLiteral("\\end{forest}"));
  if (end < 0) end = body.size();
  // Skip the preamble options (`for tree={...}`): the tree starts at the first '['.
  qsizetype i = body.indexOf(QLatin1Char('['), begin);
  if (i < 0 || i >= end) return fail(QStringLiteral("no tree"), begin);

  std::vector<int> open;
  std::vector<bool> hasChildren;
  const auto readLabel = [&]() -> QString {
    while (i < end && body[i].isSpace()) ++i;
    QString label;
    if (i < end && body[i] == QLatin1Char('{')) {
      int braces = 1;
      ++i;
      const qsizetype start = i;
      while (i < end && braces > 0) {
        if (body[i] == QLatin1Char('\\')) {
          i += 2;
          continue;
        }
        if (body[i] == QLatin1Char('{')) ++braces;
        if (body[i] == QLatin1Char('}')) --braces;
        ++i;
      }
      label = body.mid(start, i - start - 1);
    } else {
      const qsizetype start = i;
      while (i < end && !body[i].isSpace() && body[i] != QLatin1Char('[') &&
             body[i] != QLatin1Char(']') && body[i] != QLatin1Char(','))
        ++i;
      label = body.mid(start, i - start);
    }
    return latexUnescape(label);
  };
  while (i < end) {
    const QChar c = body[i];
    if (c.isSpace()) {
      ++i;
    } else if (c == QLatin1Char('[')) {
      ++i;
      const int id = tree.addNode(readLabel().toStdString(), false);
      // Forest options after a comma are skipped up to the next bracket.
      while (i < end && body[i] != QLatin1Char('[') && body[i] != QLatin1Char(']')) ++i;
      if (!open.empty()) {
        tree.node(open.back()).children.push_back(id);
      } else if (tree.root() >= 0) {
        return fail(QStringLiteral("more than one tree"), i);
      } else {
        tree.setRoot(id);
      }
      open.push_back(id);
    } else if (c == QLatin1Char(']')) {
      if (open.empty()) return fail(QStringLiteral("unbalanced ']'"), i);
      const int id = open.back();
      open.pop_back();
      // A leaf is a word.
      if (tree.node(id).children.empty()) tree.node(id).terminal = true;
      ++i;
    } else {
      return fail(QStringLiteral("unexpected '%1'").arg(c), i);
    }
  }
  if (!open.empty()) return fail(QStringLiteral("missing ']'"), i);
  if (tree.root() < 0) return fail(QStringLiteral("no tree"), i);
  return tree;
}

}  // namespace gwb::ui
