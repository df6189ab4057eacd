// CcgChartView: the CKY chart of a CCG parse (gwb/ccg/cky_parser.h) drawn as the classic
// triangle — the words along the bottom, the cells of one-word spans just above them, each row
// up one word longer, the cell of the whole sentence at the top. A cell shows how many entries it
// holds (and how many of those fell off the beam) and is shaded by that count, or by the best
// inside score of its kept entries; hovering over a cell shows its categories, each with how many
// of the cell's entries have it (the span × category counts); clicking a cell selects it
// (cellSelected).
//
// The view draws either the finished chart or, for the stepper, a replay state
// (gwb/ccg/cky_replay.h): the entries made after some number of fill steps, with the cell being
// filled outlined in orange and, for a combination, the two child cells outlined in blue.
// displayedEntries()/displayedPruned() are the numbers the cells show, so a test can compare
// what is drawn with the core's chart. The view keeps a pointer to the chart, which its owner
// must keep alive while it is set (setChart(nullptr) before the chart goes).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QWidget>

#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/cky_replay.h"

namespace gwb::ui {

class CcgChartView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(CcgChartView)

 public:
  enum class Shading { EntryCount, BestScore };

  explicit CcgChartView(QWidget* parent = nullptr);
  ~CcgChartView() override = default;

  void setChart(const gwb::ccg::CkyChart* chart);
  const gwb::ccg::CkyChart* chart() const { return chart_; }
  // Shows the chart as it stood after some replay steps; nullopt: the finished chart.
  // `childCells` are the cells (begin, split) and (split, end) of the step being shown.
  void setReplay(std::optional<gwb::ccg::CkyReplayState> state, int split = -1);
  bool isReplaying() const { return replay_.has_value(); }
  void setShading(Shading shading);
  Shading shading() const { return shading_; }

  // The selected cell, or (-1, -1).
  void selectCell(int begin, int end);
  std::pair<int, int> selectedCell() const { return selected_; }

  int displayedEntries(int begin, int end) const;
  int displayedPruned(int begin, int end) const;
  // The categories of the entries the cell shows, each with its number of entries, in the order
  // they first appear; and the cell's tooltip (its words, these counts, the pruned ones).
  std::vector<std::pair<std::string, int>> displayedCategories(int begin, int end) const;
  QString cellToolTip(int begin, int end) const;
  // The cell's rectangle in widget coordinates (empty for a cell outside the chart), and the
  // cell under a point ((-1, -1) for none).
  QRectF cellRect(int begin, int end) const;
  std::pair<int, int> cellAt(const QPointF& point) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void cellSelected(int begin, int end);

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  struct Geometry {
    double cellWidth = 0;
    double cellHeight = 0;
    double left = 0;
    double top = 0;
    double wordsTop = 0;
  };
  Geometry geometry() const;
  double shade(int begin, int end) const;  // 0..1

  const gwb::ccg::CkyChart* chart_ = nullptr;
  std::optional<gwb::ccg::CkyReplayState> replay_;
  int replaySplit_ = -1;
  Shading shading_ = Shading::EntryCount;
  std::pair<int, int> selected_{-1, -1};
};

}  // namespace gwb::ui
