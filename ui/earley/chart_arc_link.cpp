#include "ui/earley/chart_arc_link.h"

#include <cmath>

#include <QAbstractItemModel>
#include <QScrollBar>
#include <QTimer>

#include "ui/common/qt_conversions.h"
#include "ui/earley/arc_view.h"
#include "ui/earley/chart_model.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/stepper_view.h"

namespace gwb::ui {

namespace {

// "[0, 2] NP → Det N ." → "NP → Det N ." (the arc shows the span).
QString withoutSpan(const QString& itemText) {
  const qsizetype close = itemText.indexOf(QLatin1String("] "));
  return close < 0 ? itemText : itemText.mid(close + 2);
}

QString probabilityText(double logValue) {
  if (!std::isfinite(logValue)) return QStringLiteral("0");
  return QString::number(std::exp(logValue), 'g', 4);
}

}  // namespace

ChartArcLink::ChartArcLink(StepperView* view, ArcView* arcs)
    : QObject(view), view_(view), arcs_(arcs) {
  ChartModel* model = view->chartModel();
  connect(view, &StepperView::sessionChanged, this, [this] {
    refresh();
    // Start with the words in sight.
    arcs_->verticalScrollBar()->setValue(arcs_->verticalScrollBar()->maximum());
  });
  connect(view, &StepperView::appliedChanged, this, &ChartArcLink::refresh);
  connect(model, &QAbstractItemModel::modelReset, this, &ChartArcLink::scheduleRefresh);
  connect(model, &QAbstractItemModel::layoutChanged, this, &ChartArcLink::scheduleRefresh);
  // A filter change rebuilds the columns and announces it as changed data and rows.
  connect(model, &QAbstractItemModel::dataChanged, this, &ChartArcLink::scheduleRefresh);
  connect(model, &QAbstractItemModel::rowsInserted, this, &ChartArcLink::scheduleRefresh);
  connect(model, &QAbstractItemModel::rowsRemoved, this, &ChartArcLink::scheduleRefresh);
  connect(view, &StepperView::selectedItemChanged, this, [this](gwb::ItemRef item) {
    if (!enabled_) return;
    arcs_->setSelectedKey(item.valid() ? std::optional<qint64>(keyOf(item)) : std::nullopt);
  });
  connect(arcs, &ArcView::arcClicked, this, [this](qint64 key) {
    if (enabled_) view_->selectItem(itemOf(key));
  });
  refresh();
}

qint64 ChartArcLink::keyOf(gwb::ItemRef item) {
  return (static_cast<qint64>(item.set) << 32) | static_cast<quint32>(item.index);
}

gwb::ItemRef ChartArcLink::itemOf(qint64 key) {
  return {static_cast<std::int32_t>(key >> 32), static_cast<std::int32_t>(key & 0xffffffff)};
}

void ChartArcLink::setEnabled(bool enabled) {
  enabled_ = enabled;
  if (enabled_) refresh();
}

void ChartArcLink::scheduleRefresh() {
  if (refreshPending_) return;
  refreshPending_ = true;
  QTimer::singleShot(0, this, [this] {
    refreshPending_ = false;
    refresh();
  });
}

void ChartArcLink::refresh() {
  if (!enabled_) return;
  const std::shared_ptr<const ParseSession>& session = view_->session();
  if (!session || !session->hasChart()) {
    arcs_->setWords({});
    arcs_->setArcs({});
    arcs_->setCurrentPosition(-1);
    arcs_->setPlaceholder(session ? session->errorText() : tr("Parse a sentence to see its chart"));
    return;
  }
  QStringList words;
  for (const std::string& w : session->words()) words << toQString(w);
  arcs_->setWords(words);
  const ChartModel* model = view_->chartModel();
  int shown = 0;
  for (int c = 0; c < model->columnCount(); ++c) shown += model->shownInSet(c);
  const std::size_t applied = view_->stepper()->applied();
  arcs_->setCurrentPosition(applied == 0 ? 0 : static_cast<int>(session->currentSet(applied)));
  if (shown > kMaxArcs) {
    arcs_->setArcs({});
    arcs_->setPlaceholder(tr("%1 items are too many to draw as arcs: the column view shows them "
                             "(hide predicted items or filter by a symbol to draw fewer)")
                              .arg(shown));
    return;
  }
  arcs_->setPlaceholder(QString());
  std::vector<ChartArc> arcs;
  arcs.reserve(static_cast<std::size_t>(shown));
  const gwb::EarleyChart& chart = session->chart();
  for (int c = 0; c < model->columnCount(); ++c) {
    for (int row = 0; row < model->shownInSet(c); ++row) {
      const QModelIndex index = model->index(row, c);
      const gwb::ItemRef ref = model->itemAt(index);
      if (!ref.valid()) continue;
      ChartArc arc;
      arc.key = keyOf(ref);
      arc.origin = chart.item(ref).origin;
      arc.end = ref.set;
      const QString text = index.data(Qt::DisplayRole).toString();
      arc.label = withoutSpan(text);
      arc.madeBy = static_cast<gwb::OperationKind>(index.data(ChartModel::CreatedByRole).toInt());
      arc.finished = session->isFinished(ref);
      arc.fresh = index.data(ChartModel::IsNewRole).toBool();
      arc.toolTip = QStringLiteral("<b>%1</b><br>forward α = %2<br>inner γ = %3<br>%4")
                        .arg(text.toHtmlEscaped(),
                             probabilityText(index.data(ChartModel::LogForwardRole).toDouble()),
                             probabilityText(index.data(ChartModel::LogInnerRole).toDouble()),
                             index.data(ChartModel::ValuesTextRole).toString().toHtmlEscaped());
      arcs.push_back(std::move(arc));
    }
  }
  arcs_->setArcs(std::move(arcs));
  const gwb::ItemRef selected = view_->selectedItem();
  arcs_->setSelectedKey(selected.valid() ? std::optional<qint64>(keyOf(selected)) : std::nullopt);
}

}  // namespace gwb::ui
