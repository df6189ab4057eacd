#include "ui/ccg/fubl_training_plot.h"

#include <algorithm>

#include <QVBoxLayout>

#include "ui/common/qcustomplot_include.h"

namespace gwb::ui {

namespace {

QVector<QPointF> points(const QCPGraph* graph) {
  QVector<QPointF> out;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
    out.append(QPointF(it->key, it->value));
  }
  return out;
}

}  // namespace

FublTrainingPlot::FublTrainingPlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)) {
  setObjectName(QStringLiteral("fublTrainingPlot"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setBackground(palette().color(QPalette::Base));
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setLabel(tr("pass"));
  plot_->yAxis->setLabel(tr("training accuracy (%)"));
  plot_->yAxis2->setVisible(true);
  plot_->yAxis2->setLabel(tr("lexemes"));
  const QColor blue(31, 119, 180);
  const QColor orange(255, 127, 14);
  accuracy_ = plot_->addGraph(plot_->xAxis, plot_->yAxis);
  accuracy_->setPen(QPen(blue, 2));
  accuracy_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, blue, blue, 6));
  accuracy_->setName(tr("training accuracy"));
  lexemes_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  lexemes_->setPen(QPen(orange, 2, Qt::DashLine));
  lexemes_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, orange, orange, 6));
  lexemes_->setName(tr("lexicon size (lexemes)"));
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 220));
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  setMinimumSize(320, 200);
  rescale();
}

FublTrainingPlot::~FublTrainingPlot() = default;

void FublTrainingPlot::clear() {
  accuracy_->data()->clear();
  lexemes_->data()->clear();
  passes_ = 0;
  rescale();
}

void FublTrainingPlot::appendPass(const gwb::ccg::PassSummary& summary) {
  const double accuracy =
      summary.examples > 0 ? 100.0 * summary.correctBeforeUpdate / summary.examples : 0.0;
  accuracy_->addData(summary.pass, accuracy);
  lexemes_->addData(summary.pass, static_cast<double>(summary.lexemes));
  passes_ = std::max(passes_, summary.pass);
  rescale();
}

QVector<QPointF> FublTrainingPlot::accuracyPoints() const { return points(accuracy_); }
QVector<QPointF> FublTrainingPlot::lexemePoints() const { return points(lexemes_); }

void FublTrainingPlot::rescale() {
  plot_->xAxis->setRange(0.5, std::max(passes_, 2) + 0.5);
  plot_->yAxis->setRange(0, 105);
  bool found = false;
  const QCPRange range = lexemes_->getValueRange(found);
  if (found) {
    const double margin = std::max(1.0, 0.1 * (range.upper - range.lower));
    plot_->yAxis2->setRange(std::max(0.0, range.lower - margin), range.upper + margin);
  } else {
    plot_->yAxis2->setRange(0, 10);
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace gwb::ui
