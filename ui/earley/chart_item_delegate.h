// ChartItemDelegate: paints one Earley item of the ChartModel as a two-line card.
//
// Line one is the dotted rule with its span ("[0, 2] NP → Det N ."), line two the numbers (α,
// γ, Viterbi) in a smaller, dimmer font. A coloured bar on the left says which operation made
// the item (predict blue, scan green, complete orange); items touched by the last move are
// filled with that colour, the item of the last operation gets a dark frame, the selected item
// the selection colour and its antecedents a dashed purple frame. Colours are shared with the
// legend in the stepper's status line (operationColor).
#pragma once

#include <QColor>
#include <QStyledItemDelegate>

#include "gwb/earley/earley_parser.h"

namespace gwb::ui {

// The colour that stands for an operation (light: for fills; otherwise for bars and text).
QColor operationColor(gwb::OperationKind kind, bool light = false);

class ChartItemDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  explicit ChartItemDelegate(QObject* parent = nullptr);

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  // The row height that fits both lines in `font`.
  static int rowHeight(const QFont& font);
};

}  // namespace gwb::ui
