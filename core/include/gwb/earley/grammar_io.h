// Reading and writing grammar files: the Earleyx format and an NLTK-style format.
//
// Earleyx (see ../shared/reference/earleyx/FORMATS.md): one rule a line,
//     [ALPHA ]LHS->[C1 C2 ... Cn] : PROB
// symbols split on single spaces, terminals written with a leading `_`. The optional ALPHA
// column is the rule's Dirichlet prior; unlike Earleyx we always recognise it (a symbol name
// cannot hold a space, so a leading number and a space can only be a prior). ε-rules cannot be
// written in this format.
//
// NLTK style (nltk.PCFG.fromstring, extended):
//     # comment                       %start S
//     S -> NP VP [1.0]
//     NP -> Det N [0.6] | 'John' [0.4]
//     Opt -> [0.3]                    (an ε-rule)
//     N -> 'dog' [0.5; prior=0.1]     (our extension: a Dirichlet prior)
// terminals quoted with ' or " (backslash escapes), `|` alternatives, continuation lines that
// start with `|`. When no rule of a file has a probability it is read as a CFG and every LHS
// gets uniform probabilities (a note says so). The start symbol is `%start X` or the first LHS.
//
// Readers never throw on bad input: they return what they could read and a list of
// diagnostics (file:line:column and what was expected). Writers produce text that reads back
// to an identical grammar (probabilities printed in shortest round-trip form).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/common/number_format.h"  // formatProbability, which the writers use
#include "gwb/earley/grammar.h"

namespace gwb {

enum class GrammarFormat { Auto, Earleyx, Nltk };
const char* grammarFormatName(GrammarFormat format);
// "earleyx" / "nltk" / "auto"; nullopt for anything else.
std::optional<GrammarFormat> parseGrammarFormat(std::string_view name);

struct GrammarReadOptions {
  GrammarFormat format = GrammarFormat::Auto;
  // The start symbol. Empty: `%start` (NLTK) or the first LHS (NLTK); for Earleyx `ROOT` if it
  // has rules, else the one nonterminal that never occurs on a right-hand side.
  std::string root;
  // How a message about an unclear start symbol tells the user to choose one: the command
  // line's flag by default; the workbench names its Start symbol chooser instead.
  std::string chooseRootHint = "pass --root SYMBOL";
  // Also run checkGrammar (sums, reachability, generation) and add its warnings.
  bool runChecks = true;
};

struct GrammarLoad {
  Grammar grammar;  // what could be read, even when there are errors
  Diagnostics diagnostics;
  GrammarFormat format = GrammarFormat::Earleyx;  // the format actually read
  bool ok() const { return !diagnostics.hasErrors(); }
};

// Guesses the format from the file name (`.cfg`, `.pcfg`, `.nltk` → NLTK; `.grammar`, `.rules`,
// `.iogrammar`, `.uniform` → Earleyx) and otherwise from the first rule line (`->[`).
GrammarFormat detectGrammarFormat(std::string_view text, std::string_view fileName);

// Nonterminals with rules that no other symbol's rule uses: the likely start symbols when an
// Earleyx grammar has no ROOT (in the order of lhsSymbols()).
std::vector<SymbolId> startSymbolCandidates(const Grammar& grammar);

GrammarLoad readGrammar(std::string_view text, const std::string& sourceName,
                        const GrammarReadOptions& options = {});
// Reads a file; an unreadable file gives one error diagnostic.
GrammarLoad loadGrammarFile(const std::string& path, const GrammarReadOptions& options = {});

// Writers. writeEarleyx returns false (and says why in *error) for a grammar with ε-rules.
bool writeEarleyx(const Grammar& grammar, std::ostream& out, std::string* error = nullptr);
void writeNltk(const Grammar& grammar, std::ostream& out);
// Writes atomically (temp file in the same folder, then rename). False + *error on failure.
bool saveGrammarFile(const Grammar& grammar, const std::string& path, GrammarFormat format,
                     std::string* error = nullptr);

}  // namespace gwb
