// DyLan grammars and lexicons, read from DyLan's own text files.
//
// A grammar folder holds:
//   computational-actions.txt  blocks separated by blank lines: a name line (`*name` for a
//                              non-optional action, `+name` for an exhaustive one), then IF,
//                              THEN and ELSE lines; nested IF blocks are indented.
//   lexical-actions.txt        templates `name(PARAM,...)` with an action body in which the
//                              parameters are replaced by the lexicon's arguments.
//   lexical-macros.txt         (optional) named effect sequences, `name(PARAM)` or a fully
//                              instantiated header such as `event_restrictor(past)`, called from
//                              template bodies as if they were effects.
//   lexicon.txt                one entry a line: `word template argument...`.
// Comments are `//` to the end of the line and `//* ... *//` (DyLan's block comment, which may
// span lines). A learned lexicon (`lexicon.lex-top-N.txt`) has blocks `[probability,rank]`,
// the word, and a full action body; its text dumps of unbound metavariables
// (`Fo(X=null[1189367926])`, `Ex.Fo(META=null[...])`, `Fo(null)`) are read as metavariables.
//
// Readers never throw on bad input: every problem is a gwb::Diagnostic with the file, line,
// column and what was expected, and reading goes on with the next block. As in DyLan, lexicon
// entries naming a template that does not exist, or whose template calls a macro that does not
// exist for their arguments, are skipped; each such case is reported once as a note.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/ds/action.h"

namespace gwb::ds {

struct LexicalEntry {
  std::string word;
  std::string templateName;  // empty for learned entries
  std::vector<std::string> arguments;
  DsAction action;
  double probability = 1.0;   // learned lexicons only; 1 otherwise
  int rank = 0;               // learned lexicons only
  int line = 0;               // where the entry is (lexicon.txt, or the learned lexicon)
  std::string label() const;  // "likes: v_tran_fin(like, pres, s3)" or "likes [p=0.82]"
};

class DsGrammar {
 public:
  std::string directory;
  std::vector<DsAction> computational;  // in file order
  bool probabilistic = false;           // true once a learned lexicon is loaded

  // Entries of a word, in file order (none for an unknown word).
  const std::vector<LexicalEntry>& entries(const std::string& word) const;
  void addEntry(LexicalEntry entry);
  void clearLexicon() { lexicon_.clear(); }
  const std::map<std::string, std::vector<LexicalEntry>>& lexicon() const { return lexicon_; }
  std::size_t entryCount() const;

  // Computational actions used in parsing (hypothesis actions left out), in file order.
  std::vector<const DsAction*> nonOptionalActions() const;
  std::vector<const DsAction*> optionalActions() const;
  const DsAction* findAction(const std::string& name) const;

 private:
  std::map<std::string, std::vector<LexicalEntry>> lexicon_;
};

struct DsGrammarLoad {
  DsGrammar grammar;
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

// The texts of a grammar folder's files; empty strings for files that are absent.
struct DsGrammarText {
  std::string directory;  // names the files in diagnostics ("<dir>/lexicon.txt")
  std::string computationalActions;
  std::string lexicalActions;
  std::string lexicalMacros;
  std::string lexicon;
};

DsGrammarLoad parseDsGrammar(const DsGrammarText& text);
// Reads the four files of `directory`; computational-actions.txt must exist, the others are
// optional (the induction seeds have an empty lexicon).
DsGrammarLoad loadDsGrammar(const std::string& directory);

// A learned lexicon's entries (`file` names it in diagnostics).
std::vector<LexicalEntry> parseLearnedLexicon(std::string_view text, const std::string& file,
                                              Diagnostics& diagnostics);
std::vector<LexicalEntry> loadLearnedLexicon(const std::string& path, Diagnostics& diagnostics);
// Replaces `grammar`'s lexicon by `entries` and marks the grammar probabilistic.
void useLearnedLexicon(DsGrammar& grammar, std::vector<LexicalEntry> entries);

}  // namespace gwb::ds
