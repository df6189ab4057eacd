#include "ui/earley/parse_tree_view.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPdfWriter>
#include <QStyle>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "ui/common/qt_conversions.h"
#include "ui/common/tree_export.h"
#include "ui/common/value_format.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {

namespace {
constexpr double kMargin = 16.0;
constexpr double kBoxPadding = 8.0;
constexpr double kRowGap = 30.0;
constexpr double kMaxYieldWidth = 220.0;
constexpr double kMinZoom = 0.02;
constexpr double kMaxZoom = 8.0;
// A click moves the mouse less than this (in pixels); more is a drag that pans.
constexpr int kClickSlop = 4;
const QColor kHighlightPen(0xb2, 0x45, 0x00);
const QColor kHighlightFill(0xff, 0xd5, 0x4f);

enum class NodeKind { Nonterminal, Word, Collapsed, Triangle };

// One box of the drawing. `original` is the node of the parse tree it stands for.
class NodeItem : public QGraphicsItem {
 public:
  NodeItem(QString label, NodeKind kind, int original, QRectF box, const QFont& font)
      : label_(std::move(label)), kind_(kind), original_(original), box_(box), font_(font) {
    setToolTip(
        kind == NodeKind::Collapsed
            ? QObject::tr("Click to open this subtree; Ctrl+click to show it in the chart")
        : kind == NodeKind::Nonterminal
            ? QObject::tr("Click to collapse this subtree; Ctrl+click to show it in the chart")
            : QString());
    if (kind == NodeKind::Collapsed || kind == NodeKind::Nonterminal)
      setCursor(Qt::PointingHandCursor);
  }
  int original() const { return original_; }
  NodeKind kind() const { return kind_; }
  bool highlighted() const { return highlighted_; }
  void setHighlighted(bool on) {
    if (on == highlighted_) return;
    highlighted_ = on;
    update();
  }
  QRectF boundingRect() const override { return box_.adjusted(-1, -1, 1, 1); }

  void paint(QPainter* painter, const QStyleOptionGraphicsItem* /*option*/,
             QWidget* /*widget*/) override {
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(font_);
    switch (kind_) {
      case NodeKind::Nonterminal:
      case NodeKind::Collapsed:
        if (highlighted_) {
          // The node of the chart item selected in the stepper.
          painter->setPen(QPen(kHighlightPen, 2.5));
          painter->setBrush(kHighlightFill);
        } else {
          painter->setPen(QPen(QColor(0x5b, 0x6b, 0x82), 1));
          painter->setBrush(kind_ == NodeKind::Collapsed ? QColor(0xfd, 0xe6, 0xc8)
                                                         : QColor(0xe8, 0xee, 0xf7));
        }
        painter->drawRoundedRect(box_, 4, 4);
        painter->setPen(QColor(0x1f, 0x2a, 0x3a));
        painter->drawText(box_, Qt::AlignCenter, label_);
        break;
      case NodeKind::Word: {
        QFont italic = font_;
        italic.setItalic(true);
        painter->setFont(italic);
        painter->setPen(QColor(0x2e, 0x6b, 0x30));
        painter->drawText(box_, Qt::AlignCenter, label_);
        break;
      }
      case NodeKind::Triangle: {
        QFont italic = font_;
        italic.setItalic(true);
        painter->setFont(italic);
        painter->setPen(QColor(0x2e, 0x6b, 0x30));
        painter->drawText(box_, Qt::AlignCenter, label_);
        break;
      }
    }
  }

 private:
  QString label_;
  NodeKind kind_;
  int original_;
  QRectF box_;
  QFont font_;
  bool highlighted_ = false;
};

QString yieldOf(const gwb::ParseTree& tree, int node) {
  QStringList words;
  std::vector<int> stack{node};
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const auto& n = tree.node(id);
    if (n.terminal) words << toQString(n.label);
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.push_back(*it);
  }
  return words.join(QLatin1Char(' '));
}
}  // namespace

ParseTreeView::ParseTreeView(QWidget* parent)
    : QWidget(parent),
      scene_(new QGraphicsScene(this)),
      view_(new QGraphicsView(scene_, this)),
      captionLabel_(new QLabel(this)),
      exportButton_(new QToolButton(this)) {
  view_->setDragMode(QGraphicsView::ScrollHandDrag);
  view_->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  view_->setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  view_->setBackgroundBrush(palette().color(QPalette::Base));
  view_->viewport()->installEventFilter(this);
  view_->setAlignment(Qt::AlignHCenter | Qt::AlignTop);

  captionLabel_->setWordWrap(true);
  captionLabel_->setTextFormat(Qt::RichText);
  captionLabel_->setObjectName(QStringLiteral("treeCaption"));

  const auto button = [this](const QString& text, const QString& tip, auto slot) {
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, this, slot);
    return b;
  };
  auto* zoomOut =
      button(tr("\u2212"), tr("Zoom out (Ctrl+wheel)"), [this] { setZoom(zoom() / 1.25); });
  auto* zoomIn = button(tr("+"), tr("Zoom in (Ctrl+wheel)"), [this] { setZoom(zoom() * 1.25); });
  auto* fit = button(tr("Fit"), tr("Zoom to show the whole tree"), [this] { zoomToFit(); });
  auto* actual = button(tr("1:1"), tr("Actual size"), [this] { setZoom(1.0); });
  auto* expand =
      button(tr("Expand all"), tr("Open every collapsed subtree"), [this] { expandAll(); });
  auto* copy = button(tr("Copy brackets"), tr("Copy the tree as Penn Treebank brackets"),
                      [this] { copyBrackets(); });
  parseBox_ = new QComboBox(this);
  parseBox_->setToolTip(tr("The most probable parses of a short sentence, best first"));
  parseBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  parseBox_->hide();
  connect(parseBox_, &QComboBox::activated, this, [this](int index) { showParse(index); });
  exportButton_->setText(tr("Export\u2026"));
  exportButton_->setToolTip(tr("Save the tree as PNG, SVG, PDF, PTB brackets or LaTeX forest"));
  exportButton_->setAutoRaise(true);
  connect(exportButton_, &QToolButton::clicked, this, &ParseTreeView::showExportDialog);

  // The caption on its own line, the controls below it.
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(0, 0, 0, 0);
  bar->addWidget(parseBox_);
  bar->addStretch(1);
  for (QWidget* w :
       {static_cast<QWidget*>(zoomOut), static_cast<QWidget*>(zoomIn), static_cast<QWidget*>(fit),
        static_cast<QWidget*>(actual), static_cast<QWidget*>(expand), static_cast<QWidget*>(copy),
        static_cast<QWidget*>(exportButton_)})
    bar->addWidget(w);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(captionLabel_);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  setTree({}, tr("No parse yet: parse a sentence in the Earley stepper."));
}

ParseTreeView::~ParseTreeView() = default;

namespace {
// The n-best search runs on the UI thread: only where it is quick.
constexpr std::size_t kParsesOffered = 10;
}  // namespace

void ParseTreeView::setSession(const std::shared_ptr<const ParseSession>& session) {
  parses_.clear();
  currentParse_ = 0;
  parseBox_->clear();
  parseBox_->hide();
  if (!session || !session->hasChart()) {
    setTree({}, session ? session->errorText().toHtmlEscaped()
                        : tr("No parse yet: parse a sentence in the Earley stepper."));
    return;
  }
  QStringList words;
  for (const std::string& w : session->words()) words << toQString(w);
  sentence_ = words.join(QLatin1Char(' '));
  const gwb::ParseResult& result = session->result();
  if (session->outcome() == ParseSession::Outcome::Cancelled) {
    setTree({}, tr("The parse was cancelled: no tree."));
    return;
  }
  if (!result.success || result.viterbiTree.empty()) {
    setTree({}, result.failedAt >= 0
                    ? tr("No parse: the sentence cannot continue at word %1, \u201c%2\u201d.")
                          .arg(result.failedAt + 1)
                          .arg(words.value(result.failedAt).toHtmlEscaped())
                    : tr("No parse: the grammar cannot derive this sentence."));
    return;
  }
  logSentence_ = result.logProbability;
  // The runners-up, lazily off the chart (gwb/earley/kbest.h): any sentence that parses has them.
  parses_ = gwb::kBestParses(session->chart(), kParsesOffered);
  // The parser's own Viterbi tree always comes first (a tie may order the search otherwise).
  if (parses_.empty() || parses_.front().tree.toPtb() != result.viterbiTree.toPtb()) {
    const std::string viterbi = result.viterbiTree.toPtb();
    parses_.erase(std::remove_if(parses_.begin(), parses_.end(),
                                 [&](const RankedParse& p) { return p.tree.toPtb() == viterbi; }),
                  parses_.end());
    parses_.insert(parses_.begin(), {result.viterbiTree, result.viterbiLogProbability});
  }
  if (parses_.size() > 1) {
    for (std::size_t i = 0; i < parses_.size(); ++i) {
      parseBox_->addItem(tr("Parse %1 of %2%3: %4")
                             .arg(i + 1)
                             .arg(parses_.size())
                             .arg(i == 0 ? tr(" (Viterbi)") : QString())
                             .arg(formatProbabilityFromLog(parses_[i].logProbability)));
    }
    parseBox_->show();
  }
  showParse(0);
}

void ParseTreeView::showParse(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= parses_.size()) return;
  currentParse_ = index;
  if (parseBox_->currentIndex() != index) parseBox_->setCurrentIndex(index);
  const RankedParse& parse = parses_[static_cast<std::size_t>(index)];
  const double logShare = parse.logProbability - logSentence_;
  const QString share =
      logShare > std::log(0.001)
          ? QString::number(100.0 * std::exp(logShare), 'f', logShare > -1e-9 ? 0 : 1) %
                QLatin1Char('%')
          : formatReadableProbabilityFromLog(logShare, 2);
  const QString title =
      index == 0 ? tr("<b>Viterbi parse</b>") : tr("<b>Parse %1</b>").arg(index + 1);
  setTree(parse.tree, tr("%1 \u00b7 P(tree) = %2 \u00b7 P(sentence) = %3 \u00b7 this tree "
                         "carries %4 of the sentence's probability")
                          .arg(title, formatReadableProbabilityFromLog(parse.logProbability),
                               formatReadableProbabilityFromLog(logSentence_), share));
  emit stateChanged();
}

void ParseTreeView::setTree(const gwb::ParseTree& tree, const QString& caption) {
  tree_ = tree;
  highlighted_ = -1;
  collapsed_.assign(tree_.size(), false);
  caption_ = caption;
  captionLabel_->setText(caption);
  rebuildScene();
  autoZoom_ = true;
  applyAutoZoom();
}

void ParseTreeView::applyAutoZoom() {
  if (!autoZoom_ || tree_.empty() || !view_->isVisible()) return;
  // Small trees at actual size; big ones fitted to the width, but never below a scale at which
  // labels can still be read: a discourse of thousands of words opens readable, centred on the
  // selected node (or the root) rather than shrunk to an unreadable strip.
  constexpr double kReadableScale = 0.6;
  const QRectF bounds = scene_->sceneRect();
  const double fitWidth = (view_->viewport()->width() - 8) / std::max(bounds.width(), 1.0);
  const double scale = std::clamp(fitWidth, kReadableScale, 1.0);
  view_->setTransform(QTransform::fromScale(scale, scale));
  const QRectF focus = nodeRect(highlighted_ >= 0 ? highlighted_ : tree_.root());
  if (!focus.isNull()) {
    view_->centerOn(focus.center().x(), focus.top());
    view_->ensureVisible(focus, 24, 24);
  }
}

void ParseTreeView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  applyAutoZoom();
}

void ParseTreeView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  applyAutoZoom();
}

QString ParseTreeView::caption() const { return captionLabel_->text(); }

bool ParseTreeView::isCollapsed(int node) const {
  return node >= 0 && static_cast<std::size_t>(node) < collapsed_.size() &&
         collapsed_[static_cast<std::size_t>(node)];
}

void ParseTreeView::setCollapsed(int node, bool collapsed) {
  if (node < 0 || static_cast<std::size_t>(node) >= collapsed_.size()) return;
  if (tree_.node(node).terminal || tree_.node(node).children.empty()) return;
  if (collapsed_[static_cast<std::size_t>(node)] == collapsed) return;
  collapsed_[static_cast<std::size_t>(node)] = collapsed;
  rebuildScene();
  emit stateChanged();
}

void ParseTreeView::toggleCollapsed(int node) { setCollapsed(node, !isCollapsed(node)); }

void ParseTreeView::expandAll() {
  std::fill(collapsed_.begin(), collapsed_.end(), false);
  rebuildScene();
  emit stateChanged();
}

void ParseTreeView::rebuildScene() {
  scene_->clear();
  layout_ = {};
  if (tree_.empty()) {
    scene_->setSceneRect(QRectF());
    return;
  }
  // The tree as drawn: collapsed nodes get one made-up child, the triangle with their words.
  gwb::ParseTree shown;
  std::vector<int> originalOf;  // shown id -> tree id (the collapsed node for a triangle)
  std::vector<NodeKind> kinds;
  std::vector<QString> labels;
  const QFontMetricsF metrics(font());
  QFont italic = font();
  italic.setItalic(true);
  const QFontMetricsF italicMetrics(italic);
  std::vector<double> widths;
  const auto add = [&](int original, NodeKind kind, const QString& label) {
    const int id =
        shown.addNode(label.toStdString(), kind == NodeKind::Word || kind == NodeKind::Triangle);
    originalOf.push_back(original);
    kinds.push_back(kind);
    labels.push_back(label);
    const bool isWord = kind == NodeKind::Word || kind == NodeKind::Triangle;
    widths.push_back((isWord ? italicMetrics : metrics).horizontalAdvance(label) + 2 * kBoxPadding);
    return id;
  };
  std::vector<std::pair<int, int>> stack;  // (tree node, its shown parent)
  stack.emplace_back(tree_.root(), -1);
  while (!stack.empty()) {
    const auto [node, parent] = stack.back();
    stack.pop_back();
    const auto& n = tree_.node(node);
    const bool collapsed = isCollapsed(node);
    const NodeKind kind = n.terminal  ? NodeKind::Word
                          : collapsed ? NodeKind::Collapsed
                                      : NodeKind::Nonterminal;
    const int id = add(node, kind, toQString(n.label));
    if (parent < 0) {
      shown.setRoot(id);
    } else {
      shown.node(parent).children.push_back(id);
    }
    if (collapsed) {
      const QString words =
          italicMetrics.elidedText(yieldOf(tree_, node), Qt::ElideMiddle, kMaxYieldWidth);
      const int triangle = add(node, NodeKind::Triangle, words);
      shown.node(id).children.push_back(triangle);
      continue;
    }
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.emplace_back(*it, id);
  }
  // Children were pushed right to left so they pop left to right; the shown children lists
  // were filled in visiting order, which is left to right.

  TreeLayoutOptions options;
  const double boxHeight = metrics.height() + 6;
  options.levelHeight = boxHeight + kRowGap;
  options.siblingGap = 10;
  layout_ = layoutTree(shown, widths, {}, options);

  // Edges first (under the boxes); a triangle for collapsed subtrees.
  QPainterPath edges;
  QPainterPath triangles;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const TreeLayoutNode& p = layout_.nodes[i];
    for (int c : shown.node(static_cast<int>(i)).children) {
      const TreeLayoutNode& child = layout_.nodes[static_cast<std::size_t>(c)];
      const QPointF from(p.x + kMargin, p.y + boxHeight + kMargin);
      if (kinds[static_cast<std::size_t>(c)] == NodeKind::Triangle) {
        const double half = std::min(child.width, kMaxYieldWidth) / 2.0;
        QPolygonF shape;
        shape << from << QPointF(child.x - half + kMargin, child.y + kMargin)
              << QPointF(child.x + half + kMargin, child.y + kMargin) << from;
        triangles.addPolygon(shape);
      } else {
        edges.moveTo(from);
        edges.lineTo(child.x + kMargin, child.y + kMargin);
      }
    }
  }
  auto* edgeItem = scene_->addPath(edges, QPen(QColor(0x7a, 0x86, 0x99), 1.2));
  edgeItem->setZValue(-1);
  auto* triangleItem = scene_->addPath(triangles, QPen(QColor(0xd2, 0x78, 0x12), 1.2),
                                       QColor(0xfd, 0xe6, 0xc8, 120));
  triangleItem->setZValue(-1);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const TreeLayoutNode& node = layout_.nodes[i];
    const QRectF box(node.x - node.width / 2 + kMargin, node.y + kMargin, node.width, boxHeight);
    auto* item = new NodeItem(labels[i], kinds[i], originalOf[i], box, font());
    item->setHighlighted(kinds[i] != NodeKind::Triangle && originalOf[i] == highlighted_ &&
                         highlighted_ >= 0);
    scene_->addItem(item);
  }
  scene_->setSceneRect(
      QRectF(0, 0, layout_.width + 2 * kMargin, layout_.height - kRowGap + 2 * kMargin));
}

int ParseTreeView::nodeAt(const QPointF& scenePosition) const {
  for (QGraphicsItem* item : scene_->items(scenePosition)) {
    if (auto* node = dynamic_cast<NodeItem*>(item)) return node->original();
  }
  return -1;
}

QRectF ParseTreeView::nodeRect(int node) const {
  for (QGraphicsItem* item : scene_->items()) {
    auto* n = dynamic_cast<NodeItem*>(item);
    if (n && n->original() == node && n->kind() != NodeKind::Triangle)
      return n->boundingRect().adjusted(1, 1, -1, -1);
  }
  return {};
}

void ParseTreeView::setHighlightedNode(int node) {
  if (node < 0 || static_cast<std::size_t>(node) >= tree_.size()) node = -1;
  if (node == highlighted_) return;
  highlighted_ = node;
  for (QGraphicsItem* item : scene_->items()) {
    if (auto* n = dynamic_cast<NodeItem*>(item))
      n->setHighlighted(n->kind() != NodeKind::Triangle && n->original() == node && node >= 0);
  }
  const QRectF box = nodeRect(node);
  if (!box.isNull()) view_->ensureVisible(box, 24, 24);
}

void ParseTreeView::showNodeMenu(int node, const QPoint& globalPosition) {
  if (node < 0 || tree_.node(node).terminal) return;
  QMenu menu(this);
  // The tab shows the equivalent gesture where a shortcut would be.
  QAction* show = menu.addAction(tr("Show in chart\tCtrl+click"));
  QAction* collapse = nullptr;
  if (!tree_.node(node).children.empty())
    collapse = menu.addAction(isCollapsed(node) ? tr("Open subtree") : tr("Collapse subtree"));
  QAction* chosen = menu.exec(globalPosition);
  if (chosen == show) {
    emit showInChartRequested(node);
  } else if (chosen != nullptr && chosen == collapse) {
    toggleCollapsed(node);
  }
}

double ParseTreeView::zoom() const { return view_->transform().m11(); }

void ParseTreeView::setZoom(double zoom) {
  autoZoom_ = false;
  zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  view_->setTransform(QTransform::fromScale(zoom, zoom));
  emit stateChanged();
}

void ParseTreeView::zoomToFit() {
  if (tree_.empty()) return;
  const QRectF bounds = scene_->sceneRect();
  const double sx = (view_->viewport()->width() - 8) / std::max(bounds.width(), 1.0);
  const double sy = (view_->viewport()->height() - 8) / std::max(bounds.height(), 1.0);
  setZoom(std::min(sx, sy));
}

bool ParseTreeView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_->viewport()) {
    if (auto* wheel = dynamic_cast<QWheelEvent*>(event)) {
      if (wheel->modifiers().testFlag(Qt::ControlModifier)) {
        setZoom(zoom() * std::pow(1.0015, wheel->angleDelta().y()));
        return true;
      }
    } else if (auto* mouse = dynamic_cast<QMouseEvent*>(event)) {
      const QPoint at = mouse->position().toPoint();
      if (event->type() == QEvent::MouseButtonPress) {
        pressedAt_ = at;
      } else if (event->type() == QEvent::MouseButtonRelease && mouse->button() == Qt::LeftButton &&
                 (at - pressedAt_).manhattanLength() <= kClickSlop) {
        const int node = nodeAt(view_->mapToScene(at));
        if (node >= 0 && mouse->modifiers().testFlag(Qt::ControlModifier)) {
          // Ctrl+click links to the chart and leaves the subtree as it is.
          if (!tree_.node(node).terminal) emit showInChartRequested(node);
        } else if (node >= 0) {
          toggleCollapsed(node);
        }
      }
    } else if (event->type() == QEvent::ContextMenu) {
      auto* menuEvent = static_cast<QContextMenuEvent*>(event);
      const int node = nodeAt(view_->mapToScene(menuEvent->pos()));
      if (node >= 0 && !tree_.node(node).terminal) {
        showNodeMenu(node, menuEvent->globalPos());
        return true;
      }
    }
  }
  return QWidget::eventFilter(watched, event);
}

QImage ParseTreeView::renderImage(double scale) const {
  const QRectF source = scene_->sceneRect();
  QImage image((source.size() * scale).toSize().expandedTo(QSize(1, 1)),
               QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene_->render(&painter, QRectF(QPointF(0, 0), source.size() * scale), source);
  return image;
}

QByteArray ParseTreeView::renderSvg() const {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  const QRectF source = scene_->sceneRect();
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(source.size().toSize());
  generator.setViewBox(QRectF(QPointF(0, 0), source.size()));
  generator.setTitle(tr("Parse tree"));
  generator.setDescription(sentence_);
  QPainter painter(&generator);
  scene_->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  painter.end();
  return bytes;
}

QByteArray ParseTreeView::renderPdf() const {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  const QRectF source = scene_->sceneRect();
  QPdfWriter writer(&buffer);
  writer.setTitle(tr("Parse tree"));
  writer.setCreator(QStringLiteral("Grammar Workbench"));
  writer.setResolution(72);
  writer.setPageSize(QPageSize(source.size().expandedTo(QSizeF(1, 1)), QPageSize::Point));
  writer.setPageMargins(QMarginsF(0, 0, 0, 0));
  QPainter painter(&writer);
  scene_->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  painter.end();
  return bytes;
}

QString ParseTreeView::ptbText() const { return treeToPtb(tree_) % QLatin1Char('\n'); }

QString ParseTreeView::forestText() const {
  if (sentence_.isEmpty()) return treeToForest(tree_, tr("Parse tree from Grammar Workbench"));
  // Only the first of the ranked parses is the Viterbi one; the others are runners-up.
  const bool ranked = static_cast<std::size_t>(currentParse_) < parses_.size();
  const QString which =
      !ranked || currentParse_ == 0
          ? tr("Viterbi parse")
          : tr("Parse %1 of %2 (P = %3)")
                .arg(currentParse_ + 1)
                .arg(parses_.size())
                .arg(formatProbabilityFromLog(
                    parses_[static_cast<std::size_t>(currentParse_)].logProbability));
  return treeToForest(tree_, tr("%1 of \u201c%2\u201d (Grammar Workbench)").arg(which, sentence_));
}

std::optional<ParseTreeView::ExportFormat> ParseTreeView::formatForPath(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return ExportFormat::Png;
  if (suffix == QLatin1String("svg")) return ExportFormat::Svg;
  if (suffix == QLatin1String("pdf")) return ExportFormat::Pdf;
  if (suffix == QLatin1String("ptb") || suffix == QLatin1String("mrg") ||
      suffix == QLatin1String("txt"))
    return ExportFormat::Ptb;
  if (suffix == QLatin1String("tex")) return ExportFormat::Forest;
  return std::nullopt;
}

bool ParseTreeView::exportFile(const QString& path, QString* error) const {
  if (tree_.empty()) {
    if (error) *error = tr("There is no tree to export.");
    return false;
  }
  const auto format = formatForPath(path);
  if (!format) {
    if (error) *error = tr("Unknown file type: use .png, .svg, .pdf, .ptb or .tex (LaTeX forest).");
    return false;
  }
  QByteArray bytes;
  switch (*format) {
    case ExportFormat::Png: {
      QBuffer buffer(&bytes);
      buffer.open(QIODevice::WriteOnly);
      if (!renderImage().save(&buffer, "PNG")) {
        if (error) *error = tr("Could not encode the PNG image.");
        return false;
      }
      break;
    }
    case ExportFormat::Svg: bytes = renderSvg(); break;
    case ExportFormat::Pdf: bytes = renderPdf(); break;
    case ExportFormat::Ptb: bytes = ptbText().toUtf8(); break;
    case ExportFormat::Forest: bytes = forestText().toUtf8(); break;
  }
  return saveBytesAtomically(path, bytes, error);
}

void ParseTreeView::showExportDialog() {
  if (tree_.empty()) return;
  QString filter = tr("PNG image (*.png)");
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export Parse Tree"), QStringLiteral("parse-tree.png"),
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf);;"
         "Penn Treebank brackets (*.ptb);;LaTeX forest (*.tex)"),
      &filter);
  if (path.isEmpty()) return;
  QString target = path;
  if (!formatForPath(target)) {
    const qsizetype open = filter.lastIndexOf(QStringLiteral("*."));
    if (open >= 0) target += filter.mid(open + 1).chopped(1);
  }
  QString error;
  if (!exportFile(target, &error))
    QMessageBox::warning(this, tr("Export Parse Tree"),
                         tr("Could not export to %1:\n%2").arg(target, error));
}

void ParseTreeView::copyBrackets() {
  if (!tree_.empty()) QApplication::clipboard()->setText(treeToPtb(tree_));
}

QJsonObject ParseTreeView::state() const {
  QJsonArray collapsed;
  for (std::size_t i = 0; i < collapsed_.size(); ++i)
    if (collapsed_[i]) collapsed.append(static_cast<int>(i));
  return QJsonObject{{QStringLiteral("zoom"), zoom()},
                     {QStringLiteral("parse"), currentParse_},
                     {QStringLiteral("collapsed"), collapsed}};
}

void ParseTreeView::restoreState(const QJsonObject& state) {
  showParse(state.value(QStringLiteral("parse")).toInt(0));
  std::fill(collapsed_.begin(), collapsed_.end(), false);
  for (const auto& value : state.value(QStringLiteral("collapsed")).toArray()) {
    const int node = value.toInt(-1);
    if (node >= 0 && static_cast<std::size_t>(node) < collapsed_.size() &&
        !tree_.node(node).terminal)
      collapsed_[static_cast<std::size_t>(node)] = true;
  }
  rebuildScene();
  if (state.contains(QStringLiteral("zoom")))
    setZoom(state.value(QStringLiteral("zoom")).toDouble(1.0));
}

}  // namespace gwb::ui
