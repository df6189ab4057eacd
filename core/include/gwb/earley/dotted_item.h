// How an Earley item reads to a person: "[origin, set] LHS -> α . β".
//
// The source rule's right-hand side is shown, with the positions the compiled rule drops (ε)
// marked ":ε" and the dot among the kept symbols; the goal rule's LHS reads GOAL. The chart
// (earley_chart.h) and the teaching agenda engine (agenda_earley.h) both print items this way.
#pragma once

#include <cstdint>
#include <string>

#include "gwb/earley/compiled_grammar.h"

namespace gwb {

std::string dottedItemText(const CompiledGrammar& grammar, std::int32_t rule, int dot, int origin,
                           int set);

}  // namespace gwb
