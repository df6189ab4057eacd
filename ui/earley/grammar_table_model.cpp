#include "ui/earley/grammar_table_model.h"

#include <algorithm>
#include <cmath>

#include <QBrush>
#include <QColor>
#include <QCoreApplication>

#include "gwb/earley/grammar_check.h"
#include "gwb/earley/grammar_io.h"
#include "ui/common/qt_conversions.h"
#include "ui/common/text_format.h"

namespace gwb::ui {

namespace {
// The same tolerance checkGrammar warns at, so the table and the diagnostics agree.
const double kSumTolerance = gwb::GrammarCheckOptions{}.sumTolerance;

// Cells show at most this many significant digits (the column stays narrow); tooltips give
// the exact value in shortest round-trip form, as the grammar writers print it.
constexpr int kCellDigits = 8;

QString cellNumber(double value) { return QString::number(value, 'g', kCellDigits); }
QString exactNumber(double value) { return toQString(gwb::formatProbability(value)); }

bool isNumericColumn(int column) {
  return column == GrammarTableModel::Probability || column == GrammarTableModel::Prior ||
         column == GrammarTableModel::LhsSum || column == GrammarTableModel::Line;
}
}  // namespace

GrammarTableModel::GrammarTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void GrammarTableModel::setGrammar(std::shared_ptr<const gwb::Grammar> grammar) {
  beginResetModel();
  grammar_ = std::move(grammar);
  symbolNames_.clear();
  rhsTexts_.clear();
  lhsSums_.clear();
  rulesByLine_.clear();
  if (grammar_) {
    const gwb::SymbolTable& symbols = grammar_->symbols();
    symbolNames_.reserve(symbols.size());
    for (std::size_t s = 0; s < symbols.size(); ++s)
      symbolNames_.push_back(toQString(symbols.name(static_cast<gwb::SymbolId>(s))));

    lhsSums_.assign(symbols.size(), 0.0);
    rhsTexts_.reserve(grammar_->ruleCount());
    rulesByLine_.reserve(grammar_->ruleCount());
    for (std::size_t r = 0; r < grammar_->ruleCount(); ++r) {
      const auto id = static_cast<gwb::RuleId>(r);
      const gwb::Rule& rule = grammar_->rule(id);
      lhsSums_[static_cast<std::size_t>(rule.lhs)] += rule.probability;
      rhsTexts_.push_back(toQString(grammar_->rhsText(id)));
      if (rule.sourceLine > 0) rulesByLine_.emplace_back(rule.sourceLine, id);
    }
    std::sort(rulesByLine_.begin(), rulesByLine_.end());
  }
  endResetModel();
}

int GrammarTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !grammar_) return 0;
  return static_cast<int>(grammar_->ruleCount());
}

int GrammarTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant GrammarTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
      !grammar_)
    return {};
  const gwb::RuleId id = ruleAt(index.row());
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole: return displayData(id, column);
    case SortRole: return sortData(id, column);
    case RuleIdRole: return QVariant::fromValue(static_cast<int>(id));
    case Qt::ToolTipRole: return toolTip(id, column);
    case Qt::TextAlignmentRole:
      return isNumericColumn(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                     : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (column == LhsSum && lhsSumIsOff(grammar_->rule(id).lhs))
        return QBrush(QColor(0xb3, 0x41, 0x00));  // a dark orange that reads on light rows
      return {};
    default: return {};
  }
}

QVariant GrammarTableModel::displayData(gwb::RuleId id, int column) const {
  const gwb::Rule& rule = grammar_->rule(id);
  switch (column) {
    case Lhs: return symbolNames_[static_cast<std::size_t>(rule.lhs)];
    case Rhs: return rhsTexts_[static_cast<std::size_t>(id)];
    case Probability: return cellNumber(rule.probability);
    case Prior: return rule.prior ? cellNumber(*rule.prior) : QString();
    case LhsSum: return QString::number(lhsSums_[static_cast<std::size_t>(rule.lhs)], 'g', 6);
    case Kind: return toQString(gwb::ruleKindName(grammar_->kind(id)));
    case Line: return rule.sourceLine > 0 ? QString::number(rule.sourceLine) : QString();
    default: return {};
  }
}

QVariant GrammarTableModel::sortData(gwb::RuleId id, int column) const {
  const gwb::Rule& rule = grammar_->rule(id);
  switch (column) {
    case Probability: return rule.probability;
    case Prior: return rule.prior ? QVariant(*rule.prior) : QVariant();
    case LhsSum: return lhsSums_[static_cast<std::size_t>(rule.lhs)];
    case Line: return rule.sourceLine;
    default: return displayData(id, column);
  }
}

QString GrammarTableModel::ruleText(gwb::RuleId id) const {
  const gwb::Rule& rule = grammar_->rule(id);
  return symbolNames_[static_cast<std::size_t>(rule.lhs)] % QStringLiteral(" \u2192 ") %
         rhsTexts_[static_cast<std::size_t>(id)];
}

QString GrammarTableModel::toolTip(gwb::RuleId id, int column) const {
  const gwb::Rule& rule = grammar_->rule(id);
  switch (column) {
    case Probability: return tr("P(%1) = %2").arg(ruleText(id), exactNumber(rule.probability));
    case Prior:
      return rule.prior ? tr("Dirichlet prior (pseudo-count) of %1: %2")
                              .arg(ruleText(id), exactNumber(*rule.prior))
                        : tr("No prior given: the default pseudo-count applies");
    case LhsSum: {
      const QString& lhs = symbolNames_[static_cast<std::size_t>(rule.lhs)];
      const auto count = grammar_->rulesWithLhs(rule.lhs).size();
      QString text = tr("Sum of the probabilities of the %1 for %2: %3")
                         .arg(countText(static_cast<qint64>(count), tr("rule"), tr("rules")), lhs,
                              exactNumber(lhsSums_[static_cast<std::size_t>(rule.lhs)]));
      if (lhsSumIsOff(rule.lhs)) text += QLatin1Char('\n') % tr("This differs from 1.");
      return text;
    }
    case Kind: {
      switch (grammar_->kind(id)) {
        case gwb::RuleKind::Epsilon: return tr("An \u03b5-rule: the right-hand side is empty");
        case gwb::RuleKind::Lexical: return tr("One terminal: the LHS is a preterminal");
        case gwb::RuleKind::MultiTerminal: return tr("Two or more terminals");
        case gwb::RuleKind::Fragment: return tr("Terminals and nonterminals mixed");
        case gwb::RuleKind::Phrasal: return tr("Nonterminals only");
      }
      return {};
    }
    case Line:
      return rule.sourceLine > 0 ? tr("Defined on line %1").arg(rule.sourceLine)
                                 : tr("Not read from a file");
    default: return ruleText(id);
  }
}

QVariant GrammarTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case Lhs: return tr("LHS");
      case Rhs: return tr("RHS");
      case Probability: return tr("Probability");
      case Prior: return tr("Prior");
      case LhsSum: return tr("LHS Sum");
      case Kind: return tr("Kind");
      case Line: return tr("Line");
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Lhs: return tr("Left-hand side (a nonterminal)");
      case Rhs: return tr("Right-hand side; terminals are quoted, \u03b5 is the empty string");
      case Probability: return tr("The rule's probability as given in the file");
      case Prior: return tr("Dirichlet pseudo-count used by Variational Bayes (blank: default)");
      case LhsSum: return tr("Sum of the probabilities of all rules with this LHS");
      case Kind: return tr("How the right-hand side is made (lexical, phrasal, fragment, ...)");
      case Line: return tr("Line of the grammar file the rule was read from");
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole) {
    return isNumericColumn(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                    : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  }
  return {};
}

QModelIndex GrammarTableModel::indexForRule(gwb::RuleId rule, int column) const {
  if (rule < 0 || rule >= rowCount()) return {};
  return index(static_cast<int>(rule), column);
}

std::vector<gwb::RuleId> GrammarTableModel::rulesAtLine(int line) const {
  std::vector<gwb::RuleId> rules;
  auto it = std::lower_bound(rulesByLine_.begin(), rulesByLine_.end(),
                             std::pair<int, gwb::RuleId>(line, 0));
  for (; it != rulesByLine_.end() && it->first == line; ++it) rules.push_back(it->second);
  return rules;
}

bool GrammarTableModel::lhsSumIsOff(gwb::SymbolId lhs) const {
  if (lhs < 0 || static_cast<std::size_t>(lhs) >= lhsSums_.size()) return false;
  return std::abs(lhsSums_[static_cast<std::size_t>(lhs)] - 1.0) > kSumTolerance;
}

}  // namespace gwb::ui
