#include "ui/earley/nonterminal_table_model.h"

#include <cmath>

#include <QBrush>
#include <QColor>

#include "gwb/earley/grammar_check.h"
#include "gwb/earley/grammar_io.h"
#include "ui/common/qt_conversions.h"
#include "ui/common/text_format.h"

namespace gwb::ui {

namespace {
const double kSumTolerance = gwb::GrammarCheckOptions{}.sumTolerance;
}  // namespace

NonterminalTableModel::NonterminalTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void NonterminalTableModel::setGrammar(std::shared_ptr<const gwb::Grammar> grammar) {
  beginResetModel();
  grammar_ = std::move(grammar);
  rows_.clear();
  if (grammar_) {
    const gwb::SymbolTable& symbols = grammar_->symbols();
    rows_.reserve(symbols.nonterminalCount());
    for (std::size_t s = 0; s < symbols.size(); ++s) {
      const auto id = static_cast<gwb::SymbolId>(s);
      if (!symbols.isNonterminal(id)) continue;
      rows_.push_back(Row{id, toQString(symbols.name(id)),
                          static_cast<int>(grammar_->rulesWithLhs(id).size()),
                          grammar_->lhsProbabilitySum(id)});
    }
  }
  endResetModel();
}

int NonterminalTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int NonterminalTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

bool NonterminalTableModel::sumIsOff(const Row& row) {
  return row.ruleCount == 0 || std::abs(row.probabilitySum - 1.0) > kSumTolerance;
}

QVariant NonterminalTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Symbol: return row.name;
        case Rules: return row.ruleCount;
        case ProbabilitySum:
          return row.ruleCount > 0 ? QString::number(row.probabilitySum, 'g', 6) : QString();
        default: return {};
      }
    case SortRole:
      switch (index.column()) {
        case Symbol: return row.name;
        case Rules: return row.ruleCount;
        case ProbabilitySum: return row.probabilitySum;
        default: return {};
      }
    case SymbolIdRole: return QVariant::fromValue(static_cast<int>(row.symbol));
    case Qt::TextAlignmentRole:
      return index.column() == Symbol ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (index.column() != Symbol && sumIsOff(row)) return QBrush(QColor(0xb3, 0x41, 0x00));
      return {};
    case Qt::ToolTipRole:
      if (row.ruleCount == 0) return tr("%1 is used but has no rules").arg(row.name);
      return tr("%1: %2, probabilities sum to %3")
          .arg(row.name, countText(row.ruleCount, tr("rule"), tr("rules")),
               toQString(gwb::formatProbability(row.probabilitySum)));
    default: return {};
  }
}

QVariant NonterminalTableModel::headerData(int section, Qt::Orientation orientation,
                                           int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case Symbol: return tr("Nonterminal");
      case Rules: return tr("Rules");
      case ProbabilitySum: return tr("Sum");
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole) {
    return section == Symbol ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                             : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  return {};
}

}  // namespace gwb::ui
