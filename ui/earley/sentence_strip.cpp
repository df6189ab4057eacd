#include "ui/earley/sentence_strip.h"

#include <algorithm>

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>

namespace gwb::ui {

namespace {
constexpr int kMargin = 8;
constexpr int kGap = 30;  // room for a position marker between two words (at least)
constexpr int kWordPadding = 8;
constexpr int kMarkerRadius = 10;
constexpr int kMarkerPadding = 4;  // between a marker's number and its outline

QFont smallFont(const QFont& base) {
  QFont font = base;
  font.setPointSizeF(base.pointSizeF() * 0.8);
  return font;
}
}  // namespace

SentenceStrip::SentenceStrip(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  setToolTip(
      tr("Positions 0\u2026n lie between the words, as in items [l, r]. Click a "
         "position to make it the target of \u201cRun to position\u201d; double-click "
         "to run there."));
  relayout();
}

void SentenceStrip::setWords(const QStringList& words) {
  words_ = words;
  current_ = -1;
  spanLeft_ = spanRight_ = -1;
  spanLabel_.clear();
  target_ = -1;
  relayout();
  update();
}

void SentenceStrip::relayout() {
  const QFontMetrics metrics(font());
  wordLeft_.resize(static_cast<std::size_t>(words_.size()));
  wordWidth_.resize(static_cast<std::size_t>(words_.size()));
  // A marker is a circle while its number fits, and widens into a pill for 1000 and beyond;
  // the gap between words grows with the widest one so that markers never overlap the words.
  const QFontMetrics small(smallFont(font()));
  const int widestMarker =
      std::max(2 * kMarkerRadius,
               small.horizontalAdvance(QString::number(words_.size())) + 2 * kMarkerPadding);
  gap_ = std::max(kGap, widestMarker + 10);
  int x = kMargin + gap_;
  for (qsizetype i = 0; i < words_.size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    wordLeft_[k] = x;
    wordWidth_[k] = metrics.horizontalAdvance(words_[i]) + 2 * kWordPadding;
    x += wordWidth_[k] + gap_;
  }
  totalWidth_ = x + kMargin;
  const QSize size = sizeHint();
  setFixedSize(size);
}

QSize SentenceStrip::sizeHint() const {
  const QFontMetrics metrics(font());
  const QFontMetrics small(smallFont(font()));
  const int height = 2 * kMarkerRadius + 4 + metrics.height() + 10 + small.height() + 8;
  return {std::max(totalWidth_, 200), height};
}

QSize SentenceStrip::minimumSizeHint() const { return sizeHint(); }

int SentenceStrip::positionX(int position) const {
  if (words_.isEmpty() || position <= 0) return kMargin + gap_ / 2;
  const auto n = static_cast<int>(words_.size());
  const auto k = static_cast<std::size_t>(std::min(position, n) - 1);
  return wordLeft_[k] + wordWidth_[k] + gap_ / 2;
}

QRect SentenceStrip::markerRect(int position) const {
  const QFontMetrics small(smallFont(font()));
  const int width = std::max(
      2 * kMarkerRadius, small.horizontalAdvance(QString::number(position)) + 2 * kMarkerPadding);
  const int markerY = kMarkerRadius + 2;
  return {positionX(position) - width / 2, markerY - kMarkerRadius, width, 2 * kMarkerRadius};
}

int SentenceStrip::positionAt(int x) const {
  const auto n = static_cast<int>(words_.size());
  // Within a word: the position after it; between words: the nearest marker.
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (x >= wordLeft_[k] && x < wordLeft_[k] + wordWidth_[k]) return i + 1;
  }
  int best = 0;
  for (int p = 1; p <= n; ++p)
    if (std::abs(positionX(p) - x) < std::abs(positionX(best) - x)) best = p;
  return best;
}

void SentenceStrip::setCurrentPosition(int position) {
  if (position == current_) return;
  current_ = position;
  update();
  if (position >= 0) emit wantsVisible(positionX(position));
}

void SentenceStrip::setSpan(int left, int right, const QString& label) {
  spanLeft_ = left;
  spanRight_ = right;
  spanLabel_ = label;
  update();
}

void SentenceStrip::setTargetPosition(int position) {
  target_ = position;
  update();
}

void SentenceStrip::paintEvent(QPaintEvent* event) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QPalette& pal = palette();
  painter.fillRect(event->rect(), pal.color(QPalette::Base));
  const QFontMetrics metrics(font());
  const QFont small = smallFont(font());
  const QFontMetrics smallMetrics(small);
  const int markerY = kMarkerRadius + 2;
  const int wordTop = 2 * kMarkerRadius + 6;
  const int wordHeight = metrics.height() + 6;
  const int spanTop = wordTop + wordHeight + 4;
  const QColor accent(0x35, 0x6f, 0xc4);
  const QColor spanColor(0x8e, 0x44, 0xad);
  const int left = event->rect().left() - gap_;
  const int right = event->rect().right() + gap_;
  const auto n = static_cast<int>(words_.size());

  // The selected item's span, under its words.
  if (spanLeft_ >= 0 && spanRight_ >= spanLeft_) {
    const int x0 = positionX(spanLeft_);
    const int x1 = positionX(spanRight_);
    const QRect band(x0, spanTop, std::max(x1 - x0, 6), smallMetrics.height() + 4);
    QColor fill = spanColor;
    fill.setAlphaF(0.18F);
    painter.setPen(QPen(spanColor, 1.5));
    painter.setBrush(fill);
    painter.drawRoundedRect(band, 4, 4);
    painter.setFont(small);
    painter.setPen(spanColor.darker(130));
    const QString label =
        smallMetrics.elidedText(spanLabel_, Qt::ElideRight, std::max(band.width(), 240));
    painter.drawText(QRect(band.left() + 4, band.top(), std::max(band.width(), 240), band.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, label);
    // Guides from the band up to the two positions.
    painter.setPen(QPen(spanColor, 1, Qt::DotLine));
    painter.drawLine(x0, markerY + kMarkerRadius, x0, spanTop);
    painter.drawLine(x1, markerY + kMarkerRadius, x1, spanTop);
  }

  // Words.
  painter.setFont(font());
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (wordLeft_[k] + wordWidth_[k] < left || wordLeft_[k] > right) continue;
    const QRect box(wordLeft_[k], wordTop, wordWidth_[k], wordHeight);
    const bool read = current_ > i;
    painter.setPen(QPen(pal.color(QPalette::Mid), 1));
    painter.setBrush(read ? pal.color(QPalette::AlternateBase) : pal.color(QPalette::Base));
    painter.drawRoundedRect(box, 4, 4);
    QColor text = pal.color(QPalette::Text);
    if (!read) text.setAlphaF(0.45F);
    painter.setPen(text);
    painter.drawText(box, Qt::AlignCenter, words_[i]);
  }

  // Position markers.
  painter.setFont(small);
  for (int p = 0; p <= n; ++p) {
    const int x = positionX(p);
    if (x < left || x > right) continue;
    const QRectF circle(markerRect(p));
    const bool current = p == current_;
    painter.setPen(QPen(current ? accent : pal.color(QPalette::Mid), current ? 2 : 1));
    painter.setBrush(current ? accent : pal.color(QPalette::Base));
    painter.drawRoundedRect(circle, kMarkerRadius, kMarkerRadius);
    if (p == target_) {
      painter.setPen(QPen(QColor(0xd2, 0x78, 0x12), 2, Qt::DashLine));
      painter.setBrush(Qt::NoBrush);
      painter.drawRoundedRect(circle.adjusted(-3, -3, 3, 3), kMarkerRadius + 3, kMarkerRadius + 3);
    }
    painter.setPen(current ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::Text));
    painter.drawText(circle, Qt::AlignCenter, QString::number(p));
    if (current) {
      painter.setPen(QPen(accent, 2));
      painter.drawLine(x, markerY + kMarkerRadius, x, wordTop + wordHeight);
    }
  }
}

void SentenceStrip::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const int position = positionAt(event->position().toPoint().x());
  setTargetPosition(position);
  emit positionClicked(position);
}

void SentenceStrip::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const int position = positionAt(event->position().toPoint().x());
  setTargetPosition(position);
  emit positionActivated(position);
}

}  // namespace gwb::ui
