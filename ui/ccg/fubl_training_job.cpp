#include "ui/ccg/fubl_training_job.h"

#include <algorithm>
#include <utility>

#include <QDir>
#include <QFileInfo>

#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace ccg = gwb::ccg;

// What the worker makes; handed to the job on the UI thread by onWorkerFinished.
struct FublTrainingJob::Run {
  FublTrainingSettings settings;
  std::function<void(const ccg::FublProgress&)> exampleHook;
  std::shared_ptr<ccg::TypeSystem> types;
  std::shared_ptr<ccg::FactoredLexicon> model;  // the last finished pass's lexicon
  ccg::CkyOptions parser;
  std::vector<ccg::SemanticExample> training;
  std::vector<ccg::SemanticExample> test;
  ccg::EvaluationResult evaluation;
  bool evaluated = false;
  bool cancelled = false;
  QString error;
  Diagnostics diagnostics;
};

namespace {

// Posts the learner's reports to the job; keeps each finished pass's lexicon and saves it.
class JobObserver : public ccg::FublObserver {
 public:
  JobObserver(FublTrainingJob* job, JobContext& context, std::shared_ptr<FublTrainingJob::Run> run,
              ccg::CkyOptions parser, std::function<void(const ccg::FublProgress&)> hook)
      : job_(job),
        context_(context),
        run_(std::move(run)),
        parser_(std::move(parser)),
        hook_(std::move(hook)) {}

  void onExample(const ccg::FublProgress& progress) override {
    const int step = std::max(1, progress.examples / 50);
    if (progress.example % step == 0 || progress.example == progress.examples) {
      context_.setProgress(progress.example, progress.examples);
      context_.post([job = job_, progress] {
        emit job->exampleDone(progress.pass, progress.example, progress.examples);
      });
    }
    if (hook_) hook_(progress);
  }

  void onPruningExample(const ccg::FublProgress& progress) override {
    const int step = std::max(1, progress.examples / 50);
    if (progress.example % step == 0 || progress.example == progress.examples) {
      context_.setProgress(progress.example, progress.examples);
      context_.post([job = job_, progress] {
        emit job->pruningProgress(progress.example, progress.examples);
      });
    }
    if (hook_) hook_(progress);
  }

  void onPass(const ccg::PassSummary& summary, const ccg::FactoredLexicon& lexicon) override {
    auto kept = std::make_shared<ccg::FactoredLexicon>(lexicon);
    std::string error;
    if (!ccg::saveCcgModel(*kept, parser_, toNativePath(run_->settings.effectiveModelPath()),
                           &error)) {
      run_->error = toQString(error);
    }
    run_->model = std::move(kept);
    context_.post([job = job_, summary] { emit job->passFinished(summary); });
  }

 private:
  FublTrainingJob* job_;
  JobContext& context_;
  std::shared_ptr<FublTrainingJob::Run> run_;
  ccg::CkyOptions parser_;
  std::function<void(const ccg::FublProgress&)> hook_;
};

}  // namespace

QString FublTrainingSettings::effectiveModelPath() const {
  if (!modelPath.isEmpty()) return modelPath;
  const QFileInfo info(trainingPath);
  return info.path() + QLatin1Char('/') + info.completeBaseName() + QStringLiteral(".ccgmodel");
}

bool findCcgTypeFiles(const QString& dataPath, QString* typesPath, QString* langPath) {
  const QFileInfo info(dataPath);
  const QString stem = info.path() + QLatin1Char('/') + info.completeBaseName();
  if (QFileInfo::exists(stem + QStringLiteral(".types")) &&
      QFileInfo::exists(stem + QStringLiteral(".lang"))) {
    *typesPath = stem + QStringLiteral(".types");
    *langPath = stem + QStringLiteral(".lang");
    return true;
  }
  QDir folder = info.absoluteDir();
  for (int up = 0; up < 8; ++up) {
    if (folder.exists(QStringLiteral("geo-lambda.types")) &&
        folder.exists(QStringLiteral("geo-lambda.lang"))) {
      *typesPath = folder.filePath(QStringLiteral("geo-lambda.types"));
      *langPath = folder.filePath(QStringLiteral("geo-lambda.lang"));
      return true;
    }
    if (!folder.cdUp()) break;
  }
  return false;
}

FublTrainingJob::FublTrainingJob(QObject* parent)
    : JobBase(QStringLiteral("gwb-fubl-train"), parent) {
  connect(&backgroundJob(), &BackgroundJob::finished, this, &FublTrainingJob::onWorkerFinished);
  // First connection: passes() holds a pass before anyone else hears of it.
  connect(this, &FublTrainingJob::passFinished, this,
          [this](const ccg::PassSummary& summary) { passes_.push_back(summary); });
}

// The work reads the job's members: it has returned before they go.
FublTrainingJob::~FublTrainingJob() { stopWork(); }

bool FublTrainingJob::start(const FublTrainingSettings& settings) {
  if (isBusy()) return false;
  settings_ = settings;
  model_.reset();
  types_.reset();
  passes_.clear();
  training_.clear();
  test_.clear();
  evaluation_ = {};
  evaluated_ = false;
  cancelled_ = false;
  errorText_.clear();
  diagnostics_ = {};
  auto run = std::make_shared<Run>();
  run->settings = settings;
  run->exampleHook = exampleHook_;
  run_ = run;
  backgroundJob().start([this, run](JobContext& context) { work(run, context); });
  return true;
}

void FublTrainingJob::work(const std::shared_ptr<Run>& run, JobContext& context) {
  const FublTrainingSettings& s = run->settings;
  ccg::SemanticExamplesLoad train = ccg::loadSemanticExamples(toNativePath(s.trainingPath));
  run->diagnostics.append(train.diagnostics);
  if (!s.testPath.isEmpty()) {
    ccg::SemanticExamplesLoad test = ccg::loadSemanticExamples(toNativePath(s.testPath));
    run->diagnostics.append(test.diagnostics);
    run->test = std::move(test.examples);
  }
  QString typesPath = s.typesPath;
  QString langPath = s.langPath;
  if ((typesPath.isEmpty() || langPath.isEmpty()) &&
      !findCcgTypeFiles(s.trainingPath, &typesPath, &langPath)) {
    run->diagnostics.error(toNativePath(s.trainingPath), 0, 0,
                           "no type system: NAME.types and NAME.lang beside the training file, "
                           "or geo-lambda.types and geo-lambda.lang in its folder or one above");
  } else {
    ccg::TypeSystemLoad types =
        ccg::loadTypeSystem(toNativePath(typesPath), toNativePath(langPath));
    run->diagnostics.append(types.diagnostics);
    run->types = std::make_shared<ccg::TypeSystem>(std::move(types.types));
  }
  ccg::FactoredLexicon fixed;
  if (!s.fixedLexiconPath.isEmpty()) {
    ccg::LexiconLoad load = ccg::loadFixedLexicon(toNativePath(s.fixedLexiconPath));
    run->diagnostics.append(load.diagnostics);
    fixed = std::move(load.lexicon);
  }
  if (train.examples.empty() && !run->diagnostics.hasErrors()) {
    run->diagnostics.error(toNativePath(s.trainingPath), 0, 0,
                           "no sentence / logical-form pairs in the training file");
  }
  if (run->diagnostics.hasErrors() || !run->types) {
    run->error = errorLines(run->diagnostics);
    return;
  }
  run->training = train.examples;
  if (s.testPath.isEmpty()) run->test = train.examples;

  ccg::FublOptions options;
  options.passes = s.passes;
  options.seed = s.seed;
  options.parser.beam = s.beam;
  options.threads = s.threads;
  options.coolingRate = s.cooling;
  options.pruneAfterLastPass = !s.keepLexicon;
  options.averageWeights = s.averageWeights;
  options.keepPosterior = s.keepPosterior;
  ccg::FublLearner learner(*run->types, options);
  learner.initialise(run->training, fixed);
  context.post([this, examples = static_cast<int>(run->training.size()),
                lexemes = static_cast<int>(learner.lexicon().lexemes().size()),
                templates = static_cast<int>(learner.lexicon().templates().size())] {
    emit loaded(examples, lexemes, templates);
  });
  // The file keeps the parser settings without the type system (a pointer); readers set it.
  ccg::CkyOptions fileParser = learner.options().parser;
  fileParser.types = nullptr;
  JobObserver observer(this, context, run, fileParser, run->exampleHook);
  const ccg::FublControl control{&observer, &context.cancelFlag()};
  for (int pass = 0; pass < s.passes; ++pass) {
    if (learner.runPass(control).cancelled) {
      run->cancelled = true;
      break;
    }
    if (!run->error.isEmpty()) return;  // the model could not be written
  }
  if (!run->cancelled && options.pruneAfterLastPass && s.passes > 0) {
    // Only the items of the training examples' best (and likely) correct parses (fubl_learner.h),
    // saved again. Cancelled on the way, the run keeps the last pass's model (saved after that
    // pass).
    if (learner.pruneToBestCorrectParses(control).cancelled) {
      run->cancelled = true;
    } else {
      auto pruned = std::make_shared<ccg::FactoredLexicon>(learner.model());
      std::string error;
      if (!ccg::saveCcgModel(*pruned, fileParser, toNativePath(s.effectiveModelPath()), &error)) {
        run->error = toQString(error);
        return;
      }
      run->model = std::move(pruned);
    }
  }
  // The parser a model file gives (beam, combinators, root types), type-checked as in training: the
  // evaluation and the CCG tab parse with these.
  run->parser = ccg::CkyOptions();
  run->parser.beam = options.parser.beam;
  run->parser.combinators = options.parser.combinators;
  run->parser.rootTypes = learner.options().parser.rootTypes;  // the training forms' types
  run->parser.types = run->types.get();                        // the job keeps run->types
  if (!run->model) run->model = std::make_shared<ccg::FactoredLexicon>(learner.model());
  if (run->cancelled || context.cancelRequested()) {
    run->cancelled = true;
    return;
  }
  context.post([this] { emit evaluating(); });
  ccg::EvaluationOptions evaluation;
  evaluation.threads = s.threads;
  evaluation.diagnoseErrors = true;  // the Evaluation page says why each wrong answer was wrong
  run->evaluation = ccg::evaluateSemanticParser(*run->model, run->parser, run->test, evaluation);
  run->evaluated = true;
}

void FublTrainingJob::onWorkerFinished() {
  const std::shared_ptr<Run> run = std::move(run_);
  if (!run) return;
  types_ = run->types;
  model_ = run->model;
  parser_ = run->parser;
  training_ = std::move(run->training);
  test_ = std::move(run->test);
  evaluation_ = std::move(run->evaluation);
  evaluated_ = run->evaluated;
  cancelled_ = run->cancelled;
  diagnostics_ = std::move(run->diagnostics);
  errorText_ = backgroundJob().errorText().isEmpty() ? run->error : backgroundJob().errorText();
  emit finished();
}

}  // namespace gwb::ui
