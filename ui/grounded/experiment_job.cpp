#include "ui/grounded/experiment_job.h"

#include <chrono>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/social_grammar.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {

constexpr auto kProgressInterval = std::chrono::milliseconds(40);

class JobObserver : public gwb::InductionObserver {
 public:
  JobObserver(ExperimentJob* job, JobContext& context) : job_(job), context_(context) {}
  void setSeedIndex(int index) { seedIndex_ = index; }

  void onProgress(int iteration, std::size_t done, std::size_t total) override {
    const auto now = std::chrono::steady_clock::now();
    if (done < total && iteration == lastIteration_ && now - lastSent_ < kProgressInterval) return;
    lastIteration_ = iteration;
    lastSent_ = now;
    context_.post([job = job_, seed = seedIndex_, iteration, done, total] {
      emit job->progress(seed, iteration, static_cast<qint64>(done), static_cast<qint64>(total));
    });
  }

  void onIteration(const gwb::IterationRecord& record, const gwb::Grammar& /*grammar*/) override {
    context_.post(
        [job = job_, seed = seedIndex_, record] { emit job->iterationFinished(seed, record); });
  }

 private:
  ExperimentJob* job_;
  JobContext& context_;
  int seedIndex_ = 0;
  int lastIteration_ = 0;
  std::chrono::steady_clock::time_point lastSent_{};
};

QString firstError(const gwb::Diagnostics& diagnostics) {
  for (const gwb::Diagnostic& d : diagnostics)
    if (d.severity == gwb::Severity::Error) return toQString(gwb::toString(d));
  return {};
}

std::optional<double> parseNumber(const QString& text) {
  bool ok = false;
  const double value = QLocale::c().toDouble(text.trimmed(), &ok);
  if (!ok || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

const char* experimentMetricKey(ExperimentMetric metric) {
  switch (metric) {
    case ExperimentMetric::Accuracy: return "acc";
    case ExperimentMetric::TopicF1: return "topic_f1";
    case ExperimentMetric::TopicPrecision: return "topic_p";
    case ExperimentMetric::TopicRecall: return "topic_r";
    case ExperimentMetric::WordF1: return "word_f1";
    case ExperimentMetric::WordPrecision: return "word_p";
    case ExperimentMetric::WordRecall: return "word_r";
    case ExperimentMetric::LexiconF1: return "lex_f1";
    case ExperimentMetric::LexiconPrecision: return "lex_p";
    case ExperimentMetric::LexiconRecall: return "lex_r";
    case ExperimentMetric::FreeEnergy: return "energy";
    case ExperimentMetric::Count: break;
  }
  return "";
}

QString experimentMetricTitle(ExperimentMetric metric) {
  switch (metric) {
    case ExperimentMetric::Accuracy: return QObject::tr("Acc.");
    case ExperimentMetric::TopicF1: return QObject::tr("Topic F\u2081");
    case ExperimentMetric::TopicPrecision: return QObject::tr("Topic P");
    case ExperimentMetric::TopicRecall: return QObject::tr("Topic R");
    case ExperimentMetric::WordF1: return QObject::tr("Word F\u2081");
    case ExperimentMetric::WordPrecision: return QObject::tr("Word P");
    case ExperimentMetric::WordRecall: return QObject::tr("Word R");
    case ExperimentMetric::LexiconF1: return QObject::tr("Lex. F\u2081");
    case ExperimentMetric::LexiconPrecision: return QObject::tr("Lex. P");
    case ExperimentMetric::LexiconRecall: return QObject::tr("Lex. R");
    case ExperimentMetric::FreeEnergy: return QObject::tr("Energy");
    case ExperimentMetric::Count: break;
  }
  return {};
}

ExperimentValues experimentValues(const gwb::SocialExperimentResult& r) {
  const gwb::GroundedScores& s = r.scores;
  return {s.accuracy(),          s.topic.f1(),       s.topic.precision(), s.topic.recall(),
          s.word.f1(),           s.word.precision(), s.word.recall(),     s.lexicon.f1(),
          s.lexicon.precision(), s.lexicon.recall(), r.freeEnergy};
}

QString sharedDataFile(const QString& relative) {
  const QByteArray env = qgetenv("GWB_SHARED_DIR");
  if (!env.isEmpty()) return QDir(QString::fromLocal8Bit(env)).filePath(relative);
  QStringList candidates{QDir::current().filePath(QStringLiteral("../shared"))};
  QDir dir(QCoreApplication::applicationDirPath());
  for (int up = 0; up < 6; ++up) {
    candidates << dir.filePath(QStringLiteral("../shared"));
    if (!dir.cdUp()) break;
  }
  for (const QString& base : candidates) {
    const QString path = QDir(base).filePath(relative);
    if (QFileInfo::exists(path)) return QDir::cleanPath(path);
  }
  return {};
}

ExperimentSpec ExperimentSpec::withDefaultFiles() const {
  ExperimentSpec spec = *this;
  if (spec.corpusPath.isEmpty())
    spec.corpusPath = sharedDataFile(QStringLiteral("data/earleyx/data/socialall.ortho.yld"));
  if (spec.goldPath.isEmpty())
    spec.goldPath = sharedDataFile(QStringLiteral("data/earleyx/data/gold.topic.ortho.yld"));
  if (spec.recordingsPath.isEmpty())
    spec.recordingsPath = sharedDataFile(QStringLiteral("data/social-cues/recordings.tsv"));
  return spec;
}

QString ExperimentSpec::groupKey() const {
  return QStringList{QString::fromLatin1(gwb::socialModelName(model)),
                     cues,
                     QString::number(alpha, 'g', 17),
                     QString::number(iterations),
                     QString::number(tolerance, 'g', 17),
                     corpusPath,
                     goldPath,
                     recordingsPath}
      .join(QLatin1Char('\x1f'));
}

QString ExperimentSpec::describe() const {
  QStringList lines;
  lines << QObject::tr("model: %1").arg(QString::fromLatin1(gwb::socialModelName(model)))
        << QObject::tr("cues: %1").arg(cues)
        << QObject::tr("alpha: %1").arg(QString::number(alpha, 'g', 6))
        << QObject::tr("iterations: %1")
               .arg(iterations == 0 ? QObject::tr("until converged") : QString::number(iterations))
        << QObject::tr("tolerance: %1").arg(QString::number(tolerance, 'g', 6))
        << QObject::tr("seeds: %1").arg(seedListText(seeds))
        << QObject::tr("corpus: %1").arg(corpusPath) << QObject::tr("gold: %1").arg(goldPath)
        << QObject::tr("recordings: %1")
               .arg(recordingsPath.isEmpty() ? QObject::tr("(one recording)") : recordingsPath);
  return lines.join(QLatin1Char('\n'));
}

bool parseSeedList(const QString& text, std::vector<quint64>* seeds, QString* error) {
  std::vector<quint64> out;
  const auto fail = [&](const QString& part) {
    if (error) {
      *error = QObject::tr("seeds: '%1' is not a seed or a range like 1-5").arg(part);
    }
    return false;
  };
  for (QString part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    part = part.trimmed();
    const int dash = part.indexOf(QLatin1Char('-'), 1);
    bool ok1 = false;
    bool ok2 = true;
    const quint64 first = (dash < 0 ? part : part.left(dash)).trimmed().toULongLong(&ok1);
    const quint64 last = dash < 0 ? first : part.mid(dash + 1).trimmed().toULongLong(&ok2);
    if (!ok1 || !ok2 || last < first || last - first >= 1000) return fail(part);
    for (quint64 s = first; s <= last; ++s) out.push_back(s);
  }
  if (out.empty()) {
    if (error) *error = QObject::tr("seeds: give at least one seed (e.g. 1-5)");
    return false;
  }
  *seeds = std::move(out);
  return true;
}

QString seedListText(const std::vector<quint64>& seeds) {
  QStringList parts;
  for (std::size_t i = 0; i < seeds.size();) {
    std::size_t j = i;
    while (j + 1 < seeds.size() && seeds[j + 1] == seeds[j] + 1) ++j;
    parts << (j > i ? QStringLiteral("%1-%2").arg(seeds[i]).arg(seeds[j])
                    : QString::number(seeds[i]));
    i = j + 1;
  }
  return parts.join(QLatin1Char(','));
}

bool applyExperimentSpec(ExperimentSpec* spec, const QString& text, QString* error) {
  const auto fail = [error](const QString& message) {
    if (error) *error = message;
    return false;
  };
  for (const QString& part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
    const int equals = part.indexOf(QLatin1Char('='));
    if (equals < 0) return fail(QObject::tr("%1: expected key=value").arg(part));
    const QString key = part.left(equals).trimmed();
    const QString value = part.mid(equals + 1).trimmed();
    bool ok = true;
    if (key == QLatin1String("model")) {
      const auto model = gwb::parseSocialModel(value.toStdString());
      ok = model.has_value();
      if (ok) spec->model = *model;
    } else if (key == QLatin1String("cues")) {
      ok = gwb::CueSelection::parse(value.toStdString()).has_value();
      spec->cues = value;
    } else if (key == QLatin1String("alpha")) {
      const auto alpha = parseNumber(value);
      ok = alpha && *alpha > 0;
      if (ok) spec->alpha = *alpha;
    } else if (key == QLatin1String("iterations")) {
      spec->iterations = value.toInt(&ok);
      ok = ok && spec->iterations >= 0;
    } else if (key == QLatin1String("tolerance")) {
      const auto tolerance = parseNumber(value);
      ok = tolerance && *tolerance >= 0;
      if (ok) spec->tolerance = *tolerance;
    } else if (key == QLatin1String("seeds")) {
      QString why;
      if (!parseSeedList(value, &spec->seeds, &why)) return fail(why);
    } else if (key == QLatin1String("threads")) {
      spec->threads = value.toInt(&ok);
      ok = ok && spec->threads >= 1;
    } else if (key == QLatin1String("corpus")) {
      spec->corpusPath = value;
    } else if (key == QLatin1String("gold")) {
      spec->goldPath = value;
    } else if (key == QLatin1String("recordings")) {
      spec->recordingsPath = value;
    } else {
      return fail(QObject::tr("unknown key '%1' (expected model, cues, alpha, iterations, "
                              "tolerance, seeds, threads, corpus, gold or recordings)")
                      .arg(key));
    }
    if (!ok) return fail(QObject::tr("%1: '%2' is not a valid value").arg(key, value));
  }
  return true;
}

ExperimentJob::ExperimentJob(ExperimentSpec spec, QObject* parent)
    : JobBase(QStringLiteral("gwb-experiment"), parent), spec_(std::move(spec)) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, [this] {
    if (!backgroundJob().errorText().isEmpty()) error_ = backgroundJob().errorText();
    emit finished();
  });
}

// The work reads the job's members: it has returned before they go.
ExperimentJob::~ExperimentJob() { stopWork(); }

void ExperimentJob::start() {
  backgroundJob().start([this](JobContext& context) { run(context); });
}

void ExperimentJob::run(JobContext& context) {
  gwb::SocialCorpusLoad corpus = gwb::loadSocialCorpusFile(toNativePath(spec_.corpusPath));
  if (!corpus.ok()) {
    error_ = firstError(corpus.diagnostics);
    return;
  }
  gwb::GoldAnnotationLoad gold = gwb::loadGoldAnnotationFile(toNativePath(spec_.goldPath));
  gwb::Diagnostics checks = gold.diagnostics;
  if (gold.ok()) gwb::alignGoldWithCorpus(gold.gold, corpus.corpus, checks);
  if (checks.hasErrors()) {
    error_ = firstError(checks);
    return;
  }
  std::vector<gwb::Recording> recordings;
  if (!spec_.recordingsPath.isEmpty()) {
    const std::string path = toNativePath(spec_.recordingsPath);
    const gwb::RecordingsLoad load = gwb::loadRecordingsFile(path);
    gwb::Diagnostics recordingChecks = load.diagnostics;
    if (load.ok()) gwb::checkRecordings(load.recordings, corpus.corpus, path, recordingChecks);
    if (recordingChecks.hasErrors()) {
      error_ = firstError(recordingChecks);
      return;
    }
    recordings = load.recordings;
  } else {
    recordings = gwb::wholeCorpusRecording(corpus.corpus);
  }
  const gwb::Lexicon dictionary = gwb::goldLexicon(gold.gold);
  std::string why;
  const auto selection = gwb::CueSelection::parse(spec_.cues.toStdString(), &why);
  const auto cues = selection ? selection->select(corpus.corpus.cueOrder, &why) : std::nullopt;
  if (!cues) {
    error_ = tr("cues: %1").arg(toQString(why));
    return;
  }
  const auto utterances = static_cast<qint64>(corpus.corpus.utterances.size());
  const auto recordingCount = static_cast<qint64>(recordings.size());
  context.post([this, utterances, recordingCount] { emit loaded(utterances, recordingCount); });

  JobObserver observer(this, context);
  for (std::size_t k = 0; k < spec_.seeds.size() && !context.cancelRequested(); ++k) {
    observer.setSeedIndex(static_cast<int>(k));
    gwb::SocialExperimentOptions options;
    options.model = spec_.model;
    options.cues = *cues;
    options.alpha = spec_.alpha;
    options.iterations = spec_.iterations;
    options.tolerance = spec_.tolerance;
    options.seed = spec_.seeds[k];
    options.threads = spec_.threads;
    options.observer = &observer;
    options.cancel = &context.cancelFlag();
    const gwb::SocialExperimentResult r =
        gwb::runSocialExperiment(corpus.corpus, gold.gold, dictionary, recordings, options);
    if (context.cancelRequested()) break;
    if (!r.ok()) {
      error_ = firstError(r.diagnostics);
      return;
    }
    ExperimentOutcome outcome;
    outcome.seed = spec_.seeds[k];
    outcome.values = experimentValues(r);
    outcome.negLogLikelihood = r.negLogLikelihood;
    outcome.iterations = static_cast<int>(r.records.size());
    outcome.seconds = r.seconds;
    outcome.stopMessage = toQString(r.stopMessage);
    context.post([this, outcome] { emit seedFinished(outcome); });
  }
}

}  // namespace gwb::ui
