#include "ui/ds/ds_graph_canvas.h"

#include <algorithm>
#include <cmath>

#include <QBuffer>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QWheelEvent>

namespace gwb::ui {

namespace {
constexpr double kMinZoom = 0.05;
constexpr double kMinFitZoom = 0.005;  // Fit shows everything, even a DAG of thousands of trees
constexpr double kMaxZoom = 8.0;
constexpr int kClickSlop = 4;
}  // namespace

QFont sansFont(double points, bool bold) {
  QFont font;
  font.setPointSizeF(points);
  font.setBold(bold);
  return font;
}

QSizeF measureTextLines(const std::vector<TextLine>& lines) {
  double width = 0.0;
  double height = 0.0;
  for (const TextLine& line : lines) {
    const QFontMetricsF metrics(line.font);
    width = std::max(width, metrics.horizontalAdvance(line.text));
    height += metrics.lineSpacing();
  }
  return {width, height};
}

void addTextLines(QGraphicsItem* parent, const std::vector<TextLine>& lines, QPointF topLeft) {
  double y = topLeft.y();
  for (const TextLine& line : lines) {
    auto* item = new QGraphicsSimpleTextItem(line.text, parent);
    item->setFont(line.font);
    item->setBrush(line.color);
    item->setPos(topLeft.x(), y);
    y += QFontMetricsF(line.font).lineSpacing();
  }
}

DsGraphCanvas::DsGraphCanvas(QWidget* parent)
    : QGraphicsView(parent), scene_(new QGraphicsScene(this)) {
  setScene(scene_);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setBackgroundBrush(Qt::white);
}

DsGraphCanvas::~DsGraphCanvas() = default;

void DsGraphCanvas::drawingChanged(const QRectF& focus) {
  focus_ = focus;
  if (autoFit()) fit();
}

double DsGraphCanvas::zoom() const { return transform().m11(); }

void DsGraphCanvas::setZoom(double zoom) {
  fitMode_ = FitMode::Manual;
  zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  setTransform(QTransform::fromScale(zoom, zoom));
}

void DsGraphCanvas::zoomToFit() {
  fitMode_ = FitMode::Whole;
  fit();
}

void DsGraphCanvas::zoomToReadableFit() {
  fitMode_ = FitMode::Readable;
  fit();
}

void DsGraphCanvas::fit() {
  const QRectF bounds = scene_->itemsBoundingRect();
  if (bounds.isEmpty()) return;
  scene_->setSceneRect(bounds.adjusted(-8, -8, 8, 8));
  const QRectF rect = scene_->sceneRect();
  // The scroll bars may come and go with the zoom: fit into the viewport without them.
  const QSize room = maximumViewportSize();
  const double sx = (room.width() - 4) / std::max(rect.width(), 1.0);
  const double sy = (room.height() - 4) / std::max(rect.height(), 1.0);
  // Never blow a small drawing up past 1.5x: a two-node DAG should not fill the screen.
  const double fitted = std::min(sx, sy);
  const double floor =
      fitMode_ == FitMode::Whole ? kMinFitZoom : std::max(kMinZoom, minimumFitZoom_);
  const double z = std::clamp(fitted, floor, 1.5);
  setTransform(QTransform::fromScale(z, z));
  centerOn(fitted < z && !focus_.isEmpty() ? focus_.center() : rect.center());
}

void DsGraphCanvas::wheelEvent(QWheelEvent* event) {
  if (event->modifiers().testFlag(Qt::ControlModifier)) {
    setZoom(zoom() * std::pow(1.0015, event->angleDelta().y()));
    event->accept();
    return;
  }
  QGraphicsView::wheelEvent(event);
}

void DsGraphCanvas::mousePressEvent(QMouseEvent* event) {
  pressedAt_ = event->position().toPoint();
  QGraphicsView::mousePressEvent(event);
}

void DsGraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
  QGraphicsView::mouseReleaseEvent(event);
  const QPoint at = event->position().toPoint();
  if (event->button() != Qt::LeftButton || (at - pressedAt_).manhattanLength() > kClickSlop) return;
  for (QGraphicsItem* item : items(at)) {
    for (QGraphicsItem* i = item; i != nullptr; i = i->parentItem()) {
      const QVariant id = i->data(kItemIdKey);
      if (id.isValid()) {
        emit itemClicked(id.toInt());
        return;
      }
      const QVariant secondary = i->data(kSecondaryIdKey);
      if (secondary.isValid()) {
        emit secondaryItemClicked(secondary.toInt());
        return;
      }
    }
  }
}

void DsGraphCanvas::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  if (autoFit()) fit();
}

QImage DsGraphCanvas::renderImage(double scale) const {
  const QRectF source = scene_->itemsBoundingRect().adjusted(-8, -8, 8, 8);
  QImage image((source.size() * scale).toSize().expandedTo(QSize(1, 1)),
               QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene_->render(&painter, QRectF(QPointF(0, 0), source.size() * scale), source);
  return image;
}

QByteArray DsGraphCanvas::renderPng(double scale) const {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  renderImage(scale).save(&buffer, "PNG");
  return bytes;
}

QByteArray DsGraphCanvas::renderSvg(const QString& title) const {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  const QRectF source = scene_->itemsBoundingRect().adjusted(-8, -8, 8, 8);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(source.size().toSize());
  generator.setViewBox(QRectF(QPointF(0, 0), source.size()));
  generator.setTitle(title);
  QPainter painter(&generator);
  scene_->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  painter.end();
  return bytes;
}

}  // namespace gwb::ui
