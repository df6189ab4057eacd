#include "ui/ds/ds_stepper_view.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <utility>

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "gwb/common/memory_budget.h"
#include "gwb/ds/ds_tree.h"
#include "gwb/ds/memory_budget.h"
#include "ui/common/shared_data_folder.h"
#include "ui/common/tree_export.h"
#include "ui/ds/ds_dag_model.h"
#include "ui/ds/ds_dag_view.h"
#include "ui/ds/ds_record_format.h"
#include "ui/ds/ds_tree_model.h"
#include "ui/ds/ds_tree_view.h"
#include "ui/frame/main_window.h"

namespace gwb::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The keys of state() (a workspace's "ds-stepper" view).
const QString kSentenceKey = QStringLiteral("sentence");
const QString kStrategyKey = QStringLiteral("strategy");
const QString kBeamKey = QStringLiteral("beam");
const QString kPositionKey = QStringLiteral("position");
const QString kSelectedKey = QStringLiteral("selected");
const QString kZoomKey = QStringLiteral("zoom");
const QString kBestFirst = QStringLiteral("best-first");
const QString kBreadthFirst = QStringLiteral("breadth-first");

}  // namespace

DsStepperView::DsStepperView(QWidget* parent)
    : QWidget(parent), dagModel_(new DsDagModel(this)), treeModel_(new DsTreeModel(this)) {
  buildUi();
  // The grammar docks (diagnostics, nonterminals) say nothing about a DS parse: it wants none.
  setProperty(kWantedDocksProperty, QStringList());
  grammarEdit_->setText(defaultGrammarDirectory());
  connect(dagModel_, &DsDagModel::visibleChanged, this, &DsStepperView::onStepChanged);
  connect(dagView_, &DsDagView::nodeClicked, this, &DsStepperView::selectNode);
  connect(&worker_, &DsParseJob::finished, this, &DsStepperView::onParseDone);
  updateActions();
  updateStatus();
}

// worker_, the last member, cancels the search (it stops at its next tree) and waits for it.
DsStepperView::~DsStepperView() = default;

QString DsStepperView::defaultGrammarDirectory() {
  return sharedDataFolder(QStringLiteral("data/dylan/2013-english-ttr"),
                          QStringLiteral("computational-actions.txt"));
}

void DsStepperView::buildUi() {
  grammarEdit_ = new QLineEdit(this);
  grammarEdit_->setPlaceholderText(tr("DyLan grammar folder"));
  auto* browse = new QPushButton(tr("Browse\u2026"), this);
  connect(browse, &QPushButton::clicked, this, &DsStepperView::chooseGrammar);
  sentenceEdit_ = new QLineEdit(this);
  sentenceEdit_->setPlaceholderText(tr("a sentence, e.g. john likes mary"));
  connect(sentenceEdit_, &QLineEdit::returnPressed, this, [this] { parse(); });
  strategyBox_ = new QComboBox(this);
  strategyBox_->addItem(tr("Breadth-first (whole DAG)"));
  strategyBox_->addItem(tr("Best-first (DyLan)"));
  beamBox_ = new QSpinBox(this);
  beamBox_->setRange(0, 100000);
  beamBox_->setSpecialValueText(tr("all"));
  beamBox_->setToolTip(tr("Breadth-first: trees kept after each word (all: no beam)"));
  connect(strategyBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this](int index) { beamBox_->setEnabled(index == 0); });
  auto* parseButton = new QPushButton(tr("Parse"), this);
  parseButton->setDefault(true);
  connect(parseButton, &QPushButton::clicked, this, [this] { parse(); });

  auto* inputRow = new QHBoxLayout;
  inputRow->addWidget(new QLabel(tr("Grammar:"), this));
  inputRow->addWidget(grammarEdit_, 2);
  inputRow->addWidget(browse);
  inputRow->addSpacing(8);
  inputRow->addWidget(new QLabel(tr("Sentence:"), this));
  inputRow->addWidget(sentenceEdit_, 3);
  inputRow->addWidget(strategyBox_);
  inputRow->addWidget(new QLabel(tr("Beam:"), this));
  inputRow->addWidget(beamBox_);
  inputRow->addWidget(parseButton);

  dagView_ = new DsDagView(dagModel_, this);
  treeView_ = new DsTreeView(treeModel_, this);

  auto* toolbar = new QToolBar(this);
  toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  const auto addStep = [&](const QString& text, const QString& tip, QKeySequence key, auto slot) {
    QAction* action = toolbar->addAction(text);
    action->setToolTip(tip + QStringLiteral(" (") + key.toString(QKeySequence::NativeText) +
                       QStringLiteral(")"));
    action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(action);
    connect(action, &QAction::triggered, this, slot);
    return action;
  };
  startAction_ = addStep(tr("|\u25C0 Start"), tr("Back to the axiom"), QKeySequence(Qt::Key_Home),
                         [this] { dagModel_->toStart(); });
  previousWordAction_ =
      addStep(tr("\u25C0\u25C0 Word"), tr("Back to the end of the previous word"),
              QKeySequence(Qt::CTRL | Qt::Key_Left), [this] { dagModel_->previousWord(); });
  previousAction_ = addStep(tr("\u25C0 Action"), tr("Undo the last action"),
                            QKeySequence(Qt::Key_Left), [this] { dagModel_->stepBack(); });
  nextAction_ = addStep(tr("Action \u25B6"), tr("Apply the next action"),
                        QKeySequence(Qt::Key_Right), [this] { dagModel_->stepForward(); });
  nextWordAction_ =
      addStep(tr("Word \u25B6\u25B6"), tr("Go to the end of the next word"),
              QKeySequence(Qt::CTRL | Qt::Key_Right), [this] { dagModel_->nextWord(); });
  endAction_ = addStep(tr("End \u25B6|"), tr("Show the whole DAG"), QKeySequence(Qt::Key_End),
                       [this] { dagModel_->toEnd(); });
  toolbar->addSeparator();
  QAction* zoomOut = toolbar->addAction(tr("\u2212"), dagView_, &DsGraphCanvas::zoomOut);
  zoomOut->setToolTip(tr("Zoom out (Ctrl+wheel)"));
  QAction* zoomIn = toolbar->addAction(tr("+"), dagView_, &DsGraphCanvas::zoomIn);
  zoomIn->setToolTip(tr("Zoom in (Ctrl+wheel)"));
  QAction* fit = toolbar->addAction(tr("Fit"), dagView_, &DsGraphCanvas::zoomToFit);
  fit->setToolTip(tr("Fit the whole DAG into the view"));
  QAction* fold = toolbar->addAction(tr("Fold actions"));
  fold->setCheckable(true);
  fold->setChecked(dagView_->collapsed());
  fold->setToolTip(
      tr("Draw each run of computational actions as one dashed edge (click one to "
         "unfold it)"));
  connect(fold, &QAction::toggled, dagView_, &DsDagView::setCollapsed);
  toolbar->addSeparator();
  auto* exportButton = new QToolButton(this);
  exportButton->setText(tr("Export"));
  exportButton->setPopupMode(QToolButton::InstantPopup);
  auto* exportMenu = new QMenu(exportButton);
  for (const bool dag : {true, false}) {
    for (const QString& suffix :
         {QStringLiteral("dot"), QStringLiteral("svg"), QStringLiteral("png")}) {
      exportMenu->addAction(
          (dag ? tr("DAG as %1\u2026") : tr("Tree as %1\u2026")).arg(suffix.toUpper()), this,
          [this, dag, suffix] { showExportDialog(dag, suffix); });
    }
    if (dag) exportMenu->addSeparator();
  }
  exportButton->setMenu(exportMenu);
  toolbar->addWidget(exportButton);
  statusLabel_ = new QLabel(this);
  statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::WhileRunning, this);
  jobBar_->follow(worker_.backgroundJob());
  auto* toolRow = new QHBoxLayout;
  toolRow->addWidget(toolbar);
  toolRow->addStretch(1);
  toolRow->addWidget(jobBar_);

  treeTitle_ = new QLabel(tr("Partial tree"), this);
  recordPane_ = new QPlainTextEdit(this);
  recordPane_->setReadOnly(true);
  recordPane_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(9.0);
  recordPane_->setFont(mono);

  // The DAG grows to the right, so it gets the whole width; the tree and its record type share
  // the lower half.
  auto* treeBox = new QWidget(this);
  auto* treeLayout = new QVBoxLayout(treeBox);
  treeLayout->setContentsMargins(0, 0, 0, 0);
  treeLayout->addWidget(treeTitle_);
  treeLayout->addWidget(treeView_, 1);
  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(treeBox);
  bottom->addWidget(recordPane_);
  bottom->setStretchFactor(0, 3);
  bottom->setStretchFactor(1, 2);
  bottom->setSizes({600, 400});
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(dagView_);
  split->addWidget(bottom);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setSizes({500, 500});

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(inputRow);
  layout->addLayout(toolRow);
  layout->addWidget(statusLabel_);
  layout->addWidget(split, 1);
}

void DsStepperView::setGrammarDirectory(const QString& directory) {
  grammarEdit_->setText(directory);
}
QString DsStepperView::grammarDirectory() const { return grammarEdit_->text().trimmed(); }
void DsStepperView::setSentence(const QString& sentence) { sentenceEdit_->setText(sentence); }
QString DsStepperView::sentence() const { return sentenceEdit_->text(); }
void DsStepperView::setBestFirst(bool bestFirst) {
  strategyBox_->setCurrentIndex(bestFirst ? 1 : 0);
}
void DsStepperView::setBeam(int beam) { beamBox_->setValue(beam); }
bool DsStepperView::bestFirst() const { return strategyBox_->currentIndex() == 1; }
int DsStepperView::beam() const { return beamBox_->value(); }

QJsonObject DsStepperView::state() const {
  QJsonObject state{{kSentenceKey, sentence()},
                    {kStrategyKey, bestFirst() ? kBestFirst : kBreadthFirst},
                    {kBeamKey, beam()}};
  if (pendingState_) {
    // The restoring parse has not finished: what it will restore is still the place.
    for (const QString& key : {kPositionKey, kSelectedKey, kZoomKey})
      if (pendingState_->contains(key)) state.insert(key, pendingState_->value(key));
    return state;
  }
  if (dagModel_->result() != nullptr) {
    state.insert(kPositionKey, dagModel_->visibleEdges());
    state.insert(kSelectedKey, selected_);
  }
  if (!dagView_->autoFit()) state.insert(kZoomKey, dagView_->zoom());
  return state;
}

void DsStepperView::restoreState(const QJsonObject& state) {
  setSentence(state.value(kSentenceKey).toString());
  setBestFirst(state.value(kStrategyKey).toString() == kBestFirst);
  setBeam(std::max(0, state.value(kBeamKey).toInt(0)));
  notice_.clear();
  if (sentence().trimmed().isEmpty()) {
    if (const double zoom = state.value(kZoomKey).toDouble(0.0); zoom > 0.0)
      dagView_->setZoom(zoom);
    updateStatus();
    return;
  }
  if (worker_.isBusy()) waitForParse();  // a parse of something else: let it finish first
  if (!parse()) {
    // parse() has put the reason (no grammar folder) in the status line; keep the settings.
    notice_ = tr("the saved step and node were not restored");
    updateStatus();
    return;
  }
  pendingState_ = state;
}

void DsStepperView::applyPendingState() {
  const QJsonObject state = *pendingState_;
  pendingState_.reset();
  QStringList notes;
  if (dagModel_->result() == nullptr) {
    // The grammar did not load: error_ says why.
    notice_ = tr("the saved step and node were not restored");
    updateStatus();
    return;
  }
  const int total = dagModel_->edgeCount();
  const int position = state.value(kPositionKey).toInt(0);
  if (position > total) {
    notes << tr("the saved step %1 is beyond the end of this parse (%2 steps): showing the end")
                 .arg(position)
                 .arg(total);
  }
  dagModel_->setVisibleEdges(std::clamp(position, 0, total));
  if (state.contains(kSelectedKey)) {
    const int node = state.value(kSelectedKey).toInt(-1);
    if (node >= 0 && !dagModel_->isNodeVisible(node)) {
      notes << tr("the saved node #%1 is not in this parse").arg(node);
    } else if (node >= 0) {
      selectNode(node);
    }
  }
  if (const double zoom = state.value(kZoomKey).toDouble(0.0); zoom > 0.0) dagView_->setZoom(zoom);
  notice_ = notes.join(QStringLiteral("; "));
  updateStatus();
}

void DsStepperView::useGrammar(std::shared_ptr<const gwb::ds::DsGrammar> grammar,
                               const QString& directory) {
  grammarEdit_->setText(directory);
  loadedDirectory_ = QDir::cleanPath(directory);
  grammar_ = std::move(grammar);
}

void DsStepperView::chooseGrammar() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("DyLan Grammar Folder"), grammarDirectory());
  if (!dir.isEmpty()) grammarEdit_->setText(dir);
}

bool DsStepperView::parse() {
  if (worker_.isBusy()) return false;
  const QString directory = QDir::cleanPath(grammarDirectory());
  error_.clear();
  notice_.clear();
  if (directory.isEmpty() ||
      !QFileInfo::exists(directory + QStringLiteral("/computational-actions.txt"))) {
    error_ = tr("%1 is not a DyLan grammar folder (no computational-actions.txt)")
                 .arg(directory.isEmpty() ? tr("(no folder)") : directory);
    updateStatus();
    return false;
  }
  DsParseRequest job;
  job.directory = directory;
  if (directory == loadedDirectory_) job.grammar = grammar_;
  job.words = gwb::ds::splitWords(sentence().toStdString());
  job.options.strategy = strategyBox_->currentIndex() == 1 ? gwb::ds::SearchStrategy::BestFirst
                                                           : gwb::ds::SearchStrategy::BreadthFirst;
  job.options.beam = beamBox_->value();
  job.options.maxBytes = gwb::ds::defaultParseMemoryBudget();
  statusLabel_->setText(tr("Parsing\u2026"));
  worker_.start(std::move(job));
  jobBar_->start(tr("searching"));
  return true;
}

bool DsStepperView::waitForParse(int milliseconds) {
  return processEventsWhileBusy([this] { return worker_.isBusy(); }, [this] { worker_.wait(10); },
                                milliseconds);
}

void DsStepperView::onParseDone() {
  const std::shared_ptr<const DsParseOutcome> job = worker_.outcome();
  if (!job) return;
  if (job->grammar) {
    grammar_ = job->grammar;
    loadedDirectory_ = job->directory;
  }
  error_ = job->error;
  parseMs_ = job->parseMs;
  selected_ = -1;
  treeModel_->setTree(nullptr);
  dagModel_->setResult(job->result, job->words);
  onStepChanged();
  if (pendingState_) applyPendingState();
  emit parseFinished();
}

void DsStepperView::onStepChanged() {
  const gwb::ds::DsParseResult* r = dagModel_->result();
  int select = dagModel_->latestNode();
  if (r != nullptr && dagModel_->visibleEdges() == dagModel_->edgeCount() && r->finalNode >= 0)
    select = r->finalNode;
  notice_.clear();  // the user has moved on from the restored place
  selectNode(select);
  updateActions();
  updateStatus();
}

void DsStepperView::selectNode(int id) {
  const gwb::ds::DsParseResult* r = dagModel_->result();
  if (r == nullptr || !dagModel_->isNodeVisible(id)) id = -1;
  selected_ = id;
  dagView_->setSelectedNode(id);
  if (id < 0) {
    treeModel_->setTree(nullptr);
    treeTitle_->setText(tr("Partial tree"));
    recordPane_->clear();
    return;
  }
  const gwb::ds::DagNode& node = r->dag.node(id);
  if (treeModel_->tree() != node.tree.get()) treeModel_->setTree(node.tree);
  treeTitle_->setText(tr("Tree #%1 after %2 of %3 words%4 \u2014 \u25C7 pointer; yellow: LINKed; "
                         "violet: unfixed; red: requirements")
                          .arg(id)
                          .arg(node.wordsConsumed)
                          .arg(dagModel_->words().size())
                          .arg(node.complete ? tr(", complete") : QString()));
  recordPane_->setPlainText(recordText());
}

QString DsStepperView::recordText() const {
  const gwb::ds::DsParseResult* r = dagModel_->result();
  if (r == nullptr || selected_ < 0) return {};
  const gwb::ds::DagNode& node = r->dag.node(selected_);
  gwb::ds::FormulaPtr formula;
  QString title;
  if (node.complete) {
    const gwb::ds::DsNode* root = node.tree->find(gwb::ds::NodeAddress());
    formula = root != nullptr ? root->formula() : nullptr;
    title = tr("Root record type of tree #%1 (complete)").arg(selected_);
    if (selected_ == r->finalNode && r->outcome == gwb::ds::ParseOutcome::Parsed)
      title += tr(" \u2014 the parse's result");
  } else {
    formula = gwb::ds::maximalSemantics(*node.tree);
    title = tr("Maximal semantics of tree #%1 (partial)").arg(selected_);
  }
  QString text = title + QStringLiteral(":\n\n");
  if (formula) {
    text += qs(formatFormula(formula));
    text += QStringLiteral("\n") + qs(formula->text()) + QStringLiteral("\n");
  } else {
    text += tr("(no formula)\n");
  }
  return text;
}

QString DsStepperView::statusText() const { return statusLabel_->text(); }

void DsStepperView::updateActions() {
  const int visible = dagModel_->visibleEdges();
  const int total = dagModel_->edgeCount();
  const bool have = dagModel_->result() != nullptr;
  startAction_->setEnabled(have && visible > 0);
  previousWordAction_->setEnabled(have && visible > 0);
  previousAction_->setEnabled(have && visible > 0);
  nextAction_->setEnabled(have && visible < total);
  nextWordAction_->setEnabled(have && visible < total);
  endAction_->setEnabled(have && visible < total);
}

void DsStepperView::updateStatus() {
  // What a workspace could not restore, after the rest of the status.
  const QString notice = notice_.isEmpty()
                             ? QString()
                             : QStringLiteral(" &nbsp; <i>(%1)</i>")
                                   .arg(tr("Workspace: %1").arg(notice_).toHtmlEscaped());
  if (!error_.isEmpty()) {
    statusLabel_->setText(
        QStringLiteral("<span style='color:#c01c1c'>%1</span>").arg(error_.toHtmlEscaped()) +
        notice);
    return;
  }
  const gwb::ds::DsParseResult* r = dagModel_->result();
  if (r == nullptr) {
    statusLabel_->setText(tr("Enter a sentence and press Parse.") + notice);
    return;
  }
  QString outcome = QString::fromLatin1(gwb::ds::outcomeName(r->outcome));
  const auto& words = dagModel_->words();
  if (r->outcome == gwb::ds::ParseOutcome::Failed && r->failedWord >= 0 &&
      static_cast<std::size_t>(r->failedWord) < words.size())
    outcome += tr(" at \u201C%1\u201D").arg(qs(words[static_cast<std::size_t>(r->failedWord)]));
  if (r->memoryExhausted)
    outcome += tr(" (search stopped at %1 trees: memory budget of %2 reached)")
                   .arg(r->dag.nodes().size())
                   .arg(qs(gwb::formatBytes(gwb::ds::defaultParseMemoryBudget())));
  else if (r->truncated)
    outcome += tr(" (search stopped at %1 trees)").arg(r->dag.nodes().size());
  const QColor colour = r->outcome == gwb::ds::ParseOutcome::Parsed ? QColor(0x1a, 0x7f, 0x37)
                                                                    : QColor(0xc0, 0x1c, 0x1c);
  statusLabel_->setText(
      tr("<b style='color:%1'>%2</b> &nbsp; step %3/%4 &nbsp; words %5/%6 &nbsp; trees %7/%8 "
         "&nbsp; parse %9 ms &nbsp; layout %10 ms%11")
          .arg(colour.name(), outcome.toHtmlEscaped())
          .arg(dagModel_->visibleEdges())
          .arg(dagModel_->edgeCount())
          .arg(dagModel_->wordsShown())
          .arg(words.size())
          .arg(dagModel_->visibleNodes())
          .arg(dagModel_->nodeCount())
          .arg(parseMs_, 0, 'f', 1)
          .arg(dagView_->lastLayoutMilliseconds(), 0, 'f', 1)
          .arg(dagView_->lastDrawingWasCached() ? tr(" (cached)") : QString()) +
      notice);
}

void DsStepperView::goToStep(const QString& step) {
  if (step == QLatin1String("end")) {
    dagModel_->toEnd();
  } else if (step.startsWith(QLatin1String("word:"))) {
    dagModel_->toStart();
    const int words = step.mid(5).toInt();
    for (int i = 0; i < words; ++i) dagModel_->nextWord();
  } else {
    dagModel_->setVisibleEdges(step.toInt());
  }
}

bool DsStepperView::exportDag(const QString& path, QString* error) const {
  const QString suffix = QFileInfo(path).suffix().toLower();
  QByteArray bytes;
  if (suffix == QLatin1String("dot")) {
    bytes = QByteArray::fromStdString(dagModel_->visibleDot());
  } else if (suffix == QLatin1String("svg")) {
    bytes = dagView_->renderSvg(tr("Dynamic Syntax parse DAG: %1").arg(sentence()));
  } else if (suffix == QLatin1String("png")) {
    bytes = dagView_->renderPng();
  } else {
    if (error != nullptr) *error = tr("%1: use .dot, .svg or .png").arg(path);
    return false;
  }
  return saveBytesAtomically(path, bytes, error);
}

bool DsStepperView::exportTree(const QString& path, QString* error) const {
  if (treeModel_->tree() == nullptr) {
    if (error != nullptr) *error = tr("no tree is selected");
    return false;
  }
  const QString suffix = QFileInfo(path).suffix().toLower();
  QByteArray bytes;
  if (suffix == QLatin1String("dot")) {
    bytes = QByteArray::fromStdString(treeView_->treeDot());
  } else if (suffix == QLatin1String("svg")) {
    bytes = treeView_->renderSvg(tr("Dynamic Syntax partial tree #%1").arg(selected_));
  } else if (suffix == QLatin1String("png")) {
    bytes = treeView_->renderPng();
  } else {
    if (error != nullptr) *error = tr("%1: use .dot, .svg or .png").arg(path);
    return false;
  }
  return saveBytesAtomically(path, bytes, error);
}

void DsStepperView::showExportDialog(bool dag, const QString& suffix) {
  const QString name = (dag ? QStringLiteral("ds-dag.") : QStringLiteral("ds-tree.")) + suffix;
  const QString path =
      QFileDialog::getSaveFileName(this, dag ? tr("Export DAG") : tr("Export Tree"), name,
                                   tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
  if (path.isEmpty()) return;
  QString error;
  if (!(dag ? exportDag(path, &error) : exportTree(path, &error)))
    statusLabel_->setText(
        QStringLiteral("<span style='color:#c01c1c'>%1</span>").arg(error.toHtmlEscaped()));
}

}  // namespace gwb::ui
