#include "ui/grounded/experiment_panel.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QDir>
#include <QDoubleValidator>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include "gwb/grounded/social_grammar.h"
#include "ui/common/background_job.h"
#include "ui/common/file_save.h"
#include "ui/common/qt_conversions.h"
#include "ui/grounded/experiment_table.h"

namespace gwb::ui {

namespace {

// The real corpus's cues (SocialCorpus::cueOrder); other corpora can be typed in.
const char* const kCues[] = {"kid.eyes", "kid.hands", "mom.eyes", "mom.hands", "mom.point"};

}  // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  table_ = new ExperimentTableModel(this);
  tableView_ = new QTableView(this);
  tableView_->setModel(table_);
  tableView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  tableView_->setAlternatingRowColors(false);
  tableView_->verticalHeader()->setVisible(false);
  tableView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
  tableView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  tableView_->horizontalHeader()->setStretchLastSection(false);
  tableView_->setWordWrap(false);
  QFont tableFont = tableView_->font();
  tableFont.setPointSizeF(tableFont.pointSizeF() * 0.92);
  tableView_->setFont(tableFont);
  // Keep every column as wide as its widest cell as rows arrive.
  connect(table_, &QAbstractItemModel::rowsInserted, tableView_,
          [this] { tableView_->resizeColumnsToContents(); });
  connect(table_, &QAbstractItemModel::dataChanged, tableView_,
          [this] { tableView_->resizeColumnsToContents(); });

  auto* exportButton = new QPushButton(tr("Export CSV\u2026"), this);
  auto* clearButton = new QPushButton(tr("Clear Table"), this);
  auto* note = new QLabel(
      tr("Grey rows: Luong, Frank & Johnson (2013), Tables 2\u20135 (hover for notes). Ours: "
         "mean \u00b1 sd over seeds."),
      this);
  note->setWordWrap(true);
  auto* tableBar = new QHBoxLayout;
  tableBar->addWidget(note, 1);
  tableBar->addWidget(clearButton);
  tableBar->addWidget(exportButton);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(createForm());
  layout->addWidget(tableView_, 1);
  layout->addLayout(tableBar);

  connect(exportButton, &QPushButton::clicked, this, &ExperimentPanel::exportWithDialog);
  connect(clearButton, &QPushButton::clicked, table_, &ExperimentTableModel::clear);
  setSpec(ExperimentSpec{}.withDefaultFiles());
  updateControls();
}

ExperimentPanel::~ExperimentPanel() {
  queue_.clear();
  if (job_) job_->cancel();
}

QWidget* ExperimentPanel::createForm() {
  auto* box = new QGroupBox(tr("Grounded word learning (gwb experiment social)"), this);
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(6, 6, 6, 6);
  grid->setVerticalSpacing(4);

  modelCombo_ = new QComboBox(box);
  for (gwb::SocialModel m : {gwb::SocialModel::Em, gwb::SocialModel::Vb,
                             gwb::SocialModel::Discourse, gwb::SocialModel::DiscourseInit})
    modelCombo_->addItem(QString::fromLatin1(gwb::socialModelName(m)), static_cast<int>(m));
  cuesCombo_ = new QComboBox(box);
  cuesCombo_->setEditable(true);
  cuesCombo_->addItem(QStringLiteral("all"));
  cuesCombo_->addItem(QStringLiteral("none"));
  for (const char* cue : kCues) cuesCombo_->addItem(QStringLiteral("drop:") + QLatin1String(cue));
  for (const char* cue : kCues) cuesCombo_->addItem(QStringLiteral("only:") + QLatin1String(cue));
  cuesCombo_->setToolTip(tr("all, none, drop:CUE (Table 4) or only:CUE (Table 5)"));
  alphaEdit_ = new QLineEdit(box);
  auto* validator = new QDoubleValidator(alphaEdit_);
  validator->setLocale(QLocale::c());
  validator->setNotation(QDoubleValidator::ScientificNotation);
  alphaEdit_->setValidator(validator);
  alphaEdit_->setToolTip(tr("Dirichlet prior on Word.t \u2192 w (the paper's best: 0.001)"));
  iterationsSpin_ = new QSpinBox(box);
  iterationsSpin_->setRange(0, 100000);
  iterationsSpin_->setSpecialValueText(tr("to convergence"));
  seedsEdit_ = new QLineEdit(box);
  seedsEdit_->setToolTip(tr("Seeds of the initial noise: 1-5, or 1,3,7"));
  threadsSpin_ = new QSpinBox(box);
  threadsSpin_->setRange(1, std::max(1, QThread::idealThreadCount()) * 2);

  const auto pathField = [this, box](QLineEdit** edit, const QString& title) {
    auto* row = new QHBoxLayout;
    *edit = new QLineEdit(box);
    auto* button = new QPushButton(tr("\u2026"), box);
    button->setFixedWidth(28);
    QLineEdit* target = *edit;
    connect(button, &QPushButton::clicked, this, [this, target, title] {
      const QString path = QFileDialog::getOpenFileName(
          this, title, target->text().isEmpty() ? QString() : QFileInfo(target->text()).path());
      if (!path.isEmpty()) target->setText(path);
    });
    row->addWidget(*edit, 1);
    row->addWidget(button);
    return row;
  };

  int column = 0;
  const auto addField = [&](int row, const QString& label, QWidget* field, int stretch = 1) {
    auto* title = new QLabel(label, box);
    title->setBuddy(field);
    grid->addWidget(title, row, column++);
    grid->addWidget(field, row, column++);
    grid->setColumnStretch(column - 1, stretch);
  };
  addField(0, tr("&Model:"), modelCombo_);
  addField(0, tr("C&ues:"), cuesCombo_);
  addField(0, tr("\u03b1:"), alphaEdit_);
  addField(0, tr("&Iterations:"), iterationsSpin_);
  addField(0, tr("&Seeds:"), seedsEdit_);
  addField(0, tr("&Threads:"), threadsSpin_);

  auto* files = new QHBoxLayout;
  files->addWidget(new QLabel(tr("Corpus:"), box));
  files->addLayout(pathField(&corpusEdit_, tr("Choose the social-cue corpus")), 3);
  files->addWidget(new QLabel(tr("Gold:"), box));
  files->addLayout(pathField(&goldEdit_, tr("Choose the gold topic annotation")), 3);
  files->addWidget(new QLabel(tr("Recordings:"), box));
  files->addLayout(pathField(&recordingsEdit_, tr("Choose the recordings table")), 2);
  recordingsEdit_->setPlaceholderText(tr("one recording"));
  grid->addLayout(files, 1, 0, 1, column);

  auto* buttons = new QHBoxLayout;
  runButton_ = new QPushButton(tr("&Run"), box);
  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::Always, box);
  status_ = new QLabel(box);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  buttons->addWidget(runButton_);
  buttons->addWidget(jobBar_, 1);
  buttons->addWidget(status_, 2);
  grid->addLayout(buttons, 2, 0, 1, column);

  connect(runButton_, &QPushButton::clicked, this, [this] { startRun(); });
  connect(jobBar_, &JobProgressBar::cancelClicked, this, &ExperimentPanel::cancelRun);
  return box;
}

void ExperimentPanel::setSpec(const ExperimentSpec& s) {
  modelCombo_->setCurrentIndex(modelCombo_->findData(static_cast<int>(s.model)));
  cuesCombo_->setCurrentText(s.cues);
  alphaEdit_->setText(QString::number(s.alpha, 'g', 10));
  iterationsSpin_->setValue(s.iterations);
  seedsEdit_->setText(seedListText(s.seeds));
  threadsSpin_->setValue(s.threads);
  corpusEdit_->setText(s.corpusPath);
  goldEdit_->setText(s.goldPath);
  recordingsEdit_->setText(s.recordingsPath);
}

ExperimentSpec ExperimentPanel::spec(QString* error) const {
  ExperimentSpec s;
  QString problem;
  const auto note = [&problem](const QString& message) {
    if (problem.isEmpty()) problem = message;
  };
  s.model = static_cast<gwb::SocialModel>(modelCombo_->currentData().toInt());
  std::string why;
  if (const auto cues =
          gwb::CueSelection::parse(cuesCombo_->currentText().trimmed().toStdString(), &why)) {
    s.cues = toQString(cues->text());
  } else {
    note(tr("Cues: %1").arg(toQString(why)));
  }
  bool ok = false;
  const double alpha = QLocale::c().toDouble(alphaEdit_->text().trimmed(), &ok);
  if (ok && alpha > 0 && std::isfinite(alpha)) {
    s.alpha = alpha;
  } else {
    note(tr("\u03b1: expected a positive number, got '%1'").arg(alphaEdit_->text()));
  }
  s.iterations = iterationsSpin_->value();
  QString seedError;
  if (!parseSeedList(seedsEdit_->text(), &s.seeds, &seedError)) note(seedError);
  s.threads = threadsSpin_->value();
  s.corpusPath = corpusEdit_->text().trimmed();
  s.goldPath = goldEdit_->text().trimmed();
  s.recordingsPath = recordingsEdit_->text().trimmed();
  if (error) *error = problem;
  return s;
}

bool ExperimentPanel::startRun(QString* error) {
  QString problem;
  ExperimentSpec s = spec(&problem);
  if (!problem.isEmpty()) {
    showStatus(problem, true);
    if (error) *error = problem;
    return false;
  }
  return startRun(std::move(s), error);
}

bool ExperimentPanel::startRun(ExperimentSpec s, QString* error) {
  QString problem;
  const auto cues = gwb::CueSelection::parse(s.cues.trimmed().toStdString());
  if (cues) s.cues = toQString(cues->text());
  if (!cues) {
    problem = tr("Cues: '%1' is not all, none, drop:CUE or only:CUE").arg(s.cues);
  } else if (!QFileInfo(s.corpusPath).isFile()) {
    problem = tr("Corpus: no such file '%1'").arg(s.corpusPath);
  } else if (!QFileInfo(s.goldPath).isFile()) {
    problem = tr("Gold: no such file '%1'").arg(s.goldPath);
  } else if (!s.recordingsPath.isEmpty() && !QFileInfo(s.recordingsPath).isFile()) {
    problem = tr("Recordings: no such file '%1'").arg(s.recordingsPath);
  } else if (s.seeds.empty()) {
    problem = tr("Seeds: give at least one seed");
  }
  if (!problem.isEmpty()) {
    showStatus(problem, true);
    if (error) *error = problem;
    return false;
  }
  queue_.push_back(std::move(s));
  if (!job_) {
    startNext();
  } else {
    showStatus(tr("Queued (%1 waiting)").arg(queue_.size()));
  }
  updateControls();
  return true;
}

void ExperimentPanel::startNext() {
  if (job_ || queue_.empty()) return;
  ExperimentSpec s = std::move(queue_.front());
  queue_.pop_front();
  job_ = std::make_unique<ExperimentJob>(std::move(s));
  ExperimentJob* job = job_.get();
  const QString name =
      QStringLiteral("%1, cues %2")
          .arg(QString::fromLatin1(gwb::socialModelName(job->spec().model)), job->spec().cues);
  jobBar_->start(tr("reading"));
  showStatus(tr("%1: reading the corpus\u2026").arg(name));
  const auto seedCount = static_cast<int>(job->spec().seeds.size());
  connect(job, &ExperimentJob::progress, this,
          [this, job, name, seedCount](int seed, int iteration, qint64 done, qint64 total) {
            jobBar_->setIterationProgress(iteration, done, total);
            showStatus(tr("%1: seed %2 (%3 of %4)")
                           .arg(name,
                                QString::number(job->spec().seeds[static_cast<std::size_t>(seed)]),
                                QString::number(seed + 1), QString::number(seedCount)));
          });
  connect(job, &ExperimentJob::seedFinished, this, [this, job](const ExperimentOutcome& outcome) {
    table_->addOutcome(job->spec(), outcome);
    const int row = table_->rowOf(job->spec());
    if (row >= 0) tableView_->scrollTo(table_->index(row, 0));
    emit seedFinished(outcome);
  });
  connect(job, &ExperimentJob::finished, this, &ExperimentPanel::onJobFinished);
  job->start();
}

void ExperimentPanel::onJobFinished() {
  if (!job_) return;
  ExperimentJob* job = job_.release();
  job->deleteLater();  // this slot runs inside the job's finished() emission
  const QString error = job->error();
  jobBar_->finish(job->wasCancelled() ? tr("cancelled")
                  : error.isEmpty()   ? tr("done")
                                      : tr("failed"),
                  error.isEmpty() && !job->wasCancelled());
  if (!error.isEmpty()) {
    showStatus(error, true);
  } else if (job->wasCancelled()) {
    showStatus(tr("Cancelled; the seeds already finished are in the table."));
  } else {
    showStatus(tr("Done: %1, cues %2, seeds %3")
                   .arg(QString::fromLatin1(gwb::socialModelName(job->spec().model)),
                        job->spec().cues, seedListText(job->spec().seeds)));
  }
  emit jobFinished(error);
  startNext();
  updateControls();
  if (!isBusy()) emit idle();
}

void ExperimentPanel::cancelRun() {
  queue_.clear();
  if (job_) {
    job_->cancel();
    showStatus(tr("Cancelling at the next sentence\u2026"));
  }
  updateControls();
}

bool ExperimentPanel::isBusy() const { return job_ != nullptr || !queue_.empty(); }

bool ExperimentPanel::waitUntilIdle(int milliseconds) {
  return processEventsWhileBusy([this] { return isBusy(); },
                                [this] {
                                  if (job_) job_->wait(10);
                                },
                                milliseconds);
}

void ExperimentPanel::updateControls() {
  jobBar_->setCancelEnabled(isBusy());
  runButton_->setText(isBusy() ? tr("&Queue Run") : tr("&Run"));
}

void ExperimentPanel::showStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setToolTip(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

bool ExperimentPanel::exportCsv(const QString& path, QString* error) const {
  return saveBytesAtomically(path, table_->csv().toUtf8(), error);
}

void ExperimentPanel::exportWithDialog() {
  QString path = QFileDialog::getSaveFileName(this, tr("Export Results"),
                                              QStringLiteral("experiments.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".csv");
  QString error;
  if (exportCsv(path, &error)) {
    showStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
  } else {
    QMessageBox::warning(this, tr("Export Results"),
                         tr("Could not export %1:\n%2").arg(QDir::toNativeSeparators(path), error));
  }
}

}  // namespace gwb::ui

namespace gwb::ui {

namespace {

QJsonObject specJson(const ExperimentSpec& s) {
  return {{QStringLiteral("model"), QString::fromLatin1(gwb::socialModelName(s.model))},
          {QStringLiteral("cues"), s.cues},
          {QStringLiteral("alpha"), s.alpha},
          {QStringLiteral("iterations"), s.iterations},
          {QStringLiteral("tolerance"), s.tolerance},
          {QStringLiteral("seeds"), seedListText(s.seeds)},
          {QStringLiteral("threads"), s.threads},
          {QStringLiteral("corpus"), s.corpusPath},
          {QStringLiteral("gold"), s.goldPath},
          {QStringLiteral("recordings"), s.recordingsPath}};
}

ExperimentSpec specFromJson(const QJsonObject& json) {
  ExperimentSpec s;
  if (const auto model =
          gwb::parseSocialModel(json.value(QStringLiteral("model")).toString().toStdString()))
    s.model = *model;
  s.cues = json.value(QStringLiteral("cues")).toString(s.cues);
  s.alpha = json.value(QStringLiteral("alpha")).toDouble(s.alpha);
  s.iterations = std::max(0, json.value(QStringLiteral("iterations")).toInt(s.iterations));
  s.tolerance = json.value(QStringLiteral("tolerance")).toDouble(s.tolerance);
  std::vector<quint64> seeds;
  if (parseSeedList(json.value(QStringLiteral("seeds")).toString(), &seeds)) s.seeds = seeds;
  s.threads = std::max(1, json.value(QStringLiteral("threads")).toInt(s.threads));
  s.corpusPath = json.value(QStringLiteral("corpus")).toString();
  s.goldPath = json.value(QStringLiteral("gold")).toString();
  s.recordingsPath = json.value(QStringLiteral("recordings")).toString();
  return s;
}

QJsonObject outcomeJson(const ExperimentOutcome& o) {
  QJsonArray values;
  for (const double v : o.values) values.append(finiteOrNull(v));
  return {{QStringLiteral("seed"), QString::number(o.seed)},
          {QStringLiteral("values"), values},
          {QStringLiteral("neg-log-likelihood"), finiteOrNull(o.negLogLikelihood)},
          {QStringLiteral("iterations"), o.iterations},
          {QStringLiteral("seconds"), o.seconds},
          {QStringLiteral("stop"), o.stopMessage}};
}

ExperimentOutcome outcomeFromJson(const QJsonObject& json) {
  ExperimentOutcome o;
  o.seed = json.value(QStringLiteral("seed")).toString().toULongLong();
  const QJsonArray values = json.value(QStringLiteral("values")).toArray();
  for (int i = 0; i < kExperimentMetricCount && i < values.size(); ++i)
    o.values[static_cast<std::size_t>(i)] = numberOrNaN(values[i]);
  o.negLogLikelihood = numberOrNaN(json.value(QStringLiteral("neg-log-likelihood")));
  o.iterations = json.value(QStringLiteral("iterations")).toInt();
  o.seconds = json.value(QStringLiteral("seconds")).toDouble();
  o.stopMessage = json.value(QStringLiteral("stop")).toString();
  return o;
}

}  // namespace

QJsonObject ExperimentPanel::state() const {
  QJsonArray results;
  for (const auto& [groupSpec, outcomes] : table_->results()) {
    QJsonArray seeds;
    for (const ExperimentOutcome& o : outcomes) seeds.append(outcomeJson(o));
    results.append(QJsonObject{{QStringLiteral("spec"), specJson(groupSpec)},
                               {QStringLiteral("outcomes"), seeds}});
  }
  QString problem;
  return {{QStringLiteral("form"), specJson(spec(&problem))}, {QStringLiteral("results"), results}};
}

bool ExperimentPanel::restoreState(const QJsonObject& state) {
  if (isBusy()) return false;
  const ExperimentSpec form = specFromJson(state.value(QStringLiteral("form")).toObject());
  setSpec(form.corpusPath.isEmpty() ? form.withDefaultFiles() : form);
  QStringList problems;
  const auto check = [&problems](const QString& what, const QString& path) {
    if (!path.isEmpty() && !QFileInfo(path).isFile())
      problems << tr("the %1 %2 no longer exists").arg(what, QDir::toNativeSeparators(path));
  };
  check(tr("corpus"), form.corpusPath);
  check(tr("gold annotation"), form.goldPath);
  check(tr("recordings table"), form.recordingsPath);
  table_->clear();
  int seeds = 0;
  for (const QJsonValue value : state.value(QStringLiteral("results")).toArray()) {
    const QJsonObject group = value.toObject();
    const ExperimentSpec groupSpec = specFromJson(group.value(QStringLiteral("spec")).toObject());
    for (const QJsonValue outcome : group.value(QStringLiteral("outcomes")).toArray()) {
      table_->addOutcome(groupSpec, outcomeFromJson(outcome.toObject()));
      ++seeds;
    }
  }
  notice_ = problems.isEmpty()
                ? QString()
                : tr("Restored in part: %1 (results kept; choose the files again to run).")
                      .arg(problems.join(QStringLiteral("; ")));
  showStatus(notice_.isEmpty() ? tr("Restored %n seed(s) of results", nullptr, seeds) : notice_,
             !notice_.isEmpty());
  updateControls();
  return true;
}

}  // namespace gwb::ui
