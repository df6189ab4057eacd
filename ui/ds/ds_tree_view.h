// DsTreeView: one partial tree of Dynamic Syntax drawn as the papers draw them, from a
// DsTreeModel: a box per node with its address, its type (`ty(e>t)`, or the requirement
// `?ty(e)` in red), its formula (record types laid out field by field, ds_record_format.h), its
// other requirements (red) and other labels (grey). The pointer's node has a thick blue frame
// and a ◇; nodes of LINKed trees are shaded yellow and hang from their host by a dashed edge
// marked L; unfixed nodes are shaded violet with a dashed frame and hang by a dotted edge
// marked * (or U). Laid out top-down by Graphviz dot (daughter 0 left of daughter 1).
//
// treeDot() writes the tree as Graphviz DOT (one node a line of labels), for export.
#pragma once

#include <string>

#include "ui/ds/ds_graph_canvas.h"

namespace gwb::ui {

class DsTreeModel;

class DsTreeView : public DsGraphCanvas {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsTreeView)

 public:
  explicit DsTreeView(DsTreeModel* model, QWidget* parent = nullptr);
  ~DsTreeView() override;

  // Where the node at `address` is drawn (empty if there is none).
  QRectF nodeRect(const QString& address) const;
  double lastLayoutMilliseconds() const { return lastLayoutMs_; }
  std::string treeDot() const;

 private:
  void redraw();

  DsTreeModel* model_;
  std::vector<QRectF> nodeRects_;  // by node index
  double lastLayoutMs_ = 0.0;
};

}  // namespace gwb::ui
