// SentenceStrip: the sentence as a strip of words with numbered positions between them.
//
// Position i sits before word i (0 before the first word, n after the last), as in Earley
// items [l, r]. The strip shows how far the parse has got (words before the current position
// are read, the rest dimmed), the span of the selected item as a band under its words with
// the item's label, and the target of "run to position". Clicking a position (or a word: the
// position after it) makes it the target; double-clicking also asks to run there.
//
// Widths are computed once per sentence and painting covers only the exposed rectangle, so a
// 2,000-word discourse in a scroll area costs no more to draw than a short sentence.
#pragma once

#include <QRect>
#include <QStringList>
#include <QWidget>

namespace gwb::ui {

class SentenceStrip : public QWidget {
  Q_OBJECT

 public:
  explicit SentenceStrip(QWidget* parent = nullptr);

  void setWords(const QStringList& words);
  const QStringList& words() const { return words_; }

  // The state set the parse is working on (-1: none).
  void setCurrentPosition(int position);
  int currentPosition() const { return current_; }
  // The span to mark (l < 0: none) and its label.
  void setSpan(int left, int right, const QString& label);
  int spanLeft() const { return spanLeft_; }
  int spanRight() const { return spanRight_; }
  void setTargetPosition(int position);
  int targetPosition() const { return target_; }

  // The x coordinate of position i, and the position nearest to x.
  int positionX(int position) const;
  int positionAt(int x) const;
  // Where position i's numbered marker is drawn: a circle, widened to fit numbers of four or
  // more digits; the gap between words is wide enough for the widest marker of the sentence.
  QRect markerRect(int position) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void positionClicked(int position);
  void positionActivated(int position);
  // The x range that should be scrolled into view (the current position moved).
  void wantsVisible(int x);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;

 private:
  void relayout();

  QStringList words_;
  std::vector<int> wordLeft_;   // x of each word's box
  std::vector<int> wordWidth_;  // its width
  int current_ = -1;
  int spanLeft_ = -1;
  int spanRight_ = -1;
  QString spanLabel_;
  int target_ = -1;
  int totalWidth_ = 0;
  int gap_ = 0;  // between two words: room for the widest position marker
};

}  // namespace gwb::ui
