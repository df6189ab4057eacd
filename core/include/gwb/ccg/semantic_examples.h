// Sentence / logical-form pairs in the GeoQuery files (geosents880-typed.ccg, the geo250 folds):
// a sentence line, a logical-form line, then a blank line. Lines starting with `//` are comments
// (the data keeps alternative annotations that way) and are skipped.
//
// The reader keeps going after an error, so that one run reports every bad pair; a pair whose
// logical form does not read is left out of `examples` (nothing half-read). A line of several
// words where a logical form belongs (not starting with '(') is an error and is taken as the next
// sentence, so that the pair it starts still reads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/ccg/term.h"
#include "gwb/common/diagnostic.h"

namespace gwb::ccg {

struct SemanticExample {
  std::vector<std::string> words;  // the sentence, split at whitespace
  Term logicalForm;
  std::string logicalFormText;  // the line as written (trimmed)
  int sentenceLine = 0;         // 1-based
  int logicalFormLine = 0;
  TermPositions positions;  // where each node of logicalForm starts
};

struct SemanticExamplesLoad {
  std::vector<SemanticExample> examples;
  Diagnostics diagnostics;
};

SemanticExamplesLoad readSemanticExamples(std::string_view text, const std::string& file);
SemanticExamplesLoad loadSemanticExamples(const std::string& path);

// Type-checks every example; errors name the file, line and column of the offending subterm.
// Returns the number of examples that check.
int typeCheckExamples(const SemanticExamplesLoad& load, const TypeSystem& types,
                      const std::string& file, Diagnostics* diagnostics);

}  // namespace gwb::ccg
