// GrammarView: one open grammar — its rules, and the parsers' views of it — as a tab.
//
// The view owns its document (a tab in the main window is one open grammar) and shows it on
// pages: Grammar (the file's text in an editor with line numbers and underlined diagnostics,
// above the rule table with its filter bar), Earley stepper (StepperView,
// parsing sentences with this grammar) and Parse tree (the Viterbi tree of the stepper's
// sentence). The stepper's sentences come from a file beside the
// grammar with the same name and the extension .txt (samples/pp-attachment.txt), and from
// `Try: "..."` hints in the grammar's comments. The filter bar
// takes text or a regular expression (case-insensitive) over the LHS, the RHS or both; the
// table sorts on any column by clicking its header (click a third time to return to file
// order). The table is tuned for tens of thousands of rows: fixed row heights and column
// widths computed from the font, never resize-to-contents over all rows.
//
// The stepper and the tree are linked (tree_chart_link.h): asking the tree to show a node in
// the chart (Ctrl+click or its context menu) turns to the stepper page and selects the
// completed item that built the node, as a click on its card would — or, if the stepper has
// not made that item yet, says so in the stepper's status line. Selecting a completed item in
// the chart highlights the node of the shown tree it built (and clears the highlight for any
// other item).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QJsonObject>
#include <QWidget>

#include "gwb/earley/grammar.h"
#include "ui/earley/grammar_filter_proxy_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QTimer;

namespace gwb::ui {

class GrammarDocument;
class GrammarEditor;
class GrammarTableModel;
class ParseTreeView;
class StepperView;

class GrammarView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(GrammarView)

 public:
  // The pages, in tab order.
  enum class Page : int { Grammar, Stepper, Tree };

  explicit GrammarView(std::unique_ptr<GrammarDocument> document, QWidget* parent = nullptr);
  ~GrammarView() override;

  QTabWidget* pages() const { return pages_; }
  Page currentPage() const;
  void showPage(Page page);
  GrammarEditor* editor() const { return editor_; }
  // Re-reads the grammar from the editor now rather than after the typing pause.
  void applyEdits();
  StepperView* stepperView() const { return stepper_; }
  ParseTreeView* treeView() const { return tree_; }
  // The view settings a workspace keeps (page, rule filter and selection, stepper, tree);
  // the tree's part is applied once the stepper's parse has finished.
  QJsonObject state() const;
  void restoreState(const QJsonObject& state);

  // Sentences to offer for parsing: the companion .txt file and `Try:` hints (see above).
  static QStringList sampleSentences(const QString& grammarPath);

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

  // Shows the completed chart item of node `node` of the shown tree in the stepper (see the
  // header comment). True if it was selected; otherwise the status line says why.
  bool showTreeNodeInChart(int node);

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
  void onGrammarChanged();
  // Highlights the tree node built by the chart's selected item (or none).
  void updateTreeHighlight();

  std::unique_ptr<GrammarDocument> document_;
  GrammarTableModel* model_ = nullptr;
  GrammarFilterProxyModel* proxy_ = nullptr;
  QLineEdit* filterEdit_ = nullptr;
  QComboBox* scopeBox_ = nullptr;
  QCheckBox* regexBox_ = nullptr;
  QLabel* countLabel_ = nullptr;
  QTableView* table_ = nullptr;
  QTimer* filterDelay_ = nullptr;
  QTabWidget* pages_ = nullptr;
  StepperView* stepper_ = nullptr;
  ParseTreeView* tree_ = nullptr;
  GrammarEditor* editor_ = nullptr;
  QTimer* editDelay_ = nullptr;
  std::optional<QJsonObject> pendingTreeState_;
};

}  // namespace gwb::ui
