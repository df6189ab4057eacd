#include "ui/earley/chart_item_delegate.h"

#include <QApplication>
#include <QPainter>

#include "ui/earley/chart_model.h"

namespace gwb::ui {

namespace {
constexpr int kBarWidth = 4;
constexpr int kPadding = 4;

QFont valuesFont(const QFont& base) {
  QFont font = base;
  font.setPointSizeF(base.pointSizeF() * 0.85);
  return font;
}
}  // namespace

QColor operationColor(gwb::OperationKind kind, bool light) {
  switch (kind) {
    case gwb::OperationKind::Predict:
      return light ? QColor(0xdb, 0xe8, 0xfb) : QColor(0x35, 0x6f, 0xc4);
    case gwb::OperationKind::Scan:
      return light ? QColor(0xd9, 0xf2, 0xd9) : QColor(0x2e, 0x8b, 0x3c);
    case gwb::OperationKind::Complete:
      return light ? QColor(0xfd, 0xe6, 0xc8) : QColor(0xd2, 0x78, 0x12);
    case gwb::OperationKind::Init:
      return light ? QColor(0xe8, 0xe8, 0xe8) : QColor(0x70, 0x70, 0x70);
  }
  return QColor(Qt::gray);
}

ChartItemDelegate::ChartItemDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

int ChartItemDelegate::rowHeight(const QFont& font) {
  return QFontMetrics(font).height() + QFontMetrics(valuesFont(font)).height() + 3 * kPadding;
}

QSize ChartItemDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const {
  const QString text = index.data(Qt::DisplayRole).toString();
  const QFontMetrics metrics(option.font);
  return {metrics.horizontalAdvance(text) + 3 * kPadding + kBarWidth, rowHeight(option.font)};
}

void ChartItemDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const {
  const QString text = index.data(Qt::DisplayRole).toString();
  if (text.isEmpty()) return;  // an empty cell below a set's last item
  painter->save();
  const QRect cell = option.rect.adjusted(1, 1, -1, -1);
  const auto kind = static_cast<gwb::OperationKind>(index.data(ChartModel::OperationRole).toInt());
  const auto createdBy =
      static_cast<gwb::OperationKind>(index.data(ChartModel::CreatedByRole).toInt());
  const bool isNew = index.data(ChartModel::IsNewRole).toBool();
  const bool isCurrent = index.data(ChartModel::IsCurrentRole).toBool();
  const auto relation =
      static_cast<ChartModel::Relation>(index.data(ChartModel::RelationRole).toInt());
  const QPalette& palette = option.palette;

  QColor fill = palette.color(QPalette::Base);
  if (isNew) fill = operationColor(kind, true);
  if (relation == ChartModel::Relation::Selected) fill = palette.color(QPalette::Highlight);
  painter->fillRect(cell, fill);
  painter->fillRect(QRect(cell.left(), cell.top(), kBarWidth, cell.height()),
                    operationColor(createdBy));

  if (relation == ChartModel::Relation::Antecedent) {
    QPen pen(QColor(0x8e, 0x44, 0xad), 2, Qt::DashLine);
    painter->setPen(pen);
    painter->drawRect(cell.adjusted(1, 1, -1, -1));
  } else if (isCurrent) {
    painter->setPen(QPen(palette.color(QPalette::WindowText), 2));
    painter->drawRect(cell.adjusted(1, 1, -1, -1));
  }

  const bool selected = relation == ChartModel::Relation::Selected;
  const QColor textColor =
      selected ? palette.color(QPalette::HighlightedText) : palette.color(QPalette::Text);
  QColor dim = textColor;
  if (!selected) dim.setAlphaF(0.7F);
  const QRect textArea = cell.adjusted(kBarWidth + kPadding, kPadding, -kPadding, -kPadding);
  const QFontMetrics metrics(option.font);
  painter->setFont(option.font);
  painter->setPen(textColor);
  painter->drawText(QRect(textArea.left(), textArea.top(), textArea.width(), metrics.height()),
                    Qt::AlignLeft | Qt::AlignVCenter,
                    metrics.elidedText(text, Qt::ElideRight, textArea.width()));
  const QFont small = valuesFont(option.font);
  const QFontMetrics smallMetrics(small);
  painter->setFont(small);
  painter->setPen(dim);
  const QString values = index.data(ChartModel::ValuesTextRole).toString();
  painter->drawText(QRect(textArea.left(), textArea.top() + metrics.height() + kPadding / 2,
                          textArea.width(), smallMetrics.height()),
                    Qt::AlignLeft | Qt::AlignVCenter,
                    smallMetrics.elidedText(values, Qt::ElideRight, textArea.width()));
  painter->restore();
}

}  // namespace gwb::ui
