// FreeEnergyPlot: the training curves of induction runs, one colour per run, overlaid.
//
// Two stacked panels share the iteration axis: on top the free energy (VB's objective; the
// Earleyx form the paper reports, or the exact variational one), below −log p(x) of each
// E-step. A point is exactly a core IterationRecord's value at x = its 1-based iteration; EM
// runs, which have no free energy (NaN), draw only in the lower panel. The legend names each run
// once, in its colour. Runs are added and fed by id as their iterations arrive; hidden runs
// keep their data and drop out of the axes' ranges. Hovering a point shows its run, iteration
// and value. Exports are atomic (a temporary file beside the target, then a rename).
#pragma once

#include <map>
#include <vector>

#include <QColor>
#include <QPointF>
#include <QVector>
#include <QWidget>

#include "gwb/earley/induction.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;

namespace gwb::ui {

class FreeEnergyPlot : public QWidget {
  Q_OBJECT

 public:
  enum class EnergyKind { Earleyx, Variational };

  explicit FreeEnergyPlot(QWidget* parent = nullptr);
  ~FreeEnergyPlot() override;

  void addRun(int id, const QString& name, const QColor& color);
  void removeRun(int id);
  void clear();
  void setRunVisible(int id, bool visible);
  void setRecords(int id, const std::vector<gwb::IterationRecord>& records);
  void appendRecord(int id, const gwb::IterationRecord& record);
  bool hasRun(int id) const { return runs_.count(id) > 0; }

  void setEnergyKind(EnergyKind kind);
  EnergyKind energyKind() const { return kind_; }

  // What is plotted for a run, as (iteration, value) pairs in order.
  QVector<QPointF> freeEnergyPoints(int id) const;
  QVector<QPointF> negLogLikelihoodPoints(int id) const;
  // The legend's entries, top to bottom (visible runs only).
  QStringList legendNames() const;

  // Renders at width × height pixels (0: the widget's size). False and *error on failure.
  bool savePng(const QString& path, QString* error = nullptr, int width = 0, int height = 0);
  bool savePdf(const QString& path, QString* error = nullptr, int width = 0, int height = 0);

  QCustomPlot* plot() const { return plot_; }
  QCPAxisRect* energyRect() const { return energyRect_; }
  QCPAxisRect* likelihoodRect() const { return likelihoodRect_; }

 private:
  struct Curves {
    QCPGraph* energy = nullptr;
    QCPGraph* likelihood = nullptr;
    std::vector<gwb::IterationRecord> records;
    bool visible = true;
  };

  void fillGraphs(Curves& curves) const;
  void rescale();
  void updateLabels();
  void showToolTip(const QPoint& at);

  QCustomPlot* plot_ = nullptr;
  QCPAxisRect* energyRect_ = nullptr;
  QCPAxisRect* likelihoodRect_ = nullptr;
  std::map<int, Curves> runs_;
  EnergyKind kind_ = EnergyKind::Earleyx;
};

}  // namespace gwb::ui
