#include "ui/common/graph_layout.h"

#include <chrono>
#include <cmath>
#include <string>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace gwb::ui {

namespace {

// One context for the program's lifetime: creating one loads Graphviz's plugin list, which
// costs more than laying out a small graph.
GVC_t* graphvizContext() {
  static GVC_t* context = [] {
    agseterr(AGERR);  // warnings (e.g. about flat edge labels) are not the user's business
    return gvContext();
  }();
  return context;
}

char* text(const char* s) { return const_cast<char*>(s); }

std::string number(double value) { return std::to_string(value); }

// An invisible HTML cell of exactly this size: what dot reserves for a label drawn by Qt.
std::string fixedCell(QSizeF size) {
  const int w = std::max(1, static_cast<int>(std::ceil(size.width())));
  const int h = std::max(1, static_cast<int>(std::ceil(size.height())));
  return "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\"><TR>"
         "<TD FIXEDSIZE=\"TRUE\" WIDTH=\"" +
         std::to_string(w) + "\" HEIGHT=\"" + std::to_string(h) + "\"></TD></TR></TABLE>";
}

void setHtml(Agraph_t* graph, void* object, Agsym_t* symbol, const std::string& html) {
  char* value = agstrdup_html(graph, text(html.c_str()));
  agxset(object, symbol, value);
  agstrfree(graph, value);
}

}  // namespace

GraphGeometry layoutGraph(const GraphSpec& spec) {
  const auto start = std::chrono::steady_clock::now();
  GraphGeometry geometry;
  GVC_t* context = graphvizContext();
  if (context == nullptr) {
    geometry.error = QStringLiteral("Graphviz could not be initialised");
    return geometry;
  }
  Agraph_t* graph = agopen(text("layout"), Agdirected, nullptr);
  agattr(graph, AGRAPH, text("rankdir"), text(spec.leftToRight ? "LR" : "TB"));
  agattr(graph, AGRAPH, text("nodesep"), text(number(spec.nodeSeparation / 72.0).c_str()));
  agattr(graph, AGRAPH, text("ranksep"), text(number(spec.rankSeparation / 72.0).c_str()));
  if (spec.orderedChildren) agattr(graph, AGRAPH, text("ordering"), text("out"));
  agattr(graph, AGRAPH, text("labeljust"), text("l"));
  Agsym_t* graphLabel = agattr(graph, AGRAPH, text("label"), text(""));
  agattr(graph, AGNODE, text("shape"), text("box"));
  agattr(graph, AGNODE, text("fixedsize"), text("true"));
  agattr(graph, AGNODE, text("label"), text(""));
  Agsym_t* width = agattr(graph, AGNODE, text("width"), text("1"));
  Agsym_t* height = agattr(graph, AGNODE, text("height"), text("1"));
  Agsym_t* edgeLabel = agattr(graph, AGEDGE, text("label"), text(""));

  std::vector<Agraph_t*> clusters;
  for (std::size_t c = 0; c < spec.clusterTitles.size(); ++c) {
    const std::string name = "cluster_" + std::to_string(c);
    Agraph_t* cluster = agsubg(graph, text(name.c_str()), 1);
    setHtml(cluster, cluster, graphLabel, fixedCell(spec.clusterTitles[c]));
    clusters.push_back(cluster);
  }
  std::vector<Agnode_t*> nodes;
  nodes.reserve(spec.nodes.size());
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const std::string name = "n" + std::to_string(i);
    Agnode_t* node = agnode(graph, text(name.c_str()), 1);
    agxset(node, width, text(number(spec.nodes[i].size.width() / 72.0).c_str()));
    agxset(node, height, text(number(spec.nodes[i].size.height() / 72.0).c_str()));
    const int cluster = spec.nodes[i].cluster;
    if (cluster >= 0 && static_cast<std::size_t>(cluster) < clusters.size())
      agsubnode(clusters[static_cast<std::size_t>(cluster)], node, 1);
    nodes.push_back(node);
  }
  // Graphviz 2.43 double-frees in its cleanup when labelled edges meet clusters, so with
  // clusters a label becomes a node of its own, the edge running through it in two halves
  // (the first without an arrow head). Dot gives such label nodes room just the same.
  const bool labelNodes = !clusters.empty();
  Agsym_t* arrowhead =
      agattr(graph, AGEDGE, text("arrowhead"), text(spec.arrowHeads ? "normal" : "none"));
  std::vector<Agedge_t*> edges;      // the edge, or its second half
  std::vector<Agedge_t*> firstHalf;  // null unless the label is a node
  std::vector<Agnode_t*> labelNode;  // likewise
  edges.reserve(spec.edges.size());
  for (std::size_t i = 0; i < spec.edges.size(); ++i) {
    const GraphSpec::Edge& e = spec.edges[i];
    Agnode_t* from = nodes[static_cast<std::size_t>(e.from)];
    Agnode_t* to = nodes[static_cast<std::size_t>(e.to)];
    const std::string name = "e" + std::to_string(i);  // distinct names keep parallel edges
    if (labelNodes && !e.labelSize.isEmpty()) {
      const std::string labelName = "l" + std::to_string(i);
      Agnode_t* label = agnode(graph, text(labelName.c_str()), 1);
      agxset(label, width, text(number(e.labelSize.width() / 72.0).c_str()));
      agxset(label, height, text(number(e.labelSize.height() / 72.0).c_str()));
      const int fromCluster = spec.nodes[static_cast<std::size_t>(e.from)].cluster;
      if (fromCluster >= 0 && fromCluster == spec.nodes[static_cast<std::size_t>(e.to)].cluster &&
          static_cast<std::size_t>(fromCluster) < clusters.size())
        agsubnode(clusters[static_cast<std::size_t>(fromCluster)], label, 1);
      Agedge_t* first = agedge(graph, from, label, text((name + "a").c_str()), 1);
      agxset(first, arrowhead, text("none"));
      edges.push_back(agedge(graph, label, to, text(name.c_str()), 1));
      firstHalf.push_back(first);
      labelNode.push_back(label);
      continue;
    }
    Agedge_t* edge = agedge(graph, from, to, text(name.c_str()), 1);
    if (!e.labelSize.isEmpty()) setHtml(graph, edge, edgeLabel, fixedCell(e.labelSize));
    edges.push_back(edge);
    firstHalf.push_back(nullptr);
    labelNode.push_back(nullptr);
  }

  if (gvLayout(context, graph, "dot") != 0) {
    agclose(graph);
    geometry.error = QStringLiteral("Graphviz has no 'dot' layout (is libgvc's plugin installed?)");
    return geometry;
  }
  const boxf bb = GD_bb(graph);
  const auto toScene = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
  geometry.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
  for (Agnode_t* node : nodes) geometry.nodeCentres.push_back(toScene(ND_coord(node)));
  const auto addSpline = [&](Agedge_t* edge, QPainterPath* path, QPolygonF* head) {
    const splines* spline = ED_spl(edge);
    if (spline == nullptr) return;
    for (int b = 0; b < spline->size; ++b) {
      const bezier& bz = spline->list[b];
      if (bz.size == 0) continue;
      path->moveTo(toScene(bz.list[0]));
      for (int k = 1; k + 2 < bz.size; k += 3)
        path->cubicTo(toScene(bz.list[k]), toScene(bz.list[k + 1]), toScene(bz.list[k + 2]));
      if (bz.eflag != 0) {
        const QPointF base = toScene(bz.list[bz.size - 1]);
        const QPointF tip = toScene(bz.ep);
        path->lineTo(base);
        const QPointF along = tip - base;
        const double length = std::hypot(along.x(), along.y());
        if (length > 0) {
          const QPointF normal(-along.y() / length * 3.5, along.x() / length * 3.5);
          *head = QPolygonF() << tip << base + normal << base - normal;
        }
      }
    }
  };
  for (std::size_t i = 0; i < edges.size(); ++i) {
    QPainterPath path;
    QPolygonF head;
    QPointF labelCentre;
    if (firstHalf[i] != nullptr) {
      addSpline(firstHalf[i], &path, &head);
      head.clear();
      labelCentre = toScene(ND_coord(labelNode[i]));
    } else if (const textlabel_t* label = ED_label(edges[i]); label != nullptr) {
      labelCentre = toScene(label->pos);
    }
    addSpline(edges[i], &path, &head);
    geometry.edgePaths.push_back(path);
    geometry.arrowHeads.push_back(head);
    geometry.labelCentres.push_back(labelCentre);
  }
  for (Agraph_t* cluster : clusters) {
    const boxf cb = GD_bb(cluster);
    const QPointF topLeft = toScene(pointf{cb.LL.x, cb.UR.y});
    const QPointF bottomRight = toScene(pointf{cb.UR.x, cb.LL.y});
    geometry.clusterRects.push_back(QRectF(topLeft, bottomRight));
    const textlabel_t* label = GD_label(cluster);
    geometry.clusterTitleCentres.push_back(label != nullptr ? toScene(label->pos) : topLeft);
  }
  gvFreeLayout(context, graph);
  agclose(graph);
  geometry.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return geometry;
}

bool parseDot(const QByteArray& text, int* nodes, int* edges) {
  graphvizContext();  // sets the error level
  Agraph_t* graph = agmemread(text.constData());
  if (graph == nullptr) return false;
  if (nodes != nullptr) *nodes = agnnodes(graph);
  if (edges != nullptr) *edges = agnedges(graph);
  agclose(graph);
  return true;
}

}  // namespace gwb::ui
