#include "ui/grounded/experiment_table.h"

#include <cmath>

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

namespace gwb::ui {

namespace {

// Percentages with two decimals as the paper; energies whole.
int decimalsOf(int metric) {
  return metric == static_cast<int>(ExperimentMetric::FreeEnergy) ? 0 : 2;
}

QString csvNumber(double value) {
  return std::isfinite(value) ? QString::number(value, 'g', 17) : QString();
}

QString iterationsText(int iterations) {
  return iterations == 0 ? QObject::tr("converged") : QObject::tr("\u2264%1 it.").arg(iterations);
}

}  // namespace

ExperimentTableModel::ExperimentTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int ExperimentTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ExperimentTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

double ExperimentTableModel::mean(const Group& group, int metric) const {
  double sum = 0.0;
  int n = 0;
  for (const ExperimentOutcome& o : group.outcomes) {
    const double v = o.values[static_cast<std::size_t>(metric)];
    if (!std::isfinite(v)) continue;
    sum += v;
    ++n;
  }
  return n == 0 ? std::numeric_limits<double>::quiet_NaN() : sum / n;
}

double ExperimentTableModel::sd(const Group& group, int metric) const {
  const double m = mean(group, metric);
  double squares = 0.0;
  int n = 0;
  for (const ExperimentOutcome& o : group.outcomes) {
    const double v = o.values[static_cast<std::size_t>(metric)];
    if (!std::isfinite(v)) continue;
    squares += (v - m) * (v - m);
    ++n;
  }
  return n < 2 ? std::numeric_limits<double>::quiet_NaN() : std::sqrt(squares / (n - 1));
}

QVariant ExperimentTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const RowRef& ref = rows_[static_cast<std::size_t>(index.row())];
  const Group& group = groups_[ref.group];
  const int column = index.column();
  const bool metricColumn = column >= FirstMetric;
  const int metric = column - FirstMetric;

  if (role == PaperRole) return ref.paper;
  if (role == CountRole) return ref.paper ? 0 : static_cast<int>(group.outcomes.size());
  if (role == MeanRole && metricColumn) {
    return ref.paper ? group.paper->values[static_cast<std::size_t>(metric)] : mean(group, metric);
  }
  if (role == SdRole && metricColumn) {
    return ref.paper ? std::numeric_limits<double>::quiet_NaN() : sd(group, metric);
  }
  if (role == Qt::DisplayRole) {
    switch (column) {
      case Model:
        return ref.paper ? QString() : QString::fromLatin1(gwb::socialModelName(group.spec.model));
      case Cues: return ref.paper ? QString() : group.spec.cues;
      case Source:
        if (ref.paper) return tr("paper, %1").arg(group.paper->table);
        return tr("\u03b1 %1 \u00b7 %2 \u00b7 %3")
            .arg(QString::number(group.spec.alpha, 'g', 4), iterationsText(group.spec.iterations),
                 group.outcomes.size() == 1 ? tr("seed %1").arg(group.outcomes.front().seed)
                                            : tr("%1 seeds").arg(group.outcomes.size()));
      default: break;
    }
    const double m = data(index, MeanRole).toDouble();
    if (!std::isfinite(m)) return QStringLiteral("\u2014");
    QString text = QString::number(m, 'f', decimalsOf(metric));
    const double s = data(index, SdRole).toDouble();
    if (std::isfinite(s)) {
      text += QStringLiteral(" \u00b1") + QString::number(s, 'f', decimalsOf(metric) == 0 ? 0 : 2);
    }
    return text;
  }
  if (role == Qt::ToolTipRole) {
    if (ref.paper) {
      QString tip = tr("Luong, Frank & Johnson (2013), %1").arg(group.paper->table);
      if (!group.paper->note.isEmpty()) tip += QLatin1Char('\n') + group.paper->note;
      return tip;
    }
    QStringList lines{group.spec.describe()};
    for (const ExperimentOutcome& o : group.outcomes) {
      QString line = tr("seed %1: ").arg(o.seed);
      if (metricColumn) {
        line +=
            QString::number(o.values[static_cast<std::size_t>(metric)], 'f', decimalsOf(metric));
      } else {
        line += tr("%1 iterations, %2 s (%3)")
                    .arg(QString::number(o.iterations), QString::number(o.seconds, 'f', 1),
                         o.stopMessage);
      }
      lines << line;
    }
    return lines.join(QLatin1Char('\n'));
  }
  if (role == Qt::ForegroundRole && ref.paper) return QBrush(QColor(0x70, 0x70, 0x70));
  if (role == Qt::FontRole && ref.paper) {
    QFont font;
    font.setItalic(true);
    return font;
  }
  if (role == Qt::TextAlignmentRole && metricColumn)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant ExperimentTableModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case Model: return tr("Model");
      case Cues: return tr("Cues");
      case Source: return tr("Source");
      default: return experimentMetricTitle(metricOfColumn(section));
    }
  }
  if (role == Qt::ToolTipRole && section >= FirstMetric) {
    return metricOfColumn(section) == ExperimentMetric::FreeEnergy
               ? tr("Free energy of the last iteration (VB models; as Earleyx computes it)")
               : tr("Percent; mean \u00b1 sample sd over seeds");
  }
  return {};
}

void ExperimentTableModel::addOutcome(const ExperimentSpec& spec,
                                      const ExperimentOutcome& outcome) {
  const int existing = rowOf(spec);
  if (existing >= 0) {
    Group& group = groups_[rows_[static_cast<std::size_t>(existing)].group];
    group.outcomes.push_back(outcome);
    emit dataChanged(index(existing, 0), index(existing, ColumnCount - 1));
    return;
  }
  Group group;
  group.spec = spec;
  group.outcomes.push_back(outcome);
  group.paper = paperResult(spec.model, spec.cues);
  const int first = rowCount();
  const int count = group.paper ? 2 : 1;
  beginInsertRows({}, first, first + count - 1);
  groups_.push_back(std::move(group));
  rows_.push_back({groups_.size() - 1, false});
  if (count == 2) rows_.push_back({groups_.size() - 1, true});
  endInsertRows();
}

void ExperimentTableModel::clear() {
  beginResetModel();
  groups_.clear();
  rows_.clear();
  endResetModel();
}

std::vector<std::pair<ExperimentSpec, std::vector<ExperimentOutcome>>>
ExperimentTableModel::results() const {
  std::vector<std::pair<ExperimentSpec, std::vector<ExperimentOutcome>>> out;
  out.reserve(groups_.size());
  for (const Group& group : groups_) out.emplace_back(group.spec, group.outcomes);
  return out;
}

int ExperimentTableModel::rowOf(const ExperimentSpec& spec) const {
  const QString key = spec.groupKey();
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    if (!rows_[r].paper && groups_[rows_[r].group].spec.groupKey() == key)
      return static_cast<int>(r);
  }
  return -1;
}

QString ExperimentTableModel::csv() const {
  QStringList header{QStringLiteral("model"), QStringLiteral("cues"), QStringLiteral("alpha"),
                     QStringLiteral("iterations"), QStringLiteral("source")};
  for (int m = 0; m < kExperimentMetricCount; ++m)
    header << QString::fromLatin1(experimentMetricKey(static_cast<ExperimentMetric>(m)));
  QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (const Group& group : groups_) {
    const QString prefix = QStringList{QString::fromLatin1(gwb::socialModelName(group.spec.model)),
                                       group.spec.cues, QString::number(group.spec.alpha, 'g', 17),
                                       QString::number(group.spec.iterations)}
                               .join(QLatin1Char(','));
    const auto line = [&](const QString& source, const auto& valueOf) {
      QStringList fields{prefix, source};
      for (int m = 0; m < kExperimentMetricCount; ++m) fields << csvNumber(valueOf(m));
      text += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    };
    for (const ExperimentOutcome& o : group.outcomes) {
      line(QStringLiteral("seed %1").arg(o.seed),
           [&](int m) { return o.values[static_cast<std::size_t>(m)]; });
    }
    if (group.outcomes.size() > 1) {
      line(QStringLiteral("mean"), [&](int m) { return mean(group, m); });
      line(QStringLiteral("sd"), [&](int m) { return sd(group, m); });
    }
    if (group.paper) {
      line(QStringLiteral("paper %1").arg(group.paper->table),
           [&](int m) { return group.paper->values[static_cast<std::size_t>(m)]; });
    }
  }
  return text;
}

}  // namespace gwb::ui
