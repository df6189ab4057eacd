#include "ui/ds/ds_dag_view.h"

#include <algorithm>

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QStringList>

#include "ui/ds/ds_dag_model.h"

namespace gwb::ui {

namespace {

constexpr double kPadX = 6.0;
constexpr double kPadY = 4.0;
constexpr int kNodeLabelChars = 40;

const QColor kPathColor(0xd0, 0x1c, 0x1c);
const QColor kPartialPathColor(0xe0, 0x7b, 0x00);
const QColor kCompleteColor(0x1a, 0x7f, 0x37);
const QColor kSelectedFill(0xcf, 0xe3, 0xff);
const QColor kLatestFill(0xff, 0xf4, 0xb8);

QFont nodeFont(bool bold) { return sansFont(9.0, bold); }
QFont labelFont(bool bold) { return sansFont(8.0, bold); }

QString shortened(const QString& s, int chars) {
  return s.size() <= chars ? s : s.left(chars - 1) + QChar(0x2026);
}

std::vector<TextLine> nodeLines(const gwb::ds::DagNode& node) {
  const gwb::ds::DsTree& tree = *node.tree;
  QStringList labels;
  for (const gwb::ds::LabelPtr& l : tree.pointedNode().labels)
    labels << QString::fromStdString(l->text());
  return {{QStringLiteral("#%1   \u25C7 %2")
               .arg(node.id)
               .arg(QString::fromStdString(tree.pointer().toString())),
           nodeFont(true)},
          {shortened(labels.join(QStringLiteral(", ")), kNodeLabelChars), nodeFont(false),
           QColor(0x33, 0x33, 0x33)}};
}

std::vector<TextLine> edgeLines(const gwb::ds::DagEdge& edge) {
  std::vector<TextLine> lines;
  if (edge.lexical) {
    QString entry = QString::fromStdString(edge.action);
    const QString prefix = QString::fromStdString(edge.word) + QStringLiteral(": ");
    if (entry.startsWith(prefix)) entry = entry.mid(prefix.size());
    lines.push_back(
        {QStringLiteral("\u201C%1\u201D").arg(QString::fromStdString(edge.word)), labelFont(true)});
    if (!entry.isEmpty() && entry != QString::fromStdString(edge.word))
      lines.push_back({entry, labelFont(false)});
  } else {
    lines.push_back({QString::fromStdString(edge.action), labelFont(false)});
  }
  if (!edge.closure.empty()) {
    QStringList names;
    for (const std::string& c : edge.closure) names << QString::fromStdString(c);
    lines.push_back({QStringLiteral("+ ") + names.join(QStringLiteral(", ")), labelFont(false),
                     QColor(0x77, 0x77, 0x77)});
  }
  return lines;
}

// Draws the lines centred on `centre`, as children of `parent` (or top-level in `scene`).
void drawLines(QGraphicsScene* scene, QGraphicsItem* parent, const std::vector<TextLine>& lines,
               QPointF centre) {
  const QSizeF size = measureTextLines(lines);
  double y = centre.y() - size.height() / 2;
  for (const TextLine& l : lines) {
    const QFontMetricsF m(l.font);
    auto* item = new QGraphicsSimpleTextItem(l.text, parent);
    if (parent == nullptr) scene->addItem(item);
    item->setFont(l.font);
    item->setBrush(l.color);
    item->setPos(centre.x() - m.horizontalAdvance(l.text) / 2, y);
    item->setZValue(3);
    y += m.lineSpacing();
  }
}

QString clusterTitle(int level, const std::vector<std::string>& words) {
  if (level == 0) return QObject::tr("start");
  const std::size_t w = static_cast<std::size_t>(level - 1);
  return QStringLiteral("%1 \u00B7 %2")
      .arg(level)
      .arg(w < words.size() ? QString::fromStdString(words[w]) : QString());
}

}  // namespace

DsDagView::DsDagView(DsDagModel* model, QWidget* parent) : DsGraphCanvas(parent), model_(model) {
  connect(model_, &DsDagModel::resultChanged, this, &DsDagView::onResultChanged);
  connect(model_, &DsDagModel::visibleChanged, this, [this] { redraw(); });
  connect(this, &DsGraphCanvas::itemClicked, this, &DsDagView::nodeClicked);
  connect(this, &DsGraphCanvas::secondaryItemClicked, this, &DsDagView::onEdgeLabelClicked);
  setMinimumFitZoom(0.7);  // node labels stay readable; the view follows the newest node
}

DsDagView::~DsDagView() = default;

void DsDagView::setSelectedNode(int id) {
  if (selected_ == id) return;
  const int previous = selected_;
  selected_ = id;
  // A selected tree is always drawn: selecting one inside a folded run redraws.
  if (id >= 0 && !isNodeDrawn(id) && model_->isNodeVisible(id)) {
    redraw();
    return;
  }
  // Only two boxes change colour: no need to rebuild the scene.
  for (const int node : {previous, id}) {
    if (node < 0 || static_cast<std::size_t>(node) >= boxes_.size() ||
        boxes_[static_cast<std::size_t>(node)] == nullptr)
      continue;
    boxes_[static_cast<std::size_t>(node)]->setBrush(nodeFill(node));
  }
  if (id >= 0) {
    if (autoFit())
      drawingChanged(nodeRect(id));
    else
      ensureVisible(nodeRect(id), 40, 40);
  }
}

void DsDagView::setCollapsed(bool collapsed) {
  if (collapsed_ == collapsed) return;
  collapsed_ = collapsed;
  redraw();
}

void DsDagView::setRunExpanded(int anchor, bool expanded) {
  if (expanded ? !expanded_.insert(anchor).second : expanded_.erase(anchor) == 0) return;
  redraw();
}

void DsDagView::onEdgeLabelClicked(int anchor) { setRunExpanded(anchor, !isRunExpanded(anchor)); }

int DsDagView::anchorOf(int id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= anchor_.size()) return -1;
  return anchor_[static_cast<std::size_t>(id)];
}

std::vector<std::string> DsDagView::runActions(int id) const {
  std::vector<std::string> actions;
  const gwb::ds::DsParseResult* r = model_->result();
  if (r == nullptr) return actions;
  for (int n = id; n >= 0 && anchorOf(n) != n;) {
    const gwb::ds::DagEdge& e = r->dag.edges()[static_cast<std::size_t>(r->dag.node(n).inEdge)];
    actions.push_back(e.action);
    n = e.from;
  }
  std::reverse(actions.begin(), actions.end());
  return actions;
}

QColor DsDagView::nodeFill(int id) const {
  if (id == selected_) return kSelectedFill;
  if (id == model_->latestNode()) return kLatestFill;
  return Qt::white;
}

QRectF DsDagView::nodeRect(int id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= nodeRects_.size()) return {};
  return nodeRects_[static_cast<std::size_t>(id)];
}

QSizeF DsDagView::nodeSize(int id) {
  QSizeF& size = nodeSizes_[static_cast<std::size_t>(id)];
  if (size.isEmpty()) {
    const QSizeF s = measureTextLines(nodeLines(model_->result()->dag.node(id)));
    size = QSizeF(s.width() + 2 * kPadX, s.height() + 2 * kPadY);
  }
  return size;
}

bool DsDagView::shows(int id, int latest) const {
  if (!collapsed_) return true;
  const int anchor = anchorOf(id);
  return anchor == id || expanded_.count(anchor) > 0 || id == latest || id == selected_ ||
         model_->result()->dag.node(id).complete;
}

void DsDagView::onResultChanged() {
  cache_.clear();
  nodeSizes_.clear();
  anchor_.clear();
  expanded_.clear();
  selected_ = -1;
  if (const gwb::ds::DsParseResult* r = model_->result()) {
    // Nodes come before the edges into them, and an edge's source before its target: one pass
    // in id order finds every anchor.
    const auto& nodes = r->dag.nodes();
    anchor_.assign(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const int in = nodes[i].inEdge;
      const gwb::ds::DagEdge* e = in >= 0 ? &r->dag.edges()[static_cast<std::size_t>(in)] : nullptr;
      anchor_[i] = (e == nullptr || e->lexical) ? static_cast<int>(i)
                                                : anchor_[static_cast<std::size_t>(e->from)];
    }
    nodeSizes_.assign(nodes.size(), QSizeF());
  }
  zoomToReadableFit();
  redraw();
}

void DsDagView::redraw() {
  QGraphicsScene* scene = graphScene();
  scene->clear();
  nodeRects_.clear();
  boxes_.clear();
  drawnNodes_ = 0;
  drawnEdges_ = 0;
  const gwb::ds::DsParseResult* r = model_->result();
  if (r == nullptr || r->dag.nodes().empty()) {
    geometry_ = GraphGeometry();
    return;
  }
  const int visibleNodes = model_->visibleNodes();
  const int visibleEdges = model_->visibleEdges();
  const int latest = model_->latestNode();

  // What is drawn: the nodes shown, and for each visible edge into a shown node, that edge from
  // its source if shown, else a collapsed edge from the source's anchor (one per pair of nodes).
  std::vector<int> drawnIndex(static_cast<std::size_t>(visibleNodes), -1);
  std::vector<int> drawnNodes;
  for (int i = 0; i < visibleNodes; ++i) {
    if (!shows(i, latest)) continue;
    drawnIndex[static_cast<std::size_t>(i)] = static_cast<int>(drawnNodes.size());
    drawnNodes.push_back(i);
  }
  drawnEdgeList_.clear();
  std::set<std::pair<int, int>> collapsedPairs;
  for (int i = 0; i < visibleEdges; ++i) {
    const gwb::ds::DagEdge& e = r->dag.edges()[static_cast<std::size_t>(i)];
    if (drawnIndex[static_cast<std::size_t>(e.to)] < 0) continue;
    DrawnEdge d;
    d.to = e.to;
    d.edge = i;
    if (drawnIndex[static_cast<std::size_t>(e.from)] >= 0) {
      d.from = e.from;
    } else {
      d.anchor = anchorOf(e.from);
      d.from = d.anchor;
      d.collapsed = static_cast<int>(runActions(e.from).size());
      if (!collapsedPairs.insert({d.from, d.to}).second) continue;
    }
    drawnEdgeList_.push_back(d);
  }
  drawnNodes_ = static_cast<int>(drawnNodes.size());
  drawnEdges_ = static_cast<int>(drawnEdgeList_.size());

  // Edge labels: the action (or word), and for a collapsed edge the run it stands for.
  std::vector<std::vector<TextLine>> edgeLabels;
  for (const DrawnEdge& d : drawnEdgeList_) {
    std::vector<TextLine> lines = edgeLines(r->dag.edges()[static_cast<std::size_t>(d.edge)]);
    if (d.collapsed > 0) {
      QStringList names;
      for (const std::string& a : runActions(r->dag.edges()[static_cast<std::size_t>(d.edge)].from))
        names << QString::fromStdString(a);
      lines.insert(lines.begin(),
                   {shortened((d.collapsed == 1 ? tr("\u22EF 1 action: ")
                                                : tr("\u22EF %1 actions: ").arg(d.collapsed)) +
                                  names.join(QStringLiteral(", ")),
                              kNodeLabelChars),
                    labelFont(false), QColor(0x55, 0x66, 0x99)});
    }
    edgeLabels.push_back(std::move(lines));
  }

  int levels = 0;
  for (int i : drawnNodes) levels = std::max(levels, r->dag.node(i).wordsConsumed);
  std::string key = std::to_string(visibleEdges) + (collapsed_ ? "c" : "f");
  if (collapsed_) {
    for (int a : expanded_) key += "+" + std::to_string(a);
    // The trees drawn only for being the newest or the selected one.
    std::set<int> extra;
    for (const int id : {latest, selected_}) {
      if (id < 0 || id >= visibleNodes) continue;
      const int anchor = anchorOf(id);
      if (anchor != id && expanded_.count(anchor) == 0 && !r->dag.node(id).complete)
        extra.insert(id);
    }
    for (int id : extra) key += "x" + std::to_string(id);
  }
  auto cached = cache_.find(key);
  lastCached_ = cached != cache_.end();
  if (!lastCached_) {
    GraphSpec spec;
    spec.leftToRight = true;
    spec.nodeSeparation = 10;
    spec.rankSeparation = 24;
    for (int level = 0; level <= levels; ++level) {
      const QSizeF title =
          measureTextLines({{clusterTitle(level, model_->words()), nodeFont(true)}});
      spec.clusterTitles.push_back(QSizeF(title.width() + 4, title.height() + 2));
    }
    for (int i : drawnNodes) spec.nodes.push_back({nodeSize(i), r->dag.node(i).wordsConsumed});
    for (std::size_t k = 0; k < drawnEdgeList_.size(); ++k) {
      const QSizeF s = measureTextLines(edgeLabels[k]);
      spec.edges.push_back({drawnIndex[static_cast<std::size_t>(drawnEdgeList_[k].from)],
                            drawnIndex[static_cast<std::size_t>(drawnEdgeList_[k].to)],
                            QSizeF(s.width() + 4, s.height() + 2)});
    }
    GraphGeometry g = layoutGraph(spec);
    lastLayoutMs_ = g.milliseconds;
    ++layoutsComputed_;
    if (cache_.size() > 256) cache_.clear();
    cached = cache_.emplace(key, std::move(g)).first;
  }
  geometry_ = cached->second;
  if (!geometry_.ok()) {
    auto* message = scene->addSimpleText(geometry_.error);
    message->setBrush(kPathColor);
    return;
  }

  const bool success = model_->succeeded();
  const QColor pathColor = success ? kPathColor : kPartialPathColor;
  for (std::size_t c = 0; c < geometry_.clusterRects.size(); ++c) {
    auto* frame = scene->addRect(geometry_.clusterRects[c], QPen(QColor(0xc8, 0xd0, 0xd8), 1.0),
                                 c % 2 == 0 ? QColor(0xf5, 0xf7, 0xfa) : QColor(0xee, 0xf2, 0xf6));
    frame->setZValue(0);
    drawLines(scene, nullptr,
              {{clusterTitle(static_cast<int>(c), model_->words()), nodeFont(true),
                QColor(0x44, 0x55, 0x66)}},
              geometry_.clusterTitleCentres[c]);
  }
  for (std::size_t k = 0; k < drawnEdgeList_.size(); ++k) {
    const DrawnEdge& d = drawnEdgeList_[k];
    const gwb::ds::DagEdge& e = r->dag.edges()[static_cast<std::size_t>(d.edge)];
    const bool onPath = model_->isOnPath(d.edge);
    QPen pen(onPath ? pathColor
                    : (e.lexical ? QColor(0x22, 0x22, 0x22) : QColor(0x88, 0x88, 0x88)));
    pen.setWidthF(onPath ? 2.6 : (e.lexical ? 1.6 : 1.0));
    if (d.collapsed > 0) pen.setStyle(Qt::DashLine);
    auto* path = scene->addPath(geometry_.edgePaths[k], pen);
    path->setZValue(1 + (onPath ? 1 : 0));
    if (!geometry_.arrowHeads[k].isEmpty()) {
      auto* head = scene->addPolygon(geometry_.arrowHeads[k], QPen(pen.color(), 1.0), pen.color());
      head->setZValue(path->zValue());
    }
    std::vector<TextLine>& lines = edgeLabels[k];
    if (onPath)
      for (TextLine& l : lines)
        if (l.color == Qt::black) l.color = pathColor.darker(120);
    drawLines(scene, nullptr, lines, geometry_.labelCentres[k]);
    // A collapsed edge (and, in an expanded run, each edge of the run) folds its run in or out.
    const int anchor = d.collapsed > 0 ? d.anchor : anchorOf(e.from);
    if (collapsed_ && (d.collapsed > 0 || (!e.lexical && isRunExpanded(anchor)))) {
      const QSizeF s = measureTextLines(lines);
      auto* hit = scene->addRect(
          QRectF(geometry_.labelCentres[k] - QPointF(s.width() / 2, s.height() / 2), s), Qt::NoPen,
          Qt::NoBrush);
      hit->setZValue(5);
      hit->setData(kSecondaryIdKey, anchor);
      hit->setCursor(Qt::PointingHandCursor);
      hit->setToolTip(d.collapsed > 0 ? tr("Click to show these actions one by one")
                                      : tr("Click to fold this run of actions into one edge"));
    }
  }
  nodeRects_.assign(static_cast<std::size_t>(visibleNodes), QRectF());
  boxes_.assign(static_cast<std::size_t>(visibleNodes), nullptr);
  for (std::size_t k = 0; k < drawnNodes.size(); ++k) {
    const int i = drawnNodes[k];
    const std::size_t id = static_cast<std::size_t>(i);
    const gwb::ds::DagNode& n = r->dag.node(i);
    const QSizeF size = nodeSize(i);
    const QRectF rect(geometry_.nodeCentres[k] - QPointF(size.width() / 2, size.height() / 2),
                      size);
    nodeRects_[id] = rect;
    const bool onPath = model_->isNodeOnPath(i);
    QPen pen(n.complete ? kCompleteColor : QColor(0x55, 0x55, 0x55));
    pen.setWidthF(n.complete ? 2.0 : 1.0);
    if (onPath && model_->visibleEdges() > 0) {
      pen.setColor(n.complete ? kCompleteColor : pathColor);
      pen.setWidthF(2.2);
    }
    QPainterPath shape;
    shape.addRoundedRect(rect, 5, 5);
    auto* box = scene->addPath(shape, pen, nodeFill(i));
    boxes_[id] = box;
    box->setZValue(4);
    box->setData(kItemIdKey, i);
    box->setCursor(Qt::PointingHandCursor);
    box->setToolTip(QString::fromStdString(n.tree->toString()));
    if (n.complete) {
      QPainterPath inner;
      inner.addRoundedRect(rect.adjusted(3, 3, -3, -3), 3, 3);
      auto* frame = new QGraphicsPathItem(inner, box);
      frame->setPen(QPen(kCompleteColor, 1.0));
    }
    const std::vector<TextLine> lines = nodeLines(n);
    addTextLines(
        box, lines,
        QPointF(rect.left() + kPadX, rect.center().y() - measureTextLines(lines).height() / 2));
  }
  const int focus = selected_ >= 0 && selected_ < visibleNodes ? selected_ : latest;
  drawingChanged(nodeRect(focus));
  if (!autoFit() && focus >= 0) ensureVisible(nodeRect(focus), 40, 40);
}

}  // namespace gwb::ui
