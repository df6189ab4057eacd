// The workbench's jobs that run off the UI thread — induction, experiments, the Earley parse, the
// DS parse, DS lexicon learning, discourse decoding, transition counts, FUBL training and the CCG
// parse — each run
// through its BackgroundJob (with two batch threads where the job has a batch), with the UI thread
// reading their reports as they come, and compared with the same job on one thread (no result may
// depend on the thread count) or with the core run directly. These tests are also the
// ThreadSanitizer suite of the UI (gwb_ui_thread_tests, tests/ui/tsan/): every hand-over between a
// worker and the UI thread is exercised here. No test waits on the clock: each waits for
// finished().
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/cky_replay.h"
#include "gwb/ccg/fubl_learner.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/ccg/term.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/hypothesis_search.h"
#include "gwb/ds/lexicon_learner.h"
#include "gwb/ds/semantic_corpus.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "gwb/grounded/social_grammar.h"
#include "gwb/grounded/topic_transitions.h"
#include "shared_data.h"
#include "ui/ccg/ccg_parse_job.h"
#include "ui/ccg/fubl_training_job.h"
#include "ui/common/background_job.h"
#include "ui/ds/ds_learning_job.h"
#include "ui/ds/ds_parse_job.h"
#include "ui/earley/induction_job.h"
#include "ui/earley/parse_session.h"
#include "ui/grounded/discourse_data.h"
#include "ui/grounded/discourse_decoding_job.h"
#include "ui/grounded/experiment_job.h"
#include "ui/grounded/transition_count_job.h"

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
  ASSERT_TRUE(processEventsWhileBusy([&done] { return !done; },
                                     [&job] { job.backgroundJob().wait(10); }, kTimeoutMs));
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

TEST(ThreadedJobsTest, ADsParseJobGivesTheResultOfADirectParse) {
  const std::string toy = gwb::testing::sourceDir() + "/tests/data/ds/toy";
  const gwb::ds::DsGrammarLoad load = gwb::ds::loadDsGrammar(toy);
  ASSERT_TRUE(load.ok());
  const std::vector<std::string> words{"ann", "sleeps", "quietly"};
  const gwb::ds::DsParseResult direct = gwb::ds::DsParser(load.grammar).parse(words);
  ASSERT_EQ(direct.outcome, gwb::ds::ParseOutcome::Parsed);

  DsParseJob job;
  bool done = false;
  int progressReports = 0;
  QObject::connect(&job, &DsParseJob::finished, &job, [&done] { done = true; });
  QObject::connect(&job.backgroundJob(), &BackgroundJob::progress, &job,
                   [&progressReports](qint64, qint64) { ++progressReports; });
  DsParseRequest request;
  request.directory = QString::fromStdString(toy);  // no grammar: the job loads it
  request.words = words;
  ASSERT_TRUE(job.start(request));
  EXPECT_FALSE(job.start(request)) << "one parse at a time";
  ASSERT_TRUE(finish(job, done));
  std::shared_ptr<const DsParseOutcome> outcome = job.outcome();
  ASSERT_TRUE(outcome);
  EXPECT_TRUE(outcome->error.isEmpty()) << outcome->error.toStdString();
  ASSERT_TRUE(outcome->grammar) << "the loaded grammar comes back for the next parse";
  ASSERT_TRUE(outcome->result);
  EXPECT_EQ(outcome->words, words);
  EXPECT_EQ(outcome->result->outcome, direct.outcome);
  EXPECT_EQ(outcome->result->finalNode, direct.finalNode);
  EXPECT_EQ(outcome->result->path, direct.path);
  EXPECT_FALSE(outcome->result->cancelled);
  EXPECT_EQ(progressReports, 0) << "a DS parse reports no progress";

  // Again with the grammar the first parse loaded: the same result, and the grammar is kept.
  request.grammar = outcome->grammar;
  done = false;
  ASSERT_TRUE(job.start(request));
  ASSERT_TRUE(finish(job, done));
  ASSERT_TRUE(job.outcome() && job.outcome()->result);
  EXPECT_EQ(job.outcome()->grammar, outcome->grammar);
  EXPECT_EQ(job.outcome()->result->path, direct.path);

  // A folder that is not a grammar: the error, no result.
  request.grammar = nullptr;
  request.directory = QString::fromStdString(gwb::testing::sourceDir() + "/tests/data/ds/broken");
  done = false;
  ASSERT_TRUE(job.start(request));
  ASSERT_TRUE(finish(job, done));
  EXPECT_TRUE(job.outcome()->error.contains(QStringLiteral("computational-actions.txt:4:9")))
      << job.outcome()->error.toStdString();
  EXPECT_FALSE(job.outcome()->result);
  EXPECT_FALSE(job.outcome()->grammar);
}

// The sample CCG lexicon (samples/ccg/geography.*), type-checked as the CCG tab reads it.
struct SampleCcg {
  ccg::TypeSystem types;
  std::shared_ptr<ccg::FactoredLexicon> lexicon;
  ccg::CkyOptions options;
};

std::unique_ptr<SampleCcg> sampleCcg() {
  const std::string data = gwb::testing::sourceDir() + "/samples/ccg/geography";
  ccg::TypeSystemLoad types = ccg::loadTypeSystem(data + ".types", data + ".lang");
  ccg::LexiconLoad lexicon = ccg::loadFactoredLexicon(data + ".flex");
  EXPECT_FALSE(types.diagnostics.hasErrors() || lexicon.diagnostics.hasErrors());
  auto sample = std::make_unique<SampleCcg>();
  sample->types = std::move(types.types);
  sample->lexicon = std::make_shared<ccg::FactoredLexicon>(std::move(lexicon.lexicon));
  sample->lexicon->buildEntries(&sample->types);
  sample->options.types = &sample->types;
  return sample;
}

std::vector<std::string> ccgWords(const std::string& sentence) {
  std::vector<std::string> words;
  std::istringstream in(sentence);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The CCG tab's parse through its job: the chart, the k best parses and the replay of the fill
// are those of the core parser run directly; a word the lexicon lacks is no parse, not an error.
TEST(ThreadedJobsTest, ACcgParseJobGivesTheChartOfADirectParse) {
  const auto sample = sampleCcg();
  ASSERT_GT(sample->lexicon->entryCount(), 0U);
  const std::vector<std::string> words = ccgWords("what are the major cities in ohio");
  const ccg::CkyChart direct(*sample->lexicon, words, sample->options);
  const std::vector<ccg::Derivation> best = direct.kBest(3);
  const std::vector<ccg::CkyReplayStep> steps = ccg::ckyReplay(direct);
  ASSERT_TRUE(direct.hasParse());

  CcgParseJob job;
  CcgParseRequest request;
  request.lexicon = sample->lexicon;
  request.words = words;
  request.options = sample->options;
  request.kBest = 3;
  ASSERT_TRUE(job.start(request));
  EXPECT_FALSE(job.start(request)) << "one parse at a time";
  ASSERT_TRUE(job.waitAndFinish(kTimeoutMs));
  EXPECT_FALSE(job.isBusy());
  std::shared_ptr<const CcgParseOutcome> outcome = job.outcome();
  ASSERT_TRUE(outcome);
  EXPECT_TRUE(outcome->error.isEmpty()) << outcome->error.toStdString();
  EXPECT_FALSE(outcome->cancelled);
  ASSERT_TRUE(outcome->chart);
  EXPECT_EQ(outcome->lexicon, sample->lexicon) << "the outcome keeps the chart's lexicon";
  EXPECT_EQ(outcome->words, words);
  const ccg::CkyChart& chart = *outcome->chart;
  EXPECT_EQ(chart.entryCount(), direct.entryCount());
  EXPECT_EQ(chart.edgesMade(), direct.edgesMade());
  EXPECT_EQ(chart.events().size(), direct.events().size());
  EXPECT_EQ(chart.logPartition(), direct.logPartition());
  EXPECT_EQ(chart.roots(), direct.roots());
  ASSERT_EQ(outcome->derivations.size(), best.size());
  for (std::size_t r = 0; r < best.size(); ++r) {
    EXPECT_EQ(outcome->derivations[r].score, best[r].score) << r;
    EXPECT_EQ(outcome->derivations[r].logProbability, best[r].logProbability) << r;
    EXPECT_EQ(ccg::toString(outcome->derivations[r].logicalForm),
              ccg::toString(best[r].logicalForm))
        << r;
  }
  ASSERT_EQ(outcome->steps.size(), steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(outcome->steps[i].kind, steps[i].kind) << i;
    EXPECT_EQ(outcome->steps[i].begin, steps[i].begin) << i;
    EXPECT_EQ(outcome->steps[i].end, steps[i].end) << i;
    EXPECT_EQ(outcome->steps[i].entry, steps[i].entry) << i;
    EXPECT_EQ(outcome->steps[i].edge, steps[i].edge) << i;
  }
  EXPECT_EQ(outcome->cells, 7 * 8 / 2);

  // A word the lexicon does not have: the chart is filled, it holds no parse, and that is no
  // error.
  request.words = ccgWords("what zorbs border texas");
  ASSERT_TRUE(job.start(request));
  ASSERT_TRUE(job.waitAndFinish(kTimeoutMs));
  ASSERT_TRUE(job.outcome() && job.outcome()->chart);
  EXPECT_TRUE(job.outcome()->error.isEmpty()) << job.outcome()->error.toStdString();
  EXPECT_FALSE(job.outcome()->chart->hasParse());
  EXPECT_TRUE(job.outcome()->derivations.empty());
  EXPECT_NE(job.outcome(), outcome) << "each parse has an outcome of its own";
  EXPECT_TRUE(outcome->chart) << "an outcome the owner holds is not written again";
}

// Cancel lands before the fill starts whatever the machine's speed: the hook, on the worker
// before the chart is built, cancels the job itself; the chart's cancel flag then stops the fill
// before its first cell.
TEST(ThreadedJobsTest, ACcgParseJobCancelledBeforeTheFillKeepsNoChart) {
  const auto sample = sampleCcg();
  CcgParseJob job;
  int hookCalls = 0;
  job.setParseHookForTesting([&job, &hookCalls] {
    ++hookCalls;  // read by the test only after the job finished
    job.cancel();
  });
  CcgParseRequest request;
  request.lexicon = sample->lexicon;
  request.words = ccgWords("what states border texas");
  request.options = sample->options;
  ASSERT_TRUE(job.start(request));
  ASSERT_TRUE(job.waitAndFinish(kTimeoutMs));
  EXPECT_EQ(hookCalls, 1);
  ASSERT_TRUE(job.outcome());
  EXPECT_TRUE(job.outcome()->cancelled);
  EXPECT_TRUE(job.outcome()->error.isEmpty()) << job.outcome()->error.toStdString();
  EXPECT_FALSE(job.outcome()->chart);
  EXPECT_TRUE(job.outcome()->derivations.empty());
  EXPECT_EQ(job.outcome()->cellsFilled, 0);
  EXPECT_EQ(job.outcome()->cells, 10);

  // The next parse (no hook) runs to the end: a cancel does not outlive its run.
  job.setParseHookForTesting({});
  ASSERT_TRUE(job.start(request));
  ASSERT_TRUE(job.waitAndFinish(kTimeoutMs));
  ASSERT_TRUE(job.outcome() && job.outcome()->chart);
  EXPECT_FALSE(job.outcome()->cancelled);
  EXPECT_TRUE(job.outcome()->chart->hasParse());
}

// What the job cannot parse is an error in its outcome, never a crash: no lexicon, no words, a
// beam or k below 1, and work that throws (the hook stands in for a spent memory budget). The
// job parses again afterwards.
TEST(ThreadedJobsTest, ACcgParseJobReportsBadInputAsAnError) {
  const auto sample = sampleCcg();
  CcgParseRequest good;
  good.lexicon = sample->lexicon;
  good.words = ccgWords("what states border texas");
  good.options = sample->options;
  struct Case {
    const char* name;
    std::function<void(CcgParseRequest&)> spoil;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"no lexicon", [](CcgParseRequest& r) { r.lexicon = nullptr; }, "no lexicon to parse with"},
      {"no words", [](CcgParseRequest& r) { r.words.clear(); }, "no words to parse"},
      {"beam 0", [](CcgParseRequest& r) { r.options.beam = 0; },
       "the beam must keep at least 1 entry per cell (it is 0)"},
      {"k 0", [](CcgParseRequest& r) { r.kBest = 0; },
       "k must be at least 1 (the k best parses; it is 0)"},
  };
  CcgParseJob job;
  for (const Case& c : cases) {
    CcgParseRequest request = good;
    c.spoil(request);
    ASSERT_TRUE(job.start(request)) << c.name;
    ASSERT_TRUE(job.waitAndFinish(kTimeoutMs)) << c.name;
    ASSERT_TRUE(job.outcome()) << c.name;
    EXPECT_EQ(job.outcome()->error.toStdString(), c.error) << c.name;
    EXPECT_FALSE(job.outcome()->chart) << c.name;
    EXPECT_FALSE(job.outcome()->cancelled) << c.name;
  }
  job.setParseHookForTesting([] { throw std::runtime_error("out of memory for the chart"); });
  ASSERT_TRUE(job.start(good));
  ASSERT_TRUE(job.waitAndFinish(kTimeoutMs));
  ASSERT_TRUE(job.outcome());
  EXPECT_TRUE(job.outcome()->error.contains(QStringLiteral("out of memory for the chart")))
      << job.outcome()->error.toStdString();
  EXPECT_FALSE(job.outcome()->chart);

  job.setParseHookForTesting({});
  ASSERT_TRUE(job.start(good));
  ASSERT_TRUE(job.waitAndFinish(kTimeoutMs));
  ASSERT_TRUE(job.outcome() && job.outcome()->chart);
  EXPECT_TRUE(job.outcome()->error.isEmpty());
  EXPECT_TRUE(job.outcome()->chart->hasParse());
}

std::string grounded(const std::string& name) {
  return gwb::testing::sourceDir() + "/tests/data/grounded/" + name;
}

// The tiny corpus of tests/data/grounded with its recordings, and a discourse grammar made for
// it (in memory and as a file).
struct TinyCorpus {
  QTemporaryDir dir;
  DiscourseData data;
  gwb::Grammar grammar;
  std::string grammarPath;
};

std::unique_ptr<TinyCorpus> tinyCorpus() {
  auto tiny = std::make_unique<TinyCorpus>();
  gwb::Diagnostics diagnostics;
  EXPECT_TRUE(tiny->data.load(grounded("tiny.yld"), grounded("tiny.gold.yld"),
                              grounded("tiny.recordings.tsv"), diagnostics));
  gwb::SocialGrammarOptions options;
  options.kind = gwb::SocialGrammarKind::Discourse;
  options.cues = tiny->data.corpus().cueOrder;
  const gwb::SocialGrammarBuild build = gwb::generateSocialGrammar(tiny->data.corpus(), options);
  EXPECT_TRUE(build.ok());
  tiny->grammar = build.grammar;
  tiny->grammarPath = tiny->dir.filePath(QStringLiteral("tiny.grammar")).toStdString();
  EXPECT_TRUE(gwb::saveGrammarFile(build.grammar, tiny->grammarPath, gwb::GrammarFormat::Earleyx));
  return tiny;
}

struct DecodingRun {
  std::shared_ptr<ModelDecoding> result;
  QString error;
  qint64 lastDone = -1;
  qint64 lastTotal = -1;
};

DecodingRun decode(const DiscourseData& data, const std::string& grammarPath, int threads) {
  DiscourseDecodingJob job;
  DecodingRun run;
  bool done = false;
  QObject::connect(&job.backgroundJob(), &BackgroundJob::progress, &job,
                   [&run](qint64 reached, qint64 of) {
                     run.lastDone = reached;
                     run.lastTotal = of;
                   });
  QObject::connect(&job, &DiscourseDecodingJob::finished, &job, [&done] { done = true; });
  DiscourseDecodingRequest request;
  request.grammarPath = grammarPath;
  request.threads = threads;
  EXPECT_TRUE(job.start(&data, request));
  EXPECT_TRUE(finish(job, done));
  run.result = job.result();
  run.error = job.error();
  return run;
}

// DS lexicon learning on the worker: the UI thread hears one point per item, in corpus order,
// and the lexicon is the one core's learner gives when run directly; a cancel made while the
// second item is searched keeps the first two updates and never searches the third.
TEST(ThreadedJobsTest, ADsLearningJobGivesTheLexiconOfADirectRun) {
  GWB_REQUIRE_SHARED(seedFile,
                     "data/dylan/2013-english-ttr-induction-seed/computational-actions.txt");
  const std::string seedDir = seedFile.substr(0, seedFile.rfind('/'));
  const std::string train = gwb::testing::sourceDir() + "/tests/data/ds/eval/tiny-train.txt";
  const gwb::ds::DsGrammarLoad seed = gwb::ds::loadDsGrammar(seedDir);
  ASSERT_TRUE(seed.ok());
  gwb::Diagnostics diagnostics;
  const std::vector<gwb::ds::SemanticExample> corpus =
      gwb::ds::loadSemanticCorpus(train, diagnostics);
  ASSERT_FALSE(diagnostics.hasErrors());
  ASSERT_GE(corpus.size(), 3U);
  const gwb::ds::HypothesisSearch search(seed.grammar);
  gwb::ds::LearningOptions options;
  auto generate = [&](const gwb::ds::SemanticExample& example, std::size_t) {
    return search.hypotheses(example, {});
  };
  const gwb::ds::LearningResult direct = gwb::ds::learnLexicon(corpus, generate, options);

  DsLearningJob job;
  DsLearningSettings settings;
  settings.seedDirectory = QString::fromStdString(seedDir);
  settings.trainPath = QString::fromStdString(train);
  std::vector<qint64> items;
  bool done = false;
  QObject::connect(&job, &DsLearningJob::itemLearned, &job,
                   [&items](const LearningPoint& point) { items.push_back(point.items); });
  QObject::connect(&job, &DsLearningJob::finished, &job, [&done] { done = true; });
  ASSERT_TRUE(job.start(settings));
  EXPECT_FALSE(job.start(settings)) << "one run at a time";
  ASSERT_TRUE(processEventsWhileBusy([&done] { return !done; },
                                     [&job] { job.backgroundJob().wait(10); }, kTimeoutMs));
  ASSERT_TRUE(job.error().isEmpty()) << job.error().toStdString();
  ASSERT_TRUE(job.hasResult());
  std::vector<qint64> expected;
  for (std::size_t i = 1; i <= corpus.size(); ++i) expected.push_back(static_cast<qint64>(i));
  EXPECT_EQ(items, expected);
  EXPECT_EQ(gwb::ds::losslessLexiconText(job.result().em), gwb::ds::losslessLexiconText(direct.em));

  // Cancelled from the worker's hook while the second item is searched: two updates kept.
  const std::vector<gwb::ds::SemanticExample> firstTwo(corpus.begin(), corpus.begin() + 2);
  const gwb::ds::LearningResult two = gwb::ds::learnLexicon(firstTwo, generate, options);
  std::vector<std::size_t> searched;
  job.setItemHook([&job, &searched](std::size_t item) {
    searched.push_back(item);  // on the worker; read after finished()
    if (item == 1) job.cancel();
  });
  done = false;
  ASSERT_TRUE(job.start(settings));
  ASSERT_TRUE(processEventsWhileBusy([&done] { return !done; },
                                     [&job] { job.backgroundJob().wait(10); }, kTimeoutMs));
  ASSERT_TRUE(job.hasResult());
  EXPECT_TRUE(job.result().cancelled);
  EXPECT_EQ(searched, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(gwb::ds::losslessLexiconText(job.result().em), gwb::ds::losslessLexiconText(two.em));
}

TEST(ThreadedJobsTest, DiscourseDecodingOnTwoThreadsEqualsOneThread) {
  const auto tiny = tinyCorpus();
  const DecodingRun one = decode(tiny->data, tiny->grammarPath, 1);
  const DecodingRun two = decode(tiny->data, tiny->grammarPath, 2);
  EXPECT_TRUE(two.error.isEmpty()) << two.error.toStdString();
  ASSERT_TRUE(one.result && two.result);
  EXPECT_TRUE(two.result->discourse);
  EXPECT_FALSE(two.result->cancelled);
  EXPECT_EQ(two.result->grammarPath, tiny->grammarPath);
  EXPECT_EQ(two.result->grammarName, "tiny.grammar");
  EXPECT_FALSE(two.result->root.empty());
  // A discourse grammar parses each recording as one string: progress counts recordings.
  const auto recordings = static_cast<qint64>(tiny->data.recordings().size());
  EXPECT_EQ(two.lastDone, recordings);
  EXPECT_EQ(two.lastTotal, recordings);
  ASSERT_EQ(two.result->utterances.size(), tiny->data.utteranceCount());
  ASSERT_EQ(one.result->utterances.size(), two.result->utterances.size());
  for (std::size_t i = 0; i < one.result->utterances.size(); ++i) {
    EXPECT_EQ(one.result->utterances[i].topic, two.result->utterances[i].topic) << i;
    EXPECT_EQ(one.result->utterances[i].wordTopics, two.result->utterances[i].wordTopics) << i;
  }
  EXPECT_EQ(one.result->failures, two.result->failures);
  EXPECT_EQ(one.result->treeOfUtterance, two.result->treeOfUtterance);
  EXPECT_EQ(one.result->nodeOfUtterance, two.result->nodeOfUtterance);

  // A grammar file that does not exist: the error, and the decoding names the file.
  const DecodingRun missing = decode(tiny->data, tiny->grammarPath + ".missing", 2);
  EXPECT_FALSE(missing.error.isEmpty());
  ASSERT_TRUE(missing.result);
  EXPECT_EQ(missing.result->grammarPath, tiny->grammarPath + ".missing");
}

struct CountRun {
  std::vector<std::shared_ptr<gwb::TransitionCounts>> counts;
  QString error;
  bool cancelled = true;
  qint64 lastDone = -1;
  qint64 lastTotal = -1;
};

CountRun countTransitions(const TinyCorpus& tiny, int threads) {
  const auto grammar = std::make_shared<const gwb::Grammar>(tiny.grammar);
  std::string message;
  const auto transitions = gwb::topicTransitions(*grammar, &message);
  EXPECT_TRUE(transitions) << message;
  if (!transitions) return {};
  TransitionCountJob job;
  CountRun run;
  bool done = false;
  QObject::connect(&job.backgroundJob(), &BackgroundJob::progress, &job,
                   [&run](qint64 reached, qint64 of) {
                     EXPECT_GE(reached, run.lastDone) << "progress goes forward";
                     run.lastDone = reached;
                     run.lastTotal = of;
                   });
  QObject::connect(&job, &TransitionCountJob::finished, &job, [&done] { done = true; });
  // The grammar twice, as the difference view counts its two grammars one after the other.
  std::vector<TransitionCountSource> sources{{grammar, *transitions}, {grammar, *transitions}};
  EXPECT_TRUE(job.start(&tiny.data.corpus(), &tiny.data.recordings(), sources, threads));
  EXPECT_TRUE(finish(job, done));
  run.counts = job.counts();
  run.error = job.error();
  run.cancelled = job.cancelled();
  return run;
}

TEST(ThreadedJobsTest, TransitionCountsOnTwoThreadsEqualOneThread) {
  const auto tiny = tinyCorpus();
  const CountRun one = countTransitions(*tiny, 1);
  const CountRun two = countTransitions(*tiny, 2);
  EXPECT_TRUE(two.error.isEmpty()) << two.error.toStdString();
  EXPECT_FALSE(two.cancelled);
  ASSERT_EQ(one.counts.size(), 2U);
  ASSERT_EQ(two.counts.size(), 2U);
  const auto recordings = static_cast<qint64>(tiny->data.recordings().size());
  EXPECT_EQ(two.lastDone, 2 * recordings) << "progress runs over both sources";
  EXPECT_EQ(two.lastTotal, 2 * recordings);
  for (std::size_t s = 0; s < 2; ++s) {
    EXPECT_EQ(two.counts[s]->strings, static_cast<std::size_t>(recordings)) << s;
    EXPECT_EQ(one.counts[s]->strings, two.counts[s]->strings) << s;
    EXPECT_EQ(one.counts[s]->failures, two.counts[s]->failures) << s;
    EXPECT_EQ(one.counts[s]->transition, two.counts[s]->transition) << s;
    EXPECT_EQ(one.counts[s]->ending, two.counts[s]->ending) << s;
    EXPECT_EQ(one.counts[s]->initial, two.counts[s]->initial) << s;
  }
  EXPECT_EQ(two.counts[0]->transition, two.counts[1]->transition);
  // 3 utterances in 2 recordings: one transition, two endings, two starts.
  EXPECT_NEAR(two.counts[0]->transition.sum(), 1.0, 1e-9);
  EXPECT_NEAR(two.counts[0]->ending.sum(), 2.0, 1e-9);
  EXPECT_NEAR(two.counts[0]->initial.sum(), 2.0, 1e-9);
}

}  // namespace
}  // namespace gwb::ui
