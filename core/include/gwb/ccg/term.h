// Lambda-calculus terms: the logical forms of GeoQuery and the semantics of CCG categories.
//
// Notation (as in ../shared/data/geoquery): `(lambda $0 e (and (state:t $0) (next_to:t $0
// texas:s)))`. A term is a constant (`texas:s`, `state:t`, `0:i`; a template slot `#0` is a
// constant too), a variable (`$0`), an application `(f a b ...)` whose head is a constant, a
// variable or a lambda, a lambda `(lambda $v TYPE body)`, an operator (`and`, `or` with one or
// more arguments, `not`, `=`, `<`, `>`) or a quantifier binding a variable (`exists $v body`,
// `count`, `the`, `argmax $v body value`, `argmin`, `sum`). `exists` may take several bodies,
// read as their conjunction: two Geo880 forms (lines 398, ...) are written that way.
//
// Terms are immutable and shared: a Term is a shared_ptr<const TermNode>, and every operation
// (substitution, beta-reduction) returns the same pointer for every subterm it leaves alone, so a
// chart holding 10^5 logical forms shares their common parts. Each node caches its structural
// hash, size and the largest variable number in it (fresh variables are numbered above it).
//
// Variables keep the numbers they were read with; `canonicalTerm` renames bound variables by
// binding depth ($0 for the outermost binder, siblings reuse numbers), which is also how the data
// names most of them (not all: Geo880 line 276 binds $1 at depth 0).
//
// Exact match (the paper's evaluation, section 8): two logical forms are equal when they are the
// same up to renaming bound variables AND up to the order of the arguments of `and` / `or`, with
// nested conjunctions flattened ((and a (and b c)) = (and a b c) = (and c a b)). Conjunction is
// commutative and a parser that builds λx.f(x)∧g(x) by composition puts conjuncts in the order of
// the words, not of the annotation; UBL's evaluation compares conjunct sets the same way.
// `alphaEquivalent` is the strict variant (order matters).
//
// Depth: the reader refuses terms nested deeper than TermReadOptions::maxDepth (default 200;
// GeoQuery's deepest form has depth 12), and every recursive walk here is bounded by the depth
// of the terms it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gwb/ccg/lambda_type.h"
#include "gwb/common/diagnostic.h"

namespace gwb::ccg {

enum class TermKind : std::uint8_t {
  Constant,
  Variable,
  Application,  // children: head, arguments (at least one)
  Lambda,       // variable, variableType, children: body
  And,          // children: conjuncts (one or more)
  Or,
  Not,      // one child
  Equals,   // two children
  Less,     // two children
  Greater,  // two children
  Exists,   // variable, children: bodies (one or more; several are conjoined)
  Count,    // variable, children: body
  The,      // variable, children: body
  Argmax,   // variable, children: body, value
  Argmin,   // variable, children: body, value
  Sum,      // variable, children: body, value
};

struct TermNode;
using Term = std::shared_ptr<const TermNode>;

struct TermNode {
  TermKind kind = TermKind::Constant;
  std::string name;      // Constant: its full name ("texas:s")
  int variable = -1;     // Variable: its number; Lambda and quantifiers: the bound variable
  TypePtr variableType;  // Lambda: the declared type of its variable
  std::vector<Term> children;
  std::size_t hash = 0;  // structural (variable numbers included)
  int size = 1;          // nodes, counted as a tree (shared subterms once per use); saturates
  int depth = 1;
  int maxVariable = -1;            // largest variable number occurring (bound or free), -1 if none
  std::vector<int> freeVariables;  // sorted
  // No redex ((lambda ...) applied) and no and/or directly inside the same connective anywhere
  // in the term: betaReduce returns it unchanged without walking it.
  bool betaNormal = true;
};

// Keyword of an operator or quantifier ("and", "argmax", ...); "" for the other kinds.
const char* termKeyword(TermKind kind);
bool isBinder(TermKind kind);  // Lambda and the quantifiers

Term makeConstant(std::string name);
Term makeVariable(int number);
// Application of `head` to `arguments`; an application head is flattened into one node
// ((f a) b) -> (f a b).
Term makeApplication(const Term& head, std::vector<Term> arguments);
Term makeLambda(int variable, TypePtr variableType, Term body);
// And, Or, Not, Equals, Less, Greater.
Term makeOperator(TermKind kind, std::vector<Term> arguments);
// Exists, Count, The (one body), Argmax, Argmin, Sum (body and value).
Term makeQuantifier(TermKind kind, int variable, std::vector<Term> bodies);

// Structural equality (variable numbers and argument order matter); uses the cached hashes.
bool structurallyEqual(const Term& a, const Term& b);
struct TermHash {
  std::size_t operator()(const Term& term) const { return term ? term->hash : 0; }
};
struct TermEqual {
  bool operator()(const Term& a, const Term& b) const { return structurallyEqual(a, b); }
};

std::string toString(const Term& term);

struct TermReadOptions {
  int maxDepth = 200;
};

// Where each node of a term read from text starts (for diagnostics that name a column).
using TermPositions = std::unordered_map<const TermNode*, std::pair<int, int>>;  // line, column

// Reads one term from `text`, which starts at `line`:`column` of `file`. On bad input returns
// null and adds an error naming the file, line and column and what was expected. Trailing text
// after the term is an error. `positions`, when given, receives where each node starts.
Term readTerm(std::string_view text, const std::string& file, int line, int column,
              Diagnostics* diagnostics, TermPositions* positions = nullptr,
              const TermReadOptions& options = {});
// The same with file "<string>", line 1, column 1; errors go to *error when non-null.
Term parseTerm(std::string_view text, std::string* error = nullptr);

// Free variables of `term`, sorted.
std::vector<int> freeVariables(const Term& term);

// Capture-avoiding substitution of `value` for the free occurrences of variable `variable`.
Term substitute(const Term& term, int variable, const Term& value);

// Beta-normal form (normal order), with nested and/or flattened. Null when more than `maxSteps`
// reductions would be needed (a term without a normal form, e.g. (λx.x x)(λx.x x)), and null
// as well when the reduction would go past one of the bounds below, so that neither it nor any
// walk over its result can exhaust the stack or run for hours:
// - reductions nested more than kMaxReductionDepth deep (a self-application recurses once per
//   step: the step budget alone would let (λx.x x)(λx.x x) overflow the stack first);
// - a term, after a substitution or as a result, deeper than kMaxReductionDepth or with more
//   than kMaxReducedSize nodes counted as a tree (substitution shares the substituted value, so
//   a few dozen steps can build a term of 2^60 nodes whose every walk is exponential);
// - more than kMaxReductionWork nodes walked and rebuilt in all (each step walks the term it
//   makes, so the step and size bounds alone allowed 2,000 steps over terms of 100,000 nodes:
//   a fuzzed self-application ran for 15 s).
// GeoQuery's forms have depth at most 12 and fewer than 100 nodes; reducing one walks a few
// hundred. (The size bound was 100,000 until session 15: every walk over a result that large —
// canonical form, exact-match key — took a third of a second under the sanitizers.)
inline constexpr int kMaxReductionDepth = 1000;
inline constexpr int kMaxReducedSize = 10000;
inline constexpr long long kMaxReductionWork = 10000;
Term betaReduce(const Term& term, int maxSteps = 10000);

// Bound variables renamed by binding depth; free variables keep their numbers.
Term canonicalTerm(const Term& term);
// Bound variables renamed, nested and/or flattened, and/or arguments sorted: the key of exact
// match (two terms match exactly when their keys are structurally equal).
Term exactMatchKey(const Term& term);
bool alphaEquivalent(const Term& a, const Term& b);
bool exactMatch(const Term& a, const Term& b);

// Constants of `term` in the order of a left-to-right depth-first traversal, repeated ones once
// (the order of the paper's maximal factoring, section 6.1).
std::vector<std::string> constantsInOrder(const Term& term);
// `term` with every constant named in `replacements` replaced by the given term.
Term replaceConstants(const Term& term, const std::unordered_map<std::string, Term>& replacements);

// The higher-order operators that words name (argmax, argmin, count, sum) as constants: the
// lambda calculus of Zettlemoyer & Collins (2005), where `argmax` is a constant applied to two
// functions, and of the paper's lexemes ("(cheapest, [argmin, cost])", section 5.1).
// `operatorsAsConstants` writes `(argmax $v B V)` as `(argmax (lambda $v e B) (lambda $v e V))`
// (`count`: one body), so that maximal factoring puts the operator in the lexeme and a template
// slot in its place; `constantsAsOperators` is the inverse, applied when a lexeme fills a
// template: an application of one of these constants to as many lambdas as the operator takes
// becomes the quantifier again (anything else is left alone, and does not type-check).
// With LexicalOperators::RankingAndQuantifiers, `exists` and `the` (one lambda a body; `exists`
// may have several) and `not` (`(not X)`, no lambda) are constants too, so that words rather than
// templates choose them. RankingAndOr and RankingQuantifiersAndOr add `or` (`(or X Y ...)`, no
// lambda): a disjunction is then a word's, never that of a constant-free template any lexeme may
// fill. `constantsAsOperators` always knows all eight.
enum class LexicalOperators {
  Ranking,                  // argmax, argmin, count, sum
  RankingAndOr,             // and or
  RankingAndQuantifiers,    // and exists, the, not
  RankingQuantifiersAndOr,  // and exists, the, not, or
};
// The sets' names on the command line and in saved settings: "ranking", "ranking-or",
// "quantifiers", "quantifiers-or"; `lexicalOperatorsNamed` gives false for any other name.
const char* lexicalOperatorsName(LexicalOperators which);
bool lexicalOperatorsNamed(const std::string& name, LexicalOperators* which);
bool isLexicalOperator(TermKind kind, LexicalOperators which = LexicalOperators::Ranking);
Term operatorsAsConstants(const Term& term, LexicalOperators which = LexicalOperators::Ranking);
Term constantsAsOperators(const Term& term);

// Type of a closed term under `types`; null with an error (file, line, column from `positions`
// when the node is there, else from line/column) when it is ill-typed: an unknown constant, a
// free variable, an argument whose type fits no signature, a non-function applied, a connective
// over a non-truth value.
// A bound variable has one type: it starts at its declared type (`e` for quantifiers) and is
// narrowed to what each use requires (for a predicate with several signatures, the nearest
// common supertype of what the fitting ones take), until no use narrows it further. So
// `(lambda $0 e (and (state:t $0) (city:t $0)))` is ill-typed ($0 would be a state and a city)
// and `(argmax $0 (state:t $0) (size:i $0))` is an s. A lambda keeps its declared parameter type
// (`(lambda $0 e (state:t $0))` is an <e,t>), as splits and templates write it.
// `diagnostics` may be null: the check then only says whether the term is well typed, without
// making a message (what the chart and the lexicon do for every meaning they build).
TypePtr typeCheck(const Term& term, const TypeSystem& types, const std::string& file, int line,
                  int column, Diagnostics* diagnostics, const TermPositions* positions = nullptr);

}  // namespace gwb::ccg
