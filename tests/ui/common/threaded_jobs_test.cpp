// The workbench's jobs that run on several threads — induction, experiments, the Earley parse,
// FUBL training —
// each run through its BackgroundJob with two batch threads, with the UI thread reading their
// reports as they come, and compared with the same job on one thread (no result may depend on
// the thread count) or with the core run directly. These tests are also the ThreadSanitizer
// suite of the UI (gwb_ui_thread_tests, tests/ui/tsan/): every hand-over between a worker and
// the UI thread is exercised here. No test waits on the clock: each waits for finished().
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/fubl_learner.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"
#include "ui/ccg/fubl_training_job.h"
#include "ui/common/background_job.h"
#include "ui/earley/induction_job.h"
#include "ui/earley/parse_session.h"
#include "ui/grounded/experiment_job.h"

namespace gwb::ui {
namespace {

namespace ccg = gwb::ccg;

constexpr int kTimeoutMs = 600000;  // only "it did not hang"

QString sourceFile(const std::string& relative) {
  return QString::fromStdString(gwb::testing::sourceDir() + "/" + relative);
}

// Runs the UI thread's events until `done` holds (set by a finished() handler).
template <typename Job>
bool finish(Job& job, const bool& done) {
  return processEventsWhileBusy([&done] { return !done; }, [&job] { job.wait(10); }, kTimeoutMs);
}

struct InductionOutcome {
  std::vector<gwb::IterationRecord> records;
  std::string grammar;
  int progressReports = 0;
};

InductionOutcome induce(int threads) {
  InductionSettings settings;
  settings.grammarPath = sourceFile("samples/pp-attachment.cfg");
  settings.corpusPath = sourceFile("samples/pp-attachment.txt");
  settings.method = gwb::InductionMethod::Vb;
  settings.iterations = 4;
  settings.tolerance = 0.0;
  settings.threads = threads;
  InductionJob job(settings);
  InductionOutcome outcome;
  bool done = false;
  QObject::connect(&job, &InductionJob::progress, &job,
                   [&outcome](int, qint64, qint64) { ++outcome.progressReports; });
  QObject::connect(
      &job, &InductionJob::iterationFinished, &job,
      [&outcome](const gwb::IterationRecord& record) { outcome.records.push_back(record); });
  QObject::connect(&job, &InductionJob::finished, &job, [&done] { done = true; });
  job.start();
  EXPECT_TRUE(finish(job, done));
  EXPECT_TRUE(job.result().ok()) << job.result().message;
  EXPECT_EQ(job.result().records.size(), outcome.records.size());
  std::ostringstream grammar;
  EXPECT_TRUE(gwb::writeEarleyx(job.result().grammar, grammar));
  outcome.grammar = grammar.str();
  return outcome;
}

TEST(ThreadedJobsTest, InductionOnTwoThreadsEqualsOneThread) {
  const InductionOutcome one = induce(1);
  const InductionOutcome two = induce(2);
  ASSERT_EQ(two.records.size(), 4U);
  ASSERT_EQ(one.records.size(), two.records.size());
  for (std::size_t i = 0; i < one.records.size(); ++i)
    EXPECT_EQ(one.records[i].negLogLikelihood, two.records[i].negLogLikelihood) << i;
  EXPECT_EQ(one.grammar, two.grammar);
  EXPECT_GT(two.progressReports, 0);
}

struct ExperimentRun {
  std::vector<ExperimentOutcome> outcomes;
  int iterations = 0;
  QString error;
};

ExperimentRun experiment(int threads) {
  ExperimentSpec spec;
  spec.corpusPath = sourceFile("tests/data/grounded/tiny.yld");
  spec.goldPath = sourceFile("tests/data/grounded/tiny.gold.yld");
  spec.recordingsPath = sourceFile("tests/data/grounded/tiny.recordings.tsv");
  spec.model = gwb::SocialModel::Vb;
  spec.iterations = 3;
  spec.tolerance = 0.0;  // exactly three iterations a seed
  spec.seeds = {1, 2};
  spec.threads = threads;
  ExperimentJob job(spec);
  ExperimentRun run;
  bool done = false;
  QObject::connect(&job, &ExperimentJob::iterationFinished, &job,
                   [&run](int, const gwb::IterationRecord&) { ++run.iterations; });
  QObject::connect(&job, &ExperimentJob::seedFinished, &job,
                   [&run](const ExperimentOutcome& outcome) { run.outcomes.push_back(outcome); });
  QObject::connect(&job, &ExperimentJob::finished, &job, [&done] { done = true; });
  job.start();
  EXPECT_TRUE(finish(job, done));
  run.error = job.error();
  return run;
}

TEST(ThreadedJobsTest, ExperimentOnTwoThreadsEqualsOneThread) {
  const ExperimentRun one = experiment(1);
  const ExperimentRun two = experiment(2);
  EXPECT_TRUE(two.error.isEmpty()) << two.error.toStdString();
  ASSERT_EQ(two.outcomes.size(), 2U);
  EXPECT_EQ(two.iterations, 6);
  ASSERT_EQ(one.outcomes.size(), two.outcomes.size());
  for (std::size_t s = 0; s < one.outcomes.size(); ++s) {
    EXPECT_EQ(one.outcomes[s].seed, two.outcomes[s].seed);
    EXPECT_EQ(one.outcomes[s].negLogLikelihood, two.outcomes[s].negLogLikelihood) << s;
  }
}

TEST(ThreadedJobsTest, AParseJobGivesTheSessionOfADirectRun) {
  auto load = gwb::loadGrammarFile(sourceFile("samples/pp-attachment.cfg").toStdString());
  ASSERT_TRUE(load.ok());
  ParseRequest request;
  request.grammar = std::make_shared<const gwb::Grammar>(std::move(load.grammar));
  request.words = gwb::tokenize("i saw the man with the telescope");
  const std::shared_ptr<const ParseSession> direct = ParseSession::run(request);
  ASSERT_TRUE(direct);

  ParseJob job(request);
  std::shared_ptr<const ParseSession> session;
  bool done = false;
  QObject::connect(&job, &ParseJob::finished, &job, [&](std::shared_ptr<const ParseSession> made) {
    session = std::move(made);
    done = true;
  });
  job.start();
  ASSERT_TRUE(finish(job, done));
  ASSERT_TRUE(session) << job.errorText().toStdString();
  EXPECT_TRUE(session->result().success);
  EXPECT_EQ(session->result().success, direct->result().success);
  EXPECT_EQ(session->result().logPrefixProbability, direct->result().logPrefixProbability);
  EXPECT_EQ(session->stepCount(), direct->stepCount());
  EXPECT_EQ(job.progress(), static_cast<int>(request.words.size()));
}

// FUBL training on the sample pairs, two evaluation threads: the UI thread hears every pass
// the core learner makes, and the model kept, saved and evaluated is the direct run's.
TEST(ThreadedJobsTest, AFublTrainingJobGivesTheModelOfADirectRun) {
  const std::string data = gwb::testing::sourceDir() + "/samples/ccg/geography";
  const ccg::TypeSystemLoad types = ccg::loadTypeSystem(data + ".types", data + ".lang");
  const ccg::SemanticExamplesLoad pairs = ccg::loadSemanticExamples(data + ".ccg");
  ASSERT_FALSE(types.diagnostics.hasErrors() || pairs.diagnostics.hasErrors());
  ccg::FublOptions options;
  options.passes = 3;
  ccg::FublLearner direct(types.types, options);
  direct.train(pairs.examples, ccg::FactoredLexicon());

  QTemporaryDir scratch;
  ASSERT_TRUE(scratch.isValid());
  FublTrainingSettings settings;
  settings.trainingPath = QString::fromStdString(data + ".ccg");
  settings.modelPath = scratch.filePath(QStringLiteral("geography.ccgmodel"));
  settings.passes = 3;
  settings.threads = 2;
  FublTrainingJob job;
  std::vector<int> passes;
  int examples = 0;
  bool done = false;
  QObject::connect(&job, &FublTrainingJob::exampleDone, &job, [&](int, int, int) { ++examples; });
  QObject::connect(&job, &FublTrainingJob::passFinished, &job,
                   [&](const ccg::PassSummary& summary) { passes.push_back(summary.pass); });
  QObject::connect(&job, &FublTrainingJob::finished, &job, [&done] { done = true; });
  ASSERT_TRUE(job.start(settings));
  ASSERT_TRUE(processEventsWhileBusy([&done] { return !done; }, [&job] { job.worker().wait(10); },
                                     kTimeoutMs));
  ASSERT_TRUE(job.errorText().isEmpty()) << job.errorText().toStdString();
  EXPECT_EQ(passes, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(examples, 3 * static_cast<int>(pairs.examples.size()));
  ASSERT_NE(job.model(), nullptr);
  EXPECT_EQ(ccg::writeFactoredLexicon(*job.model()), ccg::writeFactoredLexicon(direct.lexicon()));
  ASSERT_TRUE(job.evaluated());
  ccg::CkyOptions parser;
  parser.types = &types.types;
  const ccg::EvaluationResult expected =
      ccg::evaluateSemanticParser(direct.lexicon(), parser, pairs.examples, {});
  EXPECT_EQ(job.evaluation().plain.correct, expected.plain.correct);
  EXPECT_EQ(job.evaluation().withSkipping.answered, expected.withSkipping.answered);
}

}  // namespace
}  // namespace gwb::ui
