// InductionRun and InductionRunModel: the induction panel's run list.
//
// A run keeps the settings it was started with, its iteration records as the core reported them
// (in order, 1-based iterations, the increased iteration too), how it ended, and the learned
// grammar (the result's; after a cancel, the grammar of the last completed iteration). Runs
// are identified by an id that never changes (rows move when runs are removed). The model shows
// one row per run: a check box (shown in the plot or hidden), the name in the run's colour,
// its method, status, iterations and the last free energy and −log likelihood. The run list
// only grows by append() and shrinks by remove(); updates to a run go through update(). Names
// are never cut at the end: the run list elides them in the middle, and the tooltip of every
// column starts with the full name.
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QColor>

#include "gwb/earley/grammar.h"
#include "gwb/earley/induction.h"
#include "ui/earley/induction_job.h"

namespace gwb::ui {

struct InductionRun {
  enum class Status { Queued, Loading, Running, Finished, Cancelled, Failed };

  int id = 0;
  InductionSettings settings;
  QColor color;
  bool visible = true;
  Status status = Status::Queued;
  std::vector<gwb::IterationRecord> records;
  QString message;  // why it stopped, or what went wrong (with file and line)
  std::shared_ptr<const gwb::Grammar> grammar;  // the learned grammar, once finished
  qint64 sentences = 0;
  qint64 rules = 0;
  QString grammarFile;  // where the learned grammar was last saved (workspaces reload it)

  QString name() const { return settings.displayName(); }
  static QString statusName(Status status);
};

class InductionRunModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Name, Method, Status, Iterations, FreeEnergy, NegLogLikelihood, ColumnCount };
  static constexpr int RunIdRole = Qt::UserRole;

  explicit InductionRunModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

  // Adds a run (its id and colour set by the model) and returns its id.
  int append(InductionRun run);
  void remove(int id);
  // Runs `change` on the run and refreshes its row; no-op for an unknown id.
  template <typename Change>
  void update(int id, Change change) {
    const int row = rowOf(id);
    if (row < 0) return;
    change(runs_[static_cast<std::size_t>(row)]);
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
  }

  int rowOf(int id) const;
  const InductionRun* run(int id) const;
  const InductionRun& runAt(int row) const { return runs_[static_cast<std::size_t>(row)]; }
  const std::vector<InductionRun>& runs() const { return runs_; }

 signals:
  void visibilityChanged(int id, bool visible);

 private:
  std::vector<InductionRun> runs_;
  int nextId_ = 1;
};

}  // namespace gwb::ui
