#include "ui/ccg/ccg_chart_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>

#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {

constexpr double kMargin = 12.0;
constexpr double kWordsHeight = 28.0;
constexpr double kMinCellWidth = 56.0;
constexpr double kMinCellHeight = 34.0;

}  // namespace

CcgChartView::CcgChartView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("ccgChartView"));
  setFocusPolicy(Qt::ClickFocus);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void CcgChartView::setChart(const gwb::ccg::CkyChart* chart) {
  chart_ = chart;
  replay_.reset();
  replaySplit_ = -1;
  selected_ = {-1, -1};
  updateGeometry();
  update();
}

void CcgChartView::setReplay(std::optional<gwb::ccg::CkyReplayState> state, int split) {
  replay_ = std::move(state);
  replaySplit_ = split;
  update();
}

void CcgChartView::setShading(Shading shading) {
  shading_ = shading;
  update();
}

void CcgChartView::selectCell(int begin, int end) {
  if (!chart_ || begin < 0 || end <= begin || end > chart_->length()) {
    selected_ = {-1, -1};
  } else {
    selected_ = {begin, end};
  }
  update();
}

int CcgChartView::displayedEntries(int begin, int end) const {
  if (!chart_ || begin < 0 || end <= begin || end > chart_->length()) return 0;
  if (replay_) return replay_->entries[static_cast<std::size_t>(chart_->cellIndex(begin, end))];
  return static_cast<int>(chart_->cell(begin, end).entries.size());
}

int CcgChartView::displayedPruned(int begin, int end) const {
  if (!chart_ || begin < 0 || end <= begin || end > chart_->length()) return 0;
  if (replay_) return replay_->pruned[static_cast<std::size_t>(chart_->cellIndex(begin, end))];
  int pruned = 0;
  for (const gwb::ccg::ChartEntry& entry : chart_->cell(begin, end).entries) {
    pruned += entry.pruned ? 1 : 0;
  }
  return pruned;
}

std::vector<std::pair<std::string, int>> CcgChartView::displayedCategories(int begin,
                                                                           int end) const {
  std::vector<std::pair<std::string, int>> counts;
  const int shown = displayedEntries(begin, end);
  if (shown == 0) return counts;
  const std::vector<gwb::ccg::ChartEntry>& entries = chart_->cell(begin, end).entries;
  // A replay shows the first `shown` entries: a cell's entries are kept in the order made.
  for (int i = 0; i < shown && i < static_cast<int>(entries.size()); ++i) {
    const std::string category = toString(entries[static_cast<std::size_t>(i)].category);
    const auto found = std::find_if(counts.begin(), counts.end(),
                                    [&](const auto& count) { return count.first == category; });
    if (found == counts.end()) {
      counts.emplace_back(category, 1);
    } else {
      ++found->second;
    }
  }
  return counts;
}

QString CcgChartView::cellToolTip(int begin, int end) const {
  if (!chart_ || begin < 0 || end <= begin || end > chart_->length()) return {};
  QStringList words;
  for (int w = begin; w < end; ++w)
    words << toQString(chart_->words()[static_cast<std::size_t>(w)]);
  QStringList lines{
      tr("Cell %1\u2013%2 \u201c%3\u201d").arg(begin).arg(end).arg(words.join(QLatin1Char(' ')))};
  for (const auto& [category, count] : displayedCategories(begin, end))
    lines << tr("%1 \u00d7 %2").arg(toQString(category)).arg(count);
  if (lines.size() == 1) lines << tr("no entries");
  if (const int pruned = displayedPruned(begin, end); pruned > 0)
    lines << tr("(%1 of them pruned)").arg(pruned);
  return lines.join(QLatin1Char('\n'));
}

bool CcgChartView::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QWidget::event(event);
  const auto* help = static_cast<QHelpEvent*>(event);
  const auto [begin, end] = cellAt(help->pos());
  if (begin < 0) {
    QToolTip::hideText();
    event->ignore();
  } else {
    QToolTip::showText(help->globalPos(), cellToolTip(begin, end), this);
  }
  return true;
}

CcgChartView::Geometry CcgChartView::geometry() const {
  Geometry g;
  const int n = chart_ ? std::max(1, chart_->length()) : 1;
  g.cellWidth = std::max(kMinCellWidth, (width() - 2 * kMargin) / n);
  g.cellHeight = std::clamp((height() - 2 * kMargin - kWordsHeight) / n, kMinCellHeight, 80.0);
  g.left = std::max(kMargin, (width() - g.cellWidth * n) / 2);
  g.top = kMargin;
  g.wordsTop = g.top + g.cellHeight * n + 4;
  return g;
}

QRectF CcgChartView::cellRect(int begin, int end) const {
  if (!chart_ || begin < 0 || end <= begin || end > chart_->length()) return {};
  const Geometry g = geometry();
  const int n = chart_->length();
  const int span = end - begin;
  const double x = g.left + begin * g.cellWidth + (span - 1) * g.cellWidth / 2.0;
  const double y = g.top + (n - span) * g.cellHeight;
  return {x + 1, y + 1, g.cellWidth - 2, g.cellHeight - 2};
}

std::pair<int, int> CcgChartView::cellAt(const QPointF& point) const {
  if (!chart_) return {-1, -1};
  for (int begin = 0; begin < chart_->length(); ++begin) {
    for (int end = begin + 1; end <= chart_->length(); ++end) {
      if (cellRect(begin, end).contains(point)) return {begin, end};
    }
  }
  return {-1, -1};
}

double CcgChartView::shade(int begin, int end) const {
  const int count = displayedEntries(begin, end) - displayedPruned(begin, end);
  if (count <= 0) return 0.0;
  if (shading_ == Shading::EntryCount || replay_) {
    int most = 1;
    for (int b = 0; b < chart_->length(); ++b) {
      for (int e = b + 1; e <= chart_->length(); ++e) {
        most = std::max(most, displayedEntries(b, e) - displayedPruned(b, e));
      }
    }
    return std::log1p(count) / std::log1p(most);
  }
  // Best inside score, relative to the best and worst cells' bests.
  const auto best = [this](int b, int e) {
    double value = -std::numeric_limits<double>::infinity();
    for (const gwb::ccg::ChartEntry& entry : chart_->cell(b, e).entries) {
      if (!entry.pruned) value = std::max(value, entry.inside);
    }
    return value;
  };
  double high = -std::numeric_limits<double>::infinity();
  double low = std::numeric_limits<double>::infinity();
  for (int b = 0; b < chart_->length(); ++b) {
    for (int e = b + 1; e <= chart_->length(); ++e) {
      const double v = best(b, e);
      if (std::isfinite(v)) {
        high = std::max(high, v);
        low = std::min(low, v);
      }
    }
  }
  const double v = best(begin, end);
  if (!std::isfinite(v)) return 0.0;
  return high > low ? 0.15 + 0.85 * (v - low) / (high - low) : 1.0;
}

QSize CcgChartView::sizeHint() const {
  const int n = chart_ ? std::max(1, chart_->length()) : 6;
  return {static_cast<int>(2 * kMargin + n * 90),
          static_cast<int>(2 * kMargin + kWordsHeight + n * 50)};
}

QSize CcgChartView::minimumSizeHint() const { return {240, 160}; }

void CcgChartView::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().base());
  if (!chart_ || chart_->length() == 0) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter,
                     tr("Open a lexicon, type a sentence and press Parse:\nthe CKY chart shows "
                        "here, one cell per span."));
    return;
  }
  const Geometry g = geometry();
  const int n = chart_->length();
  const QColor base(230, 238, 250);
  const QColor full(52, 101, 164);
  QFont countFont = font();
  countFont.setBold(true);
  QFont smallFont = font();
  smallFont.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
  std::pair<int, int> current{-1, -1};
  if (replay_ && replay_->currentCell >= 0) {
    const gwb::ccg::ChartCell& cell = chart_->cellAt(replay_->currentCell);
    current = {cell.begin, cell.end};
  }
  for (int begin = 0; begin < n; ++begin) {
    for (int end = begin + 1; end <= n; ++end) {
      const QRectF r = cellRect(begin, end);
      const int entries = displayedEntries(begin, end);
      const int pruned = displayedPruned(begin, end);
      const double t = shade(begin, end);
      const auto mix = [t](float from, float to) {
        return from + (to - from) * static_cast<float>(t);
      };
      const QColor fill = entries == 0 ? palette().color(QPalette::Base)
                                       : QColor::fromRgbF(mix(base.redF(), full.redF()),
                                                          mix(base.greenF(), full.greenF()),
                                                          mix(base.blueF(), full.blueF()));
      painter.setPen(QPen(palette().color(QPalette::Mid), 1));
      painter.setBrush(fill);
      painter.drawRoundedRect(r, 3, 3);
      const bool dark = t > 0.55;
      painter.setPen(dark ? Qt::white : palette().color(QPalette::Text));
      painter.setFont(countFont);
      QString text = entries == 0 ? QStringLiteral("\u00b7") : QString::number(entries - pruned);
      painter.drawText(r.adjusted(0, 0, 0, pruned > 0 ? -r.height() / 3 : 0), Qt::AlignCenter,
                       text);
      if (pruned > 0) {
        painter.setFont(smallFont);
        painter.drawText(r.adjusted(0, r.height() / 3, 0, 0), Qt::AlignCenter,
                         tr("+%1 pruned").arg(pruned));
      }
      // The top cell's roots: a small mark.
      if (begin == 0 && end == n && !replay_ && chart_->hasParse()) {
        painter.setFont(smallFont);
        painter.drawText(r.adjusted(4, 2, -4, -2), Qt::AlignTop | Qt::AlignRight,
                         tr("%1 S").arg(chart_->roots().size()));
      }
    }
  }
  // Outlines: the cell being filled, its children, the selection.
  const auto outline = [&](std::pair<int, int> cell, const QColor& color, double width) {
    if (cell.first < 0) return;
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(color, width));
    painter.drawRoundedRect(cellRect(cell.first, cell.second).adjusted(1, 1, -1, -1), 3, 3);
  };
  if (current.first >= 0 && replaySplit_ > current.first && replaySplit_ < current.second) {
    outline({current.first, replaySplit_}, QColor(32, 74, 135), 2.5);
    outline({replaySplit_, current.second}, QColor(32, 74, 135), 2.5);
  }
  outline(selected_, palette().color(QPalette::Highlight), 3);
  outline(current, QColor(245, 121, 0), 3);
  // Words.
  painter.setFont(font());
  painter.setPen(palette().color(QPalette::Text));
  for (int w = 0; w < n; ++w) {
    const QRectF r(g.left + w * g.cellWidth, g.wordsTop, g.cellWidth, kWordsHeight);
    painter.drawText(r, Qt::AlignCenter,
                     painter.fontMetrics().elidedText(toQString(chart_->words()[w]), Qt::ElideRight,
                                                      static_cast<int>(r.width())));
  }
}

void CcgChartView::mousePressEvent(QMouseEvent* event) {
  const auto [begin, end] = cellAt(event->position());
  if (begin < 0) return;
  selectCell(begin, end);
  emit cellSelected(begin, end);
}

}  // namespace gwb::ui
