#include "ui/grounded/discourse_view.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include "gwb/earley/grammar_io.h"
#include "ui/common/file_save.h"
#include "ui/common/qt_conversions.h"
#include "ui/earley/parse_tree_view.h"
#include "ui/grounded/corpus_files_dialog.h"
#include "ui/grounded/discourse_timeline.h"
#include "ui/grounded/segmentation_table.h"

namespace gwb::ui {

namespace {

// Zoom slider positions 0..100 map to 1..80 px per utterance, logarithmically.
double zoomForSlider(int position) { return std::exp(std::log(80.0) * position / 100.0); }
int sliderForZoom(double cellWidth) {
  return static_cast<int>(std::lround(100.0 * std::log(std::max(1.0, cellWidth)) / std::log(80.0)));
}

}  // namespace

DiscourseView::DiscourseView(QWidget* parent) : QWidget(parent) {
  setWindowTitle(tr("Discourse segmentation"));

  auto* openCorpus = new QPushButton(tr("Corpus\u2026"), this);
  openCorpus->setToolTip(tr("Open a social-cue corpus with its gold topics and recordings"));
  auto* addAnnotations = new QPushButton(tr("Add annotations\u2026"), this);
  addAnnotations->setToolTip(
      tr("Add rows from topic annotation files (one label per utterance, a column per "
         "annotator)"));
  decodeButton_ = new QPushButton(tr("Decode with grammar\u2026"), this);
  decodeButton_->setToolTip(
      tr("Add a row with the topics of a grammar's Viterbi parses (a discourse grammar parses "
         "each recording as one string)"));
  recordingBox_ = new QComboBox(this);
  recordingBox_->setMinimumContentsLength(14);
  recordingBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  zoomSlider_ = new QSlider(Qt::Horizontal, this);
  zoomSlider_->setRange(0, 100);
  zoomSlider_->setFixedWidth(120);
  zoomSlider_->setToolTip(tr("Pixels per utterance (Ctrl+wheel over the timeline)"));
  auto* fitButton = new QToolButton(this);
  fitButton->setText(tr("Fit"));
  gotoBox_ = new QSpinBox(this);
  gotoBox_->setPrefix(tr("utterance "));
  gotoBox_->setRange(1, 1);
  gotoBox_->setToolTip(tr("Scroll to an utterance of the recording"));
  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::WhileRunning, this);
  jobBar_->setFixedWidth(240);
  jobBar_->follow(worker_.backgroundJob());

  auto* bar = new QHBoxLayout;
  bar->addWidget(openCorpus);
  bar->addWidget(addAnnotations);
  bar->addWidget(decodeButton_);
  bar->addWidget(jobBar_);
  bar->addStretch();
  bar->addWidget(new QLabel(tr("Recording:"), this));
  bar->addWidget(recordingBox_);
  bar->addWidget(new QLabel(tr("Zoom:"), this));
  bar->addWidget(zoomSlider_);
  bar->addWidget(fitButton);
  bar->addWidget(gotoBox_);

  timeline_ = new DiscourseTimeline(this);
  legend_ = new QLabel(this);
  legend_->setWordWrap(true);
  legend_->setTextFormat(Qt::RichText);
  details_ = new QLabel(this);
  details_->setWordWrap(true);
  details_->setTextFormat(Qt::RichText);
  details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setMinimumHeight(90);
  status_ = new QLabel(this);
  status_->setWordWrap(true);

  windowBox_ = new QSpinBox(this);
  windowBox_->setRange(0, 10000);
  windowBox_->setSpecialValueText(tr("default"));
  windowBox_->setPrefix(tr("k = "));
  windowBox_->setToolTip(
      tr("Window for Pk and WindowDiff; default: segeval's, half the mean reference segment "
         "(at least 2), per recording"));
  allRecordingsBox_ = new QCheckBox(tr("All recordings"), this);
  allRecordingsBox_->setToolTip(tr("Every recording, pooled and mean, as gwb segment-eval"));
  auto* exportMetrics = new QPushButton(tr("Export CSV\u2026"), this);
  metrics_ = new SegmentationMetricsModel(this);
  table_ = new QTableView(this);
  table_->setModel(metrics_);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(false);

  conventionBox_ = new QComboBox(this);
  conventionBox_->addItem(tr("Agreement %"));
  conventionBox_->addItem(tr("Error rates"));
  conventionBox_->setToolTip(
      tr("One convention per table: agreements 100 \u00d7 (1 \u2212 error), higher is better; "
         "or error rates in [0, 1], lower is better"));
  auto* metricsBar = new QHBoxLayout;
  metricsTitle_ = new QLabel(this);
  metricsBar->addWidget(metricsTitle_);
  metricsBar->addStretch();
  metricsBar->addWidget(conventionBox_);
  metricsBar->addWidget(windowBox_);
  metricsBar->addWidget(allRecordingsBox_);
  metricsBar->addWidget(exportMetrics);

  auto* top = new QWidget(this);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(timeline_);
  topLayout->addWidget(legend_);
  topLayout->addWidget(details_, 1);
  auto* bottom = new QWidget(this);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(0, 0, 0, 0);
  bottomLayout->addLayout(metricsBar);
  bottomLayout->addWidget(table_, 1);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(top);
  splitter->addWidget(bottom);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(splitter, 1);
  layout->addWidget(status_);

  timeline_->setData(&data_, &palette_);
  zoomSlider_->setValue(sliderForZoom(timeline_->cellWidth()));

  connect(openCorpus, &QPushButton::clicked, this, &DiscourseView::chooseCorpusFiles);
  connect(addAnnotations, &QPushButton::clicked, this, &DiscourseView::chooseAnnotationFiles);
  connect(decodeButton_, &QPushButton::clicked, this, &DiscourseView::chooseGrammar);
  connect(exportMetrics, &QPushButton::clicked, this, &DiscourseView::chooseMetricsExport);
  connect(recordingBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index >= 0) setRecording(index);
  });
  connect(zoomSlider_, &QSlider::valueChanged, this,
          [this](int position) { timeline_->setCellWidth(zoomForSlider(position)); });
  connect(timeline_, &DiscourseTimeline::zoomChanged, this, [this](double width) {
    const QSignalBlocker block(zoomSlider_);
    zoomSlider_->setValue(sliderForZoom(width));
  });
  connect(fitButton, &QToolButton::clicked, timeline_, &DiscourseTimeline::zoomToFit);
  connect(gotoBox_, &QSpinBox::valueChanged, this, [this](int value) { showUtterance(value - 1); });
  connect(timeline_, &DiscourseTimeline::utteranceHovered, this, &DiscourseView::updateDetails);
  connect(timeline_, &DiscourseTimeline::utteranceClicked, this, [this](int row, int utterance) {
    updateDetails(utterance);
    openParse(row, utterance);
  });
  // Right-click a row to remove it.
  timeline_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(timeline_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    const int row = timeline_->rowAt(timeline_->viewport()->mapFrom(timeline_, at).y());
    if (row < 0) return;
    QMenu menu(this);
    QAction* remove = menu.addAction(tr("Remove row \u201c%1\u201d").arg(timeline_->rowName(row)));
    remove->setEnabled(!isDecoding());
    if (menu.exec(timeline_->mapToGlobal(at)) == remove) removeRow(row);
  });
  connect(windowBox_, &QSpinBox::valueChanged, this, [this] { updateMetrics(); });
  connect(conventionBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
    setConvention(index == 1 ? SegmentationMetricsModel::Convention::Error
                             : SegmentationMetricsModel::Convention::Agreement);
  });
  connect(allRecordingsBox_, &QCheckBox::toggled, this, [this](bool all) {
    metrics_->setRecording(all ? SegmentationMetricsModel::kAllRecordings : recording());
  });

  connect(&worker_, &DiscourseDecodingJob::finished, this, &DiscourseView::onDecodingDone);
  setConvention(SegmentationMetricsModel::Convention::Agreement);
  showMessage(
      tr("Open a corpus (Corpus\u2026) with its gold topics and recordings, then add "
         "annotation files or decode with a grammar."));
}

DiscourseView::~DiscourseView() = default;  // worker_ cancels the decoding and waits

bool DiscourseView::loadCorpus(const QString& corpusPath, const QString& goldPath,
                               const QString& recordingsPath, QString* error) {
  DiscourseData data;
  gwb::Diagnostics diagnostics;
  if (!data.load(corpusPath.toStdString(), goldPath.toStdString(), recordingsPath.toStdString(),
                 diagnostics)) {
    const QString text = errorLines(diagnostics);
    if (error) *error = text;
    showMessage(tr("Could not load the corpus:\n%1").arg(text));
    return false;
  }
  corpusPath_ = corpusPath;
  goldPath_ = goldPath;
  recordingsPath_ = recordingsPath;
  setData(std::move(data));
  showMessage(tr("%1: %2 utterances in %3 recording(s)%4")
                  .arg(QFileInfo(corpusPath).fileName())
                  .arg(data_.utteranceCount())
                  .arg(data_.recordings().size())
                  .arg(data_.gold() ? tr(", with gold topics") : QString()));
  return true;
}

void DiscourseView::setData(DiscourseData data) {
  if (worker_.isBusy()) worker_.cancelAndFinish();
  data_ = std::move(data);
  // Colours kept apart within each recording's gold topics (the rows compared with them use the
  // same topics).
  std::vector<std::vector<std::string>> together;
  for (const DiscourseRow& row : data_.rows()) {
    if (row.kind != DiscourseRow::Kind::Gold) continue;
    for (const gwb::Recording& r : data_.recordings()) {
      std::vector<std::string> topics;
      for (int u = r.firstUtterance; u < r.firstUtterance + r.utterances; ++u) {
        const auto& label = row.labels[static_cast<std::size_t>(u)];
        if (!label) continue;
        for (std::string& t : TopicPalette::topicsOfLabel(*label)) {
          if (std::find(topics.begin(), topics.end(), t) == topics.end())
            topics.push_back(std::move(t));
        }
      }
      together.push_back(std::move(topics));
    }
  }
  palette_ = TopicPalette(data_.topics(), together);
  timeline_->setData(&data_, &palette_);
  {
    const QSignalBlocker block(recordingBox_);
    recordingBox_->clear();
    for (const gwb::Recording& r : data_.recordings())
      recordingBox_->addItem(
          tr("%1 (%2 utterances)").arg(QString::fromStdString(r.id)).arg(r.utterances));
  }
  setRecording(0);
  dataChanged();
}

bool DiscourseView::addAnnotationFile(const QString& path, QString* error) {
  gwb::Diagnostics diagnostics;
  if (data_.empty()) {
    if (error) *error = tr("Open a corpus first.");
    return false;
  }
  const std::size_t added = data_.addAnnotationFile(path.toStdString(), diagnostics);
  if (added == 0) {
    const QString text = errorLines(diagnostics);
    if (error) *error = text;
    showMessage(tr("Could not add %1:\n%2").arg(QFileInfo(path).fileName(), text));
    return false;
  }
  dataChanged();
  showMessage(tr("Added %n row(s) from %1", nullptr, static_cast<int>(added))
                  .arg(QFileInfo(path).fileName()));
  return true;
}

bool DiscourseView::decodeGrammar(const QString& grammarPath, const QString& root) {
  if (worker_.isBusy() || data_.empty()) return false;
  DiscourseDecodingRequest request;
  request.grammarPath = grammarPath.toStdString();
  request.root = root.toStdString();
  request.threads = std::max(1, QThread::idealThreadCount());
  // The worker reads data_ only; the view changes it only after cancelling and waiting.
  const bool started = worker_.start(&data_, std::move(request));
  if (!started) return false;
  jobBar_->start();
  decodeButton_->setEnabled(false);
  showMessage(tr("Decoding with %1\u2026").arg(QFileInfo(grammarPath).fileName()));
  return true;
}

bool DiscourseView::isDecoding() const { return worker_.isBusy(); }

void DiscourseView::cancelDecoding() { worker_.cancel(); }

bool DiscourseView::waitForDecoding(int milliseconds) {
  return worker_.waitAndFinish(milliseconds);
}

void DiscourseView::onDecodingDone() {
  decodeError_ = worker_.error();
  decodeButton_->setEnabled(true);
  const std::shared_ptr<ModelDecoding> result = worker_.result();
  if (!decodeError_.isEmpty()) {
    showMessage(tr("Could not decode:\n%1").arg(decodeError_));
    if (restoring_) {
      restoreProblems_ << tr("%1 not decoded (%2)")
                              .arg(QString::fromStdString(result->grammarPath),
                                   decodeError_.section(QLatin1Char('\n'), 0, 0));
    }
  } else if (result->cancelled) {
    showMessage(tr("Decoding cancelled."));
  } else {
    data_.addModel(result);
    dataChanged();
    const std::size_t strings = result->trees.size();
    showMessage(
        tr("Decoded %1 with %2 (%3 grammar, cues: %4): %5 of %6 strings parsed")
            .arg(QString::fromStdString(data_.corpus().source).section(QLatin1Char('/'), -1))
            .arg(QString::fromStdString(result->grammarName))
            .arg(result->discourse ? tr("discourse") : tr("sentence"))
            .arg(result->cues.empty() ? tr("none") : QString::number(result->cues.size()))
            .arg(strings - result->failures)
            .arg(strings));
  }
  restoringRow_.reset();
  if (restoring_) continueRestore();
  emit decodingFinished();
}

void DiscourseView::removeRow(int row) {
  if (row < 0 || worker_.isBusy()) return;
  data_.removeRow(static_cast<std::size_t>(row));
  dataChanged();
}

void DiscourseView::setRecording(int recording) {
  if (recording < 0 || recording >= static_cast<int>(data_.recordings().size())) return;
  {
    const QSignalBlocker block(recordingBox_);
    recordingBox_->setCurrentIndex(recording);
  }
  timeline_->setRecording(recording);
  {
    const QSignalBlocker block(gotoBox_);
    gotoBox_->setRange(1, std::max(1, timeline_->utteranceCount()));
  }
  if (!allRecordingsBox_->isChecked()) metrics_->setRecording(recording);
  updateLegend();
  updateDetails(-1);
}

int DiscourseView::recording() const { return recordingBox_->currentIndex(); }

bool DiscourseView::setRecording(const QString& id) {
  const auto& recordings = data_.recordings();
  for (std::size_t i = 0; i < recordings.size(); ++i) {
    if (QString::fromStdString(recordings[i].id) == id) {
      setRecording(static_cast<int>(i));
      return true;
    }
  }
  return false;
}

void DiscourseView::setWindow(std::optional<int> k) { windowBox_->setValue(k ? *k : 0); }

std::optional<int> DiscourseView::window() const {
  return windowBox_->value() > 0 ? std::optional<int>(windowBox_->value()) : std::nullopt;
}

void DiscourseView::setAllRecordings(bool all) { allRecordingsBox_->setChecked(all); }

void DiscourseView::setConvention(SegmentationMetricsModel::Convention convention) {
  using Convention = SegmentationMetricsModel::Convention;
  metrics_->setConvention(convention);
  for (int column = 0; column < SegmentationMetricsModel::ColumnCount; ++column)
    table_->setColumnHidden(column, !SegmentationMetricsModel::isColumnShown(column, convention));
  {
    const QSignalBlocker block(conventionBox_);
    conventionBox_->setCurrentIndex(convention == Convention::Error ? 1 : 0);
  }
  metricsTitle_->setText(
      convention == Convention::Error
          ? tr("<b>Error rates</b> (a\u2260b, Pk, WindowDiff in [0, 1]; lower is better; row "
               "above = reference)")
          : tr("<b>Agreement %</b> (a=b, Pk, WindowDiff: 100 \u00d7 (1 \u2212 error); higher "
               "is better; row above = reference)"));
}

SegmentationMetricsModel::Convention DiscourseView::convention() const {
  return metrics_->convention();
}

void DiscourseView::showUtterance(int utterance) {
  timeline_->scrollToUtterance(utterance);
  {
    const QSignalBlocker block(gotoBox_);
    gotoBox_->setValue(utterance + 1);
  }
  updateDetails(utterance);
}

void DiscourseView::dataChanged() {
  timeline_->refresh();
  timeline_->updateGeometry();
  updateLegend();
  updateMetrics();
}

void DiscourseView::updateMetrics() {
  metrics_->setData(data_.rows(), data_.recordings(), window());
  metrics_->setRecording(allRecordingsBox_->isChecked() ? SegmentationMetricsModel::kAllRecordings
                                                        : recording());
}

void DiscourseView::updateLegend() {
  // The topics any row uses in this recording, by name; the null topic last.
  std::vector<std::string> topics;
  bool null = false;
  for (int row = 0; row < timeline_->rowCount(); ++row) {
    for (int u = 0; u < timeline_->utteranceCount(); ++u) {
      const auto l = timeline_->label(row, u);
      if (!l) continue;
      for (const std::string& t : TopicPalette::topicsOfLabel(*l)) {
        if (t == gwb::kNullTopic) {
          null = true;
        } else if (std::find(topics.begin(), topics.end(), t) == topics.end()) {
          topics.push_back(t);
        }
      }
    }
  }
  std::sort(topics.begin(), topics.end());
  if (null) topics.push_back(gwb::kNullTopic);
  QString text;
  for (const std::string& t : topics) {
    text += QStringLiteral(
                "<span style='background-color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2"
                "&nbsp;&nbsp; ")
                .arg(palette_.color(t).name(), QString::fromStdString(t).toHtmlEscaped());
  }
  if (!text.isEmpty()) text += tr("&nbsp;&nbsp;<b>|</b> = topic boundary");
  legend_->setText(text);
}

void DiscourseView::updateDetails(int utterance) {
  if (utterance < 0) {
    details_->setText(timeline_->utteranceCount() > 0
                          ? tr("<i>Hover over an utterance to see it; click it for its parse.</i>")
                          : QString());
    return;
  }
  details_->setText(timeline_->utteranceDescription(utterance));
}

bool DiscourseView::openParse(int row, int utterance) {
  // The clicked row if it is a model, else the first model row.
  int modelRow = -1;
  const auto& rows = data_.rows();
  if (row >= 0 && row < static_cast<int>(rows.size()) &&
      rows[static_cast<std::size_t>(row)].model) {
    modelRow = row;
  }
  for (std::size_t r = 0; r < rows.size() && modelRow < 0; ++r)
    if (rows[r].model) modelRow = static_cast<int>(r);
  if (modelRow < 0) {
    showMessage(tr("Decode with a grammar (Decode with grammar\u2026) to see parses."));
    return false;
  }
  const DiscourseRow& model = rows[static_cast<std::size_t>(modelRow)];
  const std::size_t index = timeline_->corpusIndex(utterance);
  const gwb::ParseTree tree = data_.utteranceTree(static_cast<std::size_t>(modelRow), index);
  if (tree.empty()) {
    showMessage(tr("%1 has no parse of this utterance (its string did not parse).")
                    .arg(QString::fromStdString(model.name)));
    return false;
  }
  if (!parseDialog_) {
    parseDialog_ = new QDialog(this);
    parseDialog_->resize(900, 560);
    parseTree_ = new ParseTreeView(parseDialog_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, parseDialog_);
    auto* stepper = buttons->addButton(tr("Open in Earley stepper"), QDialogButtonBox::ActionRole);
    stepper->setObjectName(QStringLiteral("openInStepper"));
    auto* layout = new QVBoxLayout(parseDialog_);
    layout->addWidget(parseTree_, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, parseDialog_, &QDialog::close);
    connect(stepper, &QPushButton::clicked, this, [this] {
      emit parseRequested(parseDialog_->property("grammarPath").toString(),
                          parseDialog_->property("root").toString(),
                          parseDialog_->property("text").toString());
    });
  }
  const ModelDecoding& m = *model.model;
  parseDialog_->setProperty("grammarPath", QString::fromStdString(m.grammarPath));
  parseDialog_->setProperty("root", QString::fromStdString(m.root));
  parseDialog_->setProperty("text", QString::fromStdString(data_.utteranceText(index, m.cues)));
  const QString recordingId =
      QString::fromStdString(data_.recordings()[static_cast<std::size_t>(recording())].id);
  parseDialog_->setWindowTitle(tr("Parse of utterance %1 of %2 \u2014 %3")
                                   .arg(utterance + 1)
                                   .arg(recordingId, QString::fromStdString(model.name)));
  parseTree_->setTree(
      tree, tr("Utterance %1 of %2 under %3%4: topic %5")
                .arg(utterance + 1)
                .arg(recordingId, QString::fromStdString(m.grammarName),
                     m.discourse ? tr(" (from the recording's Viterbi parse)") : QString(),
                     QString::fromStdString(m.utterances[index].topic)));
  parseDialog_->show();
  parseDialog_->raise();
  return true;
}

bool DiscourseView::exportMetricsCsv(const QString& path, QString* error) const {
  return saveBytesAtomically(path, metrics_->csvText().toUtf8(), error);
}

QString DiscourseView::statusText() const { return status_->text(); }

void DiscourseView::showMessage(const QString& text) { status_->setText(text); }

void DiscourseView::chooseCorpusFiles() {
  CorpusFilesDialog dialog(
      tr("Open a corpus for discourse segmentation"),
      tr("The corpus whose recordings are shown as timelines; its gold topics give the first row "
         "and the recordings table cuts it into recordings."),
      CorpusFilesDialog::Fields::CorpusGoldRecordings, this);
  dialog.setFiles({corpusPath_, goldPath_, recordingsPath_});
  if (dialog.exec() != QDialog::Accepted) return;
  const CorpusFiles files = dialog.files();
  if (files.corpus.isEmpty()) return;
  loadCorpus(files.corpus, files.gold, files.recordings);
}

void DiscourseView::chooseAnnotationFiles() {
  const QStringList paths = QFileDialog::getOpenFileNames(
      this, tr("Add topic annotations"), QFileInfo(corpusPath_).path(),
      tr("Topic annotations (*.txt *.tsv *.labels);;All files (*)"));
  for (const QString& path : paths) addAnnotationFile(path);
}

void DiscourseView::chooseGrammar() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Decode with a grammar"), QFileInfo(corpusPath_).path(),
      tr("Earleyx grammars (*.grammar *.iogrammar *.uniform *.rules);;All files (*)"));
  if (!path.isEmpty()) decodeGrammar(path);
}

void DiscourseView::chooseMetricsExport() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export agreement table"), QStringLiteral("segmentation.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportMetricsCsv(path, &error)) showMessage(tr("Could not export: %1").arg(error));
}

}  // namespace gwb::ui

namespace gwb::ui {

namespace {
const QString kCorpusKey = QStringLiteral("corpus");
const QString kGoldKey = QStringLiteral("gold");
const QString kRecordingsKey = QStringLiteral("recordings");
const QString kRowsKey = QStringLiteral("rows");
const QString kKindKey = QStringLiteral("kind");
const QString kSourceKey = QStringLiteral("source");
const QString kNameKey = QStringLiteral("name");
const QString kRootKey = QStringLiteral("root");
const QString kRecordingKey = QStringLiteral("recording");
const QString kWindowKey = QStringLiteral("window");
const QString kAllKey = QStringLiteral("all-recordings");
const QString kConventionKey = QStringLiteral("convention");
const QString kZoomKey = QStringLiteral("zoom");
const QString kAnnotation = QStringLiteral("annotation");
const QString kModel = QStringLiteral("model");
}  // namespace

QJsonObject DiscourseView::state() const {
  QJsonObject state;
  if (data_.empty()) return state;
  state.insert(kCorpusKey, corpusPath_);
  if (!goldPath_.isEmpty()) state.insert(kGoldKey, goldPath_);
  if (!recordingsPath_.isEmpty()) state.insert(kRecordingsKey, recordingsPath_);
  QJsonArray rows;
  for (const DiscourseRow& row : data_.rows()) {
    switch (row.kind) {
      case DiscourseRow::Kind::Gold: break;  // comes with the corpus
      case DiscourseRow::Kind::Annotation:
        rows.append(QJsonObject{{kKindKey, kAnnotation},
                                {kSourceKey, QString::fromStdString(row.source)},
                                {kNameKey, QString::fromStdString(row.name)}});
        break;
      case DiscourseRow::Kind::Model:
        rows.append(QJsonObject{{kKindKey, kModel},
                                {kSourceKey, QString::fromStdString(row.source)},
                                {kRootKey, QString::fromStdString(row.model->root)}});
        break;
    }
  }
  // Rows still being restored are kept too.
  if (restoringRow_) rows.append(*restoringRow_);
  for (const QJsonObject& pending : restoreQueue_) rows.append(pending);
  state.insert(kRowsKey, rows);
  const int shown = recording();
  if (shown >= 0 && shown < static_cast<int>(data_.recordings().size())) {
    state.insert(kRecordingKey,
                 QString::fromStdString(data_.recordings()[static_cast<std::size_t>(shown)].id));
  }
  state.insert(kWindowKey, window().value_or(0));
  state.insert(kAllKey, allRecordingsBox_->isChecked());
  state.insert(kConventionKey, convention() == SegmentationMetricsModel::Convention::Error
                                   ? QStringLiteral("error")
                                   : QStringLiteral("agreement"));
  state.insert(kZoomKey, timeline_->cellWidth());
  return state;
}

void DiscourseView::restoreState(const QJsonObject& state) {
  restoreQueue_.clear();
  restoringRow_.reset();
  restoreProblems_.clear();
  notice_.clear();
  setConvention(state.value(kConventionKey).toString() == QLatin1String("error")
                    ? SegmentationMetricsModel::Convention::Error
                    : SegmentationMetricsModel::Convention::Agreement);
  const QString corpus = state.value(kCorpusKey).toString();
  if (corpus.isEmpty()) return;
  QString error;
  if (!loadCorpus(corpus, state.value(kGoldKey).toString(), state.value(kRecordingsKey).toString(),
                  &error)) {
    restoreProblems_
        << tr("corpus %1 not loaded (%2)").arg(corpus, error.section(QLatin1Char('\n'), 0, 0));
    finishRestore();
    return;
  }
  if (const QString id = state.value(kRecordingKey).toString(); !id.isEmpty()) {
    if (!setRecording(id)) restoreProblems_ << tr("no recording \u201c%1\u201d").arg(id);
  }
  setWindow(state.value(kWindowKey).toInt(0) > 0
                ? std::optional<int>(state.value(kWindowKey).toInt())
                : std::nullopt);
  setAllRecordings(state.value(kAllKey).toBool(false));
  if (const double zoom = state.value(kZoomKey).toDouble(0.0); zoom > 0.0)
    timeline_->setCellWidth(zoom);
  for (const QJsonValue row : state.value(kRowsKey).toArray())
    restoreQueue_.push_back(row.toObject());
  restoring_ = true;
  continueRestore();
}

void DiscourseView::continueRestore() {
  while (!restoreQueue_.empty()) {
    const QJsonObject row = restoreQueue_.front();
    restoreQueue_.pop_front();
    const QString source = row.value(kSourceKey).toString();
    if (row.value(kKindKey).toString() == kModel) {
      if (!QFileInfo(source).isFile()) {
        restoreProblems_ << tr("model row: no grammar file %1").arg(source);
        continue;
      }
      if (decodeGrammar(source, row.value(kRootKey).toString())) {
        restoringRow_ = row;
        return;  // continues when the decoding is done
      }
      restoreProblems_ << tr("model row %1 not decoded").arg(source);
      continue;
    }
    // An annotation row: the file adds every annotator's row, so keep the saved one only.
    const std::string name = row.value(kNameKey).toString().toStdString();
    const auto& rows = data_.rows();
    const bool present = std::any_of(rows.begin(), rows.end(), [&](const DiscourseRow& r) {
      return r.source == source.toStdString() && r.name == name;
    });
    if (present) continue;
    DiscourseData probe = data_;
    gwb::Diagnostics diagnostics;
    if (probe.addAnnotationFile(source.toStdString(), diagnostics) == 0) {
      restoreProblems_ << tr("annotation row \u201c%1\u201d: %2")
                              .arg(QString::fromStdString(name),
                                   errorLines(diagnostics).section(QLatin1Char('\n'), 0, 0));
      continue;
    }
    bool found = false;
    for (const DiscourseRow& added : probe.rows()) {
      if (added.source == source.toStdString() && added.name == name) {
        gwb::Diagnostics ignored;
        data_.addRow(added, ignored);
        found = true;
        break;
      }
    }
    if (!found) {
      restoreProblems_ << tr("annotation row \u201c%1\u201d is no longer in %2")
                              .arg(QString::fromStdString(name), source);
    }
    dataChanged();
  }
  finishRestore();
}

void DiscourseView::finishRestore() {
  restoring_ = false;
  notice_ = restoreProblems_.isEmpty()
                ? QString()
                : tr("Restored in part: %1.").arg(restoreProblems_.join(QStringLiteral("; ")));
  if (!notice_.isEmpty()) showMessage(statusText() + QLatin1Char('\n') + notice_);
}

}  // namespace gwb::ui
