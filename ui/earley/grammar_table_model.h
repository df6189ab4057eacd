// GrammarTableModel: a grammar's rules as rows of a Qt table, one row per rule in RuleId order.
//
// Row r is RuleId r, so source rows are stable and a proxy can sort and filter freely. Each
// column's text is computed from the grammar, except the symbol names and RHS strings, which
// are converted to QString once when the grammar is set (filtering 35k rows on every keystroke
// must not re-convert them). Besides Qt::DisplayRole the model answers:
//   RuleIdRole  the row's gwb::RuleId (int), for any column;
//   SortRole    a value that orders the column: doubles for numeric columns, an invalid
//               QVariant for a missing prior (sorted last), strings for text columns.
// The model does not own the grammar's lifetime alone: it shares it with the document.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "gwb/earley/grammar.h"

namespace gwb::ui {

class GrammarTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int { Lhs, Rhs, Kind, Probability, Prior, LhsSum, Line, ColumnCount };
  enum Role : int { RuleIdRole = Qt::UserRole, SortRole };

  explicit GrammarTableModel(QObject* parent = nullptr);

  // Shows `grammar` (or nothing, when null); resets the model.
  void setGrammar(std::shared_ptr<const gwb::Grammar> grammar);
  const gwb::Grammar* grammar() const { return grammar_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  static gwb::RuleId ruleAt(int row) { return static_cast<gwb::RuleId>(row); }
  QModelIndex indexForRule(gwb::RuleId rule, int column = Lhs) const;
  // Rules read from 1-based line `line` of the grammar file (several for NLTK `|` lines).
  std::vector<gwb::RuleId> rulesAtLine(int line) const;
  // Does this LHS's probability sum differ from one by more than checkGrammar tolerates?
  bool lhsSumIsOff(gwb::SymbolId lhs) const;

 private:
  QVariant displayData(gwb::RuleId id, int column) const;
  QVariant sortData(gwb::RuleId id, int column) const;
  QString toolTip(gwb::RuleId id, int column) const;
  QString ruleText(gwb::RuleId id) const;

  std::shared_ptr<const gwb::Grammar> grammar_;
  std::vector<QString> symbolNames_;  // by SymbolId
  std::vector<QString> rhsTexts_;     // by RuleId, terminals quoted as in Grammar::rhsText
  std::vector<double> lhsSums_;       // by SymbolId; 0 for symbols without rules
  std::vector<std::pair<int, gwb::RuleId>> rulesByLine_;  // sorted by (line, rule)
};

}  // namespace gwb::ui
