// A naive oracle for TTR record-type subtyping, to check gwb::ds::isSubtype against.
//
// It works on the text alone and shares nothing with core's matcher: it splits a record type
// into its fields, tries EVERY one-to-one renaming of the supertype's labels into the
// subtype's labels (head to head), rewrites the supertype's field texts under the renaming,
// and accepts when each rewritten field occurs among the subtype's fields — or, for an
// unmanifest field `l : T`, when the subtype has `l==v : T`. Restrictor fields (`r : [...]`)
// are compared by a recursive call with a renaming of their own. Exponential: for record
// types of a handful of fields only.
#pragma once

#include <string>

namespace gwb::testing {

// True if the record type `sub` is a subtype of `super` (both in DyLan's canonical text).
bool bruteForceIsSubtype(const std::string& sub, const std::string& super);

}  // namespace gwb::testing
