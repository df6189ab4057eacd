#include "ui/earley/arc_view.h"

#include <algorithm>
#include <map>

#include <QContextMenuEvent>
#include <QEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QSplitter>
#include <QToolTip>

#include "ui/earley/chart_item_delegate.h"

namespace gwb::ui {

namespace {
constexpr int kMargin = 18;      // left and right of the first and last position
constexpr int kMinColumn = 110;  // the width of one word at the least
constexpr int kTopMargin = 8;
constexpr int kLabelPadding = 6;  // around a label inside its arc
constexpr int kLaneGap = 8;       // horizontal space between two arcs of a lane
constexpr int kLoopRadius = 5;    // an empty span's loop
}  // namespace

// The drawing surface: lays the arcs out in lanes and paints them.
class ArcCanvas : public QWidget {
 public:
  explicit ArcCanvas(ArcView* owner) : QWidget(owner), owner_(owner) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
  }

  QStringList words;
  std::vector<ChartArc> arcs;
  std::optional<qint64> selected;
  int currentPosition = -1;
  QString placeholder;

  struct Placed {
    int lane = 0;
    int left = 0;    // x of the arc's left end (or the loop's centre)
    int right = 0;   // x of the arc's right end
    int extent = 0;  // x where the label ends (≥ right)
  };
  std::vector<Placed> placed;  // parallel to arcs
  int lanes = 0;

  QFont labelFont(bool bold) const {
    QFont f = font();
    f.setBold(bold);
    return f;
  }
  // The width of one word's column: fits the widest word (measured once per layout).
  int column = kMinColumn;
  int positionX(int position) const { return kMargin + position * column; }
  int laneHeight() const { return QFontMetrics(labelFont(true)).height() + 12; }
  int wordsHeight() const { return 2 * QFontMetrics(font()).height() + 14; }
  // The bottom of lane `lane` (lane 0 sits on the words).
  int laneBottom(int lane) const { return height() - wordsHeight() - lane * laneHeight(); }

  void layoutArcs() {
    const QFontMetrics wordMetrics(font());
    column = kMinColumn;
    for (const QString& w : words) column = std::max(column, wordMetrics.horizontalAdvance(w) + 24);
    placed.assign(arcs.size(), Placed{});
    std::vector<std::size_t> order(arcs.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    // Short spans nearest the words; then left to right.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const int spanA = arcs[a].end - arcs[a].origin;
      const int spanB = arcs[b].end - arcs[b].origin;
      if (spanA != spanB) return spanA < spanB;
      return arcs[a].origin < arcs[b].origin;
    });
    std::vector<std::vector<std::pair<int, int>>> occupied;  // per lane: [left, right) in x
    for (std::size_t k : order) {
      const ChartArc& arc = arcs[k];
      Placed p;
      p.left = positionX(arc.origin);
      p.right = positionX(arc.end);
      const int labelWidth =
          QFontMetrics(labelFont(arc.finished)).horizontalAdvance(arc.label) + 2 * kLabelPadding;
      const int start = arc.origin == arc.end ? p.left - kLoopRadius - 2 : p.left;
      const int labelStart = arc.origin == arc.end ? p.left + kLoopRadius + 2 : p.left + 4;
      p.extent = std::max(p.right, labelStart + labelWidth);
      int lane = 0;
      for (;; ++lane) {
        if (lane == static_cast<int>(occupied.size())) occupied.emplace_back();
        bool free = true;
        for (const auto& [l, r] : occupied[static_cast<std::size_t>(lane)])
          if (start < r + kLaneGap && l < p.extent + kLaneGap) {
            free = false;
            break;
          }
        if (free) break;
      }
      occupied[static_cast<std::size_t>(lane)].push_back({start, p.extent});
      p.lane = lane;
      placed[k] = p;
    }
    lanes = static_cast<int>(occupied.size());
    int widest = positionX(static_cast<int>(words.size())) + kMargin;
    for (const Placed& p : placed) widest = std::max(widest, p.extent + kMargin);
    setMinimumSize(widest, kTopMargin + lanes * laneHeight() + wordsHeight());
    update();
  }

  QRect boxOf(std::size_t k) const {
    const Placed& p = placed[k];
    const int bottom = laneBottom(p.lane);
    const int left = arcs[k].origin == arcs[k].end ? p.left - kLoopRadius - 2 : p.left;
    return QRect(QPoint(left, bottom - laneHeight() + 2), QPoint(p.extent, bottom));
  }

  std::optional<std::size_t> indexAt(const QPoint& point) const {
    for (std::size_t k = 0; k < arcs.size(); ++k)
      if (boxOf(k).contains(point)) return k;
    return std::nullopt;
  }

  std::optional<std::size_t> indexOf(qint64 key) const {
    for (std::size_t k = 0; k < arcs.size(); ++k)
      if (arcs[k].key == key) return k;
    return std::nullopt;
  }

 protected:
  void paintEvent(QPaintEvent* event) override {
    const QRect clip = event->rect();
    // Whether the columns of positions [from, to] reach into the area to paint.
    const auto visible = [&](int from, int to) {
      return positionX(to) + column >= clip.left() && positionX(from) - column <= clip.right();
    };
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics(font());
    const int n = static_cast<int>(words.size());
    const int wordsTop = height() - wordsHeight();
    const std::optional<std::size_t> selectedIndex = selected ? indexOf(*selected) : std::nullopt;

    // The selected arc's span, shaded over the words and the lanes.
    if (selectedIndex) {
      const ChartArc& arc = arcs[*selectedIndex];
      QColor shade = palette().highlight().color();
      shade.setAlpha(40);
      painter.fillRect(
          QRect(QPoint(positionX(arc.origin), kTopMargin),
                QPoint(std::max(positionX(arc.end), positionX(arc.origin) + 3), height())),
          shade);
    }
    // Position guides through the lanes.
    painter.setPen(QPen(palette().mid().color(), 1, Qt::DotLine));
    for (int i = 0; i <= n; ++i)
      if (visible(i, i)) painter.drawLine(positionX(i), kTopMargin, positionX(i), wordsTop);
    if (currentPosition >= 0 && currentPosition <= n) {
      painter.setPen(QPen(QColor(0x9c, 0x27, 0xb0), 2, Qt::DashLine));
      painter.drawLine(positionX(currentPosition), kTopMargin, positionX(currentPosition),
                       wordsTop + 4);
    }
    // The words between their positions, the position numbers under the ticks.
    painter.setPen(palette().text().color());
    painter.drawLine(positionX(0), wordsTop + 4, positionX(n), wordsTop + 4);
    for (int i = 0; i <= n; ++i) {
      if (!visible(i, i)) continue;
      painter.drawLine(positionX(i), wordsTop, positionX(i), wordsTop + 8);
      const QString number = QString::number(i);
      painter.drawText(positionX(i) - metrics.horizontalAdvance(number) / 2,
                       height() - 4 - metrics.descent(), number);
    }
    QFont wordFont = font();
    wordFont.setItalic(true);
    painter.setFont(wordFont);
    for (int i = 0; i < n; ++i)
      if (visible(i, i + 1))
        painter.drawText(QRect(positionX(i), wordsTop + 8, positionX(i + 1) - positionX(i),
                               metrics.height() + 2),
                         Qt::AlignCenter, words[i]);

    if (!placeholder.isEmpty()) {
      painter.setFont(font());
      painter.setPen(palette().placeholderText().color());
      painter.drawText(rect().adjusted(8, 8, -8, -wordsHeight()),
                       Qt::AlignCenter | Qt::TextWordWrap, placeholder);
      return;
    }
    for (std::size_t k = 0; k < arcs.size(); ++k)
      if (boxOf(k).adjusted(-8, -8, 8, 8).intersects(clip))
        paintArc(painter, k, selectedIndex == k);
  }

  void paintArc(QPainter& painter, std::size_t k, bool isSelected) {
    const ChartArc& arc = arcs[k];
    const Placed& p = placed[k];
    const int bottom = laneBottom(p.lane) - 2;
    const int top = laneBottom(p.lane) - laneHeight() + 4;
    const QColor colour = operationColor(arc.madeBy);
    const qreal width = arc.finished ? 2.6 : 1.3;
    if (isSelected) {
      QColor glow = palette().highlight().color();
      glow.setAlpha(120);
      painter.setPen(QPen(glow, width + 5, Qt::SolidLine, Qt::RoundCap));
      paintShape(painter, arc, p, top, bottom);
    }
    painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::RoundCap));
    paintShape(painter, arc, p, top, bottom);

    const QFont font = labelFont(arc.finished);
    painter.setFont(font);
    const QFontMetrics metrics(font);
    const int labelLeft = arc.origin == arc.end ? p.left + kLoopRadius + 2 : p.left + 4;
    const QRect label(labelLeft, top + 3, p.extent - labelLeft, metrics.height() + 2);
    QColor fill = arc.fresh ? operationColor(arc.madeBy, true) : palette().base().color();
    if (isSelected) fill = palette().highlight().color().lighter(170);
    painter.fillRect(label, fill);
    painter.setPen(isSelected ? palette().text().color() : colour.darker(140));
    painter.drawText(label, Qt::AlignCenter, arc.label);
  }

  static void paintShape(QPainter& painter, const ChartArc& arc, const Placed& p, int top,
                         int bottom) {
    if (arc.origin == arc.end) {
      // An empty span: a loop standing on position r.
      painter.drawEllipse(QPointF(p.left, bottom - kLoopRadius - 1), kLoopRadius, kLoopRadius);
      return;
    }
    // A bridge from l to r: legs at the two positions, a rounded span over the words between.
    const qreal radius = std::min<qreal>(8.0, (p.right - p.left) / 2.0);
    QPainterPath path(QPointF(p.left, bottom));
    path.lineTo(p.left, top + radius);
    path.quadTo(p.left, top, p.left + radius, top);
    path.lineTo(p.right - radius, top);
    path.quadTo(p.right, top, p.right, top + radius);
    path.lineTo(p.right, bottom);
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
  }

  void mousePressEvent(QMouseEvent* event) override {
    const std::optional<std::size_t> k = indexAt(event->position().toPoint());
    if (!k) return;
    selected = arcs[*k].key;
    update();
    emit owner_->arcClicked(arcs[*k].key);
  }

  void mouseDoubleClickEvent(QMouseEvent* event) override {
    const std::optional<std::size_t> k = indexAt(event->position().toPoint());
    if (k) emit owner_->arcDoubleClicked(arcs[*k].key);
  }

  bool event(QEvent* event) override {
    if (event->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(event);
      const std::optional<std::size_t> k = indexAt(help->pos());
      if (k && !arcs[*k].toolTip.isEmpty()) {
        QToolTip::showText(help->globalPos(), arcs[*k].toolTip, this, boxOf(*k));
      } else {
        QToolTip::hideText();
        event->ignore();
      }
      return true;
    }
    return QWidget::event(event);
  }

 private:
  ArcView* owner_;
};

ArcView::ArcView(QWidget* parent) : QScrollArea(parent), canvas_(new ArcCanvas(this)) {
  setObjectName(QStringLiteral("arcView"));
  setWidget(canvas_);
  setWidgetResizable(true);
  setBackgroundRole(QPalette::Base);
  setToolTip(QString());
  canvas_->layoutArcs();
}

ArcView::~ArcView() = default;

QWidget* ArcView::canvas() const { return canvas_; }

void ArcView::setWords(const QStringList& words) {
  canvas_->words = words;
  canvas_->layoutArcs();
}

const QStringList& ArcView::words() const { return canvas_->words; }

void ArcView::setArcs(std::vector<ChartArc> arcs) {
  canvas_->arcs = std::move(arcs);
  if (canvas_->selected && !canvas_->indexOf(*canvas_->selected)) canvas_->selected.reset();
  canvas_->layoutArcs();
}

const std::vector<ChartArc>& ArcView::arcs() const { return canvas_->arcs; }

void ArcView::setCurrentPosition(int position) {
  canvas_->currentPosition = position;
  canvas_->update();
}

void ArcView::setPlaceholder(const QString& text) {
  canvas_->placeholder = text;
  canvas_->update();
}

QString ArcView::placeholder() const { return canvas_->placeholder; }

std::optional<qint64> ArcView::selectedKey() const { return canvas_->selected; }

void ArcView::setSelectedKey(std::optional<qint64> key) {
  if (key && !canvas_->indexOf(*key)) key.reset();
  canvas_->selected = key;
  canvas_->update();
  if (key) {
    const QRect box = arcRect(*key);
    ensureVisible(box.center().x(), box.center().y(), box.width() / 2 + 20, box.height() / 2 + 20);
    // Keep the words in sight too when the arc and the words fit in the viewport together.
    if (canvas_->height() - box.top() + 10 <= viewport()->height())
      verticalScrollBar()->setValue(verticalScrollBar()->maximum());
  }
}

QRect ArcView::arcRect(qint64 key) const {
  const std::optional<std::size_t> k = canvas_->indexOf(key);
  return k ? canvas_->boxOf(*k) : QRect();
}

std::optional<qint64> ArcView::keyAt(const QPoint& canvasPoint) const {
  const std::optional<std::size_t> k = canvas_->indexAt(canvasPoint);
  if (!k) return std::nullopt;
  return canvas_->arcs[*k].key;
}

int ArcView::laneCount() const { return canvas_->lanes; }

void ArcView::toggleSplitterOrientation() {
  auto* splitter = qobject_cast<QSplitter*>(parentWidget());
  if (splitter == nullptr) return;
  splitter->setOrientation(splitter->orientation() == Qt::Vertical ? Qt::Horizontal : Qt::Vertical);
  const int total =
      splitter->orientation() == Qt::Vertical ? splitter->height() : splitter->width();
  QList<int> sizes;
  for (int k = 0; k < splitter->count(); ++k) sizes << total / std::max(1, splitter->count());
  splitter->setSizes(sizes);
}

void ArcView::contextMenuEvent(QContextMenuEvent* event) {
  auto* splitter = qobject_cast<QSplitter*>(parentWidget());
  if (splitter == nullptr) return;
  QMenu menu(this);
  menu.addAction(splitter->orientation() == Qt::Vertical ? tr("Place beside the other view")
                                                         : tr("Place below the other view"),
                 this, &ArcView::toggleSplitterOrientation);
  menu.exec(event->globalPos());
}

}  // namespace gwb::ui
