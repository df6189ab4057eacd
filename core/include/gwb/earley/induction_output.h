// What grammar induction (induction.h) writes: the learned grammar in Earleyx's and NLTK's
// formats, the learning curve as CSV and Earleyx's objective trace, as one atomic set of files.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "gwb/earley/grammar.h"
#include "gwb/earley/induction.h"

namespace gwb {

// The learned grammar as Earleyx writes it: rules with θ > 0 in grammar order; EM
// `LHS->[RHS] : p`, VB with the prior column first `α LHS->[RHS] : p` (the prior α, not α*).
bool writeInducedEarleyx(const Grammar& grammar, InductionMethod method, std::ostream& out,
                         std::string* error = nullptr);
void writeInducedNltk(const Grammar& grammar, InductionMethod method, std::ostream& out);
// CSV: iteration,neg_log_likelihood,free_energy,variational_free_energy,objective,live_rules,
// seconds,failures,increased (EM leaves the free energies empty).
void writeCurveCsv(const std::vector<IterationRecord>& records, std::ostream& out);
// Earleyx's PREFIX.obj: `iteration k -logP objective`, the increased iteration left out.
void writeEarleyxObjectives(const std::vector<IterationRecord>& records, std::ostream& out);
// PREFIX.iogrammar (Earleyx), PREFIX.pcfg (NLTK), PREFIX.curve.csv, PREFIX.obj as one
// AtomicOutputSet (atomic_file.h), PREFIX.manifest written last. False and *error on failure.
bool saveInductionOutputs(const InductionResult& result, InductionMethod method,
                          const std::string& prefix, std::string* error = nullptr);

}  // namespace gwb
