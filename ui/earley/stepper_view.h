// StepperView: the Earley stepper — a sentence, its chart as of a step, and the controls.
//
// From top to bottom: the sentence (an editable list: the grammar's sample sentences, corpus
// lines sent here, or anything typed) with the parse options (textbook mode without
// look-ahead, log or scaled arithmetic); the debugger-like step controls; the sentence strip
// with numbered positions and the surprisal strip, both following the step; the chart (one
// column per state set, virtualised through ChartModel) with its filters and number format;
// and, beside it, the plain-language explanation of the last operation and of the selected
// item, and the breakpoints.
//
// Parsing runs on a worker thread (ParseJob): a progress bar with Cancel appears when it takes
// long, and a cancelled parse still shows the chart it got to. The compiled grammar is kept
// between parses of the same grammar. Shortcuts work while focus is anywhere in the view:
//   F10 step · Shift+F10 step back · F11 next word · Shift+F11 previous word ·
//   Ctrl+F10 run to position · F5 run to end (or breakpoint) · Shift+F5 reset ·
//   F8 play/pause · F9 breakpoint on the selected item's symbol.
// state()/restoreState() capture what a workspace file stores.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include <QJsonObject>
#include <QStringList>
#include <QWidget>

#include "gwb/earley/grammar.h"
#include "ui/common/job_progress_bar.h"
#include "ui/earley/chart_model.h"
#include "ui/earley/earley_stepper.h"
#include "ui/earley/surprisal_plot.h"

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QScrollArea;
class QSlider;
class QTableView;
class QTextBrowser;
class QTimer;
class QToolBar;
class QWidget;

namespace gwb {
class CompiledGrammar;
}

namespace gwb::ui {

class AgendaPanel;
class ArcView;
class ParseJob;
class ParseSession;
class SentenceStrip;

class StepperView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(StepperView)

 public:
  explicit StepperView(QWidget* parent = nullptr);
  ~StepperView() override;

  // The grammar to parse with (null: none). A new grammar re-parses the current sentence.
  void setGrammar(std::shared_ptr<const gwb::Grammar> grammar);
  // Sentences offered in the sentence box (the first becomes current if none is).
  void setSentences(const QStringList& sentences);
  QStringList sentences() const;
  QString sentence() const;
  // Sets the sentence and parses it.
  void setSentence(const QString& sentence);
  void parse();
  bool isParsing() const;
  void cancelParse();
  // Runs the event loop until no parse is running; false on timeout.
  bool waitForParse(int milliseconds = 600000);
  // Called on the parse's worker thread after each finished state set of every later parse
  // (see ParseRequest::afterSet): tests hold a parse open with it.
  void setParseHook(std::function<void(int position)> hook) { parseHook_ = std::move(hook); }

  bool lookahead() const;
  void setLookahead(bool on);
  gwb::NumericMode numericMode() const;
  void setNumericMode(gwb::NumericMode mode);

  const std::shared_ptr<const ParseSession>& session() const { return session_; }
  EarleyStepper* stepper() const { return stepper_; }
  ChartModel* chartModel() const { return model_; }
  QTableView* chartView() const { return table_; }
  SentenceStrip* strip() const { return strip_; }
  SurprisalPlot* surprisalPlot() const { return plot_; }
  QTextBrowser* explanationView() const { return explanation_; }
  QListWidget* breakpointList() const { return breakpointList_; }
  QToolBar* controls() const { return controls_; }
  // The chart as arcs over the words (below the column view), and agenda mode (a side tab).
  ArcView* arcView() const { return arcView_; }
  AgendaPanel* agendaPanel() const { return agendaPanel_; }

  // Selects an item in the chart as a click on its card does (it is scrolled into view, the
  // span, antecedents and explanation follow; invalid: clears the selection). Only items that
  // exist at the current step can be selected.
  void selectItem(gwb::ItemRef item);
  gwb::ItemRef selectedItem() const;
  // Shows a message (rich text) in the status line until the next step.
  void showMessage(const QString& html);
  // The status line's text (rich text).
  QString statusText() const;

  void setFilter(const ChartModel::Filter& filter);
  void setNumberFormat(NumberFormat format);
  void setSurprisalUnit(SurprisalPlot::Unit unit);

  // What a workspace remembers: sentence list and choice, options, step, filters, number
  // format, unit, breakpoints, speed, the selected item. restoreState() parses the sentence
  // and moves to the step when the parse is done ("applied" operations, or "position": the
  // end of that state set).
  QJsonObject state() const;
  void restoreState(const QJsonObject& state);

 signals:
  // A new parse is shown (also a cancelled one; null when the grammar cannot be parsed with).
  void sessionChanged(std::shared_ptr<const gwb::ui::ParseSession> session);
  // The step moved.
  void appliedChanged(std::size_t applied);
  // The selected chart item changed (by a click, selectItem, or a step that removed it).
  void selectedItemChanged(gwb::ItemRef item);
  // Something a workspace stores changed.
  void stateChanged();

 private:
  void createActions();
  QWidget* createOptionsBar();
  QWidget* createFilterBar();
  QWidget* createSidePanel();
  QWidget* createProgressBar();
  void onParseFinished(std::shared_ptr<const ParseSession> session);
  void onMoved(std::size_t applied, std::size_t previous);
  void onCurrentCellChanged(const QModelIndex& current);
  void updateExplanation();
  void updateStatus();
  void updateActions();
  void updateStripSpan();
  void alignColumns();
  void applyFilterFromBar();
  void rebuildBreakpointList();
  void addBreakpointFromBar();
  void toggleBreakpointOnSelection();
  void runToTarget();
  void showProgress();

  std::shared_ptr<const gwb::Grammar> grammar_;
  std::shared_ptr<const gwb::CompiledGrammar> compiled_;  // compiled from grammar_, once
  std::shared_ptr<const ParseSession> session_;
  ParseJob* job_ = nullptr;
  std::function<void(int)> parseHook_;
  std::optional<QJsonObject> pendingState_;  // applied after the next parse

  EarleyStepper* stepper_ = nullptr;
  ChartModel* model_ = nullptr;

  QComboBox* sentenceBox_ = nullptr;
  QPushButton* parseButton_ = nullptr;
  QCheckBox* textbookBox_ = nullptr;
  QComboBox* arithmeticBox_ = nullptr;

  QToolBar* controls_ = nullptr;
  QAction* resetAction_ = nullptr;
  QAction* previousWordAction_ = nullptr;
  QAction* backAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* nextWordAction_ = nullptr;
  QAction* runToPositionAction_ = nullptr;
  QAction* runToEndAction_ = nullptr;
  QAction* playAction_ = nullptr;
  QAction* breakpointAction_ = nullptr;
  QSlider* speedSlider_ = nullptr;
  QLabel* speedLabel_ = nullptr;
  QLabel* statusLabel_ = nullptr;

  QScrollArea* stripArea_ = nullptr;
  SentenceStrip* strip_ = nullptr;
  SurprisalPlot* plot_ = nullptr;

  QCheckBox* hidePredictedBox_ = nullptr;
  QCheckBox* hideZeroBox_ = nullptr;
  QLineEdit* symbolEdit_ = nullptr;
  QComboBox* formatBox_ = nullptr;
  QComboBox* unitBox_ = nullptr;
  QTableView* table_ = nullptr;
  ArcView* arcView_ = nullptr;
  AgendaPanel* agendaPanel_ = nullptr;

  QTextBrowser* explanation_ = nullptr;
  QListWidget* breakpointList_ = nullptr;
  QComboBox* breakpointKindBox_ = nullptr;
  QLineEdit* breakpointSymbolEdit_ = nullptr;

  QWidget* progressRow_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;
  QLabel* progressLabel_ = nullptr;
  QTimer* progressTimer_ = nullptr;
  int progressTicks_ = 0;
};

}  // namespace gwb::ui
