// `gwb ds parse`: incremental Dynamic Syntax parsing with a DyLan grammar, word by word, with
// the parse DAG written as Graphviz DOT and the successful path traced step by step.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/memory_budget.h"
#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/memory_budget.h"

namespace gwb::cli {

namespace {

struct DsParseSettings {
  std::string grammar;
  std::string lexicon;
  std::vector<std::string> sentences;
  int beam = 0;
  bool bestFirst = false;
  std::string dag;
  bool trace = false;
  std::size_t maxTrees = 200000;
  std::string maxMemory;  // empty: ds::defaultParseMemoryBudget()
};

// The path, one group per word as in DyLan's logs: `likes <- [completion, anticipation1, likes]`;
// actions after the last word are grouped under ".".
std::string describePath(const ds::DsParseResult& r) {
  std::string out;
  std::vector<std::string> group;
  auto flush = [&](const std::string& word) {
    if (!out.empty()) out += "\n         ";
    out += word + " <- [";
    for (std::size_t i = 0; i < group.size(); ++i) out += (i > 0 ? ", " : "") + group[i];
    out += "]";
    group.clear();
  };
  for (int id : r.path) {
    const ds::DagEdge& e = r.dag.edges()[static_cast<std::size_t>(id)];
    group.push_back(e.lexical ? e.word : e.action);
    for (const std::string& c : e.closure) group.push_back("*" + c);
    if (e.lexical) flush(e.word);
  }
  if (!group.empty()) flush(".");
  return out;
}

int runDsParse(const DsParseSettings& s) {
  const auto loadStart = std::chrono::steady_clock::now();
  ds::DsGrammarLoad load = ds::loadDsGrammar(s.grammar);
  if (!s.lexicon.empty()) {
    std::vector<ds::LexicalEntry> entries = ds::loadLearnedLexicon(s.lexicon, load.diagnostics);
    ds::useLearnedLexicon(load.grammar, std::move(entries));
  }
  const double loadMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - loadStart)
          .count();
  for (const Diagnostic& d : load.diagnostics)
    if (d.severity != Severity::Note) std::cerr << toString(d) << '\n';
  if (!load.ok()) return 1;
  std::cerr << "grammar: " << load.grammar.computational.size() << " computational actions, "
            << load.grammar.lexicon().size() << " words, " << load.grammar.entryCount()
            << " lexical entries (" << std::fixed << std::setprecision(1) << loadMs << " ms)\n";

  std::size_t maxBytes = ds::defaultParseMemoryBudget();
  if (!s.maxMemory.empty()) {
    std::string error;
    const auto parsed = gwb::parseByteSize(s.maxMemory, &error);
    if (!parsed) {
      std::cerr << "error: --max-memory: " << error << '\n';
      return 2;
    }
    maxBytes = *parsed;
  }
  const ds::DsParser parser(load.grammar);
  ds::DsParseOptions options;
  options.strategy = s.bestFirst ? ds::SearchStrategy::BestFirst : ds::SearchStrategy::BreadthFirst;
  options.beam = s.beam;
  options.maxNodes = s.maxTrees;
  options.maxBytes = maxBytes;
  std::string dot;
  bool allParsed = true;
  for (const std::string& sentence : s.sentences) {
    const auto start = std::chrono::steady_clock::now();
    const ds::DsParseResult r = parser.parse(sentence, options);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::vector<std::string> words = ds::splitWords(sentence);
    std::cout << sentence << '\t' << ds::outcomeName(r.outcome);
    if (r.outcome == ds::ParseOutcome::Failed && r.failedWord >= 0 &&
        static_cast<std::size_t>(r.failedWord) < words.size())
      std::cout << " at word " << r.failedWord + 1 << " '"
                << words[static_cast<std::size_t>(r.failedWord)] << "'";
    if (r.memoryExhausted)
      std::cout << " (search stopped at " << r.dag.nodes().size() << " trees: memory budget of "
                << gwb::formatBytes(maxBytes) << " reached)";
    else if (r.truncated)
      std::cout << " (search stopped at " << s.maxTrees << " trees)";
    std::cout << '\n';
    if (r.truncated)
      std::cerr << "warning: the search was truncated; the outcome holds for the trees explored ("
                << (r.memoryExhausted ? "raise --max-memory" : "raise --max-trees")
                << ", or use --beam or --best-first)\n";
    if (r.formulaTooDeep)
      std::cerr << "warning: some actions failed because they would have built a formula nested "
                   "more than "
                << ds::kMaxBuiltFormulaDepth << " deep (the grammar nests it further with every "
                << "word); the trees they would have made are missing\n";
    if (r.rootFormula) std::cout << "root:    " << r.rootFormula->text() << '\n';
    if (r.maximalSemantics) std::cout << "maximal: " << r.maximalSemantics->text() << '\n';
    if (!r.path.empty()) std::cout << "path:    " << describePath(r) << '\n';
    std::cout << "dag:     " << r.dag.nodes().size() << " trees, " << r.dag.edges().size()
              << " edges, " << std::fixed << std::setprecision(3) << ms << " ms, about "
              << gwb::formatBytes(r.approximateBytes) << '\n';
    if (s.trace && r.finalNode >= 0) {
      std::cout << "trace:\n";
      std::cout << "  axiom\n" << r.dag.node(0).tree->toString();
      for (int id : r.path) {
        const ds::DagEdge& e = r.dag.edges()[static_cast<std::size_t>(id)];
        std::cout << "  " << (e.lexical ? "word " + std::to_string(e.wordIndex + 1) + ": " : "")
                  << e.action;
        if (!e.closure.empty()) {
          std::cout << "  (then";
          for (const std::string& c : e.closure) std::cout << ' ' << c;
          std::cout << ')';
        }
        std::cout << '\n' << r.dag.node(e.to).tree->toString();
      }
    }
    allParsed = allParsed && r.outcome == ds::ParseOutcome::Parsed;
    if (!s.dag.empty()) dot += r.dag.toDot(r.path);
  }
  if (!s.dag.empty()) {
    std::string error;
    if (!writeFileAtomically(
            s.dag, [&](std::ostream& out) { return static_cast<bool>(out << dot); }, &error)) {
      std::cerr << "error: " << error << '\n';
      return 1;
    }
  }
  return allParsed ? 0 : 1;
}

}  // namespace

void addDsCommand(CLI::App& app, int& exitStatus) {
  CLI::App* ds = app.add_subcommand("ds", "Dynamic Syntax with TTR: DyLan grammars, DAG parsing");
  ds->require_subcommand(1);
  auto s = std::make_shared<DsParseSettings>();
  CLI::App* parse = ds->add_subcommand(
      "parse",
      "parse sentences word by word; print the outcome (PARSED, INCOMPLETE, FAILED), the root "
      "record type, the maximal semantics and the action path. Exit status 0 if every sentence "
      "parsed");
  parse
      ->add_option("--grammar,-g", s->grammar,
                   "DyLan grammar folder (computational-actions.txt, lexical-actions.txt, "
                   "lexicon.txt, lexical-macros.txt)")
      ->required()
      ->check(CLI::ExistingDirectory);
  parse
      ->add_option("--lexicon", s->lexicon,
                   "a learned lexicon (lexicon.lex-top-N.txt) replacing the folder's lexicon")
      ->check(CLI::ExistingFile);
  parse->add_option("sentences", s->sentences, "sentences (quote each one)")->required();
  parse->add_option("--beam,-b", s->beam, "keep the best B trees after each word (0: all)")
      ->check(CLI::Range(0, 1000000));
  parse->add_flag("--best-first", s->bestFirst,
                  "stop at the first complete tree (DyLan's strategy) instead of the whole DAG");
  parse->add_option("--dag", s->dag, "write the parse DAG as Graphviz DOT (successful path red)");
  parse->add_flag("--trace", s->trace, "print the tree after every step of the path");
  parse->add_option("--max-trees", s->maxTrees, "stop searching after this many trees")
      ->check(CLI::Range(1, 100000000));
  parse->add_option("--max-memory", s->maxMemory,
                    "stop searching when the parse DAG would pass this many bytes (512M, 3G, "
                    "...; default: a quarter of physical memory, " +
                        gwb::formatBytes(ds::defaultParseMemoryBudget()) + " here)");
  parse->callback([s, &exitStatus] { exitStatus = runDsParse(*s); });
  addDsLearnCommands(*ds, exitStatus);
}

}  // namespace gwb::cli
