// DsGraphCanvas: the zoomable, clickable QGraphicsView under the DS stepper's drawings (the
// parse DAG and the partial tree), with image export.
//
// Items that stand for something clickable carry an id in data(kItemIdKey) (or, for a second
// kind of thing, in data(kSecondaryIdKey)); a left click (not a drag) on one emits
// itemClicked(id) (secondaryItemClicked(id)). Ctrl+wheel zooms around the cursor, dragging pans.
// Fitting has three modes: Readable (the start, and after each new parse) fits every new drawing
// into the view down to a minimum zoom, below which the view keeps that zoom and scrolls to a
// focus instead, so text stays legible; Whole (the Fit button) fits the whole drawing whatever
// the zoom it takes, and keeps doing so as the drawing changes; Manual (after the user zooms)
// leaves the zoom alone.
// renderPng/renderSvg draw the whole scene (on white, PNG at `scale` pixels per point).
//
// TextLine, measureTextLines and addTextLines are the boxes of text both drawings put in their
// nodes: lines of their own font and colour, measured together, drawn left-aligned.
#pragma once

#include <vector>

#include <QByteArray>
#include <QColor>
#include <QFont>
#include <QGraphicsView>
#include <QImage>
#include <QPointF>
#include <QSizeF>
#include <QString>

class QGraphicsItem;
class QGraphicsScene;

namespace gwb::ui {

// One line of text in a node of a drawing.
struct TextLine {
  QString text;
  QFont font;
  QColor color = Qt::black;
};

// The application's sans-serif font at `points`.
QFont sansFont(double points, bool bold = false);
// The width of the widest line and the height of all of them.
QSizeF measureTextLines(const std::vector<TextLine>& lines);
// Draws `lines` as children of `parent`, left-aligned, the first line's top left at `topLeft`.
void addTextLines(QGraphicsItem* parent, const std::vector<TextLine>& lines, QPointF topLeft);

class DsGraphCanvas : public QGraphicsView {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsGraphCanvas)

 public:
  static constexpr int kItemIdKey = 0;
  static constexpr int kSecondaryIdKey = 1;
  enum class FitMode { Readable, Whole, Manual };

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
  void zoomToFit();          // fits the whole drawing, now and after each change (Whole)
  void zoomToReadableFit();  // back to the Readable mode
  FitMode fitMode() const { return fitMode_; }
  bool autoFit() const { return fitMode_ != FitMode::Manual; }

  QImage renderImage(double scale = 2.0) const;
  QByteArray renderPng(double scale = 2.0) const;
  QByteArray renderSvg(const QString& title) const;

 signals:
  void itemClicked(int id);
  void secondaryItemClicked(int id);

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fit();

  QGraphicsScene* scene_ = nullptr;
  FitMode fitMode_ = FitMode::Readable;
  double minimumFitZoom_ = 0.05;
  QRectF focus_;
  QPoint pressedAt_;
};

}  // namespace gwb::ui
