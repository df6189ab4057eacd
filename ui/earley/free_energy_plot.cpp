#include "ui/earley/free_energy_plot.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTemporaryFile>
#include <QToolTip>
#include <QVBoxLayout>

#include "ui/common/qcustomplot_include.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {

// How near (in pixels) the pointer must be to a point for its tooltip.
constexpr double kHoverPixels = 10.0;

struct Span {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  bool valid() const { return low <= high; }
};

void setPaddedRange(QCPAxis* axis, const Span& span) {
  if (!span.valid()) {
    axis->setRange(0, 1);
    return;
  }
  const double pad = std::max((span.high - span.low) * 0.08, std::abs(span.high) * 1e-6 + 1e-9);
  axis->setRange(span.low - pad, span.high + pad);
}

QVector<QPointF> pointsOf(const QCPGraph* graph) {
  QVector<QPointF> points;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
    points << QPointF(it->key, it->value);
  return points;
}

bool renameOver(const QString& from, const QString& to, QString* error) {
  std::error_code ec;
  std::filesystem::rename(toNativePath(from), toNativePath(to), ec);
  if (!ec) return true;
  QFile::remove(from);
  if (error) *error = QObject::tr("cannot write %1: %2").arg(to, toQString(ec.message()));
  return false;
}

}  // namespace

FreeEnergyPlot::FreeEnergyPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setBackground(palette().color(QPalette::Base));
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

  energyRect_ = plot_->axisRect();
  likelihoodRect_ = new QCPAxisRect(plot_);
  plot_->plotLayout()->addElement(1, 0, likelihoodRect_);
  auto* margins = new QCPMarginGroup(plot_);
  for (QCPAxisRect* rect : {energyRect_, likelihoodRect_}) {
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    rect->axis(QCPAxis::atBottom)->setTicker(ticker);
    rect->axis(QCPAxis::atLeft)->setNumberFormat(QStringLiteral("g"));
    rect->axis(QCPAxis::atLeft)->setNumberPrecision(8);
  }
  likelihoodRect_->axis(QCPAxis::atBottom)->setLabel(tr("iteration"));
  likelihoodRect_->axis(QCPAxis::atLeft)->setLabel(tr("\u2212log p(x)"));
  // One iteration axis: panning or zooming either panel moves both.
  QCPAxis* topX = energyRect_->axis(QCPAxis::atBottom);
  QCPAxis* bottomX = likelihoodRect_->axis(QCPAxis::atBottom);
  connect(topX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), bottomX,
          qOverload<const QCPRange&>(&QCPAxis::setRange));
  connect(bottomX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), topX,
          qOverload<const QCPRange&>(&QCPAxis::setRange));

  plot_->legend->setVisible(true);
  QFont legendFont = font();
  legendFont.setPointSizeF(font().pointSizeF() * 0.9);
  plot_->legend->setFont(legendFont);
  plot_->legend->setBrush(QColor(255, 255, 255, 220));
  energyRect_->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { rescale(); });
  connect(plot_, &QCustomPlot::mouseMove, this,
          [this](QMouseEvent* event) { showToolTip(event->pos()); });
  setMinimumSize(320, 240);
  updateLabels();
  rescale();
}

FreeEnergyPlot::~FreeEnergyPlot() = default;

void FreeEnergyPlot::addRun(int id, const QString& name, const QColor& color) {
  if (hasRun(id)) return;
  Curves curves;
  const QPen pen(color, 2);
  const QCPScatterStyle dots(QCPScatterStyle::ssCircle, color, color, 5);
  curves.energy =
      plot_->addGraph(energyRect_->axis(QCPAxis::atBottom), energyRect_->axis(QCPAxis::atLeft));
  curves.energy->setPen(pen);
  curves.energy->setScatterStyle(dots);
  curves.energy->setName(name);
  curves.likelihood = plot_->addGraph(likelihoodRect_->axis(QCPAxis::atBottom),
                                      likelihoodRect_->axis(QCPAxis::atLeft));
  curves.likelihood->setPen(pen);
  curves.likelihood->setScatterStyle(dots);
  curves.likelihood->setName(name);
  curves.likelihood->removeFromLegend();
  runs_.emplace(id, std::move(curves));
  rescale();
}

void FreeEnergyPlot::removeRun(int id) {
  const auto it = runs_.find(id);
  if (it == runs_.end()) return;
  plot_->removeGraph(it->second.energy);
  plot_->removeGraph(it->second.likelihood);
  runs_.erase(it);
  rescale();
}

void FreeEnergyPlot::clear() {
  while (!runs_.empty()) removeRun(runs_.begin()->first);
}

void FreeEnergyPlot::setRunVisible(int id, bool visible) {
  const auto it = runs_.find(id);
  if (it == runs_.end()) return;
  Curves& curves = it->second;
  curves.visible = visible;
  curves.energy->setVisible(visible);
  curves.likelihood->setVisible(visible);
  if (visible) {
    curves.energy->addToLegend();
  } else {
    curves.energy->removeFromLegend();
  }
  rescale();
}

void FreeEnergyPlot::setRecords(int id, const std::vector<gwb::IterationRecord>& records) {
  const auto it = runs_.find(id);
  if (it == runs_.end()) return;
  it->second.records = records;
  fillGraphs(it->second);
  rescale();
}

void FreeEnergyPlot::appendRecord(int id, const gwb::IterationRecord& record) {
  const auto it = runs_.find(id);
  if (it == runs_.end()) return;
  it->second.records.push_back(record);
  fillGraphs(it->second);
  rescale();
}

void FreeEnergyPlot::setEnergyKind(EnergyKind kind) {
  if (kind == kind_) return;
  kind_ = kind;
  for (auto& [id, curves] : runs_) fillGraphs(curves);
  updateLabels();
  rescale();
}

void FreeEnergyPlot::fillGraphs(Curves& curves) const {
  QVector<double> keys;
  QVector<double> energies;
  QVector<double> likelihoodKeys;
  QVector<double> likelihoods;
  for (const gwb::IterationRecord& r : curves.records) {
    const double energy = kind_ == EnergyKind::Earleyx ? r.freeEnergy : r.variationalFreeEnergy;
    if (std::isfinite(energy)) {
      keys << r.iteration;
      energies << energy;
    }
    if (std::isfinite(r.negLogLikelihood)) {
      likelihoodKeys << r.iteration;
      likelihoods << r.negLogLikelihood;
    }
  }
  curves.energy->setData(keys, energies, true);
  curves.likelihood->setData(likelihoodKeys, likelihoods, true);
}

void FreeEnergyPlot::updateLabels() {
  energyRect_->axis(QCPAxis::atLeft)
      ->setLabel(kind_ == EnergyKind::Earleyx ? tr("free energy (as Earleyx, paper)")
                                              : tr("variational free energy"));
}

void FreeEnergyPlot::rescale() {
  Span iterations;
  Span energy;
  Span likelihood;
  for (const auto& [id, curves] : runs_) {
    if (!curves.visible) continue;
    for (const QPointF& p : pointsOf(curves.energy)) {
      iterations.add(p.x());
      energy.add(p.y());
    }
    for (const QPointF& p : pointsOf(curves.likelihood)) {
      iterations.add(p.x());
      likelihood.add(p.y());
    }
  }
  const double last = iterations.valid() ? std::max(iterations.high, 2.0) : 5.0;
  energyRect_->axis(QCPAxis::atBottom)->setRange(0.5, last + 0.5);
  setPaddedRange(energyRect_->axis(QCPAxis::atLeft), energy);
  setPaddedRange(likelihoodRect_->axis(QCPAxis::atLeft), likelihood);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QVector<QPointF> FreeEnergyPlot::freeEnergyPoints(int id) const {
  const auto it = runs_.find(id);
  return it == runs_.end() ? QVector<QPointF>{} : pointsOf(it->second.energy);
}

QVector<QPointF> FreeEnergyPlot::negLogLikelihoodPoints(int id) const {
  const auto it = runs_.find(id);
  return it == runs_.end() ? QVector<QPointF>{} : pointsOf(it->second.likelihood);
}

QStringList FreeEnergyPlot::legendNames() const {
  QStringList names;
  for (int i = 0; i < plot_->legend->itemCount(); ++i) {
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot_->legend->item(i)))
      names << item->plottable()->name();
  }
  return names;
}

void FreeEnergyPlot::showToolTip(const QPoint& at) {
  double best = kHoverPixels;
  QString text;
  for (const auto& [id, curves] : runs_) {
    if (!curves.visible) continue;
    for (const QCPGraph* graph : {curves.energy, curves.likelihood}) {
      for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        const QPointF pixel = graph->coordsToPixels(it->key, it->value);
        const double distance = std::hypot(pixel.x() - at.x(), pixel.y() - at.y());
        if (distance >= best) continue;
        best = distance;
        text = tr("%1\niteration %2: %3 = %4")
                   .arg(graph->name(), QString::number(static_cast<int>(it->key)),
                        graph == curves.energy ? energyRect_->axis(QCPAxis::atLeft)->label()
                                               : likelihoodRect_->axis(QCPAxis::atLeft)->label(),
                        QString::number(it->value, 'f', 3));
      }
    }
  }
  if (text.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(plot_->mapToGlobal(at), text, plot_);
  }
}

bool FreeEnergyPlot::savePng(const QString& path, QString* error, int width, int height) {
  const QPixmap pixmap = plot_->toPixmap(width, height);
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
    if (error) *error = tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

bool FreeEnergyPlot::savePdf(const QString& path, QString* error, int width, int height) {
  QTemporaryFile temporary(
      QFileInfo(path).absoluteDir().filePath(QStringLiteral(".gwb-XXXXXX.pdf")));
  if (!temporary.open()) {
    if (error) *error = tr("cannot write %1: %2").arg(path, temporary.errorString());
    return false;
  }
  const QString temporaryPath = temporary.fileName();
  temporary.close();
  temporary.setAutoRemove(false);
  if (!plot_->savePdf(temporaryPath, width, height, QCP::epNoCosmetic,
                      QStringLiteral("Grammar Workbench"), tr("Induction curves"))) {
    QFile::remove(temporaryPath);
    if (error) *error = tr("cannot write %1").arg(path);
    return false;
  }
  return renameOver(temporaryPath, path, error);
}

}  // namespace gwb::ui
