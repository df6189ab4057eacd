#include "ui/earley/induction_runs.h"

#include <array>
#include <cmath>

namespace gwb::ui {

namespace {

// Distinct on white and for the common colour-vision deficiencies (Tableau 10).
const std::array<QColor, 8> kRunColors = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                          QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                                          QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                          QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};

QString energyText(double value) {
  return std::isfinite(value) ? QString::number(value, 'f', 1) : QStringLiteral("\u2014");
}

}  // namespace

QString InductionRun::statusName(Status status) {
  switch (status) {
    case Status::Queued: return QObject::tr("queued");
    case Status::Loading: return QObject::tr("loading");
    case Status::Running: return QObject::tr("running");
    case Status::Finished: return QObject::tr("finished");
    case Status::Cancelled: return QObject::tr("cancelled");
    case Status::Failed: return QObject::tr("failed");
  }
  return {};
}

InductionRunModel::InductionRunModel(QObject* parent) : QAbstractTableModel(parent) {}

int InductionRunModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int InductionRunModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant InductionRunModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const InductionRun& run = runAt(index.row());
  if (role == RunIdRole) return run.id;
  const gwb::IterationRecord* last = run.records.empty() ? nullptr : &run.records.back();
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Name: return run.name();
      case Method:
        return QString::fromLatin1(gwb::inductionMethodName(run.settings.method)).toUpper();
      case Status: return InductionRun::statusName(run.status);
      case Iterations: return static_cast<int>(run.records.size());
      case FreeEnergy: return last ? energyText(last->freeEnergy) : QString();
      case NegLogLikelihood: return last ? energyText(last->negLogLikelihood) : QString();
      default: return {};
    }
  }
  if (role == Qt::CheckStateRole && index.column() == Name)
    return run.visible ? Qt::Checked : Qt::Unchecked;
  if (role == Qt::DecorationRole && index.column() == Name) return run.color;
  if (role == Qt::ToolTipRole) {
    QString tip = run.name() + QStringLiteral("\n\n") + run.settings.describe();
    if (!run.message.isEmpty()) tip += QStringLiteral("\n\n") + run.message;
    return tip;
  }
  if (role == Qt::TextAlignmentRole && index.column() >= Iterations)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant InductionRunModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Run");
    case Method: return tr("Method");
    case Status: return tr("Status");
    case Iterations: return tr("Iter.");
    case FreeEnergy: return tr("Free energy");
    case NegLogLikelihood: return tr("\u2212log p");
    default: return {};
  }
}

Qt::ItemFlags InductionRunModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags flags = QAbstractTableModel::flags(index);
  if (index.isValid() && index.column() == Name) flags |= Qt::ItemIsUserCheckable;
  return flags;
}

bool InductionRunModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || index.column() != Name || role != Qt::CheckStateRole) return false;
  InductionRun& run = runs_[static_cast<std::size_t>(index.row())];
  const bool visible = value.toInt() == Qt::Checked;
  if (visible == run.visible) return true;
  run.visible = visible;
  emit dataChanged(index, index, {Qt::CheckStateRole});
  emit visibilityChanged(run.id, visible);
  return true;
}

int InductionRunModel::append(InductionRun run) {
  run.id = nextId_++;
  run.color = kRunColors[static_cast<std::size_t>(run.id - 1) % kRunColors.size()];
  const int row = rowCount();
  beginInsertRows({}, row, row);
  runs_.push_back(std::move(run));
  endInsertRows();
  return runs_.back().id;
}

void InductionRunModel::remove(int id) {
  const int row = rowOf(id);
  if (row < 0) return;
  beginRemoveRows({}, row, row);
  runs_.erase(runs_.begin() + row);
  endRemoveRows();
}

int InductionRunModel::rowOf(int id) const {
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].id == id) return static_cast<int>(i);
  return -1;
}

const InductionRun* InductionRunModel::run(int id) const {
  const int row = rowOf(id);
  return row < 0 ? nullptr : &runs_[static_cast<std::size_t>(row)];
}

}  // namespace gwb::ui
