// DsDagView: the DS parse DAG drawn as the stepper reveals it — nodes are partial trees (their
// id, the pointer's address and the pointed node's labels), edges are actions labelled with
// their name (lexical edges with their word and lexical entry, plus the non-optional actions
// that followed), nodes grouped in one framed column per word position.
//
// The visible prefix of the DAG (DsDagModel) is laid out by Graphviz dot (graph_layout.h) once
// per step count and the geometry cached, so stepping back and forth lays nothing out twice;
// lastLayoutMilliseconds() tells what the last new layout cost. Drawing: lexical edges black
// and thicker than the computational ones, the result's path red (orange when the parse did not
// succeed), complete trees double-framed in green, the selected node filled blue, the newest
// node yellow. Clicking a node emits nodeClicked.
#pragma once

#include <map>
#include <vector>

#include <QColor>

#include "ui/ds_graph_canvas.h"
#include "ui/graph_layout.h"

class QAbstractGraphicsShapeItem;

namespace gwb::ui {

class DsDagModel;

class DsDagView : public DsGraphCanvas {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsDagView)

 public:
  explicit DsDagView(DsDagModel* model, QWidget* parent = nullptr);
  ~DsDagView() override;

  void setSelectedNode(int id);  // -1: none
  int selectedNode() const { return selected_; }

  // The geometry used for the current drawing (empty before the first one).
  const GraphGeometry& geometry() const { return geometry_; }
  double lastLayoutMilliseconds() const { return lastLayoutMs_; }
  bool lastDrawingWasCached() const { return lastCached_; }
  int layoutsComputed() const { return layoutsComputed_; }
  // Where node `id` is drawn (empty if it is not visible).
  QRectF nodeRect(int id) const;

 signals:
  void nodeClicked(int id);

 private:
  void onResultChanged();
  void redraw();
  QColor nodeFill(int id) const;

  DsDagModel* model_;
  int selected_ = -1;
  std::map<int, GraphGeometry> cache_;  // by number of visible edges
  std::vector<QSizeF> nodeSizes_;       // measured once per result
  std::vector<QSizeF> labelSizes_;
  std::vector<QRectF> nodeRects_;
  std::vector<QAbstractGraphicsShapeItem*> boxes_;  // by node id, while drawn
  GraphGeometry geometry_;
  double lastLayoutMs_ = 0.0;
  bool lastCached_ = false;
  int layoutsComputed_ = 0;
};

}  // namespace gwb::ui
