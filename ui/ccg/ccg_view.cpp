#include "ui/ccg/ccg_view.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/derivation_proof.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/ccg/term.h"
#include "ui/ccg/ccg_chart_view.h"
#include "ui/ccg/ccg_proof_view.h"
#include "ui/common/job_progress_bar.h"
#include "ui/common/qt_conversions.h"
#include "ui/common/shared_data_folder.h"

namespace gwb::ui {

namespace ccg = gwb::ccg;

namespace {

enum EntryColumn {
  EntryIndex,
  EntryCategory,
  EntryForm,
  EntryInside,
  EntryViterbi,
  EntryEdges,
  EntryStatus,
  EntryColumnCount
};
enum DerivationColumn {
  DerivationRank,
  DerivationScore,
  DerivationProbability,
  DerivationFormProbability,
  DerivationMatch,
  DerivationForm,
  DerivationColumnCount
};

// The keys of state() (a workspace's "ccg" view).
const QString kSentencesKey = QStringLiteral("sentences");
const QString kSentenceKey = QStringLiteral("sentence");
const QString kKBestKey = QStringLiteral("kbest");
const QString kBeamKey = QStringLiteral("beam");
const QString kCompositionKey = QStringLiteral("composition");
const QString kSkipWordsKey = QStringLiteral("skipWords");
const QString kParsedKey = QStringLiteral("parsed");
const QString kPositionKey = QStringLiteral("position");
const QString kCellKey = QStringLiteral("cell");
const QString kEntryKey = QStringLiteral("entry");
const QString kDerivationKey = QStringLiteral("derivation");
const QString kShadingKey = QStringLiteral("shading");
const QString kBestScore = QStringLiteral("best-score");

std::optional<QString> readText(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error)
      *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return std::nullopt;
  }
  return QString::fromUtf8(file.readAll());
}

QString firstError(const Diagnostics& diagnostics) {
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error) return toQString(toString(d));
  }
  return {};
}

QString number(double value) {
  if (!std::isfinite(value))
    return value < 0 ? QStringLiteral("\u2212\u221e") : QStringLiteral("\u221e");
  return QString::number(value, 'f', 3);
}

QTableWidgetItem* item(const QString& text, Qt::Alignment alignment = Qt::AlignLeft) {
  auto* cell = new QTableWidgetItem(text);
  cell->setTextAlignment(alignment | Qt::AlignVCenter);
  cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (text.size() > 24) cell->setToolTip(text);
  return cell;
}

}  // namespace

CcgView::CcgView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("ccgView"));
  buildUi();
  connect(&parseJob_, &CcgParseJob::finished, this, &CcgView::onParseDone);
  updateActions();
  setStatus(tr("Open a factored lexicon (.flex) or a model from gwb ccg train."));
}

// parseJob_ goes first (declared last): it cancels and waits; the work owns what it reads.
CcgView::~CcgView() = default;

bool CcgView::isCcgLexiconFile(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("flex") || suffix == QLatin1String("ccgmodel")) return true;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  for (int lineNumber = 0; lineNumber < 200 && !file.atEnd(); ++lineNumber) {
    const QString line = QString::fromUtf8(file.readLine(4096)).trimmed();
    if (lineNumber == 0 && line.startsWith(QLatin1String("# gwb-ccg-model"))) return true;
    if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
    return line.startsWith(QLatin1String("lexeme ")) ||
           line.startsWith(QLatin1String("template ")) ||
           line.startsWith(QLatin1String("feature "));
  }
  return false;
}

void CcgView::buildUi() {
  lexiconEdit_ = new QLineEdit(this);
  lexiconEdit_->setReadOnly(true);
  lexiconEdit_->setPlaceholderText(tr("factored lexicon or model"));
  auto* openButton = new QPushButton(tr("Lexicon\u2026"), this);
  openButton->setToolTip(tr("Open a factored lexicon (.flex) or a model from gwb ccg train"));
  connect(openButton, &QPushButton::clicked, this, &CcgView::chooseLexicon);
  sentenceBox_ = new QComboBox(this);
  sentenceBox_->setEditable(true);
  sentenceBox_->setInsertPolicy(QComboBox::NoInsert);
  sentenceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  sentenceBox_->setMinimumContentsLength(30);
  sentenceBox_->lineEdit()->setPlaceholderText(tr("a sentence, e.g. what states border texas"));
  connect(sentenceBox_->lineEdit(), &QLineEdit::returnPressed, this, [this] { parse(); });
  auto* sentencesButton = new QPushButton(tr("Sentences\u2026"), this);
  sentencesButton->setToolTip(
      tr("Sentences to pick from: a GeoQuery .ccg file or plain sentences, one a line"));
  connect(sentencesButton, &QPushButton::clicked, this, &CcgView::chooseSentences);
  kBox_ = new QSpinBox(this);
  kBox_->setRange(1, 100);
  kBox_->setValue(5);
  kBox_->setPrefix(tr("k best: "));
  beamBox_ = new QSpinBox(this);
  beamBox_->setObjectName(QStringLiteral("ccgBeam"));
  beamBox_->setRange(1, 100000);
  beamBox_->setValue(ccg::CkyOptions().beam);
  beamBox_->setPrefix(tr("beam: "));
  beamBox_->setToolTip(tr("Entries kept per chart cell (the model's beam when it gives one)"));
  compositionBox_ = new QCheckBox(tr("Composition"), this);
  compositionBox_->setChecked(true);
  compositionBox_->setToolTip(tr(">B and <B besides > and <"));
  skipBox_ = new QCheckBox(tr("Skip words"), this);
  skipBox_->setObjectName(QStringLiteral("ccgSkipWords"));
  skipBox_->setToolTip(
      tr("Let a parse leave words out, each at the cost of the skip weight (test-time parsing)"));
  parseButton_ = new QPushButton(tr("Parse"), this);
  parseButton_->setDefault(true);
  connect(parseButton_, &QPushButton::clicked, this, [this] { parse(); });
  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::WhileRunning, this);
  jobBar_->setObjectName(QStringLiteral("ccgJobBar"));
  jobBar_->follow(parseJob_.backgroundJob());

  auto* inputs = new QHBoxLayout;
  inputs->addWidget(openButton);
  inputs->addWidget(lexiconEdit_, 2);
  inputs->addWidget(sentencesButton);
  inputs->addWidget(sentenceBox_, 4);
  inputs->addWidget(kBox_);
  inputs->addWidget(beamBox_);
  inputs->addWidget(compositionBox_);
  inputs->addWidget(skipBox_);
  inputs->addWidget(parseButton_);

  statusLabel_ = new QLabel(this);
  statusLabel_->setObjectName(QStringLiteral("ccgStatus"));
  statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  goldLabel_ = new QLabel(this);
  goldLabel_->setObjectName(QStringLiteral("ccgGold"));
  goldLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  goldLabel_->setWordWrap(true);

  // Left: the chart and the stepper.
  chartView_ = new CcgChartView(this);
  connect(chartView_, &CcgChartView::cellSelected, this,
          [this](int begin, int end) { selectCell(begin, end); });
  const auto toolButton = [this](const QString& text, const QString& tip, const QKeySequence& key,
                                 auto slot) {
    auto* button = new QToolButton(this);
    button->setText(text);
    button->setToolTip(tip + QStringLiteral(" (") + key.toString(QKeySequence::NativeText) +
                       QLatin1Char(')'));
    button->setShortcut(key);
    button->setAutoRaise(true);
    connect(button, &QToolButton::clicked, this, slot);
    return button;
  };
  startButton_ = toolButton(QStringLiteral("|\u25c0"), tr("Replay from the start"),
                            QKeySequence(Qt::ALT | Qt::Key_Home), [this] { goToStep(0); });
  previousCellButton_ =
      toolButton(QStringLiteral("\u25c0\u25c0"), tr("Previous cell"),
                 QKeySequence(Qt::ALT | Qt::SHIFT | Qt::Key_Left), [this] { previousCell(); });
  backButton_ = toolButton(QStringLiteral("\u25c0"), tr("Previous step"),
                           QKeySequence(Qt::ALT | Qt::Key_Left), [this] { stepBack(); });
  forwardButton_ = toolButton(QStringLiteral("\u25b6"), tr("Next step"),
                              QKeySequence(Qt::ALT | Qt::Key_Right), [this] { stepForward(); });
  nextCellButton_ =
      toolButton(QStringLiteral("\u25b6\u25b6"), tr("Next cell"),
                 QKeySequence(Qt::ALT | Qt::SHIFT | Qt::Key_Right), [this] { nextCell(); });
  endButton_ = toolButton(QStringLiteral("\u25b6|"), tr("The finished chart"),
                          QKeySequence(Qt::ALT | Qt::Key_End), [this] { goToStep(stepCount()); });
  stepCounter_ = new QLabel(this);
  stepCounter_->setObjectName(QStringLiteral("ccgStepCounter"));
  auto* stepper = new QHBoxLayout;
  stepper->addWidget(new QLabel(tr("CKY fill:"), this));
  for (QToolButton* b : {startButton_, previousCellButton_, backButton_, forwardButton_,
                         nextCellButton_, endButton_}) {
    stepper->addWidget(b);
  }
  stepper->addWidget(stepCounter_);
  stepper->addStretch(1);
  shadingBox_ = new QComboBox(this);
  shadingBox_->setObjectName(QStringLiteral("ccgShading"));
  shadingBox_->addItem(tr("Shade by entry count"));
  shadingBox_->addItem(tr("Shade by best inside score"));
  shadingBox_->setToolTip(tr("What a cell's colour shows (the replay always shades by count)"));
  connect(shadingBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
    chartView_->setShading(index == 1 ? CcgChartView::Shading::BestScore
                                      : CcgChartView::Shading::EntryCount);
  });
  stepper->addWidget(shadingBox_);
  stepLabel_ = new QLabel(this);
  stepLabel_->setObjectName(QStringLiteral("ccgStepText"));
  stepLabel_->setWordWrap(true);
  stepLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stepLabel_->setMinimumHeight(stepLabel_->fontMetrics().height() * 3);
  stepLabel_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(chartView_, 1);
  leftLayout->addLayout(stepper);
  leftLayout->addWidget(stepLabel_);

  // Right: entries, parses, the proof.
  entriesTitle_ = new QLabel(tr("Entries"), this);
  entryTable_ = new QTableWidget(0, EntryColumnCount, this);
  entryTable_->setObjectName(QStringLiteral("ccgEntryTable"));
  entryTable_->setHorizontalHeaderLabels({tr("#"), tr("Category"), tr("Logical form"), tr("Inside"),
                                          tr("Viterbi"), tr("Derivations"), tr("Beam")});
  derivationTable_ = new QTableWidget(0, DerivationColumnCount, this);
  derivationTable_->setObjectName(QStringLiteral("ccgDerivationTable"));
  derivationTable_->setHorizontalHeaderLabels({tr("Rank"), tr("Score"), tr("P(derivation)"),
                                               tr("P(logical form)"), tr("Gold"),
                                               tr("Logical form")});
  for (QTableWidget* table : {entryTable_, derivationTable_}) {
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
  }
  entryTable_->horizontalHeader()->setSectionResizeMode(EntryForm, QHeaderView::Stretch);
  entryTable_->horizontalHeader()->setStretchLastSection(false);
  connect(entryTable_, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = entryTable_->selectionModel()->selectedRows();
    if (!rows.isEmpty()) selectEntry(rows.front().row());
  });
  connect(derivationTable_, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = derivationTable_->selectionModel()->selectedRows();
    if (!rows.isEmpty()) selectDerivation(rows.front().row());
  });
  proofView_ = new CcgProofView(this);
  auto* proofScroll = new QScrollArea(this);
  proofScroll->setWidget(proofView_);
  proofScroll->setWidgetResizable(true);
  proofScroll->setBackgroundRole(QPalette::Base);
  proofTitle_ = new QLabel(tr("Derivation"), this);
  exportButton_ = new QToolButton(this);
  exportButton_->setText(tr("Export\u2026"));
  exportButton_->setToolTip(tr("Save the derivation as PNG, SVG, PDF or LaTeX"));
  connect(exportButton_, &QToolButton::clicked, this, &CcgView::showExportDialog);
  auto* fitButton = new QToolButton(this);
  fitButton->setText(tr("Fit"));
  fitButton->setCheckable(true);
  fitButton->setChecked(true);
  fitButton->setToolTip(tr("Scale a large derivation down to fit; off: full size, scrolling"));
  connect(fitButton, &QToolButton::toggled, proofView_, &CcgProofView::setFit);
  auto* proofHeader = new QHBoxLayout;
  proofHeader->addWidget(proofTitle_, 1);
  proofHeader->addWidget(fitButton);
  proofHeader->addWidget(exportButton_);

  const auto panel = [this](QLayout* header, QLabel* title, QWidget* body) {
    auto* widget = new QWidget(this);
    auto* layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    if (header) layout->addLayout(header);
    if (title) layout->addWidget(title);
    layout->addWidget(body, 1);
    return widget;
  };
  auto* parsesTitle = new QLabel(tr("<b>k best parses</b> of the whole sentence"), this);
  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(panel(nullptr, entriesTitle_, entryTable_));
  right->addWidget(panel(nullptr, parsesTitle, derivationTable_));
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);

  // Top: the chart beside its entries and the parses; below, full width, the proof (proofs
  // grow to the right).
  auto* top = new QSplitter(Qt::Horizontal, this);
  top->addWidget(left);
  top->addWidget(right);
  top->setStretchFactor(0, 2);
  top->setStretchFactor(1, 3);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->setObjectName(QStringLiteral("ccgMainSplitter"));
  split->addWidget(top);
  split->addWidget(panel(proofHeader, nullptr, proofScroll));
  split->setStretchFactor(0, 5);
  split->setStretchFactor(1, 4);
  split->setSizes({560, 420});

  auto* statusRow = new QHBoxLayout;
  statusRow->addWidget(statusLabel_, 1);
  statusRow->addWidget(jobBar_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(inputs);
  layout->addLayout(statusRow);
  layout->addWidget(goldLabel_);
  layout->addWidget(split, 1);
}

void CcgView::showNotice() { setStatus(baseStatus_); }

void CcgView::setStatus(const QString& text) {
  baseStatus_ = text;
  status_ = notice_.isEmpty() ? text : tr("%1 \u2014 Workspace: %2").arg(text, notice_);
  statusLabel_->setText(status_);
}

QString CcgView::statusText() const { return status_; }
QString CcgView::stepText() const { return stepLabel_->text(); }

bool CcgView::openLexicon(const QString& path, QString* error) {
  QString readError;
  const std::optional<QString> text = readText(path, &readError);
  const auto fail = [&](const QString& message) {
    setStatus(message);
    if (error) *error = message;
    return false;
  };
  if (!text) return fail(tr("Could not read %1").arg(readError));
  const std::string file = toNativePath(path);
  auto lexicon = std::make_shared<ccg::FactoredLexicon>();
  ccg::CkyOptions options;
  Diagnostics diagnostics;
  if (text->startsWith(QLatin1String("# gwb-ccg-model"))) {
    ccg::CcgModelLoad load = ccg::readCcgModel(text->toStdString(), file);
    diagnostics = std::move(load.diagnostics);
    *lexicon = std::move(load.lexicon);
    options = load.parser;
  } else {
    ccg::LexiconLoad load = ccg::readFactoredLexicon(text->toStdString(), file);
    diagnostics = std::move(load.diagnostics);
    *lexicon = std::move(load.lexicon);
  }
  if (diagnostics.hasErrors()) return fail(firstError(diagnostics));
  if (lexicon->lexemes().empty()) {
    return fail(tr("%1 holds no lexemes: not a factored lexicon (docs/formats.md)")
                    .arg(QDir::toNativeSeparators(path)));
  }
  // Types beside the lexicon, else GeoQuery's.
  const QFileInfo info(path);
  const QString stem = info.path() + QLatin1Char('/') + info.completeBaseName();
  QString typesPath = stem + QStringLiteral(".types");
  QString langPath = stem + QStringLiteral(".lang");
  if (!QFileInfo::exists(typesPath) || !QFileInfo::exists(langPath)) {
    const QString shared =
        sharedDataFolder(QStringLiteral("data/geoquery"), QStringLiteral("geo-lambda.types"));
    typesPath = shared.isEmpty() ? QString() : shared + QStringLiteral("/geo-lambda.types");
    langPath = shared.isEmpty() ? QString() : shared + QStringLiteral("/geo-lambda.lang");
  }
  std::unique_ptr<ccg::TypeSystem> types;
  typesNote_ = tr("not type-checked: no .types/.lang beside it");
  if (!typesPath.isEmpty()) {
    QString typesError;
    const auto typesText = readText(typesPath, &typesError);
    const auto langText = readText(langPath, &typesError);
    if (!typesText || !langText) return fail(tr("Could not read %1").arg(typesError));
    ccg::TypeSystemLoad load =
        ccg::readTypeSystem(typesText->toStdString(), toNativePath(typesPath),
                            langText->toStdString(), toNativePath(langPath));
    if (load.diagnostics.hasErrors()) return fail(firstError(load.diagnostics));
    types = std::make_unique<ccg::TypeSystem>(std::move(load.types));
    typesNote_ = tr("type-checked with %1").arg(QFileInfo(typesPath).fileName());
  }
  lexicon->buildEntries(types.get());
  parseJob_.cancelAndFinish();
  lexicon_ = std::move(lexicon);
  parserOptions_ = options;
  compositionBox_->setChecked(options.combinators.composition);
  beamBox_->setValue(options.beam);
  skipBox_->setChecked(options.skipWords);
  lexiconPath_ = path;
  lexiconEdit_->setText(QDir::toNativeSeparators(path));
  lexiconEdit_->setToolTip(lexiconEdit_->text());
  clearResult();
  setStatus(tr("%1: %2 lexemes, %3 templates, %4 lexical entries (%5)")
                .arg(info.fileName())
                .arg(lexicon_->lexemes().size())
                .arg(lexicon_->templates().size())
                .arg(lexicon_->entryCount())
                .arg(typesNote_));
  const QString sentencesPath = stem + QStringLiteral(".ccg");
  if (sentenceBox_->count() == 0 && QFileInfo::exists(sentencesPath)) loadSentences(sentencesPath);
  updateActions();
  return true;
}

void CcgView::openModel(std::shared_ptr<ccg::FactoredLexicon> lexicon,
                        std::shared_ptr<const ccg::TypeSystem> types, const ccg::CkyOptions& parser,
                        const QString& title, const std::vector<ccg::SemanticExample>& examples,
                        int sentence) {
  parseJob_.cancelAndFinish();
  clearResult();
  lexicon_ = std::move(lexicon);
  modelTypes_ = std::move(types);
  parserOptions_ = parser;
  parserOptions_.cancel = nullptr;
  parserOptions_.keepPrunedEntries = true;  // the chart shows what the beam dropped
  parserOptions_.recordEvents = true;       // the stepper replays the fill
  compositionBox_->setChecked(parser.combinators.composition);
  typesNote_ = parser.types != nullptr ? tr("type-checked") : tr("not type-checked");
  lexiconPath_.clear();
  lexiconEdit_->setText(title);
  lexiconEdit_->setToolTip(title);
  sentenceBox_->clear();
  for (const ccg::SemanticExample& example : examples) {
    QStringList words;
    for (const std::string& w : example.words) words << toQString(w);
    sentenceBox_->addItem(words.join(QLatin1Char(' ')), toQString(example.logicalFormText));
  }
  setStatus(tr("%1: %2 lexemes, %3 templates, %4 lexical entries (%5)")
                .arg(title)
                .arg(lexicon_->lexemes().size())
                .arg(lexicon_->templates().size())
                .arg(lexicon_->entryCount())
                .arg(typesNote_));
  updateActions();
  if (sentence >= 0 && sentence < sentenceBox_->count()) {
    sentenceBox_->setCurrentIndex(sentence);
    parse();
  }
}

bool CcgView::loadSentences(const QString& path, QString* error) {
  sentencesPath_ = path;
  QString readError;
  const std::optional<QString> text = readText(path, &readError);
  if (!text) {
    setStatus(tr("Could not read %1").arg(readError));
    if (error) *error = baseStatus_;
    return false;
  }
  const QString current = sentence();
  sentenceBox_->clear();
  const ccg::SemanticExamplesLoad load =
      ccg::readSemanticExamples(text->toStdString(), toNativePath(path));
  if (!load.examples.empty() && !load.diagnostics.hasErrors()) {
    for (const ccg::SemanticExample& example : load.examples) {
      QStringList words;
      for (const std::string& w : example.words) words << toQString(w);
      sentenceBox_->addItem(words.join(QLatin1Char(' ')), toQString(example.logicalFormText));
    }
  } else {
    for (const QString& line : text->split(QLatin1Char('\n'))) {
      const QString trimmed = line.simplified();
      if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#'))) continue;
      sentenceBox_->addItem(trimmed);
    }
  }
  if (!current.isEmpty()) {
    setSentence(current);
  } else if (sentenceBox_->count() > 0) {
    sentenceBox_->setCurrentIndex(0);
  }
  return true;
}

QStringList CcgView::sentences() const {
  QStringList out;
  for (int i = 0; i < sentenceBox_->count(); ++i) out << sentenceBox_->itemText(i);
  return out;
}

void CcgView::setSentence(const QString& sentence) {
  const int index = sentenceBox_->findText(sentence.simplified());
  if (index >= 0) {
    sentenceBox_->setCurrentIndex(index);
  } else {
    sentenceBox_->setEditText(sentence.simplified());
  }
}

QString CcgView::sentence() const { return sentenceBox_->currentText().simplified(); }

void CcgView::setKBest(int k) { kBox_->setValue(k); }
int CcgView::kBest() const { return kBox_->value(); }
void CcgView::setBeam(int beam) { beamBox_->setValue(beam); }
int CcgView::beam() const { return beamBox_->value(); }
void CcgView::setComposition(bool on) { compositionBox_->setChecked(on); }
bool CcgView::composition() const { return compositionBox_->isChecked(); }
void CcgView::setSkipWords(bool on) { skipBox_->setChecked(on); }
bool CcgView::skipWords() const { return skipBox_->isChecked(); }

QJsonObject CcgView::state() const {
  QJsonObject state{{kSentenceKey, sentence()},
                    {kKBestKey, kBest()},
                    {kBeamKey, beam()},
                    {kCompositionKey, composition()},
                    {kSkipWordsKey, skipWords()}};
  if (!sentencesPath_.isEmpty()) {
    state.insert(kSentencesKey,
                 sentencesPath_.startsWith(QLatin1Char(':'))
                     ? sentencesPath_
                     : QDir::cleanPath(QFileInfo(sentencesPath_).absoluteFilePath()));
  }
  if (shadingBox_->currentIndex() == 1) state.insert(kShadingKey, kBestScore);
  if (pendingState_) {
    // The restoring parse has not finished: what it will restore is still the place.
    for (const QString& key : {kParsedKey, kPositionKey, kCellKey, kEntryKey, kDerivationKey})
      if (pendingState_->contains(key)) state.insert(key, pendingState_->value(key));
    return state;
  }
  if (!chart_) return state;
  state.insert(kParsedKey, true);
  if (position_ < stepCount()) state.insert(kPositionKey, position_);
  if (cell_.first >= 0) state.insert(kCellKey, QJsonArray{cell_.first, cell_.second});
  if (shown_ == Shown::Entry) {
    state.insert(kEntryKey, QJsonArray{shownCell_.first, shownCell_.second, shownIndex_});
  }
  if (shown_ == Shown::Derivation) state.insert(kDerivationKey, shownIndex_);
  return state;
}

void CcgView::restoreState(const QJsonObject& state) {
  if (parseJob_.isBusy()) waitForParse();  // a parse of something else: let it finish first
  pendingState_.reset();
  notice_.clear();
  const QString before = baseStatus_;  // the lexicon's summary
  QStringList notes;
  const QString sentencesPath = state.value(kSentencesKey).toString();
  if (!sentencesPath.isEmpty()) {
    QString error;
    if (!loadSentences(sentencesPath, &error)) notes << error;
  }
  setSentence(state.value(kSentenceKey).toString());
  if (state.contains(kKBestKey)) setKBest(state.value(kKBestKey).toInt(kBest()));
  if (state.contains(kBeamKey)) setBeam(state.value(kBeamKey).toInt(beam()));
  if (state.contains(kCompositionKey))
    setComposition(state.value(kCompositionKey).toBool(composition()));
  if (state.contains(kSkipWordsKey)) setSkipWords(state.value(kSkipWordsKey).toBool(skipWords()));
  shadingBox_->setCurrentIndex(state.value(kShadingKey).toString() == kBestScore ? 1 : 0);
  if (state.value(kParsedKey).toBool(false)) {
    if (parse()) {
      pendingState_ = state;
      notice_ = notes.join(QStringLiteral("; "));
      return;
    }
    // parse() has said why (no lexicon, no sentence) in the status line.
    notes << tr("the saved parse was not restored");
    notice_ = notes.join(QStringLiteral("; "));
    showNotice();
    return;
  }
  notice_ = notes.join(QStringLiteral("; "));
  setStatus(before);
}

void CcgView::applyPendingState() {
  const QJsonObject state = *pendingState_;
  pendingState_.reset();
  QStringList notes;
  if (!notice_.isEmpty()) notes << notice_;
  if (!chart_) {
    notes << tr("the saved parse was not restored");
    notice_ = notes.join(QStringLiteral("; "));
    showNotice();
    return;
  }
  if (state.contains(kPositionKey)) {
    const int position = state.value(kPositionKey).toInt(stepCount());
    if (position < 0 || position > stepCount()) {
      notes << tr("the saved step %1 is beyond the end of this parse (%2 steps): showing the end")
                   .arg(position)
                   .arg(stepCount());
    } else {
      goToStep(position);
    }
  }
  const bool replaying = position_ < stepCount();
  const auto inChart = [this](int begin, int end) {
    return begin >= 0 && end > begin && end <= chart_->length();
  };
  // The entry the proof showed ([begin, end, row]: its cell may not be the selected one).
  if (const QJsonArray entry = state.value(kEntryKey).toArray();
      !replaying && state.contains(kEntryKey)) {
    const int begin = entry.at(0).toInt(-1);
    const int end = entry.at(1).toInt(-1);
    const int row = entry.at(2).toInt(-1);
    if (entry.size() != 3 || !inChart(begin, end) || row < 0 ||
        row >= static_cast<int>(chart_->cell(begin, end).entries.size())) {
      notes << tr("the saved entry #%1 of cell %2\u2013%3 is not in this chart")
                   .arg(row)
                   .arg(begin)
                   .arg(end);
    } else {
      selectCell(begin, end);
      selectEntry(row);
    }
  }
  const QJsonArray cell = state.value(kCellKey).toArray();
  if (!replaying && cell.size() == 2) {
    const int begin = cell[0].toInt(-1);
    const int end = cell[1].toInt(-1);
    if (!inChart(begin, end)) {
      notes << tr("the saved cell %1\u2013%2 is not in this chart").arg(begin).arg(end);
    } else {
      selectCell(begin, end);
    }
  }
  if (!replaying && !state.contains(kEntryKey) && state.contains(kDerivationKey)) {
    const int rank = state.value(kDerivationKey).toInt(-1);
    if (rank < 0 || rank >= static_cast<int>(derivations_.size())) {
      notes << tr("the saved parse %1 is not among the %2 found")
                   .arg(rank + 1)
                   .arg(static_cast<int>(derivations_.size()));
    } else {
      selectDerivation(rank);
    }
  }
  notice_ = notes.join(QStringLiteral("; "));
  showNotice();
}

bool CcgView::parse() {
  if (parseJob_.isBusy() || !lexicon_) {
    if (!lexicon_) setStatus(tr("Open a lexicon first."));
    return false;
  }
  const QString text = sentence();
  if (text.isEmpty()) {
    setStatus(tr("Type a sentence first."));
    return false;
  }
  std::vector<std::string> words;
  for (const QString& w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
    words.push_back(w.toStdString());
  }
  ccg::CkyOptions options = parserOptions_;
  options.combinators.composition = compositionBox_->isChecked();
  options.beam = beamBox_->value();
  options.skipWords = skipBox_->isChecked();
  const int k = kBox_->value();
  notice_.clear();  // a new parse: what a restored workspace could not show is past
  usedBeam_ = options.beam;
  CcgParseRequest request;
  request.lexicon = lexicon_;
  request.words = std::move(words);
  request.options = std::move(options);
  request.kBest = k;
  parseJob_.start(std::move(request));
  jobBar_->start(tr("parsing"));
  setStatus(tr("Parsing \u201c%1\u201d\u2026").arg(text));
  updateActions();
  return true;
}

void CcgView::cancelParse() {
  if (parseJob_.isBusy()) parseJob_.cancel();
}

bool CcgView::waitForParse(int milliseconds) {
  if (!parseJob_.isBusy()) return true;
  return parseJob_.waitAndFinish(milliseconds);
}

void CcgView::clearResult() {
  chartView_->setChart(nullptr);
  proofView_->clear();
  entryTable_->setRowCount(0);
  derivationTable_->setRowCount(0);
  derivations_.clear();
  steps_.clear();
  chart_.reset();
  parsedLexicon_.reset();
  position_ = 0;
  cell_ = {-1, -1};
  shown_ = Shown::Nothing;
  shownIndex_ = -1;
  goldLabel_->clear();
  stepLabel_->clear();
  entriesTitle_->setText(tr("<b>Entries</b> \u2014 click a cell of the chart"));
  proofTitle_->setText(tr("<b>Derivation</b>"));
  updateActions();
}

void CcgView::onParseDone() {
  const std::shared_ptr<const CcgParseOutcome> outcome = parseJob_.outcome();
  clearResult();
  cancelled_ = false;
  if (!outcome) {
    cancelled_ = true;
    setStatus(tr("Parse cancelled."));
  } else if (!outcome->error.isEmpty()) {
    setStatus(tr("The parse failed: %1").arg(outcome->error));
  } else if (outcome->cancelled || !outcome->chart) {
    cancelled_ = true;
    setStatus(tr("Parse cancelled after %1 of %2 chart cells.")
                  .arg(outcome->cellsFilled)
                  .arg(outcome->cells));
  } else {
    parsedLexicon_ = outcome->lexicon;
    chart_ = outcome->chart;
    derivations_ = outcome->derivations;
    steps_ = outcome->steps;
    position_ = stepCount();
    chartView_->setChart(chart_.get());
    std::size_t kept = chart_->entryCount();
    std::size_t all = 0;
    for (int b = 0; b < chart_->length(); ++b) {
      for (int e = b + 1; e <= chart_->length(); ++e) all += chart_->cell(b, e).entries.size();
    }
    const QString parses =
        chart_->hasParse()
            ? tr("%n parse(s) at the root", nullptr, static_cast<int>(chart_->roots().size()))
            : tr("no parse: no %1 spans the sentence")
                  .arg(parserOptions_.rootCategories.empty()
                           ? tr("category")
                           : toQString(parserOptions_.rootCategories.front()));
    setStatus(tr("%1 words, %2 entries kept, %3 pruned (beam %4), %5 fill steps, %6; %7 ms")
                  .arg(chart_->length())
                  .arg(kept)
                  .arg(all - kept)
                  .arg(usedBeam_)
                  .arg(stepCount())
                  .arg(parses)
                  .arg(outcome->milliseconds, 0, 'f', 1));
    fillDerivationTable();
    if (chart_->length() > 0) selectCell(0, chart_->length());
    if (!derivations_.empty()) selectDerivation(0);
    showStep();
  }
  if (pendingState_) applyPendingState();
  updateActions();
  emit parseFinished();
}

void CcgView::fillDerivationTable() {
  const QString goldText =
      sentenceBox_->currentIndex() >= 0 &&
              sentenceBox_->itemText(sentenceBox_->currentIndex()) == sentence()
          ? sentenceBox_->currentData().toString()
          : QString();
  ccg::Term gold = goldText.isEmpty() ? nullptr : ccg::parseTerm(goldText.toStdString());
  derivationTable_->setRowCount(static_cast<int>(derivations_.size()));
  bool goldFound = false;
  for (int r = 0; r < static_cast<int>(derivations_.size()); ++r) {
    const ccg::Derivation& d = derivations_[r];
    const bool match = gold && ccg::exactMatch(d.logicalForm, gold);
    goldFound = goldFound || match;
    derivationTable_->setItem(r, DerivationRank, item(QString::number(r + 1), Qt::AlignRight));
    derivationTable_->setItem(r, DerivationScore, item(number(d.score), Qt::AlignRight));
    derivationTable_->setItem(
        r, DerivationProbability,
        item(QString::number(std::exp(d.logProbability), 'f', 4), Qt::AlignRight));
    derivationTable_->setItem(
        r, DerivationFormProbability,
        item(QString::number(std::exp(chart_->logProbability(d.logicalForm)), 'f', 4),
             Qt::AlignRight));
    derivationTable_->setItem(r, DerivationMatch,
                              item(!gold   ? QString()
                                   : match ? QStringLiteral("\u2713")
                                           : QStringLiteral("\u2717"),
                                   Qt::AlignCenter));
    derivationTable_->setItem(r, DerivationForm, item(toQString(toString(d.logicalForm))));
  }
  derivationTable_->resizeColumnsToContents();
  if (gold) {
    const bool bestMatches =
        !derivations_.empty() && ccg::exactMatch(derivations_[0].logicalForm, gold);
    goldLabel_->setText(
        tr("Annotated: <tt>%1</tt> \u2014 %2")
            .arg(goldText.toHtmlEscaped(), bestMatches ? tr("the best parse matches it exactly")
                                           : goldFound ? tr("a lower-ranked parse matches it")
                                                       : tr("no parse shown matches it")));
  } else {
    goldLabel_->clear();
  }
}

void CcgView::selectCell(int begin, int end) {
  if (!chart_ || begin < 0 || end <= begin || end > chart_->length()) return;
  cell_ = {begin, end};
  chartView_->selectCell(begin, end);
  fillEntryTable();
}

void CcgView::fillEntryTable() {
  const QSignalBlocker blocker(entryTable_);
  entryTable_->setRowCount(0);
  if (!chart_ || cell_.first < 0) return;
  const int begin = cell_.first;  // not a structured binding: a lambda below captures it
  const int end = cell_.second;
  const ccg::ChartCell& cell = chart_->cell(begin, end);
  const int shown = chartView_->displayedEntries(begin, end);
  QStringList words;
  for (int w = begin; w < end; ++w) words << toQString(chart_->words()[w]);
  entriesTitle_->setText(tr("<b>Entries of cell %1\u2013%2</b> \u201c%3\u201d: %4%5")
                             .arg(begin)
                             .arg(end)
                             .arg(words.join(QLatin1Char(' ')).toHtmlEscaped())
                             .arg(shown)
                             .arg(position_ < stepCount() ? tr(" so far (replay)") : QString()));
  // Which entries were pruned by the replay position: those pruned in steps before it.
  std::vector<bool> pruned(static_cast<std::size_t>(shown), false);
  const bool replaying = position_ < stepCount();
  for (int i = 0; i < shown; ++i) pruned[i] = !replaying && cell.entries[i].pruned;
  if (replaying) {
    for (int s = 0; s < position_; ++s) {
      const ccg::CkyReplayStep& step = steps_[s];
      if (step.kind == ccg::CkyReplayStep::Kind::Pruned && step.begin == begin && step.end == end &&
          step.entry < shown) {
        pruned[step.entry] = true;
      }
    }
  }
  // Finished cells show their scores; a cell still filling has none yet.
  const bool cellDone =
      !replaying || std::any_of(steps_.begin(), steps_.begin() + position_, [&](const auto& s) {
        return s.kind == ccg::CkyReplayStep::Kind::CellFinished && s.begin == begin && s.end == end;
      });
  entryTable_->setRowCount(shown);
  for (int i = 0; i < shown; ++i) {
    const ccg::ChartEntry& entry = cell.entries[i];
    entryTable_->setItem(i, EntryIndex, item(QString::number(i), Qt::AlignRight));
    entryTable_->setItem(i, EntryCategory, item(toQString(toString(entry.category))));
    entryTable_->setItem(i, EntryForm,
                         item(entry.semantics ? toQString(toString(entry.semantics))
                                              : tr("(dropped with the entry)")));
    entryTable_->setItem(i, EntryInside,
                         item(cellDone ? number(entry.inside) : QString(), Qt::AlignRight));
    entryTable_->setItem(i, EntryViterbi,
                         item(cellDone ? number(entry.viterbi) : QString(), Qt::AlignRight));
    entryTable_->setItem(i, EntryEdges, item(QString::number(entry.edges.size()), Qt::AlignRight));
    entryTable_->setItem(i, EntryStatus, item(pruned[i] ? tr("pruned") : tr("kept")));
    if (pruned[i]) {
      for (int c = 0; c < EntryColumnCount; ++c) {
        entryTable_->item(i, c)->setForeground(palette().color(QPalette::PlaceholderText));
      }
    }
  }
  entryTable_->resizeColumnToContents(EntryIndex);
  entryTable_->resizeColumnToContents(EntryCategory);
  entryTable_->resizeColumnToContents(EntryInside);
  entryTable_->resizeColumnToContents(EntryViterbi);
  entryTable_->resizeColumnToContents(EntryEdges);
  entryTable_->resizeColumnToContents(EntryStatus);
}

void CcgView::selectEntry(int row) {
  if (!chart_ || cell_.first < 0 || row < 0 || row >= entryTable_->rowCount()) return;
  const int begin = cell_.first;  // not a structured binding: a lambda below captures it
  const int end = cell_.second;
  if (entryTable_->currentRow() != row) {
    const QSignalBlocker blocker(entryTable_);
    entryTable_->selectRow(row);
  }
  const ccg::ChartEntry& entry = chart_->cell(begin, end).entries[row];
  shown_ = Shown::Entry;
  shownIndex_ = row;
  shownCell_ = cell_;
  if (entry.edges.empty()) {
    proofView_->clear();
    proofTitle_->setText(
        tr("<b>Derivation</b>: entry #%1 was pruned and its derivations dropped").arg(row));
    return;
  }
  const ccg::DerivationNode node = ccg::entryDerivation(*chart_, begin, end, row);
  proofView_->setProof(ccg::layoutProof(node, chart_->words()),
                       tr("Viterbi derivation of entry #%1 of cell %2-%3 (Grammar Workbench)")
                           .arg(row)
                           .arg(begin)
                           .arg(end));
  proofTitle_->setText(tr("<b>Derivation</b> of entry #%1 of cell %2\u2013%3 (Viterbi, score %4)")
                           .arg(row)
                           .arg(begin)
                           .arg(end)
                           .arg(number(entry.viterbi)));
  updateActions();
}

void CcgView::selectDerivation(int rank) {
  if (rank < 0 || rank >= static_cast<int>(derivations_.size())) return;
  if (derivationTable_->currentRow() != rank) {
    const QSignalBlocker blocker(derivationTable_);
    derivationTable_->selectRow(rank);
  }
  const ccg::Derivation& d = derivations_[rank];
  shown_ = Shown::Derivation;
  shownIndex_ = rank;
  proofView_->setProof(ccg::layoutProof(d.root, chart_->words()),
                       tr("Parse %1 of \"%2\": score %3 (Grammar Workbench)")
                           .arg(rank + 1)
                           .arg(sentence())
                           .arg(number(d.score)));
  proofTitle_->setText(tr("<b>Derivation</b> of parse %1: score %2, P = %3")
                           .arg(rank + 1)
                           .arg(number(d.score))
                           .arg(std::exp(d.logProbability), 0, 'f', 4));
  updateActions();
}

void CcgView::goToStep(int position) {
  if (!chart_) return;
  position_ = std::clamp(position, 0, stepCount());
  showStep();
}

void CcgView::stepForward() { goToStep(position_ + 1); }
void CcgView::stepBack() { goToStep(position_ - 1); }

void CcgView::nextCell() {
  // To the end of the next cell's fill (its CellFinished step shown).
  for (int p = position_; p < stepCount(); ++p) {
    if (steps_[p].kind == ccg::CkyReplayStep::Kind::CellFinished && p + 1 > position_) {
      goToStep(p + 1);
      return;
    }
  }
  goToStep(stepCount());
}

void CcgView::previousCell() {
  // To the end of the cell before the one shown (or the start).
  for (int p = position_ - 2; p >= 0; --p) {
    if (steps_[p].kind == ccg::CkyReplayStep::Kind::CellFinished) {
      goToStep(p + 1);
      return;
    }
  }
  goToStep(0);
}

bool CcgView::goToStep(const QString& step) {
  if (!chart_) return false;
  if (step == QLatin1String("end")) {
    goToStep(stepCount());
    return true;
  }
  if (step.startsWith(QLatin1String("cell:"))) {
    const QStringList parts = step.mid(5).split(QLatin1Char('-'));
    bool okBegin = false;
    bool okEnd = false;
    const int begin = parts.value(0).toInt(&okBegin);
    const int end = parts.value(1).toInt(&okEnd);
    for (int p = 0; okBegin && okEnd && p < stepCount(); ++p) {
      if (steps_[p].kind == ccg::CkyReplayStep::Kind::CellFinished && steps_[p].begin == begin &&
          steps_[p].end == end) {
        goToStep(p + 1);
        return true;
      }
    }
    return false;
  }
  bool ok = false;
  const int count = step.toInt(&ok);
  if (!ok || count < 0) return false;
  goToStep(count);
  return true;
}

void CcgView::showStep() {
  if (!chart_) return;
  const bool replaying = position_ < stepCount();
  if (!replaying) {
    chartView_->setReplay(std::nullopt);
    stepLabel_->setText(
        tr("The finished chart. Step back (Alt+Left) or replay from the start to watch the CKY "
           "fill combinator by combinator."));
  } else {
    const ccg::CkyReplayState state =
        ccg::replayState(*chart_, steps_, static_cast<std::size_t>(position_));
    const ccg::CkyReplayStep* last = position_ > 0 ? &steps_[position_ - 1] : nullptr;
    chartView_->setReplay(state, last ? last->split : -1);
    stepLabel_->setText(
        last ? toQString(ccg::describeReplayStep(*chart_, *parsedLexicon_, *last))
             : tr("Before the fill: every cell empty. Step forward (Alt+Right) to begin."));
  }
  stepCounter_->setText(tr("step %1 of %2").arg(position_).arg(stepCount()));
  if (replaying) {
    shown_ = Shown::Step;  // the proof follows the step (the workspace keeps the step)
    shownIndex_ = -1;
  }
  if (replaying && position_ > 0) {
    const ccg::CkyReplayStep& last = steps_[position_ - 1];
    selectCell(last.begin, last.end);
    // The proof follows the step: the derivation a combination or lexical step just made; the
    // entry a pruning dropped; the best entry of a finished cell; nothing for a cell just opened.
    int entry = last.entry;
    int edge = last.edge;
    QString what;
    switch (last.kind) {
      case ccg::CkyReplayStep::Kind::NewEntry:
      case ccg::CkyReplayStep::Kind::AnotherDerivation:
        what =
            tr("made at step %1 (%2)")
                .arg(position_)
                .arg(QString::fromLatin1(ccg::combinatorSymbol(last.combinator)).toHtmlEscaped());
        break;
      case ccg::CkyReplayStep::Kind::Pruned:
        what = tr("of entry #%1, pruned at step %2").arg(entry).arg(position_);
        break;
      case ccg::CkyReplayStep::Kind::CellFinished: {
        const ccg::ChartCell& cell = chart_->cell(last.begin, last.end);
        entry = -1;
        for (int i = 0; i < static_cast<int>(cell.entries.size()); ++i) {
          if (!cell.entries[i].pruned &&
              (entry < 0 || cell.entries[i].viterbi > cell.entries[entry].viterbi)) {
            entry = i;
          }
        }
        what = tr("of the cell's best entry #%1 (Viterbi)").arg(entry);
        break;
      }
      case ccg::CkyReplayStep::Kind::CellStarted: entry = -1; break;
    }
    const bool shown = entry >= 0 && entry < entryTable_->rowCount() &&
                       !chart_->cell(last.begin, last.end).entries[entry].edges.empty();
    if (shown) {
      {
        const QSignalBlocker blocker(entryTable_);
        entryTable_->selectRow(entry);
      }
      const ccg::DerivationNode node =
          ccg::entryDerivation(*chart_, last.begin, last.end, entry, edge);
      proofView_->setProof(ccg::layoutProof(node, chart_->words()),
                           tr("Step %1 of the CKY fill (Grammar Workbench)").arg(position_));
      proofTitle_->setText(tr("<b>Derivation</b> %1").arg(what));
    } else {
      proofView_->clear();
      proofTitle_->setText(tr("<b>Derivation</b>: none at this step"));
    }
  } else if (!replaying) {
    if (cell_.first >= 0) fillEntryTable();
  } else {
    cell_ = {-1, -1};
    chartView_->selectCell(-1, -1);
    entryTable_->setRowCount(0);
    proofView_->clear();
  }
  updateActions();
}

void CcgView::updateActions() {
  const bool busy = parseJob_.isBusy();
  parseButton_->setEnabled(!busy && lexicon_ != nullptr);
  const bool haveChart = chart_ != nullptr && !busy;
  startButton_->setEnabled(haveChart && position_ > 0);
  previousCellButton_->setEnabled(haveChart && position_ > 0);
  backButton_->setEnabled(haveChart && position_ > 0);
  forwardButton_->setEnabled(haveChart && position_ < stepCount());
  nextCellButton_->setEnabled(haveChart && position_ < stepCount());
  endButton_->setEnabled(haveChart && position_ < stepCount());
  exportButton_->setEnabled(proofView_->hasProof());
}

bool CcgView::exportDerivation(const QString& path, QString* error) const {
  return proofView_->exportFile(path, error);
}

void CcgView::chooseLexicon() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open CCG Lexicon"), QFileInfo(lexiconPath_).path(),
      tr("CCG lexicons and models (*.flex *.ccgmodel *.lex *.txt);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!openLexicon(path, &error)) QMessageBox::warning(this, tr("Open CCG Lexicon"), error);
}

void CcgView::chooseSentences() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Sentences"), QFileInfo(lexiconPath_).path(),
                                   tr("Sentences (*.ccg *.test *.train *.txt);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!loadSentences(path, &error)) QMessageBox::warning(this, tr("Open Sentences"), error);
}

void CcgView::showExportDialog() {
  if (!proofView_->hasProof()) return;
  QString filter = tr("PNG image (*.png)");
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export Derivation"), QStringLiteral("derivation.png"),
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf);;LaTeX tabular (*.tex)"),
      &filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) {
    const qsizetype star = filter.indexOf(QLatin1String("*."));
    path += filter.mid(star + 1, filter.indexOf(QLatin1Char(')'), star) - star - 1);
  }
  QString error;
  if (!exportDerivation(path, &error)) QMessageBox::warning(this, tr("Export Derivation"), error);
}

}  // namespace gwb::ui
