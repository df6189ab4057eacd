// A naive oracle for maxMapping (gwb/ds/max_mapping.h), to check the branch-and-bound search
// against. It works on record-type TEXT and shares no code with core: it splits the texts into
// fields, enumerates EVERY one-to-one pairing of the hypothesis's fields with the gold ones
// (each hypothesis field paired with any unused gold field of the same kind, or with none),
// renames the hypothesis's labels by the pairing, scores every pair part by part as the header
// of max_mapping.h defines it, and keeps the best total. Exponential: for record types of a
// handful of fields only.
#pragma once

#include <string>

namespace gwb::testing {

// maxMapping(hypothesis, gold), both in DyLan's canonical record-type text.
double bruteForceMaxMapping(const std::string& hypothesis, const std::string& gold);
// N_R: fields other than head, a restrictor counting one plus its nested fields.
double bruteForceRecordSize(const std::string& record);

}  // namespace gwb::testing
