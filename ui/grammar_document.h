// GrammarDocument: one grammar file opened in the workbench.
//
// Owns what loading the file produced — the grammar (shared with the models that show it), the
// reader's diagnostics, and the format actually read — plus the path it lives at. A document
// exists even when the file could not be read; hasRules() tells whether there is anything to
// show. Loading is synchronous: 35k rules read in well under a second.
#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "gwb/diagnostic.h"
#include "gwb/grammar.h"
#include "gwb/grammar_io.h"

namespace gwb::ui {

class GrammarDocument : public QObject {
  Q_OBJECT

 public:
  // Reads the grammar at `path` (made absolute). Never throws on bad input: problems end up
  // in diagnostics(). The caller takes ownership.
  static std::unique_ptr<GrammarDocument> load(const QString& path,
                                               const gwb::GrammarReadOptions& options = {});

  GrammarDocument(QString filePath, gwb::GrammarLoad load, QObject* parent = nullptr);

  const QString& filePath() const { return filePath_; }
  // The file name without its folder, for tab titles.
  QString displayName() const;

  std::shared_ptr<const gwb::Grammar> grammar() const { return grammar_; }
  const gwb::Diagnostics& diagnostics() const { return diagnostics_; }
  gwb::GrammarFormat format() const { return format_; }
  bool hasRules() const { return grammar_->ruleCount() > 0; }
  // The start symbol's name, or an empty string when the grammar has none.
  QString startSymbolName() const;

  // Writes the grammar to `path` in `format` (atomically) and, on success, makes it the
  // document's path. On failure returns false and says why in *error.
  bool saveAs(const QString& path, gwb::GrammarFormat format, QString* error = nullptr);

 signals:
  void filePathChanged(const QString& filePath);

 private:
  QString filePath_;
  std::shared_ptr<const gwb::Grammar> grammar_;
  gwb::Diagnostics diagnostics_;
  gwb::GrammarFormat format_;
};

}  // namespace gwb::ui
