// `gwb ccg parse|check`: CCG semantic parsing with factored lexicons (Kwiatkowski et al. 2011):
// parse sentences to logical forms with the k best derivations, and validate lexicons and
// GeoQuery data files.
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "ccg_learn_command.h"
#include "commands.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/cky_replay.h"
#include "gwb/ccg/derivation_proof.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"

namespace gwb::cli {

namespace {

struct CcgLexiconInput {
  std::vector<std::string> lexicons;       // our format
  std::vector<std::string> fixedLexicons;  // UBL's np-fixedlex.geo
  std::vector<std::string> weights;        // our format: weights only
  std::string types;                       // geo-lambda.types
  std::string lang;                        // geo-lambda.lang
};

void addLexiconOptions(CLI::App& command, CcgLexiconInput& input) {
  command.add_option("--lexicon,-l", input.lexicons, "factored lexicon (docs/formats.md)")
      ->check(CLI::ExistingFile);
  command
      .add_option("--fixed-lexicon", input.fixedLexicons,
                  "UBL fixed entity lexicon (np-fixedlex.geo: WORDS :- NP : constant a line)")
      ->check(CLI::ExistingFile);
  command
      .add_option("--weights,-w", input.weights,
                  "feature weights in the lexicon format (their lexemes and templates are not "
                  "added; their weights replace the lexicon's)")
      ->check(CLI::ExistingFile);
  command
      .add_option("--types", input.types,
                  "entity types (geo-lambda.types); with --lang, entries must type-check")
      ->check(CLI::ExistingFile);
  command.add_option("--lang", input.lang, "predicate signatures (geo-lambda.lang)")
      ->check(CLI::ExistingFile);
}

struct LoadedLexicon {
  ccg::FactoredLexicon lexicon;
  std::unique_ptr<ccg::TypeSystem> types;
  Diagnostics diagnostics;
};

LoadedLexicon loadLexicon(const CcgLexiconInput& input) {
  LoadedLexicon out;
  for (const std::string& path : input.lexicons) {
    ccg::LexiconLoad load = ccg::loadFactoredLexicon(path);
    out.diagnostics.append(load.diagnostics);
    ccg::mergeLexicon(&out.lexicon, load.lexicon);
  }
  for (const std::string& path : input.fixedLexicons) {
    ccg::LexiconLoad load = ccg::loadFixedLexicon(path);
    out.diagnostics.append(load.diagnostics);
    ccg::mergeLexicon(&out.lexicon, load.lexicon);
  }
  for (const std::string& path : input.weights) {
    ccg::LexiconLoad load = ccg::loadFactoredLexicon(path);
    out.diagnostics.append(load.diagnostics);
    for (const auto& [feature, value] : load.lexicon.weights()) {
      out.lexicon.setWeight(feature, value);
    }
  }
  if (input.types.empty() != input.lang.empty()) {
    out.diagnostics.error("", 0, 0, "--types and --lang go together (geo-lambda.types and .lang)");
  } else if (!input.types.empty()) {
    ccg::TypeSystemLoad types = ccg::loadTypeSystem(input.types, input.lang);
    out.diagnostics.append(types.diagnostics);
    out.types = std::make_unique<ccg::TypeSystem>(std::move(types.types));
  }
  return out;
}

void printDiagnostics(const Diagnostics& diagnostics, std::ostream& out) {
  for (const Diagnostic& d : diagnostics) out << toString(d) << '\n';
}

std::vector<std::string> splitWords(const std::string& sentence) {
  std::vector<std::string> words;
  std::istringstream in(sentence);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

struct ParseSettings {
  CcgLexiconInput input;
  std::vector<std::string> sentences;
  int kbest = 1;
  int beam = 200;
  bool noComposition = false;
  bool skipWords = false;
  std::string root = "S";
  bool quiet = false;
  bool steps = false;
  bool latex = false;
};

int runParse(const ParseSettings& s) {
  LoadedLexicon loaded = loadLexicon(s.input);
  printDiagnostics(loaded.diagnostics, std::cerr);
  if (loaded.diagnostics.hasErrors()) return 1;
  if (loaded.lexicon.lexemes().empty()) {
    std::cerr << "error: no lexicon: give --lexicon and/or --fixed-lexicon\n";
    return 2;
  }
  const std::size_t entries = loaded.lexicon.buildEntries(loaded.types.get());
  if (!s.quiet) {
    std::cerr << "lexicon: " << loaded.lexicon.lexemes().size() << " lexemes, "
              << loaded.lexicon.templates().size() << " templates, " << entries
              << " lexical entries" << (loaded.types ? " (type-checked)" : "") << '\n';
    if (!loaded.types) {
      std::cerr << "note: without --types and --lang every lexeme-template pair with matching "
                   "slots is an entry, well-typed or not\n";
    }
  }
  ccg::CkyOptions options;
  options.beam = s.beam;
  options.types = loaded.types.get();  // combinations type-checked, as in training and evaluate
  options.combinators.composition = !s.noComposition;
  options.skipWords = s.skipWords;
  if (s.root == "any") {
    options.rootCategories.clear();
  } else {
    options.rootCategories = {s.root};
  }
  bool allParsed = true;
  for (const std::string& sentence : s.sentences) {
    const std::vector<std::string> words = splitWords(sentence);
    const auto start = std::chrono::steady_clock::now();
    ccg::CkyChart chart(loaded.lexicon, words, options);
    const std::vector<ccg::Derivation> best = chart.kBest(s.kbest);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cout << "sentence: " << sentence << '\n';
    if (best.empty()) {
      std::cout << "no parse (no " << (s.root == "any" ? "category" : s.root)
                << " spans the sentence" << (s.skipWords ? "" : "; try --skip-words") << ")\n";
      allParsed = false;
    }
    for (std::size_t i = 0; i < best.size(); ++i) {
      const ccg::Derivation& d = best[i];
      std::cout << "parse " << i + 1 << ": score " << std::fixed << std::setprecision(4) << d.score
                << "  P(derivation) " << std::exp(d.logProbability) << "  P(logical form) "
                << std::exp(chart.logProbability(d.logicalForm)) << '\n';
      std::cout << "logical form: " << toString(d.logicalForm) << '\n';
      std::cout << "derivation:\n" << ccg::derivationToString(d.root, loaded.lexicon, words);
    }
    if (s.latex && !best.empty()) {
      std::cout << ccg::proofToLatex(ccg::layoutProof(best.front().root, words),
                                     "Best derivation of \"" + sentence + "\" (gwb ccg parse)");
    }
    if (s.steps) {
      const std::vector<ccg::CkyReplayStep> steps = ccg::ckyReplay(chart);
      std::cout << "fill: " << steps.size() << " steps\n";
      for (std::size_t i = 0; i < steps.size(); ++i) {
        std::cout << "step " << i + 1 << ": "
                  << ccg::describeReplayStep(chart, loaded.lexicon, steps[i]) << '\n';
      }
    }
    std::size_t pruned = 0;
    std::size_t all = 0;
    for (int b = 0; b < chart.length(); ++b) {
      for (int e = b + 1; e <= chart.length(); ++e) {
        for (const ccg::ChartEntry& entry : chart.cell(b, e).entries) {
          ++all;
          pruned += entry.pruned ? 1 : 0;
        }
      }
    }
    if (!s.quiet) {
      std::cout << "chart: " << all - pruned << " entries kept, " << pruned << " pruned (beam "
                << s.beam << "), " << std::setprecision(3) << ms << " ms\n";
    }
    std::cout << '\n';
  }
  return allParsed ? 0 : 1;
}

struct CheckSettings {
  CcgLexiconInput input;
  std::vector<std::string> data;
};

int runCheck(const CheckSettings& s) {
  LoadedLexicon loaded = loadLexicon(s.input);
  Diagnostics diagnostics = loaded.diagnostics;
  if (!s.input.lexicons.empty() || !s.input.fixedLexicons.empty()) {
    const std::size_t entries = loaded.lexicon.buildEntries(loaded.types.get());
    std::cout << "lexicon: " << loaded.lexicon.lexemes().size() << " lexemes, "
              << loaded.lexicon.templates().size() << " templates, " << entries
              << " lexical entries" << (loaded.types ? " (type-checked)" : "") << '\n';
  }
  for (const std::string& path : s.data) {
    ccg::SemanticExamplesLoad load = ccg::loadSemanticExamples(path);
    diagnostics.append(load.diagnostics);
    std::cout << path << ": " << load.examples.size() << " sentence/logical-form pairs";
    if (loaded.types) {
      Diagnostics typeErrors;
      const int good = ccg::typeCheckExamples(load, *loaded.types, path, &typeErrors);
      diagnostics.append(typeErrors);
      std::cout << ", " << good << " type-check";
    }
    std::cout << '\n';
  }
  printDiagnostics(diagnostics, std::cout);
  std::cout << diagnostics.errorCount() << " error(s), " << diagnostics.warningCount()
            << " warning(s)\n";
  return diagnostics.hasErrors() ? 1 : 0;
}

}  // namespace

void addCcgCommand(CLI::App& app, int& exitStatus) {
  CLI::App* ccg = app.add_subcommand(
      "ccg", "CCG semantic parsing with factored lexicons (Kwiatkowski et al. 2011)");
  ccg->require_subcommand(1);

  auto p = std::make_shared<ParseSettings>();
  CLI::App* parse = ccg->add_subcommand(
      "parse",
      "parse sentences to logical forms: the k best derivations with their scores, logical "
      "forms and steps. Exit status 0 if every sentence parsed");
  addLexiconOptions(*parse, p->input);
  parse->add_option("sentences", p->sentences, "sentences (quote each one)")->required();
  parse->add_option("--kbest,-k", p->kbest, "print the K best derivations")
      ->check(CLI::Range(1, 100000));
  parse->add_option("--beam,-b", p->beam, "entries kept per chart cell (0: all)")
      ->check(CLI::Range(0, 100000000));
  parse->add_flag("--no-composition", p->noComposition, "only application (> and <)");
  parse->add_flag("--skip-words", p->skipWords,
                  "let lexical entries skip words, each costing the weight of feature 'skip'");
  parse->add_option("--root", p->root, "category of a whole parse (default S; 'any')");
  parse->add_flag("--quiet,-q", p->quiet, "no lexicon and chart summary");
  parse->add_flag("--steps", p->steps,
                  "print the CKY fill step by step (cells, lexical entries, combinations, "
                  "pruning), as the workbench's stepper replays it");
  parse->add_flag("--latex", p->latex,
                  "print the best derivation as a LaTeX tabular proof (docs/ccg.md)");
  parse->callback([p, &exitStatus] { exitStatus = runParse(*p); });

  auto c = std::make_shared<CheckSettings>();
  CLI::App* check = ccg->add_subcommand(
      "check",
      "read lexicons and GeoQuery data files (with --types/--lang: type-check every logical "
      "form); print every diagnostic (file:line:col) and exit 1 on errors");
  addLexiconOptions(*check, c->input);
  check->add_option("--data,-d", c->data, "sentence / logical-form file (geosents880-typed.ccg)")
      ->check(CLI::ExistingFile);
  check->callback([c, &exitStatus] { exitStatus = runCheck(*c); });

  addCcgLearnCommands(*ccg, exitStatus);
}

}  // namespace gwb::cli
