// ArcView: an Earley chart drawn as arcs over the words (the picture NLTK's chart view and most
// textbooks use), beside the stepper's column view.
//
// The words sit at the bottom between numbered positions 0..n. Every item [l, r] X → α . β is
// an arc from position l to position r labelled with its dotted rule; an item whose span is
// empty (a prediction, [r, r]) is a small loop at r with its label beside it. Arcs are stacked
// in lanes, shortest spans nearest the words, each lane holding arcs (and labels) that do not
// overlap, so every label is readable; the canvas grows and scrolls for long sentences. Colour
// says what made the item (predicted blue, scanned green, completed orange: operationColor);
// finished items are drawn bold. A dashed line marks the position being worked on.
//
// The view knows nothing of parses: a caller hands it arcs with keys of its own (ChartArcLink
// for the stepper's chart, AgendaPanel for agenda mode) and listens to arcClicked(key). A click
// selects an arc, a double-click also emits arcDoubleClicked; hovering shows the arc's tooltip
// (its probabilities). Its context menu places it beside or below the view it shares a splitter
// with.
#pragma once

#include <optional>
#include <vector>

#include <QScrollArea>
#include <QString>
#include <QStringList>

#include "gwb/earley/earley_parser.h"

class QContextMenuEvent;

namespace gwb::ui {

struct ChartArc {
  qint64 key = 0;  // the caller's id, returned by the signals
  int origin = 0;  // l
  int end = 0;     // r
  QString label;   // "NP → Det N ."
  gwb::OperationKind madeBy = gwb::OperationKind::Init;
  bool finished = false;  // drawn bold
  bool fresh = false;     // made or changed by the last step (filled label)
  QString toolTip;        // rich text
};

class ArcCanvas;

class ArcView : public QScrollArea {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(ArcView)

 public:
  explicit ArcView(QWidget* parent = nullptr);
  ~ArcView() override;

  void setWords(const QStringList& words);
  const QStringList& words() const;
  // Replaces every arc (the selection is kept when its key is still there).
  void setArcs(std::vector<ChartArc> arcs);
  const std::vector<ChartArc>& arcs() const;
  // The position drawn as "being worked on" (-1: none).
  void setCurrentPosition(int position);
  // A line shown instead of the picture (e.g. "the chart is too large"); empty: none.
  void setPlaceholder(const QString& text);
  QString placeholder() const;

  std::optional<qint64> selectedKey() const;
  // Selects (and scrolls to) the arc with this key; nullopt or an unknown key clears.
  void setSelectedKey(std::optional<qint64> key);

  // Geometry, for tests and for scrolling: the arc's box in canvas coordinates (its lane
  // from the arc's left end to the end of its label), and the arc at a canvas point.
  QRect arcRect(qint64 key) const;
  std::optional<qint64> keyAt(const QPoint& canvasPoint) const;
  QWidget* canvas() const;
  int laneCount() const;
  // In a splitter (as in the stepper): flips it between side by side and one above the other.
  // Also on the view's context menu.
  void toggleSplitterOrientation();

 protected:
  void contextMenuEvent(QContextMenuEvent* event) override;

 signals:
  void arcClicked(qint64 key);
  void arcDoubleClicked(qint64 key);

 private:
  ArcCanvas* canvas_ = nullptr;
};

}  // namespace gwb::ui
