// Splitting lexical items by restricted higher-order unification, and factoring them into lexemes
// and templates (Kwiatkowski et al. 2011, sections 6 and 7.1; the splitting of UBL, Kwiatkowski
// et al. 2010).
//
// A lexical item `w1..wn ⊢ X : h` splits into two items that the CCG combinators recombine into
// it: the logical form h into (f, g) with h = f(g) (application) or h = λx.f(g(x)) (composition),
// the category X into the categories of f and g, the words into a non-empty left and right part.
//
// Semantic splits. g is a subterm e of h, closed by abstracting the variables of e that a binder
// of h above e binds (g = λv1..λvk.e), and f = λy.h[e := y(v1..vk)]. Composition: h = λx.B, g =
// λx.e for a subterm e of B in which x occurs free, f = λy.B[e := y] where x no longer occurs.
// A subset of the conjuncts of an `and` (two or more, not all) may be extracted as one subterm.
// The restrictions (UBL, section 5):
//   - no vacuous variables: e is never a bare variable (g would be the identity) nor all of h
//     (f would be the identity); every abstracted variable occurs in e. f may still be the
//     identity up to eta-reduction (λy.λx.y(x), e the body under h's abstractions) unless
//     SplitOptions::etaIdentityFunctions is off;
//   - limited application: f applies y to variables only — heads of applications are never
//     extracted (f = λq.q(tex) is not made);
//   - at most `maxAbstractedVariables` variables moved into g, at most `maxExtractedConjuncts`
//     conjuncts extracted together.
//
// Categories come from the types (section 7.1): e and its subtypes (numbers too) are NP, t is S,
// <a,b> is cat(b)|cat(a). f takes the category X/Y (g on the right, >) or X\Y (g on the left, <)
// where Y = cat(type(g)); in a composition split of X'/Z (or X'\Z, X'|Z) f is X'/Y and g Y/Z
// (>B), or g is Y\Z and f X'\Y (<B).
//
// Every split made here recombines to the input (lexical_splitting_test checks it on every item
// of the Geo880 training set's initial lexicon through the combinators of category.h).
//
// Factoring: MAX-FAC is lexicon.h's maximalFactoring; PART-FAC (section 6.2) keeps some of the
// constants in the template (a template with content) and puts the others in the lexeme.
#pragma once

#include <string>
#include <vector>

#include "gwb/ccg/category.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/term.h"

namespace gwb::ccg {

struct LexicalItem {
  std::vector<std::string> words;
  Category category;
  Term semantics;
};

std::string toString(const LexicalItem& item);  // "words :- CATEGORY : FORM"

struct SplitOptions {
  int maxAbstractedVariables = 2;
  int maxExtractedConjuncts = 3;
  bool composition = true;
  // Allow f = λy.λx1..λxk.y(x1..xk), the identity up to eta-reduction (e is the whole body
  // under h's outer abstractions, so g is h): the words of f then carry no meaning. Off, Geo880
  // loses 6.7 F1 points (fewer sentences parse; docs/ccg.md, Results).
  bool etaIdentityFunctions = true;
};

struct SemanticSplit {
  Term function;  // f
  Term argument;  // g
  bool composition = false;
};

// The category of a meaning of type `type` (NP, S, X|Y).
Category categoryForType(const TypePtr& type);

// The type of the closed term `term`, or null when it does not type-check.
TypePtr typeOfClosedTerm(const Term& term, const TypeSystem& types);

// Every (f, g) with h = f(g) or, when `options.composition`, h = λx.f(g(x)); canonical variable
// names, duplicates removed, in a fixed order.
std::vector<SemanticSplit> splitSemantics(const Term& semantics, const TypeSystem& types,
                                          const SplitOptions& options = {});

struct LexicalSplit {
  LexicalItem left;
  LexicalItem right;
  Combinator combinator = Combinator::ForwardApplication;
};

// Every split of `item` (semantic splits × categories × word split points).
std::vector<LexicalSplit> splitLexicalItem(const LexicalItem& item, const TypeSystem& types,
                                           const SplitOptions& options = {});

// The item a lexeme and a template make: the slots #i replaced by the lexeme's constants.
LexicalItem applyTemplate(const Lexeme& lexeme, const LexicalTemplate& lexicalTemplate);

struct Factoring {
  Lexeme lexeme;
  LexicalTemplate lexicalTemplate;
};

// MAX-FAC (all constants in the lexeme; `operators`: which operators count as constants).
Factoring maximalFactoringOf(const LexicalItem& item,
                             LexicalOperators operators = LexicalOperators::Ranking);
// PART-FAC: for every non-empty proper subset of the item's distinct constants (at most
// `maxConstants` of them; items with more give none) the factoring whose lexeme holds that
// subset and whose template keeps the other constants.
std::vector<Factoring> partialFactorings(const LexicalItem& item, int maxConstants = 4);

}  // namespace gwb::ccg
