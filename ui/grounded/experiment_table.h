// ExperimentTableModel: experiment results shaped like the paper's Tables 2–5.
//
// A group is one setting (ExperimentSpec::groupKey: model, cues, α, iterations, tolerance,
// files); its seeds' outcomes accumulate in it, whichever run produced them. Each group is one
// row, "ours", with the mean over its seeds and, with two or more, "± sd" (the sample standard
// deviation, as `gwb experiment social --seeds`); when the paper reports that model and cue set
// (experiment_paper.h), a grey "paper" row follows it with the published numbers. Columns:
// model, cues, source, then the paper's metrics (accuracy; topic, word and lexicon F₁/P/R; free
// energy). Groups are only ever appended, so rows never move.
//
// Roles: DisplayRole is the formatted cell; MeanRole the mean (or the paper's value), NaN when
// missing; SdRole the standard deviation (NaN below two seeds); CountRole the number of seeds;
// PaperRole whether the row is the paper's.
#pragma once

#include <utility>
#include <vector>

#include <QAbstractTableModel>

#include "ui/grounded/experiment_job.h"
#include "ui/grounded/experiment_paper.h"

namespace gwb::ui {

class ExperimentTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Model,
    Cues,
    Source,
    FirstMetric,
    ColumnCount = FirstMetric + kExperimentMetricCount
  };
  enum Role { MeanRole = Qt::UserRole, SdRole, CountRole, PaperRole };

  explicit ExperimentTableModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // Adds one seed's outcome to the group of `spec` (creating the group and its rows).
  void addOutcome(const ExperimentSpec& spec, const ExperimentOutcome& outcome);
  void clear();
  // Every group's spec and its seeds' outcomes, in row order (workspaces keep them).
  std::vector<std::pair<ExperimentSpec, std::vector<ExperimentOutcome>>> results() const;

  // The row of `spec`'s group ("ours"), -1 if none.
  int rowOf(const ExperimentSpec& spec) const;
  static ExperimentMetric metricOfColumn(int column) {
    return static_cast<ExperimentMetric>(column - FirstMetric);
  }
  static int columnOf(ExperimentMetric metric) { return FirstMetric + static_cast<int>(metric); }

  // Every group: a row per seed ("seed N"), then "mean" and "sd" rows (two seeds or more), then
  // the paper's row, each as model,cues,alpha,iterations,source,<metric keys>.
  QString csv() const;

 private:
  struct Group {
    ExperimentSpec spec;
    std::vector<ExperimentOutcome> outcomes;
    std::optional<PaperResult> paper;
  };
  struct RowRef {
    std::size_t group;
    bool paper;
  };

  double mean(const Group& group, int metric) const;
  double sd(const Group& group, int metric) const;

  std::vector<Group> groups_;
  std::vector<RowRef> rows_;
};

}  // namespace gwb::ui
