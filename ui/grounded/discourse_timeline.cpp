#include "ui/grounded/discourse_timeline.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

namespace gwb::ui {

namespace {
constexpr double kMinCellWidth = 1.0;
constexpr double kMaxCellWidth = 80.0;

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }
}  // namespace

DiscourseTimeline::DiscourseTimeline(QWidget* parent) : QAbstractScrollArea(parent) {
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  viewport()->setMouseTracking(true);
  viewport()->setAutoFillBackground(true);
  viewport()->setBackgroundRole(QPalette::Base);
  horizontalScrollBar()->setSingleStep(20);
  setFocusPolicy(Qt::StrongFocus);
}

void DiscourseTimeline::setData(const DiscourseData* source, const TopicPalette* colors) {
  data_ = source;
  palette_ = colors;
  recording_ = 0;
  current_ = -1;
  hovered_ = -1;
  refresh();
}

void DiscourseTimeline::setRecording(int recording) {
  recording_ = recording;
  current_ = -1;
  hovered_ = -1;
  horizontalScrollBar()->setValue(0);
  refresh();
}

void DiscourseTimeline::refresh() {
  QFont bold = font();
  bold.setBold(true);
  int widest = 0;
  for (int row = 0; row < rowCount(); ++row)
    widest = std::max(widest, QFontMetrics(bold).horizontalAdvance(rowName(row)));
  nameWidth_ = std::clamp(widest + 16, 120, 340);
  // As tall as the rows need: the room below goes to the details and the metrics.
  setFixedHeight(rowTop(std::max(1, rowCount())) + horizontalScrollBar()->sizeHint().height() +
                 2 * frameWidth() + 4);
  updateGeometry();
  updateScrollBar();
  viewport()->update();
}

int DiscourseTimeline::rowCount() const {
  return data_ ? static_cast<int>(data_->rows().size()) : 0;
}

QString DiscourseTimeline::rowName(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  return QString::fromStdString(data_->rows()[static_cast<std::size_t>(row)].name);
}

int DiscourseTimeline::utteranceCount() const {
  if (!data_ || recording_ < 0 || recording_ >= static_cast<int>(data_->recordings().size()))
    return 0;
  return data_->recordings()[static_cast<std::size_t>(recording_)].utterances;
}

std::size_t DiscourseTimeline::corpusIndex(int utterance) const {
  return static_cast<std::size_t>(
      data_->recordings()[static_cast<std::size_t>(recording_)].firstUtterance + utterance);
}

std::optional<std::string> DiscourseTimeline::label(int row, int utterance) const {
  if (row < 0 || row >= rowCount() || utterance < 0 || utterance >= utteranceCount()) return {};
  return data_->rows()[static_cast<std::size_t>(row)].labels[corpusIndex(utterance)];
}

QColor DiscourseTimeline::color(int row, int utterance) const {
  const auto l = label(row, utterance);
  if (!l || !palette_) return TopicPalette::missingLabelColor();
  return palette_->color(TopicPalette::topicsOfLabel(*l).front());
}

bool DiscourseTimeline::boundaryAfter(int row, int utterance) const {
  if (utterance < 0 || utterance + 1 >= utteranceCount()) return false;
  const auto a = label(row, utterance);
  const auto b = label(row, utterance + 1);
  // boundariesFromLabels on the labelled units: a missing label is no unit, so no boundary is
  // drawn next to it.
  return a && b && *a != *b;
}

int DiscourseTimeline::boundaryCount(int row) const {
  int count = 0;
  for (int u = 0; u + 1 < utteranceCount(); ++u) count += boundaryAfter(row, u) ? 1 : 0;
  return count;
}

void DiscourseTimeline::setCellWidth(double pixels) {
  pixels = std::clamp(pixels, kMinCellWidth, kMaxCellWidth);
  if (pixels == cellWidth_) return;
  // Keep the middle of the view where it is.
  const double middle =
      (horizontalScrollBar()->value() + (viewport()->width() - nameWidth_) / 2.0) / cellWidth_;
  cellWidth_ = pixels;
  updateScrollBar();
  horizontalScrollBar()->setValue(static_cast<int>(
      std::lround(middle * cellWidth_ - (viewport()->width() - nameWidth_) / 2.0)));
  viewport()->update();
  emit zoomChanged(cellWidth_);
}

void DiscourseTimeline::zoomToFit() {
  const int n = std::max(1, utteranceCount());
  setCellWidth(static_cast<double>(std::max(1, viewport()->width() - nameWidth_ - 4)) / n);
  horizontalScrollBar()->setValue(0);
}

void DiscourseTimeline::setCurrentUtterance(int utterance) {
  current_ = utterance;
  viewport()->update();
}

void DiscourseTimeline::scrollToUtterance(int utterance) {
  utterance = std::clamp(utterance, 0, std::max(0, utteranceCount() - 1));
  const double centre = (utterance + 0.5) * cellWidth_;
  horizontalScrollBar()->setValue(
      static_cast<int>(std::lround(centre - (viewport()->width() - nameWidth_) / 2.0)));
  setCurrentUtterance(utterance);
}

int DiscourseTimeline::rowTop(int row) const {
  return kAxisHeight + kRowGap + row * (kRowHeight + kRowGap);
}

QRect DiscourseTimeline::cellRect(int row, int utterance) const {
  const double left = nameWidth_ + utterance * cellWidth_ - horizontalScrollBar()->value();
  const int x0 = static_cast<int>(std::floor(left));
  const int x1 = static_cast<int>(std::floor(left + cellWidth_));
  return {x0, rowTop(row), std::max(1, x1 - x0), kRowHeight};
}

DiscourseTimeline::Hit DiscourseTimeline::hitTest(const QPoint& point) const {
  Hit hit;
  if (point.x() < nameWidth_) return hit;
  const double x = point.x() - nameWidth_ + horizontalScrollBar()->value();
  const int u = static_cast<int>(std::floor(x / cellWidth_));
  if (u < 0 || u >= utteranceCount()) return hit;
  hit.utterance = u;
  for (int row = 0; row < rowCount(); ++row) {
    if (point.y() >= rowTop(row) && point.y() < rowTop(row) + kRowHeight) hit.row = row;
  }
  return hit;
}

int DiscourseTimeline::rowAt(int y) const {
  for (int row = 0; row < rowCount(); ++row)
    if (y >= rowTop(row) && y < rowTop(row) + kRowHeight) return row;
  return -1;
}

void DiscourseTimeline::keyPressEvent(QKeyEvent* event) {
  const int n = utteranceCount();
  if (n == 0) {
    QAbstractScrollArea::keyPressEvent(event);
    return;
  }
  int target = current_;
  switch (event->key()) {
    case Qt::Key_Left: target = std::max(0, current_ - 1); break;
    case Qt::Key_Right: target = std::min(n - 1, current_ + 1); break;
    case Qt::Key_Home: target = 0; break;
    case Qt::Key_End: target = n - 1; break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      if (current_ >= 0) emit utteranceClicked(-1, current_);
      return;
    default: QAbstractScrollArea::keyPressEvent(event); return;
  }
  const QRect r = cellRect(0, target);
  if (r.left() < nameWidth_ || r.right() > viewport()->width()) {
    scrollToUtterance(target);
  } else {
    setCurrentUtterance(target);
  }
  emit utteranceHovered(target);
}

QString DiscourseTimeline::utteranceDescription(int utterance) const {
  if (!data_ || utterance < 0 || utterance >= utteranceCount()) return {};
  const std::size_t index = corpusIndex(utterance);
  const gwb::SocialUtterance& u = data_->corpus().utterances[index];
  QString text = tr("<b>Utterance %1</b> of %2 (corpus line %3)")
                     .arg(utterance + 1)
                     .arg(html(data_->recordings()[static_cast<std::size_t>(recording_)].id))
                     .arg(u.line);
  QString words;
  for (const std::string& w : u.words)
    words += (words.isEmpty() ? QString() : QStringLiteral(" ")) + html(w);
  text += QStringLiteral("<br><i>%1</i>").arg(words);
  QString objects;
  for (const gwb::SocialObject& o : u.objects) {
    QString cues;
    for (const std::string& c : o.cues)
      cues += (cues.isEmpty() ? QString() : QStringLiteral(", ")) + html(c);
    objects += QStringLiteral("<br>&nbsp;&nbsp;%1: %2")
                   .arg(html(o.name), cues.isEmpty() ? tr("no cues") : cues);
  }
  text += objects.isEmpty() ? tr("<br>No objects present") : tr("<br>Objects and cues:") + objects;
  text += QStringLiteral("<table cellspacing=2>");
  for (int row = 0; row < rowCount(); ++row) {
    const auto l = label(row, utterance);
    const QColor c = color(row, utterance);
    text += QStringLiteral(
                "<tr><td><span style='background-color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span></td>"
                "<td>%2</td><td><b>%3</b></td></tr>")
                .arg(c.name(), rowName(row).toHtmlEscaped(), l ? html(*l) : tr("(no label)"));
  }
  return text + QStringLiteral("</table>");
}

QSize DiscourseTimeline::sizeHint() const {
  return {900, rowTop(std::max(1, rowCount())) + horizontalScrollBar()->sizeHint().height()};
}

QSize DiscourseTimeline::minimumSizeHint() const {
  return {nameWidth_ + 100,
          rowTop(std::max(1, rowCount())) + horizontalScrollBar()->sizeHint().height()};
}

void DiscourseTimeline::updateScrollBar() {
  const int content = static_cast<int>(std::ceil(utteranceCount() * cellWidth_));
  const int visible = std::max(1, viewport()->width() - nameWidth_);
  horizontalScrollBar()->setRange(0, std::max(0, content - visible + 4));
  horizontalScrollBar()->setPageStep(visible);
}

void DiscourseTimeline::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  updateScrollBar();
}

void DiscourseTimeline::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(viewport());
  const QRect area = viewport()->rect();
  painter.fillRect(area, palette().base());
  const int n = utteranceCount();
  const int scroll = horizontalScrollBar()->value();
  const int first = std::max(0, static_cast<int>(std::floor(scroll / cellWidth_)));
  const int last = std::min(
      n - 1, static_cast<int>(std::ceil((scroll + area.width() - nameWidth_) / cellWidth_)));

  // Cells and boundaries, clipped to the right of the names.
  painter.save();
  painter.setClipRect(QRect(nameWidth_, 0, area.width() - nameWidth_, area.height()));
  for (int row = 0; row < rowCount(); ++row) {
    for (int u = first; u <= last; ++u) {
      const QRect r = cellRect(row, u);
      const auto l = label(row, u);
      if (!l) {
        painter.fillRect(r, TopicPalette::missingLabelColor());
        painter.setPen(QColor(0xbb, 0xbb, 0xbb));
        painter.drawLine(r.topLeft(), r.topRight());
        painter.drawLine(r.bottomLeft(), r.bottomRight());
        continue;
      }
      const std::vector<std::string> topics = TopicPalette::topicsOfLabel(*l);
      const int bands = static_cast<int>(topics.size());
      for (int b = 0; b < bands; ++b) {
        const int top = r.top() + r.height() * b / bands;
        const int bottom = r.top() + r.height() * (b + 1) / bands;
        painter.fillRect(QRect(r.left(), top, r.width(), bottom - top),
                         palette_ ? palette_->color(topics[static_cast<std::size_t>(b)])
                                  : TopicPalette::nullTopicColor());
      }
      // A hairline between cells when they are wide enough to tell apart.
      if (cellWidth_ >= 6.0) {
        painter.setPen(QColor(255, 255, 255, 150));
        painter.drawLine(r.topLeft(), r.bottomLeft());
      }
    }
    painter.setPen(Qt::NoPen);
    const int barWidth = cellWidth_ >= 6.0 ? 3 : 2;
    for (int u = std::max(0, first - 1); u <= last; ++u) {
      if (!boundaryAfter(row, u)) continue;
      const QRect r = cellRect(row, u + 1);
      painter.fillRect(QRect(r.left() - barWidth / 2, r.top() - 3, barWidth, r.height() + 6),
                       Qt::black);
    }
  }
  // The current and the hovered utterance, outlined across every row.
  const auto outline = [&](int u, const QColor& c, int width) {
    if (u < 0 || u >= n || rowCount() == 0) return;
    const QRect top = cellRect(0, u);
    const QRect bottom = cellRect(rowCount() - 1, u);
    painter.setPen(QPen(c, width));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRect(top.topLeft(), bottom.bottomRight()).adjusted(-2, -4, 1, 3));
  };
  outline(hovered_, QColor(90, 90, 90), 1);
  outline(current_, QColor(0x10, 0x10, 0x10), 2);

  // The axis: utterance numbers, 1-based, at least ~45 px apart.
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  painter.setFont(small);
  painter.setPen(palette().color(QPalette::Text));
  int step = 1;
  for (const int candidate : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000}) {
    step = candidate;
    if (candidate * cellWidth_ >= 45.0) break;
  }
  for (int u = (first / step) * step; u <= last + step; u += step) {
    const int number = u == 0 ? 1 : u;
    if (number - 1 > last || number - 1 >= n) break;
    const QRect r = cellRect(0, number - 1);
    const int x = r.left() + r.width() / 2;
    painter.drawLine(x, kAxisHeight - 5, x, kAxisHeight);
    painter.drawText(QRect(x - 40, 0, 80, kAxisHeight - 5), Qt::AlignCenter,
                     QString::number(number));
  }
  painter.restore();

  // Row names, over a band the cells scroll under.
  painter.fillRect(QRect(0, 0, nameWidth_, area.height()), palette().window());
  painter.setPen(palette().color(QPalette::WindowText));
  painter.drawText(QRect(6, 0, nameWidth_ - 12, kAxisHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   tr("utterance"));
  for (int row = 0; row < rowCount(); ++row) {
    const QRect r(6, rowTop(row), nameWidth_ - 12, kRowHeight);
    const QString name = painter.fontMetrics().elidedText(rowName(row), Qt::ElideMiddle, r.width());
    QFont f = font();
    f.setBold(data_->rows()[static_cast<std::size_t>(row)].kind == DiscourseRow::Kind::Gold);
    painter.setFont(f);
    painter.drawText(r, Qt::AlignVCenter | Qt::AlignLeft, name);
  }
}

void DiscourseTimeline::mouseMoveEvent(QMouseEvent* event) {
  const Hit hit = hitTest(event->position().toPoint());
  if (hit.utterance != hovered_) {
    hovered_ = hit.utterance;
    viewport()->update();
    if (hovered_ >= 0) emit utteranceHovered(hovered_);
  }
  QAbstractScrollArea::mouseMoveEvent(event);
}

void DiscourseTimeline::mousePressEvent(QMouseEvent* event) {
  const Hit hit = hitTest(event->position().toPoint());
  if (event->button() == Qt::LeftButton && hit.utterance >= 0) {
    setCurrentUtterance(hit.utterance);
    emit utteranceClicked(hit.row, hit.utterance);
    return;
  }
  QAbstractScrollArea::mousePressEvent(event);
}

void DiscourseTimeline::wheelEvent(QWheelEvent* event) {
  const QPoint delta = event->angleDelta();
  if (event->modifiers() & Qt::ControlModifier) {
    setCellWidth(cellWidth_ * (delta.y() > 0 ? 1.25 : 0.8));
  } else {
    const int amount = delta.x() != 0 ? delta.x() : delta.y();
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - amount);
  }
  event->accept();
}

bool DiscourseTimeline::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const Hit hit = hitTest(help->pos());
    if (const int row = rowAt(help->pos().y()); help->pos().x() < nameWidth_ && row >= 0) {
      // The name column: the row's whole name (long ones are elided in the middle).
      QToolTip::showText(help->globalPos(), rowName(row), viewport());
    } else if (hit.utterance >= 0) {
      QToolTip::showText(help->globalPos(), utteranceDescription(hit.utterance), viewport());
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  if (event->type() == QEvent::Leave && hovered_ >= 0) {
    hovered_ = -1;
    viewport()->update();
  }
  return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace gwb::ui
