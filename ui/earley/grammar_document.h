// GrammarDocument: one grammar file opened in the workbench.
//
// Owns the file's text (what the editor shows), what reading that text produced — the grammar
// (shared with the models and parsers that show it), the reader's diagnostics, and the format
// it was read as — plus the path it lives at and whether the text has unsaved edits. A
// document exists even when the file could not be read; hasRules() tells whether there is
// anything to show. Editing goes through setText(), which re-reads the grammar at once and
// emits grammarChanged(); nothing is written until save() or saveAs(), and both write
// atomically. Loading is synchronous: 35k rules read in well under a second.
#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "gwb/common/diagnostic.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/grammar_io.h"

namespace gwb::ui {

class GrammarDocument : public QObject {
  Q_OBJECT

 public:
  // Reads the grammar at `path` (made absolute). Never throws on bad input: problems end up
  // in diagnostics(). The caller takes ownership.
  static std::unique_ptr<GrammarDocument> load(const QString& path,
                                               const gwb::GrammarReadOptions& options = {});
  // A document for `text` that claims to live at `path` (e.g. a sample built into the
  // program, or a test's input); it is not marked modified.
  static std::unique_ptr<GrammarDocument> fromText(const QString& path, const QString& text,
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
  // The root the file was opened with (empty: the format's default).
  QString rootOption() const;
  // Chooses the start symbol (empty: the format's default) and re-reads the grammar with it; the
  // text is unchanged, so the document does not become modified. An unknown symbol is reported
  // in diagnostics() like a bad --root.
  void setRootOption(const QString& root);

  const QString& text() const { return text_; }
  // Whether the text differs from what was loaded or last saved (so undoing every edit clears
  // it, as the editor's undo stack reaching its clean state would).
  bool isModified() const { return modified_; }
  // Replaces the text (an edit) and re-reads the grammar from it.
  void setText(const QString& text);

  // Writes the text to the document's path (atomically); false and *error on failure.
  bool save(QString* error = nullptr);
  // Writes the grammar to `path` in `format` (atomically) and, on success, makes it the
  // document's path and reads its text back. On failure returns false and says why in *error.
  bool saveAs(const QString& path, gwb::GrammarFormat format, QString* error = nullptr);

 signals:
  void filePathChanged(const QString& filePath);
  // The grammar and diagnostics were re-read (after an edit or a save in another format).
  void grammarChanged();
  void modifiedChanged(bool modified);

 private:
  void reread();
  void setModified(bool modified);

  QString filePath_;
  QString text_;
  QString savedText_;  // the text as loaded or last saved
  gwb::GrammarReadOptions options_;
  std::shared_ptr<const gwb::Grammar> grammar_;
  gwb::Diagnostics diagnostics_;
  gwb::GrammarFormat format_;
  bool modified_ = false;
};

}  // namespace gwb::ui
