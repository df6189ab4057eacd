// The parser's term arena (core/src/ccg/term_arena.h) against term.h: every combination of a
// table of terms — lambdas over entities, predicates and functions, applications, nested and/or,
// quantifiers, free variables, a redex, a term without a normal form — by application and by
// composition must give what combineSemantics (category.h) gives: the same canonical term (or
// none), and exact-match keys that agree with exactMatch.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ccg/term_arena.h"
#include "gwb/ccg/category.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexical_splitting.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/ccg/term.h"
#include "shared_data.h"

namespace gwb::ccg {
namespace {

const char* kTerms[] = {
    "texas:s",
    "(lambda $0 e $0)",
    "(lambda $0 <e,t> $0)",
    "(lambda $0 e (state:t $0))",
    "(lambda $0 e (lambda $1 e (next_to:t $1 $0)))",
    "(lambda $0 <e,t> (lambda $1 e (and (state:t $1) ($0 $1))))",
    "(lambda $0 <e,t> (lambda $1 e (and ($0 $1) (city:t $1))))",
    "(lambda $0 e (lambda $1 <e,t> (lambda $2 e (and ($1 $2) (loc:t $2 $0)))))",
    "(lambda $5 <e,t> (lambda $2 e (and (river:t $2) (and ($5 $2) (major:t $2)))))",
    "(lambda $0 <e,t> (count $1 ($0 $1)))",
    "(lambda $0 <e,t> (argmax $1 ($0 $1) (population:i $1)))",
    "(lambda $0 e (exists $1 (and (state:t $1) (loc:t $0 $1))))",
    "(capital:c texas:s)",
    "(lambda $0 e (foo:t $0 $7))",
    "(lambda $0 e (lambda $1 e (and (= $0 $1) (not (bar:t $1)))))",
    "((lambda $0 e (state:t $0)) texas:s)",
    "(lambda $0 <e,<e,t>> (lambda $1 e ($0 $1 texas:s)))",
    "(lambda $0 <e,t> ($0 $0))",
    "(lambda $1 <e,t> (and ($1 austin:c) (or ($1 dallas:c) ($1 $3))))",
};

TEST(CcgTermArenaTest, CombinationsAgreeWithTermH) {
  std::vector<Term> terms;
  for (const char* text : kTerms) {
    std::string error;
    terms.push_back(parseTerm(text, &error));
    ASSERT_TRUE(terms.back()) << text << ": " << error;
  }
  detail::TermArena arena;
  std::vector<detail::TermArena::Id> ids;
  for (const Term& term : terms) {
    ids.push_back(arena.fromTerm(term));
    EXPECT_EQ(toString(arena.toTerm(ids.back())), toString(canonicalTerm(term)));
  }
  struct Result {
    Term expected;
    detail::TermArena::Id key;
  };
  std::vector<Result> results;
  int made = 0;
  int none = 0;
  const Combinator combinators[] = {Combinator::ForwardApplication, Combinator::ForwardComposition};
  for (std::size_t f = 0; f < terms.size(); ++f) {
    for (std::size_t g = 0; g < terms.size(); ++g) {
      for (Combinator combinator : combinators) {
        SCOPED_TRACE(std::string(kTerms[f]) + " " + combinatorSymbol(combinator) + " " + kTerms[g]);
        const int steps = 50;
        const Term expected = combineSemantics(combinator, terms[f], terms[g], steps);
        const detail::TermArena::Id got = combinator == Combinator::ForwardApplication
                                              ? arena.apply(ids[f], ids[g], steps)
                                              : arena.compose(ids[f], ids[g], steps);
        ASSERT_EQ(got != detail::TermArena::kNone, expected != nullptr);
        if (!expected) {
          ++none;
          continue;
        }
        ++made;
        EXPECT_EQ(toString(arena.toTerm(got)), toString(expected));
        results.push_back({expected, arena.exactMatchKey(got)});
      }
    }
  }
  int matches = 0;
  for (std::size_t a = 0; a < results.size(); ++a) {
    for (std::size_t b = a + 1; b < results.size(); ++b) {
      const bool same = exactMatch(results[a].expected, results[b].expected);
      matches += same && !structurallyEqual(results[a].expected, results[b].expected) ? 1 : 0;
      EXPECT_EQ(results[a].key == results[b].key, same)
          << toString(results[a].expected) << " vs " << toString(results[b].expected);
    }
  }
  EXPECT_GT(made, 300);
  EXPECT_GT(none, 0) << "the self-application runs out of steps";
  EXPECT_GT(matches, 0) << "some results differ only in conjunct order";
}

// Compacting keeps the terms the roots reach, under new ids: each still reads back as the same
// term, and the arena goes on as if nothing had happened: every combination of the kept terms
// gives the term and the exact-match key classes it gave before; making a kept term again finds
// it (hash-consing survives the renumbering), and what only the combinations reached is gone.
TEST(CcgTermArenaTest, CompactingKeepsWhatTheRootsReachAndChangesNoResult) {
  std::vector<Term> terms;
  for (const char* text : kTerms) {
    std::string error;
    terms.push_back(parseTerm(text, &error));
    ASSERT_TRUE(terms.back()) << text << ": " << error;
  }
  using Id = detail::TermArena::Id;
  const int steps = 50;
  const auto combineAll = [&](detail::TermArena* arena, const std::vector<Id>& ids) {
    std::vector<std::string> out;
    std::vector<Id> keys;
    for (Id f : ids) {
      for (Id g : ids) {
        for (bool composition : {false, true}) {
          const Id got = composition ? arena->compose(f, g, steps) : arena->apply(f, g, steps);
          out.push_back(got == detail::TermArena::kNone ? "-" : toString(arena->toTerm(got)));
          keys.push_back(got == detail::TermArena::kNone ? got : arena->exactMatchKey(got));
        }
      }
    }
    // The key classes, as the index of each result's first equal key.
    for (std::size_t a = 0; a < keys.size(); ++a) {
      std::size_t first = a;
      while (keys[first] != keys[a]) ++first;
      out.push_back(std::to_string(first));
    }
    return out;
  };
  detail::TermArena arena;
  std::vector<Id> ids;
  ids.reserve(terms.size());
  for (const Term& term : terms) ids.push_back(arena.fromTerm(term));
  const std::vector<std::string> before = combineAll(&arena, ids);
  const std::size_t grown = arena.size();
  // Keep every other input term (and a kNone, which is left alone).
  std::vector<Id> kept;
  std::vector<Term> keptTerms;
  for (std::size_t i = 0; i < ids.size(); i += 2) {
    kept.push_back(ids[i]);
    keptTerms.push_back(terms[i]);
  }
  kept.push_back(detail::TermArena::kNone);
  arena.compact(&kept);
  EXPECT_EQ(kept.back(), detail::TermArena::kNone);
  kept.pop_back();
  EXPECT_LT(arena.size(), grown / 4) << "the combinations' terms are gone";
  for (std::size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(toString(arena.toTerm(kept[i])), toString(canonicalTerm(keptTerms[i])));
    EXPECT_EQ(arena.fromTerm(keptTerms[i]), kept[i]) << "found again, not made anew";
  }
  const std::size_t compacted = arena.size();
  detail::TermArena fresh;
  std::vector<Id> freshIds;
  freshIds.reserve(keptTerms.size());
  for (const Term& term : keptTerms) freshIds.push_back(fresh.fromTerm(term));
  EXPECT_EQ(compacted, fresh.size()) << "exactly the terms the roots reach";
  EXPECT_EQ(combineAll(&arena, kept), combineAll(&fresh, freshIds));
  // And against the results before compacting, for the kept pairs.
  std::vector<std::string> expected;
  const std::size_t n = ids.size();
  for (std::size_t f = 0; f < n; f += 2) {
    for (std::size_t g = 0; g < n; g += 2) {
      for (std::size_t c = 0; c < 2; ++c) expected.push_back(before[(f * n + g) * 2 + c]);
    }
  }
  const std::vector<std::string> after = combineAll(&arena, kept);
  EXPECT_EQ(std::vector<std::string>(after.begin(), after.begin() + expected.size()), expected);
}

// typeOf against typeCheck (term.h) on the type checker's own cases (ccg_term_test: narrowing by
// uses, several signatures, `=`, the variable of `the`, disjuncts joined) and a few more where a
// bare variable is narrowed by what `>` or `not` expects, and on every subterm of each.
TEST(CcgTermArenaTest, TypeOfAgreesWithTypeCheckOnNarrowingCases) {
  const char* typesText = "( n lo (s lo) (c lo) (r lo) (to lo) )";
  const char* lang =
      "((state:t s t) (city:t c t) (river:t r t) (town:t to t) (loc:t r s t) (loc:t c s t)"
      " (next_to:t s s t) (capital:c s c) (population:i lo i) (len:i r i) (size:i lo i))";
  TypeSystemLoad types = readTypeSystem(typesText, "t.types", lang, "t.lang");
  ASSERT_FALSE(types.diagnostics.hasErrors());
  const std::vector<std::string> cases = {
      "(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))",
      "(capital:c texas:s)",
      "(count $0 (state:t $0))",
      "(argmax $0 (river:t $0) (len:i $0))",
      "(loc:t texas:s mississippi_river:r)",
      "(lambda $0 e (= (population:i texas:s) $0))",
      "(lambda $0 <e,t> ($0 texas:s))",
      "(and (state:t texas:s) texas:s)",
      "(texas:s austin:c)",
      "(> (count $0 (state:t $0)) texas:s)",
      "(lambda $0 e (and (state:t $0) (city:t $0)))",
      "(count $0 (and (river:t $0) (next_to:t $0 texas:s)))",
      "(len:i (argmax $0 (state:t $0) (size:i $0)))",
      "(lambda $0 e (= (population:i $0) $0))",
      "(lambda $0 e (lambda $1 e (and (loc:t $0 $1) (city:t $0) (state:t $1))))",
      "(lambda $0 e (lambda $1 e (loc:t $0 $1)))",
      "(lambda $0 e (= $0 texas:s))",
      "(exists $0 (loc:t $0 texas:s))",
      "(capital:c (the $0 (river:t $0)))",
      "(count $0 (and (or (town:t $0) (city:t $0)) (loc:t $0 texas:s)))",
      "(count $0 (and (or (town:t $0) (city:t $0)) (river:t $0)))",
      "(count $0 (and (or (town:t $0) (city:t $0)) (capital:c $0)))",
      "(lambda $0 e (and (> $0 3:i) (population:i $0)))",
      "(lambda $0 e (and (not $0) (state:t $0)))",
      "(lambda $0 e (lambda $1 <e,t> (and ($1 $0) (or (state:t $0) (river:t $0)))))",
      "(lambda $0 e (exists $1 (and (state:t $1) (loc:t $0 $1) (len:i $0))))",
      "(argmin $0 (or (city:t $0) (town:t $0)) (population:i $0))",
      "(sum $0 (and (state:t $0) (next_to:t $0 texas:s)) (size:i $0))",
      // Each needs one narrowing step to come out as typeCheck has it: `=` ($0 a state, not any
      // entity), `>` ($0 a number, which capital:c does not take), the disjuncts' join (lo, not e).
      "(the $0 (= $0 texas:s))",
      "(capital:c (the $0 (> $0 3:i)))",
      "(the $0 (or (town:t $0) (city:t $0)))",
  };
  detail::TermArena arena;
  for (const std::string& text : cases) {
    std::string error;
    const Term term = parseTerm(text, &error);
    ASSERT_TRUE(term) << text << ": " << error;
    arena.fromTerm(term);
  }
  int typed = 0;
  for (detail::TermArena::Id id = 0; id < static_cast<detail::TermArena::Id>(arena.size()); ++id) {
    const Term term = arena.toTerm(id);
    const TypePtr expected = typeCheck(term, types.types, "", 0, 0, nullptr);
    const TypePtr got = arena.typeOf(id, types.types);
    EXPECT_EQ(got ? toString(got) : "-", expected ? toString(expected) : "-") << toString(term);
    typed += expected ? 1 : 0;
  }
  EXPECT_GT(typed, 30);
}

// The arena of SharedGeoTypeOfAgreesWithTypeCheck: each form, the halves of each of its splits,
// the halves recombined, and each split's function applied to the argument of the split before.
void addFormsSplitsAndCombinations(const std::vector<SemanticExample>& examples,
                                   const TypeSystem& types, detail::TermArena* arena) {
  using Id = detail::TermArena::Id;
  const int steps = 50;
  Id previousArgument = detail::TermArena::kNone;
  for (const SemanticExample& example : examples) {
    arena->fromTerm(example.logicalForm);
    const LexicalItem sentence{example.words, makeAtomicCategory("S"), example.logicalForm};
    for (const LexicalSplit& split : splitLexicalItem(sentence, types)) {
      const bool backward = split.combinator == Combinator::BackwardApplication ||
                            split.combinator == Combinator::BackwardComposition;
      const bool composition = split.combinator == Combinator::ForwardComposition ||
                               split.combinator == Combinator::BackwardComposition;
      const Id function = arena->fromTerm(backward ? split.right.semantics : split.left.semantics);
      const Id argument = arena->fromTerm(backward ? split.left.semantics : split.right.semantics);
      if (composition) {
        arena->compose(function, argument, steps);
      } else {
        arena->apply(function, argument, steps);
      }
      if (previousArgument != detail::TermArena::kNone) {
        arena->apply(function, previousArgument, steps);
      }
      previousArgument = argument;
    }
  }
}

// typeOf against typeCheck (term.h) of the built Term, on every term of an arena that holds what
// a learner's charts meet: the 600 Geo880 training forms, the halves of every split of
// them and what the halves give when recombined and when one example's function is
// applied to another's argument (ill-typed mostly), with every subterm, open ones included
// (a free variable: no type). Both must agree on every id: the same type or both none.
TEST(CcgTermArenaTest, SharedGeoTypeOfAgreesWithTypeCheck) {
  GWB_REQUIRE_SHARED(typesPath, "data/geoquery/geo-lambda.types");
  GWB_REQUIRE_SHARED(langPath, "data/geoquery/geo-lambda.lang");
  GWB_REQUIRE_SHARED(trainPath, "data/geoquery/geosents600-typed.ccg.dev");
  TypeSystemLoad types = loadTypeSystem(typesPath, langPath);
  ASSERT_FALSE(types.diagnostics.hasErrors());
  SemanticExamplesLoad train = loadSemanticExamples(trainPath);
  ASSERT_EQ(train.examples.size(), 600U);
  detail::TermArena arena;
  addFormsSplitsAndCombinations(train.examples, types.types, &arena);
  using Id = detail::TermArena::Id;
  std::size_t typed = 0;
  std::size_t untyped = 0;
  const auto size = static_cast<Id>(arena.size());
  for (Id id = 0; id < size; ++id) {
    const Term term = arena.toTerm(id);
    const TypePtr expected = typeCheck(term, types.types, "", 0, 0, nullptr);
    const TypePtr got = arena.typeOf(id, types.types);
    ASSERT_EQ(got == nullptr, expected == nullptr) << toString(term);
    if (expected == nullptr) {
      ++untyped;
      continue;
    }
    ++typed;
    ASSERT_EQ(toString(got), toString(expected)) << toString(term);
  }
  EXPECT_GT(typed, 8000U);
  EXPECT_GT(untyped, 10000U);
}

// The bounds of betaReduce besides the step budget (term.h: nesting, depth and size): the arena
// gives up exactly where term.h does, on halves of Omega and of a Y-like term, on Church numerals
// whose power is too deep, and on a doubling by sharing too big to walk; and it reduces the
// numerals within the bounds to the same term.
TEST(CcgTermArenaTest, BoundsOfTheReductionAgreeWithTermH) {
  const int kUnlimitedSteps = 100000000;
  const auto church = [](int n) {
    std::string body = "$1";
    for (int i = 0; i < n; ++i) body = "($0 " + body + ")";
    return "(lambda $0 <e,e> (lambda $1 e " + body + "))";
  };
  struct Pair {
    std::string function;
    std::string argument;
    bool reduces;
  };
  const std::string two = church(2);
  const std::string three = church(3);
  const std::string twoTwo = "(" + two + " " + two + ")";
  const Pair pairs[] = {
      {"(lambda $0 <e,e> ($0 $0))", "(lambda $0 <e,e> ($0 $0))", false},
      {"(lambda $0 <e,e> (f:e ($0 $0)))", "(lambda $0 <e,e> (f:e ($0 $0)))", false},
      {"(lambda $0 <e,e> ($0 $0 $0))", "(lambda $0 <e,e> ($0 $0 $0))", false},
      // (2 2 2 2) f and (3 2 2) f: f applied 65536 and 256 times, to a free variable.
      {"(" + twoTwo + " " + two + " " + two + ")", "f:<e,e>", false},
      {"(" + three + " " + two + " " + two + ")", "f:<e,e>", true},
      // x ↦ (p x x) twelve times over, against 2^17 nodes shared twelve levels deep.
      {"(lambda $0 t (p:<t,<t,t>> $0 $0))",
       "(" + church(17) + " (lambda $0 t (p:<t,<t,t>> $0 $0)) c:t)", false},
      {"(lambda $0 t (p:<t,<t,t>> $0 $0))",
       "(" + church(8) + " (lambda $0 t (p:<t,<t,t>> $0 $0)) c:t)", true},
  };
  detail::TermArena arena;
  for (const Pair& pair : pairs) {
    SCOPED_TRACE(pair.function + " applied to " + pair.argument);
    const Term function = parseTerm(pair.function);
    const Term argument = parseTerm(pair.argument);
    ASSERT_TRUE(function && argument);
    const Term expected =
        combineSemantics(Combinator::ForwardApplication, function, argument, kUnlimitedSteps);
    const detail::TermArena::Id got =
        arena.apply(arena.fromTerm(function), arena.fromTerm(argument), kUnlimitedSteps);
    EXPECT_EQ(expected != nullptr, pair.reduces);
    ASSERT_EQ(got != detail::TermArena::kNone, expected != nullptr);
    if (expected) {
      EXPECT_EQ(toString(arena.toTerm(got)), toString(expected));
    }
  }
}

}  // namespace
}  // namespace gwb::ccg
