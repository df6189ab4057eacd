#include "ui/ccg/fubl_pair_heatmap.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "ui/ccg/fubl_lexicon_model.h"

namespace gwb::ui {

namespace {

constexpr int kLeftMargin = 130;  // lexeme labels
constexpr int kTopMargin = 18;    // template numbers
constexpr int kMaxCell = 18;
constexpr double kMinScale = 0.1;  // weights this small stay pale

QColor weightColor(double value, double scale) {
  if (scale <= 0) return Qt::white;
  const double t = std::clamp(value / scale, -1.0, 1.0);
  const int fade = static_cast<int>(std::lround(255 * (1 - std::fabs(t))));
  return t >= 0 ? QColor(255, fade, fade) : QColor(fade, fade, 255);
}

}  // namespace

FublPairHeatmap::FublPairHeatmap(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("fublPairHeatmap"));
  setMouseTracking(true);
  setMinimumSize(200, 120);
}

void FublPairHeatmap::setSource(const FublLexiconModel* model, const FublLexiconFilter* filter) {
  model_ = model;
  filter_ = filter;
  refresh();
}

void FublPairHeatmap::refresh() {
  lexemes_.clear();
  templates_.clear();
  rows_.clear();
  scale_ = 0;
  if (model_ != nullptr && model_->lexicon() != nullptr) {
    std::map<int, int> lexemeColumn;
    std::map<int, int> templateColumn;
    for (int row = 0; row < model_->rowCount(); ++row) {
      const int lexeme = model_->lexemeAt(row);
      if (filter_ != nullptr && !filter_->acceptsLexeme(model_->lexicon()->lexemes()[lexeme])) {
        continue;
      }
      lexemeColumn.emplace(lexeme, 0);
      templateColumn.emplace(model_->templateAt(row), 0);
    }
    for (auto& [lexeme, index] : lexemeColumn) {
      index = static_cast<int>(lexemes_.size());
      lexemes_.push_back(lexeme);
    }
    for (auto& [lexicalTemplate, index] : templateColumn) {
      index = static_cast<int>(templates_.size());
      templates_.push_back(lexicalTemplate);
    }
    rows_.assign(lexemes_.size() * templates_.size(), -1);
    for (int row = 0; row < model_->rowCount(); ++row) {
      const auto l = lexemeColumn.find(model_->lexemeAt(row));
      if (l == lexemeColumn.end()) continue;
      const int t = templateColumn.at(model_->templateAt(row));
      rows_[static_cast<std::size_t>(l->second) * templates_.size() + t] = row;
      scale_ = std::max(scale_, std::fabs(model_->pairWeight(row)));
    }
    scale_ = std::max(scale_, kMinScale);
  }
  updateGeometry();
  update();
}

std::optional<double> FublPairHeatmap::valueAt(int row, int column) const {
  if (row < 0 || column < 0 || row >= static_cast<int>(lexemes_.size()) ||
      column >= static_cast<int>(templates_.size())) {
    return std::nullopt;
  }
  const int modelRow = rows_[static_cast<std::size_t>(row) * templates_.size() + column];
  if (modelRow < 0) return std::nullopt;
  return model_->pairWeight(modelRow);
}

void FublPairHeatmap::setSelectedPair(int lexeme, int lexicalTemplate) {
  selected_ = {lexeme, lexicalTemplate};
  update();
}

int FublPairHeatmap::cellWidth() const {
  if (templates_.empty()) return kMaxCell;
  const int room = std::max(1, width() - kLeftMargin - 4);
  return std::clamp(room / static_cast<int>(templates_.size()), 2, kMaxCell);
}

int FublPairHeatmap::cellHeight() const {
  if (lexemes_.empty()) return kMaxCell;
  const int room = std::max(1, height() - kTopMargin - 4);
  return std::clamp(room / static_cast<int>(lexemes_.size()), 2, kMaxCell);
}

QRect FublPairHeatmap::cellRect(int row, int column) const {
  return {kLeftMargin + column * cellWidth(), kTopMargin + row * cellHeight(), cellWidth(),
          cellHeight()};
}

std::pair<int, int> FublPairHeatmap::cellAt(const QPoint& point) const {
  const int column = (point.x() - kLeftMargin) / cellWidth();
  const int row = (point.y() - kTopMargin) / cellHeight();
  if (point.x() < kLeftMargin || point.y() < kTopMargin ||
      column >= static_cast<int>(templates_.size()) || row >= static_cast<int>(lexemes_.size())) {
    return {-1, -1};
  }
  return {row, column};
}

QSize FublPairHeatmap::sizeHint() const {
  return {kLeftMargin + 4 + kMaxCell * std::max<int>(8, static_cast<int>(templates_.size())),
          kTopMargin + 4 + kMaxCell * std::max<int>(6, static_cast<int>(lexemes_.size()))};
}

void FublPairHeatmap::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  if (lexemes_.empty()) {
    painter.setPen(palette().text().color());
    painter.drawText(rect(), Qt::AlignCenter, tr("No lexical entries to show"));
    return;
  }
  const int w = cellWidth();
  const int h = cellHeight();
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.5));
  painter.setFont(small);
  painter.setPen(palette().text().color());
  if (w >= 12) {
    for (int c = 0; c < static_cast<int>(templates_.size()); ++c) {
      painter.drawText(QRect(kLeftMargin + c * w, 0, w, kTopMargin),
                       Qt::AlignCenter | Qt::AlignBottom, QString::number(templates_[c]));
    }
  }
  for (int r = 0; r < static_cast<int>(lexemes_.size()); ++r) {
    if (h >= 10) {
      painter.setPen(palette().text().color());  // the cells below leave their grid pen set
      const QString label = model_->wordsText(lexemes_[r]) + QStringLiteral(" \u22a2 ") +
                            model_->constantsText(lexemes_[r]);
      painter.drawText(QRect(0, kTopMargin + r * h, kLeftMargin - 4, h),
                       Qt::AlignRight | Qt::AlignVCenter,
                       painter.fontMetrics().elidedText(label, Qt::ElideRight, kLeftMargin - 6));
    }
    for (int c = 0; c < static_cast<int>(templates_.size()); ++c) {
      const std::optional<double> value = valueAt(r, c);
      const QRect cell = cellRect(r, c);
      painter.fillRect(cell, value ? weightColor(*value, scale_) : QColor(225, 225, 225));
      if (w >= 6 && h >= 6) {
        painter.setPen(QColor(200, 200, 200));
        painter.drawRect(cell.adjusted(0, 0, -1, -1));
      }
      if (lexemes_[r] == selected_.first && templates_[c] == selected_.second) {
        painter.setPen(QPen(Qt::black, 2));
        painter.drawRect(cell.adjusted(1, 1, -1, -1));
      }
    }
  }
}

void FublPairHeatmap::mousePressEvent(QMouseEvent* event) {
  const auto [row, column] = cellAt(event->position().toPoint());
  if (row < 0 || !valueAt(row, column)) return;
  setSelectedPair(lexemes_[row], templates_[column]);
  emit pairClicked(lexemes_[row], templates_[column]);
}

bool FublPairHeatmap::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const auto [row, column] = cellAt(help->pos());
    const std::optional<double> value = valueAt(row, column);
    if (value) {
      QToolTip::showText(
          help->globalPos(),
          tr("%1 :- %2\ntemplate %3: %4\npair weight %5")
              .arg(model_->wordsText(lexemes_[row]), model_->constantsText(lexemes_[row]))
              .arg(templates_[column])
              .arg(model_->templateText(templates_[column]))
              .arg(*value, 0, 'g', 6),
          this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

}  // namespace gwb::ui
