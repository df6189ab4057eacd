// ChartArcLink: keeps the arc view (arc_view.h) showing the stepper's chart.
//
// It reads what the column view shows — the StepperView's ChartModel after the current step,
// with its filters (hide predicted, hide zero, one symbol) — and hands those items to the
// ArcView as arcs keyed by their ItemRef, coloured by the operation that created them, filled
// when the last move touched them, with the α/γ/Viterbi values as the tooltip. Selection is
// shared both ways: a click on an arc selects the item in the column view
// (StepperView::selectItem), and an item selected there is selected among the arcs. A chart of
// more than kMaxArcs shown items (a whole discourse) is not drawn: the view says so instead.
//
// While disabled (agenda mode draws its own chart into the same view) it leaves the view alone;
// enabling it redraws the stepper's chart.
#pragma once

#include <QObject>

#include "gwb/earley/earley_parser.h"

namespace gwb::ui {

class ArcView;
class StepperView;

class ChartArcLink : public QObject {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(ChartArcLink)

 public:
  static constexpr int kMaxArcs = 3000;

  // Both must outlive the link (it is a child of the view).
  ChartArcLink(StepperView* view, ArcView* arcs);

  static qint64 keyOf(gwb::ItemRef item);
  static gwb::ItemRef itemOf(qint64 key);

  bool isEnabled() const { return enabled_; }
  void setEnabled(bool enabled);
  // Redraws the arcs from the chart model now (signals from the model schedule this).
  void refresh();

 private:
  void scheduleRefresh();

  StepperView* view_;
  ArcView* arcs_;
  bool enabled_ = true;
  bool refreshPending_ = false;
};

}  // namespace gwb::ui
