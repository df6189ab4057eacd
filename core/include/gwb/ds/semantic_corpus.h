// Sentences paired with TTR record types: the CHILDES Eve conversions that DyLan learns from
// (Eshghi, Hough & Purver 2013, section 4). Each item is three lines and a blank line:
//
//   Sent : you go
//   Sem : [x==you : e|e1==go : es|p1==subj(e1, x) : t|head==e1 : es]
//   File : 1
//
// `File` (the CHILDES transcript number) is optional; a line `END_OF_CORPUS` ends the items
// (DyLan's files append statistics after it). A malformed item is reported as a
// diagnostic with its line and what was expected, and reading goes on with the next item.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/ds/record_type.h"

namespace gwb::ds {

struct SemanticExample {
  std::string sentence;
  RecordType semantics;
  int transcript = 0;  // the File number, 0 if absent
  int line = 0;        // 1-based line of the Sent line
};

std::vector<SemanticExample> parseSemanticCorpus(std::string_view text, const std::string& file,
                                                 Diagnostics& diagnostics);
std::vector<SemanticExample> loadSemanticCorpus(const std::string& path, Diagnostics& diagnostics);

}  // namespace gwb::ds
