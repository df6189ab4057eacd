// AgendaPanel: the Earley stepper's agenda mode — the student picks the next task.
//
// Switched on ("Agenda mode"), it starts core's AgendaEarley (agenda_earley.h) on the stepper's
// sentence, grammar and look-ahead setting, lists the agenda of the current position — each
// task with its kind (predict from / scan / complete with) and the value it will use — and
// runs the task the student double-clicks (or selects and presses Process, or Enter). A
// strategy (Earley's order, predict first, complete first, scan first, queue, stack, random)
// can choose instead: one step, to the end of the position, or to the end. After each step the
// explanation says what the task added, which items built earlier were corrected because a
// value they used grew, and why the numbers end the same whatever the order; at the end it
// compares the sentence probability with the standard parse.
//
// While agenda mode is on the arc view (arc_view.h) draws the agenda's chart — items made or
// changed by the last step filled, the current position dashed — and the ChartArcLink is
// paused; a click on an arc selects its task on the agenda (when it has one) and describes the
// item. Switching off hands the arc view back to the stepper's chart.
#pragma once

#include <memory>
#include <optional>

#include <QList>
#include <QWidget>

#include "gwb/earley/agenda_earley.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace gwb::ui {

class ArcView;
class ChartArcLink;
class ParseSession;
class StepperView;

class AgendaPanel : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(AgendaPanel)

 public:
  // Agenda mode is for teaching-sized sentences: it runs on the UI thread and keeps every
  // edge. Longer sentences (a whole discourse) get a message instead of an engine.
  static constexpr std::size_t kMaxWords = 60;

  explicit AgendaPanel(QWidget* parent = nullptr);
  ~AgendaPanel() override;

  // Follows the view's parses and draws into `arcs` while active (pausing `link`).
  void attach(StepperView* view, ArcView* arcs, ChartArcLink* link);

  bool isActive() const;
  void setActive(bool active);
  // The engine of the current run (null while inactive or without a parse).
  const gwb::AgendaEarley* engine() const { return engine_.get(); }
  gwb::AgendaStrategy strategy() const;
  void setStrategy(gwb::AgendaStrategy strategy);

  // Runs agenda task `index` (as a double-click on its row does).
  void processTask(int index);
  void stepByStrategy();
  void finishPosition();
  void runToEnd();
  void restart();

  QTreeWidget* agendaList() const { return list_; }
  QTextBrowser* explanationView() const { return explanation_; }
  const std::optional<gwb::AgendaStepReport>& lastReport() const { return lastReport_; }

 signals:
  void activeChanged(bool active);
  // The agenda chart changed (a step, a restart, a new parse).
  void chartChanged();

 private:
  void rebuild();
  void updateAgenda();
  void updateArcs();
  void describeStep();
  void describeItem(std::int32_t item);
  void onArcClicked(qint64 key);
  QString itemHtml(std::int32_t item) const;
  QString itemValues(std::int32_t item) const;

  StepperView* view_ = nullptr;
  ArcView* arcs_ = nullptr;
  ChartArcLink* link_ = nullptr;
  std::shared_ptr<const ParseSession> session_;
  std::unique_ptr<gwb::AgendaEarley> engine_;
  std::optional<gwb::AgendaStepReport> lastReport_;
  std::uint64_t runs_ = 0;
  QList<int> savedSplit_;  // the column view / arc view split before agenda mode  // seeds the
                           // random strategy afresh on every restart

  QCheckBox* activeBox_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QComboBox* strategyBox_ = nullptr;
  QPushButton* processButton_ = nullptr;
  QPushButton* stepButton_ = nullptr;
  QPushButton* positionButton_ = nullptr;
  QPushButton* endButton_ = nullptr;
  QPushButton* restartButton_ = nullptr;
  QTreeWidget* list_ = nullptr;
  QTextBrowser* explanation_ = nullptr;
};

}  // namespace gwb::ui
