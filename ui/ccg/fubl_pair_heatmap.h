// FublPairHeatmap: the pair weights of a learned factored lexicon as a heatmap — lexemes down,
// templates across, each lexeme × template pair that makes a lexical entry coloured by its pair
// feature's weight (`pair:LEXEME || TEMPLATE`, lexicon.h): blue below zero, white at zero, red
// above, scaled by the largest magnitude shown (at least 0.1, so that weights near zero stay
// pale). Pairs that make no entry are left grey.
//
// It shows what a FublLexiconModel holds, through the browser's FublLexiconFilter: the rows are
// the lexemes the filter keeps that have an entry (in the lexicon's order), the columns the
// templates of their entries (in the lexicon's order). Hovering a cell names its pair and weight;
// clicking one emits pairClicked (the browser selects that row of the table). setSelectedPair
// outlines a cell. The model must outlive the heatmap or be set again.
#pragma once

#include <optional>
#include <vector>

#include <QWidget>

namespace gwb::ui {

class FublLexiconFilter;
class FublLexiconModel;

class FublPairHeatmap : public QWidget {
  Q_OBJECT

 public:
  explicit FublPairHeatmap(QWidget* parent = nullptr);

  // Reads the pairs again (after the lexicon or the filter changed).
  void setSource(const FublLexiconModel* model, const FublLexiconFilter* filter);
  void refresh();

  const std::vector<int>& rowLexemes() const { return lexemes_; }
  const std::vector<int>& columnTemplates() const { return templates_; }
  // The weight drawn in cell (row, column); nullopt for a pair that makes no entry.
  std::optional<double> valueAt(int row, int column) const;
  // The colour scale's end: the largest |weight| shown, at least 0.1 (0 with nothing shown).
  double scale() const { return scale_; }
  void setSelectedPair(int lexeme, int lexicalTemplate);
  // The cell under a point of the widget, or (-1, -1).
  std::pair<int, int> cellAt(const QPoint& point) const;
  QRect cellRect(int row, int column) const;

  QSize sizeHint() const override;

 signals:
  void pairClicked(int lexeme, int lexicalTemplate);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  int cellWidth() const;
  int cellHeight() const;

  const FublLexiconModel* model_ = nullptr;
  const FublLexiconFilter* filter_ = nullptr;
  std::vector<int> lexemes_;
  std::vector<int> templates_;
  std::vector<int> rows_;  // model row per cell (row-major), -1 for no entry
  double scale_ = 0;
  std::pair<int, int> selected_{-1, -1};  // (lexeme, template)
};

}  // namespace gwb::ui
