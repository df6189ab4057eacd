// Graphviz `dot` layout for the workbench's drawn graphs (the Dynamic Syntax parse DAG and
// partial trees), computed through libgvc/libcgraph and returned as plain geometry for a
// QGraphicsScene to draw.
//
// The caller measures every node box and edge label in Qt (so what dot lays out is exactly what
// gets drawn): nodes become fixed-size boxes, edge labels fixed-size HTML cells, cluster titles
// likewise. Coordinates come back in scene units (1 unit = 1 point), with y pointing down and
// the drawing's top-left corner at (0, 0). Nodes may be grouped into clusters (drawn as framed
// columns, e.g. one per word position); `ordering=out` keeps each node's children in the order
// of its edges when asked (orderedChildren), which is how the DS tree view keeps daughter 0 left
// of daughter 1. Graphviz 2.43 (Debian 12) double-frees in its layout cleanup when labelled edges
// meet clusters, so in a graph with clusters each edge label is laid out as a node of its own
// that the edge runs through (drawn as one path with the label at that node's centre).
//
// Graphviz keeps global state and is not re-entrant: call layoutGraph from the GUI thread only.
// A layout failure (no `dot` layout plugin installed) is a value: GraphGeometry::error.
#pragma once

#include <vector>

#include <QPainterPath>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QSizeF>
#include <QString>

namespace gwb::ui {

struct GraphSpec {
  struct Node {
    QSizeF size;       // the box, in points
    int cluster = -1;  // index into clusterTitles, or -1
  };
  struct Edge {
    int from = -1;
    int to = -1;
    QSizeF labelSize;  // empty: no label
  };
  bool leftToRight = false;      // rankdir=LR (else top to bottom)
  bool orderedChildren = false;  // ordering=out: keep each node's out-edges in order (trees)
  bool arrowHeads = true;        // false: edges end at the node (no room kept for a head)
  double nodeSeparation = 12.0;
  double rankSeparation = 28.0;
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<QSizeF> clusterTitles;  // room for each cluster's title
};

struct GraphGeometry {
  QString error;  // empty on success
  QRectF bounds;  // of the whole drawing, top-left at (0, 0)
  std::vector<QPointF> nodeCentres;
  std::vector<QPainterPath> edgePaths;  // the Bézier splines, without the arrow heads
  std::vector<QPolygonF> arrowHeads;    // empty polygon when the edge has none
  std::vector<QPointF> labelCentres;    // of each edge's label (meaningless without one)
  std::vector<QRectF> clusterRects;
  std::vector<QPointF> clusterTitleCentres;
  double milliseconds = 0.0;  // wall-clock time of the layout
  bool ok() const { return error.isEmpty(); }
};

GraphGeometry layoutGraph(const GraphSpec& spec);

// Whether `text` parses as a Graphviz graph (through cgraph's reader); counts its nodes and
// edges when it does. Used by tests and to check exports.
bool parseDot(const QByteArray& text, int* nodes = nullptr, int* edges = nullptr);

}  // namespace gwb::ui
