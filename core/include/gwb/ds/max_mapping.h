// maxMapping: how much of one TTR record type a second one gets right, field by field — the
// semantic score of Eshghi, Hough & Purver 2013, section 4 (after Allen et al. 2008), used to
// compare a parse's record type H with the gold one G:
//
//   precision = maxMapping(H, G) / N_H        recall = maxMapping(H, G) / N_G
//
// N_R counts the fields of R other than `head` (the head pointer repeats another field and is
// not scored), a restrictor field (`r : [...]`) as one plus the fields of its record type. A
// mapping pairs fields of H with fields of G one to one (restrictors only with restrictors);
// pairing field a with field b renames label a to b, so the pairs also decide which labels
// correspond. Each pair scores the share of the GOLD field's parts that the H field gets right
// (the paper's example: a gold field `p==there(e) : t` can score at most 3 parts):
//   - an ordinary field's parts are its DS type, and, when it is manifest, its value: one part
//     for a symbol (`john`, `e1`) or an opaque value (a tuple, a function), or, for a predicate
//     `pred(a1, ..., ak)`, one part for the predicate and one for each argument. A part counts
//     when the H field has it equal after renaming: a symbol naming a field of H must name
//     the paired field of G (`subj(e1, x)` matches `subj(e5, x2)` when e1 is paired with e5 and
//     x with x2); a path `r.head` must have its base paired the same way; any other part must
//     be textually equal. A label whose field is not paired matches nothing. Arguments are
//     compared position by position, and only when both predicates have the same arity.
//     An unmanifest H field (`x : e`) gets only the type of a manifest gold field.
//   - a restrictor pair scores 1 plus the maxMapping of the two nested record types (each a
//     scope of its own).
// These choices (gold-side parts, head not scored) are the ones with which the authors' learned
// lexicons reproduce their Table 1 (lexicon_evaluation.h); the paper leaves them open.
// maxMapping is the largest total over all mappings; it lies in [0, min(N_H, N_G)].
//
// The search is branch and bound over H's fields (each paired with an unused field of G, or
// left out), bounded by every remaining field's best conceivable score; exact, and fast on the
// CHILDES record types (up to ~15 fields). tests/support/max_mapping_oracle.h enumerates every
// mapping instead.
#pragma once

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gwb/ds/record_type.h"

namespace gwb::ds {

struct MaxMappingResult {
  double score = 0.0;         // maxMapping(H, G)
  double hypothesisSize = 0;  // N_H
  double goldSize = 0;        // N_G
  // The best mapping's pairs, as (H label, G label, that pair's score); nested restrictor
  // pairs appear as "r.x" with the restrictor's label as prefix. H fields left out are absent.
  std::vector<std::tuple<std::string, std::string, double>> pairs;

  double precision() const { return hypothesisSize > 0 ? score / hypothesisSize : 0.0; }
  double recall() const { return goldSize > 0 ? score / goldSize : 0.0; }
  double f() const {
    const double p = precision();
    const double r = recall();
    return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
  }
};

// The best mapping field by field, for showing it beside the two record types: every field of H
// and of G except `head`, in record order, a restrictor's nested fields right after it with
// labels "r.x" (as in MaxMappingResult::pairs). A paired field is Matched when its pair scores
// every part (1; a restrictor's own entry scores its 1 and its nested fields speak for
// themselves), else Partial; an unpaired G field is Missing, an unpaired H field Extra.
enum class FieldMatch { Matched, Partial, Missing, Extra };
const char* fieldMatchName(FieldMatch match);  // "matched", "partial", "missing", "extra"

struct AlignedField {
  std::string label;    // "x", or "r.x" inside restrictor r
  std::string text;     // the field's text (Field::toString; restrictors: "r : [...]")
  std::string partner;  // the paired field's label on the other side; empty when unpaired
  double score = 0.0;   // the pair's score (restrictors: 1), 0 when unpaired
  FieldMatch match = FieldMatch::Missing;
};

struct FieldAlignment {
  std::vector<AlignedField> hypothesis;
  std::vector<AlignedField> gold;
};

FieldAlignment alignFields(const RecordType& hypothesis, const RecordType& gold,
                           const MaxMappingResult& mapping);

// N_R: fields, restrictors counting one plus their nested fields.
double recordTypeSize(const RecordType& record);

MaxMappingResult maxMapping(const RecordType& hypothesis, const RecordType& gold);

}  // namespace gwb::ds
