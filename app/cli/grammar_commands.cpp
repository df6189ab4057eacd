// `gwb grammar check|convert|info`: read a grammar, report diagnostics, convert formats.
#include <iostream>
#include <map>

#include "commands.h"
#include "gwb/earley/grammar_io.h"

namespace gwb::cli {

namespace {

struct GrammarInput {
  std::string path;
  std::string format = "auto";
  std::string root;
};

void addGrammarInputOptions(CLI::App& command, GrammarInput& input) {
  command.add_option("file", input.path, "grammar file (Earleyx or NLTK style)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("--format", input.format, "earleyx, nltk or auto (by extension / content)")
      ->check(CLI::IsMember({"auto", "earleyx", "nltk"}));
  command.add_option("--root", input.root,
                     "start symbol (default: %start or first LHS for NLTK; ROOT for Earleyx)");
}

GrammarLoad load(const GrammarInput& input, bool runChecks) {
  GrammarReadOptions options;
  options.format = *parseGrammarFormat(input.format);
  options.root = input.root;
  options.runChecks = runChecks;
  return loadGrammarFile(input.path, options);
}

void printDiagnostics(const Diagnostics& diagnostics, std::ostream& out) {
  for (const Diagnostic& d : diagnostics) out << toString(d) << '\n';
}

void printSummary(const GrammarLoad& loaded, std::ostream& out) {
  const Grammar& g = loaded.grammar;
  std::map<RuleKind, int> kinds;
  for (RuleId id = 0; id < static_cast<RuleId>(g.ruleCount()); ++id) ++kinds[g.kind(id)];
  out << "format: " << grammarFormatName(loaded.format) << "\n";
  out << "start: " << (g.start() ? g.symbols().name(*g.start()) : std::string("(none)")) << "\n";
  out << "rules: " << g.ruleCount() << " (";
  bool first = true;
  for (const auto& [kind, count] : kinds) {
    out << (first ? "" : ", ") << count << ' ' << ruleKindName(kind);
    first = false;
  }
  out << ")\n";
  out << "nonterminals: " << g.symbols().nonterminalCount()
      << "\nterminals: " << g.symbols().terminalCount()
      << "\npriors: " << (g.hasPriors() ? "yes" : "no")
      << "\nunknown-word model: " << (g.hasUnknownWordModel() ? "yes" : "no") << "\n";
}

}  // namespace

void addGrammarCommands(CLI::App& app, int& exitStatus) {
  CLI::App* grammar = app.add_subcommand("grammar", "read, check and convert grammars");
  grammar->require_subcommand(1);

  auto checkInput = std::make_shared<GrammarInput>();
  auto quiet = std::make_shared<bool>(false);
  CLI::App* check = grammar->add_subcommand(
      "check", "print every diagnostic (file:line:col) and a summary; exit 1 on errors");
  addGrammarInputOptions(*check, *checkInput);
  check->add_flag("--quiet,-q", *quiet, "only the diagnostics, no summary");
  check->callback([checkInput, quiet, &exitStatus] {
    const GrammarLoad loaded = load(*checkInput, true);
    printDiagnostics(loaded.diagnostics, std::cout);
    if (!*quiet) {
      printSummary(loaded, std::cout);
      std::cout << loaded.diagnostics.errorCount() << " error(s), "
                << loaded.diagnostics.warningCount() << " warning(s)\n";
    }
    exitStatus = loaded.ok() ? 0 : 1;
  });

  auto convertInput = std::make_shared<GrammarInput>();
  auto output = std::make_shared<std::string>();
  auto target = std::make_shared<std::string>("auto");
  CLI::App* convert = grammar->add_subcommand(
      "convert", "read a grammar and write it in another format (atomic save)");
  addGrammarInputOptions(*convert, *convertInput);
  convert->add_option("output", *output, "file to write")->required();
  convert->add_option("--to", *target, "earleyx, nltk or auto (by the output's extension)")
      ->check(CLI::IsMember({"auto", "earleyx", "nltk"}));
  convert->callback([convertInput, output, target, &exitStatus] {
    const GrammarLoad loaded = load(*convertInput, false);
    if (!loaded.ok()) {
      printDiagnostics(loaded.diagnostics, std::cerr);
      exitStatus = 1;
      return;
    }
    std::string error;
    if (!saveGrammarFile(loaded.grammar, *output, *parseGrammarFormat(*target), &error)) {
      std::cerr << "gwb: " << error << '\n';
      exitStatus = 1;
      return;
    }
    std::cerr << "wrote " << loaded.grammar.ruleCount() << " rules to " << *output << '\n';
  });

  auto infoInput = std::make_shared<GrammarInput>();
  CLI::App* info = grammar->add_subcommand("info", "summary: rule kinds, symbols, start symbol");
  addGrammarInputOptions(*info, *infoInput);
  info->callback([infoInput, &exitStatus] {
    const GrammarLoad loaded = load(*infoInput, false);
    printDiagnostics(loaded.diagnostics, std::cerr);
    printSummary(loaded, std::cout);
    exitStatus = loaded.ok() ? 0 : 1;
  });
}

}  // namespace gwb::cli
