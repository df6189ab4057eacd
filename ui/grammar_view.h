// GrammarView: the rule table of one GrammarDocument, with a filter bar above it.
//
// The view owns its document (a tab in the main window is one open grammar). The filter bar
// takes text or a regular expression (case-insensitive) over the LHS, the RHS or both; the
// table sorts on any column by clicking its header (click a third time to return to file
// order). The table is tuned for tens of thousands of rows: fixed row heights and column
// widths computed from the font, never resize-to-contents over all rows.
#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "gwb/grammar.h"
#include "ui/grammar_filter_proxy_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace gwb::ui {

class GrammarDocument;
class GrammarTableModel;

class GrammarView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(GrammarView)

 public:
  explicit GrammarView(std::unique_ptr<GrammarDocument> document, QWidget* parent = nullptr);
  ~GrammarView() override;

  GrammarDocument& document() const { return *document_; }
  QTableView* tableView() const { return table_; }
  GrammarTableModel* model() const { return model_; }
  GrammarFilterProxyModel* proxyModel() const { return proxy_; }
  QLineEdit* filterEdit() const { return filterEdit_; }

  // Applies a filter at once (also shown in the filter bar). False if `text` is an invalid
  // regular expression.
  bool setFilter(const QString& text, bool isRegex,
                 GrammarFilterProxyModel::Scope scope = GrammarFilterProxyModel::Scope::LhsOrRhs);
  void clearFilter();
  // Shows only the rules whose LHS is exactly `symbol`.
  void showRulesWithLhs(const QString& symbol);

  std::vector<gwb::RuleId> selectedRules() const;
  // Selects `rules` (clearing a filter that hides them) and scrolls to the first.
  void selectRules(const std::vector<gwb::RuleId>& rules);
  // Selects the rules read from `line` of the file; returns how many there were.
  int selectRulesAtLine(int line);

 signals:
  // The number of rules shown after filtering changed.
  void visibleRuleCountChanged(int visible, int total);

 private:
  static QString filterHelp();
  // Filters by what the bar shows now; false if its regular expression is invalid.
  bool applyFilterFromBar();
  void updateCountLabel();
  void setInitialColumnWidths();
  void showHeaderMenu(const QPoint& position);

  std::unique_ptr<GrammarDocument> document_;
  GrammarTableModel* model_ = nullptr;
  GrammarFilterProxyModel* proxy_ = nullptr;
  QLineEdit* filterEdit_ = nullptr;
  QComboBox* scopeBox_ = nullptr;
  QCheckBox* regexBox_ = nullptr;
  QLabel* countLabel_ = nullptr;
  QTableView* table_ = nullptr;
  QTimer* filterDelay_ = nullptr;
};

}  // namespace gwb::ui
