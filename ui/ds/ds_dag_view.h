// DsDagView: the DS parse DAG drawn as the stepper reveals it — nodes are partial trees (their
// id, the pointer's address and the pointed node's labels), edges are actions labelled with
// their name (lexical edges with their word and lexical entry, plus the non-optional actions
// that followed), nodes grouped in one framed column per word position.
//
// Collapsed (the default): a DAG has many more trees reached by computational actions than by
// words, so each run of computational actions is drawn as one dashed edge. Every tree belongs to
// the run that starts at its anchor — the axiom or the target of a lexical edge — along the first
// path to it. Drawn are the anchors, complete trees, the newest tree and the selected one, and
// the trees of expanded runs; an edge from a tree not drawn starts at its anchor instead and
// says how many actions it stands for ("⋯ 3 actions: completion, anticipation1, …"). Clicking a
// collapsed edge expands its run (clicking one of the run's edges again folds it back).
// setCollapsed(false) draws every tree and edge.
//
// The visible prefix of the DAG (DsDagModel) is laid out by Graphviz dot (graph_layout.h), one
// framed column per word position, and each geometry cached by what it shows, so stepping back
// and forth lays nothing out twice; lastLayoutMilliseconds() tells what the last new layout
// cost. Drawing: lexical edges black and thicker than the computational ones, the result's path
// red (orange when the parse did not succeed), complete trees double-framed in green, the
// selected node filled blue, the newest node yellow. Clicking a node emits nodeClicked.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <QColor>

#include "ui/common/graph_layout.h"
#include "ui/ds/ds_graph_canvas.h"

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

  // Collapsing runs of computational actions (see above); on by default.
  void setCollapsed(bool collapsed);
  bool collapsed() const { return collapsed_; }
  // The run that starts at `anchor` drawn tree by tree (or folded back).
  void setRunExpanded(int anchor, bool expanded);
  bool isRunExpanded(int anchor) const { return expanded_.count(anchor) > 0; }
  // The anchor of a tree's run: the axiom or a lexical edge's target (-1 without a result).
  int anchorOf(int id) const;
  // What the current drawing shows.
  int drawnNodeCount() const { return drawnNodes_; }
  int drawnEdgeCount() const { return drawnEdges_; }
  bool isNodeDrawn(int id) const { return !nodeRect(id).isEmpty(); }

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
  // One edge of the drawing: a DAG edge, or a run of computational actions ending in one.
  struct DrawnEdge {
    int from = -1;  // DAG node ids
    int to = -1;
    int edge = -1;      // the DAG edge it ends with
    int collapsed = 0;  // actions folded into it before `edge` (0: a plain edge)
    int anchor = -1;    // collapsed edges: the run they stand for
  };

  void onResultChanged();
  void redraw();
  void onEdgeLabelClicked(int anchor);
  QColor nodeFill(int id) const;
  QSizeF nodeSize(int id);
  bool shows(int id, int latest) const;
  // The actions on the first path from `id`'s anchor to `id`.
  std::vector<std::string> runActions(int id) const;

  DsDagModel* model_;
  int selected_ = -1;
  bool collapsed_ = true;
  std::set<int> expanded_;                      // anchors of expanded runs
  std::vector<int> anchor_;                     // by node id
  std::map<std::string, GraphGeometry> cache_;  // by what the drawing shows
  std::vector<QSizeF> nodeSizes_;               // measured when first drawn (empty size: not yet)
  std::vector<DrawnEdge> drawnEdgeList_;
  int drawnNodes_ = 0;
  int drawnEdges_ = 0;
  std::vector<QRectF> nodeRects_;
  std::vector<QAbstractGraphicsShapeItem*> boxes_;  // by node id, while drawn
  GraphGeometry geometry_;
  double lastLayoutMs_ = 0.0;
  bool lastCached_ = false;
  int layoutsComputed_ = 0;
};

}  // namespace gwb::ui
