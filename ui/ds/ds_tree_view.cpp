#include "ui/ds/ds_tree_view.h"

#include <algorithm>

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPen>

#include "gwb/ds/ds_tree.h"
#include "ui/common/graph_layout.h"
#include "ui/ds/ds_record_format.h"
#include "ui/ds/ds_tree_model.h"

namespace gwb::ui {

namespace {

constexpr double kPadX = 7.0;
constexpr double kPadY = 5.0;
constexpr int kWrapChars = 56;

const QColor kRequirementColor(0xc0, 0x1c, 0x1c);
const QColor kPointerColor(0x1f, 0x5f, 0xd0);
const QColor kLinkFill(0xff, 0xf6, 0xd5);
const QColor kUnfixedFill(0xef, 0xe6, 0xff);

QFont mono(double points) {
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  f.setPointSizeF(points);
  return f;
}

// Breaks long one-line formulas (functions, merges) after a separator near kWrapChars.
QStringList wrapped(const QString& text) {
  QStringList out;
  QString rest = text;
  while (rest.size() > kWrapChars) {
    int cut = -1;
    for (int i = kWrapChars; i > kWrapChars / 2 && cut < 0; --i)
      if (rest[i] == QLatin1Char(' ') || rest[i] == QLatin1Char('|')) cut = i + 1;
    if (cut < 0) cut = kWrapChars;
    out << rest.left(cut);
    rest = QStringLiteral("  ") + rest.mid(cut);
  }
  out << rest;
  return out;
}

std::vector<TextLine> nodeLines(const gwb::ds::DsNode& node, bool pointer) {
  std::vector<TextLine> lines;
  lines.push_back({QString::fromStdString(node.address.toString()) +
                       (pointer ? QStringLiteral("   \u25C7") : QString()),
                   sansFont(8.0, true), pointer ? kPointerColor : QColor(0x55, 0x66, 0x77)});
  QStringList others;
  std::vector<TextLine> requirements;
  for (const gwb::ds::LabelPtr& l : node.labels) {
    const QString text = QString::fromStdString(l->text());
    const gwb::ds::Label* inner = l->isRequirement() ? l->child().get() : l.get();
    if (inner->kind() == gwb::ds::LabelKind::Type) {
      lines.push_back(
          {text, sansFont(9.5, true), l->isRequirement() ? kRequirementColor : Qt::black});
    } else if (l->kind() == gwb::ds::LabelKind::Formula) {
      continue;  // below
    } else if (l->isRequirement()) {
      requirements.push_back({text, sansFont(9.0), kRequirementColor});
    } else {
      others << text;
    }
  }
  if (const gwb::ds::FormulaPtr f = node.formula()) {
    const QFont font = mono(8.5);
    if (f->isRecord()) {
      const QString text = QString::fromStdString(formatFormula(f)).trimmed();
      lines.push_back({QStringLiteral("fo("), font, QColor(0x33, 0x33, 0x33)});
      for (const QString& l : text.split(QLatin1Char('\n'))) lines.push_back({l, font});
      lines.back().text += QStringLiteral(")");
    } else {
      for (const QString& l :
           wrapped(QStringLiteral("fo(%1)").arg(QString::fromStdString(f->text()))))
        lines.push_back({l, font});
    }
  }
  for (TextLine& r : requirements) lines.push_back(std::move(r));
  if (!others.isEmpty())
    lines.push_back({others.join(QStringLiteral(", ")), sansFont(8.0), QColor(0x77, 0x77, 0x77)});
  return lines;
}

QString edgeMark(const gwb::ds::NodeAddress& child) {
  const char step = child.lastStep();
  if (step == 'L' || step == '*' || step == 'U') return QString(QLatin1Char(step));
  return {};
}

std::string dotEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

DsTreeView::DsTreeView(DsTreeModel* model, QWidget* parent) : DsGraphCanvas(parent), model_(model) {
  connect(model_, &QAbstractItemModel::modelReset, this, &DsTreeView::redraw);
  setMinimumFitZoom(0.6);
}

DsTreeView::~DsTreeView() = default;

QRectF DsTreeView::nodeRect(const QString& address) const {
  const gwb::ds::DsTree* tree = model_->tree();
  if (tree == nullptr) return {};
  for (std::size_t i = 0; i < tree->size() && i < nodeRects_.size(); ++i)
    if (QString::fromStdString(tree->node(i).address.toString()) == address) return nodeRects_[i];
  return {};
}

void DsTreeView::redraw() {
  QGraphicsScene* scene = graphScene();
  scene->clear();
  nodeRects_.clear();
  const gwb::ds::DsTree* tree = model_->tree();
  if (tree == nullptr) return;
  const std::size_t n = tree->size();
  std::vector<std::vector<TextLine>> content(n);
  GraphSpec spec;
  spec.orderedChildren = true;
  spec.arrowHeads = false;
  spec.nodeSeparation = 14;
  spec.rankSeparation = 26;
  const QFont markFont = sansFont(9.0, true);
  std::vector<int> edgeChild;
  for (std::size_t i = 0; i < n; ++i) {
    content[i] = nodeLines(tree->node(i), tree->node(i).address == tree->pointer());
    const QSizeF s = measureTextLines(content[i]);
    spec.nodes.push_back({QSizeF(s.width() + 2 * kPadX, s.height() + 2 * kPadY), -1});
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (int child : model_->childrenOf(static_cast<int>(i))) {
      const QString mark = edgeMark(tree->node(static_cast<std::size_t>(child)).address);
      QSizeF label;
      if (!mark.isEmpty()) label = QSizeF(QFontMetricsF(markFont).horizontalAdvance(mark) + 6, 14);
      spec.edges.push_back({static_cast<int>(i), child, label});
      edgeChild.push_back(child);
    }
  }
  const GraphGeometry g = layoutGraph(spec);
  lastLayoutMs_ = g.milliseconds;
  if (!g.ok()) {
    scene->addSimpleText(g.error)->setBrush(kRequirementColor);
    return;
  }
  for (std::size_t e = 0; e < spec.edges.size(); ++e) {
    const gwb::ds::NodeAddress& child = tree->node(static_cast<std::size_t>(edgeChild[e])).address;
    const QString mark = edgeMark(child);
    QPen pen(QColor(0x44, 0x44, 0x44), 1.3);
    if (mark == QLatin1String("L")) pen.setStyle(Qt::DashLine);
    if (mark == QLatin1String("*") || mark == QLatin1String("U")) pen.setStyle(Qt::DotLine);
    scene->addPath(g.edgePaths[e], pen)->setZValue(1);
    if (!mark.isEmpty()) {
      auto* text = scene->addSimpleText(mark, markFont);
      text->setBrush(QColor(0x55, 0x55, 0x55));
      const QRectF r = text->boundingRect();
      text->setPos(g.labelCentres[e] - QPointF(r.width() / 2, r.height() / 2));
    }
  }
  nodeRects_.assign(n, QRectF());
  for (std::size_t i = 0; i < n; ++i) {
    const gwb::ds::DsNode& node = tree->node(i);
    const bool pointer = node.address == tree->pointer();
    const QSizeF size = spec.nodes[i].size;
    const QRectF rect(g.nodeCentres[i] - QPointF(size.width() / 2, size.height() / 2), size);
    nodeRects_[i] = rect;
    QPen pen(QColor(0x66, 0x66, 0x66), 1.0);
    QColor fill = Qt::white;
    if (node.address.isLinked()) fill = kLinkFill;
    if (!node.address.isFixed()) {
      fill = kUnfixedFill;
      pen.setStyle(Qt::DashLine);
    }
    if (pointer) pen = QPen(kPointerColor, 2.6);
    QPainterPath shape;
    shape.addRoundedRect(rect, 4, 4);
    auto* box = scene->addPath(shape, pen, fill);
    box->setZValue(2);
    box->setData(kItemIdKey, static_cast<int>(i));
    addTextLines(box, content[i], QPointF(rect.left() + kPadX, rect.top() + kPadY));
  }
  QRectF pointer;
  for (std::size_t i = 0; i < n; ++i)
    if (tree->node(i).address == tree->pointer()) pointer = nodeRects_[i];
  drawingChanged(pointer);
}

std::string DsTreeView::treeDot() const {
  std::string out = "digraph ds_tree {\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n";
  const gwb::ds::DsTree* tree = model_->tree();
  if (tree != nullptr) {
    for (std::size_t i = 0; i < tree->size(); ++i) {
      const gwb::ds::DsNode& node = tree->node(i);
      std::string label = node.address.toString();
      if (node.address == tree->pointer()) label += " \u25C7";
      for (const gwb::ds::LabelPtr& l : node.labels) label += "\n" + l->text();
      out += "  t" + std::to_string(i) + " [label=\"" + dotEscape(label) + "\"";
      if (node.address == tree->pointer()) out += ", penwidth=2.5, color=blue";
      if (!node.address.isFixed()) out += ", style=dashed";
      out += "];\n";
    }
    for (std::size_t i = 0; i < tree->size(); ++i) {
      for (int child : model_->childrenOf(static_cast<int>(i))) {
        const QString mark = edgeMark(tree->node(static_cast<std::size_t>(child)).address);
        out += "  t" + std::to_string(i) + " -> t" + std::to_string(child) + " [arrowhead=none";
        if (mark == QLatin1String("L")) out += ", style=dashed, label=\"L\"";
        if (mark == QLatin1String("*") || mark == QLatin1String("U"))
          out += ", style=dotted, label=\"" + mark.toStdString() + "\"";
        out += "];\n";
      }
    }
  }
  return out + "}\n";
}

}  // namespace gwb::ui
