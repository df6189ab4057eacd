// Checkpoints of an induction run (InductionCheckpoint, induction_options.h) as text: every
// number in hexadecimal floating point, so that a resumed run starts from bit-for-bit the θ
// the interrupted run had, and goes on exactly as it would have.
//
//   gwb-induction-checkpoint 1
//   run <the caller's description of the run, one line>
//   iteration <iterations finished>
//   objective <hex float>
//   record <iteration> <−log p> <F> <variational F> <objective> <live rules> <seconds>
//          <E-step seconds> <objective increased 0/1> <failures> <failed sentence indices...>
//   probabilities <rule count>
//   <hex float>            (one line per rule, by RuleId)
//   end
#pragma once

#include <optional>
#include <string>

#include "gwb/earley/induction.h"
#include "gwb/earley/induction_options.h"

namespace gwb {

std::string formatInductionCheckpoint(const InductionCheckpoint& checkpoint);

// Reads what formatInductionCheckpoint wrote; nullopt and *error ("line N: expected ...") when
// the text is not a whole checkpoint (a truncated file ends without `end`), is UTF-16, or holds
// a probability that is NaN, infinite or negative. Lines are read as every text reader of the
// core reads them (a byte-order mark skipped; LF, CRLF and CR line ends alike).
std::optional<InductionCheckpoint> parseInductionCheckpoint(const std::string& text,
                                                            std::string* error);

// The state a run ended in (θ of its grammar, its records and last objective), as a checkpoint
// of its last iteration: what a caller that chains runs keeps to skip a finished one. The
// result must have at least one record.
InductionCheckpoint finalCheckpoint(const InductionResult& result);

// Writes the checkpoint to `path` atomically (a reader sees the old file or the new, whole).
bool saveInductionCheckpoint(const std::string& path, const InductionCheckpoint& checkpoint,
                             std::string* error);

}  // namespace gwb
