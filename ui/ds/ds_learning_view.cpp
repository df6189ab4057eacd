#include "ui/ds/ds_learning_view.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <string>
#include <utility>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "gwb/ds/ds_parser.h"
#include "gwb/ds/lexicon_learner.h"
#include "ui/common/job_progress_bar.h"
#include "ui/common/qcustomplot_include.h"
#include "ui/common/qt_conversions.h"
#include "ui/ds/ds_dag_model.h"
#include "ui/ds/ds_dag_view.h"
#include "ui/frame/main_window.h"

namespace gwb::ui {

namespace {

constexpr int kMatchRole = Qt::UserRole + 1;
constexpr int kMaxTop = 5;

QFont monoFont() { return QFontDatabase::systemFont(QFontDatabase::FixedFont); }

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
  auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  table->setHorizontalHeaderLabels(headers);
  table->verticalHeader()->setVisible(false);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->horizontalHeader()->setStretchLastSection(true);
  return table;
}

QString fixed(double value, int digits) { return QString::number(value, 'f', digits); }

}  // namespace

// One piece of inspection work: parse a test item, or trace a derivation.
struct DsLearningView::Request {
  enum class Kind { Evaluate, Derive };
  Kind kind = Kind::Evaluate;
  // In.
  std::shared_ptr<const gwb::ds::IncrementalEm> em;
  std::shared_ptr<const gwb::ds::DsGrammar> seed;
  std::shared_ptr<const gwb::ds::DsGrammar> grammar;  // the learned grammar, if built already
  int top = 1;
  gwb::ds::SemanticExample example;
  std::string word;
  std::string key;
  gwb::ds::HypothesisSearchOptions searchOptions;
  // Out.
  std::optional<gwb::ds::ItemEvaluation> evaluation;
  std::optional<gwb::ds::HypothesisDerivation> derivation;

  void run(const std::atomic<bool>& cancel) {
    if (kind == Kind::Derive) {
      const gwb::ds::HypothesisSearch search(*seed);
      derivation = search.derivation(example, word, key, searchOptions);
      return;
    }
    if (!grammar) {
      auto learned = std::make_shared<gwb::ds::DsGrammar>(*seed);
      gwb::Diagnostics diagnostics;
      std::vector<gwb::ds::LexicalEntry> entries = gwb::ds::parseLearnedLexicon(
          gwb::ds::learnedLexiconText(*em, top), "<learned lexicon>", diagnostics);
      gwb::ds::useLearnedLexicon(*learned, std::move(entries));
      grammar = std::move(learned);
    }
    gwb::ds::DsParseOptions options = gwb::ds::LexiconEvaluationOptions::bestFirstOptions();
    options.cancel = &cancel;
    const gwb::ds::DsParser parser(*grammar);
    evaluation = gwb::ds::evaluateItem(parser, example, options);
  }
};

DsLearningView::DsLearningView(QWidget* parent)
    : QWidget(parent), dagModel_(new DsDagModel(this)), job_(new DsLearningJob(this)) {
  buildUi();
  // The grammar docks (diagnostics, nonterminals) say nothing about a learning run.
  setProperty(static_cast<const char*>(kWantedDocksProperty), QStringList());
  seedEdit_->setText(defaultSeedDirectory());
  connect(job_, &DsLearningJob::loaded, this, &DsLearningView::onLoaded);
  connect(job_, &DsLearningJob::itemLearned, this, &DsLearningView::onItemLearned);
  connect(job_, &DsLearningJob::finished, this, &DsLearningView::onLearningFinished);
  connect(jobBar_, &JobProgressBar::cancelClicked, job_, &DsLearningJob::cancel);
  connect(&job_->backgroundJob(), &BackgroundJob::progress, jobBar_, &JobProgressBar::setProgress);
  connect(&inspect_, &BackgroundJob::finished, this, &DsLearningView::onInspectionDone);
  setStatus(tr("Choose a seed grammar and a training file, then Learn."));
}

DsLearningView::~DsLearningView() {
  pending_.reset();  // nothing new starts while the running work is finished
  inspect_.cancelAndFinish();
  delete job_;  // cancels the run and waits for it, before the slots' objects go
  job_ = nullptr;
}

QString DsLearningView::defaultSeedDirectory() {
  const QString relative = QStringLiteral("/data/dylan/2013-english-ttr-induction-seed");
  QStringList candidates;
  const QString env = qEnvironmentVariable("GWB_SHARED_DIR");
  if (!env.isEmpty()) candidates << env + relative;
#ifdef GWB_SAMPLES_DIR
  candidates << QStringLiteral(GWB_SAMPLES_DIR "/../../shared") + relative;
#endif
  candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../../../shared") +
                    relative;
  for (const QString& c : candidates) {
    if (QFileInfo::exists(c + QStringLiteral("/computational-actions.txt"))) {
      return QDir::cleanPath(c);
    }
  }
  return {};
}

QColor DsLearningView::matchColor(gwb::ds::FieldMatch match) {
  switch (match) {
    case gwb::ds::FieldMatch::Matched: return {0xc8, 0xe6, 0xc9};
    case gwb::ds::FieldMatch::Partial: return {0xff, 0xf1, 0xb8};
    case gwb::ds::FieldMatch::Missing: return {0xff, 0xcd, 0xd2};
    case gwb::ds::FieldMatch::Extra: return {0xff, 0xdc, 0xb0};
  }
  return Qt::white;
}

void DsLearningView::buildUi() {
  seedEdit_ = new QLineEdit(this);
  seedEdit_->setPlaceholderText(tr("seed grammar folder (DyLan induction seed)"));
  auto* seedBrowse = new QPushButton(tr("Browse\u2026"), this);
  connect(seedBrowse, &QPushButton::clicked, this, &DsLearningView::chooseSeed);
  trainEdit_ = new QLineEdit(this);
  trainEdit_->setPlaceholderText(tr("training file (Sent : / Sem : items)"));
  auto* trainBrowse = new QPushButton(tr("Browse\u2026"), this);
  connect(trainBrowse, &QPushButton::clicked, this, &DsLearningView::chooseTrain);
  learnButton_ = new QPushButton(tr("Learn"), this);
  learnButton_->setDefault(true);
  connect(learnButton_, &QPushButton::clicked, this, [this] { startLearning(); });
  topBox_ = new QSpinBox(this);
  topBox_->setRange(1, kMaxTop);
  topBox_->setValue(1);
  topBox_->setPrefix(tr("top-"));
  topBox_->setToolTip(
      tr("Saving writes the top-1 ... top-N lexicons; test items are parsed with the top-N"));
  connect(topBox_, qOverload<int>(&QSpinBox::valueChanged), this, [this] {
    learnedGrammar_.reset();
    const int row = testList_->currentRow();
    if (row >= 0 && em_) selectTestItem(row);
  });
  saveButton_ = new QPushButton(tr("Save\u2026"), this);
  saveButton_->setEnabled(false);
  saveButton_->setToolTip(tr("Write lexicon.lex-top-1..N.txt and hypotheses.tsv into a folder"));
  connect(saveButton_, &QPushButton::clicked, this, &DsLearningView::chooseSaveFolder);

  auto* inputRow = new QHBoxLayout;
  inputRow->addWidget(new QLabel(tr("Seed grammar:"), this));
  inputRow->addWidget(seedEdit_, 3);
  inputRow->addWidget(seedBrowse);
  inputRow->addSpacing(8);
  inputRow->addWidget(new QLabel(tr("Training items:"), this));
  inputRow->addWidget(trainEdit_, 3);
  inputRow->addWidget(trainBrowse);
  inputRow->addWidget(learnButton_);
  inputRow->addSpacing(8);
  inputRow->addWidget(new QLabel(tr("Lexicon:"), this));
  inputRow->addWidget(topBox_);
  inputRow->addWidget(saveButton_);

  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::Always, this);
  statusLabel_ = new QLabel(this);
  statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  statusLabel_->setWordWrap(true);
  auto* statusRow = new QHBoxLayout;
  statusRow->addWidget(jobBar_, 1);
  statusRow->addWidget(statusLabel_, 2);

  tabs_ = new QTabWidget(this);
  tabs_->addTab(buildCurveTab(), tr("Learning curve"));
  tabs_->addTab(buildWordsTab(), tr("Words"));
  tabs_->addTab(buildTestTab(), tr("Test item"));
  tabs_->addTab(buildDerivationTab(), tr("Derivation"));

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(inputRow);
  layout->addLayout(statusRow);
  layout->addWidget(tabs_, 1);
}

QWidget* DsLearningView::buildCurveTab() {
  auto* page = new QWidget(this);
  curvePlot_ = new QCustomPlot(page);
  curvePlot_->setMinimumHeight(260);
  curvePlot_->xAxis->setLabel(tr("training items seen"));
  curvePlot_->yAxis->setLabel(tr("lexicon size (word hypotheses)"));
  curvePlot_->yAxis2->setVisible(true);
  curvePlot_->yAxis2->setLabel(tr("mean hypotheses per item"));
  sizeGraph_ = curvePlot_->addGraph(curvePlot_->xAxis, curvePlot_->yAxis);
  sizeGraph_->setName(tr("lexicon size"));
  sizeGraph_->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2));
  sizeGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
  meanGraph_ = curvePlot_->addGraph(curvePlot_->xAxis, curvePlot_->yAxis2);
  meanGraph_->setName(tr("mean hypotheses per item"));
  meanGraph_->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2, Qt::DashLine));
  meanGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
  curvePlot_->legend->setVisible(true);
  curvePlot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  notes_ = new QPlainTextEdit(page);
  notes_->setReadOnly(true);
  notes_->setPlaceholderText(tr("Items that hit a budget or gave no hypothesis are listed here."));
  notes_->setMaximumHeight(140);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(curvePlot_, 1);
  layout->addWidget(new QLabel(tr("Notes:"), page));
  layout->addWidget(notes_);
  return page;
}

QWidget* DsLearningView::buildWordsTab() {
  auto* page = new QWidget(this);
  wordList_ = new QListWidget(page);
  wordList_->setMaximumWidth(220);
  connect(wordList_, &QListWidget::currentRowChanged, this, [this] { fillWords(); });
  barPlot_ = new QCustomPlot(page);
  barPlot_->setMinimumHeight(200);
  bars_ = new QCPBars(barPlot_->xAxis, barPlot_->yAxis);
  bars_->setPen(QPen(QColor(0x1f, 0x77, 0xb4)));
  bars_->setBrush(QColor(0x1f, 0x77, 0xb4, 160));
  bars_->setWidth(0.6);
  bars_->setSelectable(QCP::stSingleData);
  barPlot_->xAxis->setLabel(tr("hypothesis (rank)"));
  barPlot_->yAxis->setLabel(tr("probability \u03b8_w(h)"));
  barPlot_->yAxis->setRange(0, 1);
  connect(barPlot_, &QCustomPlot::plottableClick, this,
          [this](QCPAbstractPlottable*, int index, QMouseEvent*) { selectHypothesis(index); });
  hypothesisTable_ = makeTable({tr("rank"), tr("probability"), tr("training items (lines)")}, page);
  connect(hypothesisTable_, &QTableWidget::currentCellChanged, this,
          [this](int row) { selectHypothesis(row); });
  actionPane_ = new QPlainTextEdit(page);
  actionPane_->setReadOnly(true);
  actionPane_->setFont(monoFont());
  actionPane_->setLineWrapMode(QPlainTextEdit::NoWrap);
  deriveButton_ = new QPushButton(tr("Show its derivation"), page);
  deriveButton_->setEnabled(false);
  deriveButton_->setToolTip(
      tr("The hypothesis's action sequence as DAG edges in the training item it came from"));
  connect(deriveButton_, &QPushButton::clicked, this, [this] {
    if (showDerivation(hypothesis_)) showTab(DerivationTab);
  });

  auto* right = new QSplitter(Qt::Vertical, page);
  right->addWidget(barPlot_);
  auto* lower = new QWidget(right);
  auto* lowerLayout = new QHBoxLayout(lower);
  lowerLayout->setContentsMargins(0, 0, 0, 0);
  lowerLayout->addWidget(hypothesisTable_, 2);
  auto* actionBox = new QVBoxLayout;
  actionBox->addWidget(new QLabel(tr("Action (IF / THEN / ELSE):"), lower));
  actionBox->addWidget(actionPane_, 1);
  actionBox->addWidget(deriveButton_);
  lowerLayout->addLayout(actionBox, 3);
  right->addWidget(lower);
  right->setStretchFactor(0, 2);
  right->setStretchFactor(1, 3);
  auto* layout = new QHBoxLayout(page);
  layout->addWidget(wordList_);
  layout->addWidget(right, 1);
  return page;
}

QWidget* DsLearningView::buildTestTab() {
  auto* page = new QWidget(this);
  testEdit_ = new QLineEdit(page);
  testEdit_->setPlaceholderText(tr("test file (empty: the training items)"));
  connect(testEdit_, &QLineEdit::editingFinished, this, [this] { readTestItems(); });
  auto* browse = new QPushButton(tr("Browse\u2026"), page);
  connect(browse, &QPushButton::clicked, this, &DsLearningView::chooseTest);
  stepperButton_ = new QPushButton(tr("Open in DS stepper"), page);
  stepperButton_->setEnabled(false);
  connect(stepperButton_, &QPushButton::clicked, this, [this] {
    if (evaluation_ && learnedGrammar_)
      emit openInStepper(learnedGrammar_, learnedSeedDirectory_, toQString(evaluation_->sentence));
  });
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Test items:"), page));
  row->addWidget(testEdit_, 1);
  row->addWidget(browse);
  row->addWidget(stepperButton_);

  testList_ = new QListWidget(page);
  testList_->setMaximumWidth(300);
  connect(testList_, &QListWidget::currentRowChanged, this, [this](int r) {
    if (r >= 0) selectTestItem(r);
  });
  goldTable_ = makeTable({tr("gold field"), tr("paired with"), tr("score")}, page);
  parsedTable_ = makeTable({tr("parsed field"), tr("paired with"), tr("score")}, page);
  for (QTableWidget* t : {goldTable_, parsedTable_}) {
    t->setFont(monoFont());
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    t->horizontalHeader()->setStretchLastSection(false);
  }
  scoreLabel_ = new QLabel(page);
  scoreLabel_->setWordWrap(true);
  QStringList legend;
  for (const auto m : {gwb::ds::FieldMatch::Matched, gwb::ds::FieldMatch::Partial,
                       gwb::ds::FieldMatch::Missing, gwb::ds::FieldMatch::Extra}) {
    legend << QStringLiteral("<span style=\"background:%1\">&nbsp;%2&nbsp;</span>")
                  .arg(matchColor(m).name(), toQString(gwb::ds::fieldMatchName(m)));
  }
  auto* legendLabel =
      new QLabel(tr("maxMapping alignment: ") + legend.join(QLatin1Char(' ')), page);

  auto* tables = new QHBoxLayout;
  auto* goldBox = new QVBoxLayout;
  goldBox->addWidget(new QLabel(tr("Gold record type"), page));
  goldBox->addWidget(goldTable_, 1);
  auto* parsedBox = new QVBoxLayout;
  parsedBox->addWidget(new QLabel(tr("Parsed record type (learned lexicon)"), page));
  parsedBox->addWidget(parsedTable_, 1);
  tables->addLayout(goldBox, 1);
  tables->addLayout(parsedBox, 1);
  auto* right = new QVBoxLayout;
  right->addWidget(scoreLabel_);
  right->addWidget(legendLabel);
  right->addLayout(tables, 1);
  auto* body = new QHBoxLayout;
  body->addWidget(testList_);
  body->addLayout(right, 1);
  auto* layout = new QVBoxLayout(page);
  layout->addLayout(row);
  layout->addLayout(body, 1);
  return page;
}

QWidget* DsLearningView::buildDerivationTab() {
  auto* page = new QWidget(this);
  derivationTitle_ =
      new QLabel(tr("Pick a hypothesis on the Words tab, then Show its derivation."), page);
  derivationTitle_->setWordWrap(true);
  derivationItems_ = new QComboBox(page);
  derivationItems_->setToolTip(tr("The training items whose hypothesis tuples held it"));
  connect(derivationItems_, qOverload<int>(&QComboBox::activated), this, [this](int index) {
    if (index >= 0 && hypothesis_ >= 0)
      showDerivation(hypothesis_, derivationItems_->itemData(index).toInt());
  });
  dagView_ = new DsDagView(dagModel_, page);
  dagView_->setCollapsed(false);
  stepsTable_ = makeTable({tr("step"), tr("word"), tr("action"), tr("IF / THEN / ELSE")}, page);
  stepsTable_->setFont(monoFont());
  auto* top = new QHBoxLayout;
  top->addWidget(derivationTitle_, 1);
  top->addWidget(new QLabel(tr("Training item:"), page));
  top->addWidget(derivationItems_);
  auto* split = new QSplitter(Qt::Vertical, page);
  split->addWidget(dagView_);
  split->addWidget(stepsTable_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(page);
  layout->addLayout(top);
  layout->addWidget(split, 1);
  return page;
}

void DsLearningView::setSeedDirectory(const QString& directory) { seedEdit_->setText(directory); }
QString DsLearningView::seedDirectory() const { return seedEdit_->text().trimmed(); }
void DsLearningView::setTrainPath(const QString& path) { trainEdit_->setText(path); }
QString DsLearningView::trainPath() const { return trainEdit_->text().trimmed(); }
void DsLearningView::setTestPath(const QString& path) {
  testEdit_->setText(path);
  readTestItems();
}
QString DsLearningView::testPath() const { return testEdit_->text().trimmed(); }
void DsLearningView::setTop(int top) { topBox_->setValue(top); }
int DsLearningView::top() const { return topBox_->value(); }
void DsLearningView::showTab(Tab tab) { tabs_->setCurrentIndex(tab); }

void DsLearningView::setStatus(const QString& text) {
  status_ = text;
  statusLabel_->setText(text);
}

QString DsLearningView::statusText() const { return status_; }

bool DsLearningView::startLearning() {
  if (job_->isBusy()) return false;
  if (!QFileInfo::exists(seedDirectory() + QStringLiteral("/computational-actions.txt"))) {
    setStatus(tr("%1 is not a DyLan grammar folder (no computational-actions.txt)")
                  .arg(seedDirectory().isEmpty() ? tr("(no folder)") : seedDirectory()));
    return false;
  }
  if (!QFileInfo(trainPath()).isFile()) {
    setStatus(
        tr("%1: no such training file").arg(trainPath().isEmpty() ? tr("(no file)") : trainPath()));
    return false;
  }
  DsLearningSettings settings;
  settings.seedDirectory = QDir::cleanPath(seedDirectory());
  settings.trainPath = trainPath();
  sizeGraph_->data()->clear();
  meanGraph_->data()->clear();
  curvePlot_->replot();
  notes_->clear();
  if (!job_->start(settings)) return false;
  learnButton_->setEnabled(false);
  jobBar_->start(tr("reading the seed grammar"));
  setStatus(tr("Learning\u2026"));
  return true;
}

bool DsLearningView::isLearning() const { return job_->isBusy(); }

bool DsLearningView::waitForLearning(int milliseconds) {
  return job_->waitForFinished(milliseconds);
}

void DsLearningView::onLoaded(qint64 items) {
  curvePlot_->xAxis->setRange(0, static_cast<double>(std::max<qint64>(items, 1)));
  jobBar_->setProgress(0, items);
}

void DsLearningView::onItemLearned(const LearningPoint& point) {
  const auto x = static_cast<double>(point.items);
  sizeGraph_->addData(x, static_cast<double>(point.hypotheses));
  meanGraph_->addData(x, point.meanHypothesesPerItem);
  if (!point.note.isEmpty()) {
    notes_->appendPlainText(
        tr("item %1 (%2): %3").arg(QString::number(point.items), point.sentence, point.note));
  }
  // The last item's point a little inside the frame.
  const double total = static_cast<double>(std::max<qint64>(point.total, 1));
  curvePlot_->xAxis->setRange(0, total + std::max(0.25, 0.02 * total));
  sizeGraph_->rescaleValueAxis(false, true);
  meanGraph_->rescaleValueAxis(false, true);
  // From zero, with room above the highest point so that it is not drawn on the frame.
  curvePlot_->yAxis->setRange(0, std::max(1.0, curvePlot_->yAxis->range().upper * 1.1));
  curvePlot_->yAxis2->setRange(0, std::max(1.0, curvePlot_->yAxis2->range().upper * 1.1));
  curvePlot_->replot(QCustomPlot::rpQueuedReplot);
  setStatus(tr("Learning: %1 of %2 items, %3 hypotheses for %4 words")
                .arg(QString::number(point.items), QString::number(point.total),
                     QString::number(point.hypotheses), QString::number(point.words)));
}

void DsLearningView::onLearningFinished() {
  learnButton_->setEnabled(true);
  if (!job_->hasResult()) {
    jobBar_->finish(tr("failed"), false);
    setStatus(job_->error().isEmpty() ? tr("The run failed.") : job_->error());
    emit learningFinished();
    return;
  }
  const gwb::ds::LearningResult& result = job_->result();
  em_ = std::make_shared<const gwb::ds::IncrementalEm>(result.em);
  seed_ = job_->seedGrammar();
  corpus_ = std::make_shared<const std::vector<gwb::ds::SemanticExample>>(job_->corpus());
  searchOptions_ = job_->settings().search;
  learnedSeedDirectory_ = job_->settings().seedDirectory;
  learnedGrammar_.reset();
  derivation_.reset();
  dagModel_->setResult(nullptr, {});
  const gwb::ds::LearningProgress& p = result.progress;
  jobBar_->finish(result.cancelled ? tr("cancelled") : tr("done"), !result.cancelled);
  setStatus(tr("%1 %2 of %3 items: %4 hypotheses for %5 words, %6 items without a hypothesis")
                .arg(result.cancelled ? tr("Cancelled after") : tr("Learned from"),
                     QString::number(p.itemsDone), QString::number(p.itemsTotal),
                     QString::number(p.hypotheses), QString::number(p.words),
                     QString::number(p.itemsWithoutTuples)));
  saveButton_->setEnabled(true);
  {
    const QSignalBlocker block(wordList_);
    wordList_->clear();
    for (const std::string& word : em_->words()) {
      auto* item =
          new QListWidgetItem(QStringLiteral("%1  (%2)")
                                  .arg(toQString(word), QString::number(em_->ranked(word).size())));
      item->setData(Qt::UserRole, toQString(word));
      wordList_->addItem(item);
    }
    if (wordList_->count() > 0) wordList_->setCurrentRow(0);
  }
  fillWords();
  readTestItems();
  if (restoring_) {
    const QJsonObject state = *restoring_;
    restoring_.reset();
    applyRestoredSelection(state);
  }
  emit learningFinished();
}

int DsLearningView::selectedTestItem() const {
  return testItems_.empty() ? -1 : testList_->currentRow();
}

DsLearningView::Tab DsLearningView::currentTab() const {
  return static_cast<Tab>(tabs_->currentIndex());
}

namespace {

constexpr std::array<const char*, 4> kTabNames = {"curve", "words", "test", "derivation"};

}  // namespace

QJsonObject DsLearningView::state() const {
  QJsonObject state;
  auto absolute = [](const QString& path) {
    return path.isEmpty() ? path : QDir::cleanPath(QFileInfo(path).absoluteFilePath());
  };
  state.insert(QStringLiteral("seed"), absolute(seedDirectory()));
  if (!testPath().isEmpty()) state.insert(QStringLiteral("test"), absolute(testPath()));
  state.insert(QStringLiteral("top"), top());
  state.insert(QStringLiteral("tab"),
               QLatin1String(kTabNames[static_cast<std::size_t>(currentTab())]));
  state.insert(QStringLiteral("learned"), em_ != nullptr);
  if (em_ != nullptr && !selectedWord().isEmpty())
    state.insert(QStringLiteral("word"), selectedWord());
  if (em_ != nullptr && selectedTestItem() >= 0)
    state.insert(QStringLiteral("testItem"), selectedTestItem());
  return state;
}

void DsLearningView::restoreState(const QString& trainPath, const QJsonObject& state) {
  restoring_.reset();
  const QString seed = state.value(QStringLiteral("seed")).toString();
  if (!seed.isEmpty()) setSeedDirectory(seed);
  setTrainPath(trainPath);
  setTestPath(state.value(QStringLiteral("test")).toString());
  setTop(state.value(QStringLiteral("top")).toInt(top()));
  const QString tab = state.value(QStringLiteral("tab")).toString();
  for (std::size_t i = 0; i < kTabNames.size(); ++i)
    if (tab == QLatin1String(kTabNames[i])) showTab(static_cast<Tab>(i));
  QStringList missing;
  if (!trainPath.isEmpty() && !QFileInfo(trainPath).isFile())
    missing << tr("the training file %1 is missing").arg(QDir::toNativeSeparators(trainPath));
  if (!seedDirectory().isEmpty() &&
      !QFileInfo::exists(seedDirectory() + QStringLiteral("/computational-actions.txt")))
    missing << tr("the seed grammar folder %1 is missing or not a DyLan grammar")
                   .arg(QDir::toNativeSeparators(seedDirectory()));
  if (!testPath().isEmpty() && !QFileInfo(testPath()).isFile())
    missing << tr("the test file %1 is missing").arg(QDir::toNativeSeparators(testPath()));
  if (!missing.isEmpty()) {
    setStatus(tr("Workspace: %1; nothing was learned.").arg(missing.join(QStringLiteral("; "))));
    return;
  }
  if (!state.value(QStringLiteral("learned")).toBool() || trainPath.isEmpty()) return;
  restoring_ = state;
  if (!startLearning()) restoring_.reset();
}

void DsLearningView::applyRestoredSelection(const QJsonObject& state) {
  QStringList lost;
  const QString word = state.value(QStringLiteral("word")).toString();
  if (!word.isEmpty() && !selectWord(word)) lost << tr("the word \u201c%1\u201d").arg(word);
  const int item = state.value(QStringLiteral("testItem")).toInt(-1);
  const QString tab = state.value(QStringLiteral("tab")).toString();
  for (std::size_t i = 0; i < kTabNames.size(); ++i)
    if (tab == QLatin1String(kTabNames[i])) showTab(static_cast<Tab>(i));
  if (item >= 0 && !selectTestItem(item)) lost << tr("test item %1").arg(item + 1);
  if (!lost.isEmpty())
    setStatus(tr("Workspace: the new run has no %1.").arg(lost.join(tr(" and no "))));
}

bool DsLearningView::saveLexicons(const QString& directory, QString* error) const {
  if (!em_) {
    if (error) *error = tr("nothing learned yet");
    return false;
  }
  if (!QDir().mkpath(directory)) {
    if (error) *error = tr("cannot create %1").arg(directory);
    return false;
  }
  std::string why;
  if (!gwb::ds::writeLearnedLexicons(*em_, toNativePath(directory), top(), &why)) {
    if (error) *error = toQString(why);
    return false;
  }
  return true;
}

QVector<QPointF> DsLearningView::lexiconSizePoints() const {
  QVector<QPointF> points;
  for (auto it = sizeGraph_->data()->constBegin(); it != sizeGraph_->data()->constEnd(); ++it)
    points << QPointF(it->key, it->value);
  return points;
}

QVector<QPointF> DsLearningView::meanHypothesesPoints() const {
  QVector<QPointF> points;
  for (auto it = meanGraph_->data()->constBegin(); it != meanGraph_->data()->constEnd(); ++it)
    points << QPointF(it->key, it->value);
  return points;
}

QString DsLearningView::notesText() const { return notes_->toPlainText(); }

QStringList DsLearningView::words() const {
  QStringList out;
  for (int i = 0; i < wordList_->count(); ++i)
    out << wordList_->item(i)->data(Qt::UserRole).toString();
  return out;
}

bool DsLearningView::selectWord(const QString& word) {
  const int row = static_cast<int>(words().indexOf(word));
  if (row < 0) return false;
  wordList_->setCurrentRow(row);
  return true;
}

QString DsLearningView::selectedWord() const {
  const QListWidgetItem* item = wordList_->currentItem();
  return item != nullptr ? item->data(Qt::UserRole).toString() : QString();
}

void DsLearningView::fillWords() {
  barIds_.clear();
  hypothesis_ = -1;
  QVector<double> keys;
  QVector<double> values;
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  hypothesisTable_->setRowCount(0);
  const QString word = selectedWord();
  if (em_ && !word.isEmpty()) {
    barIds_ = em_->ranked(word.toStdString());
    hypothesisTable_->setRowCount(static_cast<int>(barIds_.size()));
    for (std::size_t r = 0; r < barIds_.size(); ++r) {
      const gwb::ds::LearnedHypothesis& h = em_->hypotheses()[static_cast<std::size_t>(barIds_[r])];
      keys << static_cast<double>(r + 1);
      values << h.probability;
      ticker->addTick(static_cast<double>(r + 1), QString::number(r + 1));
      QStringList lines;
      for (const int item : h.items) {
        if (corpus_ && item >= 0 && static_cast<std::size_t>(item) < corpus_->size()) {
          lines << QString::number((*corpus_)[static_cast<std::size_t>(item)].line);
        }
      }
      const auto row = static_cast<int>(r);
      hypothesisTable_->setItem(row, 0, new QTableWidgetItem(QString::number(r + 1)));
      hypothesisTable_->setItem(row, 1, new QTableWidgetItem(fixed(h.probability, 4)));
      hypothesisTable_->setItem(row, 2, new QTableWidgetItem(lines.join(QStringLiteral(", "))));
    }
  }
  bars_->setData(keys, values, true);
  barPlot_->xAxis->setTicker(ticker);
  // At least five slots, so that a word with one or two hypotheses does not get wide slabs.
  barPlot_->xAxis->setRange(0.3,
                            static_cast<double>(std::max<std::size_t>(barIds_.size(), 5)) + 0.7);
  barPlot_->yAxis->setRange(0, 1.05);
  barPlot_->replot();
  selectHypothesis(barIds_.empty() ? -1 : 0);
}

QVector<double> DsLearningView::barValues() const {
  QVector<double> values;
  for (auto it = bars_->data()->constBegin(); it != bars_->data()->constEnd(); ++it)
    values << it->value;
  return values;
}

std::vector<int> DsLearningView::barHypotheses() const { return barIds_; }

void DsLearningView::selectHypothesis(int rank) {
  hypothesis_ = rank >= 0 && static_cast<std::size_t>(rank) < barIds_.size()
                    ? barIds_[static_cast<std::size_t>(rank)]
                    : -1;
  if (rank >= 0 && hypothesisTable_->currentRow() != rank) {
    const QSignalBlocker block(hypothesisTable_);
    hypothesisTable_->selectRow(rank);
  }
  fillHypothesis();
}

void DsLearningView::fillHypothesis() {
  QCPDataSelection selection;
  deriveButton_->setEnabled(hypothesis_ >= 0 && seed_ != nullptr);
  if (hypothesis_ < 0 || !em_) {
    actionPane_->clear();
    bars_->setSelection(selection);
    barPlot_->replot();
    return;
  }
  const gwb::ds::LearnedHypothesis& h = em_->hypotheses()[static_cast<std::size_t>(hypothesis_)];
  actionPane_->setPlainText(toQString(h.action));
  const auto it = std::find(barIds_.begin(), barIds_.end(), hypothesis_);
  if (it != barIds_.end()) {
    const auto rank = static_cast<int>(it - barIds_.begin());
    selection.addDataRange(QCPDataRange(rank, rank + 1));
  }
  bars_->setSelection(selection);
  barPlot_->replot();
}

QString DsLearningView::actionText() const { return actionPane_->toPlainText(); }

void DsLearningView::readTestItems() {
  const QString path = testPath().isEmpty() ? trainPath() : testPath();
  testItems_.clear();
  testList_->clear();
  evaluation_.reset();
  alignment_ = {};
  goldTable_->setRowCount(0);
  parsedTable_->setRowCount(0);
  scoreLabel_->clear();
  stepperButton_->setEnabled(false);
  if (path.isEmpty() || !QFileInfo(path).isFile()) return;
  gwb::Diagnostics diagnostics;
  testItems_ = gwb::ds::loadSemanticCorpus(toNativePath(path), diagnostics);
  const QSignalBlocker block(testList_);
  for (const gwb::ds::SemanticExample& ex : testItems_) {
    testList_->addItem(
        QStringLiteral("%1: %2").arg(QString::number(ex.line), toQString(ex.sentence)));
  }
}

int DsLearningView::testItemCount() const { return static_cast<int>(testItems_.size()); }

bool DsLearningView::selectTestItem(int index) {
  if (!em_ || !seed_ || index < 0 || index >= testItemCount()) return false;
  if (testList_->currentRow() != index) {
    const QSignalBlocker block(testList_);
    testList_->setCurrentRow(index);
  }
  auto request = std::make_shared<Request>();
  request->kind = Request::Kind::Evaluate;
  request->em = em_;
  request->seed = seed_;
  request->top = top();
  if (learnedTop_ == top()) request->grammar = learnedGrammar_;
  request->example = testItems_[static_cast<std::size_t>(index)];
  submit(std::move(request));
  setStatus(tr("Parsing \u201c%1\u201d with the learned top-%2 lexicon\u2026")
                .arg(toQString(testItems_[static_cast<std::size_t>(index)].sentence),
                     QString::number(top())));
  return true;
}

const gwb::ds::ItemEvaluation* DsLearningView::evaluation() const {
  return evaluation_ ? &*evaluation_ : nullptr;
}

bool DsLearningView::showDerivation(int id, int item) {
  if (!em_ || !seed_ || !corpus_ || id < 0 ||
      static_cast<std::size_t>(id) >= em_->hypotheses().size())
    return false;
  const gwb::ds::LearnedHypothesis& h = em_->hypotheses()[static_cast<std::size_t>(id)];
  if (h.items.empty()) return false;
  if (item < 0) item = h.items.front();
  if (std::find(h.items.begin(), h.items.end(), item) == h.items.end()) return false;
  if (hypothesis_ != id) {
    hypothesis_ = id;
    fillHypothesis();
  }
  {
    const QSignalBlocker block(derivationItems_);
    derivationItems_->clear();
    for (const int i : h.items) {
      const gwb::ds::SemanticExample& ex = (*corpus_)[static_cast<std::size_t>(i)];
      derivationItems_->addItem(
          QStringLiteral("%1: %2").arg(QString::number(ex.line), toQString(ex.sentence)), i);
    }
    derivationItems_->setCurrentIndex(derivationItems_->findData(item));
  }
  auto request = std::make_shared<Request>();
  request->kind = Request::Kind::Derive;
  request->seed = seed_;
  request->example = (*corpus_)[static_cast<std::size_t>(item)];
  request->word = h.word;
  request->key = h.key;
  request->searchOptions = searchOptions_;
  derivationTitle_->setText(
      tr("Tracing \u201c%1\u201d's hypothesis %2 in \u201c%3\u201d\u2026")
          .arg(toQString(h.word), QString::number(h.id), toQString(request->example.sentence)));
  submit(std::move(request));
  return true;
}

const gwb::ds::HypothesisDerivation* DsLearningView::derivation() const {
  return derivation_ ? &*derivation_ : nullptr;
}

void DsLearningView::submit(std::shared_ptr<Request> request) {
  if (inspect_.isBusy()) {
    pending_ = std::move(request);  // runs when the current one is done
    return;
  }
  running_ = std::move(request);
  std::shared_ptr<Request> work = running_;
  inspect_.start([work](JobContext& context) { work->run(context.cancelFlag()); });
}

bool DsLearningView::waitForInspection(int milliseconds) {
  return processEventsWhileBusy([this] { return isInspecting(); }, [this] { inspect_.wait(10); },
                                milliseconds);
}

void DsLearningView::onInspectionDone() {
  std::shared_ptr<Request> done = std::move(running_);
  const QString error = inspect_.errorText();  // before the next start() clears it
  if (pending_) {
    std::shared_ptr<Request> next = std::move(pending_);
    if (done && done->kind == Request::Kind::Evaluate && done->grammar && !next->grammar &&
        next->kind == Request::Kind::Evaluate && next->top == done->top)
      next->grammar = done->grammar;
    submit(std::move(next));
  }
  if (!done) return;
  if (!error.isEmpty()) {
    setStatus(error);
  } else if (done->kind == Request::Kind::Evaluate && done->evaluation) {
    learnedGrammar_ = done->grammar;
    learnedTop_ = done->top;
    evaluation_ = std::move(done->evaluation);
    showEvaluation();
  } else if (done->kind == Request::Kind::Derive && done->derivation) {
    derivation_ = std::move(done->derivation);
    showDerivationResult();
  }
  if (!isInspecting()) emit inspectionFinished();
}

void DsLearningView::fillAlignmentTable(QTableWidget* table,
                                        const std::vector<gwb::ds::AlignedField>& fields) {
  table->setRowCount(static_cast<int>(fields.size()));
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const gwb::ds::AlignedField& f = fields[i];
    const auto row = static_cast<int>(i);
    const int depth = static_cast<int>(std::count(f.label.begin(), f.label.end(), '.'));
    const QString indent(static_cast<qsizetype>(2) * depth, QLatin1Char(' '));
    const QStringList cells = {
        indent + toQString(f.text), toQString(f.partner),
        f.partner.empty() ? toQString(gwb::ds::fieldMatchName(f.match)) : fixed(f.score, 2)};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setBackground(matchColor(f.match));
      item->setData(kMatchRole, static_cast<int>(f.match));
      item->setToolTip(toQString(gwb::ds::fieldMatchName(f.match)));
      table->setItem(row, c, item);
    }
  }
  table->resizeColumnToContents(1);
  table->resizeColumnToContents(2);
}

void DsLearningView::showEvaluation() {
  const gwb::ds::ItemEvaluation& e = *evaluation_;
  alignment_ = gwb::ds::alignFields(e.parsed, e.gold, e.mapping);
  fillAlignmentTable(goldTable_, alignment_.gold);
  fillAlignmentTable(parsedTable_, alignment_.hypothesis);
  scoreLabel_->setText(scoreText());
  stepperButton_->setEnabled(learnedGrammar_ != nullptr);
  setStatus(tr("\u201c%1\u201d: %2").arg(toQString(e.sentence), scoreText()));
}

QString DsLearningView::scoreText() const {
  if (!evaluation_) return {};
  const gwb::ds::ItemEvaluation& e = *evaluation_;
  QString outcome = toQString(gwb::ds::outcomeName(e.outcome));
  if (e.truncated) outcome += tr(" (search truncated)");
  return tr("%1 with the top-%2 lexicon \u2014 precision %3, recall %4, F %5 "
            "(maxMapping %6 of %7 parsed, %8 gold parts)")
      .arg(outcome, QString::number(learnedTop_), fixed(e.mapping.precision(), 3),
           fixed(e.mapping.recall(), 3), fixed(e.mapping.f(), 3), fixed(e.mapping.score, 2),
           fixed(e.mapping.hypothesisSize, 0), fixed(e.mapping.goldSize, 0));
}

void DsLearningView::showDerivationResult() {
  const gwb::ds::HypothesisDerivation& d = *derivation_;
  stepsTable_->setRowCount(0);
  if (!d.found()) {
    dagModel_->setResult(nullptr, {});
    derivationTitle_->setText(tr("No derivation: %1").arg(toQString(d.note)));
    setStatus(derivationTitle_->text());
    return;
  }
  const int item = derivationItems_->currentData().toInt();
  const gwb::ds::SemanticExample& ex = (*corpus_)[static_cast<std::size_t>(item)];
  const std::vector<std::string> words = gwb::ds::splitWords(ex.sentence);
  dagModel_->setResult(std::make_shared<const gwb::ds::DsParseResult>(d.replay), words);
  dagModel_->toEnd();
  stepsTable_->setRowCount(static_cast<int>(d.path.size()));
  const QColor mine(0xff, 0xf1, 0xb8);
  for (std::size_t i = 0; i < d.path.size(); ++i) {
    const gwb::ds::PathStep& step = d.path[i];
    const int w = d.stepWord[i];
    const gwb::ds::DagEdge& edge = d.replay.dag.edges()[i];
    // A lexical step's action on one line; the full text in its tooltip.
    const QString text = step.lexical ? toQString(step.action).simplified() : QString();
    const QStringList cells = {QString::number(i + 1),
                               w >= 0 ? toQString(words[static_cast<std::size_t>(w)]) : QString(),
                               toQString(edge.action), text};
    for (int c = 0; c < cells.size(); ++c) {
      auto* cell = new QTableWidgetItem(cells[c]);
      if (w >= 0 && w == d.wordIndex) cell->setBackground(mine);
      if (step.lexical) cell->setToolTip(toQString(step.action));
      stepsTable_->setItem(static_cast<int>(i), c, cell);
    }
  }
  for (int c = 0; c < 3; ++c) stepsTable_->resizeColumnToContents(c);
  if (const std::vector<int> own = d.hypothesisEdges(); !own.empty()) {
    stepsTable_->scrollToItem(stepsTable_->item(own.front(), 0),
                              QAbstractItemView::PositionAtCenter);
  }
  const std::string& word = words[static_cast<std::size_t>(d.wordIndex)];
  derivationTitle_->setText(
      tr("\u201c%1\u201d (word %2 of \u201c%3\u201d, line %4): %5 steps from the axiom to the "
         "item's record type, %6 of them the hypothesis's own (highlighted).")
          .arg(toQString(word), QString::number(d.wordIndex + 1), toQString(ex.sentence),
               QString::number(ex.line), QString::number(d.path.size()),
               QString::number(d.hypothesisEdges().size())));
  setStatus(tr("Derivation of \u201c%1\u201d's hypothesis in line %2")
                .arg(toQString(word), QString::number(ex.line)));
}

void DsLearningView::chooseSeed() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Seed Grammar Folder"), seedDirectory());
  if (!dir.isEmpty()) setSeedDirectory(dir);
}

void DsLearningView::chooseTrain() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Training Items"), trainPath(),
                                                    tr("Text files (*.txt);;All files (*)"));
  if (!file.isEmpty()) setTrainPath(file);
}

void DsLearningView::chooseTest() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Test Items"), testPath(),
                                                    tr("Text files (*.txt);;All files (*)"));
  if (!file.isEmpty()) setTestPath(file);
}

void DsLearningView::chooseSaveFolder() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Save Learned Lexicons Into"));
  if (dir.isEmpty()) return;
  QString error;
  if (saveLexicons(dir, &error)) {
    setStatus(tr("Wrote lexicon.lex-top-1..%1.txt and hypotheses.tsv into %2")
                  .arg(QString::number(top()), dir));
  } else {
    setStatus(tr("Could not save: %1").arg(error));
  }
}

}  // namespace gwb::ui
