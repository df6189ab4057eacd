// `gwb ccg train|evaluate|crossval`: learning a factored CCG semantic parser from sentences
// paired with logical forms (FUBL, Kwiatkowski et al. 2011), and exact-match evaluation.
#include "ccg_learn_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <unistd.h>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/fubl_learner.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/common/atomic_file.h"

namespace gwb::cli {

namespace {

namespace fs = std::filesystem;

void printDiagnostics(const Diagnostics& diagnostics, std::ostream& out) {
  for (const Diagnostic& d : diagnostics) out << toString(d) << '\n';
}

struct TypeInput {
  std::string types;
  std::string lang;
};

void addTypeOptions(CLI::App& command, TypeInput& input) {
  command
      .add_option("--types", input.types,
                  "entity types (default: geo-lambda.types beside the data or in a folder above)")
      ->check(CLI::ExistingFile);
  command
      .add_option("--lang", input.lang,
                  "predicate signatures (default: geo-lambda.lang found the same way)")
      ->check(CLI::ExistingFile);
}

// The named file in `start`'s folder or the nearest folder above it; "" if none.
std::string findAbove(const std::string& start, const std::string& name) {
  std::error_code error;
  fs::path folder = fs::absolute(fs::path(start), error);
  if (!fs::is_directory(folder, error)) folder = folder.parent_path();
  for (int up = 0; up < 8 && !folder.empty(); ++up) {
    if (fs::exists(folder / name, error)) return (folder / name).string();
    if (folder == folder.parent_path()) break;
    folder = folder.parent_path();
  }
  return "";
}

std::unique_ptr<ccg::TypeSystem> loadTypes(const TypeInput& input, const std::string& data,
                                           Diagnostics* diagnostics) {
  std::string types = input.types;
  std::string lang = input.lang;
  if (types.empty()) types = findAbove(data, "geo-lambda.types");
  if (lang.empty()) lang = findAbove(data, "geo-lambda.lang");
  if (types.empty() || lang.empty()) {
    diagnostics->error(data, 0, 0,
                       "no type system: give --types and --lang (geo-lambda.types and "
                       "geo-lambda.lang), or keep them beside the data or in a folder above");
    return nullptr;
  }
  ccg::TypeSystemLoad load = ccg::loadTypeSystem(types, lang);
  diagnostics->append(load.diagnostics);
  return std::make_unique<ccg::TypeSystem>(std::move(load.types));
}

struct TrainSettings {
  std::string train;
  std::string out;
  std::string test;  // gwb ccg train --test: held-out pairs scored after every pass
  std::vector<std::string> fixedLexicons;
  TypeInput types;
  int passes = ccg::FublOptions().passes;
  unsigned long long seed = 0;
  int threads = 1;
  int beam = 200;
  double learningRate = 1.0;
  double coolingRate = 1e-5;
  int partFacMinCount = 3;
  int trainBeam = 0;
  std::string beamRank = "inside";
  bool keepLexicalEntries = false;
  bool prune = false;
  bool noPrune = false;
  bool unconstrained = false;
  std::string newLexNodes = "all";
  bool merge = false;
  bool noEtaIdentitySplits = false;
  std::string splitTest = "gain";
  bool acceptEverySplit = false;
  bool quantifiersInLexemes = false;
  std::string lexemeOperators = ccg::lexicalOperatorsName(ccg::FublOptions().lexicalOperators);
  bool fixedWeightPerWord = false;
  bool anyRootType = false;
  bool keepLexicon = false;
  bool averageWeights = false;
  double keepPosterior = ccg::FublOptions().keepPosterior;
  bool quiet = false;
};

struct TrainedModel {
  std::unique_ptr<ccg::FublLearner> learner;
  std::unique_ptr<ccg::TypeSystem> types;
  bool ok = false;
};

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled) {}
  void show(const ccg::FublProgress& progress, const char* label = nullptr) {
    if (!enabled_ || (progress.example % 10 != 0 && progress.example != progress.examples)) return;
    const int width = 30;
    const int filled =
        progress.examples != 0 ? width * progress.example / progress.examples : width;
    std::cerr << '\r';
    if (label != nullptr) {
      std::cerr << label;
    } else {
      std::cerr << "pass " << progress.pass;
    }
    std::cerr << " [" << std::string(filled, '#') << std::string(width - filled, ' ') << "] "
              << progress.example << "/" << progress.examples << std::flush;
    drawn_ = true;
  }
  void clear() {
    if (drawn_) std::cerr << '\r' << std::string(60, ' ') << '\r' << std::flush;
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool drawn_ = false;
};

// The final pruning's re-parses on the progress line.
struct PruningProgress : ccg::FublObserver {
  explicit PruningProgress(ProgressLine* progressLine) : line(progressLine) {}
  void onPruningExample(const ccg::FublProgress& p) override { line->show(p, "pruning"); }
  ProgressLine* line;
};

// The fixed lexicons (np-fixedlex.geo), merged into one.
ccg::FactoredLexicon loadFixedLexicons(const std::vector<std::string>& paths,
                                       Diagnostics* diagnostics) {
  ccg::FactoredLexicon fixed;
  for (const std::string& path : paths) {
    ccg::LexiconLoad load = ccg::loadFixedLexicon(path);
    diagnostics->append(load.diagnostics);
    ccg::mergeLexicon(&fixed, load.lexicon);
  }
  return fixed;
}

void printFinalPruning(const ccg::FinalPruning& pruning, double keepPosterior, std::ostream& log) {
  log << "kept the items of the best correct parses (" << pruning.parsable << "/"
      << pruning.examples << " examples with one";
  if (keepPosterior > 0) {
    log << "; and those used at least " << std::defaultfloat << std::setprecision(6)
        << keepPosterior << " times in expectation, which added to " << pruning.widenedByPosterior
        << " examples' items";
  }
  log << "): lexicon " << pruning.lexemesBefore << " -> " << pruning.lexemes << " lexemes, "
      << pruning.templatesBefore << " -> " << pruning.templates << " templates, "
      << pruning.entriesBefore << " -> " << pruning.entries << " entries\n"
      << std::flush;
}

// `afterPass`, when given, runs after each pass (gwb ccg train saves the model then, so that a
// long run that is stopped leaves the last finished pass's model) and once more after the final
// pruning; `initialised`, when given, once the initial lexicon is built.
TrainedModel trainModel(const TrainSettings& s, const std::string& trainPath,
                        const std::vector<std::string>& fixedLexicons, std::ostream& log,
                        const std::function<bool(const ccg::FublLearner&)>& afterPass = {},
                        const std::function<void(const ccg::FublLearner&)>& initialised = {}) {
  TrainedModel out;
  Diagnostics diagnostics;
  ccg::SemanticExamplesLoad train = ccg::loadSemanticExamples(trainPath);
  diagnostics.append(train.diagnostics);
  out.types = loadTypes(s.types, trainPath, &diagnostics);
  const ccg::FactoredLexicon fixed = loadFixedLexicons(fixedLexicons, &diagnostics);
  if (diagnostics.hasErrors() || !out.types) {
    printDiagnostics(diagnostics, std::cerr);
    return out;
  }
  ccg::FublOptions options;
  options.passes = s.passes;
  options.seed = s.seed;
  options.learningRate = s.learningRate;
  options.coolingRate = s.coolingRate;
  options.parser.beam = s.beam;
  options.partFacMinCount = s.partFacMinCount;
  options.trainBeam = s.trainBeam;
  options.parser.beamRanking =
      s.beamRank == "viterbi" ? ccg::BeamRanking::Viterbi : ccg::BeamRanking::Inside;
  options.parser.keepLexicalEntries = s.keepLexicalEntries;
  options.pruneUnused = s.prune && !s.noPrune;
  options.constrainCorrectParse = !s.unconstrained;
  options.fixedWeightPerWord = s.fixedWeightPerWord;
  options.newLexNodes = s.newLexNodes == "all" ? ccg::FublOptions::NewLexNodes::AllNodes
                                               : ccg::FublOptions::NewLexNodes::Leaves;
  options.merge = s.merge;
  options.splitting.etaIdentityFunctions = !s.noEtaIdentitySplits;
  options.splitTest = s.acceptEverySplit || s.splitTest == "always"
                          ? ccg::FublOptions::SplitTest::Always
                      : s.splitTest == "gain" ? ccg::FublOptions::SplitTest::Gain
                                              : ccg::FublOptions::SplitTest::Reparse;
  // The option's check admits only the sets' names, and the two options exclude each other.
  ccg::lexicalOperatorsNamed(s.quantifiersInLexemes ? "quantifiers" : s.lexemeOperators,
                             &options.lexicalOperators);
  options.restrictRootTypes = !s.anyRootType;
  options.pruneAfterLastPass = !s.keepLexicon;
  options.averageWeights = s.averageWeights;
  options.keepPosterior = s.keepPosterior;
  options.threads = s.threads;
  out.learner = std::make_unique<ccg::FublLearner>(*out.types, options);
  out.learner->initialise(train.examples, fixed);
  if (!s.quiet) {
    log << trainPath << ": " << train.examples.size() << " pairs; initial lexicon "
        << out.learner->lexicon().lexemes().size() << " lexemes, "
        << out.learner->lexicon().templates().size() << " templates, "
        << out.learner->lexicon().entryCount() << " entries\n";
  }
  if (initialised) initialised(*out.learner);
  ProgressLine progress(!s.quiet && isatty(STDERR_FILENO) != 0);
  for (int pass = 0; pass < s.passes; ++pass) {
    const ccg::PassSummary summary =
        out.learner->runPass([&](const ccg::FublProgress& p) { progress.show(p); });
    progress.clear();
    if (!s.quiet) {
      log << "pass " << summary.pass << ": train accuracy " << std::fixed << std::setprecision(1)
          << 100.0 * summary.correctBeforeUpdate / std::max(1, summary.examples) << "% ("
          << summary.correctBeforeUpdate << "/" << summary.examples << "), " << summary.parsable
          << " with a correct parse, log-likelihood " << std::setprecision(2)
          << summary.logLikelihood << " (" << summary.zOutsideFullChart
          << " with z only in the chart of z, " << summary.wholeSentenceBest
          << " right by a whole-sentence item, update L1 " << summary.updateL1 << "), splits "
          << summary.splitsAdded << " kept (" << summary.mergesAdded << " merges) / "
          << summary.splitsRejected << " rejected, " << summary.restored
          << " whole-sentence items restored, " << summary.partFacTemplates
          << " PART-FAC templates; pruned " << summary.lexemesPruned << " lexemes, "
          << summary.templatesPruned << " templates; lexicon " << summary.lexemes << " lexemes, "
          << summary.templates << " templates, " << summary.entries << " entries; "
          << std::setprecision(1) << summary.seconds << " s (slowest example: line "
          << summary.slowestLine << ", " << std::setprecision(2) << summary.slowestSeconds
          << " s)\n"
          << std::defaultfloat << std::flush;
    }
    if (afterPass && !afterPass(*out.learner)) return out;
  }
  if (options.pruneAfterLastPass && s.passes > 0) {
    // The re-parse of every training example takes about a pass's Step 1: it shows progress.
    PruningProgress pruningProgress(&progress);
    const ccg::FinalPruning pruning =
        out.learner->pruneToBestCorrectParses(ccg::FublControl{&pruningProgress, nullptr});
    progress.clear();
    if (!s.quiet) printFinalPruning(pruning, options.keepPosterior, log);
    if (afterPass && !afterPass(*out.learner)) return out;
  }
  out.ok = true;
  return out;
}

void printScores(const char* label, const ccg::ExactMatchScores& scores, std::ostream& out) {
  out << label << "R " << std::fixed << std::setprecision(1) << 100 * scores.recall() << "  P "
      << 100 * scores.precision() << "  F1 " << 100 * scores.f1() << "  (" << scores.correct
      << " correct, " << scores.answered << " answered, " << scores.tied << " tied, "
      << scores.sentences << " sentences)\n"
      << std::defaultfloat;
}

// The held-out scores of the learner's current model (gwb ccg train --test): two lines, as
// crossval prints a fold's.
void printHeldOutScores(const std::string& label, const ccg::FublLearner& learner,
                        const std::vector<ccg::SemanticExample>& test, int threads) {
  ccg::EvaluationOptions options;
  options.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  const ccg::EvaluationResult result =
      ccg::evaluateSemanticParser(learner.model(), learner.options().parser, test, options);
  std::ostringstream heading;
  heading << label << " test (" << std::fixed << std::setprecision(1)
          << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
          << " s): ";
  printScores(heading.str().c_str(), result.plain, std::cout);
  printScores("        word skipping: ", result.withSkipping, std::cout);
  std::cout << std::flush;
}

int runTrain(const TrainSettings& s) {
  const auto start = std::chrono::steady_clock::now();
  ccg::SemanticExamplesLoad heldOut;
  if (!s.test.empty()) {
    heldOut = ccg::loadSemanticExamples(s.test);
    if (heldOut.diagnostics.hasErrors()) {
      printDiagnostics(heldOut.diagnostics, std::cerr);
      return 1;
    }
  }
  // Calls of `afterPass`: one a pass, then one after the final pruning (when it runs).
  int finished = 0;
  auto save = [&](const ccg::FublLearner& learner) {
    std::string error;
    if (!ccg::saveCcgModel(learner.model(), learner.options().parser, s.out, &error)) {
      std::cerr << "error: " << error << '\n';
      return false;
    }
    ++finished;
    if (!s.test.empty()) {
      printHeldOutScores(finished <= s.passes ? "pass " + std::to_string(finished) : "final model",
                         learner, heldOut.examples, s.threads);
    }
    return true;
  };
  auto initialised = [&](const ccg::FublLearner& learner) {
    if (!s.test.empty()) printHeldOutScores("pass 0", learner, heldOut.examples, s.threads);
  };
  TrainedModel model = trainModel(s, s.train, s.fixedLexicons, std::cout, save, initialised);
  if (!model.ok || (s.passes == 0 && !save(*model.learner))) return 1;
  std::cout << "wrote " << s.out << " (" << std::fixed << std::setprecision(1)
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s in all)\n"
            << std::defaultfloat;
  return 0;
}

struct EvaluateSettings {
  std::string model;
  std::string test;
  std::string errors;
  TypeInput types;
  int threads = 1;
  bool noSkipping = false;
  bool answerTies = false;
  bool bestDerivation = false;
  bool anyRootType = false;
  bool diagnose = false;
};

bool writeErrors(const std::string& path, const std::vector<ccg::SemanticExample>& test,
                 const ccg::EvaluationResult& result) {
  std::ostringstream text;
  for (std::size_t i = 0; i < test.size(); ++i) {
    const ccg::SentenceResult& sentence = result.sentences[i];
    if (sentence.correctWithSkipping && sentence.correct) continue;
    for (const std::string& word : test[i].words) text << word << ' ';
    text << "\n  line " << test[i].sentenceLine
         << "\n  gold:      " << toString(test[i].logicalForm) << "\n  predicted: "
         << (sentence.answer ? toString(sentence.answer)
             : sentence.tied ? "(abstained: logical forms tied for the best score)"
                             : "(no parse)");
    if (sentence.answerWithSkipping && !sentence.answer) {
      text << "\n  skipping:  " << toString(sentence.answerWithSkipping)
           << (sentence.correctWithSkipping ? "  (correct)" : "");
    }
    const std::string why = ccg::describe(sentence.diagnosis);
    if (!why.empty()) text << "\n  why:       " << why;
    text << "\n\n";
  }
  std::string error;
  const std::string body = text.str();
  if (!writeFileAtomically(
          path, [&](std::ostream& out) { return static_cast<bool>(out << body); }, &error)) {
    std::cerr << "error: " << error << '\n';
    return false;
  }
  return true;
}

std::string rootTypeNames(const ccg::CkyOptions& parser) {
  std::string names;
  for (const ccg::TypePtr& type : *parser.rootTypes) {
    names += (names.empty() ? "" : " ") + ccg::toString(type);
  }
  return names;
}

int runEvaluate(const EvaluateSettings& s) {
  Diagnostics diagnostics;
  ccg::CcgModelLoad model = ccg::loadCcgModel(s.model);
  diagnostics.append(model.diagnostics);
  ccg::SemanticExamplesLoad test = ccg::loadSemanticExamples(s.test);
  diagnostics.append(test.diagnostics);
  std::unique_ptr<ccg::TypeSystem> types = loadTypes(s.types, s.test, &diagnostics);
  if (diagnostics.hasErrors() || !types) {
    printDiagnostics(diagnostics, std::cerr);
    return 1;
  }
  model.lexicon.buildEntries(types.get());
  model.parser.types = types.get();  // combinations type-checked, as in training
  if (s.anyRootType) model.parser.rootTypes = nullptr;
  ccg::EvaluationOptions options;
  options.threads = s.threads;
  options.wordSkipping = !s.noSkipping;
  options.abstainOnTies = !s.answerTies;
  options.mostProbableLogicalForm = !s.bestDerivation;
  options.diagnoseErrors = !s.errors.empty() || s.diagnose;
  const auto start = std::chrono::steady_clock::now();
  const ccg::EvaluationResult result =
      ccg::evaluateSemanticParser(model.lexicon, model.parser, test.examples, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double slowest = 0;
  for (const auto& sentence : result.sentences) slowest = std::max(slowest, sentence.seconds);
  std::cout << s.test << ": " << test.examples.size() << " sentences, model " << s.model << " ("
            << model.lexicon.lexemes().size() << " lexemes, " << model.lexicon.templates().size()
            << " templates; root types "
            << (model.parser.rootTypes == nullptr ? std::string("any")
                                                  : rootTypeNames(model.parser))
            << ")\n";
  printScores("exact match:                 ", result.plain, std::cout);
  if (!s.noSkipping) printScores("exact match, word skipping:  ", result.withSkipping, std::cout);
  std::cout << "parse time: " << std::fixed << std::setprecision(2) << seconds << " s in all, "
            << (result.sentences.empty()
                    ? 0
                    : 1000 * seconds / static_cast<double>(result.sentences.size()))
            << " ms a sentence on average, slowest " << 1000 * slowest << " ms\n"
            << std::defaultfloat;
  if (options.diagnoseErrors) {
    std::cout << "not right without skipping: " << result.outscored
              << " outscored (gold in the chart, less probable or tied), " << result.pruned
              << " pruned (derivable, off the beam), " << result.notDerivable << " not derivable ("
              << result.notDerivableUnseen << " with a word no lexeme holds; "
              << result.notDerivableSkipping << " derivable when words are skipped)\n";
  }
  if (!s.errors.empty() && !writeErrors(s.errors, test.examples, result)) return 1;
  return 0;
}

struct CrossvalSettings {
  TrainSettings train;
  std::string folder;
  int folds = 0;  // 0: all fold-* folders
};

int runCrossval(const CrossvalSettings& s) {
  std::vector<std::string> folds;
  std::error_code error;
  for (int fold = 0; fold < 100; ++fold) {
    const fs::path path = fs::path(s.folder) / ("fold-" + std::to_string(fold));
    if (!fs::is_directory(path, error)) break;
    folds.push_back(path.string());
  }
  if (folds.empty()) {
    std::cerr << s.folder << ": error: no fold-0, fold-1, ... folders (each with train and test)\n";
    return 1;
  }
  if (s.folds > 0 && static_cast<int>(folds.size()) > s.folds) folds.resize(s.folds);
  std::vector<std::string> fixed = s.train.fixedLexicons;
  if (fixed.empty()) {
    std::string folder = s.folder;
    while (!folder.empty() && folder.back() == '/') folder.pop_back();
    const std::string sibling = folder + "-np-fixedlex.geo";
    if (fs::exists(sibling, error)) fixed.push_back(sibling);
  }
  std::cout << "cross-validation over " << folds.size() << " folds of " << s.folder
            << (fixed.empty() ? ", no fixed lexicon" : ", fixed lexicon " + fixed.front())
            << std::endl;
  ccg::ExactMatchScores plainSum;
  ccg::ExactMatchScores skipSum;
  double f1Plain = 0;
  double f1Skip = 0;
  for (const std::string& fold : folds) {
    TrainSettings quiet = s.train;
    quiet.quiet = true;
    const auto start = std::chrono::steady_clock::now();
    TrainedModel model = trainModel(quiet, fold + "/train", fixed, std::cout);
    if (!model.ok) return 1;
    ccg::SemanticExamplesLoad test = ccg::loadSemanticExamples(fold + "/test");
    if (test.diagnostics.hasErrors()) {
      printDiagnostics(test.diagnostics, std::cerr);
      return 1;
    }
    ccg::EvaluationOptions options;
    options.threads = s.train.threads;
    const ccg::EvaluationResult result = ccg::evaluateSemanticParser(
        model.learner->model(), model.learner->options().parser, test.examples, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << fs::path(fold).filename().string() << ": ";
    printScores("", result.plain, std::cout);
    std::cout << "        word skipping: ";
    printScores("", result.withSkipping, std::cout);
    std::cout << "        " << std::fixed << std::setprecision(1) << seconds << " s" << std::endl
              << std::defaultfloat;
    for (ccg::ExactMatchScores* sum : {&plainSum, &skipSum}) {
      const ccg::ExactMatchScores& add = sum == &plainSum ? result.plain : result.withSkipping;
      sum->sentences += add.sentences;
      sum->answered += add.answered;
      sum->correct += add.correct;
      sum->tied += add.tied;
    }
    f1Plain += result.plain.f1();
    f1Skip += result.withSkipping.f1();
  }
  const auto n = static_cast<double>(folds.size());
  std::cout << "pooled:  ";
  printScores("", plainSum, std::cout);
  std::cout << "pooled, word skipping:  ";
  printScores("", skipSum, std::cout);
  std::cout << "mean F1 over folds: " << std::fixed << std::setprecision(1) << 100 * f1Plain / n
            << " (word skipping " << 100 * f1Skip / n << ")\n";
  return 0;
}

struct PruneSettings {
  std::string model;
  std::string train;
  std::string out;
  std::vector<std::string> fixedLexicons;
  TypeInput types;
  double keepPosterior = ccg::FublOptions().keepPosterior;
  int trainBeam = 0;
  bool unconstrained = false;
  int threads = 1;
};

// gwb ccg prune: the pruning after the last pass, on a model saved whole (--keep-lexicon).
int runPrune(const PruneSettings& s) {
  Diagnostics diagnostics;
  ccg::CcgModelLoad model = ccg::loadCcgModel(s.model);
  diagnostics.append(model.diagnostics);
  ccg::SemanticExamplesLoad train = ccg::loadSemanticExamples(s.train);
  diagnostics.append(train.diagnostics);
  const ccg::FactoredLexicon fixed = loadFixedLexicons(s.fixedLexicons, &diagnostics);
  std::unique_ptr<ccg::TypeSystem> types = loadTypes(s.types, s.train, &diagnostics);
  if (diagnostics.hasErrors() || !types) {
    printDiagnostics(diagnostics, std::cerr);
    return 1;
  }
  ccg::FublOptions options;
  options.keepPosterior = s.keepPosterior;
  options.trainBeam = s.trainBeam;
  options.constrainCorrectParse = !s.unconstrained;
  options.threads = s.threads;
  ccg::FublLearner learner(*types, options);
  learner.adoptModel(model.lexicon, model.parser, train.examples, fixed);
  ProgressLine progress(isatty(STDERR_FILENO) != 0);
  PruningProgress pruningProgress(&progress);
  const ccg::FinalPruning pruning =
      learner.pruneToBestCorrectParses(ccg::FublControl{&pruningProgress, nullptr});
  progress.clear();
  printFinalPruning(pruning, s.keepPosterior, std::cout);
  std::string error;
  if (!ccg::saveCcgModel(learner.model(), learner.options().parser, s.out, &error)) {
    std::cerr << "error: " << error << '\n';
    return 1;
  }
  return 0;
}

void addTrainOptions(CLI::App& command, TrainSettings& s) {
  command
      .add_option("--fixed-lexicon", s.fixedLexicons,
                  "fixed entity lexicon (np-fixedlex.geo: WORDS :- NP : constant a line)")
      ->check(CLI::ExistingFile);
  addTypeOptions(command, s.types);
  command.add_option("--passes", s.passes, "passes over the training data")
      ->check(CLI::Range(0, 1000));
  command.add_option("--seed", s.seed, "shuffle the examples in each pass (0: data order)");
  command
      .add_option("--threads,-t", s.threads,
                  "threads: for evaluation parses; in training, the chart of x and the chart of z "
                  "of an example filled at once and the final pruning's re-parses (the model is "
                  "the same for any count)")
      ->check(CLI::Range(1, 256));
  command.add_option("--beam,-b", s.beam, "entries kept per chart cell")
      ->check(CLI::Range(1, 100000));
  command
      .add_option("--part-fac-min", s.partFacMinCount,
                  "a PART-FAC template joins once this many examples' best parses gave it")
      ->check(CLI::Range(1, 1000000));
  command
      .add_option("--train-beam", s.trainBeam,
                  "entries per cell in the training charts (0, the default: --beam, as UBL)")
      ->check(CLI::Range(0, 1000000));
  command
      .add_option("--beam-rank", s.beamRank,
                  "what a cell's beam ranks entries by, in training and (kept in the model) at "
                  "test: 'inside' (the sum over an entry's derivations) or 'viterbi' (its best "
                  "derivation's score, as UBL)")
      ->check(CLI::IsMember({"inside", "viterbi"}));
  command.add_flag("--keep-lexical-entries", s.keepLexicalEntries,
                   "never prune an entry the lexicon gives, in training and (kept in the model) "
                   "at test; the others compete for the places left (UBL's chart)");
  command.add_flag("--prune", s.prune,
                   "after each pass, drop the lexemes and templates that no best correct parse of "
                   "it used (not in the paper; it takes z's other derivations out of the charts)");
  command.add_flag("--no-prune", s.noPrune,
                   "keep every lexeme and template (the default, as Figure 1 of the paper)");
  command.add_flag("--unconstrained", s.unconstrained,
                   "find the best correct parse in the full chart, not one restricted to the "
                   "logical form's constants");
  command
      .add_option("--new-lex-nodes", s.newLexNodes,
                  "which nodes of the best correct parse NEW-LEX splits: 'all' (the default, as "
                  "UBL: every node, a half may be the chart's constituent, all tied splits added) "
                  "or 'leaves' (its lexical items, both halves new)")
      ->check(CLI::IsMember({"leaves", "all"}));
  command.add_flag("--merge", s.merge,
                   "NEW-LEX also merges: an internal node of the best correct parse may become one "
                   "multi-word item (section 7.1; UBL), in competition with the splits");
  command
      .add_option("--split-test", s.splitTest,
                  "when NEW-LEX keeps its best split: 'gain' (the default: it does not lower the "
                  "best correct parse's score, as UBL's and SPF's code), 'reparse' (that, and "
                  "re-parsing finds a parse that good) or 'always' (Figure 1 read literally)")
      ->check(CLI::IsMember({"reparse", "gain", "always"}));
  command.add_flag("--accept-every-split", s.acceptEverySplit, "the same as --split-test always");
  CLI::Option* lexemeOperators = command.add_option(
      "--lexeme-operators", s.lexemeOperators,
      "the operators MAX-FAC puts in lexemes, so that words, not templates, choose them: "
      "'ranking' (argmax, argmin, count, sum), 'ranking-or' (and or), 'quantifiers' (ranking and "
      "exists, the, not) or 'quantifiers-or' (all those)");
  lexemeOperators->check(CLI::IsMember({"ranking", "ranking-or", "quantifiers", "quantifiers-or"}));
  command
      .add_flag("--quantifiers-in-lexemes", s.quantifiersInLexemes,
                "the same as --lexeme-operators quantifiers")
      ->excludes(lexemeOperators);
  command.add_flag("--no-eta-identity-splits", s.noEtaIdentitySplits,
                   "never make a split whose function is the identity up to eta-reduction "
                   "(f = \\y.\\x.y(x), its words meaning nothing; fewer sentences parse, see "
                   "docs/ccg.md)");
  command.add_flag(
      "--fixed-weight-per-word", s.fixedWeightPerWord,
      "a fixed-lexicon lexeme starts at 10 per word (UBL: 'salt lake city' 30), not 10");
  command.add_flag("--keep-lexicon", s.keepLexicon,
                   "keep every lexeme and template learned (default: after the last pass, only "
                   "those of the training examples' best correct parses and, with "
                   "--keep-posterior, of their likely ones)");
  command.add_flag("--average-weights", s.averageWeights,
                   "not in the paper: the model's weights are the average of those after each "
                   "training example (the averaged perceptron's), not the last ones; training "
                   "parses with the last ones");
  command.add_flag("--any-root-type", s.anyRootType,
                   "let a parse of any type be a root (default: only the types of the training "
                   "logical forms, kept in the model)");
  command
      .add_option("--keep-posterior", s.keepPosterior,
                  "not in the paper: the pruning after the last pass also keeps every lexeme and "
                  "template an example's parses of its logical form use at least this many "
                  "times in expectation (default 0.1; 0: only the best correct parse's, as SPF)")
      ->check(CLI::Range(0.0, 1000.0));
  command.add_option("--learning-rate", s.learningRate, "alpha0 of alpha0 / (1 + c k)")
      ->check(CLI::PositiveNumber);
  command.add_option("--cooling", s.coolingRate, "c of alpha0 / (1 + c k)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace

void addCcgLearnCommands(CLI::App& ccg, int& exitStatus) {
  auto t = std::make_shared<TrainSettings>();
  CLI::App* train = ccg.add_subcommand(
      "train",
      "learn a factored CCG lexicon and its weights from sentence / logical-form pairs (FUBL) and "
      "write the model");
  train
      ->add_option("--train", t->train, "sentence / logical-form pairs (geosents600-typed.ccg.dev)")
      ->required()
      ->check(CLI::ExistingFile);
  train->add_option("--out,-o", t->out, "model file to write")->required();
  train
      ->add_option("--test", t->test,
                   "held-out sentence / logical-form pairs: exact match of the model before "
                   "training, after every pass (the whole lexicon, as UBL tests after every epoch) "
                   "and of the final model")
      ->check(CLI::ExistingFile);
  addTrainOptions(*train, *t);
  train->add_flag("--quiet,-q", t->quiet, "no per-pass summary");
  train->callback([t, &exitStatus] { exitStatus = runTrain(*t); });

  auto e = std::make_shared<EvaluateSettings>();
  CLI::App* evaluate = ccg.add_subcommand(
      "evaluate",
      "exact-match recall, precision and F1 of a model on sentence / logical-form pairs");
  evaluate->add_option("--model,-m", e->model, "model written by gwb ccg train")
      ->required()
      ->check(CLI::ExistingFile);
  evaluate->add_option("--test", e->test, "sentence / logical-form pairs")
      ->required()
      ->check(CLI::ExistingFile);
  evaluate->add_option("--errors", e->errors,
                       "write each wrongly parsed sentence with gold and predicted forms here");
  addTypeOptions(*evaluate, e->types);
  evaluate->add_option("--threads,-t", e->threads, "threads")->check(CLI::Range(1, 256));
  evaluate->add_flag("--no-skipping", e->noSkipping, "no word-skipping re-parse");
  evaluate->add_flag("--diagnose", e->diagnose,
                     "say why each sentence was not answered right: gold outscored in the chart, "
                     "pruned from it though derivable, or not derivable (on with --errors)");
  evaluate->add_flag("--answer-ties", e->answerTies,
                     "answer with the first of several logical forms tied for the best score "
                     "(default: abstain, as UBL and SPF)");
  evaluate->add_flag("--best-derivation", e->bestDerivation,
                     "answer with the best derivation's logical form (UBL's Viterbi answer) "
                     "rather than the most probable logical form (the paper's eq. 2)");
  evaluate->add_flag("--any-root-type", e->anyRootType,
                     "let a parse of any type be a root, whatever root types the model keeps");
  evaluate->callback([e, &exitStatus] { exitStatus = runEvaluate(*e); });

  auto p = std::make_shared<PruneSettings>();
  CLI::App* prune = ccg.add_subcommand(
      "prune",
      "the pruning after the last pass, on a model trained with --keep-lexicon: keep the "
      "lexemes and templates of the training pairs' best correct parses (and the fixed "
      "lexicon's), as gwb ccg train does without --keep-lexicon");
  prune->add_option("--model,-m", p->model, "model written by gwb ccg train --keep-lexicon")
      ->required()
      ->check(CLI::ExistingFile);
  prune->add_option("--train", p->train, "the pairs the model was trained on")
      ->required()
      ->check(CLI::ExistingFile);
  prune->add_option("--out,-o", p->out, "pruned model to write")->required();
  prune
      ->add_option("--fixed-lexicon", p->fixedLexicons,
                   "the fixed lexicon the model was trained with (its items are always kept)")
      ->check(CLI::ExistingFile);
  addTypeOptions(*prune, p->types);
  prune
      ->add_option("--keep-posterior", p->keepPosterior,
                   "also keep every lexeme and template an example's parses of its logical form "
                   "use at least this many times in expectation (default 0.1, as training; 0: only "
                   "the best parse's)")
      ->check(CLI::Range(0.0, 1000.0));
  prune
      ->add_option("--train-beam", p->trainBeam,
                   "the --train-beam the model was trained with (0: the model's beam)")
      ->check(CLI::Range(0, 1000000));
  prune->add_flag("--unconstrained", p->unconstrained,
                  "the model was trained with --unconstrained: best correct parses in the full "
                  "chart");
  prune->add_option("--threads,-t", p->threads, "threads for the re-parses")
      ->check(CLI::Range(1, 256));
  prune->callback([p, &exitStatus] { exitStatus = runPrune(*p); });

  auto c = std::make_shared<CrossvalSettings>();
  CLI::App* crossval = ccg.add_subcommand(
      "crossval",
      "train and test on each fold-N/{train,test} of DIR (the geo250 layout); per fold and mean "
      "scores. The fixed lexicon defaults to DIR-np-fixedlex.geo when it exists");
  crossval->add_option("folder", c->folder, "folder with fold-0, fold-1, ...")
      ->required()
      ->check(CLI::ExistingDirectory);
  crossval->add_option("--folds", c->folds, "only the first N folds")->check(CLI::Range(0, 100));
  addTrainOptions(*crossval, c->train);
  crossval->callback([c, &exitStatus] { exitStatus = runCrossval(*c); });
}

}  // namespace gwb::cli
