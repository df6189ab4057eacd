#include "ui/earley/stepper_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/tokenize.h"
#include "ui/common/qt_conversions.h"
#include "ui/common/text_format.h"
#include "ui/earley/agenda_panel.h"
#include "ui/earley/arc_view.h"
#include "ui/earley/chart_arc_link.h"
#include "ui/earley/chart_item_delegate.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/sentence_strip.h"
#include "ui/earley/step_explainer.h"

namespace gwb::ui {

namespace {
// A parse that takes longer than this shows its progress bar.
constexpr int kProgressDelayMs = 250;
constexpr int kProgressPollMs = 100;
// Widest a chart column starts, in average characters.
constexpr int kMaxColumnChars = 46;

int speedFromSlider(int value) {
  return static_cast<int>(std::lround(std::pow(10.0, value / 100.0 * 3.0)));
}
int sliderFromSpeed(int speed) {
  return static_cast<int>(std::lround(std::log10(std::max(speed, 1)) / 3.0 * 100.0));
}

std::optional<gwb::OperationKind> kindFromName(const QString& name) {
  if (name == QLatin1String("predict")) return gwb::OperationKind::Predict;
  if (name == QLatin1String("scan")) return gwb::OperationKind::Scan;
  if (name == QLatin1String("complete")) return gwb::OperationKind::Complete;
  if (name == QLatin1String("init")) return gwb::OperationKind::Init;
  return std::nullopt;
}

// Workspace names of Breakpoint::Match. Files from before it existed have no "match".
QString breakpointMatchName(Breakpoint::Match match) {
  switch (match) {
    case Breakpoint::Match::Finished: return QStringLiteral("finished");
    case Breakpoint::Match::AdvancedOver: return QStringLiteral("advanced-over");
    case Breakpoint::Match::Lhs: break;
  }
  return QStringLiteral("lhs");
}

Breakpoint::Match breakpointMatchFromName(const QString& name) {
  if (name == QLatin1String("finished")) return Breakpoint::Match::Finished;
  if (name == QLatin1String("advanced-over")) return Breakpoint::Match::AdvancedOver;
  return Breakpoint::Match::Lhs;
}

QString legendHtml() {
  const auto swatch = [](gwb::OperationKind kind, const QString& name) {
    return QStringLiteral("<span style=\"background:%1; color:%2\">&nbsp;%3&nbsp;</span>")
        .arg(operationColor(kind, true).name(), operationColor(kind).darker(130).name(), name);
  };
  return swatch(gwb::OperationKind::Predict, StepperView::tr("predict")) % QLatin1Char(' ') %
         swatch(gwb::OperationKind::Scan, StepperView::tr("scan")) % QLatin1Char(' ') %
         swatch(gwb::OperationKind::Complete, StepperView::tr("complete"));
}
}  // namespace

StepperView::StepperView(QWidget* parent)
    : QWidget(parent),
      stepper_(new EarleyStepper(this)),
      model_(new ChartModel(this)),
      strip_(new SentenceStrip),
      plot_(new SurprisalPlot(this)),
      table_(new QTableView(this)),
      progressTimer_(new QTimer(this)) {
  createActions();

  stripArea_ = new QScrollArea(this);
  stripArea_->setWidget(strip_);
  stripArea_->setWidgetResizable(false);
  stripArea_->setFrameShape(QFrame::StyledPanel);
  stripArea_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  stripArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  stripArea_->setFixedHeight(strip_->sizeHint().height() +
                             stripArea_->horizontalScrollBar()->sizeHint().height() + 4);
  stripArea_->setBackgroundRole(QPalette::Base);

  plot_->setMinimumHeight(110);
  plot_->setMaximumHeight(200);

  table_->setModel(model_);
  table_->setItemDelegate(new ChartItemDelegate(table_));
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setSelectionBehavior(QAbstractItemView::SelectItems);
  table_->setShowGrid(false);
  table_->setWordWrap(false);
  table_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
  table_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(ChartItemDelegate::rowHeight(table_->font()));
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setDefaultSectionSize(260);
  table_->horizontalHeader()->setHighlightSections(false);
  table_->setFocusPolicy(Qt::StrongFocus);

  auto* top = new QWidget(this);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->setSpacing(2);
  topLayout->addWidget(stripArea_);
  topLayout->addWidget(plot_, 1);

  auto* chartArea = new QWidget(this);
  auto* chartLayout = new QVBoxLayout(chartArea);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->setSpacing(2);
  chartLayout->addWidget(createFilterBar());
  // The column view and, in the same splitter, the chart drawn as arcs over the words.
  arcView_ = new ArcView(this);
  auto* chartSplitter = new QSplitter(Qt::Vertical, chartArea);
  chartSplitter->addWidget(table_);
  chartSplitter->addWidget(arcView_);
  chartSplitter->setChildrenCollapsible(true);
  chartSplitter->setSizes({300, 300});
  chartLayout->addWidget(chartSplitter, 1);

  auto* horizontal = new QSplitter(Qt::Horizontal, this);
  horizontal->addWidget(chartArea);
  horizontal->addWidget(createSidePanel());
  horizontal->setStretchFactor(0, 3);
  horizontal->setStretchFactor(1, 1);
  horizontal->setChildrenCollapsible(false);
  horizontal->setSizes({700, 300});

  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(top);
  vertical->addWidget(horizontal);
  vertical->setStretchFactor(0, 0);
  vertical->setStretchFactor(1, 1);
  vertical->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(3);
  layout->addWidget(createOptionsBar());
  layout->addWidget(controls_);
  layout->addWidget(vertical, 1);
  layout->addWidget(createProgressBar());

  connect(stepper_, &EarleyStepper::moved, this, &StepperView::onMoved);
  connect(stepper_, &EarleyStepper::playingChanged, this, [this](bool playing) {
    playAction_->setText(playing ? tr("Pause") : tr("Play"));
    playAction_->setIcon(
        style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  });
  connect(stepper_, &EarleyStepper::breakpointsChanged, this, [this] {
    rebuildBreakpointList();
    emit stateChanged();
  });
  connect(stepper_, &EarleyStepper::breakpointHit, this, [this](int index, std::size_t step) {
    if (index < 0 || static_cast<std::size_t>(index) >= stepper_->breakpoints().size()) return;
    statusLabel_->setText(
        tr("<b>Breakpoint</b> %1 hit at step %2<br>")
            .arg(
                stepper_->breakpoints()[static_cast<std::size_t>(index)].describe().toHtmlEscaped(),
                QString::number(step + 1)) %
        legendHtml());
  });
  connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) { onCurrentCellChanged(current); });
  connect(strip_, &SentenceStrip::positionActivated, stepper_, &EarleyStepper::runToPosition);
  connect(strip_, &SentenceStrip::wantsVisible, this,
          [this](int x) { stripArea_->ensureVisible(x, 0, 120, 0); });
  connect(plot_, &SurprisalPlot::positionClicked, this, [this](int position) {
    strip_->setTargetPosition(position);
    stepper_->runToPosition(position);
  });
  connect(progressTimer_, &QTimer::timeout, this, &StepperView::showProgress);
  progressTimer_->setInterval(kProgressPollMs);
  agendaPanel_->attach(this, arcView_, new ChartArcLink(this, arcView_));

  updateActions();
  updateExplanation();
  updateStatus();
}

StepperView::~StepperView() {
  if (job_) {
    job_->cancel();
    job_->wait(60000);
  }
}

void StepperView::createActions() {
  controls_ = new QToolBar(this);
  controls_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  controls_->setIconSize(QSize(16, 16));
  const auto make = [this](QStyle::StandardPixmap icon, const QString& text,
                           const QList<QKeySequence>& keys, const QString& help) {
    auto* action = new QAction(style()->standardIcon(icon), text, this);
    action->setShortcuts(keys);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    const QString keyText =
        keys.isEmpty()
            ? QString()
            : QStringLiteral(" (%1)").arg(keys.front().toString(QKeySequence::NativeText));
    action->setToolTip(help % keyText);
    addAction(action);
    return action;
  };
  resetAction_ =
      make(QStyle::SP_MediaSkipBackward, tr("Reset"), {QKeySequence(Qt::SHIFT | Qt::Key_F5)},
           tr("Back to the start, before the axiom"));
  previousWordAction_ =
      make(QStyle::SP_MediaSeekBackward, tr("Prev word"), {QKeySequence(Qt::SHIFT | Qt::Key_F11)},
           tr("Back to where the previous word was read"));
  backAction_ = make(QStyle::SP_ArrowLeft, tr("Back"), {QKeySequence(Qt::SHIFT | Qt::Key_F10)},
                     tr("Undo one operation"));
  stepAction_ = make(QStyle::SP_ArrowRight, tr("Step"), {QKeySequence(Qt::Key_F10)},
                     tr("Apply one operation: predict, scan or complete"));
  nextWordAction_ = make(QStyle::SP_MediaSeekForward, tr("Next word"), {QKeySequence(Qt::Key_F11)},
                         tr("Run through the scans of the next word"));
  runToPositionAction_ =
      make(QStyle::SP_ArrowDown, tr("Run to position"), {QKeySequence(Qt::CTRL | Qt::Key_F10)},
           tr("Run until the target position (click one in the sentence strip) is finished"));
  runToEndAction_ = make(QStyle::SP_MediaSkipForward, tr("Run to end"), {QKeySequence(Qt::Key_F5)},
                         tr("Run to the end, or to the next breakpoint"));
  playAction_ = make(QStyle::SP_MediaPlay, tr("Play"), {QKeySequence(Qt::Key_F8)},
                     tr("Step automatically at the chosen speed"));
  breakpointAction_ =
      make(QStyle::SP_DialogNoButton, tr("Break on symbol"), {QKeySequence(Qt::Key_F9)},
           tr("Add or remove a breakpoint on the selected item's left-hand side"));
  for (QAction* action : {resetAction_, previousWordAction_, backAction_, stepAction_,
                          nextWordAction_, runToPositionAction_, runToEndAction_, playAction_})
    controls_->addAction(action);

  speedSlider_ = new QSlider(Qt::Horizontal, this);
  speedSlider_->setRange(0, 100);
  speedSlider_->setValue(sliderFromSpeed(stepper_->speed()));
  speedSlider_->setFixedWidth(90);
  speedSlider_->setToolTip(tr("Auto-play speed, operations per second"));
  speedLabel_ = new QLabel(this);
  speedLabel_->setMinimumWidth(QFontMetrics(font()).horizontalAdvance(QStringLiteral("1000/s ")));
  speedLabel_->setText(tr("%1/s").arg(stepper_->speed()));
  controls_->addSeparator();
  controls_->addWidget(speedSlider_);
  controls_->addWidget(speedLabel_);

  connect(resetAction_, &QAction::triggered, stepper_, &EarleyStepper::reset);
  connect(previousWordAction_, &QAction::triggered, stepper_, &EarleyStepper::previousWord);
  connect(backAction_, &QAction::triggered, stepper_, &EarleyStepper::stepBack);
  connect(stepAction_, &QAction::triggered, stepper_, &EarleyStepper::stepForward);
  connect(nextWordAction_, &QAction::triggered, stepper_, &EarleyStepper::nextWord);
  connect(runToPositionAction_, &QAction::triggered, this, &StepperView::runToTarget);
  connect(runToEndAction_, &QAction::triggered, stepper_, &EarleyStepper::runToEnd);
  connect(playAction_, &QAction::triggered, stepper_, &EarleyStepper::togglePlay);
  connect(breakpointAction_, &QAction::triggered, this, &StepperView::toggleBreakpointOnSelection);
  connect(speedSlider_, &QSlider::valueChanged, this, [this](int value) {
    stepper_->setSpeed(speedFromSlider(value));
    speedLabel_->setText(tr("%1/s").arg(stepper_->speed()));
    emit stateChanged();
  });
}

QWidget* StepperView::createOptionsBar() {
  auto* bar = new QWidget(this);
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel(tr("&Sentence:"), bar);
  sentenceBox_ = new QComboBox(bar);
  sentenceBox_->setEditable(true);
  sentenceBox_->setInsertPolicy(QComboBox::InsertAtTop);
  sentenceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  sentenceBox_->setMinimumContentsLength(30);
  sentenceBox_->lineEdit()->setPlaceholderText(tr("Type a sentence, or pick one"));
  // A line edit keeps 32,767 characters by default and silently drops the rest; a whole corpus
  // sent from a corpus tab ("Parse whole file") is ten times longer.
  sentenceBox_->lineEdit()->setMaxLength(std::numeric_limits<int>::max());
  sentenceBox_->setToolTip(tr("Words separated by spaces. Enter parses."));
  label->setBuddy(sentenceBox_);
  parseButton_ = new QPushButton(tr("Parse"), bar);
  parseButton_->setToolTip(tr("Parse the sentence and start stepping"));
  textbookBox_ = new QCheckBox(tr("Textbook (no look-ahead)"), bar);
  textbookBox_->setToolTip(
      tr("Without look-ahead every prediction and completion is made, as in textbooks; with "
         "it, only those the next word can use (the probabilities are the same)."));
  // How the parser computes — not how numbers are shown (that is the chart's "Show values as"
  // box): the two are labelled and worded apart so that they are not taken for one another.
  auto* arithmeticLabel = new QLabel(tr("Parser &arithmetic:"), bar);
  arithmeticBox_ = new QComboBox(bar);
  arithmeticBox_->setObjectName(QStringLiteral("arithmeticBox"));
  arithmeticBox_->addItem(tr("Rescale at each word"), QStringLiteral("scaled"));
  arithmeticBox_->addItem(tr("Logarithms"), QStringLiteral("log"));
  arithmeticBox_->setToolTip(
      tr("How the parser stores probabilities while it parses: rescaled at every word "
         "(Luong et al. 2013, section 5) or as logarithms. The answers agree; how the chart "
         "shows them is chosen under the chart."));
  arithmeticLabel->setBuddy(arithmeticBox_);
  row->addWidget(label);
  row->addWidget(sentenceBox_, 1);
  row->addWidget(parseButton_);
  row->addSpacing(8);
  row->addWidget(textbookBox_);
  row->addSpacing(8);
  row->addWidget(arithmeticLabel);
  row->addWidget(arithmeticBox_);

  connect(parseButton_, &QPushButton::clicked, this, &StepperView::parse);
  connect(sentenceBox_->lineEdit(), &QLineEdit::returnPressed, this, &StepperView::parse);
  connect(sentenceBox_, &QComboBox::activated, this, [this] { parse(); });
  connect(textbookBox_, &QCheckBox::toggled, this, [this] {
    // The two modes make different operations over the same state sets: keep the words read
    // (the end of the last finished state set) rather than a count of operations.
    QJsonObject keep{{QStringLiteral("applied"), static_cast<qint64>(0)}};
    if (session_ && stepper_->applied() > 0) {
      const std::size_t applied = stepper_->applied();
      const int set = static_cast<int>(session_->trace().setOfStep(applied - 1));
      const bool setFinished =
          applied >= session_->stepsBeforeSet(static_cast<std::size_t>(set) + 1);
      const int position = setFinished ? set : set - 1;
      if (position >= 0) keep.insert(QStringLiteral("position"), position);
    }
    pendingState_ = keep;
    parse();
  });
  connect(arithmeticBox_, &QComboBox::currentIndexChanged, this, [this] {
    QJsonObject keep{{QStringLiteral("applied"), static_cast<qint64>(stepper_->applied())}};
    pendingState_ = keep;
    parse();
  });
  return bar;
}

QWidget* StepperView::createFilterBar() {
  auto* bar = new QWidget(this);
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  hidePredictedBox_ = new QCheckBox(tr("Hide predicted"), bar);
  hidePredictedBox_->setToolTip(
      tr("Hide items made by prediction whose dot is still at the "
         "start"));
  hideZeroBox_ = new QCheckBox(tr("Hide zero"), bar);
  hideZeroBox_->setToolTip(tr("Hide items whose forward probability is zero"));
  symbolEdit_ = new QLineEdit(bar);
  symbolEdit_->setPlaceholderText(tr("Only LHS\u2026"));
  symbolEdit_->setClearButtonEnabled(true);
  symbolEdit_->setToolTip(tr("Show only items with this left-hand side (e.g. NP)"));
  symbolEdit_->setMaximumWidth(140);
  symbolEdit_->setMinimumWidth(90);
  auto* formatLabel = new QLabel(tr("Show &values as:"), bar);
  formatBox_ = new QComboBox(bar);
  formatBox_->setObjectName(QStringLiteral("numberFormatBox"));
  formatLabel->setBuddy(formatBox_);
  formatBox_->addItem(tr("Probabilities"), QStringLiteral("probability"));
  formatBox_->addItem(tr("Log probabilities"), QStringLiteral("log"));
  formatBox_->addItem(tr("Scaled values"), QStringLiteral("scaled"));
  formatBox_->setToolTip(
      tr("How \u03b1 (forward), \u03b3 (inner) and Viterbi scores are "
         "shown; scaled values are what the parser stores"));
  unitBox_ = new QComboBox(bar);
  unitBox_->addItem(tr("Surprisal in bits"), QStringLiteral("bits"));
  unitBox_->addItem(tr("Surprisal in nats"), QStringLiteral("nats"));
  row->addWidget(hidePredictedBox_);
  row->addWidget(hideZeroBox_);
  row->addWidget(symbolEdit_);
  row->addStretch(1);
  row->addWidget(formatLabel);
  row->addWidget(formatBox_);
  row->addWidget(unitBox_);

  connect(hidePredictedBox_, &QCheckBox::toggled, this, &StepperView::applyFilterFromBar);
  connect(hideZeroBox_, &QCheckBox::toggled, this, &StepperView::applyFilterFromBar);
  connect(symbolEdit_, &QLineEdit::textChanged, this, &StepperView::applyFilterFromBar);
  connect(formatBox_, &QComboBox::currentIndexChanged, this, [this] {
    model_->setNumberFormat(numberFormatFromKey(formatBox_->currentData().toString()));
    updateExplanation();
    emit stateChanged();
  });
  connect(unitBox_, &QComboBox::currentIndexChanged, this, [this] {
    plot_->setUnit(unitBox_->currentData().toString() == QLatin1String("nats")
                       ? SurprisalPlot::Unit::Nats
                       : SurprisalPlot::Unit::Bits);
    emit stateChanged();
  });
  return bar;
}

QWidget* StepperView::createSidePanel() {
  auto* panel = new QWidget(this);
  auto* panelLayout = new QVBoxLayout(panel);
  panelLayout->setContentsMargins(0, 0, 0, 0);
  panelLayout->setSpacing(2);
  statusLabel_ = new QLabel(panel);
  statusLabel_->setObjectName(QStringLiteral("stepStatus"));
  statusLabel_->setTextFormat(Qt::RichText);
  statusLabel_->setWordWrap(true);
  statusLabel_->setContentsMargins(4, 2, 4, 2);
  auto* tabs = new QTabWidget(panel);
  panelLayout->addWidget(statusLabel_);
  panelLayout->addWidget(tabs, 1);
  tabs->setDocumentMode(true);
  explanation_ = new QTextBrowser(tabs);
  explanation_->setObjectName(QStringLiteral("explanation"));
  explanation_->setOpenLinks(false);
  tabs->addTab(explanation_, tr("Explanation"));
  agendaPanel_ = new AgendaPanel(tabs);
  tabs->addTab(agendaPanel_, tr("Agenda"));

  auto* breakpoints = new QWidget(tabs);
  auto* layout = new QVBoxLayout(breakpoints);
  layout->setContentsMargins(4, 4, 4, 4);
  breakpointList_ = new QListWidget(breakpoints);
  breakpointList_->setToolTip(tr("Uncheck to disable; Delete removes"));
  auto* addRow = new QHBoxLayout;
  breakpointKindBox_ = new QComboBox(breakpoints);
  breakpointKindBox_->setObjectName(QStringLiteral("breakpointKindBox"));
  breakpointKindBox_->addItem(tr("any operation"), QString());
  breakpointKindBox_->addItem(tr("predict"), QStringLiteral("predict"));
  breakpointKindBox_->addItem(tr("scan"), QStringLiteral("scan"));
  // Completion has two sides; name them so that "PP" means what the user has in mind.
  breakpointKindBox_->addItem(tr("\u2026 completed (an item of it finished)"),
                              QStringLiteral("finished"));
  breakpointKindBox_->setItemData(
      breakpointKindBox_->count() - 1,
      tr("Stops when an item of the symbol is finished, e.g. PP \u2192 P NP \u2022 for PP"),
      Qt::ToolTipRole);
  breakpointKindBox_->addItem(tr("an item advanced over \u2026"), QStringLiteral("advanced-over"));
  breakpointKindBox_->setItemData(
      breakpointKindBox_->count() - 1,
      tr("Stops when a completion moves a waiting item's dot over the finished symbol, e.g. "
         "VP \u2192 V NP \u2022 PP becoming VP \u2192 V NP PP \u2022 for PP"),
      Qt::ToolTipRole);
  breakpointSymbolEdit_ = new QLineEdit(breakpoints);
  breakpointSymbolEdit_->setObjectName(QStringLiteral("breakpointSymbolEdit"));
  breakpointSymbolEdit_->setPlaceholderText(tr("symbol or word"));
  auto* add = new QPushButton(tr("Add"), breakpoints);
  auto* remove = new QPushButton(tr("Remove"), breakpoints);
  addRow->addWidget(breakpointKindBox_);
  addRow->addWidget(breakpointSymbolEdit_, 1);
  addRow->addWidget(add);
  auto* help = new QLabel(tr("Run to end (F5) and auto-play stop after an operation that "
                             "matches. F9 breaks on the selected item's symbol."),
                          breakpoints);
  help->setWordWrap(true);
  help->setEnabled(false);
  layout->addLayout(addRow);
  layout->addWidget(breakpointList_, 1);
  layout->addWidget(remove, 0, Qt::AlignRight);
  layout->addWidget(help);
  tabs->addTab(breakpoints, tr("Breakpoints"));

  connect(add, &QPushButton::clicked, this, &StepperView::addBreakpointFromBar);
  connect(breakpointSymbolEdit_, &QLineEdit::returnPressed, this,
          &StepperView::addBreakpointFromBar);
  connect(remove, &QPushButton::clicked, this,
          [this] { stepper_->removeBreakpoint(breakpointList_->currentRow()); });
  connect(breakpointList_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    const int row = breakpointList_->row(item);
    std::vector<Breakpoint> list = stepper_->breakpoints();
    if (row < 0 || static_cast<std::size_t>(row) >= list.size()) return;
    list[static_cast<std::size_t>(row)].enabled = item->checkState() == Qt::Checked;
    stepper_->setBreakpoints(list);
  });
  auto* removeKey = new QAction(breakpointList_);
  removeKey->setShortcut(QKeySequence::Delete);
  removeKey->setShortcutContext(Qt::WidgetShortcut);
  breakpointList_->addAction(removeKey);
  connect(removeKey, &QAction::triggered, this,
          [this] { stepper_->removeBreakpoint(breakpointList_->currentRow()); });
  return panel;
}

QWidget* StepperView::createProgressBar() {
  progressRow_ = new QWidget(this);
  auto* row = new QHBoxLayout(progressRow_);
  row->setContentsMargins(0, 0, 0, 0);
  progressLabel_ = new QLabel(progressRow_);
  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::Always, progressRow_);
  jobBar_->cancelButton()->setObjectName(QStringLiteral("cancelParse"));
  row->addWidget(progressLabel_);
  row->addWidget(jobBar_, 1);
  connect(jobBar_, &JobProgressBar::cancelClicked, this, &StepperView::cancelParse);
  progressRow_->hide();
  return progressRow_;
}

void StepperView::setGrammar(std::shared_ptr<const gwb::Grammar> grammar) {
  grammar_ = std::move(grammar);
  compiled_.reset();
  QStringList symbols;
  if (grammar_) {
    for (gwb::SymbolId lhs : grammar_->lhsSymbols())
      symbols << toQString(grammar_->symbols().name(lhs));
  }
  auto* completer = new QCompleter(symbols, symbolEdit_);
  completer->setCaseSensitivity(Qt::CaseSensitive);
  symbolEdit_->setCompleter(completer);
  if (!sentence().isEmpty()) {
    pendingState_ =
        QJsonObject{{QStringLiteral("applied"), static_cast<qint64>(stepper_->applied())}};
    parse();
  }
}

void StepperView::setSentences(const QStringList& sentences) {
  const QString current = sentence();
  const QSignalBlocker block(sentenceBox_);
  sentenceBox_->clear();
  sentenceBox_->addItems(sentences);
  sentenceBox_->setEditText(current.isEmpty() && !sentences.isEmpty() ? sentences.front()
                                                                      : current);
}

QStringList StepperView::sentences() const {
  QStringList list;
  for (int i = 0; i < sentenceBox_->count(); ++i) list << sentenceBox_->itemText(i);
  return list;
}

QString StepperView::sentence() const { return sentenceBox_->currentText().simplified(); }

void StepperView::setSentence(const QString& sentence) {
  {
    const QSignalBlocker block(sentenceBox_);
    sentenceBox_->setEditText(sentence);
  }
  parse();
}

bool StepperView::lookahead() const { return !textbookBox_->isChecked(); }

void StepperView::setLookahead(bool on) { textbookBox_->setChecked(!on); }

gwb::NumericMode StepperView::numericMode() const {
  return arithmeticBox_->currentData().toString() == QLatin1String("log")
             ? gwb::NumericMode::Log
             : gwb::NumericMode::Scaled;
}

void StepperView::setNumericMode(gwb::NumericMode mode) {
  arithmeticBox_->setCurrentIndex(mode == gwb::NumericMode::Log ? 1 : 0);
}

void StepperView::parse() {
  cancelParse();
  const QString text = sentence();
  if (!grammar_) {
    explanation_->setHtml(tr("<p>No grammar to parse with.</p>"));
    return;
  }
  if (text.isEmpty()) {
    explanation_->setHtml(tr("<p>Type a sentence above and press Enter to parse it.</p>"));
    return;
  }
  // Remember the sentence in the list (most recent first), as a history.
  if (sentenceBox_->findText(text) < 0) {
    const QSignalBlocker block(sentenceBox_);
    sentenceBox_->insertItem(0, text);
    sentenceBox_->setEditText(text);
  }

  ParseRequest request;
  request.grammar = grammar_;
  request.compiled = compiled_;
  request.words = gwb::tokenize(text.toStdString());
  request.lookahead = lookahead();
  request.mode = numericMode();
  request.afterSet = parseHook_;
  job_ = new ParseJob(std::move(request), this);
  connect(job_, &ParseJob::finished, this, &StepperView::onParseFinished);
  progressTicks_ = 0;
  jobBar_->start();
  jobBar_->setProgress(0, std::max(job_->total(), 1));
  progressLabel_->setText(
      tr("Parsing %1\u2026").arg(countText(job_->total(), tr("word"), tr("words"))));
  progressTimer_->start();
  job_->start();
  updateActions();
}

bool StepperView::isParsing() const { return job_ != nullptr; }

void StepperView::cancelParse() {
  if (!job_) return;
  ParseJob* job = job_;
  job_ = nullptr;
  // The finished signal of a job that was replaced is ignored; the job deletes itself.
  disconnect(job, &ParseJob::finished, this, &StepperView::onParseFinished);
  job->cancel();
  connect(job, &ParseJob::finished, job, &QObject::deleteLater);
  progressTimer_->stop();
  jobBar_->finish();
  progressRow_->hide();
}

bool StepperView::waitForParse(int milliseconds) {
  QElapsedTimer clock;
  clock.start();
  while (job_ != nullptr && clock.elapsed() < milliseconds) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    if (job_ != nullptr) job_->wait(10);
  }
  QApplication::processEvents();
  return job_ == nullptr;
}

void StepperView::showProgress() {
  if (!job_) return;
  ++progressTicks_;
  if (progressTicks_ * kProgressPollMs >= kProgressDelayMs) progressRow_->show();
  jobBar_->setProgress(job_->progress(), std::max(job_->total(), 1));
}

void StepperView::onParseFinished(std::shared_ptr<const ParseSession> session) {
  if (sender() != job_) return;
  const QString jobError = job_->errorText();
  job_->deleteLater();
  job_ = nullptr;
  progressTimer_->stop();
  jobBar_->finish();
  progressRow_->hide();

  if (!session || !session->hasChart()) {
    session_.reset();
    model_->setSession(nullptr);
    stepper_->setSession(nullptr);
    plot_->setSession(nullptr);
    strip_->setWords({});
    QString why =
        tr("<p><b>This grammar cannot be used for parsing.</b></p><p>%1</p>")
            .arg(session ? session->errorText().toHtmlEscaped() : jobError.toHtmlEscaped());
    if (grammar_ && grammar_->ruleCount() > 0 && !grammar_->start())
      why += tr("<p>Pick one in the <b>start-symbol box</b> at the right of the status bar.</p>");
    explanation_->setHtml(why);
    emit sessionChanged(nullptr);
    updateActions();
    updateStatus();
    return;
  }
  session_ = session;
  compiled_ = session->sharedCompiled();

  const QJsonObject pending = pendingState_.value_or(QJsonObject());
  pendingState_.reset();
  const auto applied = static_cast<std::size_t>(
      std::max<qint64>(0, pending.value(QStringLiteral("applied")).toInteger(0)));

  QStringList words;
  for (const std::string& w : session->words()) words << toQString(w);
  strip_->setWords(words);
  stripArea_->horizontalScrollBar()->setValue(0);

  // Column widths: wide enough for a typical item of this grammar, never absurdly wide.
  const QFontMetrics metrics(table_->font());
  int widest = metrics.horizontalAdvance(QStringLiteral("[10, 12] NP \u2192 NP . PP  "));
  const auto& chart = session->chart();
  std::size_t sampled = 0;
  for (std::size_t r = 0; r < chart.setCount() && sampled < 400; ++r) {
    for (std::size_t k = 0; k < chart.set(r).size() && sampled < 400; ++k, ++sampled) {
      const gwb::ItemRef ref{static_cast<std::int32_t>(r), static_cast<std::int32_t>(k)};
      widest = std::max(widest, metrics.horizontalAdvance(session->itemText(ref)));
    }
  }
  widest = std::min(widest + 24, kMaxColumnChars * metrics.averageCharWidth());
  QFont small = table_->font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  widest = std::max(widest, QFontMetrics(small).horizontalAdvance(
                                QStringLiteral("\u03b1 0.000123   \u03b3 0.000123   v 0.000123")) +
                                16);
  // Before the model resets, so that its 2,000 columns are made at this width.
  table_->horizontalHeader()->setDefaultSectionSize(widest);
  plot_->setSession(session);
  model_->setSession(session, applied);
  // A new parse starts the chart at its first column; the step below scrolls to its operation.
  table_->horizontalScrollBar()->setValue(0);
  table_->verticalScrollBar()->setValue(0);

  stepper_->setSession(session, applied);
  // A workspace may ask for "the end of state set p" rather than a number of operations.
  if (pending.contains(QStringLiteral("position")))
    stepper_->runToPosition(pending.value(QStringLiteral("position")).toInt());
  if (pending.contains(QStringLiteral("selected"))) {
    const QJsonArray at = pending.value(QStringLiteral("selected")).toArray();
    if (at.size() == 2) selectItem({at[0].toInt(), at[1].toInt()});
  }
  if (session->outcome() == ParseSession::Outcome::Cancelled) {
    int reached = 0;
    for (std::size_t r = 0; r < chart.setCount(); ++r)
      if (!chart.set(r).empty()) reached = static_cast<int>(r);
    statusLabel_->setText(
        tr("<b>Cancelled</b> after word %1: the chart shows sets 0\u2013%1").arg(reached));
  }
  emit sessionChanged(session);
  updateActions();
}

void StepperView::onMoved(std::size_t applied, std::size_t previous) {
  // Moving forward highlights what the move made; moving back highlights nothing new.
  const gwb::ItemRef selectedBefore = model_->selectedItem();
  model_->setApplied(applied, previous < applied ? previous : applied);
  const gwb::ItemRef selected = model_->selectedItem();
  {
    const QSignalBlocker block(table_->selectionModel());
    const QModelIndex at = model_->indexOfItem(selected);
    if (at.isValid()) {
      table_->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect);
    } else {
      table_->selectionModel()->clearSelection();
    }
  }
  if (session_) {
    // The state set being built: that of the last operation applied.
    const int set = applied == 0 ? 0 : static_cast<int>(session_->trace().setOfStep(applied - 1));
    strip_->setCurrentPosition(set);
    plot_->setPosition(set);
    // Keep the operation just applied in view.
    if (applied > 0 && session_->steppable()) {
      const gwb::ParseEvent e = session_->trace().event(applied - 1);
      const QModelIndex cell = model_->indexOfItem(e.item);
      if (cell.isValid()) {
        table_->scrollTo(cell, QAbstractItemView::EnsureVisible);
        alignColumns();
      }
    }
  }
  updateStripSpan();
  updateExplanation();
  updateStatus();
  updateActions();
  emit appliedChanged(applied);
  if (!(selected == selectedBefore)) emit selectedItemChanged(selected);
  emit stateChanged();
}

void StepperView::onCurrentCellChanged(const QModelIndex& current) {
  const gwb::ItemRef item = model_->itemAt(current);
  model_->setSelectedItem(item);
  updateStripSpan();
  updateExplanation();
  emit selectedItemChanged(item);
  emit stateChanged();
}

void StepperView::alignColumns() {
  // After a scroll, start the view at a column's left edge rather than in the middle of one.
  QScrollBar* bar = table_->horizontalScrollBar();
  const QHeaderView* header = table_->horizontalHeader();
  const int first = header->logicalIndexAt(0);
  if (first < 0) return;
  const int cut = -header->sectionViewportPosition(first);
  if (cut <= 0) return;
  const int next = header->sectionPosition(first) + header->sectionSize(first);
  bar->setValue(std::min(next, bar->maximum()));
}

void StepperView::selectItem(gwb::ItemRef item) {
  // Only items that exist at this step can be selected.
  if (!session_ || !session_->stateAfter(item, stepper_->applied())) item = {};
  model_->setSelectedItem(item);
  const QModelIndex at = model_->indexOfItem(item);
  {
    const QSignalBlocker block(table_->selectionModel());
    if (at.isValid()) {
      table_->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect);
      table_->scrollTo(at);
      alignColumns();
    } else {
      table_->selectionModel()->clearSelection();
    }
  }
  updateStripSpan();
  updateExplanation();
  emit selectedItemChanged(item);
  emit stateChanged();
}

gwb::ItemRef StepperView::selectedItem() const { return model_->selectedItem(); }

void StepperView::showMessage(const QString& html) {
  statusLabel_->setText(html % QStringLiteral("<br>") % legendHtml());
}

QString StepperView::statusText() const { return statusLabel_->text(); }

void StepperView::updateStripSpan() {
  const gwb::ItemRef item = model_->selectedItem();
  if (!session_ || !item.valid()) {
    strip_->setSpan(-1, -1, QString());
    return;
  }
  strip_->setSpan(session_->chart().item(item).origin, item.set, session_->itemText(item));
}

void StepperView::updateExplanation() {
  if (!session_) return;
  const std::size_t applied = stepper_->applied();
  const NumberFormat format = model_->numberFormat();
  QString html;
  if (!session_->steppable()) {
    html = QStringLiteral("<p><b>%1</b></p>").arg(session_->tooLargeText().toHtmlEscaped());
  } else if (applied == 0) {
    html = explainStart(*session_).toHtml();
  } else {
    const gwb::ParseEvent e = session_->trace().event(applied - 1);
    html = QStringLiteral("<p style=\"color:%1\"><small>STEP %2 OF %3 \u00b7 %4</small></p>")
               .arg(operationColor(e.kind).name(), QString::number(applied),
                    QString::number(stepper_->stepCount()),
                    toQString(gwb::operationKindName(e.kind)).toUpper()) %
           explainStep(*session_, applied - 1, format).toHtml();
  }
  // At the end, how the parse ended (which word could not be scanned, or that the sentence
  // ended before a complete parse).
  if (applied == stepper_->stepCount() && applied > 0 && !session_->result().success) {
    const Explanation outcome = explainOutcome(*session_);
    if (!outcome.headline.isEmpty()) html += QStringLiteral("<hr>") % outcome.toHtml();
  }
  const gwb::ItemRef item = model_->selectedItem();
  if (item.valid()) {
    const Explanation x = explainItem(*session_, item, applied, format);
    if (!x.headline.isEmpty())
      html += QStringLiteral("<hr><p><small>SELECTED ITEM</small></p>") % x.toHtml();
  }
  explanation_->setHtml(html);
}

void StepperView::updateStatus() {
  if (!session_) {
    statusLabel_->setText(legendHtml());
    return;
  }
  const std::size_t applied = stepper_->applied();
  QString where;
  if (applied == 0) {
    where = tr("before the first step");
  } else {
    const gwb::ParseTrace& trace = session_->trace();
    where = tr("%1 in set %2")
                .arg(toQString(gwb::operationKindName(trace.kindOfStep(applied - 1))),
                     QString::number(trace.setOfStep(applied - 1)));
  }
  const gwb::ParseResult& result = session_->result();
  QString outcome;
  if (applied == stepper_->stepCount() && session_->outcome() == ParseSession::Outcome::Parsed)
    outcome = result.success ? tr(" \u00b7 <b>parsed</b>, P = %1")
                                   .arg(formatReadableProbabilityFromLog(result.logProbability))
                             : QStringLiteral(" \u00b7 <b>%1</b>")
                                   .arg(explainOutcome(*session_).headline.toHtmlEscaped());
  statusLabel_->setText(tr("Step <b>%1</b> of %2 \u00b7 %3%4<br>")
                            .arg(QLocale().toString(static_cast<qint64>(applied)),
                                 QLocale().toString(static_cast<qint64>(stepper_->stepCount())),
                                 where, outcome) %
                        legendHtml());
}

void StepperView::updateActions() {
  // A parse too large to step through shows its finished chart only.
  const bool ready = session_ != nullptr && !job_ && session_->steppable();
  resetAction_->setEnabled(ready && !stepper_->atStart());
  previousWordAction_->setEnabled(ready && !stepper_->atStart());
  backAction_->setEnabled(ready && !stepper_->atStart());
  stepAction_->setEnabled(ready && !stepper_->atEnd());
  nextWordAction_->setEnabled(ready && !stepper_->atEnd());
  runToEndAction_->setEnabled(ready && !stepper_->atEnd());
  runToPositionAction_->setEnabled(ready);
  playAction_->setEnabled(ready);
  breakpointAction_->setEnabled(ready);
}

void StepperView::runToTarget() {
  int target = strip_->targetPosition();
  if (target < 0) {
    const QModelIndex current = table_->currentIndex();
    target = current.isValid() ? current.column() : -1;
  }
  if (target >= 0) stepper_->runToPosition(target);
}

void StepperView::applyFilterFromBar() {
  ChartModel::Filter filter;
  filter.hidePredicted = hidePredictedBox_->isChecked();
  filter.hideZero = hideZeroBox_->isChecked();
  filter.symbol = symbolEdit_->text().trimmed();
  model_->setFilter(filter);
  const QModelIndex at = model_->indexOfItem(model_->selectedItem());
  if (at.isValid()) {
    const QSignalBlocker block(table_->selectionModel());
    table_->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect);
  }
  emit stateChanged();
}

void StepperView::setFilter(const ChartModel::Filter& filter) {
  {
    const QSignalBlocker a(hidePredictedBox_);
    const QSignalBlocker b(hideZeroBox_);
    const QSignalBlocker c(symbolEdit_);
    hidePredictedBox_->setChecked(filter.hidePredicted);
    hideZeroBox_->setChecked(filter.hideZero);
    symbolEdit_->setText(filter.symbol);
  }
  applyFilterFromBar();
}

void StepperView::setNumberFormat(NumberFormat format) {
  formatBox_->setCurrentIndex(formatBox_->findData(numberFormatKey(format)));
}

void StepperView::setSurprisalUnit(SurprisalPlot::Unit unit) {
  unitBox_->setCurrentIndex(unit == SurprisalPlot::Unit::Nats ? 1 : 0);
}

void StepperView::rebuildBreakpointList() {
  const QSignalBlocker block(breakpointList_);
  breakpointList_->clear();
  for (const Breakpoint& b : stepper_->breakpoints()) {
    auto* item = new QListWidgetItem(b.describe(), breakpointList_);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    item->setCheckState(b.enabled ? Qt::Checked : Qt::Unchecked);
  }
}

void StepperView::addBreakpointFromBar() {
  Breakpoint b;
  const QString kind = breakpointKindBox_->currentData().toString();
  b.match = breakpointMatchFromName(kind);
  if (b.match == Breakpoint::Match::Lhs) b.kind = kindFromName(kind);
  b.symbol = breakpointSymbolEdit_->text().trimmed();
  stepper_->addBreakpoint(b);
  breakpointSymbolEdit_->clear();
}

void StepperView::toggleBreakpointOnSelection() {
  const gwb::ItemRef item = model_->selectedItem();
  if (!session_ || !item.valid()) return;
  Breakpoint b;
  b.symbol = session_->symbolName(session_->lhs(item));
  const auto& list = stepper_->breakpoints();
  const auto it = std::find(list.begin(), list.end(), b);
  if (it != list.end()) {
    stepper_->removeBreakpoint(static_cast<int>(it - list.begin()));
  } else {
    stepper_->addBreakpoint(b);
  }
}

QJsonObject StepperView::state() const {
  QJsonObject state;
  state.insert(QStringLiteral("sentences"), QJsonArray::fromStringList(sentences()));
  state.insert(QStringLiteral("sentence"), sentence());
  state.insert(QStringLiteral("lookahead"), lookahead());
  state.insert(QStringLiteral("arithmetic"), arithmeticBox_->currentData().toString());
  state.insert(
      QStringLiteral("applied"),
      static_cast<qint64>(pendingState_ && pendingState_->contains(QStringLiteral("applied"))
                              ? pendingState_->value(QStringLiteral("applied")).toInteger()
                              : static_cast<qint64>(stepper_->applied())));
  state.insert(QStringLiteral("numbers"), formatBox_->currentData().toString());
  state.insert(QStringLiteral("unit"), unitBox_->currentData().toString());
  const ChartModel::Filter& filter = model_->filter();
  state.insert(QStringLiteral("filter"),
               QJsonObject{{QStringLiteral("hidePredicted"), filter.hidePredicted},
                           {QStringLiteral("hideZero"), filter.hideZero},
                           {QStringLiteral("symbol"), filter.symbol}});
  QJsonArray breakpoints;
  for (const Breakpoint& b : stepper_->breakpoints()) {
    QJsonObject entry{
        {QStringLiteral("kind"),
         b.kind ? QJsonValue(toQString(gwb::operationKindName(*b.kind))) : QJsonValue()},
        {QStringLiteral("symbol"), b.symbol},
        {QStringLiteral("enabled"), b.enabled},
        {QStringLiteral("match"), breakpointMatchName(b.match)}};
    breakpoints.append(entry);
  }
  state.insert(QStringLiteral("breakpoints"), breakpoints);
  state.insert(QStringLiteral("speed"), stepper_->speed());
  const gwb::ItemRef selected = model_->selectedItem();
  if (selected.valid())
    state.insert(QStringLiteral("selected"), QJsonArray{selected.set, selected.index});
  return state;
}

void StepperView::restoreState(const QJsonObject& state) {
  {
    const QSignalBlocker a(textbookBox_);
    const QSignalBlocker b(arithmeticBox_);
    textbookBox_->setChecked(!state.value(QStringLiteral("lookahead")).toBool(true));
    arithmeticBox_->setCurrentIndex(
        state.value(QStringLiteral("arithmetic")).toString() == QLatin1String("log") ? 1 : 0);
  }
  setNumberFormat(numberFormatFromKey(state.value(QStringLiteral("numbers")).toString()));
  setSurprisalUnit(state.value(QStringLiteral("unit")).toString() == QLatin1String("nats")
                       ? SurprisalPlot::Unit::Nats
                       : SurprisalPlot::Unit::Bits);
  const QJsonObject filter = state.value(QStringLiteral("filter")).toObject();
  setFilter({filter.value(QStringLiteral("hidePredicted")).toBool(),
             filter.value(QStringLiteral("hideZero")).toBool(),
             filter.value(QStringLiteral("symbol")).toString()});
  std::vector<Breakpoint> breakpoints;
  for (const auto& value : state.value(QStringLiteral("breakpoints")).toArray()) {
    const QJsonObject b = value.toObject();
    Breakpoint breakpoint{kindFromName(b.value(QStringLiteral("kind")).toString()),
                          b.value(QStringLiteral("symbol")).toString(),
                          b.value(QStringLiteral("enabled")).toBool(true)};
    breakpoint.match = breakpointMatchFromName(b.value(QStringLiteral("match")).toString());
    // Before the two sides of completion had names, "complete PP" was meant as "PP completed".
    if (!b.contains(QStringLiteral("match")) && breakpoint.kind == gwb::OperationKind::Complete &&
        !breakpoint.symbol.isEmpty()) {
      breakpoint.kind.reset();
      breakpoint.match = Breakpoint::Match::Finished;
    }
    breakpoints.push_back(breakpoint);
  }
  stepper_->setBreakpoints(std::move(breakpoints));
  const int speed = state.value(QStringLiteral("speed")).toInt(stepper_->speed());
  speedSlider_->setValue(sliderFromSpeed(speed));
  stepper_->setSpeed(speed);
  speedLabel_->setText(tr("%1/s").arg(stepper_->speed()));

  QStringList sentences;
  for (const auto& value : state.value(QStringLiteral("sentences")).toArray())
    sentences << value.toString();
  if (!sentences.isEmpty()) setSentences(sentences);
  pendingState_ = state;
  const QString text = state.value(QStringLiteral("sentence")).toString();
  {
    const QSignalBlocker block(sentenceBox_);
    sentenceBox_->setEditText(text);
  }
  parse();
}

}  // namespace gwb::ui
