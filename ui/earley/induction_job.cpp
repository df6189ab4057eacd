#include "ui/earley/induction_job.h"

#include <chrono>
#include <utility>

#include <QFileInfo>

#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_io.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {

// At most this often a progress report crosses to the UI thread (the last one always does).
constexpr auto kProgressInterval = std::chrono::milliseconds(40);

QString initName(gwb::InitMethod init) {
  switch (init) {
    case gwb::InitMethod::Given: return QObject::tr("given probabilities");
    case gwb::InitMethod::Uniform: return QObject::tr("uniform + noise");
    case gwb::InitMethod::FromGrammar: return QObject::tr("from grammar");
  }
  return {};
}

// Forwards the driver's reports to the job's thread. The driver serialises the calls.
class JobObserver : public gwb::InductionObserver {
 public:
  JobObserver(InductionJob* job, JobContext& context) : job_(job), context_(context) {}

  void onProgress(int iteration, std::size_t done, std::size_t total) override {
    const auto now = std::chrono::steady_clock::now();
    if (done < total && iteration == lastIteration_ && now - lastSent_ < kProgressInterval) return;
    lastIteration_ = iteration;
    lastSent_ = now;
    context_.post([job = job_, iteration, done, total] {
      emit job->progress(iteration, static_cast<qint64>(done), static_cast<qint64>(total));
    });
  }

  void onIteration(const gwb::IterationRecord& record, const gwb::Grammar& /*grammar*/) override {
    context_.post([job = job_, record] { emit job->iterationFinished(record); });
  }

 private:
  InductionJob* job_;
  JobContext& context_;
  int lastIteration_ = 0;
  std::chrono::steady_clock::time_point lastSent_{};
};

void addError(gwb::Diagnostics& diagnostics, const QString& file, const QString& message) {
  diagnostics.error(toNativePath(file), 0, 0, message.toStdString());
}

}  // namespace

QString InductionSettings::displayName() const {
  if (!label.trimmed().isEmpty()) return label.trimmed();
  return QStringLiteral("%1 \u00b7 %2 \u00b7 %3")
      .arg(QString::fromLatin1(gwb::inductionMethodName(method)).toUpper(),
           QFileInfo(grammarPath).fileName(), QFileInfo(corpusPath).fileName());
}

QString InductionSettings::describe() const {
  QStringList lines;
  const auto add = [&lines](const QString& name, const QString& value) {
    lines << QStringLiteral("%1: %2").arg(name, value);
  };
  add(QObject::tr("grammar"), grammarPath);
  add(QObject::tr("root"), root.isEmpty() ? QObject::tr("(default)") : root);
  add(QObject::tr("corpus"), corpusPath);
  add(QObject::tr("method"), QString::fromLatin1(gwb::inductionMethodName(method)));
  add(QObject::tr("default prior"), QString::number(defaultPrior, 'g', 10));
  for (const QString& prior : priors) add(QObject::tr("prior"), prior);
  add(QObject::tr("iterations"),
      iterations == 0 ? QObject::tr("until converged") : QString::number(iterations));
  add(QObject::tr("tolerance"), QString::number(tolerance, 'g', 6));
  add(QObject::tr("threads"), QString::number(threads));
  add(QObject::tr("initialisation"), initName(init));
  if (init == gwb::InitMethod::Uniform) {
    add(QObject::tr("seed"), QString::number(seed));
    add(QObject::tr("noise"), QString::number(noise, 'g', 6));
  }
  if (init == gwb::InitMethod::FromGrammar) add(QObject::tr("initial grammar"), initGrammarPath);
  return lines.join(QLatin1Char('\n'));
}

std::optional<gwb::InductionOptions> InductionSettings::coreOptions(QString* error) const {
  gwb::InductionOptions options;
  options.method = method;
  options.maxIterations = iterations;
  options.tolerance = tolerance;
  options.defaultPrior = defaultPrior;
  options.threads = threads;
  options.seed = seed;
  options.noise = noise;
  options.init = init;
  for (int i = 0; i < priors.size(); ++i) {
    std::string why;
    auto prior = gwb::parsePriorOverride(priors[i].toStdString(), &why);
    if (!prior) {
      if (error) {
        *error =
            QObject::tr("prior %1 (%2): %3").arg(QString::number(i + 1), priors[i], toQString(why));
      }
      return std::nullopt;
    }
    options.priorOverrides.push_back(std::move(*prior));
  }
  return options;
}

bool readInductionCorpus(const QString& path, std::vector<std::vector<std::string>>* sentences,
                         QString* error) {
  gwb::SentenceFile file = gwb::readSentenceFile(toNativePath(path));
  if (!file.ok()) {
    if (error) *error = toQString(file.error);
    return false;
  }
  *sentences = std::move(file.sentences);
  if (sentences->empty()) {
    if (error) *error = QObject::tr("%1 holds no sentence").arg(path);
    return false;
  }
  return true;
}

InductionJob::InductionJob(InductionSettings settings, QObject* parent)
    : JobBase(QStringLiteral("gwb-induction"), parent), settings_(std::move(settings)) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] {
    if (!backgroundJob().errorText().isEmpty()) {
      result_ = {};
      result_.stopReason = gwb::StopReason::Failed;
      result_.message = backgroundJob().errorText().toStdString();
      addError(result_.diagnostics, QString(), backgroundJob().errorText());
    }
    emit finished();
  });
}

// The work reads the job's members: it has returned before they go.
InductionJob::~InductionJob() { stopWork(); }

void InductionJob::start() {
  backgroundJob().start([this](JobContext& context) { run(context); });
}

void InductionJob::run(JobContext& context) {
  gwb::InductionResult failed;
  failed.stopReason = gwb::StopReason::Failed;
  QString why;
  const std::optional<gwb::InductionOptions> parsed = settings_.coreOptions(&why);
  if (!parsed) {
    addError(failed.diagnostics, QString(), why);
    failed.message = why.toStdString();
    result_ = std::move(failed);
    return;
  }
  gwb::InductionOptions options = *parsed;

  gwb::GrammarReadOptions read;
  read.root = settings_.root.toStdString();
  read.runChecks = false;
  gwb::GrammarLoad grammar = gwb::loadGrammarFile(toNativePath(settings_.grammarPath), read);
  if (!grammar.ok()) {
    failed.diagnostics = std::move(grammar.diagnostics);
    failed.message = tr("the grammar could not be read").toStdString();
    result_ = std::move(failed);
    return;
  }
  gwb::GrammarLoad initial;
  if (options.init == gwb::InitMethod::FromGrammar) {
    gwb::GrammarReadOptions initRead;
    initRead.runChecks = false;
    initial = gwb::loadGrammarFile(toNativePath(settings_.initGrammarPath), initRead);
    if (!initial.ok()) {
      failed.diagnostics = std::move(initial.diagnostics);
      failed.message = tr("the initial grammar could not be read").toStdString();
      result_ = std::move(failed);
      return;
    }
    options.initFrom = &initial.grammar;
  }
  std::vector<std::vector<std::string>> sentences;
  if (!readInductionCorpus(settings_.corpusPath, &sentences, &why)) {
    addError(failed.diagnostics, settings_.corpusPath, why);
    failed.message = why.toStdString();
    result_ = std::move(failed);
    return;
  }
  sentenceCount_ = sentences.size();
  const auto rules = static_cast<qint64>(grammar.grammar.ruleCount());
  const auto count = static_cast<qint64>(sentences.size());
  context.post([this, count, rules] { emit loaded(count, rules); });

  JobObserver observer(this, context);
  gwb::InductionControl control;
  control.observer = &observer;
  control.cancel = &context.cancelFlag();
  result_ = gwb::induceGrammar(std::move(grammar.grammar), sentences, options, control);
}

}  // namespace gwb::ui
