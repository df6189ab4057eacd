// GrammarEditor: a plain-text editor for grammar files, with line numbers and diagnostics.
//
// A gutter on the left numbers the lines and marks those with a diagnostic (a red, orange or
// blue dot for error, warning, note). Each diagnostic underlines its line with a wavy line,
// from its column to the end of the line (the whole line when it has no column); hovering an
// underlined line shows the messages. The editor knows nothing about grammars: the view that
// owns it re-reads the text after an edit and hands the new diagnostics back.
#pragma once

#include <vector>

#include <QPlainTextEdit>

#include "gwb/common/diagnostic.h"

namespace gwb::ui {

class GrammarEditor : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit GrammarEditor(QWidget* parent = nullptr);

  // Shows `diagnostics` (only those with a line number).
  void setDiagnostics(const gwb::Diagnostics& diagnostics);
  const std::vector<gwb::Diagnostic>& diagnostics() const { return diagnostics_; }
  // The messages of the diagnostics on 1-based `line`, one a line; empty if none.
  QString messagesAt(int line) const;
  // Moves the cursor to the start of 1-based `line` (and `column`) and shows it.
  void goToLine(int line, int column = 0);

  // The gutter's width for the current line count, and its painting (called by the gutter).
  int gutterWidth() const;
  void paintGutter(QPaintEvent* event);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  void updateGutterWidth();
  void updateGutter(const QRect& rect, int dy);
  void updateExtraSelections();

  QWidget* gutter_ = nullptr;
  std::vector<gwb::Diagnostic> diagnostics_;
};

}  // namespace gwb::ui
