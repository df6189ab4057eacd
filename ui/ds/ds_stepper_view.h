// DsStepperView: the workbench's Dynamic Syntax stepper (Eshghi, Hough & Purver 2013): parse a
// sentence with a DyLan grammar and watch the parse DAG grow, action by action or word by
// word, back and forth.
//
// Top: the grammar folder (with a chooser), the sentence, the strategy (breadth-first, with an
// optional beam, or best-first) and Parse. Toolbar: start, previous word, previous action, next
// action, next word, end (Home, Ctrl+Left, Left, Right, Ctrl+Right, End), zoom and fit, and
// exports of the DAG and of the tree (DOT, SVG, PNG). Below, full width (the DAG grows to the
// right): the DAG (DsDagView); below it the partial tree of the selected node (DsTreeView) beside
// its record type — the root record type of a complete tree, otherwise the tree's maximal
// semantics — formatted field by field.
// Stepping selects the newest node (at the end, the final tree of the result); clicking a DAG
// node selects it.
//
// Grammars load and sentences parse on a worker thread; the loaded grammar is kept for the next
// parse with the same folder; a progress bar with Cancel shows while a parse runs. Errors (a folder
// that is not a grammar, an unknown word) show in the status line; the view stays usable.
//
// state()/restoreState() capture what a workspace file stores (workspace.h, kind "ds-stepper";
// the grammar folder is the document's path, not part of the state): the sentence, the strategy,
// the beam, the step ("position": edges shown), the selected DAG node and the DAG's zoom (only
// when the user set one; otherwise the DAG keeps fitting itself). restoreState() parses the
// sentence and, when that parse is done, steps to the saved position and selects the saved node.
// It never fails: a folder that is not a grammar leaves the view with that error in the status
// line; a position beyond the end of the new parse shows the end, and a node that is not shown
// keeps the default selection, each with a note in the status line. While that parse runs,
// state() still reports the saved position, node and zoom.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <QJsonObject>
#include <QString>
#include <QWidget>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "ui/common/job_progress_bar.h"
#include "ui/ds/ds_parse_job.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QToolButton;
class QAction;

namespace gwb::ui {

class DsDagModel;
class DsDagView;
class DsTreeModel;
class DsTreeView;

class DsStepperView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsStepperView)

 public:
  explicit DsStepperView(QWidget* parent = nullptr);
  ~DsStepperView() override;

  // The DyLan 2013 English TTR grammar in the shared data folder, if it can be found
  // ($GWB_SHARED_DIR, or ../shared beside the source tree); empty otherwise.
  static QString defaultGrammarDirectory();

  void setGrammarDirectory(const QString& directory);
  // Parses with `grammar` (a seed grammar with a learned lexicon, say) rather than the folder's
  // own: the folder shown becomes `directory` and later parses with it reuse `grammar`, until
  // another folder is chosen. Call parse() afterwards.
  void useGrammar(std::shared_ptr<const gwb::ds::DsGrammar> grammar, const QString& directory);
  QString grammarDirectory() const;
  void setSentence(const QString& sentence);
  QString sentence() const;
  void setBestFirst(bool bestFirst);
  void setBeam(int beam);  // breadth-first: trees kept after each word (0: all)
  bool bestFirst() const;
  int beam() const;

  // The view's settings and place, for a workspace (see above).
  QJsonObject state() const;
  void restoreState(const QJsonObject& state);

  // Starts parsing the sentence (loading the grammar first if needed); false if a parse is
  // already running. waitForParse blocks (processing events) until it is done.
  bool parse();
  bool isParsing() const { return worker_.isBusy(); }
  bool waitForParse(int milliseconds = 600000);

  DsDagModel* dagModel() const { return dagModel_; }
  DsTreeModel* treeModel() const { return treeModel_; }
  DsDagView* dagView() const { return dagView_; }
  DsTreeView* treeView() const { return treeView_; }

  void selectNode(int id);
  int selectedNode() const { return selected_; }
  // The record-type pane's text, and the status line's.
  QString recordText() const;
  QString statusText() const;

  // Exports; the format follows the suffix (.dot, .svg, .png). Files are written atomically.
  bool exportDag(const QString& path, QString* error = nullptr) const;
  bool exportTree(const QString& path, QString* error = nullptr) const;

  // Steps ("end", "word:K" or a number of actions), as --ds-step gives them.
  void goToStep(const QString& step);

 signals:
  void parseFinished();

 private:
  void buildUi();
  void onParseDone();
  void onStepChanged();
  void updateStatus();
  void updateActions();
  void chooseGrammar();
  void showExportDialog(bool dag, const QString& suffix);
  void applyPendingState();

  DsDagModel* dagModel_ = nullptr;
  DsTreeModel* treeModel_ = nullptr;
  DsDagView* dagView_ = nullptr;
  DsTreeView* treeView_ = nullptr;
  QPlainTextEdit* recordPane_ = nullptr;
  QLineEdit* grammarEdit_ = nullptr;
  QLineEdit* sentenceEdit_ = nullptr;
  QComboBox* strategyBox_ = nullptr;
  QSpinBox* beamBox_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;  // the parse running, with Cancel
  QLabel* treeTitle_ = nullptr;
  QAction* startAction_ = nullptr;
  QAction* previousWordAction_ = nullptr;
  QAction* previousAction_ = nullptr;
  QAction* nextAction_ = nullptr;
  QAction* nextWordAction_ = nullptr;
  QAction* endAction_ = nullptr;

  // The loaded grammar and the folder it came from (from the last parse's outcome).
  std::shared_ptr<const gwb::ds::DsGrammar> grammar_;
  QString loadedDirectory_;
  QString error_;
  double parseMs_ = 0.0;
  int selected_ = -1;
  std::optional<QJsonObject> pendingState_;  // restoreState(): applied after its parse
  QString notice_;     // what restoreState() could not restore; shown after the status
  DsParseJob worker_;  // last: cancelled and joined first
};

}  // namespace gwb::ui
