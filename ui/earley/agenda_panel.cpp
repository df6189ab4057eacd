#include "ui/earley/agenda_panel.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStringBuilder>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/common/qt_conversions.h"
#include "ui/earley/arc_view.h"
#include "ui/earley/chart_arc_link.h"
#include "ui/earley/chart_item_delegate.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/stepper_view.h"

namespace gwb::ui {

namespace {

QString arrows(const std::string& text) {
  return toQString(text).replace(QLatin1String(" -> "), QStringLiteral(" \u2192 "));
}

QString number(double value) { return QString::number(value, 'g', 4); }

QString withoutSpan(const QString& itemText) {
  const qsizetype close = itemText.indexOf(QLatin1String("] "));
  return close < 0 ? itemText : itemText.mid(close + 2);
}

// Why the order does not matter, in the words of the explanation panel.
QString whyHtml() {
  return AgendaPanel::tr(
      "<p style=\"color:#555\"><b>Why the numbers stay right.</b> Every forward (\u03b1) and "
      "inner (\u03b3) value is a <i>sum</i> over the steps that feed it, and each step "
      "multiplies one value that may still grow (the predictor's \u03b1, the scanned item's "
      "\u03b1 and \u03b3, the completed item's \u03b3) by numbers that are already final (rule "
      "and closure weights R<sub>L</sub>, R<sub>U</sub>, values of earlier sets). A step that "
      "runs early records an edge; when its source later grows by \u03b4, "
      "\u03b4\u00b7(the same factor) is pushed along the edge and on to everything built "
      "from it. Sums are linear, so every edge ends up contributing factor\u00b7(final value): "
      "the totals equal the standard parse's, whatever the order. Earley's own order "
      "(complete latest origin first, then predict, then scan) uses every value only once it "
      "is final, so it never needs a correction.</p>");
}

}  // namespace

AgendaPanel::AgendaPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("agendaPanel"));
  activeBox_ = new QCheckBox(tr("Agenda mode: pick the next task yourself"), this);
  activeBox_->setObjectName(QStringLiteral("agendaMode"));
  activeBox_->setToolTip(
      tr("Parse the stepper's sentence again, choosing the order of the predictions, scans and "
         "completions; the arc view below the chart shows this chart while it is on"));
  statusLabel_ = new QLabel(this);
  statusLabel_->setWordWrap(true);
  statusLabel_->setTextFormat(Qt::RichText);
  strategyBox_ = new QComboBox(this);
  for (gwb::AgendaStrategy s : gwb::agendaStrategies())
    strategyBox_->addItem(QString::fromUtf8(gwb::agendaStrategyName(s)), static_cast<int>(s));
  strategyBox_->setToolTip(tr("The order the strategy buttons follow"));
  processButton_ = new QPushButton(tr("Process"), this);
  processButton_->setToolTip(tr("Run the selected task (or double-click it, or press Enter)"));
  stepButton_ = new QPushButton(tr("Strategy step"), this);
  stepButton_->setToolTip(tr("Run the task the strategy picks"));
  positionButton_ = new QPushButton(tr("Finish position"), this);
  positionButton_->setToolTip(tr("Run the strategy until this position's agenda is empty"));
  endButton_ = new QPushButton(tr("Run to end"), this);
  restartButton_ = new QPushButton(tr("Restart"), this);
  list_ = new QTreeWidget(this);
  list_->setObjectName(QStringLiteral("agendaList"));
  list_->setColumnCount(2);
  list_->setHeaderLabels({tr("Task"), tr("uses")});
  list_->setRootIsDecorated(false);
  list_->setUniformRowHeights(true);
  list_->header()->setStretchLastSection(false);
  list_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  list_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  explanation_ = new QTextBrowser(this);
  explanation_->setObjectName(QStringLiteral("agendaExplanation"));
  explanation_->setOpenLinks(false);

  auto* strategyRow = new QHBoxLayout;
  strategyRow->addWidget(new QLabel(tr("Strategy:"), this));
  strategyRow->addWidget(strategyBox_, 1);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(processButton_);
  buttons->addWidget(stepButton_);
  buttons->addWidget(positionButton_);
  auto* buttons2 = new QHBoxLayout;
  buttons2->addWidget(endButton_);
  buttons2->addWidget(restartButton_);
  buttons2->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(3);
  layout->addWidget(activeBox_);
  layout->addWidget(statusLabel_);
  layout->addLayout(strategyRow);
  layout->addLayout(buttons);
  layout->addLayout(buttons2);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(list_);
  split->addWidget(explanation_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);
  layout->addWidget(split, 1);

  connect(activeBox_, &QCheckBox::toggled, this, [this](bool on) {
    if (link_) link_->setEnabled(!on);
    // The column view shows the stepper's chart, not the agenda's: give the arcs its room.
    if (auto* chartSplit = arcs_ ? qobject_cast<QSplitter*>(arcs_->parentWidget()) : nullptr) {
      if (on) {
        savedSplit_ = chartSplit->sizes();
        chartSplit->setSizes({0, savedSplit_.value(0) + savedSplit_.value(1)});
      } else if (!savedSplit_.isEmpty()) {
        chartSplit->setSizes(savedSplit_);
      }
    }
    rebuild();
    emit activeChanged(on);
  });
  connect(processButton_, &QPushButton::clicked, this, [this] {
    QTreeWidgetItem* current = list_->currentItem();
    if (current) processTask(list_->indexOfTopLevelItem(current));
  });
  // Activation: a double-click, or Enter on the current task.
  connect(list_, &QTreeWidget::itemActivated, this,
          [this](QTreeWidgetItem* row) { processTask(list_->indexOfTopLevelItem(row)); });
  connect(list_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* row) {
    if (!engine_ || !row || !arcs_) return;
    const int index = list_->indexOfTopLevelItem(row);
    if (index < 0 || static_cast<std::size_t>(index) >= engine_->agenda().size()) return;
    const std::int32_t item = engine_->agenda()[static_cast<std::size_t>(index)].item;
    arcs_->setSelectedKey(item >= 0 ? std::optional<qint64>(item) : std::nullopt);
  });
  connect(stepButton_, &QPushButton::clicked, this, &AgendaPanel::stepByStrategy);
  connect(positionButton_, &QPushButton::clicked, this, &AgendaPanel::finishPosition);
  connect(endButton_, &QPushButton::clicked, this, &AgendaPanel::runToEnd);
  connect(restartButton_, &QPushButton::clicked, this, &AgendaPanel::restart);
  rebuild();
}

AgendaPanel::~AgendaPanel() = default;

void AgendaPanel::attach(StepperView* view, ArcView* arcs, ChartArcLink* link) {
  view_ = view;
  arcs_ = arcs;
  link_ = link;
  connect(view, &StepperView::sessionChanged, this, [this] {
    if (isActive()) rebuild();
  });
  connect(arcs, &ArcView::arcClicked, this, &AgendaPanel::onArcClicked);
  connect(arcs, &ArcView::arcDoubleClicked, this, [this](qint64 key) {
    if (!isActive() || !engine_) return;
    // Double-click an arc: run its task, when it has exactly one.
    for (std::size_t k = 0; k < engine_->agenda().size(); ++k)
      if (engine_->agenda()[k].item == key) {
        processTask(static_cast<int>(k));
        return;
      }
  });
}

bool AgendaPanel::isActive() const { return activeBox_->isChecked(); }

void AgendaPanel::setActive(bool active) {
  activeBox_->setChecked(active);
  if (!active) return;
  // Bring the panel's tab to the front.
  for (QWidget* up = parentWidget(); up != nullptr; up = up->parentWidget())
    if (auto* tabs = qobject_cast<QTabWidget*>(up)) {
      tabs->setCurrentWidget(this);
      break;
    }
}

gwb::AgendaStrategy AgendaPanel::strategy() const {
  return static_cast<gwb::AgendaStrategy>(strategyBox_->currentData().toInt());
}

void AgendaPanel::setStrategy(gwb::AgendaStrategy strategy) {
  strategyBox_->setCurrentIndex(strategyBox_->findData(static_cast<int>(strategy)));
}

void AgendaPanel::rebuild() {
  engine_.reset();
  lastReport_.reset();
  session_ = view_ != nullptr ? view_->session() : nullptr;
  const bool tooLong = session_ && session_->words().size() > kMaxWords;
  if (isActive() && session_ && session_->hasChart() && !tooLong &&
      session_->outcome() == ParseSession::Outcome::Parsed) {
    gwb::AgendaOptions options;
    options.lookahead = session_->lookahead();
    options.seed = ++runs_;
    engine_ = std::make_unique<gwb::AgendaEarley>(session_->compiled(), session_->words(), options);
  }
  updateAgenda();
  updateArcs();
  if (!isActive()) {
    explanation_->setHtml(
        tr("<p>Agenda mode parses the stepper's sentence again, but <b>you</b> choose what "
           "happens next: predict from an item, scan the next word, or complete with a "
           "finished item. Tick the box above to start.</p>") %
        whyHtml());
  } else if (tooLong) {
    explanation_->setHtml(tr("<p>Agenda mode is for sentences of up to %1 words; this one has "
                             "%2. Step through it in the chart, or parse a shorter one.</p>")
                              .arg(kMaxWords)
                              .arg(session_->words().size()));
  } else if (!engine_) {
    explanation_->setHtml(tr("<p>Parse a sentence in the stepper first.</p>"));
  } else {
    explanation_->setHtml(
        tr("<p>Position 0 holds the axiom <tt>[0, 0] GOAL \u2192 . %1</tt>; its only task is to "
           "predict from it. Double-click a task to run it, or let a strategy choose.</p>")
            .arg(session_->symbolName(session_->compiled().start()).toHtmlEscaped()) %
        whyHtml());
  }
  emit chartChanged();
}

void AgendaPanel::processTask(int index) {
  if (!engine_ || engine_->finished() || index < 0 ||
      static_cast<std::size_t>(index) >= engine_->agenda().size())
    return;
  lastReport_ = engine_->process(static_cast<std::size_t>(index));
  updateAgenda();
  updateArcs();
  describeStep();
  emit chartChanged();
}

void AgendaPanel::stepByStrategy() {
  if (!engine_ || engine_->finished()) return;
  processTask(static_cast<int>(engine_->choose(strategy())));
}

void AgendaPanel::finishPosition() {
  if (!engine_ || engine_->finished()) return;
  const int position = engine_->position();
  // Keep the corrections of the whole run of steps in the report shown.
  gwb::AgendaStepReport total;
  total.position = position;
  while (!engine_->finished() && engine_->position() == position) {
    const gwb::AgendaStepReport r = engine_->process(engine_->choose(strategy()));
    total.task = r.task;
    total.created.insert(total.created.end(), r.created.begin(), r.created.end());
    total.grown.insert(total.grown.end(), r.grown.begin(), r.grown.end());
    total.corrected.insert(total.corrected.end(), r.corrected.begin(), r.corrected.end());
    total.increments += r.increments;
    total.positionFinished = r.positionFinished;
  }
  lastReport_ = total;
  updateAgenda();
  updateArcs();
  describeStep();
  emit chartChanged();
}

void AgendaPanel::runToEnd() {
  if (!engine_) return;
  while (!engine_->finished()) finishPosition();
}

void AgendaPanel::restart() { rebuild(); }

QString AgendaPanel::itemValues(std::int32_t item) const {
  const gwb::AgendaItem& it = engine_->items()[static_cast<std::size_t>(item)];
  return tr("\u03b1 %1, \u03b3 %2, Viterbi %3")
      .arg(number(it.forward), number(it.inner),
           std::isfinite(it.viterbi) ? number(std::exp(it.viterbi)) : QStringLiteral("0"));
}

QString AgendaPanel::itemHtml(std::int32_t item) const {
  return QStringLiteral("<tt>%1</tt> <span style=\"color:#666\">(%2)</span>")
      .arg(arrows(engine_->itemText(item)).toHtmlEscaped(), itemValues(item));
}

void AgendaPanel::updateAgenda() {
  const bool running = engine_ && !engine_->finished();
  for (QPushButton* b : {processButton_, stepButton_, positionButton_, endButton_})
    b->setEnabled(running);
  restartButton_->setEnabled(engine_ != nullptr);
  // A finished run has no agenda: its room goes to the explanation.
  list_->setVisible(running);
  strategyBox_->setEnabled(isActive());
  list_->clear();
  if (!engine_) {
    statusLabel_->setText(isActive() ? tr("No parse to work on.") : QString());
    return;
  }
  const auto n = static_cast<int>(engine_->words().size());
  const int r = engine_->position();
  QString status;
  if (engine_->failed()) {
    status = tr("<b>Stopped</b>: %1").arg(toQString(engine_->failureText()).toHtmlEscaped());
  } else if (engine_->finished()) {
    status = tr("<b>Finished</b> after %1 steps: P(sentence) = %2")
                 .arg(engine_->steps())
                 .arg(number(engine_->sentenceProbability()));
  } else {
    status = tr("<b>Position %1</b> of %2%3 \u00b7 %4 tasks waiting \u00b7 step %5")
                 .arg(r)
                 .arg(n)
                 .arg(r < n ? tr(", next word <i>%1</i>")
                                  .arg(toQString(engine_->words()[static_cast<std::size_t>(r)])
                                           .toHtmlEscaped())
                            : QString())
                 .arg(engine_->agenda().size())
                 .arg(engine_->steps());
  }
  statusLabel_->setText(status);
  const std::size_t suggested =
      running && !engine_->agenda().empty() && strategy() != gwb::AgendaStrategy::Random
          ? engine_->choose(strategy())  // not for Random: choosing draws from the generator
          : static_cast<std::size_t>(-1);
  for (std::size_t k = 0; k < engine_->agenda().size(); ++k) {
    const gwb::AgendaTask& task = engine_->agenda()[k];
    double uses = 0.0;
    QString usesWhat;
    switch (task.kind) {
      case gwb::AgendaTaskKind::Predict:
        uses = engine_->items()[static_cast<std::size_t>(task.item)].forward;
        usesWhat = QStringLiteral("\u03b1");
        break;
      case gwb::AgendaTaskKind::Complete:
        uses = engine_->items()[static_cast<std::size_t>(task.item)].inner;
        usesWhat = QStringLiteral("\u03b3");
        break;
      case gwb::AgendaTaskKind::Scan:
        if (task.item >= 0) {
          uses = engine_->items()[static_cast<std::size_t>(task.item)].forward;
          usesWhat = QStringLiteral("\u03b1");
        } else {
          uses = engine_->predictionMass(r, task.preterminal);
          usesWhat = tr("mass");
        }
        break;
    }
    auto* row = new QTreeWidgetItem(list_);
    row->setText(0, arrows(engine_->taskText(task)));
    row->setText(1, usesWhat % QLatin1Char(' ') % number(uses));
    row->setToolTip(0, row->text(0));
    const gwb::OperationKind kind =
        task.kind == gwb::AgendaTaskKind::Predict ? gwb::OperationKind::Predict
        : task.kind == gwb::AgendaTaskKind::Scan  ? gwb::OperationKind::Scan
                                                  : gwb::OperationKind::Complete;
    row->setForeground(0, operationColor(kind).darker(130));
    if (k == suggested) {
      QFont bold = row->font(0);
      bold.setBold(true);
      row->setFont(0, bold);
      row->setToolTip(0, row->text(0) % tr("\n(the strategy's next choice)"));
    }
  }
  if (list_->topLevelItemCount() > 0) list_->setCurrentItem(list_->topLevelItem(0));
}

void AgendaPanel::updateArcs() {
  if (!arcs_ || !isActive()) return;
  if (!engine_) {
    arcs_->setArcs({});
    arcs_->setPlaceholder(tr("Parse a sentence first"));
    return;
  }
  QStringList words;
  for (const std::string& w : engine_->words()) words << toQString(w);
  arcs_->setWords(words);
  if (engine_->items().size() > static_cast<std::size_t>(ChartArcLink::kMaxArcs)) {
    arcs_->setArcs({});
    arcs_->setPlaceholder(tr("%1 items are too many to draw as arcs").arg(engine_->items().size()));
    return;
  }
  arcs_->setPlaceholder(QString());
  std::vector<std::int32_t> fresh;
  if (lastReport_) {
    fresh = lastReport_->created;
    fresh.insert(fresh.end(), lastReport_->grown.begin(), lastReport_->grown.end());
    fresh.insert(fresh.end(), lastReport_->corrected.begin(), lastReport_->corrected.end());
  }
  std::vector<ChartArc> arcs;
  for (std::size_t k = 0; k < engine_->items().size(); ++k) {
    const gwb::AgendaItem& it = engine_->items()[k];
    ChartArc arc;
    arc.key = static_cast<qint64>(k);
    arc.origin = it.origin;
    arc.end = it.set;
    arc.label = withoutSpan(arrows(engine_->itemText(static_cast<std::int32_t>(k))));
    arc.madeBy = it.madeBy;
    arc.finished = it.finished;
    arc.fresh = std::find(fresh.begin(), fresh.end(), static_cast<std::int32_t>(k)) != fresh.end();
    arc.toolTip = QStringLiteral(
                      "<b>%1</b><br>forward \u03b1 = %2<br>inner \u03b3 = %3<br>"
                      "made at step %4")
                      .arg(arrows(engine_->itemText(static_cast<std::int32_t>(k))).toHtmlEscaped(),
                           number(it.forward), number(it.inner))
                      .arg(it.madeAtStep);
    arcs.push_back(std::move(arc));
  }
  const std::optional<qint64> selected = arcs_->selectedKey();
  arcs_->setArcs(std::move(arcs));
  arcs_->setCurrentPosition(engine_->position());
  if (selected) arcs_->setSelectedKey(selected);
}

void AgendaPanel::describeStep() {
  if (!engine_ || !lastReport_) return;
  const gwb::AgendaStepReport& report = *lastReport_;
  QString html = tr("<p><b>Step %1</b> at position %2: %3</p>")
                     .arg(engine_->steps())
                     .arg(report.position)
                     .arg(arrows(engine_->taskText(report.task)).toHtmlEscaped());
  const auto list = [&](const std::vector<std::int32_t>& items, int limit) -> QString {
    QString out = QStringLiteral("<ul>");
    int shown = 0;
    for (std::int32_t item : items) {
      if (++shown > limit) {
        out +=
            tr("<li>\u2026 and %1 more</li>").arg(items.size() - static_cast<std::size_t>(limit));
        break;
      }
      out += QStringLiteral("<li>") % itemHtml(item) % QStringLiteral("</li>");
    }
    return out + QStringLiteral("</ul>");
  };
  if (!report.corrected.empty()) {
    html += tr("<p><b>Corrected</b> %1 item(s) built earlier from a value that grew in this "
               "step (%2 increments pushed along recorded edges): they had used the value as "
               "it was then.</p>")
                .arg(report.corrected.size())
                .arg(report.increments) %
            list(report.corrected, 8);
  }
  if (report.task.kind == gwb::AgendaTaskKind::Predict && !report.predictedSymbols.empty()) {
    QStringList names;
    for (gwb::SymbolId y : report.predictedSymbols) names << session_->symbolName(y);
    html += tr("<p>Prediction mass \u03b1\u00b7R<sub>L</sub>(Z, Y) went to: %1.</p>")
                .arg(names.join(QStringLiteral(", ")).toHtmlEscaped());
  }
  if (!report.created.empty()) html += tr("<p>Added:</p>") % list(report.created, 12);
  if (!report.grown.empty()) html += tr("<p>More mass for:</p>") % list(report.grown, 12);
  if (report.created.empty() && report.grown.empty())
    html += tr("<p>Nothing new (look-ahead prunes what the next word cannot use).</p>");
  if (report.positionFinished && !engine_->finished())
    html += tr("<p>The agenda of position %1 is empty: set %1 is final. Position %2 begins with "
               "the items scanned into it.</p>")
                .arg(report.position)
                .arg(engine_->position());
  if (engine_->finished()) {
    if (engine_->failed()) {
      html +=
          tr("<p><b>Stopped:</b> %1</p>").arg(toQString(engine_->failureText()).toHtmlEscaped());
    } else {
      const double mine = engine_->sentenceProbability();
      QString standard = tr("the standard parse found no parse");
      if (session_->result().success) {
        const double theirs = std::exp(session_->result().logProbability);
        standard = tr("the standard parse: %1 (relative difference %2)")
                       .arg(number(theirs))
                       .arg(theirs > 0 ? QString::number(std::abs(mine / theirs - 1.0), 'g', 2)
                                       : QStringLiteral("\u2013"));
      }
      html += tr("<p><b>Finished.</b> P(sentence) = %1; %2.</p>").arg(number(mine), standard);
    }
  }
  explanation_->setHtml(html % whyHtml());
}

void AgendaPanel::describeItem(std::int32_t item) {
  if (!engine_) return;
  const gwb::AgendaItem& it = engine_->items()[static_cast<std::size_t>(item)];
  QString html = tr("<p><b>Selected</b> %1</p><p>Made by %2 at step %3%4.</p>")
                     .arg(itemHtml(item), QString::fromUtf8(gwb::operationKindName(it.madeBy)))
                     .arg(it.madeAtStep)
                     .arg(it.predicted ? tr("; predicted items predict nothing more: R<sub>L</sub> "
                                            "did it")
                                       : QString());
  for (const gwb::AgendaTask& task : engine_->agenda())
    if (task.item == item)
      html += tr("<p>On the agenda: %1 (double-click the arc or the task to run it).</p>")
                  .arg(arrows(engine_->taskText(task)).toHtmlEscaped());
  explanation_->setHtml(html % whyHtml());
}

void AgendaPanel::onArcClicked(qint64 key) {
  if (!isActive() || !engine_ || key < 0 ||
      static_cast<std::size_t>(key) >= engine_->items().size())
    return;
  for (std::size_t k = 0; k < engine_->agenda().size(); ++k)
    if (engine_->agenda()[k].item == key) {
      const QSignalBlocker block(list_);
      list_->setCurrentItem(list_->topLevelItem(static_cast<int>(k)));
      break;
    }
  describeItem(static_cast<std::int32_t>(key));
}

}  // namespace gwb::ui
