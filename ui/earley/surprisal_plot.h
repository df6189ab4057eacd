// SurprisalPlot: the surprisal strip under the sentence — one bar per word, −log P(w_i |
// w_0..w_{i-1}) in nats or bits, with the log prefix probability as a line on the right axis.
//
// Bars and the line come straight from ParseResult (surprisal, logPrefixProbability), only
// converted to the chosen unit; barValues() and prefixValues() hand back what is plotted so
// tests can compare it with the parser. Word i's bar is centred at x = i + 0.5, so the prefix
// probability after i words sits at x = i, between the bars — the same positions as the
// sentence strip. setPosition() follows the stepper: words already read are drawn solid, the
// rest faint, a marker stands at the current position, and on long inputs the visible window
// scrolls along. Clicking a bar asks to run to the position after that word.
#pragma once

#include <memory>

#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPRange;

namespace gwb::ui {

class ParseSession;

class SurprisalPlot : public QWidget {
  Q_OBJECT

 public:
  enum class Unit { Nats, Bits };

  explicit SurprisalPlot(QWidget* parent = nullptr);
  ~SurprisalPlot() override;

  void setSession(std::shared_ptr<const ParseSession> session);
  void setUnit(Unit unit);
  Unit unit() const { return unit_; }
  void setPosition(int position);
  int position() const { return position_; }

  QCustomPlot* plot() const { return plot_; }
  // Surprisal of each word in the current unit (infinite for an impossible word).
  QVector<double> barValues() const;
  // Log prefix probability after 0..n words in the current unit (log base e or 2).
  QVector<double> prefixValues() const;
  // How many words the x axis shows at once.
  int visibleWords() const;

 signals:
  void positionClicked(int position);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  void updateHighlight();
  void scrollToPosition();
  double scale() const;
  void fitPrefixAxis(const QCPRange& range);

  QCustomPlot* plot_ = nullptr;
  QCPBars* unread_ = nullptr;
  QCPBars* read_ = nullptr;
  QCPGraph* prefix_ = nullptr;
  QCPItemStraightLine* marker_ = nullptr;
  std::shared_ptr<const ParseSession> session_;
  Unit unit_ = Unit::Bits;
  int position_ = 0;
};

}  // namespace gwb::ui
