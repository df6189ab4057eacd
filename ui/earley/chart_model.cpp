#include "ui/earley/chart_model.h"

#include <algorithm>
#include <cmath>

#include "ui/common/qt_conversions.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {

namespace {
// Significant digits in the chart's cells (the explanation panel shows more).
constexpr int kCellDigits = 3;
}  // namespace

ChartModel::ChartModel(QObject* parent) : QAbstractTableModel(parent) {}

ChartModel::~ChartModel() = default;

void ChartModel::setSession(std::shared_ptr<const ParseSession> session, std::size_t applied) {
  beginResetModel();
  session_ = std::move(session);
  if (session_ && !session_->hasChart()) session_.reset();
  applied_ = session_ ? std::min(applied, session_->stepCount()) : 0;
  highlightFrom_ = applied_;
  selected_ = {};
  antecedents_.clear();
  rows_.assign(session_ ? session_->setCount() : 0, {});
  resolveFilterSymbol();
  rebuildSets(0, rows_.size());
  rowCount_ = 0;
  for (const auto& rows : rows_) rowCount_ = std::max(rowCount_, static_cast<int>(rows.size()));
  endResetModel();
}

void ChartModel::setApplied(std::size_t applied, std::size_t highlightFrom) {
  if (!session_) return;
  applied = std::min(applied, session_->stepCount());
  const std::size_t old = applied_;
  applied_ = applied;
  highlightFrom_ = std::min(highlightFrom, applied);
  if (old != applied) {
    // Only the sets worked on between the two steps change (sets are worked on in order).
    const std::size_t low = std::min(old, applied);
    const std::size_t high = std::max(old, applied);
    const std::size_t first = session_->trace().setOfStep(low);
    const std::size_t last = session_->trace().setOfStep(high - 1);
    rebuildSets(first, last + 1);
    if (selected_.valid()) {
      const gwb::ItemRef selected = selected_;
      setSelectedItem(session_->stateAfter(selected, applied_) ? selected : gwb::ItemRef{});
    }
  }
  updateRowCount();
  notifyAll();
}

void ChartModel::resolveFilterSymbol() {
  filterSymbol_ = -1;
  if (!session_ || filter_.symbol.isEmpty()) return;
  if (filter_.symbol == QLatin1String("GOAL")) {
    filterSymbol_ = session_->compiled().goal();
  } else {
    const auto id = session_->compiled().symbols().findNonterminal(filter_.symbol.toStdString());
    filterSymbol_ = id ? *id : -2;
  }
}

void ChartModel::setFilter(const Filter& filter) {
  filter_ = filter;
  resolveFilterSymbol();
  if (!session_) return;
  rebuildSets(0, rows_.size());
  updateRowCount();
  notifyAll();
}

void ChartModel::setNumberFormat(NumberFormat format) {
  if (format == format_) return;
  format_ = format;
  notifyAll();
}

void ChartModel::setSelectedItem(gwb::ItemRef item) {
  selected_ = item;
  antecedents_.clear();
  for (const gwb::ItemRef& a : antecedents(item)) antecedents_.insert(key(a));
  notifyAll();
}

std::vector<gwb::ItemRef> ChartModel::antecedents(gwb::ItemRef item) const {
  if (!session_) return {};
  return session_->antecedents(item, applied_);
}

gwb::ItemRef ChartModel::itemAt(const QModelIndex& index) const {
  if (!index.isValid() || !session_) return {};
  const auto set = static_cast<std::size_t>(index.column());
  if (set >= rows_.size()) return {};
  const auto row = static_cast<std::size_t>(index.row());
  if (row >= rows_[set].size()) return {};
  return {static_cast<std::int32_t>(set), rows_[set][row]};
}

QModelIndex ChartModel::indexOfItem(gwb::ItemRef item) const {
  if (!item.valid() || static_cast<std::size_t>(item.set) >= rows_.size()) return {};
  const auto& rows = rows_[static_cast<std::size_t>(item.set)];
  const auto it = std::lower_bound(rows.begin(), rows.end(), item.index);
  if (it == rows.end() || *it != item.index) return {};
  return index(static_cast<int>(it - rows.begin()), item.set);
}

int ChartModel::shownInSet(int set) const {
  if (set < 0 || static_cast<std::size_t>(set) >= rows_.size()) return 0;
  return static_cast<int>(rows_[static_cast<std::size_t>(set)].size());
}

bool ChartModel::passes(gwb::ItemRef item, const gwb::ParseTrace::ItemState& state) const {
  if (filter_.hidePredicted && session_->chart().item(item).predicted) return false;
  if (filter_.hideZero && std::isinf(session_->logForward(item, state.forward))) return false;
  if (filterSymbol_ != -1 && session_->lhs(item) != filterSymbol_) return false;
  return true;
}

void ChartModel::rebuildSets(std::size_t first, std::size_t last) {
  if (!session_) return;
  last = std::min(last, rows_.size());
  const bool filtering = filter_.hidePredicted || filter_.hideZero || filterSymbol_ != -1;
  for (std::size_t set = first; set < last; ++set) {
    auto& rows = rows_[set];
    rows.clear();
    if (applied_ == 0) continue;
    const std::size_t count = session_->trace().visibleItems(set, applied_ - 1);
    rows.reserve(count);
    for (std::size_t k = 0; k < count; ++k) {
      const gwb::ItemRef ref{static_cast<std::int32_t>(set), static_cast<std::int32_t>(k)};
      if (filtering) {
        const auto state = session_->stateAfter(ref, applied_);
        if (!state || !passes(ref, *state)) continue;
      }
      rows.push_back(static_cast<std::int32_t>(k));
    }
  }
}

void ChartModel::updateRowCount() {
  int rows = 0;
  for (const auto& set : rows_) rows = std::max(rows, static_cast<int>(set.size()));
  if (rows > rowCount_) {
    beginInsertRows({}, rowCount_, rows - 1);
    rowCount_ = rows;
    endInsertRows();
  } else if (rows < rowCount_) {
    beginRemoveRows({}, rows, rowCount_ - 1);
    rowCount_ = rows;
    endRemoveRows();
  }
}

void ChartModel::notifyAll() {
  if (rowCount_ > 0 && columnCount() > 0)
    emit dataChanged(index(0, 0), index(rowCount_ - 1, columnCount() - 1));
}

QString ChartModel::valuesText(gwb::ItemRef item) const {
  if (!session_) return {};
  const auto state = session_->stateAfter(item, applied_);
  if (!state) return {};
  const double logViterbi = state->viterbi;
  switch (format_) {
    case NumberFormat::Probability:
      return QStringLiteral("\u03b1 %1   \u03b3 %2   v %3")
          .arg(formatProbabilityFromLog(session_->logForward(item, state->forward), kCellDigits),
               formatProbabilityFromLog(session_->logInner(item, state->inner), kCellDigits),
               formatProbabilityFromLog(logViterbi, kCellDigits));
    case NumberFormat::LogProbability:
      return QStringLiteral("ln \u03b1 %1   ln \u03b3 %2   ln v %3")
          .arg(formatLog(session_->logForward(item, state->forward)),
               formatLog(session_->logInner(item, state->inner)), formatLog(logViterbi));
    case NumberFormat::Scaled:
      if (session_->mode() == gwb::NumericMode::Log) {
        return QStringLiteral("ln \u03b1 %1   ln \u03b3 %2   ln v %3")
            .arg(formatLog(state->forward), formatLog(state->inner), formatLog(logViterbi));
      }
      return QStringLiteral("\u03b1\u0302 %1   \u03b3\u0302 %2   v %3")
          .arg(formatPlain(state->forward, kCellDigits), formatPlain(state->inner, kCellDigits),
               formatProbabilityFromLog(logViterbi, kCellDigits));
  }
  return {};
}

int ChartModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : rowCount_;
}

int ChartModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

Qt::ItemFlags ChartModel::flags(const QModelIndex& index) const {
  if (!itemAt(index).valid()) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

QVariant ChartModel::data(const QModelIndex& index, int role) const {
  const gwb::ItemRef ref = itemAt(index);
  if (!ref.valid()) return {};
  const auto state = session_->stateAfter(ref, applied_);
  if (!state) return {};
  const gwb::ParseTrace& trace = session_->trace();
  switch (role) {
    case Qt::DisplayRole: return session_->itemText(ref);
    case Qt::ToolTipRole:
      return QString(session_->itemText(ref) % QLatin1Char('\n') % valuesText(ref) %
                     QLatin1Char('\n') %
                     tr("last changed by %1 (step %2)")
                         .arg(toQString(gwb::operationKindName(trace.kindOfStep(state->lastStep))))
                         .arg(state->lastStep + 1));
    case SetRole: return ref.set;
    case IndexRole: return ref.index;
    case ForwardRole: return state->forward;
    case InnerRole: return state->inner;
    case ViterbiRole: return state->viterbi;
    case LogForwardRole: return session_->logForward(ref, state->forward);
    case LogInnerRole: return session_->logInner(ref, state->inner);
    case ValuesTextRole: return valuesText(ref);
    case OperationRole: return static_cast<int>(trace.kindOfStep(state->lastStep));
    case CreatedByRole: return static_cast<int>(trace.kindOfStep(trace.creationStep(ref)));
    case IsNewRole: return state->lastStep >= highlightFrom_;
    case IsCurrentRole: return applied_ > 0 && state->lastStep == applied_ - 1;
    case RelationRole:
      if (ref == selected_) return static_cast<int>(Relation::Selected);
      return static_cast<int>(antecedents_.count(key(ref)) > 0 ? Relation::Antecedent
                                                               : Relation::None);
    case PredictedRole: return session_->chart().item(ref).predicted;
    default: return {};
  }
}

QVariant ChartModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || !session_ || section < 0 ||
      static_cast<std::size_t>(section) >= rows_.size())
    return QAbstractTableModel::headerData(section, orientation, role);
  const auto& words = session_->words();
  if (role == Qt::DisplayRole) {
    if (section == 0) return tr("0 \u00b7 start");
    return QStringLiteral("%1 \u00b7 %2")
        .arg(QString::number(section), toQString(words[static_cast<std::size_t>(section) - 1]));
  }
  if (role == Qt::ToolTipRole) {
    return section == 0 ? tr("State set 0: the items before any word is read")
                        : tr("State set %1: the items that end after word %1, \u201c%2\u201d")
                              .arg(QString::number(section),
                                   toQString(words[static_cast<std::size_t>(section) - 1]));
  }
  return QAbstractTableModel::headerData(section, orientation, role);
}

}  // namespace gwb::ui
