// FublTrainingJob: one FUBL training run (gwb/ccg/fubl_learner.h, Kwiatkowski et al. 2011) on a
// worker thread, reported to the UI thread — what `gwb ccg train` does, for the workbench.
//
// FublTrainingSettings is what the learner panel's form holds: the training file (sentence /
// logical-form pairs), an optional fixed entity lexicon (np-fixedlex.geo), an optional test file,
// the number of passes, the seed, and where the model goes. Types: NAME.types and NAME.lang beside
// the training file NAME.ccg (samples/ccg/geography.*), else geo-lambda.types/.lang in its folder
// or a folder above (GeoQuery's layout, as `gwb ccg train` finds them).
//
// The job reads everything on its worker, initialises the learner and runs the passes with an
// observer that posts each report: exampleDone per example (thinned to the last of every 1/50th
// of a pass and the pass's last example, so a pass never sends more than ~50), passFinished per
// finished pass (exactly the core PassSummary), then pruningProgress while the final pruning
// re-parses the training examples (thinned the same way). After each finished pass the model is
// written with core's saveCcgModel (atomic: a temporary file, then a rename), so a cancelled or
// failed run leaves the last finished pass's model on disk, and the job keeps that same lexicon
// as its result (a run cancelled during the final pruning too). After the last pass and the
// pruning (not after a cancel) the model is evaluated on the test file (the training file when
// none is given) with core's evaluateSemanticParser on `threads` threads.
//
// cancel() sets the flag core polls between two examples. Every signal is emitted on the thread
// that owns the job, in order; finished() comes last. Deleting a running job cancels it and waits.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/fubl_learner.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/common/diagnostic.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

struct FublTrainingSettings {
  QString trainingPath;
  QString fixedLexiconPath;  // empty: none
  QString testPath;          // empty: evaluate on the training file
  QString modelPath;         // empty: NAME.ccgmodel beside the training file
  QString typesPath;         // empty: found beside the data (see above)
  QString langPath;
  int passes = 5;    // FublOptions::passes
  quint64 seed = 0;  // 0: the examples in file order every pass
  int beam = 200;
  int threads = 1;              // training (FublOptions::threads) and evaluation parses
  double cooling = 1e-5;        // FublOptions::coolingRate: c of α0 / (1 + c·k)
  bool keepLexicon = false;     // !FublOptions::pruneAfterLastPass
  bool averageWeights = false;  // FublOptions::averageWeights (not in the paper)
  double keepPosterior = gwb::ccg::FublOptions().keepPosterior;  // not in the paper

  QString effectiveModelPath() const;
};

// The .types and .lang for a data file (see the header comment); false when none is found.
bool findCcgTypeFiles(const QString& dataPath, QString* typesPath, QString* langPath);

class FublTrainingJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(FublTrainingJob)

 public:
  explicit FublTrainingJob(QObject* parent = nullptr);
  ~FublTrainingJob() override;

  // False (nothing happens) while a run is going.
  bool start(const FublTrainingSettings& settings);

  // Tests: called on the worker after each example's report (to cancel deterministically).
  void setExampleHookForTesting(std::function<void(const gwb::ccg::FublProgress&)> hook) {
    exampleHook_ = std::move(hook);
  }

  // After finished(): the run's outcome. The model is the last finished pass's (null before the
  // first pass ends); types, examples and evaluation belong to it.
  const FublTrainingSettings& settings() const { return settings_; }
  std::shared_ptr<gwb::ccg::FactoredLexicon> model() const { return model_; }
  std::shared_ptr<const gwb::ccg::TypeSystem> types() const { return types_; }
  // The parser settings of the model (CkyOptions::types pointing at types()).
  const gwb::ccg::CkyOptions& parserOptions() const { return parser_; }
  const std::vector<gwb::ccg::PassSummary>& passes() const { return passes_; }
  const std::vector<gwb::ccg::SemanticExample>& trainingExamples() const { return training_; }
  // The evaluated sentences (the test file's, or the training file's when none was given).
  const std::vector<gwb::ccg::SemanticExample>& testExamples() const { return test_; }
  bool evaluated() const { return evaluated_; }
  const gwb::ccg::EvaluationResult& evaluation() const { return evaluation_; }
  bool wasCancelled() const { return cancelled_; }
  // Reading errors, a model that could not be written, or what the work threw; empty if none.
  QString errorText() const { return errorText_; }
  const gwb::Diagnostics& diagnostics() const { return diagnostics_; }

  // What one run's worker makes (defined in the .cpp; public only for its observer there).
  struct Run;

 signals:
  // The inputs are read and the learner initialised.
  void loaded(int examples, int lexemes, int templates);
  void exampleDone(int pass, int example, int examples);
  void passFinished(const gwb::ccg::PassSummary& summary);
  // The final pruning (fubl_learner.h) has re-parsed `example` of the `examples` training pairs.
  void pruningProgress(int example, int examples);
  void evaluating();
  void finished();

 private:
  void work(const std::shared_ptr<Run>& run, JobContext& context);
  void onWorkerFinished();

  FublTrainingSettings settings_;
  std::shared_ptr<gwb::ccg::FactoredLexicon> model_;
  std::shared_ptr<const gwb::ccg::TypeSystem> types_;
  gwb::ccg::CkyOptions parser_;
  std::vector<gwb::ccg::PassSummary> passes_;
  std::vector<gwb::ccg::SemanticExample> training_;
  std::vector<gwb::ccg::SemanticExample> test_;
  gwb::ccg::EvaluationResult evaluation_;
  bool evaluated_ = false;
  bool cancelled_ = false;
  QString errorText_;
  gwb::Diagnostics diagnostics_;
  std::function<void(const gwb::ccg::FublProgress&)> exampleHook_;
  std::shared_ptr<Run> run_;
};

}  // namespace gwb::ui
