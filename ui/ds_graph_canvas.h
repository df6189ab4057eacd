// DsGraphCanvas: the zoomable, clickable QGraphicsView under the DS stepper's drawings (the
// parse DAG and the partial tree), with image export.
//
// Items that stand for something clickable carry an id in data(kItemIdKey); a left click (not
// a drag) on one emits itemClicked(id). Ctrl+wheel zooms around the cursor, dragging pans. While
// auto-fit is on (until the user zooms), every new drawing is fitted into the view (down to a
// minimum zoom, below which the view centres on a focus instead).
// renderPng/renderSvg draw the whole scene (on white, PNG at `scale` pixels per point).
#pragma once

#include <QByteArray>
#include <QGraphicsView>
#include <QImage>
#include <QString>

class QGraphicsScene;

namespace gwb::ui {

class DsGraphCanvas : public QGraphicsView {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsGraphCanvas)

 public:
  static constexpr int kItemIdKey = 0;

  explicit DsGraphCanvas(QWidget* parent = nullptr);
  ~DsGraphCanvas() override;

  QGraphicsScene* graphScene() const { return scene_; }
  // Call after redrawing the scene: fits it when auto-fit is on. A drawing too large to fit at
  // the minimum fit zoom (so that its text stays readable) is shown at that zoom, centred on
  // `focus` (or on its middle when `focus` is empty).
  void drawingChanged(const QRectF& focus = QRectF());
  void setMinimumFitZoom(double zoom) { minimumFitZoom_ = zoom; }

  double zoom() const;
  void setZoom(double zoom);  // turns auto-fit off
  void zoomIn() { setZoom(zoom() * 1.25); }
  void zoomOut() { setZoom(zoom() / 1.25); }
  void zoomToFit();  // turns auto-fit back on
  bool autoFit() const { return autoFit_; }

  QImage renderImage(double scale = 2.0) const;
  QByteArray renderPng(double scale = 2.0) const;
  QByteArray renderSvg(const QString& title) const;

 signals:
  void itemClicked(int id);

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fit();

  QGraphicsScene* scene_ = nullptr;
  bool autoFit_ = true;
  double minimumFitZoom_ = 0.05;
  QRectF focus_;
  QPoint pressedAt_;
};

}  // namespace gwb::ui
