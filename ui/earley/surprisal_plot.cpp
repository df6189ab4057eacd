#include "ui/earley/surprisal_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QVBoxLayout>

#include "ui/common/qcustomplot_include.h"
#include "ui/common/qt_conversions.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {

namespace {
// A word needs about this many pixels for its tick label to stay readable.
constexpr int kPixelsPerWord = 58;
const QColor kReadColor(0x35, 0x6f, 0xc4);
const QColor kPrefixColor(0xd2, 0x78, 0x12);
}  // namespace

SurprisalPlot::SurprisalPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);

  plot_->setBackground(palette().color(QPalette::Base));
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->yAxis2->setVisible(true);
  plot_->yAxis2->setTickLabels(true);

  unread_ = new QCPBars(plot_->xAxis, plot_->yAxis);
  QColor faint = kReadColor;
  faint.setAlphaF(0.22F);
  unread_->setBrush(faint);
  unread_->setPen(Qt::NoPen);
  unread_->setWidth(0.7);
  unread_->setName(tr("surprisal"));
  read_ = new QCPBars(plot_->xAxis, plot_->yAxis);
  read_->setBrush(kReadColor);
  read_->setPen(Qt::NoPen);
  read_->setWidth(0.7);
  read_->removeFromLegend();

  prefix_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  prefix_->setPen(QPen(kPrefixColor, 2));
  prefix_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCircle, kPrefixColor, palette().color(QPalette::Base), 5));

  marker_ = new QCPItemStraightLine(plot_);
  marker_->setPen(QPen(QColor(0x20, 0x20, 0x20), 1.5, Qt::DashLine));
  marker_->point1->setCoords(0, 0);
  marker_->point2->setCoords(0, 1);

  // No legend (it would cover the first bars): each axis is labelled in its series' colour.
  plot_->yAxis->setLabelColor(kReadColor.darker(115));
  plot_->yAxis2->setLabelColor(kPrefixColor.darker(115));
  QFont axisFont = font();
  axisFont.setPointSizeF(font().pointSizeF() * 0.85);
  for (QCPAxis* axis : {plot_->yAxis, plot_->yAxis2}) {
    axis->setLabelFont(axisFont);
    axis->setTickLabelFont(axisFont);
  }
  plot_->xAxis->setTickLabelFont(font());

  connect(plot_, &QCustomPlot::plottableClick, this,
          [this](QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*) {
            if (plottable == read_ || plottable == unread_) {
              auto* bars = static_cast<QCPBars*>(plottable);
              const double key = bars->data()->at(dataIndex)->key;
              emit positionClicked(static_cast<int>(std::floor(key)) + 1);
            }
          });
  // On long inputs the prefix probability falls by thousands of nats: its axis follows the
  // words in view, so the line keeps its shape wherever one looks.
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this](const QCPRange& range) { fitPrefixAxis(range); });
  setMinimumHeight(120);
  rebuild();
}

void SurprisalPlot::fitPrefixAxis(const QCPRange& range) {
  double low = 0.0;
  double high = -std::numeric_limits<double>::infinity();
  for (auto it = prefix_->data()->findBegin(range.lower - 1.0);
       it != prefix_->data()->constEnd() && it->key <= range.upper + 1.0; ++it) {
    if (!std::isfinite(it->value)) continue;
    low = std::min(low, it->value);
    high = std::max(high, it->value);
  }
  if (!std::isfinite(high)) {
    plot_->yAxis2->setRange(-1, 0);
    return;
  }
  const double span = std::max(high - low, 1.0);
  plot_->yAxis2->setRange(low - 0.08 * span, std::min(0.0, high + 0.08 * span));
}

SurprisalPlot::~SurprisalPlot() = default;

double SurprisalPlot::scale() const { return unit_ == Unit::Bits ? 1.0 / std::log(2.0) : 1.0; }

void SurprisalPlot::setSession(std::shared_ptr<const ParseSession> session) {
  session_ = std::move(session);
  if (session_ && !session_->hasChart()) session_.reset();
  position_ = 0;
  rebuild();
}

void SurprisalPlot::setUnit(Unit unit) {
  if (unit == unit_) return;
  unit_ = unit;
  rebuild();
}

QVector<double> SurprisalPlot::barValues() const {
  QVector<double> values;
  for (auto it = unread_->data()->constBegin(); it != unread_->data()->constEnd(); ++it)
    values << it->value;
  return values;
}

QVector<double> SurprisalPlot::prefixValues() const {
  QVector<double> values;
  for (auto it = prefix_->data()->constBegin(); it != prefix_->data()->constEnd(); ++it)
    values << it->value;
  return values;
}

int SurprisalPlot::visibleWords() const {
  return std::max(4, plot_->axisRect()->width() / kPixelsPerWord);
}

void SurprisalPlot::rebuild() {
  unread_->data()->clear();
  read_->data()->clear();
  prefix_->data()->clear();
  const QString unitName = unit_ == Unit::Bits ? tr("bits") : tr("nats");
  plot_->yAxis->setLabel(tr("surprisal (%1)").arg(unitName));
  plot_->yAxis2->setLabel(unit_ == Unit::Bits ? tr("log\u2082 P(prefix)") : tr("ln P(prefix)"));
  prefix_->setName(unit_ == Unit::Bits ? tr("log\u2082 P(prefix)") : tr("ln P(prefix)"));
  unread_->setName(tr("surprisal (%1)").arg(unitName));
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  if (session_) {
    const gwb::ParseResult& result = session_->result();
    const auto& words = session_->words();
    const double k = scale();
    double top = 0.0;
    for (std::size_t i = 0; i < words.size(); ++i) {
      const double s = result.surprisal[i] * k;
      unread_->addData(static_cast<double>(i) + 0.5, s);
      if (std::isfinite(s)) top = std::max(top, s);
      ticker->addTick(static_cast<double>(i) + 0.5, toQString(words[i]));
    }
    for (std::size_t i = 0; i < result.logPrefixProbability.size(); ++i) {
      const double p = result.logPrefixProbability[i] * k;
      // −inf after an impossible word: leave a gap rather than a line to minus infinity.
      prefix_->addData(static_cast<double>(i), std::isfinite(p) ? p : qQNaN());
    }
    plot_->yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
  } else {
    plot_->yAxis->setRange(0, 1);
  }
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setSubTicks(false);
  plot_->xAxis->setTickLength(0, 3);
  updateHighlight();
  scrollToPosition();
  fitPrefixAxis(plot_->xAxis->range());
  plot_->replot();
}

void SurprisalPlot::setPosition(int position) {
  if (position == position_) return;
  position_ = position;
  updateHighlight();
  scrollToPosition();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SurprisalPlot::updateHighlight() {
  read_->data()->clear();
  QVector<QCPBarsData> read;
  for (auto it = unread_->data()->constBegin(); it != unread_->data()->constEnd(); ++it) {
    if (it->key < position_) read << *it;
  }
  read_->data()->set(read, true);
  marker_->point1->setCoords(position_, 0);
  marker_->point2->setCoords(position_, 1);
  marker_->setVisible(session_ != nullptr);
}

void SurprisalPlot::scrollToPosition() {
  const int words = session_ ? static_cast<int>(session_->words().size()) : 0;
  const int window = visibleWords();
  if (words <= window) {
    plot_->xAxis->setRange(-0.3, std::max(words, 1) + 0.3);
    return;
  }
  const QCPRange range = plot_->xAxis->range();
  if (position_ >= range.lower + 1 && position_ <= range.upper - 1 && range.size() <= window + 1)
    return;
  const double start = std::clamp(position_ - window / 2.0, -0.3, words + 0.3 - window);
  plot_->xAxis->setRange(start, start + window);
}

void SurprisalPlot::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  scrollToPosition();
}

}  // namespace gwb::ui
