// DiscourseTimeline: one recording of the discourse view as a horizontal timeline — a row per
// label source (gold, annotation files, models), a cell per utterance coloured by its topic.
//
// Geometry: row names sit in a fixed column on the left; utterance u of the recording occupies
// x = nameWidth() + u × cellWidth − scroll .. + cellWidth in every row, under an axis of utterance
// numbers (1-based within the recording; the tooltip also gives the corpus line). A label with
// several topics ("dog+pig") is split into equal vertical bands; a missing label ('?') is white
// with a grey outline. Where a row's label changes between u and u+1 (a segment boundary, the
// same rule as boundariesFromLabels) a black bar is drawn between the two cells. The current
// utterance is outlined across all rows. cellWidth is the zoom (2..80 px); the horizontal scroll
// bar scrolls; the arrow keys move the current utterance. Hovering an utterance shows its words,
// its objects and cues and every row's label as a tooltip and emits utteranceHovered; clicking
// emits utteranceClicked with the row.
//
// The widget reads a DiscourseData it does not own (setData; call refresh() after the rows
// change). The accessors (label, color, boundaryAfter, cellRect, hitTest) are what is painted,
// for tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QAbstractScrollArea>
#include <QColor>

#include "ui/grounded/discourse_data.h"
#include "ui/grounded/topic_palette.h"

namespace gwb::ui {

class DiscourseTimeline : public QAbstractScrollArea {
  Q_OBJECT

 public:
  explicit DiscourseTimeline(QWidget* parent = nullptr);

  void setData(const DiscourseData* data, const TopicPalette* palette);
  void setRecording(int recording);
  int recording() const { return recording_; }
  // Re-reads the rows (after a row was added or removed).
  void refresh();

  int rowCount() const;
  QString rowName(int row) const;
  int utteranceCount() const;  // in the current recording
  // Corpus index of the recording's utterance u.
  std::size_t corpusIndex(int utterance) const;
  std::optional<std::string> label(int row, int utterance) const;
  // The colour of the label's (first) topic; the missing-label colour for nullopt.
  QColor color(int row, int utterance) const;
  // Does row `row` put a boundary after utterance u (its label differs from u+1's)?
  bool boundaryAfter(int row, int utterance) const;
  int boundaryCount(int row) const;

  double cellWidth() const { return cellWidth_; }
  void setCellWidth(double pixels);
  // Zooms so that the whole recording fits the width.
  void zoomToFit();
  void setCurrentUtterance(int utterance);
  int currentUtterance() const { return current_; }
  // Scrolls so that utterance u is in the middle and makes it current.
  void scrollToUtterance(int utterance);

  QRect cellRect(int row, int utterance) const;  // viewport coordinates
  struct Hit {
    int row = -1;        // -1: the axis or the margin
    int utterance = -1;  // -1: none
  };
  Hit hitTest(const QPoint& viewportPoint) const;
  // The row at a viewport height (-1: none), names included.
  int rowAt(int y) const;
  // The tooltip for an utterance (rich text).
  QString utteranceDescription(int utterance) const;

  // The name column: as wide as the longest row name, 120..340 px.
  int nameWidth() const { return nameWidth_; }
  static constexpr int kAxisHeight = 22;
  static constexpr int kRowHeight = 30;
  static constexpr int kRowGap = 6;

 signals:
  void utteranceHovered(int utterance);
  void utteranceClicked(int row, int utterance);
  void zoomChanged(double cellWidth);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  // Left/Right move the current utterance, Home/End jump, Return opens its parse.
  void keyPressEvent(QKeyEvent* event) override;
  bool viewportEvent(QEvent* event) override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 private:
  void updateScrollBar();
  int rowTop(int row) const;

  const DiscourseData* data_ = nullptr;
  const TopicPalette* palette_ = nullptr;
  int recording_ = 0;
  double cellWidth_ = 14.0;
  int current_ = -1;
  int hovered_ = -1;
  int nameWidth_ = 160;
};

}  // namespace gwb::ui
