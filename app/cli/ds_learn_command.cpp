// `gwb ds evaluate`: scores a (learned) DS lexicon on sentences paired with gold record types
// — coverage, complete-tree coverage and maxMapping precision / recall / F, the Table 1 row of
// Eshghi, Hough & Purver 2013 — and, with --items, writes one line per test item.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/hypothesis_search.h"
#include "gwb/ds/lexicon_evaluation.h"
#include "gwb/ds/lexicon_learner.h"
#include "gwb/ds/semantic_corpus.h"

namespace gwb::cli {

namespace {

std::atomic<bool> dsInterrupted{false};
extern "C" void onDsInterrupt(int /*signal*/) { dsInterrupted = true; }

// Ctrl-C cancels; the previous handler comes back however the run ends.
struct DsInterruptScope {
  void (*previous)(int) = std::signal(SIGINT, onDsInterrupt);
  ~DsInterruptScope() { std::signal(SIGINT, previous); }
};

struct DsEvaluateSettings {
  std::string grammar;
  std::string lexicon;
  std::string test;
  std::string items;
  int threads = 1;
  std::size_t maxTrees = 200000;
  std::string incomplete = "first";
};

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

std::string percent(double share) { return fixed(100.0 * share, 0) + "%"; }

int runDsEvaluate(const DsEvaluateSettings& s) {
  ds::DsGrammarLoad load = ds::loadDsGrammar(s.grammar);
  if (!s.lexicon.empty()) {
    std::vector<ds::LexicalEntry> entries = ds::loadLearnedLexicon(s.lexicon, load.diagnostics);
    ds::useLearnedLexicon(load.grammar, std::move(entries));
  }
  Diagnostics corpusDiagnostics;
  const std::vector<ds::SemanticExample> corpus = ds::loadSemanticCorpus(s.test, corpusDiagnostics);
  bool failed = !load.ok() || corpusDiagnostics.hasErrors();
  for (const Diagnostics* list : {&load.diagnostics, &corpusDiagnostics})
    for (const Diagnostic& d : *list)
      if (d.severity != Severity::Note) std::cerr << toString(d) << '\n';
  if (failed) return 1;

  ds::LexiconEvaluationOptions options;
  options.threads = s.threads;
  options.parse.maxNodes = s.maxTrees;
  options.parse.incomplete = s.incomplete == "most-probable" ? ds::IncompleteChoice::MostProbable
                                                             : ds::IncompleteChoice::FirstReached;
  options.cancel = &dsInterrupted;
  options.progress = [](std::size_t done, std::size_t total) {
    std::cerr << "\revaluating: " << done << " / " << total << " items" << std::flush;
  };
  std::vector<ds::ItemEvaluation> items;
  {
    const DsInterruptScope scope;
    items = ds::evaluateLexicon(load.grammar, corpus, options);
  }
  std::cerr << '\n';
  if (items.size() < corpus.size())
    std::cerr << "interrupted: scored the first " << items.size() << " of " << corpus.size()
              << " items\n";
  const ds::EvaluationSummary sum = ds::summarize(items);
  std::cout << "items\tcoverage\tcomplete\tprecision\trecall\tF\tmicro-P\tmicro-R\tmicro-F\n";
  std::cout << sum.items << '\t' << percent(sum.coverage()) << '\t'
            << percent(sum.completeCoverage()) << '\t' << fixed(sum.macroPrecision, 3) << '\t'
            << fixed(sum.macroRecall, 3) << '\t' << fixed(sum.macroF, 3) << '\t'
            << fixed(sum.microPrecision, 3) << '\t' << fixed(sum.microRecall, 3) << '\t'
            << fixed(sum.microF, 3) << '\n';
  if (sum.truncated > 0)
    std::cerr << "warning: " << sum.truncated
              << " item(s) stopped at --max-trees; their outcome holds for the trees explored\n";
  if (!s.items.empty()) {
    std::string error;
    const bool written = writeFileAtomically(
        s.items,
        [&](std::ostream& out) {
          out << "line\tsentence\toutcome\tprecision\trecall\tF\tparsed\tgold\n";
          for (const ds::ItemEvaluation& item : items)
            out << item.line << '\t' << item.sentence << '\t' << ds::outcomeName(item.outcome)
                << (item.truncated ? " (truncated)" : "") << '\t'
                << fixed(item.mapping.precision(), 3) << '\t' << fixed(item.mapping.recall(), 3)
                << '\t' << fixed(item.mapping.f(), 3) << '\t' << item.parsed.toString() << '\t'
                << item.gold.toString() << '\n';
          return static_cast<bool>(out);
        },
        &error);
    if (!written) {
      std::cerr << "error: " << error << '\n';
      return 1;
    }
  }
  return items.size() == corpus.size() ? 0 : 1;
}

struct DsLearnSettings {
  std::string seedGrammar;
  std::string train;
  std::string out;
  int top = 5;
  int threads = 1;
  double heldOut = 0.1;
  std::size_t maxTrees = 10000;
  std::size_t maxTuples = 300;
  bool quiet = false;
};

// A one-line progress bar on stderr: items, hypotheses, mean hypotheses per item, time.
class ProgressBar : public ds::LearningObserver {
 public:
  explicit ProgressBar(bool quiet) : quiet_(quiet) {}
  void onItem(const ds::LearningProgress& p, const ds::SemanticExample& /*example*/,
              const ds::ExampleHypotheses& /*hypotheses*/) override {
    if (quiet_) return;
    std::cerr << "\rlearning: " << p.itemsDone << " / " << p.itemsTotal << " items, "
              << p.hypotheses << " hypotheses for " << p.words << " words, "
              << fixed(p.meanHypothesesPerItem, 1) << " per item, " << p.itemsWithoutTuples
              << " without tuples, " << fixed(p.seconds, 1) << " s   " << std::flush;
  }

 private:
  bool quiet_;
};

int runDsLearn(const DsLearnSettings& s) {
  ds::DsGrammarLoad seed = ds::loadDsGrammar(s.seedGrammar);
  Diagnostics corpusDiagnostics;
  const std::vector<ds::SemanticExample> corpus =
      ds::loadSemanticCorpus(s.train, corpusDiagnostics);
  for (const Diagnostics* list : {&seed.diagnostics, &corpusDiagnostics})
    for (const Diagnostic& d : *list)
      if (d.severity != Severity::Note) std::cerr << toString(d) << '\n';
  if (!seed.ok() || corpusDiagnostics.hasErrors()) return 1;
  std::error_code ec;
  std::filesystem::create_directories(s.out, ec);
  if (ec) {
    std::cerr << "error: cannot create " << s.out << ": " << ec.message() << '\n';
    return 1;
  }
  const ds::HypothesisSearch search(seed.grammar);
  ds::HypothesisSearchOptions searchOptions;
  searchOptions.maxExpansions = s.maxTrees;
  searchOptions.maxTuples = s.maxTuples;
  ds::LearningOptions options;
  options.threads = s.threads;
  options.heldOutMass = s.heldOut;
  options.cancel = &dsInterrupted;
  ProgressBar bar(s.quiet);
  ds::LearningResult result;
  {
    const DsInterruptScope scope;
    result = ds::learnLexicon(
        corpus,
        [&](const ds::SemanticExample& example, std::size_t /*item*/) {
          return search.hypotheses(example, searchOptions);
        },
        options, &bar);
  }
  if (!s.quiet) std::cerr << '\n';
  for (const std::string& note : result.notes) std::cerr << "note: " << note << '\n';
  if (result.cancelled)
    std::cerr << "interrupted after " << result.progress.itemsDone << " of " << corpus.size()
              << " items; writing what was learned\n";
  std::string error;
  if (!ds::writeLearnedLexicons(result.em, s.out, s.top, &error)) {
    std::cerr << "error: " << error << '\n';
    return 1;
  }
  const ds::LearningProgress& p = result.progress;
  std::cout << "items\twith tuples\tover budget\thypotheses\twords\tseconds\n"
            << p.itemsDone << '\t' << p.itemsDone - p.itemsWithoutTuples << '\t'
            << p.itemsOverBudget << '\t' << p.hypotheses << '\t' << p.words << '\t'
            << fixed(p.seconds, 1) << '\n';
  std::cout << "wrote " << s.out << "/lexicon.lex-top-{1.." << s.top << "}.txt and " << s.out
            << "/hypotheses.tsv\n";
  return result.cancelled ? 1 : 0;
}

}  // namespace

void addDsLearnCommands(CLI::App& ds, int& exitStatus) {
  auto e = std::make_shared<DsEvaluateSettings>();
  CLI::App* evaluate = ds.add_subcommand(
      "evaluate",
      "score a lexicon on sentences paired with gold record types: coverage (every word "
      "consumed), complete-tree coverage, maxMapping precision / recall / F (macro and micro) — "
      "the Table 1 row of Eshghi, Hough & Purver 2013");
  evaluate->add_option("--grammar,-g", e->grammar, "DyLan grammar folder (the seed grammar)")
      ->required()
      ->check(CLI::ExistingDirectory);
  evaluate
      ->add_option("--lexicon", e->lexicon,
                   "a learned lexicon (lexicon.lex-top-N.txt) replacing the folder's lexicon")
      ->check(CLI::ExistingFile);
  evaluate
      ->add_option("--test", e->test,
                   "test items: `Sent : ...` / `Sem : [record type]` / `File : n` blocks")
      ->required()
      ->check(CLI::ExistingFile);
  evaluate->add_option("--items", e->items,
                       "write one TSV line per item (outcome, P, R, F, parsed and gold types)");
  evaluate->add_option("--threads,-t", e->threads, "parse this many items at once")
      ->check(CLI::Range(1, 256));
  evaluate->add_option("--max-trees", e->maxTrees, "stop an item's search after this many trees")
      ->check(CLI::Range(1, 100000000));
  evaluate
      ->add_option("--incomplete", e->incomplete,
                   "the tree an incomplete parse is scored by: `first` reached after the last word "
                   "(as DyLan's evaluation code; default) or the `most-probable` one")
      ->check(CLI::IsMember({"first", "most-probable"}));
  evaluate->callback([e, &exitStatus] { exitStatus = runDsEvaluate(*e); });

  auto l = std::make_shared<DsLearnSettings>();
  CLI::App* learn = ds.add_subcommand(
      "learn",
      "learn a probabilistic lexicon from sentences paired with record types (Eshghi, Hough & "
      "Purver 2013): hypothesis search from the seed grammar, incremental EM; writes "
      "lexicon.lex-top-N.txt (N = 1..top) and hypotheses.tsv. Ctrl-C stops and writes what was "
      "learned");
  learn
      ->add_option("--seed-grammar,-g", l->seedGrammar,
                   "DyLan seed grammar folder (computational actions with hyp-* tree building)")
      ->required()
      ->check(CLI::ExistingDirectory);
  learn->add_option("--train", l->train, "training items (`Sent :` / `Sem :` / `File :` blocks)")
      ->required()
      ->check(CLI::ExistingFile);
  learn->add_option("--out,-o", l->out, "output folder (created if needed)")->required();
  learn->add_option("--top", l->top, "write the top-1 ... top-N lexicons")
      ->check(CLI::Range(1, 100));
  learn->add_option("--threads,-t", l->threads, "search this many items at once")
      ->check(CLI::Range(1, 256));
  learn->add_option("--held-out", l->heldOut, "probability mass for hypotheses first seen")
      ->check(CLI::Range(0.0, 1.0));
  learn->add_option("--max-trees", l->maxTrees, "per-item budget: trees expanded by the search")
      ->check(CLI::Range(1, 100000000));
  learn->add_option("--max-tuples", l->maxTuples, "per-item budget: hypothesis tuples kept")
      ->check(CLI::Range(1, 100000000));
  learn->add_flag("--quiet,-q", l->quiet, "no progress bar");
  learn->callback([l, &exitStatus] { exitStatus = runDsLearn(*l); });
}

}  // namespace gwb::cli
