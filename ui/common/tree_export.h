// Parse trees as text for papers and slides: Penn Treebank brackets and LaTeX `forest`.
//
// treeToForest writes a `forest` environment (package forest), one node a line, every label
// in braces with LaTeX's special characters escaped, so any grammar symbol typesets:
//   \begin{forest}
//     [{S}
//       [{NP} [{i}]]
//       ...]
//   \end{forest}
// forestToTree reads that back (for round-trip tests and for pasting trees in): brackets,
// braced or bare labels, the escapes treeToForest writes. Leaves become terminals, as in PTB.
// Exports are saved with saveBytesAtomically (file_save.h, included here for the exporters).
#pragma once

#include <QByteArray>
#include <QString>

#include "gwb/earley/parse_tree.h"
#include "ui/common/file_save.h"

namespace gwb::ui {

QString treeToPtb(const gwb::ParseTree& tree);
QString treeToForest(const gwb::ParseTree& tree, const QString& comment = QString());
// Returns an empty tree and sets *error on malformed input.
gwb::ParseTree forestToTree(const QString& text, QString* error = nullptr);

// LaTeX-escapes one label ("NP_1" → "NP\_1").
QString latexEscape(const QString& label);

}  // namespace gwb::ui
