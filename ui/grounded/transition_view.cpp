#include "ui/grounded/transition_view.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numeric>
#include <utility>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QThread>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar_io.h"
#include "ui/common/file_save.h"
#include "ui/common/qcustomplot_include.h"
#include "ui/common/qt_conversions.h"
#include "ui/grounded/corpus_files_dialog.h"
#include "ui/grounded/discourse_data.h"

namespace gwb::ui {

namespace {

// A gradient through `stops` (position in [0, 1], colour), interpolated in RGB.
QCPColorGradient gradientThrough(std::initializer_list<std::pair<double, QColor>> stops) {
  QCPColorGradient g;
  g.clearColorStops();
  for (const auto& [position, colour] : stops) g.setColorStopAt(position, colour);
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  return g;
}

// Near-white to dark red (ColorBrewer YlOrRd): zero cells stay light, the largest are dark
// enough to read on a white page.
QCPColorGradient sequentialGradient() {
  return gradientThrough({{0.0, QColor(0xff, 0xff, 0xf2)},
                          {0.15, QColor(0xfe, 0xe3, 0x91)},
                          {0.4, QColor(0xfe, 0x99, 0x29)},
                          {0.7, QColor(0xd9, 0x48, 0x01)},
                          {1.0, QColor(0x67, 0x00, 0x0d)}});
}

// Blue (second larger) – white (equal) – red (first larger), ColorBrewer RdBu.
QCPColorGradient divergingGradient() {
  return gradientThrough({{0.0, QColor(0x05, 0x30, 0x61)},
                          {0.25, QColor(0x43, 0x93, 0xc3)},
                          {0.5, QColor(0xf7, 0xf7, 0xf7)},
                          {0.75, QColor(0xd6, 0x60, 0x4d)},
                          {1.0, QColor(0x67, 0x00, 0x1f)}});
}

QString number(double value) {
  if (value == 0.0) return QStringLiteral("0");
  return std::abs(value) >= 0.001 ? QString::number(value, 'f', 4) : QString::number(value, 'g', 3);
}

}  // namespace

TransitionView::TransitionView(QWidget* parent) : QWidget(parent) {
  setWindowTitle(tr("Topic transitions"));

  auto* openGrammar = new QPushButton(tr("Grammar\u2026"), this);
  openGrammar->setToolTip(
      tr("A discourse grammar (Discourse.t \u2192 Sentence.t Discourse.t\u2032 rules)"));
  auto* openComparison = new QPushButton(tr("Compare with\u2026"), this);
  openComparison->setToolTip(tr("A second discourse grammar, for the difference view"));
  differenceBox_ = new QCheckBox(tr("Difference"), this);
  differenceBox_->setToolTip(tr("Show first \u2212 second, cell by cell"));
  differenceBox_->setEnabled(false);
  auto* openCorpus = new QPushButton(tr("Corpus for counts\u2026"), this);
  openCorpus->setToolTip(
      tr("Expected transition counts over a corpus's recordings (inside-outside)"));
  valuesBox_ = new QComboBox(this);
  valuesBox_->addItem(tr("Rule probabilities"));
  valuesBox_->addItem(tr("Rows rescaled to sum to 1"));
  valuesBox_->addItem(tr("Expected counts"));
  orderBox_ = new QComboBox(this);
  orderBox_->addItem(tr("Grammar order"));
  orderBox_->addItem(tr("By frequency"));
  orderBox_->addItem(tr("Clustered"));
  orderBox_->setToolTip(
      tr("Frequency: expected utterances per topic (counts) or the grammar's occupancy; "
         "clustered: average-linkage clustering of the topics' outgoing and incoming rows"));
  auto* exportButton = new QToolButton(this);
  exportButton->setText(tr("Export"));
  exportButton->setPopupMode(QToolButton::InstantPopup);
  auto* exportMenu = new QMenu(exportButton);
  exportMenu->addAction(tr("CSV\u2026"), this, &TransitionView::chooseExport);
  exportMenu->addAction(tr("PNG\u2026"), this, &TransitionView::chooseExport);
  exportMenu->addAction(tr("PDF\u2026"), this, &TransitionView::chooseExport);
  exportButton->setMenu(exportMenu);
  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::WhileRunning, this);
  jobBar_->setFixedWidth(220);
  jobBar_->follow(worker_.backgroundJob());

  auto* bar = new QHBoxLayout;
  bar->addWidget(openGrammar);
  bar->addWidget(openComparison);
  bar->addWidget(differenceBox_);
  bar->addWidget(openCorpus);
  bar->addWidget(jobBar_);
  bar->addStretch();
  bar->addWidget(new QLabel(tr("Show:"), this));
  bar->addWidget(valuesBox_);
  bar->addWidget(new QLabel(tr("Order:"), this));
  bar->addWidget(orderBox_);
  bar->addWidget(exportButton);

  title_ = new QLabel(this);
  title_->setTextFormat(Qt::RichText);
  status_ = new QLabel(this);
  status_->setWordWrap(true);

  plot_ = new QCustomPlot(this);
  plot_->setMinimumSize(400, 300);
  map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
  map_->setInterpolate(false);
  map_->setTightBoundary(false);
  scale_ = new QCPColorScale(plot_);
  plot_->plotLayout()->addElement(0, 1, scale_);
  scale_->setType(QCPAxis::atRight);
  scale_->setBarWidth(14);
  map_->setColorScale(scale_);
  map_->setGradient(sequentialGradient());
  // The caption row above the map and its scale: it names the grammar in every export.
  plot_->plotLayout()->insertRow(0);
  caption_ = new QCPTextElement(plot_, QString(), QFont(font().family(), font().pointSize() + 1));
  plot_->plotLayout()->addElement(0, 0, caption_);
  auto* margins = new QCPMarginGroup(plot_);
  plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->grid()->setVisible(false);
    axis->setSubTicks(false);
    axis->setTickLength(0, 3);
  }
  plot_->xAxis->setTickLabelRotation(90);
  plot_->yAxis->setRangeReversed(true);
  plot_->xAxis->setLabel(tr("to topic t\u2032"));
  plot_->yAxis->setLabel(tr("from topic t"));
  plot_->setMouseTracking(true);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(title_);
  layout->addWidget(plot_, 1);
  layout->addWidget(status_);

  connect(openGrammar, &QPushButton::clicked, this, [this] { chooseGrammar(false); });
  connect(openComparison, &QPushButton::clicked, this, [this] { chooseGrammar(true); });
  connect(openCorpus, &QPushButton::clicked, this, &TransitionView::chooseCorpus);
  connect(differenceBox_, &QCheckBox::toggled, this, &TransitionView::setDifference);
  connect(valuesBox_, &QComboBox::currentIndexChanged, this,
          [this](int index) { setValues(static_cast<TransitionValues>(index)); });
  connect(orderBox_, &QComboBox::currentIndexChanged, this,
          [this](int index) { setOrder(static_cast<TopicOrder>(index)); });
  connect(plot_, &QCustomPlot::mouseMove, this, &TransitionView::onMouseMove);
  connect(&worker_, &TransitionCountJob::finished, this, &TransitionView::onCountingDone);
  rebuild();
  status_->setText(tr("Open a discourse grammar (Grammar\u2026). Hover a cell for its numbers."));
}

TransitionView::~TransitionView() = default;  // worker_ cancels the count and waits

bool TransitionView::setSource(Source& source, std::shared_ptr<const gwb::Grammar> grammar,
                               const QString& name, QString* error) {
  std::string message;
  auto transitions = gwb::topicTransitions(*grammar, &message);
  if (!transitions) {
    const QString text = tr("%1: %2").arg(name, QString::fromStdString(message));
    if (error) *error = text;
    status_->setText(text);
    return false;
  }
  if (worker_.isBusy()) worker_.cancelAndFinish();
  source.grammar = std::move(grammar);
  source.name = name;
  source.transitions = std::move(transitions);
  source.counts.reset();
  return true;
}

bool TransitionView::setGrammar(std::shared_ptr<const gwb::Grammar> grammar, const QString& name,
                                QString* error) {
  if (!setSource(first_, std::move(grammar), name, error)) return false;
  if (second_.transitions) second_.counts.reset();
  rebuild();
  status_->setText(tr("%1: %2 topics").arg(name).arg(first_.transitions->topics.size()));
  if (haveCorpus_) startCounting();
  return true;
}

bool TransitionView::setComparison(std::shared_ptr<const gwb::Grammar> grammar, const QString& name,
                                   QString* error) {
  if (!setSource(second_, std::move(grammar), name, error)) return false;
  differenceBox_->setEnabled(true);
  rebuild();
  if (haveCorpus_) startCounting();
  return true;
}

void TransitionView::clearComparison() {
  second_ = Source();
  {
    const QSignalBlocker block(differenceBox_);
    differenceBox_->setChecked(false);
  }
  differenceBox_->setEnabled(false);
  difference_ = false;
  rebuild();
}

std::shared_ptr<const gwb::Grammar> TransitionView::readGrammar(const QString& path,
                                                                QString* error) {
  gwb::GrammarReadOptions options;
  options.runChecks = false;
  gwb::GrammarLoad load = gwb::loadGrammarFile(path.toStdString(), options);
  if (!load.ok()) {
    const QString message = errorLines(load.diagnostics);
    if (error) *error = message;
    status_->setText(message);
    return nullptr;
  }
  return std::make_shared<const gwb::Grammar>(std::move(load.grammar));
}

bool TransitionView::loadGrammarFile(const QString& path, QString* error) {
  auto grammar = readGrammar(path, error);
  if (!grammar) return false;
  if (!setGrammar(std::move(grammar), QFileInfo(path).fileName(), error)) return false;
  first_.path = QFileInfo(path).absoluteFilePath();
  rebuild();
  return true;
}

bool TransitionView::loadComparisonFile(const QString& path, QString* error) {
  auto grammar = readGrammar(path, error);
  if (!grammar) return false;
  if (!setComparison(std::move(grammar), QFileInfo(path).fileName(), error)) return false;
  second_.path = QFileInfo(path).absoluteFilePath();
  return true;
}

bool TransitionView::setCorpus(const QString& corpusPath, const QString& recordingsPath,
                               QString* error) {
  gwb::SocialCorpusLoad corpus = gwb::loadSocialCorpusFile(corpusPath.toStdString());
  gwb::Diagnostics diagnostics = corpus.diagnostics;
  std::vector<gwb::Recording> recordings;
  if (corpus.ok() && !recordingsPath.isEmpty()) {
    gwb::RecordingsLoad load = gwb::loadRecordingsFile(recordingsPath.toStdString());
    diagnostics.append(load.diagnostics);
    if (load.ok())
      gwb::checkRecordings(load.recordings, corpus.corpus, recordingsPath.toStdString(),
                           diagnostics);
    recordings = std::move(load.recordings);
  }
  if (diagnostics.hasErrors()) {
    const QString text = errorLines(diagnostics);
    if (error) *error = text;
    status_->setText(tr("Could not read the corpus:\n%1").arg(text));
    return false;
  }
  if (worker_.isBusy()) worker_.cancelAndFinish();
  if (recordings.empty()) recordings = gwb::wholeCorpusRecording(corpus.corpus);
  corpus_ = std::move(corpus.corpus);
  recordings_ = std::move(recordings);
  haveCorpus_ = true;
  corpusPath_ = corpusPath;
  recordingsPath_ = recordingsPath;
  startCounting();
  return true;
}

void TransitionView::startCounting() {
  if (worker_.isBusy() || !haveCorpus_ || !first_.transitions) return;
  std::vector<TransitionCountSource> sources{{first_.grammar, *first_.transitions}};
  if (second_.transitions) sources.push_back({second_.grammar, *second_.transitions});
  // The worker reads corpus_ and recordings_; they change only after cancelling and waiting.
  worker_.start(&corpus_, &recordings_, std::move(sources),
                std::max(1, QThread::idealThreadCount()));
  jobBar_->start();
  status_->setText(tr("Counting expected transitions over %n recording(s)\u2026", nullptr,
                      static_cast<int>(recordings_.size())));
}

bool TransitionView::waitForCounts(int milliseconds) { return worker_.waitAndFinish(milliseconds); }

void TransitionView::cancelCounting() { worker_.cancel(); }

void TransitionView::onCountingDone() {
  const QString& countError = worker_.error();
  const std::vector<std::shared_ptr<TransitionCounts>>& counts = worker_.counts();
  const std::shared_ptr<TransitionCounts> firstCounts = counts.empty() ? nullptr : counts[0];
  const std::shared_ptr<TransitionCounts> secondCounts = counts.size() > 1 ? counts[1] : nullptr;
  if (!countError.isEmpty()) {
    status_->setText(tr("Could not count: %1").arg(countError));
  } else if (worker_.cancelled()) {
    status_->setText(tr("Counting cancelled."));
  } else {
    first_.counts = firstCounts;
    if (secondCounts) second_.counts = secondCounts;
    status_->setText(tr("Expected counts over %1 recording(s) of %2 (%3 without a parse).")
                         .arg(firstCounts->strings)
                         .arg(QFileInfo(QString::fromStdString(corpus_.source)).fileName())
                         .arg(firstCounts->failures));
    rebuild();
  }
  if (!notice_.isEmpty()) status_->setText(status_->text() + QLatin1Char('\n') + notice_);
  emit countsFinished();
}

void TransitionView::setValues(TransitionValues values) {
  values_ = values;
  const QSignalBlocker block(valuesBox_);
  valuesBox_->setCurrentIndex(static_cast<int>(values));
  rebuild();
}

void TransitionView::setOrder(TopicOrder order) {
  order_ = order;
  const QSignalBlocker block(orderBox_);
  orderBox_->setCurrentIndex(static_cast<int>(order));
  rebuild();
}

void TransitionView::setDifference(bool difference) {
  difference_ = difference && second_.transitions.has_value();
  const QSignalBlocker block(differenceBox_);
  differenceBox_->setChecked(difference_);
  rebuild();
}

void TransitionView::rebuild() {
  topics_.clear();
  matrix_.resize(0, 0);
  displayOrder_.clear();
  frequencyNote_.clear();
  if (first_.transitions) {
    const gwb::TopicTransitions& a = *first_.transitions;
    const Eigen::MatrixXd first = transitionValues(a, values_, first_.counts.get());
    std::string frequencyNote;
    Eigen::VectorXd frequencies = topicFrequencies(a, first_.counts.get(), &frequencyNote);
    frequencyNote_ = QString::fromStdString(frequencyNote);
    Eigen::MatrixXd clusterBasis = first;
    if (difference_ && second_.transitions) {
      const gwb::TopicTransitions& b = *second_.transitions;
      const AlignedMatrices aligned = alignMatrices(
          a.topics, first, b.topics, transitionValues(b, values_, second_.counts.get()));
      topics_ = aligned.topics;
      matrix_ = aligned.difference();
      clusterBasis = aligned.first;
      Eigen::VectorXd extended = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(topics_.size()));
      extended.head(frequencies.size()) = frequencies;
      frequencies = extended;
    } else {
      topics_ = a.topics;
      matrix_ = first;
    }
    switch (order_) {
      case TopicOrder::Grammar:
        displayOrder_.resize(topics_.size());
        std::iota(displayOrder_.begin(), displayOrder_.end(), 0);
        break;
      case TopicOrder::Frequency: displayOrder_ = frequencyOrder(frequencies); break;
      case TopicOrder::Clustering: displayOrder_ = clusterOrder(clusterBasis); break;
    }
  }

  const int n = static_cast<int>(topics_.size());
  map_->data()->setSize(std::max(1, n), std::max(1, n));
  map_->data()->setRange(QCPRange(0, std::max(1, n - 1)), QCPRange(0, std::max(1, n - 1)));
  map_->data()->fill(0.0);
  double largest = 0.0;
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const double v =
          matrix_(static_cast<Eigen::Index>(displayOrder_[static_cast<std::size_t>(r)]),
                  static_cast<Eigen::Index>(displayOrder_[static_cast<std::size_t>(c)]));
      map_->data()->setCell(c, r, v);
      largest = std::max(largest, std::abs(v));
    }
  }
  if (!(largest > 0.0)) largest = 1.0;
  if (difference_) {
    map_->setGradient(divergingGradient());
    map_->setDataRange(QCPRange(-largest, largest));
  } else {
    map_->setGradient(sequentialGradient());
    map_->setDataRange(QCPRange(0.0, largest));
  }
  QString scaleLabel;
  switch (values_) {
    case TransitionValues::RuleProbabilities:
      scaleLabel = tr("P(Discourse.t \u2192 Sentence.t Discourse.t\u2032)");
      break;
    case TransitionValues::RescaledRows:
      scaleLabel = tr("P(t\u2032 | t, discourse goes on)");
      break;
    case TransitionValues::ExpectedCounts: scaleLabel = tr("expected count"); break;
  }
  if (difference_) scaleLabel = tr("first \u2212 second: %1").arg(scaleLabel);
  scale_->axis()->setLabel(scaleLabel);

  auto xTicker = QSharedPointer<QCPAxisTickerText>::create();
  auto yTicker = QSharedPointer<QCPAxisTickerText>::create();
  for (int k = 0; k < n; ++k) {
    const QString name =
        QString::fromStdString(topics_[displayOrder_[static_cast<std::size_t>(k)]]);
    xTicker->addTick(k, name);
    yTicker->addTick(k, name);
  }
  plot_->xAxis->setTicker(xTicker);
  plot_->yAxis->setTicker(yTicker);
  plot_->xAxis->setRange(-0.5, std::max(1, n) - 0.5);
  plot_->yAxis->setRange(-0.5, std::max(1, n) - 0.5);
  plot_->yAxis->setRangeReversed(true);
  map_->setVisible(n > 0);

  QString title;
  if (first_.transitions) {
    title = difference_ ? tr("<b>%1</b> \u2212 <b>%2</b>")
                              .arg(first_.name.toHtmlEscaped(), second_.name.toHtmlEscaped())
                        : tr("<b>%1</b>").arg(first_.name.toHtmlEscaped());
    title += tr(" \u2014 %n topic(s)", nullptr, n);
    if (values_ == TransitionValues::ExpectedCounts && !first_.counts)
      title += tr(" \u2014 <i>no counts yet: choose a corpus (Corpus for counts\u2026)</i>");
    if (second_.transitions && !difference_)
      title += tr("; comparing with %1 (tick Difference)").arg(second_.name.toHtmlEscaped());
  }
  title_->setText(title);
  caption_->setText(captionText());
  plot_->replot();
}

double TransitionView::cellValue(int row, int column) const {
  return map_->data()->cell(column, row);
}

std::optional<double> TransitionView::sourceValue(const Source& source, TransitionValues values,
                                                  const std::string& from,
                                                  const std::string& to) const {
  if (!source.transitions) return std::nullopt;
  const auto i = source.transitions->indexOf(from);
  const auto j = source.transitions->indexOf(to);
  if (!i || !j) return std::nullopt;
  if (values == TransitionValues::ExpectedCounts && !source.counts) return std::nullopt;
  const Eigen::MatrixXd m = transitionValues(*source.transitions, values, source.counts.get());
  return m(static_cast<Eigen::Index>(*i), static_cast<Eigen::Index>(*j));
}

QString TransitionView::cellToolTip(int row, int column) const {
  const int n = static_cast<int>(topics_.size());
  if (row < 0 || column < 0 || row >= n || column >= n) return {};
  const std::string& from = topics_[displayOrder_[static_cast<std::size_t>(row)]];
  const std::string& to = topics_[displayOrder_[static_cast<std::size_t>(column)]];
  QString text = tr("<b>%1 \u2192 %2</b>")
                     .arg(QString::fromStdString(from).toHtmlEscaped(),
                          QString::fromStdString(to).toHtmlEscaped());
  const auto describe = [&](const Source& source) {
    QString part;
    const auto p = sourceValue(source, TransitionValues::RuleProbabilities, from, to);
    if (!p) return tr("<br>%1: no such topic").arg(source.name.toHtmlEscaped());
    part += tr("<br>%1:").arg(source.name.toHtmlEscaped());
    part += tr("<br>&nbsp;&nbsp;rule probability %1").arg(number(*p));
    if (const auto q = sourceValue(source, TransitionValues::RescaledRows, from, to))
      part += tr("<br>&nbsp;&nbsp;rescaled row %1").arg(number(*q));
    if (const auto c = sourceValue(source, TransitionValues::ExpectedCounts, from, to))
      part += tr("<br>&nbsp;&nbsp;expected count %1").arg(QString::number(*c, 'f', 2));
    else
      part += tr("<br>&nbsp;&nbsp;expected count: choose a corpus");
    return part;
  };
  text += describe(first_);
  if (second_.transitions) text += describe(second_);
  if (difference_)
    text += tr("<br><b>difference %1</b>")
                .arg(number(matrix_(
                    static_cast<Eigen::Index>(displayOrder_[static_cast<std::size_t>(row)]),
                    static_cast<Eigen::Index>(displayOrder_[static_cast<std::size_t>(column)]))));
  return text;
}

std::optional<std::pair<int, int>> TransitionView::cellAt(const QPointF& position) const {
  if (!plot_->axisRect()->rect().contains(position.toPoint())) return std::nullopt;
  const int n = static_cast<int>(topics_.size());
  const int column = static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(position.x())));
  const int row = static_cast<int>(std::lround(plot_->yAxis->pixelToCoord(position.y())));
  if (row < 0 || column < 0 || row >= n || column >= n) return std::nullopt;
  return std::make_pair(row, column);
}

void TransitionView::onMouseMove(QMouseEvent* event) {
  const auto cell = cellAt(event->position());
  if (!cell) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(event->globalPosition().toPoint(), cellToolTip(cell->first, cell->second),
                     plot_);
}

QString TransitionView::csvText() const {
  return QString::fromStdString(matrixCsv(topics_, matrix_, displayOrder_));
}

QString TransitionView::captionText() const {
  if (!first_.transitions) return {};
  QString text = difference_ ? tr("%1 \u2212 %2").arg(first_.name, second_.name) : first_.name;
  switch (values_) {
    case TransitionValues::RuleProbabilities: text += tr(" \u2014 rule probabilities"); break;
    case TransitionValues::RescaledRows: text += tr(" \u2014 rows rescaled to sum to 1"); break;
    case TransitionValues::ExpectedCounts:
      text += haveCorpus_ ? tr(" \u2014 expected counts over %1")
                                .arg(QFileInfo(QString::fromStdString(corpus_.source)).fileName())
                          : tr(" \u2014 expected counts (none yet)");
      break;
  }
  switch (order_) {
    case TopicOrder::Grammar: text += tr(", grammar order"); break;
    case TopicOrder::Frequency:
      text += tr(", by frequency");
      if (!frequencyNote_.isEmpty()) text += tr(" (%1)").arg(frequencyNote_);
      break;
    case TopicOrder::Clustering: text += tr(", clustered"); break;
  }
  if (second_.transitions && !difference_) text += tr(" (compared with %1)").arg(second_.name);
  return text;
}

namespace {
const QString kGrammarKey = QStringLiteral("grammar");
const QString kComparisonKey = QStringLiteral("comparison");
const QString kValuesKey = QStringLiteral("values");
const QString kOrderKey = QStringLiteral("order");
const QString kDifferenceKey = QStringLiteral("difference");
const QString kCorpusKey = QStringLiteral("corpus");
const QString kRecordingsKey = QStringLiteral("recordings");
const QStringList kValuesNames{QStringLiteral("rule-probabilities"),
                               QStringLiteral("rescaled-rows"), QStringLiteral("expected-counts")};
const QStringList kOrderNames{QStringLiteral("grammar"), QStringLiteral("frequency"),
                              QStringLiteral("clustered")};
}  // namespace

QJsonObject TransitionView::state() const {
  QJsonObject state{{kValuesKey, kValuesNames.value(static_cast<int>(values_))},
                    {kOrderKey, kOrderNames.value(static_cast<int>(order_))},
                    {kDifferenceKey, difference_}};
  if (!first_.path.isEmpty()) state.insert(kGrammarKey, first_.path);
  if (!second_.path.isEmpty()) state.insert(kComparisonKey, second_.path);
  if (haveCorpus_) {
    state.insert(kCorpusKey, corpusPath_);
    if (!recordingsPath_.isEmpty()) state.insert(kRecordingsKey, recordingsPath_);
  }
  return state;
}

void TransitionView::restoreState(const QJsonObject& state) {
  QStringList problems;
  const auto reason = [](const QString& error) { return error.section(QLatin1Char('\n'), 0, 0); };
  QString error;
  if (const QString path = state.value(kGrammarKey).toString(); !path.isEmpty()) {
    if (!loadGrammarFile(path, &error))
      problems << tr("grammar %1 not loaded (%2)").arg(path, reason(error));
  }
  if (const QString path = state.value(kComparisonKey).toString(); !path.isEmpty()) {
    if (!first_.transitions) {
      problems << tr("comparison %1 not loaded (no grammar to compare with)").arg(path);
    } else if (!loadComparisonFile(path, &error)) {
      problems << tr("comparison %1 not loaded (%2)").arg(path, reason(error));
    }
  }
  const auto values = kValuesNames.indexOf(state.value(kValuesKey).toString());
  setValues(values >= 0 ? static_cast<TransitionValues>(values)
                        : TransitionValues::RuleProbabilities);
  const auto order = kOrderNames.indexOf(state.value(kOrderKey).toString());
  setOrder(order >= 0 ? static_cast<TopicOrder>(order) : TopicOrder::Grammar);
  const bool difference = state.value(kDifferenceKey).toBool(false);
  setDifference(difference);
  if (difference && !difference_) problems << tr("the difference view needs the comparison");
  if (const QString corpus = state.value(kCorpusKey).toString(); !corpus.isEmpty()) {
    if (!setCorpus(corpus, state.value(kRecordingsKey).toString(), &error))
      problems << tr("corpus %1 not counted over (%2)").arg(corpus, reason(error));
  }
  notice_ = problems.isEmpty()
                ? QString()
                : tr("Restored in part: %1.").arg(problems.join(QStringLiteral("; ")));
  if (!notice_.isEmpty()) status_->setText(notice_);
}

bool TransitionView::exportFile(const QString& path, QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("csv")) {
    return saveBytesAtomically(
        path,
        QString(QStringLiteral("# ") + captionText() + QLatin1Char('\n') + csvText()).toUtf8(),
        error);
  }
  bool ok = false;
  if (suffix == QLatin1String("png")) {
    ok = plot_->savePng(path, 0, 0, 2.0);
  } else if (suffix == QLatin1String("pdf")) {
    ok = plot_->savePdf(path);
  } else {
    if (error) *error = tr("Unknown export format: .%1 (use .csv, .png or .pdf)").arg(suffix);
    return false;
  }
  if (!ok && error) *error = tr("Could not write %1").arg(path);
  return ok;
}

QString TransitionView::statusText() const { return status_->text(); }

void TransitionView::chooseGrammar(bool comparison) {
  const QString path = QFileDialog::getOpenFileName(
      this, comparison ? tr("Compare with a discourse grammar") : tr("Open a discourse grammar"),
      QString(), tr("Earleyx grammars (*.grammar *.iogrammar *.uniform *.rules);;All files (*)"));
  if (path.isEmpty()) return;
  if (comparison) {
    loadComparisonFile(path);
  } else {
    loadGrammarFile(path);
  }
}

void TransitionView::chooseCorpus() {
  CorpusFilesDialog dialog(
      tr("Corpus for expected transition counts"),
      tr("Expected counts of each transition t \u2192 t\u2032 are summed over the corpus's "
         "recordings (inside-outside), each recording parsed as one string by the grammar."),
      CorpusFilesDialog::Fields::CorpusRecordings, this);
  dialog.setFiles({corpusPath_, QString(), recordingsPath_});
  if (dialog.exec() != QDialog::Accepted) return;
  const CorpusFiles files = dialog.files();
  if (!files.corpus.isEmpty()) setCorpus(files.corpus, files.recordings);
}

void TransitionView::chooseExport() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export the transition matrix"), QStringLiteral("transitions.csv"),
      tr("CSV (*.csv);;PNG image (*.png);;PDF (*.pdf)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportFile(path, &error)) status_->setText(error);
}

}  // namespace gwb::ui
