// NonterminalTableModel: a grammar's nonterminals with their rule counts and probability sums.
//
// One row per nonterminal in SymbolId order, including those used on a right-hand side
// without any rule of their own (0 rules; the grammar check warns about them too). A row whose
// probabilities do not sum to one within checkGrammar's tolerance is drawn in a warning colour.
// SymbolIdRole gives the row's gwb::SymbolId; SortRole orders the numeric columns as numbers.
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "gwb/earley/grammar.h"

namespace gwb::ui {

class NonterminalTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int { Symbol, Rules, ProbabilitySum, ColumnCount };
  enum Role : int { SymbolIdRole = Qt::UserRole, SortRole };

  explicit NonterminalTableModel(QObject* parent = nullptr);

  void setGrammar(std::shared_ptr<const gwb::Grammar> grammar);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    gwb::SymbolId symbol;
    QString name;
    int ruleCount;
    double probabilitySum;
  };
  static bool sumIsOff(const Row& row);

  std::shared_ptr<const gwb::Grammar> grammar_;
  std::vector<Row> rows_;
};

}  // namespace gwb::ui
