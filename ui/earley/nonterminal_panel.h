// NonterminalPanel: the current grammar's nonterminals, filterable and sortable.
//
// A compact companion to the rule table: it lists every nonterminal with its number of rules
// and their probability sum (NonterminalTableModel). Clicking a nonterminal emits
// symbolActivated, which the main window answers by showing that symbol's rules.
#pragma once

#include <memory>

#include <QWidget>

#include "gwb/earley/grammar.h"

class QLineEdit;
class QModelIndex;
class QSortFilterProxyModel;
class QTableView;

namespace gwb::ui {

class NonterminalTableModel;

class NonterminalPanel : public QWidget {
  Q_OBJECT

 public:
  explicit NonterminalPanel(QWidget* parent = nullptr);

  // Lists the nonterminals of `grammar` (nothing when null).
  void setGrammar(std::shared_ptr<const gwb::Grammar> grammar);
  QTableView* tableView() const { return table_; }

 signals:
  void symbolActivated(const QString& name);

 private:
  void activate(const QModelIndex& index);

  NonterminalTableModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QLineEdit* filterEdit_ = nullptr;
  QTableView* table_ = nullptr;
};

}  // namespace gwb::ui
