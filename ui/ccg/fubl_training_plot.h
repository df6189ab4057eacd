// FublTrainingPlot: the live curve of a FUBL training run (fubl_training_job.h) — per finished
// pass, the training accuracy (examples whose best parse was their logical form when met, in %,
// on the left axis) and the lexicon's size (lexemes, on the right axis), as core's PassSummary
// reports them. A point is exactly a summary's value at x = its 1-based pass; appendPass adds one
// and rescales the axes (the accuracy axis always spans 0–100).
#pragma once

#include <QPointF>
#include <QVector>
#include <QWidget>

#include "gwb/ccg/fubl_learner.h"

class QCustomPlot;
class QCPGraph;

namespace gwb::ui {

class FublTrainingPlot : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(FublTrainingPlot)

 public:
  explicit FublTrainingPlot(QWidget* parent = nullptr);
  ~FublTrainingPlot() override;

  void clear();
  void appendPass(const gwb::ccg::PassSummary& summary);

  // What is drawn, as (pass, value) pairs in order.
  QVector<QPointF> accuracyPoints() const;
  QVector<QPointF> lexemePoints() const;

  QCustomPlot* plot() const { return plot_; }

 private:
  void rescale();

  QCustomPlot* plot_;
  QCPGraph* accuracy_ = nullptr;
  QCPGraph* lexemes_ = nullptr;
  int passes_ = 0;
};

}  // namespace gwb::ui
