// `gwb ds evaluate`: scores a (learned) DS lexicon on sentences paired with gold record types
// — coverage, complete-tree coverage and maxMapping precision / recall / F, the Table 1 row of
// Eshghi, Hough & Purver 2013 — and, with --items, writes one line per test item.
#include <csignal>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/lexicon_evaluation.h"
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
  evaluate->callback([e, &exitStatus] { exitStatus = runDsEvaluate(*e); });
}

}  // namespace gwb::cli
