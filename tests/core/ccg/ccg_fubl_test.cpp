#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/fubl_learner.h"
#include "gwb/ccg/semantic_examples.h"
#include "shared_data.h"
#include "synthetic_geography.h"

namespace gwb::ccg {
namespace {

// The tiny language of tests/support/synthetic_geography.h.
struct Language {
  TypeSystem types;
  std::vector<SemanticExample> train;
  std::vector<SemanticExample> test;
  FactoredLexicon fixed;
};

Language makeLanguage() {
  Language language;
  const gwb::testing::SyntheticGeography synthetic = gwb::testing::syntheticGeography();
  TypeSystemLoad types = readTypeSystem(synthetic.types, "types", synthetic.lang, "lang");
  EXPECT_FALSE(types.diagnostics.hasErrors());
  language.types = types.types;
  const std::string& train = synthetic.train;
  const std::string& test = synthetic.test;
  SemanticExamplesLoad trainLoad = readSemanticExamples(train, "train");
  SemanticExamplesLoad testLoad = readSemanticExamples(test, "test");
  EXPECT_FALSE(trainLoad.diagnostics.hasErrors() || testLoad.diagnostics.hasErrors());
  language.train = trainLoad.examples;
  language.test = testLoad.examples;
  LexiconLoad fixed = readFixedLexicon(synthetic.fixedLexicon, "fixed");
  EXPECT_FALSE(fixed.diagnostics.hasErrors());
  language.fixed = fixed.lexicon;
  return language;
}

TEST(CcgFublTest, InitialisationFollowsSectionEight) {
  const Language language = makeLanguage();
  FublLearner learner(language.types, {});
  learner.initialise(language.train, language.fixed);
  const FactoredLexicon& lexicon = learner.lexicon();
  EXPECT_EQ(lexicon.lexemes().size(), 9u + 4u);  // one per training pair, one per entity
  // Fixed-lexicon lexemes weigh 10; sentence lexemes 10 × Σ t(c | w) / (|w| · (|c| + 1)), UBL's.
  EXPECT_EQ(lexicon.weight("lexeme:texas :- texas:s"), 10.0);
  const Lexeme& first = lexicon.lexemes().front();
  EXPECT_DOUBLE_EQ(lexicon.weight(lexemeFeature(first)),
                   10.0 * learner.cooccurrence().lexemeScore(first.words, first.constants));
  double sum = 0;
  for (const std::string& word : first.words) {
    for (const std::string& constant : first.constants) {
      sum += learner.cooccurrence().probability(constant, word);
    }
  }
  EXPECT_DOUBLE_EQ(
      lexicon.weight(lexemeFeature(first)),
      10.0 * sum / static_cast<double>(first.words.size() * (first.constants.size() + 1)));
  EXPECT_GT(lexicon.weight(lexemeFeature(first)), 0.0);
  // Templates: -0.1 a slash, -2 with constants of their own.
  LexicalTemplate content;
  content.category = parseCategory("(S|NP)\\(S|NP)");
  content.semantics = parseTerm("(lambda $0 <e,t> (lambda $1 e (and ($0 $1) (loc:t $1 #0))))");
  content.slotCount = 1;
  EXPECT_DOUBLE_EQ(FublLearner::initialTemplateWeight(content), -2.3);
  content.semantics = parseTerm("(lambda $0 <e,t> (lambda $1 e (and ($0 $1) (#1 $1 #0))))");
  EXPECT_DOUBLE_EQ(FublLearner::initialTemplateWeight(content), -0.3);
  EXPECT_EQ(lexicon.weight("template:NP : #0"), 0.0);
  // Each training sentence parses to its logical form at once (a single derivation).
  for (const SemanticExample& example : language.train) {
    EXPECT_NEAR(learner.logLikelihood(example), 0.0, 1e-12);
  }
}

// --quantifiers-in-lexemes: the whole-sentence lexeme of a form with exists holds `exists`, its
// template a slot in its place, and the item still parses to the form.
TEST(CcgFublTest, QuantifiersInLexemesWhenAsked) {
  const Language language = makeLanguage();
  SemanticExamplesLoad one = readSemanticExamples(
      "states with a river\n(lambda $0 e (and (state:t $0) (exists $1 (and (river:t $1) (loc:t $1 "
      "$0)))))\n",
      "one");
  ASSERT_FALSE(one.diagnostics.hasErrors());
  for (const bool quantifiers : {false, true}) {
    FublOptions options;
    options.lexicalOperators =
        quantifiers ? LexicalOperators::RankingAndQuantifiers : LexicalOperators::Ranking;
    FublLearner learner(language.types, options);
    learner.initialise(one.examples, FactoredLexicon());
    ASSERT_EQ(learner.lexicon().lexemes().size(), 1u);
    const std::vector<std::string>& constants = learner.lexicon().lexemes().front().constants;
    EXPECT_EQ(std::count(constants.begin(), constants.end(), "exists"), quantifiers ? 1 : 0);
    EXPECT_NEAR(learner.logLikelihood(one.examples.front()), 0.0, 1e-12) << quantifiers;
  }
}

// --lexeme-operators ranking-or / quantifiers-or: a disjunction's `or` is the lexeme's, not the
// template's.
TEST(CcgFublTest, DisjunctionInLexemesWhenAsked) {
  const Language language = makeLanguage();
  SemanticExamplesLoad one = readSemanticExamples(
      "states bordering texas or utah\n(lambda $0 e (and (state:t $0) (or (next_to:t $0 "
      "texas:s) (next_to:t $0 utah:s))))\n",
      "one");
  ASSERT_FALSE(one.diagnostics.hasErrors());
  for (const LexicalOperators which :
       {LexicalOperators::Ranking, LexicalOperators::RankingAndOr,
        LexicalOperators::RankingAndQuantifiers, LexicalOperators::RankingQuantifiersAndOr}) {
    FublOptions options;
    options.lexicalOperators = which;
    FublLearner learner(language.types, options);
    learner.initialise(one.examples, FactoredLexicon());
    ASSERT_EQ(learner.lexicon().lexemes().size(), 1u);
    const std::vector<std::string>& constants = learner.lexicon().lexemes().front().constants;
    const bool inLexeme = which == LexicalOperators::RankingAndOr ||
                          which == LexicalOperators::RankingQuantifiersAndOr;
    EXPECT_EQ(std::count(constants.begin(), constants.end(), "or"), inLexeme ? 1 : 0);
    const std::string templateText = toString(learner.lexicon().templates().front().semantics);
    EXPECT_EQ(templateText.find("(or ") == std::string::npos, inLexeme) << templateText;
    EXPECT_NEAR(learner.logLikelihood(one.examples.front()), 0.0, 1e-12) << templateText;
  }
}

// UBL's fixed entries start at 10 a word (LexiconFeatSet: initLexWeight × tokens).
TEST(CcgFublTest, FixedLexemesWeighTenAWordWhenAsked) {
  const Language language = makeLanguage();
  LexiconLoad fixed =
      readFixedLexicon("texas :- NP : texas:s\nsalt lake city :- NP : ohio:s\n", "fixed");
  ASSERT_FALSE(fixed.diagnostics.hasErrors());
  FublOptions options;
  FublLearner flat(language.types, options);
  flat.initialise(language.train, fixed.lexicon);
  EXPECT_EQ(flat.lexicon().weight("lexeme:salt lake city :- ohio:s"), 10.0);
  options.fixedWeightPerWord = true;
  FublLearner perWord(language.types, options);
  perWord.initialise(language.train, fixed.lexicon);
  EXPECT_EQ(perWord.lexicon().weight("lexeme:salt lake city :- ohio:s"), 30.0);
  EXPECT_EQ(perWord.lexicon().weight("lexeme:texas :- texas:s"), 10.0);
}

TEST(CcgFublTest, IncrementalEntriesMatchAFullBuildAndTruncateUndoes) {
  const Language language = makeLanguage();
  FublLearner learner(language.types, {});
  learner.initialise(language.train, language.fixed);
  FactoredLexicon lexicon = learner.lexicon();
  const std::size_t before = lexicon.entryCount();
  const int lexemes = static_cast<int>(lexicon.lexemes().size());
  const int templates = static_cast<int>(lexicon.templates().size());
  lexicon.addLexeme({{"capital", "of"}, {"capital:c"}});
  LexicalTemplate modifier{parseCategory("NP/NP"), parseTerm("(lambda $0 s (#0 $0))"), 1};
  lexicon.addTemplate(modifier);
  lexicon.setWeight(templateFeature(modifier), -0.1);
  const std::size_t added = lexicon.addEntries(&language.types, lexemes, templates);
  EXPECT_GT(added, 0u);
  FactoredLexicon rebuilt = lexicon;
  EXPECT_EQ(rebuilt.buildEntries(&language.types), before + added);
  EXPECT_EQ(lexicon.entriesFor("capital of").size(), 1u);
  lexicon.truncate(lexemes, templates);
  EXPECT_EQ(lexicon.entryCount(), before);
  EXPECT_TRUE(lexicon.entriesFor("capital of").empty());
  EXPECT_FALSE(lexicon.hasWeight(templateFeature(modifier)));
  EXPECT_EQ(writeFactoredLexicon(lexicon), writeFactoredLexicon(learner.lexicon()));
}

// A tiny synthetic language is learned perfectly: every training sentence and every held-out
// combination of a construction with a state parses to its logical form.
class CcgFublNewLexTest : public ::testing::TestWithParam<FublOptions::NewLexNodes> {};

TEST_P(CcgFublNewLexTest, SyntheticLanguageLearnedPerfectly) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 5;
  options.newLexNodes = GetParam();
  FublLearner learner(language.types, options);
  std::vector<PassSummary> passes;
  learner.train(language.train, language.fixed, {},
                [&](const PassSummary& summary) { passes.push_back(summary); });
  ASSERT_EQ(passes.size(), 5u);
  EXPECT_GT(passes.front().splitsAdded, 0);
  auto learnedPerfectly = [&](const FactoredLexicon& lexicon) {
    EvaluationResult onTest = evaluateSemanticParser(lexicon, options.parser, language.test, {});
    EXPECT_EQ(onTest.plain.correct, 3);
    EXPECT_EQ(onTest.plain.f1(), 1.0);
    EvaluationResult onTrain = evaluateSemanticParser(lexicon, options.parser, language.train, {});
    EXPECT_EQ(onTrain.plain.correct, 9);
  };
  learnedPerfectly(learner.lexicon());
  // With --prune, the whole-sentence lexemes of the initialisation, split and no longer used by
  // any best correct parse, are dropped; the entity lexemes of the fixed lexicon stay.
  FublOptions pruning = options;
  pruning.pruneUnused = true;
  FublLearner pruned(language.types, pruning);
  int lexemesPruned = 0;
  pruned.train(language.train, language.fixed, {},
               [&](const PassSummary& summary) { lexemesPruned += summary.lexemesPruned; });
  EXPECT_GE(lexemesPruned, 9);
  for (const Lexeme& lexeme : pruned.lexicon().lexemes()) EXPECT_LT(lexeme.words.size(), 4u);
  EXPECT_GE(pruned.lexicon().findLexeme({{"texas"}, {"texas:s"}}), 0);
  learnedPerfectly(pruned.lexicon());
  // Without NEW-LEX nothing generalises: the held-out sentences have no lexical entries.
  FublOptions noSplitting = options;
  noSplitting.newLex = false;
  FublLearner frozen(language.types, noSplitting);
  frozen.train(language.train, language.fixed);
  EXPECT_EQ(
      evaluateSemanticParser(frozen.lexicon(), options.parser, language.test, {}).plain.answered,
      0);
}

INSTANTIATE_TEST_SUITE_P(NewLexNodes, CcgFublNewLexTest,
                         ::testing::Values(FublOptions::NewLexNodes::Leaves,
                                           FublOptions::NewLexNodes::AllNodes),
                         [](const ::testing::TestParamInfo<FublOptions::NewLexNodes>& nodes) {
                           return nodes.param == FublOptions::NewLexNodes::Leaves
                                      ? std::string("Leaves")
                                      : std::string("AllNodes");
                         });

// The update direction of Step 2 is the gradient of log P(z | x) (eq. 4): checked by central
// finite differences on every feature of a chart with several derivations.
TEST(CcgFublTest, GradientMatchesFiniteDifferences) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 2;
  // Unused lexemes kept (each sentence keeps its whole-sentence lexeme beside its split ones),
  // and every state name also read as every other state: the charts hold competing
  // derivations of several logical forms, so the gradient is not zero.
  options.pruneUnused = false;
  options.partFacMinCount = 1;
  FublLearner learner(language.types, options);
  learner.train(language.train, language.fixed);
  for (const char* word : {"texas", "ohio", "utah", "iowa"}) {
    for (const char* state : {"texas:s", "ohio:s", "utah:s", "iowa:s"}) {
      learner.lexicon().addLexeme({{word}, {state}});
    }
  }
  learner.lexicon().buildEntries(&language.types);
  int checked = 0;
  for (const SemanticExample& example : language.train) {
    const FeatureCounts gradient = learner.gradient(example);
    ASSERT_FALSE(gradient.empty());
    for (const auto& [feature, value] : gradient) {
      const double weight = learner.lexicon().weight(feature);
      const double h = 1e-5;
      learner.lexicon().setWeight(feature, weight + h);
      const double up = learner.logLikelihood(example);
      learner.lexicon().setWeight(feature, weight - h);
      const double down = learner.logLikelihood(example);
      learner.lexicon().setWeight(feature, weight);
      EXPECT_NEAR((up - down) / (2 * h), value, 1e-6) << feature;
      if (std::fabs(value) > 1e-4) ++checked;
    }
  }
  EXPECT_GT(checked, 10);  // the check is not vacuous: many non-zero components
}

TEST(CcgFublTest, DeterministicForASeedAndThreadInvariant) {
  const Language language = makeLanguage();
  auto trainedModel = [&](std::uint64_t seed) {
    FublOptions options;
    options.passes = 3;
    options.seed = seed;
    FublLearner learner(language.types, options);
    learner.train(language.train, language.fixed);
    return writeCcgModel(learner.lexicon(), options.parser);
  };
  const std::string first = trainedModel(7);
  EXPECT_EQ(first, trainedModel(7));
  EXPECT_EQ(trainedModel(0), trainedModel(0));
  EXPECT_NE(first, trainedModel(0));  // the shuffled order leads elsewhere

  FublLearner learner(language.types, {});
  learner.train(language.train, language.fixed);
  std::vector<SemanticExample> all = language.train;
  all.insert(all.end(), language.test.begin(), language.test.end());
  EvaluationOptions one;
  EvaluationOptions two;
  two.threads = 2;
  const EvaluationResult a = evaluateSemanticParser(learner.lexicon(), {}, all, one);
  const EvaluationResult b = evaluateSemanticParser(learner.lexicon(), {}, all, two);
  ASSERT_EQ(a.sentences.size(), b.sentences.size());
  for (std::size_t i = 0; i < a.sentences.size(); ++i) {
    ASSERT_EQ(a.sentences[i].answer != nullptr, b.sentences[i].answer != nullptr);
    if (a.sentences[i].answer) {
      EXPECT_EQ(toString(a.sentences[i].answer), toString(b.sentences[i].answer));
    }
  }
  EXPECT_EQ(a.plain.correct, b.plain.correct);
  EXPECT_EQ(a.withSkipping.answered, b.withSkipping.answered);
}

// FublOptions::threads fills each example's two charts at once and re-parses several examples
// at once in the final pruning: on real data (Geo250 English, fold 0, two passes) the model, the
// pass summaries and the averaged weights are the same, byte for byte, on 1, 2 and 3 threads.
// Geo250 English fold 0 (shared data), for the tests that need real charts.
class CcgFublGeo250Test : public ::testing::Test {
 protected:
  void SetUp() override {
    GWB_REQUIRE_SHARED(typesPath, "data/geoquery/geo-lambda.types");
    GWB_REQUIRE_SHARED(langPath, "data/geoquery/geo-lambda.lang");
    GWB_REQUIRE_SHARED(trainPath, "data/geoquery/geo250/en/fold-0/train");
    GWB_REQUIRE_SHARED(fixedPath, "data/geoquery/geo250/en-np-fixedlex.geo");
    types = loadTypeSystem(typesPath, langPath);
    ASSERT_FALSE(types.diagnostics.hasErrors());
    train = loadSemanticExamples(trainPath);
    ASSERT_FALSE(train.diagnostics.hasErrors());
    fixed = loadFixedLexicon(fixedPath);
    ASSERT_FALSE(fixed.diagnostics.hasErrors());
  }
  TypeSystemLoad types;
  SemanticExamplesLoad train;
  LexiconLoad fixed;
};

TEST_F(CcgFublGeo250Test, TrainingThreadsDoNotChangeTheModel) {
  // The first 80 pairs keep it short under the sanitizers; their charts still hold thousands
  // of entries by the second pass.
  const std::vector<SemanticExample> pairs(train.examples.begin(), train.examples.begin() + 80);
  auto trained = [&](int threads, bool average) {
    FublOptions options;
    options.passes = 2;
    options.seed = 5;
    options.threads = threads;
    options.averageWeights = average;
    FublLearner learner(types.types, options);
    std::string summaries;
    learner.train(pairs, fixed.lexicon, {}, [&](const PassSummary& pass) {
      summaries += std::to_string(pass.correctBeforeUpdate) + " " + std::to_string(pass.parsable) +
                   " " + std::to_string(pass.splitsAdded) + " " + std::to_string(pass.entries) +
                   " " + std::to_string(pass.logLikelihood) + "\n";
    });
    return summaries + writeCcgModel(learner.model(), learner.options().parser);
  };
  const std::string one = trained(1, false);
  EXPECT_EQ(trained(2, false), one);
  EXPECT_EQ(trained(3, false), one);
  EXPECT_EQ(trained(2, true), trained(1, true));
}

// The observer hears every example of every pass and each pass once, with the summaries the
// progress-function interface gives and the lexicon as it stands after the pass.
TEST(CcgFublTest, ObserverReportsEachExampleAndPass) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 3;
  options.pruneAfterLastPass = false;  // the lexicon as the last pass left it, which onPass shows
  struct Recorder : FublObserver {
    std::vector<FublProgress> examples;
    std::vector<PassSummary> passes;
    std::vector<std::string> lexicons;
    void onExample(const FublProgress& progress) override { examples.push_back(progress); }
    void onPass(const PassSummary& summary, const FactoredLexicon& lexicon) override {
      passes.push_back(summary);
      lexicons.push_back(writeFactoredLexicon(lexicon));
    }
  } recorder;
  FublLearner learner(language.types, options);
  EXPECT_EQ(learner.train(language.train, language.fixed, FublControl{&recorder, nullptr}), 3);
  const int n = static_cast<int>(language.train.size());
  ASSERT_EQ(recorder.examples.size(), static_cast<std::size_t>(3 * n));
  for (int i = 0; i < 3 * n; ++i) {
    EXPECT_EQ(recorder.examples[i].pass, i / n + 1);
    EXPECT_EQ(recorder.examples[i].example, i % n + 1);
    EXPECT_EQ(recorder.examples[i].examples, n);
  }
  ASSERT_EQ(recorder.passes.size(), 3u);
  EXPECT_EQ(recorder.lexicons.back(), writeFactoredLexicon(learner.lexicon()));
  // The same run through the older interface gives the same summaries and model.
  FublLearner other(language.types, options);
  std::vector<PassSummary> passes;
  other.train(language.train, language.fixed, {},
              [&](const PassSummary& summary) { passes.push_back(summary); });
  ASSERT_EQ(passes.size(), 3u);
  for (std::size_t p = 0; p < passes.size(); ++p) {
    EXPECT_EQ(recorder.passes[p].pass, passes[p].pass);
    EXPECT_EQ(recorder.passes[p].correctBeforeUpdate, passes[p].correctBeforeUpdate);
    EXPECT_EQ(recorder.passes[p].lexemes, passes[p].lexemes);
    EXPECT_FALSE(recorder.passes[p].cancelled);
  }
  EXPECT_EQ(writeFactoredLexicon(other.lexicon()), writeFactoredLexicon(learner.lexicon()));
}

// FublOptions::averageWeights (not in the paper): the model's weights are the mean of θ after
// each example of every pass so far, checked against snapshots of θ taken after every example. A
// feature not yet in a snapshot counts at its initial weight: a lexeme's or template's as
// section 8 gives it (it is added later, by NEW-LEX or PART-FAC), a pair's or logical-form
// feature's 0.
TEST(CcgFublTest, AveragedWeightsAreTheMeanOfThetaAfterEachExample) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 3;
  options.pruneAfterLastPass = false;
  options.averageWeights = true;
  options.partFacMinCount = 1;
  FublLearner learner(language.types, options);
  struct Recorder : FublObserver {
    const FublLearner* learner = nullptr;
    std::vector<std::unordered_map<std::string, double>> thetas;
    std::vector<std::unordered_map<std::string, double>> models;
    void onExample(const FublProgress& /*progress*/) override {
      thetas.push_back(learner->lexicon().weights());
    }
    void onPass(const PassSummary& /*summary*/, const FactoredLexicon& model) override {
      EXPECT_EQ(&model, &learner->model());
      models.push_back(model.weights());
    }
  } recorder;
  recorder.learner = &learner;
  const FublControl control{&recorder, nullptr};
  auto train = [&](FublLearner* run) {
    run->initialise(language.train, language.fixed);
    run->runPass(control);
    // After the first pass's splits, every state word also reads as every other state (as in
    // GradientMatchesFiniteDifferences): the charts hold competing derivations, so the updates of
    // the next passes are not zero. The new lexemes weigh what section 8 gives them.
    for (const char* word : {"texas", "ohio", "utah", "iowa"}) {
      for (const char* state : {"texas:s", "ohio:s", "utah:s", "iowa:s"}) {
        const Lexeme lexeme{{word}, {state}};
        bool added = false;
        run->lexicon().addLexeme(lexeme, &added);
        if (added)
          run->lexicon().setWeight(lexemeFeature(lexeme), run->initialLexemeWeight(lexeme));
      }
    }
    run->lexicon().buildEntries(&language.types);
    run->runPass(control);
    run->runPass(control);
  };
  train(&learner);
  const std::size_t n = language.train.size();
  ASSERT_EQ(recorder.thetas.size(), 3 * n);
  ASSERT_EQ(recorder.models.size(), 3u);
  std::unordered_map<std::string, double> initial;
  for (const Lexeme& lexeme : learner.lexicon().lexemes()) {
    initial[lexemeFeature(lexeme)] = learner.initialLexemeWeight(lexeme);
  }
  for (const LexicalTemplate& lexicalTemplate : learner.lexicon().templates()) {
    initial[templateFeature(lexicalTemplate)] = FublLearner::initialTemplateWeight(lexicalTemplate);
  }
  int checked = 0;
  for (std::size_t pass = 0; pass < 3; ++pass) {
    const std::size_t examples = (pass + 1) * n;
    for (const auto& [feature, weight] : recorder.models[pass]) {
      double sum = 0;
      for (std::size_t j = 0; j < examples; ++j) {
        const auto found = recorder.thetas[j].find(feature);
        if (found != recorder.thetas[j].end()) {
          sum += found->second;
        } else {
          const auto added = initial.find(feature);
          sum += added == initial.end() ? 0.0 : added->second;
        }
      }
      EXPECT_NEAR(weight, sum / static_cast<double>(examples), 1e-9) << feature;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  // Not vacuous: some averaged weights are not the last θ; θ is what the last example left.
  int differ = 0;
  for (const auto& [feature, weight] : learner.model().weights()) {
    if (std::abs(weight - learner.lexicon().weight(feature)) > 1e-6) ++differ;
  }
  EXPECT_GT(differ, 10);
  for (const auto& [feature, weight] : recorder.thetas.back()) {
    EXPECT_EQ(learner.lexicon().weight(feature), weight) << feature;
  }
  // Training itself is not changed by the option, and without it the model is θ.
  FublOptions plain = options;
  plain.averageWeights = false;
  FublLearner last(language.types, plain);
  recorder.learner = &last;
  train(&last);
  EXPECT_EQ(&last.model(), &last.lexicon());
  EXPECT_EQ(writeFactoredLexicon(last.lexicon()), writeFactoredLexicon(learner.lexicon()));
}

// With averaged weights and the defaults otherwise (NEW-LEX, final pruning), the synthetic
// language is still learned perfectly, and the final pruning makes the averaged weights θ: the
// lexicon it keeps is the model.
TEST(CcgFublTest, AveragedWeightsLearnTheSyntheticLanguageAndArePruned) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 5;
  options.averageWeights = true;
  FublLearner learner(language.types, options);
  learner.train(language.train, language.fixed);
  EXPECT_EQ(&learner.model(), &learner.lexicon());
  EvaluationResult onTest =
      evaluateSemanticParser(learner.model(), options.parser, language.test, {});
  EXPECT_EQ(onTest.plain.correct, 3);
  EvaluationResult onTrain =
      evaluateSemanticParser(learner.model(), options.parser, language.train, {});
  EXPECT_EQ(onTrain.plain.correct, 9);
}

// Figure 1 only adds to the lexicon (L = L ∪ ψ, T = T ∪ π): with the default options no lexeme
// or template is ever dropped, so the derivations of z_i that were not y* keep their lexical
// entries. (Dropping what no y* of a pass used took those derivations out of the entries' inside
// scores: on Geo250 Spanish fold 1, 14 examples lost z_i from the beam of 50 in pass 3, and the
// training accuracy fell from 85.8 to 65.3 % by pass 4.)
TEST(CcgFublTest, LexiconOnlyGrowsAsInFigureOne) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 3;
  EXPECT_FALSE(options.pruneUnused);
  struct Recorder : FublObserver {
    std::vector<std::set<std::string>> lexemes;
    std::vector<std::set<std::string>> templates;
    std::vector<PassSummary> passes;
    void onPass(const PassSummary& summary, const FactoredLexicon& lexicon) override {
      passes.push_back(summary);
      lexemes.emplace_back();
      templates.emplace_back();
      for (const Lexeme& lexeme : lexicon.lexemes()) lexemes.back().insert(lexemeKey(lexeme));
      for (const LexicalTemplate& lexicalTemplate : lexicon.templates()) {
        templates.back().insert(templateKey(lexicalTemplate));
      }
    }
  } recorder;
  FublLearner learner(language.types, options);
  ASSERT_EQ(learner.train(language.train, language.fixed, FublControl{&recorder, nullptr}), 3);
  const int n = static_cast<int>(language.train.size());
  for (std::size_t p = 0; p < recorder.passes.size(); ++p) {
    EXPECT_EQ(recorder.passes[p].lexemesPruned, 0);
    EXPECT_EQ(recorder.passes[p].templatesPruned, 0);
    EXPECT_EQ(recorder.passes[p].restored, 0);
    EXPECT_EQ(recorder.passes[p].parsable, n);
    EXPECT_EQ(recorder.passes[p].zOutsideFullChart, 0);
    if (p == 0) continue;
    for (const std::string& key : recorder.lexemes[p - 1]) {
      EXPECT_EQ(recorder.lexemes[p].count(key), 1u) << "pass " << p + 1 << " dropped " << key;
    }
    for (const std::string& key : recorder.templates[p - 1]) {
      EXPECT_EQ(recorder.templates[p].count(key), 1u) << "pass " << p + 1 << " dropped " << key;
    }
  }
}

// The cancel flag, set from the observer after the fourth example of the second pass, stops the
// run before the fifth: one pass finished, no second onPass, and the first pass's report is the
// one an uncancelled run makes.
TEST(CcgFublTest, CancelStopsBetweenExamples) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 4;
  std::atomic<bool> cancel{false};
  struct Canceller : FublObserver {
    std::atomic<bool>* cancel = nullptr;
    std::vector<FublProgress> examples;
    std::vector<PassSummary> passes;
    void onExample(const FublProgress& progress) override {
      examples.push_back(progress);
      if (progress.pass == 2 && progress.example == 4) cancel->store(true);
    }
    void onPass(const PassSummary& summary, const FactoredLexicon& /*lexicon*/) override {
      passes.push_back(summary);
    }
  } canceller;
  canceller.cancel = &cancel;
  FublLearner learner(language.types, options);
  EXPECT_EQ(learner.train(language.train, language.fixed, FublControl{&canceller, &cancel}), 1);
  EXPECT_EQ(learner.passesDone(), 1);
  const std::size_t n = language.train.size();
  EXPECT_EQ(canceller.examples.size(), n + 4);
  ASSERT_EQ(canceller.passes.size(), 1u);
  FublLearner reference(language.types, options);
  reference.initialise(language.train, language.fixed);
  const PassSummary first = reference.runPass();
  EXPECT_EQ(canceller.passes[0].correctBeforeUpdate, first.correctBeforeUpdate);
  EXPECT_EQ(canceller.passes[0].lexemes, first.lexemes);
  // A pass started with the flag already set does nothing and says so.
  const PassSummary none = learner.runPass(FublControl{nullptr, &cancel});
  EXPECT_TRUE(none.cancelled);
  EXPECT_EQ(learner.passesDone(), 1);
}

// NEW-LEX keeps a split that leaves y*'s score as it is (gain 0), as UBL's splitAndMergeLex
// (improvement >= a maximum starting at 0) and SPF's UnificationGenlex do. Here the new lexemes
// start at 0 (scale 0), the best split's templates cost 0.1 × (S/NP −0.1 + NP 0) = −0.01, and the
// whole-sentence item is given exactly that: gain 0. A strict rise would reject it.
TEST(CcgFublTest, NewLexKeepsASplitThatTiesTheBestParse) {
  const Language language = makeLanguage();
  SemanticExamplesLoad one = readSemanticExamples("capital texas\n(capital:c texas:s)\n", "one");
  ASSERT_FALSE(one.diagnostics.hasErrors());
  FublOptions options;
  options.lexemeInitScale = 0.0;
  options.partFac = false;
  options.newLexNodes = FublOptions::NewLexNodes::Leaves;  // the whole-sentence leaf's splits
  options.splitTest = FublOptions::SplitTest::Reparse;
  FublLearner learner(language.types, options);
  learner.initialise(one.examples, FactoredLexicon());
  ASSERT_EQ(learner.lexicon().lexemes().size(), 1u);
  const std::string whole = lexemeFeature(learner.lexicon().lexemes().front());
  learner.lexicon().setWeight(whole, kTemplateFeatureValue * -0.1);
  const PassSummary tie = learner.runPass();
  EXPECT_EQ(tie.splitsAdded, 1);
  EXPECT_EQ(tie.splitsRejected, 0);
  EXPECT_EQ(learner.lexicon().lexemes().size(), 3u);  // capital, texas

  FublLearner worse(language.types, options);
  worse.initialise(one.examples, FactoredLexicon());
  worse.lexicon().setWeight(whole, kTemplateFeatureValue * -0.1 + 0.001);
  const PassSummary loss = worse.runPass();
  EXPECT_EQ(loss.splitsAdded, 0);
  EXPECT_EQ(loss.splitsRejected, 1);
  EXPECT_EQ(worse.lexicon().lexemes().size(), 1u);

  // Figure 1 read literally (--split-test always): the same losing split is added.
  FublOptions literal = options;
  literal.splitTest = FublOptions::SplitTest::Always;
  FublLearner always(language.types, literal);
  always.initialise(one.examples, FactoredLexicon());
  always.lexicon().setWeight(whole, 5.0);
  const PassSummary kept = always.runPass();
  EXPECT_EQ(kept.splitsAdded, 1);
  EXPECT_EQ(kept.splitsRejected, 0);
  EXPECT_EQ(always.lexicon().lexemes().size(), 3u);

  // UBL's and SPF's rule (--split-test gain), the gain alone without the re-parse: the tie is
  // kept, the loss is not.
  for (const double given : {-0.1, 0.1 + 0.001}) {
    FublOptions gainOnly = options;
    gainOnly.splitTest = FublOptions::SplitTest::Gain;
    FublLearner gain(language.types, gainOnly);
    gain.initialise(one.examples, FactoredLexicon());
    gain.lexicon().setWeight(whole, kTemplateFeatureValue * given);
    const PassSummary pass = gain.runPass();
    const bool isTie = given < 0;
    EXPECT_EQ(pass.splitsAdded, isTie ? 1 : 0) << given;
    EXPECT_EQ(pass.splitsRejected, isTie ? 0 : 1) << given;
    EXPECT_EQ(gain.lexicon().lexemes().size(), isTie ? 3u : 1u) << given;
  }
}

// NEW-LEX over every node of y*, a half reusing the chart's constituent (UBL's
// Chart.splitAndMergeLex), against leaves only with both halves new. "capital texas" is
// derived in the chart from the given lexemes (weight 10 each) as NP : (capital:s texas:s);
// y* is the whole-sentence item (weight 0, the only parse). Reusing that constituent, splitting
// off "population" gains about 20; leaves-only scores the same split with a new two-word item
// (weight 0) and prefers "population capital" + the known "texas" (about 10).
TEST(CcgFublTest, NewLexOverAllNodesReusesTheChartsConstituent) {
  TypeSystemLoad types =
      readTypeSystem("((s e))", "types", "((population:i s i) (capital:s s s))", "lang");
  ASSERT_FALSE(types.diagnostics.hasErrors());
  LexiconLoad given = readFactoredLexicon(
      "lexeme 0 capital :- capital:s\n"
      "lexeme 0 texas :- texas:s\n"
      "template 0 NP : #0\n"
      "template 0 NP/NP : (lambda $0 e (#0 $0))\n",
      "given");
  ASSERT_FALSE(given.diagnostics.hasErrors());
  SemanticExamplesLoad one =
      readSemanticExamples("population capital texas\n(population:i (capital:s texas:s))\n", "one");
  ASSERT_FALSE(one.diagnostics.hasErrors());
  FublOptions options;
  options.lexemeInitScale = 0.0;
  options.partFac = false;
  const Lexeme population{{"population"}, {"population:i"}};
  const Lexeme populationCapital{{"population", "capital"}, {"population:i", "capital:s"}};

  options.newLexNodes = FublOptions::NewLexNodes::AllNodes;
  FublLearner allNodes(types.types, options);
  allNodes.initialise(one.examples, given.lexicon);
  ASSERT_EQ(allNodes.lexicon().lexemes().size(), 3u);
  const PassSummary reused = allNodes.runPass();
  EXPECT_EQ(reused.splitsAdded, 1);
  EXPECT_GE(allNodes.lexicon().findLexeme(population), 0);
  EXPECT_LT(allNodes.lexicon().findLexeme(populationCapital), 0);
  EXPECT_EQ(allNodes.lexicon().lexemes().size(), 4u);  // only the new half was added

  options.newLexNodes = FublOptions::NewLexNodes::Leaves;
  FublLearner leaves(types.types, options);
  leaves.initialise(one.examples, given.lexicon);
  const PassSummary split = leaves.runPass();
  EXPECT_EQ(split.splitsAdded, 1);
  EXPECT_GE(leaves.lexicon().findLexeme(populationCapital), 0);
  EXPECT_LT(leaves.lexicon().findLexeme(population), 0);
}

// NEW-LEX merges (section 7.1; UBL's Chart.splitMerge): an internal node of y* becomes one
// multi-word item. The given lexemes weigh −5 each and the whole-sentence item −100, so y* is
// population:S/NP (capital:NP/NP texas:NP), and its internal node "capital texas" (−10 and the
// templates) is beaten by a new item over both words (weight 0, scale 0): a gain of about 10,
// where no split is possible (every leaf is one word). The root's merge is the whole-sentence
// item, which the lexicon has: no candidate. (Over all nodes, splits of the root that make the
// same new item "capital texas" beside a reused half gain as much, and others more.)
struct ThreeWordExample {
  TypeSystem types;
  FactoredLexicon given;
  std::vector<SemanticExample> examples;
};

ThreeWordExample threeWordExample() {
  ThreeWordExample out;
  TypeSystemLoad types =
      readTypeSystem("((s e))", "types", "((population:i s i) (capital:s s s))", "lang");
  EXPECT_FALSE(types.diagnostics.hasErrors());
  out.types = types.types;
  LexiconLoad given = readFactoredLexicon(
      "lexeme 0 population :- population:i\n"
      "lexeme 0 capital :- capital:s\n"
      "lexeme 0 texas :- texas:s\n"
      "template 0 NP : #0\n"
      "template 0 NP/NP : (lambda $0 e (#0 $0))\n"
      "template 0 S/NP : (lambda $0 s (#0 $0))\n",
      "given");
  EXPECT_FALSE(given.diagnostics.hasErrors());
  out.given = given.lexicon;
  SemanticExamplesLoad one =
      readSemanticExamples("population capital texas\n(population:i (capital:s texas:s))\n", "one");
  EXPECT_FALSE(one.diagnostics.hasErrors());
  out.examples = one.examples;
  return out;
}

// One pass of NEW-LEX on the three-word example, merging or not; returns the lexicon.
FactoredLexicon onePassOnThreeWords(const ThreeWordExample& example, bool merge,
                                    PassSummary* summary) {
  FublOptions options;
  options.lexemeInitScale = 0.0;
  options.fixedLexemeWeight = -5.0;
  options.partFac = false;
  options.merge = merge;
  options.newLexNodes = FublOptions::NewLexNodes::Leaves;  // merging against leaf splits
  options.splitTest = FublOptions::SplitTest::Reparse;
  FublLearner learner(example.types, options);
  learner.initialise(example.examples, example.given);
  EXPECT_EQ(learner.lexicon().lexemes().size(), 4U);
  for (const Lexeme& lexeme : learner.lexicon().lexemes()) {
    if (lexeme.words.size() == 3) learner.lexicon().setWeight(lexemeFeature(lexeme), -100.0);
  }
  *summary = learner.runPass();
  return learner.lexicon();
}

const Lexeme kCapitalTexas{{"capital", "texas"}, {"capital:s", "texas:s"}};

// With and without merging: what one pass keeps.
struct MergeCase {
  bool merge;
  int splitsAdded;
  int mergesAdded;
  bool capitalTexasLearned;
  std::size_t lexemes;
};

class CcgFublMergeTest : public ::testing::TestWithParam<MergeCase> {};

TEST_P(CcgFublMergeTest, NewLexMergesAnInternalNodeOfTheBestParseOnlyWhenAsked) {
  const MergeCase expected = GetParam();
  const ThreeWordExample example = threeWordExample();
  PassSummary summary;
  const FactoredLexicon lexicon = onePassOnThreeWords(example, expected.merge, &summary);
  EXPECT_EQ(summary.splitsAdded, expected.splitsAdded);
  EXPECT_EQ(summary.mergesAdded, expected.mergesAdded);
  EXPECT_EQ(lexicon.findLexeme(kCapitalTexas) >= 0, expected.capitalTexasLearned);
  EXPECT_EQ(lexicon.lexemes().size(), expected.lexemes);
}

INSTANTIATE_TEST_SUITE_P(Merge, CcgFublMergeTest,
                         ::testing::Values(MergeCase{true, 1, 1, true, 5},
                                           MergeCase{false, 0, 0, false, 4}),
                         [](const ::testing::TestParamInfo<MergeCase>& mergeCase) {
                           return mergeCase.param.merge ? std::string("Merging")
                                                        : std::string("NotMerging");
                         });

// The answer is the paper's arg max_z p(z | x), summed over derivations (eq. 2, 3): here
// (loc:t austin:c usa:co) has two derivations (0.8 and 0.7) and beats the single best derivation
// (1.0) of (loc:t texas:s usa:co); UBL's Viterbi answer (mostProbableLogicalForm off) is that one.
TEST(CcgFublTest, EvaluationAnswersTheMostProbableLogicalForm) {
  LexiconLoad load = readFactoredLexicon(
      "lexeme 1.0 texas :- texas:s\n"
      "lexeme 0.8 texas :- austin:c\n"
      "lexeme 0.8 texas :- usa:co\n"
      "template 0 S : (loc:t #0 usa:co)\n"
      "template -1 S : (loc:t austin:c #0)\n",
      "sum");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  load.lexicon.buildEntries();
  SemanticExamplesLoad test = readSemanticExamples("texas\n(loc:t austin:c usa:co)\n", "test");
  ASSERT_FALSE(test.diagnostics.hasErrors());
  CkyOptions parser;
  parser.logicalFormFeatures = false;
  const EvaluationResult summed = evaluateSemanticParser(load.lexicon, parser, test.examples);
  ASSERT_TRUE(summed.sentences[0].answer);
  EXPECT_EQ(toString(summed.sentences[0].answer), "(loc:t austin:c usa:co)");
  EXPECT_TRUE(summed.sentences[0].correct);
  EvaluationOptions viterbi;
  viterbi.mostProbableLogicalForm = false;
  const EvaluationResult best =
      evaluateSemanticParser(load.lexicon, parser, test.examples, viterbi);
  ASSERT_TRUE(best.sentences[0].answer);
  EXPECT_EQ(toString(best.sentences[0].answer), "(loc:t texas:s usa:co)");
  EXPECT_FALSE(best.sentences[0].correct);
}

// "texas" as texas:s and as austin:c, with these weights, in one template: S : loc(#0, usa).
LexiconLoad twoReadingsOfTexas(const std::string& texasWeight, const std::string& austinWeight) {
  LexiconLoad load =
      readFactoredLexicon("lexeme " + texasWeight + " texas :- texas:s\nlexeme " + austinWeight +
                              " texas :- austin:c\n"
                              "template 0 S : (loc:t #0 usa:co)\n",
                          "texas");
  if (!load.diagnostics.hasErrors()) load.lexicon.buildEntries();
  return load;
}

// The diagnosis of a wrong answer: gold in the chart but less probable, pruned from the beam
// though the lexicon derives it, or not derivable at all (here: a word no lexeme holds).
TEST(CcgFublTest, EvaluationDiagnosesWhyGoldWasNotTheAnswer) {
  LexiconLoad load = twoReadingsOfTexas("1.0", "0.8");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  SemanticExamplesLoad test = readSemanticExamples(
      "texas\n(loc:t austin:c usa:co)\n\n"
      "texas\n(loc:t texas:s usa:co)\n\n"
      "texas dallas\n(loc:t texas:s usa:co)\n\n"
      "texas texas\n(loc:t dallas_tx:c usa:co)\n",
      "test");
  ASSERT_FALSE(test.diagnostics.hasErrors());
  CkyOptions parser;
  parser.logicalFormFeatures = false;
  EvaluationOptions diagnosing;
  diagnosing.diagnoseErrors = true;
  const EvaluationResult wide =
      evaluateSemanticParser(load.lexicon, parser, test.examples, diagnosing);
  const GoldDiagnosis& outscored = wide.sentences[0].diagnosis;
  EXPECT_EQ(outscored.kind, GoldDiagnosis::Kind::Outscored);
  const double austin = std::exp(0.8) / (std::exp(1.0) + std::exp(0.8));
  EXPECT_NEAR(outscored.goldProbability, austin, 1e-12);
  EXPECT_NEAR(outscored.answerProbability, 1 - austin, 1e-12);
  EXPECT_TRUE(outscored.unknownWords.empty());
  EXPECT_EQ(wide.sentences[1].diagnosis.kind, GoldDiagnosis::Kind::None) << "answered right";
  const GoldDiagnosis& unknown = wide.sentences[2].diagnosis;
  EXPECT_EQ(unknown.kind, GoldDiagnosis::Kind::NotDerivable);
  EXPECT_EQ(unknown.unknownWords, std::vector<std::string>{"dallas"});
  EXPECT_TRUE(unknown.derivableSkipping) << "texas, with dallas skipped";
  EXPECT_EQ(unknown.skippedWords, std::vector<std::string>{"dallas"});
  const GoldDiagnosis& missing = wide.sentences[3].diagnosis;
  EXPECT_EQ(missing.kind, GoldDiagnosis::Kind::NotDerivable);
  EXPECT_TRUE(missing.unknownWords.empty());
  EXPECT_FALSE(missing.derivableSkipping) << "no lexeme holds dallas_tx:c";
  EXPECT_TRUE(missing.skippedWords.empty());
  EXPECT_EQ(wide.outscored, 1);
  EXPECT_EQ(wide.pruned, 0);
  EXPECT_EQ(wide.notDerivable, 2);
  EXPECT_EQ(wide.notDerivableUnseen, 1);
  EXPECT_EQ(wide.notDerivableSkipping, 1);

  // A beam of one keeps texas:s only: austin's parse is derivable but pruned.
  parser.beam = 1;
  const EvaluationResult narrow =
      evaluateSemanticParser(load.lexicon, parser, test.examples, diagnosing);
  ASSERT_TRUE(narrow.sentences[0].answer);
  EXPECT_EQ(toString(narrow.sentences[0].answer), "(loc:t texas:s usa:co)");
  const GoldDiagnosis& pruned = narrow.sentences[0].diagnosis;
  EXPECT_EQ(pruned.kind, GoldDiagnosis::Kind::Pruned);
  EXPECT_NEAR(pruned.goldScore, 0.8, 1e-12);
  EXPECT_NEAR(pruned.bestScore, 1.0, 1e-12);
  EXPECT_EQ(narrow.pruned, 1);

  // Not asked: nothing diagnosed.
  const EvaluationResult plain = evaluateSemanticParser(load.lexicon, parser, test.examples);
  EXPECT_EQ(plain.sentences[0].diagnosis.kind, GoldDiagnosis::Kind::None);
  EXPECT_EQ(plain.pruned + plain.outscored + plain.notDerivable, 0);
}

// Two distinct logical forms share the best score: the evaluation abstains (no answer: against
// recall, not precision), as UBL's Train.isCorrect does; one weight apart, the better answers.
TEST(CcgFublTest, EvaluationAbstainsWhenLogicalFormsTieForTheBest) {
  LexiconLoad load = twoReadingsOfTexas("0.5", "0.5");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  SemanticExamplesLoad test = readSemanticExamples(
      "texas\n(loc:t texas:s usa:co)\n\ntexas texas\n(loc:t texas:s usa:co)\n", "test");
  ASSERT_FALSE(test.diagnostics.hasErrors());
  ASSERT_EQ(test.examples.size(), 2u);
  CkyOptions parser;
  parser.logicalFormFeatures = false;
  EXPECT_EQ(CkyChart(load.lexicon, test.examples[0].words, parser).bestLogicalFormCount(), 2);

  const EvaluationResult abstained = evaluateSemanticParser(load.lexicon, parser, test.examples);
  EXPECT_TRUE(abstained.sentences[0].tied);
  EXPECT_FALSE(abstained.sentences[0].answer);
  EXPECT_FALSE(abstained.sentences[0].answerWithSkipping) << "a tie is no reason to skip words";
  EXPECT_EQ(abstained.plain.answered, 0);
  EXPECT_EQ(abstained.plain.tied, 1);
  EXPECT_EQ(abstained.plain.correct, 0);
  EXPECT_FALSE(abstained.sentences[1].tied) << "two words of one lexeme: no parse";
  EXPECT_EQ(abstained.withSkipping.tied, 2) << "skipping one 'texas' ties again";
  EXPECT_EQ(abstained.withSkipping.answered, 0);

  EvaluationOptions viterbiOnly;
  viterbiOnly.mostProbableLogicalForm = false;
  EXPECT_TRUE(
      evaluateSemanticParser(load.lexicon, parser, test.examples, viterbiOnly).sentences[0].tied)
      << "a tie of the best derivations too";
  EvaluationOptions answerTies;
  answerTies.abstainOnTies = false;
  const EvaluationResult answered =
      evaluateSemanticParser(load.lexicon, parser, test.examples, answerTies);
  EXPECT_FALSE(answered.sentences[0].tied);
  EXPECT_TRUE(answered.sentences[0].answer);
  EXPECT_EQ(answered.plain.answered, 1);
  EXPECT_EQ(answered.plain.tied, 0);

  ASSERT_EQ(lexemeFeature(load.lexicon.lexemes()[0]), "lexeme:texas :- texas:s");
  load.lexicon.setWeight(lexemeFeature(load.lexicon.lexemes()[0]), 0.6);
  EXPECT_EQ(CkyChart(load.lexicon, test.examples[0].words, parser).bestLogicalFormCount(), 1);
  const EvaluationResult better = evaluateSemanticParser(load.lexicon, parser, test.examples);
  EXPECT_FALSE(better.sentences[0].tied);
  EXPECT_TRUE(better.sentences[0].correct);
  EXPECT_EQ(better.plain.answered, 1);
  EXPECT_EQ(better.plain.correct, 1);
}

TEST(CcgFublTest, ModelFileRoundTripsAndRefusesOtherVersions) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 2;
  options.parser.beam = 50;
  options.parser.combinators.composition = false;
  options.parser.beamRanking = BeamRanking::Viterbi;
  options.parser.keepLexicalEntries = true;
  FublLearner learner(language.types, options);
  learner.train(language.train, language.fixed);
  const std::string text = writeCcgModel(learner.lexicon(), options.parser);
  CcgModelLoad load = readCcgModel(text, "m");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  EXPECT_EQ(load.parser.beam, 50);
  EXPECT_FALSE(load.parser.combinators.composition);
  EXPECT_EQ(load.parser.beamRanking, BeamRanking::Viterbi);
  EXPECT_TRUE(load.parser.keepLexicalEntries);
  EXPECT_EQ(writeCcgModel(load.lexicon, load.parser), text);
  for (const auto& [feature, weight] : learner.lexicon().weights()) {
    EXPECT_EQ(load.lexicon.weight(feature), weight) << feature;  // bit for bit
  }

  EXPECT_EQ(text.substr(0, text.find('\n')), "# gwb-ccg-model 4");
  // Version 1 (before lexemes held operators) still reads: its templates mean what they meant;
  // versions 1 to 3 (before the beam discipline was kept) rank by inside score and prune
  // lexical entries like the others.
  CcgModelLoad first = readCcgModel("# gwb-ccg-model 1\nlexeme 1 texas :- texas:s\n", "m");
  EXPECT_FALSE(first.diagnostics.hasErrors());
  EXPECT_EQ(first.parser.beamRanking, BeamRanking::Inside);
  EXPECT_FALSE(first.parser.keepLexicalEntries);
  CcgModelLoad wrongVersion = readCcgModel("# gwb-ccg-model 5\n", "m");
  ASSERT_TRUE(wrongVersion.diagnostics.hasErrors());
  EXPECT_EQ(toString(wrongVersion.diagnostics.items()[0]),
            "m:1:17: error: model format version '5' is not supported (this gwb reads versions 1 "
            "to 4)");
  CcgModelLoad plainLexicon = readCcgModel("lexeme 1 texas :- texas:s\n", "m");
  ASSERT_TRUE(plainLexicon.diagnostics.hasErrors());
  EXPECT_EQ(toString(plainLexicon.diagnostics.items()[0]),
            "m:1:1: error: expected '# gwb-ccg-model 4' (a model written by gwb ccg train)");
  CcgModelLoad badBeam = readCcgModel("# gwb-ccg-model 1\n# beam many\n", "m");
  ASSERT_TRUE(badBeam.diagnostics.hasErrors());
  EXPECT_EQ(toString(badBeam.diagnostics.items()[0]),
            "m:2:8: error: expected a beam size (0 to 1000000) after '# beam'");
}

// The header is read by the core's line reader, as the lexicon under it is: a byte-order mark is
// skipped and CR-only or CRLF line ends are line ends (before, a BOM made the file "not a model"
// and CR-only line ends "version '3\r# beam 7...' is not supported"); a beam or composition
// value with text after it is refused, not read as its leading digits (`# beam 2e5` was a beam
// of 2).
TEST(CcgFublTest, ModelHeaderLinesAreReadAsLinesAndValuesWhole) {
  const CcgModelLoad bom =
      readCcgModel("\xEF\xBB\xBF# gwb-ccg-model 3\n# beam 7\nlexeme 1 a :- b:e\n", "m");
  EXPECT_FALSE(bom.diagnostics.hasErrors());
  EXPECT_EQ(bom.parser.beam, 7);
  for (const char* ends : {"\r", "\r\n"}) {
    const std::string e(ends);
    const CcgModelLoad load = readCcgModel(
        "# gwb-ccg-model 3" + e + "# beam 7" + e + "# composition 0" + e + "lexeme 1 a :- b:e" + e,
        "m");
    EXPECT_FALSE(load.diagnostics.hasErrors()) << load.diagnostics.size();
    EXPECT_EQ(load.parser.beam, 7);
    EXPECT_FALSE(load.parser.combinators.composition);
    EXPECT_EQ(load.lexicon.lexemes().size(), 1u);
    const CcgModelLoad bad = readCcgModel("# gwb-ccg-model 3" + e + "# beam x" + e, "m");
    ASSERT_TRUE(bad.diagnostics.hasErrors());
    EXPECT_EQ(toString(bad.diagnostics.items()[0]),
              "m:2:8: error: expected a beam size (0 to 1000000) after '# beam'");
  }
  // The header is the whole opening block of comment lines: a note before `# beam` is skipped.
  const CcgModelLoad noted = readCcgModel(
      "# gwb-ccg-model 3\n# trained on geo880\n# beam 7\n# composition 0\nlexeme 1 a :- b:e\n",
      "m");
  EXPECT_FALSE(noted.diagnostics.hasErrors());
  EXPECT_EQ(noted.parser.beam, 7);
  EXPECT_FALSE(noted.parser.combinators.composition);
  for (const char* line : {"# beam 2e5", "# beam 20.5", "# beam 200 wide", "# composition 1x",
                           "# beam-rank outside", "# beam-rank viterbi 2", "# beam-rank",
                           "# keep-lexical-entries 2", "# keep-lexical-entries yes"}) {
    const CcgModelLoad load = readCcgModel(std::string("# gwb-ccg-model 3\n") + line + "\n", "m");
    ASSERT_TRUE(load.diagnostics.hasErrors()) << line << ": beam " << load.parser.beam;
    EXPECT_EQ(load.diagnostics.items()[0].line, 2) << line;
  }
}

// A truth value outscores the question's <e,t> over the whole sentence: "border texas" as
// (next_to:t texas:s texas:s) through a template that fills both places with the argument. With
// the root types of the training forms (here <e,t> and e: no training form is a truth value),
// that parse is no root and the answer is the gold form; without them the evaluation is wrong.
TEST(CcgFublTest, RootsOnlyOfTheTrainingFormsTypes) {
  const Language language = makeLanguage();
  const std::vector<TypePtr> rootTypes = trainingRootTypes(language.train, language.types);
  std::string names;
  for (const TypePtr& type : rootTypes) names += toString(type) + " ";
  EXPECT_EQ(names, "<e,t> e ");  // questions and "the capital of X" (capital:c is an e)
  LexiconLoad load = readFactoredLexicon(
      "lexeme 1 border :- next_to:t\n"
      "lexeme 1 texas :- texas:s\n"
      "template 0 NP : #0\n"
      "template 0 S/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))\n"
      "template 10 S/NP : (lambda $0 e (#0 $0 $0))\n",
      "truth");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  load.lexicon.buildEntries(&language.types);
  SemanticExamplesLoad test =
      readSemanticExamples("border texas\n(lambda $0 e (next_to:t $0 texas:s))\n", "test");
  ASSERT_FALSE(test.diagnostics.hasErrors());
  CkyOptions parser;
  parser.types = &language.types;
  parser.logicalFormFeatures = false;
  const EvaluationResult anyType = evaluateSemanticParser(load.lexicon, parser, test.examples);
  ASSERT_TRUE(anyType.sentences[0].answer);
  EXPECT_EQ(toString(anyType.sentences[0].answer), "(next_to:t texas:s texas:s)");
  EXPECT_FALSE(anyType.sentences[0].correct);
  parser.rootTypes = std::make_shared<const std::vector<TypePtr>>(rootTypes);
  const CkyChart chart(load.lexicon, test.examples[0].words, parser);
  EXPECT_EQ(chart.roots().size(), 1u) << "the truth value is no root";
  const EvaluationResult restricted = evaluateSemanticParser(load.lexicon, parser, test.examples);
  EXPECT_TRUE(restricted.sentences[0].correct);
  EXPECT_EQ(restricted.plain.correct, 1);
  // Compatible types are roots too: an <s,t> is a question as an <e,t> is.
  parser.rootTypes = std::make_shared<const std::vector<TypePtr>>(
      std::vector<TypePtr>{parseType("<s,t>", nullptr)});
  EXPECT_TRUE(evaluateSemanticParser(load.lexicon, parser, test.examples).sentences[0].correct);
  // An empty list restricts nothing (as null does): no root at all would make no parser.
  parser.rootTypes = std::make_shared<const std::vector<TypePtr>>();
  EXPECT_EQ(CkyChart(load.lexicon, test.examples[0].words, parser).roots().size(), 2u);
  // Without a type system there are no types to restrict.
  parser.rootTypes = std::make_shared<const std::vector<TypePtr>>(rootTypes);
  parser.types = nullptr;
  EXPECT_EQ(CkyChart(load.lexicon, test.examples[0].words, parser).roots().size(), 2u);
}

// The learner keeps its training forms' root types in its parser options and in the model file
// (version 3, `# root-types`); a version 2 model, or a learner told not to, means any type.
TEST(CcgFublTest, ModelKeepsTheTrainingRootTypes) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 1;
  FublLearner learner(language.types, options);
  learner.train(language.train, language.fixed);
  ASSERT_TRUE(learner.options().parser.rootTypes);
  const std::string text = writeCcgModel(learner.lexicon(), learner.options().parser);
  EXPECT_NE(text.find("\n# root-types <e,t> e\n"), std::string::npos);
  CcgModelLoad load = readCcgModel(text, "m");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  ASSERT_TRUE(load.parser.rootTypes);
  ASSERT_EQ(load.parser.rootTypes->size(), 2u);
  EXPECT_EQ(toString(load.parser.rootTypes->at(0)), "<e,t>");
  EXPECT_EQ(writeCcgModel(load.lexicon, load.parser), text);
  const CcgModelLoad old = readCcgModel("# gwb-ccg-model 2\n# beam 10\nlexeme 1 a :- b:e\n", "m");
  EXPECT_FALSE(old.diagnostics.hasErrors());
  EXPECT_FALSE(old.parser.rootTypes) << "any type";
  const CcgModelLoad bad = readCcgModel("# gwb-ccg-model 3\n# root-types <e,t> <e\n", "m");
  ASSERT_TRUE(bad.diagnostics.hasErrors());
  EXPECT_EQ(toString(bad.diagnostics.items()[0]).substr(0, 58),
            "m:2:20: error: expected a type after '# root-types' (expec");
  // A line without a type would mean no root at all: refused; and an empty list is never written.
  const CcgModelLoad none = readCcgModel("# gwb-ccg-model 3\n# root-types \n", "m");
  ASSERT_TRUE(none.diagnostics.hasErrors());
  EXPECT_EQ(toString(none.diagnostics.items()[0]),
            "m:2:14: error: expected at least one type after '# root-types' (a model without the "
            "line lets a root have any type)");
  CkyOptions emptyRoots;
  emptyRoots.rootTypes = std::make_shared<const std::vector<TypePtr>>();
  EXPECT_EQ(writeCcgModel(load.lexicon, emptyRoots).find("root-types"), std::string::npos);
  options.restrictRootTypes = false;
  FublLearner anyRoot(language.types, options);
  anyRoot.initialise(language.train, language.fixed);
  EXPECT_FALSE(anyRoot.options().parser.rootTypes);
  EXPECT_EQ(writeCcgModel(anyRoot.lexicon(), anyRoot.options().parser).find("root-types"),
            std::string::npos);
}

// After the last pass only the items of the training examples' best correct parses stay (SPF's
// pruning, once): the lexemes and templates of y* — found here by parsing each example again in
// a chart of z's constants, as the learner's Step 1 does — and the fixed lexicon's, with exactly
// their weights and the pair weights among them; the language is still learned perfectly.
TEST(CcgFublTest, PruningAfterTheLastPassKeepsExactlyTheBestCorrectParsesItems) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 2;
  options.keepPosterior = 0.0;  // y*'s items only (the default also keeps likely ones; below)
  options.pruneAfterLastPass = false;
  FublLearner learner(language.types, options);
  learner.train(language.train, language.fixed);
  const FactoredLexicon before = learner.lexicon();

  std::set<std::string> lexemes;
  std::set<std::string> templates;
  for (const Lexeme& lexeme : language.fixed.lexemes()) lexemes.insert(lexemeKey(lexeme));
  for (const LexicalTemplate& fixed : language.fixed.templates()) {
    templates.insert(templateKey(fixed));
  }
  for (const SemanticExample& example : language.train) {
    CkyOptions parser = learner.options().parser;
    if (options.trainBeam > 0) parser.beam = options.trainBeam;
    const std::vector<std::string> constants = constantsInOrder(example.logicalForm);
    parser.allowedConstants =
        std::make_shared<const std::unordered_set<std::string>>(constants.begin(), constants.end());
    const CkyChart chart(before, example.words, parser);
    Derivation best;
    ASSERT_TRUE(chart.bestDerivation(example.logicalForm, &best));
    std::vector<const DerivationNode*> open = {&best.root};
    while (!open.empty()) {
      const DerivationNode* node = open.back();
      open.pop_back();
      for (const DerivationNode& child : node->children) open.push_back(&child);
      if (!node->children.empty()) continue;
      lexemes.insert(lexemeKey(before.lexemes()[node->lexeme]));
      templates.insert(templateKey(before.templates()[node->lexicalTemplate]));
    }
  }

  const FinalPruning pruning = learner.pruneToBestCorrectParses();
  EXPECT_EQ(pruning.examples, 9);
  EXPECT_EQ(pruning.parsable, 9);
  EXPECT_EQ(pruning.lexemesBefore, before.lexemes().size());
  const FactoredLexicon& after = learner.lexicon();
  EXPECT_EQ(pruning.lexemes, after.lexemes().size());
  EXPECT_LT(after.lexemes().size(), before.lexemes().size()) << "something is dropped";
  std::set<std::string> keptLexemes;
  std::set<std::string> keptTemplates;
  for (const Lexeme& lexeme : after.lexemes()) keptLexemes.insert(lexemeKey(lexeme));
  for (const LexicalTemplate& kept : after.templates()) keptTemplates.insert(templateKey(kept));
  EXPECT_EQ(keptLexemes, lexemes);
  EXPECT_EQ(keptTemplates, templates);
  // Weights: exactly those of kept items and of pairs of kept items, with their values.
  for (const auto& [feature, weight] : before.weights()) {
    bool keep = true;
    if (feature.rfind("lexeme:", 0) == 0) keep = lexemes.count(feature.substr(7)) > 0;
    if (feature.rfind("template:", 0) == 0) keep = templates.count(feature.substr(9)) > 0;
    if (feature.rfind("pair:", 0) == 0) {
      const std::size_t bar = feature.find(" || ");
      keep = lexemes.count(feature.substr(5, bar - 5)) > 0 &&
             templates.count(feature.substr(bar + 4)) > 0;
    }
    EXPECT_EQ(after.hasWeight(feature), keep) << feature;
    if (keep) {
      EXPECT_EQ(after.weight(feature), weight) << feature;
    }
  }

  // train() prunes so: the same model; and the language is still learned.
  options.pruneAfterLastPass = true;
  FublLearner pruned(language.types, options);
  pruned.train(language.train, language.fixed);
  EXPECT_EQ(writeFactoredLexicon(pruned.lexicon()), writeFactoredLexicon(after));
  const EvaluationResult onTest =
      evaluateSemanticParser(after, learner.options().parser, language.test, {});
  EXPECT_EQ(onTest.plain.correct, 3);
  EXPECT_EQ(onTest.plain.answered, 3);
}

// gwb ccg prune: a model trained whole (pruneAfterLastPass off), written to its file, read back
// and adopted by a fresh learner with the training pairs and fixed lexicon, prunes to the very
// model training would have saved, with the default threshold and with none (y*'s items only);
// and FublOptions::keepPosterior keeps exactly the y* items plus every lexeme and template whose
// expected count in an example's parses of z reaches the threshold (computed here from each
// chart of z's expectations), a superset of y*'s.
TEST_F(CcgFublGeo250Test, PruningASavedWholeModelAndKeepingLikelyItems) {
  const std::vector<SemanticExample> pairs(train.examples.begin(), train.examples.begin() + 60);
  FublOptions options;
  options.passes = 2;
  options.seed = 3;
  FublLearner trainedByDefault(types.types, options);
  trainedByDefault.train(pairs, fixed.lexicon);
  const std::string prunedByDefault =
      writeCcgModel(trainedByDefault.model(), trainedByDefault.options().parser);
  options.keepPosterior = 0.0;
  FublLearner trained(types.types, options);
  trained.train(pairs, fixed.lexicon);
  const std::string prunedInTraining = writeCcgModel(trained.model(), trained.options().parser);
  EXPECT_NE(prunedByDefault, prunedInTraining) << "the default threshold keeps more";

  options.pruneAfterLastPass = false;
  FublLearner whole(types.types, options);
  whole.train(pairs, fixed.lexicon);
  const CcgModelLoad saved =
      readCcgModel(writeCcgModel(whole.model(), whole.options().parser), "whole.model");
  ASSERT_FALSE(saved.diagnostics.hasErrors());
  CkyOptions parser = saved.parser;
  parser.types = &types.types;
  auto prunedWith = [&](double keepPosterior, FinalPruning* pruning) {
    FublOptions adopted;
    adopted.keepPosterior = keepPosterior;
    FublLearner learner(types.types, adopted);
    learner.adoptModel(saved.lexicon, parser, pairs, fixed.lexicon);
    *pruning = learner.pruneToBestCorrectParses();
    return learner.model();
  };
  FinalPruning byDefault;
  EXPECT_EQ(writeCcgModel(prunedWith(FublOptions().keepPosterior, &byDefault), parser),
            prunedByDefault);
  EXPECT_GT(byDefault.widenedByPosterior, 0);
  FinalPruning plain;
  const FactoredLexicon byBestParses = prunedWith(0.0, &plain);
  EXPECT_EQ(writeCcgModel(byBestParses, parser), prunedInTraining);
  EXPECT_EQ(plain.parsable, 60);
  EXPECT_EQ(plain.widenedByPosterior, 0);

  // The oracle for the threshold: y*'s items and the likely ones of each chart.
  const double threshold = 0.05;
  std::set<std::string> lexemes;
  std::set<std::string> templates;
  for (const Lexeme& lexeme : byBestParses.lexemes()) lexemes.insert(lexemeKey(lexeme));
  for (const LexicalTemplate& kept : byBestParses.templates()) templates.insert(templateKey(kept));
  const std::size_t defaultLexemes = lexemes.size();
  const std::size_t defaultTemplates = templates.size();
  FactoredLexicon wholeLexicon = saved.lexicon;
  wholeLexicon.buildEntries(&types.types);
  for (const SemanticExample& example : pairs) {
    CkyOptions restricted = parser;
    const std::vector<std::string> constants = constantsInOrder(example.logicalForm);
    restricted.allowedConstants =
        std::make_shared<const std::unordered_set<std::string>>(constants.begin(), constants.end());
    const CkyChart chart(wholeLexicon, example.words, restricted);
    const std::string lexemePrefix = "lexeme:";
    const std::string templatePrefix = "template:";
    // Counts, not scores: every lexical item of a parse is one lexeme and one template (0.1 a
    // use), so the expected numbers of both are the expected number of lexical items, at least
    // 1 and at most the words.
    double lexemeUses = 0;
    double templateUses = 0;
    for (const auto& [feature, value] : chart.expectations(&example.logicalForm)) {
      if (feature.rfind(lexemePrefix, 0) == 0) {
        lexemeUses += value;
        if (value >= threshold) lexemes.insert(feature.substr(lexemePrefix.size()));
      }
      if (feature.rfind(templatePrefix, 0) == 0) {
        templateUses += value / kTemplateFeatureValue;
        if (value >= threshold * kTemplateFeatureValue) {
          templates.insert(feature.substr(templatePrefix.size()));
        }
      }
    }
    EXPECT_NEAR(lexemeUses, templateUses, 1e-6);
    EXPECT_GE(lexemeUses, 1.0 - 1e-9);
    EXPECT_LE(lexemeUses, static_cast<double>(example.words.size()) + 1e-9);
  }
  ASSERT_GT(lexemes.size() + templates.size(), defaultLexemes + defaultTemplates)
      << "the threshold keeps something more on these pairs";
  FinalPruning widened;
  const FactoredLexicon likely = prunedWith(threshold, &widened);
  std::set<std::string> keptLexemes;
  std::set<std::string> keptTemplates;
  for (const Lexeme& lexeme : likely.lexemes()) keptLexemes.insert(lexemeKey(lexeme));
  for (const LexicalTemplate& kept : likely.templates()) keptTemplates.insert(templateKey(kept));
  EXPECT_EQ(keptLexemes, lexemes);
  EXPECT_EQ(keptTemplates, templates);
  EXPECT_GT(widened.widenedByPosterior, 0);
  EXPECT_EQ(widened.lexemes, keptLexemes.size());
  // Weights of what is kept are the whole model's.
  for (const auto& [feature, weight] : likely.weights()) {
    ASSERT_TRUE(wholeLexicon.hasWeight(feature)) << feature;
    EXPECT_EQ(weight, wholeLexicon.weight(feature)) << feature;
  }
}

// The pruning after the last pass reports each re-parsed example to the observer (after the
// passes' reports) and stops at the cancel flag like a pass: then nothing is pruned, the lexicon
// stays the last pass's and the passes count as finished; uncancelled, train(control) prunes as
// train() does.
TEST(CcgFublTest, PruningAfterTheLastPassReportsProgressAndCancels) {
  const Language language = makeLanguage();
  FublOptions options;
  options.passes = 2;
  struct Recorder : FublObserver {
    std::vector<std::string> events;
    std::atomic<bool> cancel{false};
    int cancelAtPruningExample = -1;
    void onExample(const FublProgress& p) override {
      events.push_back("example " + std::to_string(p.pass) + "." + std::to_string(p.example));
    }
    void onPass(const PassSummary& summary, const FactoredLexicon& /*lexicon*/) override {
      events.push_back("pass " + std::to_string(summary.pass));
    }
    void onPruningExample(const FublProgress& p) override {
      events.push_back("pruning " + std::to_string(p.pass) + "." + std::to_string(p.example) + "/" +
                       std::to_string(p.examples));
      if (p.example == cancelAtPruningExample) cancel = true;
    }
  };
  const int examples = static_cast<int>(language.train.size());

  Recorder whole;
  FublLearner learner(language.types, options);
  EXPECT_EQ(learner.train(language.train, language.fixed, FublControl{&whole, &whole.cancel}), 2);
  ASSERT_EQ(whole.events.size(), static_cast<std::size_t>(3 * examples + 2));
  EXPECT_EQ(whole.events[static_cast<std::size_t>(2 * examples + 1)], "pass 2");
  EXPECT_EQ(whole.events[static_cast<std::size_t>(2 * examples + 2)],
            "pruning 2.1/" + std::to_string(examples));
  EXPECT_EQ(whole.events.back(),
            "pruning 2." + std::to_string(examples) + "/" + std::to_string(examples));
  FublLearner plain(language.types, options);
  plain.train(language.train, language.fixed);
  EXPECT_EQ(writeFactoredLexicon(learner.lexicon()), writeFactoredLexicon(plain.lexicon()));

  Recorder stopped;
  stopped.cancelAtPruningExample = 3;
  options.pruneAfterLastPass = false;
  FublLearner unpruned(language.types, options);
  unpruned.train(language.train, language.fixed);
  options.pruneAfterLastPass = true;
  FublLearner cancelled(language.types, options);
  EXPECT_EQ(cancelled.train(language.train, language.fixed, FublControl{&stopped, &stopped.cancel}),
            2);
  EXPECT_EQ(stopped.events.back(), "pruning 2.3/" + std::to_string(examples));
  EXPECT_EQ(writeFactoredLexicon(cancelled.lexicon()), writeFactoredLexicon(unpruned.lexicon()));
  const FinalPruning again =
      cancelled.pruneToBestCorrectParses(FublControl{&stopped, &stopped.cancel});
  EXPECT_TRUE(again.cancelled);
  EXPECT_EQ(again.lexemes, again.lexemesBefore);
  EXPECT_EQ(writeFactoredLexicon(cancelled.lexicon()), writeFactoredLexicon(unpruned.lexicon()));
}

}  // namespace
}  // namespace gwb::ccg
