#include "ui/ccg/fubl_view.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include "gwb/ccg/term.h"
#include "gwb/common/diagnostic.h"
#include "ui/ccg/fubl_pair_heatmap.h"
#include "ui/ccg/fubl_training_plot.h"
#include "ui/common/job_progress_bar.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace ccg = gwb::ccg;

// The best parse of a selected test sentence, made on the sentence worker.
namespace {

enum PassColumn {
  PassNumber,
  PassAccuracy,
  PassParsable,
  PassSplits,
  PassLexemes,
  PassTemplates,
  PassEntries,
  PassLogLikelihood,
  PassColumnCount
};
enum EvaluationColumn {
  EvalIndex,
  EvalMark,
  EvalSentence,
  EvalWhy,
  EvalPredicted,
  EvalGold,
  EvalColumnCount
};
enum SentenceEntryColumn {
  EntrySpan,
  EntryWords,
  EntryInBest,
  EntryScore,
  EntryMeaning,
  EntryColumnCount
};
enum LexemeTemplateColumn { LtTemplate, LtTemplateWeight, LtPairWeight, LtScore, LtColumnCount };

QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignLeft) {
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment(alignment | Qt::AlignVCenter);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (text.size() > 30) item->setToolTip(text);
  return item;
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
  auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  table->setHorizontalHeaderLabels(headers);
  table->verticalHeader()->setVisible(false);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->horizontalHeader()->setStretchLastSection(true);
  table->setWordWrap(false);
  return table;
}

QString wordsOf(const ccg::SemanticExample& example) {
  QStringList words;
  for (const std::string& word : example.words) words << toQString(word);
  return words.join(QLatin1Char(' '));
}

QString formText(const ccg::Term& term) {
  return term ? toQString(ccg::toString(term)) : QObject::tr("(no parse)");
}

void collectLeaves(const ccg::DerivationNode& node, std::set<std::tuple<int, int, int, int>>* out) {
  if (node.children.empty()) {
    out->emplace(node.begin, node.end, node.lexeme, node.lexicalTemplate);
    return;
  }
  for (const ccg::DerivationNode& child : node.children) collectLeaves(child, out);
}

QString percent(double value) { return QString::number(100 * value, 'f', 1); }

QString firstError(const gwb::Diagnostics& diagnostics) {
  for (const gwb::Diagnostic& d : diagnostics) {
    if (d.severity == gwb::Severity::Error) return toQString(gwb::toString(d));
  }
  return {};
}

// The keys of state() (a workspace's "fubl" view; the training file is the document's path).
const QString kTrainingKey = QStringLiteral("training");
const QString kFixedKey = QStringLiteral("fixed");
const QString kTestKey = QStringLiteral("test");
const QString kModelKey = QStringLiteral("model");
const QString kShownModelKey = QStringLiteral("shownModel");
const QString kPassesKey = QStringLiteral("passes");
const QString kSeedKey = QStringLiteral("seed");
const QString kCoolingKey = QStringLiteral("cooling");
const QString kKeepLexiconKey = QStringLiteral("keepLexicon");
const QString kAverageWeightsKey = QStringLiteral("averageWeights");
const QString kKeepPosteriorKey = QStringLiteral("keepPosterior");
const QString kPageKey = QStringLiteral("page");
const QString kFilterKey = QStringLiteral("filter");
const QString kFilterModeKey = QStringLiteral("filterMode");
const QStringList kPages = {QStringLiteral("training"), QStringLiteral("lexicon"),
                            QStringLiteral("evaluation")};
const QStringList kFilterModes = {QStringLiteral("any"), QStringLiteral("word"),
                                  QStringLiteral("constant")};

QString absolute(const QString& path) {
  return path.isEmpty() ? path : QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

}  // namespace

FublView::FublView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("fublView"));
  buildUi();
  connect(&job_, &FublTrainingJob::loaded, this, &FublView::onLoaded);
  connect(&job_, &FublTrainingJob::exampleDone, this, [this](int pass, int example, int examples) {
    progress_->setIterationProgress(pass, example, examples);
  });
  connect(&job_, &FublTrainingJob::passFinished, this, &FublView::onPassFinished);
  connect(&job_, &FublTrainingJob::pruningProgress, this, [this](int example, int examples) {
    progress_->setProgress(example, examples);
    const double keepPosterior = job_.settings().keepPosterior;
    const QString likely =
        keepPosterior > 0
            ? tr(" and what their parses use at least %1 times in expectation").arg(keepPosterior)
            : QString();
    setStatus(tr("Keeping the items of the training pairs' best correct parses%1: %2 of %3 "
                 "parsed again\u2026")
                  .arg(likely)
                  .arg(example)
                  .arg(examples));
  });
  connect(&job_, &FublTrainingJob::evaluating, this, [this] {
    progress_->setProgress(0, 0);
    setStatus(tr("Evaluating the model on the test sentences\u2026"));
  });
  connect(&job_, &FublTrainingJob::finished, this, &FublView::onTrainingFinished);
  connect(progress_, &JobProgressBar::cancelClicked, this, &FublView::cancelTraining);
  connect(&sentenceJob_, &CcgParseJob::finished, this, &FublView::onSentenceParsed);
  setStatus(tr("Choose a training file of sentences with logical forms, then Train."));
}

FublView::~FublView() = default;  // sentenceJob_, then job_, cancel and join first

void FublView::buildUi() {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  pages_ = new QTabWidget(this);
  pages_->setObjectName(QStringLiteral("fublPages"));
  pages_->addTab(buildTrainingPage(), tr("Training"));
  pages_->addTab(buildLexiconPage(), tr("Lexicon"));
  pages_->addTab(buildEvaluationPage(), tr("Evaluation"));
  layout->addWidget(pages_);
}

QWidget* FublView::buildTrainingPage() {
  auto* page = new QWidget(this);
  auto* layout = new QVBoxLayout(page);
  auto* form = new QFormLayout;
  const auto fileRow = [&](QLineEdit** edit, const QString& label, const QString& title,
                           const QString& filter, bool save, const QString& placeholder) {
    *edit = new QLineEdit(page);
    (*edit)->setPlaceholderText(placeholder);
    auto* browse = new QPushButton(tr("Browse\u2026"), page);
    QLineEdit* target = *edit;
    connect(browse, &QPushButton::clicked, this,
            [this, target, title, filter, save] { choosePath(target, title, filter, save); });
    auto* row = new QHBoxLayout;
    row->addWidget(*edit, 1);
    row->addWidget(browse);
    form->addRow(label, row);
  };
  const QString pairs = tr("Sentences with logical forms (*.ccg *.dev *.test *);;All files (*)");
  fileRow(&trainingEdit_, tr("Training pairs:"), tr("Training pairs"), pairs, false,
          tr("sentence line, logical-form line, blank line (samples/ccg/geography.ccg)"));
  fileRow(&fixedEdit_, tr("Fixed lexicon:"), tr("Fixed entity lexicon"),
          tr("Fixed lexicons (*.geo *.flex *);;All files (*)"), false,
          tr("optional: words :- NP : entity a line (np-fixedlex.geo)"));
  fileRow(&testEdit_, tr("Test pairs:"), tr("Test pairs"), pairs, false,
          tr("optional: evaluated after training (default: the training pairs)"));
  fileRow(&modelEdit_, tr("Model file:"), tr("Save the model as"),
          tr("CCG models (*.ccgmodel);;All files (*)"), true,
          tr("default: NAME.ccgmodel beside the training file; written after each pass"));
  auto* numbers = new QHBoxLayout;
  passesBox_ = new QSpinBox(page);
  passesBox_->setRange(1, 100);
  passesBox_->setValue(FublTrainingSettings().passes);
  seedBox_ = new QSpinBox(page);
  seedBox_->setRange(0, 1000000);
  seedBox_->setToolTip(tr("0: the examples in file order every pass; else shuffled per pass"));
  trainButton_ = new QPushButton(tr("Train"), page);
  trainButton_->setObjectName(QStringLiteral("fublTrainButton"));
  connect(trainButton_, &QPushButton::clicked, this, [this] { startTraining(); });
  numbers->addWidget(new QLabel(tr("Passes:"), page));
  numbers->addWidget(passesBox_);
  numbers->addSpacing(12);
  numbers->addWidget(new QLabel(tr("Seed:"), page));
  numbers->addWidget(seedBox_);
  numbers->addStretch(1);
  numbers->addWidget(trainButton_);
  form->addRow(QString(), numbers);
  auto* learning = new QHBoxLayout;
  coolingBox_ = new QDoubleSpinBox(page);
  coolingBox_->setObjectName(QStringLiteral("fublCoolingBox"));
  coolingBox_->setDecimals(6);
  coolingBox_->setRange(0.0, 1.0);
  coolingBox_->setSingleStep(1e-5);
  coolingBox_->setValue(FublTrainingSettings().cooling);
  coolingBox_->setToolTip(
      tr("c of the learning rate 1 / (1 + c k), k the examples seen so far "
         "(section 7; UBL's drivers: 0.00001, so the rate stays near 1)"));
  keepLexiconBox_ = new QCheckBox(tr("Keep the whole lexicon"), page);
  keepLexiconBox_->setObjectName(QStringLiteral("fublKeepLexiconBox"));
  keepLexiconBox_->setToolTip(
      tr("Every lexeme and template learned stays in the model, as Figure 1 and UBL. Off: after "
         "the last pass only those of the training examples' best correct parses and, by "
         "\"Keep items used ≥\", of their likely ones (faster to test)"));
  averageWeightsBox_ = new QCheckBox(tr("Averaged weights"), page);
  averageWeightsBox_->setObjectName(QStringLiteral("fublAverageWeightsBox"));
  averageWeightsBox_->setToolTip(
      tr("Not in the paper: the model's weights are the mean of those after each training "
         "example, not the last ones (training still parses with the last ones)"));
  keepPosteriorBox_ = new QDoubleSpinBox(page);
  keepPosteriorBox_->setObjectName(QStringLiteral("fublKeepPosteriorBox"));
  keepPosteriorBox_->setDecimals(3);
  keepPosteriorBox_->setRange(0.0, 100.0);  // an expected count may pass 1
  keepPosteriorBox_->setSingleStep(0.05);
  keepPosteriorBox_->setSpecialValueText(tr("best parse only"));
  keepPosteriorBox_->setValue(FublTrainingSettings().keepPosterior);
  keepPosteriorBox_->setToolTip(
      tr("Not in the paper: after the last pass, also keep every lexeme and template that a "
         "training example's parses of its logical form use at least this many times in "
         "expectation, not only those of its best correct parse (ignored with the whole "
         "lexicon kept)"));
  connect(keepLexiconBox_, &QCheckBox::toggled, keepPosteriorBox_,
          [this](bool whole) { keepPosteriorBox_->setEnabled(!whole); });
  learning->addWidget(new QLabel(tr("Cooling c:"), page));
  learning->addWidget(coolingBox_);
  learning->addSpacing(12);
  learning->addWidget(keepLexiconBox_);
  learning->addSpacing(12);
  learning->addWidget(new QLabel(tr("Keep items used ≥"), page));
  learning->addWidget(keepPosteriorBox_);
  learning->addSpacing(12);
  learning->addWidget(averageWeightsBox_);
  learning->addStretch(1);
  form->addRow(QString(), learning);
  layout->addLayout(form);
  progress_ = new JobProgressBar(JobProgressBar::Visibility::Always, page);
  layout->addWidget(progress_);
  statusLabel_ = new QLabel(page);
  statusLabel_->setWordWrap(true);
  statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(statusLabel_);
  auto* splitter = new QSplitter(Qt::Vertical, page);
  plot_ = new FublTrainingPlot(splitter);
  passTable_ = makeTable({tr("Pass"), tr("Train acc. %"), tr("Parsable"), tr("Splits kept"),
                          tr("Lexemes"), tr("Templates"), tr("Entries"), tr("log-likelihood")},
                         splitter);
  passTable_->setObjectName(QStringLiteral("fublPassTable"));
  splitter->addWidget(plot_);
  splitter->addWidget(passTable_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  layout->addWidget(splitter, 1);
  return page;
}

QWidget* FublView::buildLexiconPage() {
  auto* page = new QWidget(this);
  auto* layout = new QVBoxLayout(page);
  auto* filterRow = new QHBoxLayout;
  filterEdit_ = new QLineEdit(page);
  filterEdit_->setPlaceholderText(tr("a word (texas) or a constant (texas:s, next_to)"));
  filterEdit_->setClearButtonEnabled(true);
  filterMode_ = new QComboBox(page);
  filterMode_->addItem(tr("word or constant"));
  filterMode_->addItem(tr("word"));
  filterMode_->addItem(tr("constant"));
  lexiconCount_ = new QLabel(page);
  filterRow->addWidget(new QLabel(tr("Filter:"), page));
  filterRow->addWidget(filterEdit_, 1);
  filterRow->addWidget(filterMode_);
  filterRow->addWidget(lexiconCount_);
  auto* openModelButton = new QPushButton(tr("Open model\u2026"), page);
  openModelButton->setObjectName(QStringLiteral("fublOpenModel"));
  openModelButton->setToolTip(
      tr("Show a model file (gwb ccg train --out) in the browser without training"));
  connect(openModelButton, &QPushButton::clicked, this, &FublView::chooseModelFile);
  filterRow->addWidget(openModelButton);
  layout->addLayout(filterRow);
  lexiconStatus_ = new QLabel(page);
  lexiconStatus_->setObjectName(QStringLiteral("fublLexiconStatus"));
  lexiconStatus_->setWordWrap(true);
  lexiconStatus_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(lexiconStatus_);
  connect(filterEdit_, &QLineEdit::textChanged, this, [this] { applyFilter(); });
  connect(filterMode_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { applyFilter(); });

  auto* vertical = new QSplitter(Qt::Vertical, page);
  auto* top = new QSplitter(Qt::Horizontal, vertical);
  lexiconModel_ = new FublLexiconModel(this);
  lexiconFilter_ = new FublLexiconFilter(this);
  lexiconFilter_->setSourceModel(lexiconModel_);
  lexiconTable_ = new QTableView(top);
  lexiconTable_->setObjectName(QStringLiteral("fublLexiconTable"));
  lexiconTable_->setModel(lexiconFilter_);
  lexiconTable_->setSortingEnabled(true);
  lexiconTable_->sortByColumn(-1, Qt::AscendingOrder);
  lexiconTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
  lexiconTable_->setSelectionMode(QAbstractItemView::SingleSelection);
  lexiconTable_->verticalHeader()->setVisible(false);
  lexiconTable_->setWordWrap(false);
  connect(lexiconTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid()) return;
            const int row = lexiconFilter_->mapToSource(current).row();
            heatmap_->setSelectedPair(lexiconModel_->lexemeAt(row), lexiconModel_->templateAt(row));
            selectLexeme(lexiconModel_->lexemeAt(row));
          });
  heatmap_ = new FublPairHeatmap;
  heatmap_->setSource(lexiconModel_, lexiconFilter_);
  connect(heatmap_, &FublPairHeatmap::pairClicked, this, [this](int lexeme, int lexicalTemplate) {
    const int row = lexiconModel_->rowOf(lexeme, lexicalTemplate);
    if (row < 0) return;
    const QModelIndex index = lexiconFilter_->mapFromSource(lexiconModel_->index(row, 0));
    if (index.isValid()) {
      lexiconTable_->setCurrentIndex(index);
      lexiconTable_->scrollTo(index);
    }
  });
  auto* heatmapScroll = new QScrollArea(top);
  heatmapScroll->setWidget(heatmap_);
  heatmapScroll->setWidgetResizable(true);
  top->addWidget(lexiconTable_);
  top->addWidget(heatmapScroll);
  top->setStretchFactor(0, 3);
  top->setStretchFactor(1, 2);

  auto* bottom = new QSplitter(Qt::Horizontal, vertical);
  auto* lexemeBox = new QWidget(bottom);
  auto* lexemeLayout = new QVBoxLayout(lexemeBox);
  lexemeLayout->setContentsMargins(0, 0, 0, 0);
  lexemeTitle_ = new QLabel(tr("<b>Lexeme</b> \u2014 select a row"), lexemeBox);
  lexemeTemplates_ =
      makeTable({tr("Template"), tr("Template w"), tr("Pair w"), tr("Score")}, lexemeBox);
  lexemeTemplates_->setObjectName(QStringLiteral("fublLexemeTemplates"));
  lexemeLayout->addWidget(lexemeTitle_);
  lexemeLayout->addWidget(lexemeTemplates_);
  auto* sentenceBoxWidget = new QWidget(bottom);
  auto* sentenceLayout = new QVBoxLayout(sentenceBoxWidget);
  sentenceLayout->setContentsMargins(0, 0, 0, 0);
  auto* sentenceRow = new QHBoxLayout;
  sentenceBox_ = new QComboBox(sentenceBoxWidget);
  sentenceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  sentenceBox_->setMinimumContentsLength(20);
  connect(sentenceBox_, qOverload<int>(&QComboBox::activated), this,
          [this](int index) { selectTestSentence(index); });
  sentenceRow->addWidget(new QLabel(tr("<b>Entries for</b>"), sentenceBoxWidget));
  sentenceRow->addWidget(sentenceBox_, 1);
  sentenceEntries_ = makeTable(
      {tr("Span"), tr("Words"), tr("In best parse"), tr("Score"), tr("Category : meaning")},
      sentenceBoxWidget);
  sentenceEntries_->setObjectName(QStringLiteral("fublSentenceEntries"));
  sentenceLayout->addLayout(sentenceRow);
  sentenceLayout->addWidget(sentenceEntries_);
  bottom->addWidget(lexemeBox);
  bottom->addWidget(sentenceBoxWidget);
  vertical->addWidget(top);
  vertical->addWidget(bottom);
  vertical->setStretchFactor(0, 3);
  vertical->setStretchFactor(1, 2);
  layout->addWidget(vertical, 1);
  return page;
}

QWidget* FublView::buildEvaluationPage() {
  auto* page = new QWidget(this);
  auto* layout = new QVBoxLayout(page);
  auto* row = new QHBoxLayout;
  scoresLabel_ = new QLabel(tr("No evaluation yet: train a model."), page);
  scoresLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  onlyWrongBox_ = new QCheckBox(tr("Only wrong answers"), page);
  connect(onlyWrongBox_, &QCheckBox::toggled, this, [this] { fillEvaluationTable(); });
  row->addWidget(scoresLabel_, 1);
  row->addWidget(onlyWrongBox_);
  layout->addLayout(row);
  evaluationTable_ =
      makeTable({tr("#"), QString(), tr("Sentence"), tr("Why"), tr("Predicted"), tr("Gold")}, page);
  evaluationTable_->setObjectName(QStringLiteral("fublEvaluationTable"));
  evaluationTable_->setToolTip(tr("Double-click a sentence to open it in the CCG tab"));
  connect(evaluationTable_, &QTableWidget::cellDoubleClicked, this,
          [this](int r, int /*column*/) { openTestSentence(testIndexOfEvaluationRow(r)); });
  layout->addWidget(evaluationTable_, 1);
  auto* hint = new QLabel(
      tr("Double-click a sentence to parse it in the CCG tab with the learned model."), page);
  layout->addWidget(hint);
  return page;
}

void FublView::setStatus(const QString& text) {
  status_ = text;
  statusLabel_->setText(text);
  lexiconStatus_->setText(text);
}

QString FublView::statusText() const { return status_; }
QString FublView::scoresText() const { return scoresLabel_->text(); }

void FublView::choosePath(QLineEdit* edit, const QString& title, const QString& filter, bool save) {
  const QString start =
      edit->text().isEmpty() ? QFileInfo(trainingEdit_->text()).path() : edit->text();
  const QString path = save ? QFileDialog::getSaveFileName(this, title, start, filter)
                            : QFileDialog::getOpenFileName(this, title, start, filter);
  if (!path.isEmpty()) edit->setText(QDir::toNativeSeparators(path));
}

void FublView::setSettings(const FublTrainingSettings& settings) {
  trainingEdit_->setText(settings.trainingPath);
  fixedEdit_->setText(settings.fixedLexiconPath);
  testEdit_->setText(settings.testPath);
  modelEdit_->setText(settings.modelPath);
  passesBox_->setValue(settings.passes);
  seedBox_->setValue(static_cast<int>(settings.seed));
  coolingBox_->setValue(settings.cooling);
  keepLexiconBox_->setChecked(settings.keepLexicon);
  averageWeightsBox_->setChecked(settings.averageWeights);
  keepPosteriorBox_->setValue(settings.keepPosterior);
}

FublTrainingSettings FublView::settings() const {
  FublTrainingSettings s;
  s.trainingPath = QDir::fromNativeSeparators(trainingEdit_->text().trimmed());
  s.fixedLexiconPath = QDir::fromNativeSeparators(fixedEdit_->text().trimmed());
  s.testPath = QDir::fromNativeSeparators(testEdit_->text().trimmed());
  s.modelPath = QDir::fromNativeSeparators(modelEdit_->text().trimmed());
  s.passes = passesBox_->value();
  s.seed = static_cast<quint64>(seedBox_->value());
  s.cooling = coolingBox_->value();
  s.keepLexicon = keepLexiconBox_->isChecked();
  s.averageWeights = averageWeightsBox_->isChecked();
  s.keepPosterior = keepPosteriorBox_->value();
  // Training and evaluation parses on every core: the model is the same for any count.
  s.threads = std::max(1, QThread::idealThreadCount());
  return s;
}

bool FublView::startTraining() {
  if (job_.isBusy()) return false;
  const FublTrainingSettings s = settings();
  if (s.trainingPath.isEmpty()) {
    setStatus(tr("Choose a training file first."));
    return false;
  }
  sentenceJob_.cancelAndFinish();
  plot_->clear();
  passTable_->setRowCount(0);
  if (!job_.start(s)) return false;
  progress_->start(tr("reading %1\u2026").arg(QFileInfo(s.trainingPath).fileName()));
  progress_->setCancelEnabled(true);
  trainButton_->setEnabled(false);
  setStatus(tr("Reading %1\u2026").arg(QDir::toNativeSeparators(s.trainingPath)));
  return true;
}

void FublView::cancelTraining() {
  if (job_.isBusy()) job_.cancel();
}

bool FublView::isTraining() const { return job_.isBusy(); }

bool FublView::waitForTraining(int milliseconds) {
  return !job_.isBusy() || job_.waitAndFinish(milliseconds);
}

void FublView::onLoaded(int examples, int lexemes, int templates) {
  setStatus(tr("%1: %n pair(s); initial lexicon %2 lexemes, %3 templates. Training\u2026", nullptr,
               examples)
                .arg(QFileInfo(job_.settings().trainingPath).fileName())
                .arg(lexemes)
                .arg(templates));
}

void FublView::onPassFinished(const ccg::PassSummary& summary) {
  plot_->appendPass(summary);
  const int r = passTable_->rowCount();
  passTable_->insertRow(r);
  const double accuracy =
      summary.examples > 0 ? 100.0 * summary.correctBeforeUpdate / summary.examples : 0.0;
  passTable_->setItem(r, PassNumber, cell(QString::number(summary.pass), Qt::AlignRight));
  passTable_->setItem(r, PassAccuracy,
                      cell(QStringLiteral("%1 (%2/%3)")
                               .arg(accuracy, 0, 'f', 1)
                               .arg(summary.correctBeforeUpdate)
                               .arg(summary.examples),
                           Qt::AlignRight));
  passTable_->setItem(r, PassParsable, cell(QString::number(summary.parsable), Qt::AlignRight));
  passTable_->setItem(r, PassSplits, cell(QString::number(summary.splitsAdded), Qt::AlignRight));
  passTable_->setItem(r, PassLexemes, cell(QString::number(summary.lexemes), Qt::AlignRight));
  passTable_->setItem(r, PassTemplates, cell(QString::number(summary.templates), Qt::AlignRight));
  passTable_->setItem(r, PassEntries, cell(QString::number(summary.entries), Qt::AlignRight));
  passTable_->setItem(r, PassLogLikelihood,
                      cell(QString::number(summary.logLikelihood, 'f', 3), Qt::AlignRight));
  passTable_->resizeColumnsToContents();
  setStatus(tr("Pass %1 of %2: training accuracy %3%, %4 lexemes, %5 templates; model saved to %6")
                .arg(summary.pass)
                .arg(job_.settings().passes)
                .arg(accuracy, 0, 'f', 1)
                .arg(summary.lexemes)
                .arg(summary.templates)
                .arg(QDir::toNativeSeparators(job_.settings().effectiveModelPath())));
}

void FublView::onTrainingFinished() {
  trainButton_->setEnabled(true);
  const QString error = job_.errorText();
  const int passes = static_cast<int>(job_.passes().size());
  if (!error.isEmpty()) {
    progress_->finish(tr("failed"), false);
    setStatus(tr("Training failed: %1").arg(error));
  } else if (job_.wasCancelled()) {
    progress_->finish(tr("cancelled after %n pass(es)", nullptr, passes), passes > 0);
    setStatus(passes > 0 ? tr("Cancelled during pass %1; the model of pass %2 is shown and saved "
                              "in %3.")
                               .arg(passes + 1)
                               .arg(passes)
                               .arg(QDir::toNativeSeparators(job_.settings().effectiveModelPath()))
                         : tr("Cancelled before the first pass ended; no model."));
  } else {
    progress_->finish(tr("done: %n pass(es)", nullptr, passes));
    setStatus(tr("Trained %n pass(es); model saved in %1. %2", nullptr, passes)
                  .arg(QDir::toNativeSeparators(job_.settings().effectiveModelPath()),
                       job_.evaluated() ? tr("Evaluation: F1 %1 on %2.")
                                              .arg(percent(job_.evaluation().plain.f1()))
                                              .arg(QFileInfo(job_.settings().testPath.isEmpty()
                                                                 ? job_.settings().trainingPath
                                                                 : job_.settings().testPath)
                                                       .fileName())
                                        : QString()));
  }
  if (job_.model() && error.isEmpty()) {
    shownModelPath_ = job_.settings().effectiveModelPath();
    model_ = job_.model();
    types_ = job_.types();
    parser_ = job_.parserOptions();
    test_ = job_.testExamples();
    evaluated_ = job_.evaluated();
    evaluation_ = job_.evaluation();
    showModel();
  }
  emit trainingFinished();
}

void FublView::showModel() {
  sentenceJob_.cancelAndFinish();
  lexiconModel_->setLexicon(model_);
  lexiconTable_->resizeColumnsToContents();
  lexiconTable_->horizontalHeader()->setStretchLastSection(true);  // the template
  selectedLexeme_ = -1;
  lexemeTemplates_->setRowCount(0);
  lexemeTitle_->setText(tr("<b>Lexeme</b> \u2014 select a row"));
  applyFilter();
  sentenceBox_->clear();
  for (const ccg::SemanticExample& example : test_) sentenceBox_->addItem(wordsOf(example));
  spanEntries_.clear();
  sentenceEntries_->setRowCount(0);
  if (!test_.empty()) selectTestSentence(0);
  if (evaluated_) {
    const ccg::ExactMatchScores& plain = evaluation_.plain;
    const ccg::ExactMatchScores& skip = evaluation_.withSkipping;
    scoresLabel_->setText(
        tr("Exact match: R %1  P %2  F1 %3 (%4 correct, %5 answered, %6 sentences); with word "
           "skipping: F1 %7")
            .arg(percent(plain.recall()), percent(plain.precision()), percent(plain.f1()))
            .arg(plain.correct)
            .arg(plain.answered)
            .arg(plain.sentences)
            .arg(percent(skip.f1())));
  } else {
    scoresLabel_->setText(
        tr("Not evaluated (the run was cancelled, or the model was opened from a file); "
           "double-click a sentence to parse it in the CCG tab."));
  }
  fillEvaluationTable();
}

void FublView::applyFilter() {
  const auto mode = static_cast<FublLexiconFilter::Mode>(filterMode_->currentIndex());
  lexiconFilter_->setFilter(filterEdit_->text(), mode);
  heatmap_->refresh();
  lexiconCount_->setText(
      tr("%1 of %2 pairs").arg(lexiconFilter_->rowCount()).arg(lexiconModel_->rowCount()));
}

void FublView::setFilter(const QString& text, FublLexiconFilter::Mode mode) {
  const QSignalBlocker blockMode(filterMode_);
  const QSignalBlocker blockText(filterEdit_);
  filterMode_->setCurrentIndex(static_cast<int>(mode));
  filterEdit_->setText(text);
  applyFilter();
}

void FublView::selectLexeme(int lexeme) {
  lexemeTemplates_->setRowCount(0);
  if (!model_ || lexeme < 0 || lexeme >= static_cast<int>(model_->lexemes().size())) return;
  selectedLexeme_ = lexeme;
  lexemeTitle_->setText(
      tr("<b>%1</b> \u22a2 %2 \u2014 lexeme weight %3")
          .arg(lexiconModel_->wordsText(lexeme).toHtmlEscaped(),
               lexiconModel_->constantsText(lexeme).toHtmlEscaped())
          .arg(formatWeight(model_->weight(ccg::lexemeFeature(model_->lexemes()[lexeme])))));
  for (int row = 0; row < lexiconModel_->rowCount(); ++row) {
    if (lexiconModel_->lexemeAt(row) != lexeme) continue;
    const int r = lexemeTemplates_->rowCount();
    lexemeTemplates_->insertRow(r);
    lexemeTemplates_->setItem(r, LtTemplate,
                              cell(lexiconModel_->templateText(lexiconModel_->templateAt(row))));
    lexemeTemplates_->setItem(
        r, LtTemplateWeight,
        cell(formatWeight(lexiconModel_->templateWeight(row)), Qt::AlignRight));
    lexemeTemplates_->setItem(r, LtPairWeight,
                              cell(formatWeight(lexiconModel_->pairWeight(row)), Qt::AlignRight));
    lexemeTemplates_->setItem(r, LtScore,
                              cell(formatWeight(lexiconModel_->score(row)), Qt::AlignRight));
  }
  lexemeTemplates_->resizeColumnsToContents();
}

void FublView::selectTestSentence(int index) {
  sentenceJob_.cancelAndFinish();
  parsedSentence_ = -1;  // also when the model changed under the same index
  if (!model_ || index < 0 || index >= static_cast<int>(test_.size())) return;
  selectedSentence_ = index;
  if (sentenceBox_->currentIndex() != index) sentenceBox_->setCurrentIndex(index);
  spanEntries_ = ccg::sentenceEntries(*model_, test_[index].words);
  fillSentenceEntries();
  // The best parse, as the CCG tab's Parse finds it, without the replay of the fill.
  CcgParseRequest request;
  request.lexicon = model_;
  request.words = test_[index].words;
  request.options = parser_;  // its types point into types_, kept while the job runs
  request.options.recordEvents = false;
  request.kBest = 1;
  parsingSentence_ = index;
  sentenceJob_.start(std::move(request));
}

bool FublView::waitForSentenceParse(int milliseconds) {
  return !sentenceJob_.isBusy() || sentenceJob_.waitAndFinish(milliseconds);
}

void FublView::onSentenceParsed() {
  const std::shared_ptr<const CcgParseOutcome> outcome = sentenceJob_.outcome();
  if (!outcome || outcome->cancelled || parsingSentence_ != selectedSentence_) return;
  bestLeaves_.clear();
  parsedSentence_ = parsingSentence_;
  if (outcome->chart && !outcome->derivations.empty())
    collectLeaves(outcome->derivations.front().root, &bestLeaves_);
  fillSentenceEntries();
}

void FublView::fillSentenceEntries() {
  sentenceEntries_->setRowCount(0);
  if (!model_ || selectedSentence_ < 0) return;
  const bool parsed = parsedSentence_ == selectedSentence_ && !sentenceJob_.isBusy();
  const std::vector<std::string>& words = test_[selectedSentence_].words;
  for (const ccg::SpanEntry& span : spanEntries_) {
    const int r = sentenceEntries_->rowCount();
    sentenceEntries_->insertRow(r);
    QStringList phrase;
    for (int i = span.begin; i < span.end; ++i) phrase << toQString(words[i]);
    const ccg::Lexeme& lexeme = model_->lexemes()[span.entry->lexeme];
    const ccg::LexicalTemplate& lexicalTemplate = model_->templates()[span.entry->lexicalTemplate];
    const double score =
        model_->weight(ccg::lexemeFeature(lexeme)) +
        ccg::kTemplateFeatureValue * model_->weight(ccg::templateFeature(lexicalTemplate)) +
        model_->weight(ccg::pairFeature(lexeme, lexicalTemplate));
    sentenceEntries_->setItem(r, EntrySpan,
                              cell(QStringLiteral("%1\u2013%2").arg(span.begin).arg(span.end)));
    sentenceEntries_->setItem(r, EntryWords, cell(phrase.join(QLatin1Char(' '))));
    sentenceEntries_->setItem(r, EntryMeaning,
                              cell(toQString(ccg::toString(span.entry->category) + " : " +
                                             ccg::toString(span.entry->semantics))));
    sentenceEntries_->setItem(r, EntryScore, cell(formatWeight(score), Qt::AlignRight));
    const bool inBest = parsed && bestLeaves_.count({span.begin, span.end, span.entry->lexeme,
                                                     span.entry->lexicalTemplate}) > 0;
    sentenceEntries_->setItem(r, EntryInBest,
                              cell(inBest ? QStringLiteral("\u2713") : QString(), Qt::AlignCenter));
    if (inBest) {
      for (int c = 0; c < EntryColumnCount; ++c) {
        sentenceEntries_->item(r, c)->setBackground(QColor(220, 240, 220));
      }
    }
  }
  sentenceEntries_->resizeColumnsToContents();
}

void FublView::setShowOnlyWrong(bool wrong) { onlyWrongBox_->setChecked(wrong); }

namespace {

// Why gold was not the answer (core's diagnosis): the kind, and the words that explain a form
// the lexicon cannot derive; the whole description as the tooltip.
QTableWidgetItem* whyCell(const ccg::SentenceResult* result) {
  if (result == nullptr || result->diagnosis.kind == ccg::GoldDiagnosis::Kind::None) {
    return cell(QString());
  }
  const ccg::GoldDiagnosis& diagnosis = result->diagnosis;
  QString text = toQString(ccg::toString(diagnosis.kind));
  const auto joined = [](const std::vector<std::string>& words) {
    QStringList list;
    for (const std::string& word : words) list << toQString(word);
    return list.join(QLatin1Char(' '));
  };
  if (!diagnosis.unknownWords.empty()) {
    text += QStringLiteral(" \u2014 unseen: ") + joined(diagnosis.unknownWords);
  } else if (diagnosis.derivableSkipping) {
    text += QStringLiteral(" \u2014 skipping: ") + joined(diagnosis.skippedWords);
  }
  auto* item = cell(text);
  item->setToolTip(toQString(ccg::describe(diagnosis)));
  return item;
}

}  // namespace

void FublView::fillEvaluationTable() {
  evaluationTable_->setRowCount(0);
  if (!model_) return;
  const bool onlyWrong = onlyWrongBox_->isChecked();
  for (int i = 0; i < static_cast<int>(test_.size()); ++i) {
    const bool known = evaluated_ && i < static_cast<int>(evaluation_.sentences.size());
    const bool correct = known && evaluation_.sentences[i].correct;
    if (onlyWrong && (!known || correct)) continue;
    const int r = evaluationTable_->rowCount();
    evaluationTable_->insertRow(r);
    auto* index = cell(QString::number(i + 1), Qt::AlignRight);
    index->setData(Qt::UserRole, i);
    evaluationTable_->setItem(r, EvalIndex, index);
    auto* mark = cell(!known    ? QString()
                      : correct ? QStringLiteral("\u2713")
                                : QStringLiteral("\u2717"),
                      Qt::AlignCenter);
    if (known) mark->setForeground(correct ? QColor(0, 128, 0) : QColor(200, 0, 0));
    evaluationTable_->setItem(r, EvalMark, mark);
    evaluationTable_->setItem(r, EvalSentence, cell(wordsOf(test_[i])));
    evaluationTable_->setItem(r, EvalPredicted,
                              cell(known ? formText(evaluation_.sentences[i].answer) : QString()));
    evaluationTable_->setItem(r, EvalGold, cell(toQString(ccg::toString(test_[i].logicalForm))));
    evaluationTable_->setItem(r, EvalWhy, whyCell(known ? &evaluation_.sentences[i] : nullptr));
  }
  evaluationTable_->resizeColumnsToContents();
}

int FublView::testIndexOfEvaluationRow(int row) const {
  if (row < 0 || row >= evaluationTable_->rowCount()) return -1;
  return evaluationTable_->item(row, EvalIndex)->data(Qt::UserRole).toInt();
}

bool FublView::openTestSentence(int index) {
  if (!model_ || index < 0 || index >= static_cast<int>(test_.size())) return false;
  emit openSentenceRequested(index);
  return true;
}

void FublView::chooseModelFile() {
  const QString start = shownModelPath_.isEmpty() ? QFileInfo(settings().trainingPath).path()
                                                  : QFileInfo(shownModelPath_).path();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open CCG Model"), start,
                                                    tr("CCG models (*.ccgmodel);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!openModelFile(path, &error)) QMessageBox::warning(this, tr("Open CCG Model"), error);
}

bool FublView::openModelFile(const QString& path, QString* error) {
  const auto fail = [&](const QString& message) {
    setStatus(message);
    if (error) *error = message;
    return false;
  };
  if (job_.isBusy()) return fail(tr("Training is running: cancel it before opening a model."));
  const QString native = QDir::toNativeSeparators(path);
  if (!QFileInfo(path).isFile()) return fail(tr("The model file %1 does not exist.").arg(native));
  ccg::CcgModelLoad load = ccg::loadCcgModel(toNativePath(path));
  if (load.diagnostics.hasErrors()) return fail(firstError(load.diagnostics));
  if (load.lexicon.lexemes().empty()) {
    return fail(tr("%1 holds no lexemes: not a model from gwb ccg train").arg(native));
  }
  // Types as training finds them: beside the model, else beside the training file.
  QString typesPath;
  QString langPath;
  const QString trainingPath = settings().trainingPath;
  std::shared_ptr<ccg::TypeSystem> types;
  if (findCcgTypeFiles(path, &typesPath, &langPath) ||
      (!trainingPath.isEmpty() && findCcgTypeFiles(trainingPath, &typesPath, &langPath))) {
    ccg::TypeSystemLoad typeLoad =
        ccg::loadTypeSystem(toNativePath(typesPath), toNativePath(langPath));
    if (typeLoad.diagnostics.hasErrors()) return fail(firstError(typeLoad.diagnostics));
    types = std::make_shared<ccg::TypeSystem>(std::move(typeLoad.types));
  }
  // The sentences to look at: the form's test pairs, else its training pairs, when they read.
  std::vector<ccg::SemanticExample> examples;
  const QString examplesPath = settings().testPath.isEmpty() ? trainingPath : settings().testPath;
  if (!examplesPath.isEmpty() && QFileInfo(examplesPath).isFile()) {
    ccg::SemanticExamplesLoad pairs = ccg::loadSemanticExamples(toNativePath(examplesPath));
    if (!pairs.diagnostics.hasErrors()) examples = std::move(pairs.examples);
  }
  auto lexicon = std::make_shared<ccg::FactoredLexicon>(std::move(load.lexicon));
  lexicon->buildEntries(types.get());
  sentenceJob_.cancelAndFinish();
  model_ = std::move(lexicon);
  types_ = types;
  parser_ = load.parser;
  parser_.types = types.get();  // types_ keeps it alive
  parser_.cancel = nullptr;
  test_ = std::move(examples);
  evaluated_ = false;
  evaluation_ = {};
  shownModelPath_ = path;
  showModel();
  pages_->setCurrentIndex(1);
  setStatus(tr("%1: %2 lexemes, %3 templates, %4 lexical entries (%5); not evaluated")
                .arg(QFileInfo(path).fileName())
                .arg(model_->lexemes().size())
                .arg(model_->templates().size())
                .arg(model_->entryCount())
                .arg(types ? tr("type-checked with %1").arg(QFileInfo(typesPath).fileName())
                           : tr("not type-checked: no .types/.lang found")));
  return true;
}

QJsonObject FublView::state() const {
  const FublTrainingSettings s = settings();
  QJsonObject state{{kTrainingKey, absolute(s.trainingPath)},
                    {kPassesKey, s.passes},
                    {kSeedKey, static_cast<qint64>(s.seed)},
                    {kCoolingKey, s.cooling},
                    {kKeepLexiconKey, s.keepLexicon},
                    {kAverageWeightsKey, s.averageWeights},
                    {kKeepPosteriorKey, s.keepPosterior},
                    {kPageKey, kPages.value(pages_->currentIndex(), kPages.front())}};
  if (!s.fixedLexiconPath.isEmpty()) state.insert(kFixedKey, absolute(s.fixedLexiconPath));
  if (!s.testPath.isEmpty()) state.insert(kTestKey, absolute(s.testPath));
  if (!s.modelPath.isEmpty()) state.insert(kModelKey, absolute(s.modelPath));
  if (model_ && !shownModelPath_.isEmpty() && QFileInfo(shownModelPath_).isFile()) {
    state.insert(kShownModelKey, absolute(shownModelPath_));
  }
  if (!filterEdit_->text().isEmpty()) {
    state.insert(kFilterKey, filterEdit_->text());
    state.insert(kFilterModeKey, kFilterModes.value(filterMode_->currentIndex()));
  }
  return state;
}

void FublView::restoreState(const QJsonObject& state) {
  if (job_.isBusy()) job_.cancelAndFinish();
  QStringList notes;
  FublTrainingSettings s;
  s.trainingPath = state.value(kTrainingKey).toString();
  s.fixedLexiconPath = state.value(kFixedKey).toString();
  s.testPath = state.value(kTestKey).toString();
  s.modelPath = state.value(kModelKey).toString();
  s.passes = std::clamp(state.value(kPassesKey).toInt(FublTrainingSettings().passes), 1, 100);
  s.seed = static_cast<quint64>(std::max<qint64>(0, state.value(kSeedKey).toInteger(0)));
  const double cooling = state.value(kCoolingKey).toDouble(FublTrainingSettings().cooling);
  s.cooling =
      std::isfinite(cooling) ? std::clamp(cooling, 0.0, 1.0) : FublTrainingSettings().cooling;
  s.keepLexicon = state.value(kKeepLexiconKey).toBool(false);
  s.averageWeights = state.value(kAverageWeightsKey).toBool(false);
  const double keepPosterior =
      state.value(kKeepPosteriorKey).toDouble(FublTrainingSettings().keepPosterior);
  s.keepPosterior = std::isfinite(keepPosterior) ? std::clamp(keepPosterior, 0.0, 100.0)
                                                 : FublTrainingSettings().keepPosterior;
  setSettings(s);
  // Files the form names that are gone: said, and the rest opens (a model that is gone is
  // written again by the next run).
  const std::vector<std::pair<QString, QString>> files = {{s.trainingPath, tr("training file")},
                                                          {s.fixedLexiconPath, tr("fixed lexicon")},
                                                          {s.testPath, tr("test file")}};
  for (const auto& [path, what] : files) {
    if (!path.isEmpty() && !QFileInfo(path).isFile()) {
      notes << tr("the %1 %2 is missing").arg(what, QDir::toNativeSeparators(path));
    }
  }
  const QString mode = state.value(kFilterModeKey).toString();
  setFilter(
      state.value(kFilterKey).toString(),
      static_cast<FublLexiconFilter::Mode>(std::max<qsizetype>(0, kFilterModes.indexOf(mode))));
  QString opened;
  const QString shown = state.value(kShownModelKey).toString();
  if (!shown.isEmpty()) {
    QString error;
    if (QFileInfo(shown).isFile() && openModelFile(shown, &error)) {
      opened = status_;
    } else if (!QFileInfo(shown).isFile()) {
      notes << tr("the model file %1 is missing").arg(QDir::toNativeSeparators(shown));
    } else {
      notes << error;
    }
  }
  const auto page = kPages.indexOf(state.value(kPageKey).toString());
  if (page >= 0 && (page == 0 || model_)) pages_->setCurrentIndex(static_cast<int>(page));
  if (page < 0 || (page > 0 && !model_)) pages_->setCurrentIndex(0);
  const QString base =
      opened.isEmpty() ? tr("Choose a training file of sentences with logical forms, then Train.")
                       : opened;
  setStatus(notes.isEmpty()
                ? base
                : tr("%1 \u2014 Workspace: %2").arg(base, notes.join(QStringLiteral("; "))));
}

}  // namespace gwb::ui
