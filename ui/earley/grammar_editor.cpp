#include "ui/earley/grammar_editor.h"

#include <algorithm>

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {

QColor severityColor(gwb::Severity severity) {
  switch (severity) {
    case gwb::Severity::Error: return {0xd0, 0x30, 0x30};
    case gwb::Severity::Warning: return {0xe0, 0x8a, 0x00};
    case gwb::Severity::Note: return {0x35, 0x6f, 0xc4};
  }
  return Qt::gray;
}

class Gutter : public QWidget {
 public:
  explicit Gutter(GrammarEditor* editor) : QWidget(editor), editor_(editor) {}
  QSize sizeHint() const override { return {editor_->gutterWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { editor_->paintGutter(event); }

 private:
  GrammarEditor* editor_;
};

}  // namespace

GrammarEditor::GrammarEditor(QWidget* parent) : QPlainTextEdit(parent), gutter_(new Gutter(this)) {
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 4);
  connect(this, &QPlainTextEdit::blockCountChanged, this, &GrammarEditor::updateGutterWidth);
  connect(this, &QPlainTextEdit::updateRequest, this, &GrammarEditor::updateGutter);
  connect(this, &QPlainTextEdit::cursorPositionChanged, this,
          &GrammarEditor::updateExtraSelections);
  updateGutterWidth();
  updateExtraSelections();
}

int GrammarEditor::gutterWidth() const {
  int digits = 1;
  for (int max = std::max(1, blockCount()); max >= 10; max /= 10) ++digits;
  // Room for the digits and the diagnostic dot.
  return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3) + 6;
}

void GrammarEditor::updateGutterWidth() { setViewportMargins(gutterWidth(), 0, 0, 0); }

void GrammarEditor::updateGutter(const QRect& rect, int dy) {
  if (dy != 0) {
    gutter_->scroll(0, dy);
  } else {
    gutter_->update(0, rect.y(), gutter_->width(), rect.height());
  }
  if (rect.contains(viewport()->rect())) updateGutterWidth();
}

void GrammarEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect area = contentsRect();
  gutter_->setGeometry(QRect(area.left(), area.top(), gutterWidth(), area.height()));
}

void GrammarEditor::paintGutter(QPaintEvent* event) {
  QPainter painter(gutter_);
  painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
  painter.setRenderHint(QPainter::Antialiasing);
  QTextBlock block = firstVisibleBlock();
  int number = block.blockNumber() + 1;
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  int bottom = top + qRound(blockBoundingRect(block).height());
  const int current = textCursor().blockNumber() + 1;
  // Diagnostics are sorted by line: find the first one at or after the first visible line.
  auto next = std::lower_bound(diagnostics_.begin(), diagnostics_.end(), number,
                               [](const gwb::Diagnostic& d, int line) { return d.line < line; });
  while (block.isValid() && top <= event->rect().bottom()) {
    if (block.isVisible() && bottom >= event->rect().top()) {
      QColor text = palette().color(QPalette::Text);
      if (number != current) text.setAlphaF(0.45F);
      painter.setPen(text);
      painter.drawText(0, top, gutter_->width() - 6, fontMetrics().height(), Qt::AlignRight,
                       QString::number(number));
      // The worst diagnostic on this line.
      std::optional<gwb::Severity> worst;
      while (next != diagnostics_.end() && next->line < number) ++next;
      for (auto it = next; it != diagnostics_.end() && it->line == number; ++it)
        if (!worst || it->severity > *worst) worst = it->severity;
      if (worst) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(severityColor(*worst));
        const int size = std::max(6, fontMetrics().height() / 2);
        painter.drawEllipse(3, top + (fontMetrics().height() - size) / 2, size, size);
      }
    }
    block = block.next();
    top = bottom;
    bottom = top + qRound(blockBoundingRect(block).height());
    ++number;
  }
}

void GrammarEditor::setDiagnostics(const gwb::Diagnostics& diagnostics) {
  diagnostics_.clear();
  for (const gwb::Diagnostic& d : diagnostics)
    if (d.line > 0) diagnostics_.push_back(d);
  std::stable_sort(
      diagnostics_.begin(), diagnostics_.end(),
      [](const gwb::Diagnostic& a, const gwb::Diagnostic& b) { return a.line < b.line; });
  updateExtraSelections();
  gutter_->update();
}

QString GrammarEditor::messagesAt(int line) const {
  QStringList messages;
  for (const gwb::Diagnostic& d : diagnostics_) {
    if (d.line != line) continue;
    messages << (toQString(gwb::severityName(d.severity)) % QStringLiteral(": ") %
                 toQString(d.message));
  }
  return messages.join(QLatin1Char('\n'));
}

void GrammarEditor::goToLine(int line, int column) {
  const QTextBlock block = document()->findBlockByLineNumber(std::max(0, line - 1));
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  if (column > 1)
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                        std::min(column - 1, block.length() - 1));
  setTextCursor(cursor);
  centerCursor();
}

void GrammarEditor::updateExtraSelections() {
  QList<QTextEdit::ExtraSelection> selections;
  // The current line, faintly.
  QTextEdit::ExtraSelection currentLine;
  QColor lineColor = palette().color(QPalette::Highlight);
  lineColor.setAlphaF(0.08F);
  currentLine.format.setBackground(lineColor);
  currentLine.format.setProperty(QTextFormat::FullWidthSelection, true);
  currentLine.cursor = textCursor();
  currentLine.cursor.clearSelection();
  selections << currentLine;
  for (const gwb::Diagnostic& d : diagnostics_) {
    const QTextBlock block = document()->findBlockByNumber(d.line - 1);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection underline;
    underline.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    underline.format.setUnderlineColor(severityColor(d.severity));
    underline.format.setToolTip(toQString(d.message));
    QTextCursor cursor(block);
    const int length = std::max(0, block.length() - 1);
    const int start = d.column > 1 ? std::min(d.column - 1, std::max(length - 1, 0)) : 0;
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, start);
    cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    if (!cursor.hasSelection()) {
      // An empty line: mark the line itself.
      cursor = QTextCursor(block);
      underline.format.setProperty(QTextFormat::FullWidthSelection, true);
      QColor fill = severityColor(d.severity);
      fill.setAlphaF(0.12F);
      underline.format.setBackground(fill);
    }
    underline.cursor = cursor;
    selections << underline;
  }
  setExtraSelections(selections);
}

bool GrammarEditor::viewportEvent(QEvent* event) {
  if (auto* help = dynamic_cast<QHelpEvent*>(event);
      help != nullptr && event->type() == QEvent::ToolTip) {
    const QTextCursor cursor = cursorForPosition(help->pos());
    const QString messages = messagesAt(cursor.blockNumber() + 1);
    if (!messages.isEmpty()) {
      QToolTip::showText(help->globalPos(), messages, this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QPlainTextEdit::viewportEvent(event);
}

}  // namespace gwb::ui
