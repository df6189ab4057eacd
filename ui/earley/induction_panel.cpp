#include "ui/earley/induction_panel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QComboBox>
#include <QDir>
#include <QDoubleValidator>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QThread>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "gwb/common/atomic_file.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction_output.h"
#include "ui/common/background_job.h"
#include "ui/common/file_save.h"
#include "ui/common/qt_conversions.h"
#include "ui/earley/free_energy_plot.h"
#include "ui/earley/induction_runs.h"

namespace gwb::ui {

namespace {

QString number(double value) { return QString::number(value, 'g', 17); }

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// A number from a form field: nullopt unless the whole text is one (C locale, "1e-7" too).
std::optional<double> parseNumber(const QString& text) {
  bool ok = false;
  const double value = QLocale::c().toDouble(text.trimmed(), &ok);
  if (!ok || !std::isfinite(value)) return std::nullopt;
  return value;
}

QLineEdit* numberEdit(QWidget* parent, const QString& toolTip) {
  auto* edit = new QLineEdit(parent);
  auto* validator = new QDoubleValidator(edit);
  validator->setLocale(QLocale::c());
  validator->setNotation(QDoubleValidator::ScientificNotation);
  edit->setValidator(validator);
  edit->setToolTip(toolTip);
  return edit;
}

}  // namespace

bool applyInductionSpec(InductionSettings* settings, const QString& spec, QString* error) {
  const auto fail = [error](const QString& message) {
    if (error) *error = message;
    return false;
  };
  for (const QString& part : spec.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
    const int equals = part.indexOf(QLatin1Char('='));
    if (equals < 0) return fail(QObject::tr("%1: expected key=value").arg(part));
    const QString key = part.left(equals).trimmed();
    const QString value = part.mid(equals + 1).trimmed();
    const auto numberOf = [&](double* out) {
      const auto parsed = parseNumber(value);
      if (parsed) *out = *parsed;
      return parsed.has_value();
    };
    bool ok = true;
    if (key == QLatin1String("label")) {
      settings->label = value;
    } else if (key == QLatin1String("grammar")) {
      settings->grammarPath = value;
    } else if (key == QLatin1String("root")) {
      settings->root = value;
    } else if (key == QLatin1String("corpus")) {
      settings->corpusPath = value;
    } else if (key == QLatin1String("method")) {
      const auto method = gwb::parseInductionMethod(value.toLower().toStdString());
      ok = method.has_value();
      if (ok) settings->method = *method;
    } else if (key == QLatin1String("default-prior")) {
      ok = numberOf(&settings->defaultPrior) && settings->defaultPrior > 0;
    } else if (key == QLatin1String("prior")) {
      settings->priors << value;
    } else if (key == QLatin1String("iterations")) {
      settings->iterations = value.toInt(&ok);
      ok = ok && settings->iterations >= 0;
    } else if (key == QLatin1String("tolerance")) {
      ok = numberOf(&settings->tolerance) && settings->tolerance >= 0;
    } else if (key == QLatin1String("threads")) {
      settings->threads = value.toInt(&ok);
      ok = ok && settings->threads >= 1;
    } else if (key == QLatin1String("seed")) {
      settings->seed = value.toULongLong(&ok);
    } else if (key == QLatin1String("noise")) {
      ok = numberOf(&settings->noise) && settings->noise >= 0;
    } else if (key == QLatin1String("init")) {
      if (value == QLatin1String("given")) {
        settings->init = gwb::InitMethod::Given;
      } else if (value == QLatin1String("uniform")) {
        settings->init = gwb::InitMethod::Uniform;
      } else {
        settings->init = gwb::InitMethod::FromGrammar;
        settings->initGrammarPath = value;
      }
    } else {
      return fail(QObject::tr("unknown key '%1' (expected label, grammar, root, corpus, method, "
                              "default-prior, prior, iterations, tolerance, threads, seed, init "
                              "or noise)")
                      .arg(key));
    }
    if (!ok) return fail(QObject::tr("%1: '%2' is not a valid value").arg(key, value));
  }
  return true;
}

InductionPanel::InductionPanel(QWidget* parent) : QWidget(parent) {
  runs_ = new InductionRunModel(this);
  plot_ = new FreeEnergyPlot(this);

  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(createForm(), 3);
  leftLayout->addWidget(createRunList(), 2);

  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  auto* plotBar = new QHBoxLayout;
  plotBar->addWidget(new QLabel(tr("Free energy:"), right));
  energyCombo_ = new QComboBox(right);
  energyCombo_->addItem(tr("as Earleyx reports it (the paper's)"));
  energyCombo_->addItem(tr("variational (exact, monotone)"));
  energyCombo_->setToolTip(
      tr("Earleyx's F mixes two iterations' probabilities and can rise; the exact variational "
         "free energy never does. Both agree at convergence."));
  plotBar->addWidget(energyCombo_);
  plotBar->addStretch(1);
  auto* exportButton = new QToolButton(right);
  exportButton->setText(tr("Export Curves"));
  exportButton->setPopupMode(QToolButton::InstantPopup);
  auto* exportMenu = new QMenu(exportButton);
  exportMenu->addAction(tr("CSV\u2026"), this, [this] { exportCurves(QStringLiteral("csv")); });
  exportMenu->addAction(tr("PNG\u2026"), this, [this] { exportCurves(QStringLiteral("png")); });
  exportMenu->addAction(tr("PDF\u2026"), this, [this] { exportCurves(QStringLiteral("pdf")); });
  exportButton->setMenu(exportMenu);
  plotBar->addWidget(exportButton);
  rightLayout->addLayout(plotBar);
  rightLayout->addWidget(plot_, 1);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(left);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({500, 780});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);

  connect(energyCombo_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int index) {
    plot_->setEnergyKind(index == 1 ? FreeEnergyPlot::EnergyKind::Variational
                                    : FreeEnergyPlot::EnergyKind::Earleyx);
  });
  connect(runs_, &InductionRunModel::visibilityChanged, plot_, &FreeEnergyPlot::setRunVisible);
  setSettings(InductionSettings{});
  updateControls();
}

InductionPanel::~InductionPanel() {
  queue_.clear();
  if (job_) job_->cancel();
}

QWidget* InductionPanel::createForm() {
  auto* box = new QGroupBox(tr("Grammar induction"), this);
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setVerticalSpacing(4);
  const auto labelFor = [box](const QString& text, QWidget* buddy) {
    auto* label = new QLabel(text, box);
    label->setBuddy(buddy);
    return label;
  };
  const auto pathRow = [this, box](QLineEdit** edit, const QString& title, const QString& filter,
                                   QPushButton** button = nullptr) {
    auto* row = new QHBoxLayout;
    *edit = new QLineEdit(box);
    auto* browseButton = new QPushButton(tr("\u2026"), box);
    browseButton->setFixedWidth(28);
    browseButton->setToolTip(title);
    QLineEdit* target = *edit;
    connect(browseButton, &QPushButton::clicked, this,
            [this, target, title, filter] { browse(target, title, filter); });
    row->addWidget(*edit, 1);
    row->addWidget(browseButton);
    if (button) *button = browseButton;
    return row;
  };
  const QString grammarFilter =
      tr("Grammars (*.grammar *.rules *.iogrammar *.uniform *.cfg *.pcfg *.nltk);;All files (*)");
  QHBoxLayout* grammarRow = pathRow(&grammarEdit_, tr("Choose a grammar"), grammarFilter);
  form->addRow(labelFor(tr("&Grammar:"), grammarEdit_), grammarRow);
  rootEdit_ = new QLineEdit(box);
  rootEdit_->setPlaceholderText(tr("the format's default"));
  form->addRow(tr("&Root:"), rootEdit_);
  QHBoxLayout* corpusRow = pathRow(&corpusEdit_, tr("Choose a corpus (one sentence per line)"),
                                   tr("Corpora (*.txt *.yld *.concat *.sents);;All files (*)"));
  form->addRow(labelFor(tr("&Corpus:"), corpusEdit_), corpusRow);
  methodCombo_ = new QComboBox(box);
  methodCombo_->addItem(tr("Variational Bayes"), static_cast<int>(gwb::InductionMethod::Vb));
  methodCombo_->addItem(tr("EM"), static_cast<int>(gwb::InductionMethod::Em));
  threadsSpin_ = new QSpinBox(box);
  threadsSpin_->setRange(1, std::max(1, QThread::idealThreadCount()) * 2);
  threadsSpin_->setToolTip(tr("Sentences parsed at once (results do not depend on it)"));
  auto* methodRow = new QHBoxLayout;
  methodRow->addWidget(methodCombo_, 1);
  methodRow->addWidget(labelFor(tr("T&hreads"), threadsSpin_));
  methodRow->addWidget(threadsSpin_);
  form->addRow(labelFor(tr("&Method:"), methodCombo_), methodRow);
  defaultPriorEdit_ = numberEdit(box, tr("Dirichlet prior of rules without a prior column"));
  form->addRow(tr("Prior &\u03b1:"), defaultPriorEdit_);
  priorsEdit_ = new QPlainTextEdit(box);
  priorsEdit_->setPlaceholderText(
      tr("PATTERN=VALUE per line, e.g.\nWord.* -> _* except Word.None=0.001"));
  priorsEdit_->setToolTip(
      tr("Dirichlet priors by rule pattern, one PATTERN=VALUE per line; the last match wins. "
         "Globs: * any run, ? one character; _word is a terminal; 'except' excludes."));
  priorsEdit_->setFixedHeight(fontMetrics().lineSpacing() * 2 + 14);
  priorsEdit_->setLineWrapMode(QPlainTextEdit::NoWrap);
  form->addRow(tr("&Priors:"), priorsEdit_);
  iterationsSpin_ = new QSpinBox(box);
  iterationsSpin_->setRange(0, 100000);
  iterationsSpin_->setSpecialValueText(tr("until converged"));
  toleranceEdit_ = numberEdit(box, tr("Converged when the objective's relative change is below"));
  auto* stopRow = new QHBoxLayout;
  stopRow->addWidget(iterationsSpin_, 1);
  stopRow->addWidget(labelFor(tr("&Tolerance"), toleranceEdit_));
  stopRow->addWidget(toleranceEdit_, 1);
  form->addRow(labelFor(tr("&Iterations:"), iterationsSpin_), stopRow);
  initCombo_ = new QComboBox(box);
  initCombo_->addItem(tr("given probabilities"), static_cast<int>(gwb::InitMethod::Given));
  initCombo_->addItem(tr("uniform + noise"), static_cast<int>(gwb::InitMethod::Uniform));
  initCombo_->addItem(tr("from another grammar"), static_cast<int>(gwb::InitMethod::FromGrammar));
  form->addRow(tr("I&nitialise:"), initCombo_);
  auto* noiseRow = new QHBoxLayout;
  seedSpin_ = new QSpinBox(box);
  seedSpin_->setRange(0, std::numeric_limits<int>::max());
  seedSpin_->setToolTip(tr("Random seed of the noise"));
  noiseEdit_ = numberEdit(box, tr("Relative noise on the uniform start"));
  noiseRow->addWidget(new QLabel(tr("seed"), box));
  noiseRow->addWidget(seedSpin_, 1);
  noiseRow->addWidget(new QLabel(tr("noise"), box));
  noiseRow->addWidget(noiseEdit_, 1);
  form->addRow(QString(), noiseRow);
  QHBoxLayout* initRow = pathRow(&initGrammarEdit_, tr("Choose the initial grammar"), grammarFilter,
                                 &initGrammarBrowse_);
  form->addRow(labelFor(tr("Initial grammar:"), initGrammarEdit_), initRow);
  labelEdit_ = new QLineEdit(box);
  labelEdit_->setPlaceholderText(tr("e.g. discourse+init (default: method and files)"));
  form->addRow(tr("&Label:"), labelEdit_);

  auto* buttons = new QHBoxLayout;
  runButton_ = new QPushButton(tr("&Run"), box);
  runButton_->setToolTip(tr("Start a run with these settings (queued while another runs)"));
  jobBar_ = new JobProgressBar(JobProgressBar::Visibility::Always, box);
  jobBar_->cancelButton()->setToolTip(
      tr("Stop the current run at its next sentence, keeping the grammar of its last iteration"));
  buttons->addWidget(runButton_);
  buttons->addWidget(jobBar_, 1);
  status_ = new QLabel(box);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* inner = new QWidget;
  inner->setLayout(form);
  auto* scroll = new QScrollArea(box);
  scroll->setWidget(inner);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* boxLayout = new QVBoxLayout(box);
  boxLayout->setContentsMargins(6, 6, 6, 6);
  boxLayout->addWidget(scroll, 1);
  boxLayout->addLayout(buttons);
  boxLayout->addWidget(status_);

  connect(runButton_, &QPushButton::clicked, this, [this] { startRun(); });
  connect(jobBar_, &JobProgressBar::cancelClicked, this, &InductionPanel::cancelRun);
  connect(initCombo_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &InductionPanel::updateControls);
  connect(methodCombo_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &InductionPanel::updateControls);
  return box;
}

QWidget* InductionPanel::createRunList() {
  auto* box = new QGroupBox(tr("Runs"), this);
  runView_ = new QTreeView(box);
  runView_->setModel(runs_);
  runView_->setRootIsDecorated(false);
  // Long names are elided in the middle, where run names differ least ("… seed 1, run A"); the
  // tooltip has the whole name.
  runView_->setUniformRowHeights(true);
  runView_->setTextElideMode(Qt::ElideMiddle);
  runView_->setSelectionMode(QAbstractItemView::SingleSelection);
  runView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  runView_->header()->setStretchLastSection(false);
  runView_->header()->setSectionResizeMode(InductionRunModel::Name, QHeaderView::Stretch);
  for (int c = InductionRunModel::Method; c < InductionRunModel::ColumnCount; ++c)
    runView_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  details_ = new QPlainTextEdit(box);
  details_->setReadOnly(true);
  details_->setPlaceholderText(tr("Select a run to see its settings."));
  details_->setMaximumHeight(fontMetrics().lineSpacing() * 6 + 12);
  removeButton_ = new QPushButton(tr("Remove"), box);
  saveButton_ = new QPushButton(tr("Save Grammar\u2026"), box);
  saveButton_->setToolTip(tr("Save the selected run's learned grammar (.iogrammar, or .cfg)"));
  auto* buttons = new QHBoxLayout;
  rerunButton_ = new QPushButton(tr("Re-run"), box);
  rerunButton_->setToolTip(tr("Start a new run with the selected run's settings"));
  buttons->addWidget(removeButton_);
  buttons->addWidget(rerunButton_);
  buttons->addStretch(1);
  buttons->addWidget(saveButton_);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(runView_, 1);
  layout->addWidget(details_);
  layout->addLayout(buttons);

  connect(runView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
    updateDetails();
    updateControls();
  });
  connect(runs_, &QAbstractItemModel::dataChanged, this, [this] { updateDetails(); });
  connect(removeButton_, &QPushButton::clicked, this, [this] { removeRun(selectedRunId()); });
  connect(saveButton_, &QPushButton::clicked, this, &InductionPanel::saveSelectedGrammar);
  connect(rerunButton_, &QPushButton::clicked, this, [this] { rerun(selectedRunId()); });
  return box;
}

void InductionPanel::setSettings(const InductionSettings& s) {
  grammarEdit_->setText(s.grammarPath);
  rootEdit_->setText(s.root);
  corpusEdit_->setText(s.corpusPath);
  methodCombo_->setCurrentIndex(methodCombo_->findData(static_cast<int>(s.method)));
  defaultPriorEdit_->setText(QString::number(s.defaultPrior, 'g', 12));
  priorsEdit_->setPlainText(s.priors.join(QLatin1Char('\n')));
  iterationsSpin_->setValue(s.iterations);
  toleranceEdit_->setText(QString::number(s.tolerance, 'g', 6));
  threadsSpin_->setValue(s.threads);
  initCombo_->setCurrentIndex(initCombo_->findData(static_cast<int>(s.init)));
  seedSpin_->setValue(static_cast<int>(std::min<quint64>(s.seed, std::numeric_limits<int>::max())));
  noiseEdit_->setText(QString::number(s.noise, 'g', 12));
  initGrammarEdit_->setText(s.initGrammarPath);
  labelEdit_->setText(s.label);
  updateControls();
}

InductionSettings InductionPanel::settings(QString* error) const {
  InductionSettings s;
  QString problem;
  const auto note = [&problem](const QString& message) {
    if (problem.isEmpty()) problem = message;
  };
  s.grammarPath = grammarEdit_->text().trimmed();
  s.root = rootEdit_->text().trimmed();
  s.corpusPath = corpusEdit_->text().trimmed();
  s.method = static_cast<gwb::InductionMethod>(methodCombo_->currentData().toInt());
  if (const auto prior = parseNumber(defaultPriorEdit_->text()); prior && *prior > 0) {
    s.defaultPrior = *prior;
  } else {
    note(tr("Prior \u03b1: expected a positive number, got '%1'").arg(defaultPriorEdit_->text()));
  }
  for (const QString& line : priorsEdit_->toPlainText().split(QLatin1Char('\n'))) {
    if (!line.trimmed().isEmpty()) s.priors << line.trimmed();
  }
  s.iterations = iterationsSpin_->value();
  if (const auto tolerance = parseNumber(toleranceEdit_->text()); tolerance && *tolerance >= 0) {
    s.tolerance = *tolerance;
  } else {
    note(tr("Tolerance: expected a number \u2265 0, got '%1'").arg(toleranceEdit_->text()));
  }
  s.threads = threadsSpin_->value();
  s.init = static_cast<gwb::InitMethod>(initCombo_->currentData().toInt());
  s.seed = static_cast<quint64>(seedSpin_->value());
  if (const auto noise = parseNumber(noiseEdit_->text()); noise && *noise >= 0) {
    s.noise = *noise;
  } else {
    note(tr("Noise: expected a number \u2265 0, got '%1'").arg(noiseEdit_->text()));
  }
  s.initGrammarPath = initGrammarEdit_->text().trimmed();
  s.label = labelEdit_->text().trimmed();
  if (error) *error = problem;
  return s;
}

int InductionPanel::startRun(QString* error) {
  QString problem;
  const InductionSettings s = settings(&problem);
  if (!problem.isEmpty()) {
    showStatus(problem, true);
    if (error) *error = problem;
    return -1;
  }
  return startRun(s, error);
}

int InductionPanel::startRun(const InductionSettings& s, QString* error) {
  QString problem;
  if (s.grammarPath.isEmpty() || !QFileInfo(s.grammarPath).isFile()) {
    problem = tr("Grammar: no such file '%1'").arg(s.grammarPath);
  } else if (s.corpusPath.isEmpty() || !QFileInfo(s.corpusPath).isFile()) {
    problem = tr("Corpus: no such file '%1'").arg(s.corpusPath);
  } else if (s.init == gwb::InitMethod::FromGrammar && !QFileInfo(s.initGrammarPath).isFile()) {
    problem = tr("Initial grammar: no such file '%1'").arg(s.initGrammarPath);
  } else {
    QString why;
    if (!s.coreOptions(&why)) problem = tr("Priors: %1").arg(why);
  }
  if (!problem.isEmpty()) {
    showStatus(problem, true);
    if (error) *error = problem;
    return -1;
  }
  InductionRun run;
  run.settings = s;
  const int id = runs_->append(std::move(run));
  const InductionRun* added = runs_->run(id);
  plot_->addRun(id, added->name(), added->color);
  queue_.push_back(id);
  selectRun(id);
  if (!job_) {
    startNext();
  } else {
    showStatus(tr("%1 queued").arg(added->name()));
  }
  updateControls();
  return id;
}

void InductionPanel::startNext() {
  if (job_ || queue_.empty()) return;
  const int id = queue_.front();
  queue_.pop_front();
  const InductionRun* run = runs_->run(id);
  if (!run) {
    startNext();
    return;
  }
  jobRunId_ = id;
  job_ = std::make_unique<InductionJob>(run->settings);
  runs_->update(id, [](InductionRun& r) { r.status = InductionRun::Status::Loading; });
  jobBar_->start(tr("reading"));
  showStatus(tr("%1: reading the grammar and the corpus\u2026").arg(run->name()));

  InductionJob* job = job_.get();
  connect(job, &InductionJob::loaded, this, [this, id](qint64 sentences, qint64 rules) {
    runs_->update(id, [&](InductionRun& r) {
      r.status = InductionRun::Status::Running;
      r.sentences = sentences;
      r.rules = rules;
    });
    jobBar_->setIterationProgress(1, 0, sentences);
    if (const InductionRun* r = runs_->run(id)) {
      showStatus(tr("%1: %2 sentences, %3 rules")
                     .arg(r->name(), QString::number(sentences), QString::number(rules)));
    }
  });
  connect(job, &InductionJob::progress, this, [this](int iteration, qint64 done, qint64 total) {
    jobBar_->setIterationProgress(iteration, done, total);
  });
  connect(
      job, &InductionJob::iterationFinished, this, [this, id](const gwb::IterationRecord& record) {
        runs_->update(id, [&](InductionRun& r) { r.records.push_back(record); });
        plot_->appendRecord(id, record);
        const InductionRun* r = runs_->run(id);
        if (!r) return;
        QString line = tr("%1: iteration %2, \u2212log p = %3")
                           .arg(r->name(), QString::number(record.iteration),
                                QString::number(record.negLogLikelihood, 'f', 1));
        if (std::isfinite(record.freeEnergy))
          line += tr(", F = %1").arg(QString::number(record.freeEnergy, 'f', 1));
        line +=
            tr(", %1 live rules, %2 s")
                .arg(QString::number(record.liveRules), QString::number(record.seconds, 'f', 2));
        if (record.failures > 0) line += tr(", %1 failures").arg(record.failures);
        showStatus(line);
      });
  connect(job, &InductionJob::finished, this, &InductionPanel::onJobFinished);
  emit runStarted(id);
  job->start();
}

void InductionPanel::onJobFinished() {
  if (!job_) return;
  // Deleted later: this slot runs inside the job's own finished() emission.
  InductionJob* job = job_.release();
  job->deleteLater();
  const int id = jobRunId_;
  jobRunId_ = -1;
  const gwb::InductionResult& result = job->result();
  QStringList problems;
  for (const gwb::Diagnostic& d : result.diagnostics) {
    if (d.severity != gwb::Severity::Note) problems << toQString(gwb::toString(d));
  }
  runs_->update(id, [&](InductionRun& r) {
    switch (result.stopReason) {
      case gwb::StopReason::Failed: r.status = InductionRun::Status::Failed; break;
      case gwb::StopReason::Cancelled: r.status = InductionRun::Status::Cancelled; break;
      default: r.status = InductionRun::Status::Finished; break;
    }
    r.message = toQString(gwb::stopReasonName(result.stopReason)) + QStringLiteral(": ") +
                toQString(result.message);
    if (!problems.isEmpty()) r.message += QLatin1Char('\n') + problems.join(QLatin1Char('\n'));
    if (result.ok()) r.grammar = std::make_shared<const gwb::Grammar>(result.grammar);
    // The records as the core returned them (the live reports are the same, in order).
    r.records = result.records;
  });
  if (const InductionRun* r = runs_->run(id)) {
    plot_->setRecords(id, r->records);
    showStatus(tr("%1: %2").arg(r->name(), r->message.section(QLatin1Char('\n'), 0, 0)),
               r->status == InductionRun::Status::Failed);
    if (!problems.isEmpty() && r->status == InductionRun::Status::Failed)
      showStatus(tr("%1 failed: %2").arg(r->name(), problems.front()), true);
  }
  jobBar_->finish(InductionRun::statusName(runs_->run(id) ? runs_->run(id)->status
                                                          : InductionRun::Status::Finished),
                  result.ok());
  emit runFinished(id);
  startNext();
  updateControls();
  updateDetails();
  if (!isBusy()) emit idle();
}

void InductionPanel::cancelRun() {
  for (const int id : queue_) {
    runs_->update(id, [](InductionRun& r) {
      r.status = InductionRun::Status::Cancelled;
      r.message = tr("cancelled before it started");
    });
  }
  queue_.clear();
  if (job_) {
    job_->cancel();
    showStatus(tr("Cancelling at the next sentence\u2026"));
  }
  updateControls();
}

bool InductionPanel::isBusy() const { return job_ != nullptr || !queue_.empty(); }

bool InductionPanel::waitUntilIdle(int milliseconds) {
  return processEventsWhileBusy([this] { return isBusy(); },
                                [this] {
                                  if (job_) job_->wait(10);
                                },
                                milliseconds);
}

int InductionPanel::selectedRunId() const {
  const QModelIndex current = runView_->currentIndex();
  return current.isValid() ? runs_->runAt(current.row()).id : -1;
}

void InductionPanel::selectRun(int id) {
  const int row = runs_->rowOf(id);
  if (row < 0) return;
  runView_->setCurrentIndex(runs_->index(row, 0));
}

void InductionPanel::removeRun(int id) {
  if (id < 0) return;
  if (id == jobRunId_) return;  // the running run stays until it stops (Cancel first)
  queue_.erase(std::remove(queue_.begin(), queue_.end(), id), queue_.end());
  plot_->removeRun(id);
  runs_->remove(id);
  updateDetails();
  updateControls();
}

void InductionPanel::updateControls() {
  const auto init = static_cast<gwb::InitMethod>(initCombo_->currentData().toInt());
  seedSpin_->setEnabled(init == gwb::InitMethod::Uniform);
  noiseEdit_->setEnabled(init == gwb::InitMethod::Uniform);
  initGrammarEdit_->setEnabled(init == gwb::InitMethod::FromGrammar);
  initGrammarBrowse_->setEnabled(init == gwb::InitMethod::FromGrammar);
  const bool vb = static_cast<gwb::InductionMethod>(methodCombo_->currentData().toInt()) ==
                  gwb::InductionMethod::Vb;
  defaultPriorEdit_->setEnabled(vb);
  priorsEdit_->setEnabled(vb);
  jobBar_->setCancelEnabled(isBusy());
  runButton_->setText(isBusy() ? tr("&Queue Run") : tr("&Run"));
  const InductionRun* selected = runs_->run(selectedRunId());
  removeButton_->setEnabled(selected != nullptr && selected->id != jobRunId_);
  rerunButton_->setEnabled(selected != nullptr);
  saveButton_->setEnabled(selected != nullptr && selected->grammar != nullptr);
}

void InductionPanel::updateDetails() {
  const InductionRun* run = runs_->run(selectedRunId());
  if (!run) {
    details_->clear();
    return;
  }
  QStringList lines;
  lines << tr("%1 (%2)").arg(run->name(), InductionRun::statusName(run->status));
  if (!run->message.isEmpty()) lines << run->message;
  if (run->sentences > 0) {
    lines << tr("%1 sentences, %2 rules")
                 .arg(QString::number(run->sentences), QString::number(run->rules));
  }
  lines << run->settings.describe();
  const QString text = lines.join(QLatin1Char('\n'));
  if (details_->toPlainText() != text) details_->setPlainText(text);
}

void InductionPanel::showStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void InductionPanel::browse(QLineEdit* edit, const QString& title, const QString& filter) {
  const QString start = edit->text().isEmpty() ? QString() : QFileInfo(edit->text()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, title, start, filter);
  if (!path.isEmpty()) edit->setText(path);
}

bool InductionPanel::saveGrammar(int id, const QString& path, QString* error) {
  const InductionRun* run = runs_->run(id);
  if (!run || !run->grammar) {
    if (error) *error = tr("the run has no learned grammar");
    return false;
  }
  const QString suffix = QFileInfo(path).suffix().toLower();
  const bool nltk = suffix == QLatin1String("cfg") || suffix == QLatin1String("pcfg") ||
                    suffix == QLatin1String("nltk");
  std::string why;
  const bool ok = gwb::writeFileAtomically(
      toNativePath(path),
      [&](std::ostream& out) {
        if (nltk) {
          gwb::writeInducedNltk(*run->grammar, run->settings.method, out);
          return true;
        }
        return gwb::writeInducedEarleyx(*run->grammar, run->settings.method, out, &why);
      },
      &why);
  if (!ok && error) *error = toQString(why);
  if (ok)
    runs_->update(id, [&](InductionRun& r) { r.grammarFile = QFileInfo(path).absoluteFilePath(); });
  return ok;
}

QString InductionPanel::curvesCsv() const {
  QString text = QStringLiteral(
      "run,label,method,iteration,neg_log_likelihood,free_energy,variational_free_energy,"
      "objective,live_rules,seconds,failures\n");
  const auto energy = [](double value) { return std::isfinite(value) ? number(value) : QString(); };
  for (const InductionRun& run : runs_->runs()) {
    if (!run.visible) continue;
    const QString prefix =
        QStringLiteral("%1,%2,%3,")
            .arg(QString::number(run.id), csvField(run.name()),
                 QString::fromLatin1(gwb::inductionMethodName(run.settings.method)));
    for (const gwb::IterationRecord& r : run.records) {
      text += prefix +
              QStringList{QString::number(r.iteration),
                          number(r.negLogLikelihood),
                          energy(r.freeEnergy),
                          energy(r.variationalFreeEnergy),
                          number(r.objective),
                          QString::number(r.liveRules),
                          number(r.seconds),
                          QString::number(r.failures)}
                  .join(QLatin1Char(',')) +
              QLatin1Char('\n');
    }
  }
  return text;
}

bool InductionPanel::exportCsv(const QString& path, QString* error) const {
  return saveBytesAtomically(path, curvesCsv().toUtf8(), error);
}

bool InductionPanel::exportPng(const QString& path, QString* error) const {
  return plot_->savePng(path, error, 1200, 800);
}

bool InductionPanel::exportPdf(const QString& path, QString* error) const {
  return plot_->savePdf(path, error, 900, 600);
}

void InductionPanel::saveSelectedGrammar() {
  const InductionRun* run = runs_->run(selectedRunId());
  if (!run || !run->grammar) return;
  const QString suggested = QFileInfo(run->settings.grammarPath).completeBaseName() +
                            QLatin1Char('.') +
                            QString::fromLatin1(gwb::inductionMethodName(run->settings.method)) +
                            QStringLiteral(".iogrammar");
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save Learned Grammar"),
      QFileInfo(run->settings.grammarPath).absoluteDir().filePath(suggested),
      tr("Earleyx grammar (*.iogrammar *.grammar);;NLTK grammar (*.cfg *.pcfg)"));
  if (path.isEmpty()) return;
  QString error;
  if (saveGrammar(run->id, path, &error)) {
    showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
  } else {
    QMessageBox::warning(this, tr("Save Learned Grammar"),
                         tr("Could not save %1:\n%2").arg(QDir::toNativeSeparators(path), error));
  }
}

void InductionPanel::exportCurves(const QString& kind) {
  const QString filter = kind == QLatin1String("csv")   ? tr("CSV (*.csv)")
                         : kind == QLatin1String("png") ? tr("PNG image (*.png)")
                                                        : tr("PDF (*.pdf)");
  QString path = QFileDialog::getSaveFileName(this, tr("Export Curves"),
                                              QStringLiteral("induction-curves.") + kind, filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + kind;
  QString error;
  const bool ok = kind == QLatin1String("csv")   ? exportCsv(path, &error)
                  : kind == QLatin1String("png") ? exportPng(path, &error)
                                                 : exportPdf(path, &error);
  if (ok) {
    showStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
  } else {
    QMessageBox::warning(this, tr("Export Curves"),
                         tr("Could not export %1:\n%2").arg(QDir::toNativeSeparators(path), error));
  }
}

}  // namespace gwb::ui

namespace gwb::ui {

namespace {

const QStringList kStatusNames{QStringLiteral("queued"),    QStringLiteral("loading"),
                               QStringLiteral("running"),   QStringLiteral("finished"),
                               QStringLiteral("cancelled"), QStringLiteral("failed")};
const QStringList kInitNames{QStringLiteral("given"), QStringLiteral("uniform"),
                             QStringLiteral("grammar")};

QJsonObject settingsJson(const InductionSettings& s) {
  QJsonObject json{
      {QStringLiteral("label"), s.label},
      {QStringLiteral("grammar"), s.grammarPath},
      {QStringLiteral("root"), s.root},
      {QStringLiteral("corpus"), s.corpusPath},
      {QStringLiteral("method"), QString::fromLatin1(gwb::inductionMethodName(s.method))},
      {QStringLiteral("default-prior"), s.defaultPrior},
      {QStringLiteral("priors"), QJsonArray::fromStringList(s.priors)},
      {QStringLiteral("iterations"), s.iterations},
      {QStringLiteral("tolerance"), s.tolerance},
      {QStringLiteral("threads"), s.threads},
      {QStringLiteral("seed"), QString::number(s.seed)},
      {QStringLiteral("init"), kInitNames.value(static_cast<int>(s.init))},
      {QStringLiteral("noise"), s.noise}};
  if (!s.initGrammarPath.isEmpty()) json.insert(QStringLiteral("init-grammar"), s.initGrammarPath);
  return json;
}

InductionSettings settingsFromJson(const QJsonObject& json) {
  InductionSettings s;
  s.label = json.value(QStringLiteral("label")).toString();
  s.grammarPath = json.value(QStringLiteral("grammar")).toString();
  s.root = json.value(QStringLiteral("root")).toString();
  s.corpusPath = json.value(QStringLiteral("corpus")).toString();
  if (const auto method =
          gwb::parseInductionMethod(json.value(QStringLiteral("method")).toString().toStdString()))
    s.method = *method;
  s.defaultPrior = json.value(QStringLiteral("default-prior")).toDouble(s.defaultPrior);
  for (const QJsonValue prior : json.value(QStringLiteral("priors")).toArray())
    s.priors << prior.toString();
  s.iterations = std::max(0, json.value(QStringLiteral("iterations")).toInt(s.iterations));
  s.tolerance = json.value(QStringLiteral("tolerance")).toDouble(s.tolerance);
  s.threads = std::max(1, json.value(QStringLiteral("threads")).toInt(s.threads));
  bool ok = false;
  const quint64 seed = json.value(QStringLiteral("seed")).toString().toULongLong(&ok);
  if (ok) s.seed = seed;
  const auto init = kInitNames.indexOf(json.value(QStringLiteral("init")).toString());
  if (init >= 0) s.init = static_cast<gwb::InitMethod>(init);
  s.noise = json.value(QStringLiteral("noise")).toDouble(s.noise);
  s.initGrammarPath = json.value(QStringLiteral("init-grammar")).toString();
  return s;
}

QJsonObject recordJson(const gwb::IterationRecord& r) {
  QJsonObject json{
      {QStringLiteral("iteration"), r.iteration},
      {QStringLiteral("neg-log-likelihood"), finiteOrNull(r.negLogLikelihood)},
      {QStringLiteral("free-energy"), finiteOrNull(r.freeEnergy)},
      {QStringLiteral("variational-free-energy"), finiteOrNull(r.variationalFreeEnergy)},
      {QStringLiteral("objective"), finiteOrNull(r.objective)},
      {QStringLiteral("live-rules"), static_cast<double>(r.liveRules)},
      {QStringLiteral("seconds"), r.seconds},
      {QStringLiteral("e-step-seconds"), r.expectationSeconds},
      {QStringLiteral("failures"), static_cast<double>(r.failures)}};
  if (r.objectiveIncreased) json.insert(QStringLiteral("objective-increased"), true);
  return json;
}

gwb::IterationRecord recordFromJson(const QJsonObject& json) {
  gwb::IterationRecord r;
  r.iteration = json.value(QStringLiteral("iteration")).toInt();
  r.negLogLikelihood = numberOrNaN(json.value(QStringLiteral("neg-log-likelihood")));
  r.freeEnergy = numberOrNaN(json.value(QStringLiteral("free-energy")));
  r.variationalFreeEnergy = numberOrNaN(json.value(QStringLiteral("variational-free-energy")));
  r.objective = numberOrNaN(json.value(QStringLiteral("objective")));
  r.liveRules =
      static_cast<std::size_t>(std::max(0.0, json.value(QStringLiteral("live-rules")).toDouble()));
  r.seconds = json.value(QStringLiteral("seconds")).toDouble();
  r.expectationSeconds = json.value(QStringLiteral("e-step-seconds")).toDouble();
  r.failures =
      static_cast<std::size_t>(std::max(0.0, json.value(QStringLiteral("failures")).toDouble()));
  r.objectiveIncreased = json.value(QStringLiteral("objective-increased")).toBool(false);
  return r;
}

}  // namespace

int InductionPanel::rerun(int id, QString* error) {
  const InductionRun* run = runs_->run(id);
  if (!run) return -1;
  const InductionSettings settings = run->settings;
  return startRun(settings, error);
}

QJsonObject InductionPanel::state() const {
  QJsonArray runs;
  for (const InductionRun& run : runs_->runs()) {
    QJsonArray records;
    for (const gwb::IterationRecord& r : run.records) records.append(recordJson(r));
    QJsonObject json{{QStringLiteral("settings"), settingsJson(run.settings)},
                     {QStringLiteral("status"), kStatusNames.value(static_cast<int>(run.status))},
                     {QStringLiteral("visible"), run.visible},
                     {QStringLiteral("message"), run.message},
                     {QStringLiteral("sentences"), static_cast<double>(run.sentences)},
                     {QStringLiteral("rules"), static_cast<double>(run.rules)},
                     {QStringLiteral("records"), records}};
    if (!run.grammarFile.isEmpty()) json.insert(QStringLiteral("learned-grammar"), run.grammarFile);
    runs.append(json);
  }
  QString problem;
  QJsonObject state{
      {QStringLiteral("form"), settingsJson(settings(&problem))},
      {QStringLiteral("energy"), energyCombo_->currentIndex() == 1 ? QStringLiteral("variational")
                                                                   : QStringLiteral("earleyx")},
      {QStringLiteral("runs"), runs}};
  if (const int selected = runs_->rowOf(selectedRunId()); selected >= 0)
    state.insert(QStringLiteral("selected"), selected);
  return state;
}

bool InductionPanel::restoreState(const QJsonObject& state) {
  if (isBusy()) return false;
  for (const InductionRun& run : std::vector<InductionRun>(runs_->runs())) removeRun(run.id);
  notice_.clear();
  setSettings(settingsFromJson(state.value(QStringLiteral("form")).toObject()));
  energyCombo_->setCurrentIndex(
      state.value(QStringLiteral("energy")).toString() == QLatin1String("variational") ? 1 : 0);
  QStringList notes;
  QStringList unsaved;
  for (const QJsonValue value : state.value(QStringLiteral("runs")).toArray()) {
    const QJsonObject json = value.toObject();
    InductionRun run;
    run.settings = settingsFromJson(json.value(QStringLiteral("settings")).toObject());
    run.visible = json.value(QStringLiteral("visible")).toBool(true);
    run.message = json.value(QStringLiteral("message")).toString();
    run.sentences = static_cast<qint64>(json.value(QStringLiteral("sentences")).toDouble());
    run.rules = static_cast<qint64>(json.value(QStringLiteral("rules")).toDouble());
    for (const QJsonValue record : json.value(QStringLiteral("records")).toArray())
      run.records.push_back(recordFromJson(record.toObject()));
    const auto status = kStatusNames.indexOf(json.value(QStringLiteral("status")).toString());
    run.status =
        status >= 0 ? static_cast<InductionRun::Status>(status) : InductionRun::Status::Cancelled;
    if (run.status == InductionRun::Status::Queued || run.status == InductionRun::Status::Loading ||
        run.status == InductionRun::Status::Running) {
      // Restoring never starts training: a run that was going is kept as far as it got.
      run.status = InductionRun::Status::Cancelled;
      run.message =
          tr("interrupted: the workspace was saved while it was going (%n iteration(s) kept); "
             "Re-run to train it again",
             nullptr, static_cast<int>(run.records.size()));
    }
    const QString learned = json.value(QStringLiteral("learned-grammar")).toString();
    if (!learned.isEmpty()) {
      gwb::GrammarReadOptions options;
      options.runChecks = false;
      gwb::GrammarLoad load = gwb::loadGrammarFile(toNativePath(learned), options);
      if (load.ok()) {
        run.grammar = std::make_shared<const gwb::Grammar>(std::move(load.grammar));
        run.grammarFile = learned;
      } else {
        notes << tr("%1: the learned grammar %2 could not be read (Re-run to learn it again)")
                     .arg(run.name(), QDir::toNativeSeparators(learned));
      }
    } else if (run.status == InductionRun::Status::Finished ||
               run.status == InductionRun::Status::Cancelled) {
      if (!run.records.empty()) unsaved << run.name();
    }
    const int id = runs_->append(std::move(run));
    const InductionRun* added = runs_->run(id);
    plot_->addRun(id, added->name(), added->color);
    plot_->setRecords(id, added->records);
    plot_->setRunVisible(id, added->visible);
  }
  if (!unsaved.isEmpty()) {
    notes << tr("learned grammars not kept (never saved) for %1: their curves are shown; Re-run "
                "to learn them again")
                 .arg(unsaved.join(QStringLiteral(", ")));
  }
  const int selected = state.value(QStringLiteral("selected")).toInt(-1);
  if (selected >= 0 && selected < runs_->rowCount()) selectRun(runs_->runAt(selected).id);
  notice_ = notes.isEmpty() ? QString()
                            : tr("Restored in part: %1.").arg(notes.join(QStringLiteral("; ")));
  showStatus(notice_.isEmpty() ? tr("Restored %n run(s)", nullptr, runs_->rowCount()) : notice_);
  updateControls();
  updateDetails();
  return true;
}

}  // namespace gwb::ui
