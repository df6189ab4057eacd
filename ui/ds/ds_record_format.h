// TTR record types laid out as in the DS-TTR papers' figures: one field a line, labels padded
// to one column, manifest values (`== john`) to the next, types after an aligned colon, and a
// restrictor's record type nested to the right of its label, its own fields aligned in turn:
//
//   [ x5   == mary      : e
//     r1   : [ x7   : e
//              p2   == man(x7) : t
//              head : x7 ]
//     head == e5        : es ]
//
// Whitespace aside, the result holds exactly the characters of the record type's canonical
// text (RecordType::toString) with the field separators `|` replaced by line breaks — which is
// what the tests check. Meant for a monospaced font.
#pragma once

#include <string>

#include "gwb/ds/formula.h"
#include "gwb/ds/record_type.h"

namespace gwb::ui {

std::string formatRecordType(const gwb::ds::RecordType& record);
// A record type formatted as above; any other formula as its one-line text.
std::string formatFormula(const gwb::ds::FormulaPtr& formula);

}  // namespace gwb::ui
