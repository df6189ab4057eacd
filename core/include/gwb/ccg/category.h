// CCG syntactic categories and the combinators that build derivations (Kwiatkowski et al. 2011,
// section 4.2).
//
// A category is atomic (`S`, `NP`, `N`, or any name of letters, digits and '_' starting with a
// letter) or complex: a result, a slash and an argument. `/` takes its argument on the right,
// `\` on the left, and the vertical slash `|` of the paper's templates on either side. Slashes
// associate to the left: `S\NP/NP` is `(S\NP)/NP`. Categories are immutable and shared.
//
// Matching: an argument slot matches a category of the same shape where a `|` on either side
// matches any slash (S|NP accepts S\NP and S/NP, and the other way round).
//
// Combinators (`combine`), with the semantics composed in step and beta-reduced:
//   >   X/Y : f    Y : g    =>  X : f(g)
//   <   Y : g    X\Y : f    =>  X : f(g)
//   >B  X/Y : f  Y/Z : g    =>  X/Z : λx.f(g(x))
//   <B  Y\Z : g  X\Y : f    =>  X\Z : λx.f(g(x))
// where `|` may stand for `/` or `\` on either category; a composed category keeps the slash of
// the category that brings Z. The variable of λx takes the type of g's own lambda variable (e
// when g is not a lambda). A combination whose semantics has no beta-normal form within the
// reduction budget is not made. Results are in canonical variable naming (term.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/ccg/term.h"
#include "gwb/common/diagnostic.h"

namespace gwb::ccg {

enum class Slash { Forward, Backward, Vertical };

struct CategoryNode;
using Category = std::shared_ptr<const CategoryNode>;

struct CategoryNode {
  std::string atom;  // atomic categories only
  Slash slash = Slash::Forward;
  Category result;    // complex categories only
  Category argument;  // complex categories only
  std::size_t hash = 0;
  bool isAtomic() const { return result == nullptr; }
};

Category makeAtomicCategory(std::string name);
Category makeComplexCategory(Category result, Slash slash, Category argument);

// "(S\NP)/NP": complex parts are parenthesised, the outermost category is not.
std::string toString(const Category& category);
char slashChar(Slash slash);
// Exact equality (slashes must be the same).
bool sameCategory(const Category& a, const Category& b);
// Equality where '|' matches any slash.
bool categoriesMatch(const Category& a, const Category& b);
// Number of slashes (the paper's template initialisation subtracts 0.1 per slash).
int slashCount(const Category& category);

// Reads a category from `text` at `line`:`column` of `file`; null and an error on bad input
// (depth bounded at 64 nested parentheses).
Category readCategory(std::string_view text, const std::string& file, int line, int column,
                      Diagnostics* diagnostics);
Category parseCategory(std::string_view text, std::string* error = nullptr);

enum class Combinator {
  Lexical,  // a lexical entry (lexeme × template)
  Skip,     // a lexical entry extended over skipped words
  ForwardApplication,
  BackwardApplication,
  ForwardComposition,
  BackwardComposition,
};
// "lex", "skip", ">", "<", ">B", "<B".
const char* combinatorSymbol(Combinator combinator);

struct CombinatorOptions {
  bool composition = true;  // >B and <B besides > and <
  int maxBetaSteps = 10000;
};

struct Combination {
  Combinator combinator = Combinator::ForwardApplication;
  Category category;
  Term semantics;
};

// Every way the combinators combine a left constituent with the right one next to it.
// The same as combinationRules followed by combineSemantics for each rule (in the same order).
std::vector<Combination> combine(const Category& leftCategory, const Term& leftSemantics,
                                 const Category& rightCategory, const Term& rightSemantics,
                                 const CombinatorOptions& options = {});

// The categories half of `combine`: every combinator that applies to the two categories, with
// the category it makes, in the order >, <, >B, <B. A parser can compute this once per pair of
// categories and the semantics once per pair of meanings.
struct CombinationRule {
  Combinator combinator = Combinator::ForwardApplication;
  Category category;
};
std::vector<CombinationRule> combinationRules(const Category& leftCategory,
                                              const Category& rightCategory,
                                              const CombinatorOptions& options = {});

// The semantics half: f(g) for > (f the left meaning) and < (f the right one), λx.f(g(x)) for
// >B and <B, beta-reduced, in canonical variable naming; null when there is no normal form
// within `maxBetaSteps` reductions.
Term combineSemantics(Combinator combinator, const Term& leftSemantics, const Term& rightSemantics,
                      int maxBetaSteps);

}  // namespace gwb::ccg
