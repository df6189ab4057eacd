// Small grammars that several test suites parse, in grammarFromText syntax (the first LHS is the
// start symbol), written once here so that every suite tests the same text.
//   kPpAttachmentGrammar: the prepositional-phrase attachment grammar of the samples — ambiguous
//     ("saw the man with the telescope"), left-recursive (NP -> NP PP), with a unary VP -> V.
//   kUnitCycleGrammar: a unit cycle A -> B -> A (the closure's infinite sum) beside a
//     left-recursive L, for the closure and the k-best enumeration of cyclic derivations.
#pragma once

namespace gwb::testing {

inline constexpr const char* kPpAttachmentGrammar =
    "S -> NP VP 1.0\n"
    "NP -> Det N 0.5 | NP PP 0.2 | 'i' 0.2 | 'john' 0.1\n"
    "VP -> V NP 0.6 | V NP PP 0.3 | V 0.1\n"
    "PP -> P NP 1.0\n"
    "Det -> 'the' 0.7 | 'a' 0.3\n"
    "N -> 'man' 0.4 | 'telescope' 0.3 | 'park' 0.3\n"
    "V -> 'saw' 0.7 | 'walked' 0.3\n"
    "P -> 'with' 0.6 | 'in' 0.4\n";

inline constexpr const char* kUnitCycleGrammar =
    "S -> A 0.5 | L 0.5\n"
    "A -> B 0.3 | 'a' 0.7\n"
    "B -> A 0.4 | 'b' 0.6\n"
    "L -> L 'x' 0.4 | 'x' 0.6\n";

}  // namespace gwb::testing
