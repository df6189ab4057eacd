#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ccg/lexical_splitting.h"
#include "gwb/ccg/semantic_examples.h"
#include "shared_data.h"

namespace gwb::ccg {
namespace {

TypeSystem smallTypes() {
  TypeSystemLoad load = readTypeSystem("((s e) (c e))", "types",
                                       "((loc:t e s t) (state:t s t) (next_to:t s s t)"
                                       " (capital:c s c) (population:i e i))",
                                       "lang");
  EXPECT_FALSE(load.diagnostics.hasErrors());
  return load.types;
}

LexicalItem item(const std::string& words, const std::string& category, const std::string& form) {
  LexicalItem out;
  std::string word;
  for (char c : words + " ") {
    if (c == ' ') {
      if (!word.empty()) out.words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  out.category = parseCategory(category);
  out.semantics = parseTerm(form);
  EXPECT_TRUE(out.category && out.semantics) << category << " " << form;
  return out;
}

std::set<std::string> semanticSplitStrings(const Term& term, const TypeSystem& types,
                                           const SplitOptions& options = {}) {
  std::set<std::string> out;
  for (const SemanticSplit& split : splitSemantics(term, types, options)) {
    out.insert(std::string(split.composition ? "B " : "A ") + toString(split.function) + " | " +
               toString(split.argument));
  }
  return out;
}

// The split recombines, through the combinators of category.h, into the item it came from.
::testing::AssertionResult recombines(const LexicalItem& original, const LexicalSplit& split) {
  std::vector<std::string> words = split.left.words;
  words.insert(words.end(), split.right.words.begin(), split.right.words.end());
  if (words != original.words || split.left.words.empty() || split.right.words.empty()) {
    return ::testing::AssertionFailure() << "words do not concatenate";
  }
  for (const Combination& combination : combine(split.left.category, split.left.semantics,
                                                split.right.category, split.right.semantics)) {
    if (combination.combinator == split.combinator &&
        categoriesMatch(combination.category, original.category) &&
        exactMatch(combination.semantics, original.semantics)) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << toString(split.left) << "  +  " << toString(split.right)
                                       << "  do not make  " << toString(original);
}

::testing::AssertionResult factoringsRoundTrip(const LexicalItem& original) {
  const Term expected = canonicalTerm(original.semantics);
  std::vector<Factoring> factorings = partialFactorings(original);
  factorings.push_back(maximalFactoringOf(original));
  for (const Factoring& factoring : factorings) {
    if (static_cast<int>(factoring.lexeme.constants.size()) !=
        factoring.lexicalTemplate.slotCount) {
      return ::testing::AssertionFailure() << "slot count differs";
    }
    LexicalItem rebuilt = applyTemplate(factoring.lexeme, factoring.lexicalTemplate);
    if (rebuilt.words != original.words || !sameCategory(rebuilt.category, original.category) ||
        !alphaEquivalent(canonicalTerm(rebuilt.semantics), expected)) {
      return ::testing::AssertionFailure()
             << toString(original) << " factored into " << lexemeKey(factoring.lexeme) << " || "
             << templateKey(factoring.lexicalTemplate) << " rebuilds " << toString(rebuilt);
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(CcgLexicalSplittingTest, CategoriesFollowTypes) {
  EXPECT_EQ(toString(categoryForType(atomicType("e"))), "NP");
  EXPECT_EQ(toString(categoryForType(atomicType("s"))), "NP");
  EXPECT_EQ(toString(categoryForType(atomicType("t"))), "S");
  std::string error;
  EXPECT_EQ(toString(categoryForType(parseType("<e,t>", &error))), "S|NP");
  EXPECT_EQ(toString(categoryForType(parseType("<<e,t>,<e,t>>", &error))), "(S|NP)|(S|NP)");
}

// The paper's running example (section 7.1): "in Boston ⊢ S\NP : λx.loc(x, bos)" splits into
// "in ⊢ (S\NP)/NP : λy.λx.loc(x, y)" and "Boston ⊢ NP : bos", among others; every split the
// restrictions allow is listed.
TEST(CcgLexicalSplittingTest, SemanticSplitsOfARelation) {
  const TypeSystem types = smallTypes();
  const std::set<std::string> splits =
      semanticSplitStrings(parseTerm("(lambda $0 e (loc:t $0 texas:s))"), types);
  const std::set<std::string> expected = {
      // g = texas:s
      "A (lambda $0 s (lambda $1 e (loc:t $1 $0))) | texas:s",
      // g = λx.loc(x, texas): f = λy.λx.y(x), the identity up to eta-reduction
      "A (lambda $0 <e,t> (lambda $1 e ($0 $1))) | (lambda $0 e (loc:t $0 texas:s))",
      // composition with g = λx.loc(x, texas) would leave f the identity: not made
  };
  EXPECT_EQ(splits, expected);
  // Without eta-identity functions (the learner's --no-eta-identity-splits) only g = texas:s.
  SplitOptions noEtaIdentity;
  noEtaIdentity.etaIdentityFunctions = false;
  EXPECT_EQ(
      semanticSplitStrings(parseTerm("(lambda $0 e (loc:t $0 texas:s))"), types, noEtaIdentity),
      std::set<std::string>{"A (lambda $0 s (lambda $1 e (loc:t $1 $0))) | texas:s"});
}

TEST(CcgLexicalSplittingTest, EtaIdentityFunctionsAreMadeOnlyWhenAllowed) {
  const TypeSystem types = smallTypes();
  SplitOptions noEtaIdentity;
  noEtaIdentity.etaIdentityFunctions = false;
  // Two abstractions: e the innermost body (two variables moved) or the inner abstraction (one).
  const Term relation = parseTerm("(lambda $0 s (lambda $1 e (loc:t $1 $0)))");
  const Term conjunction = parseTerm("(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))");
  for (const Term& form : {relation, conjunction}) {
    for (const SemanticSplit& split : splitSemantics(form, types, noEtaIdentity)) {
      Term body = split.function->children.front();
      // Strip λx.M where M = N(x): what is left must not be the function's own variable.
      while (body->kind == TermKind::Lambda &&
             body->children.front()->kind == TermKind::Application &&
             body->children.front()->children.back()->kind == TermKind::Variable &&
             body->children.front()->children.back()->variable == body->variable &&
             body->children.front()->children.size() == 2) {
        body = body->children.front()->children.front();
      }
      EXPECT_FALSE(body->kind == TermKind::Variable && body->variable == split.function->variable)
          << toString(split.function) << " | " << toString(split.argument);
    }
  }
  // Allowed (the default): both of the relation's eta-identities, g = h with one or two
  // variables moved.
  const std::set<std::string> all = semanticSplitStrings(relation, types);
  EXPECT_TRUE(
      all.count("A (lambda $0 <s,<e,t>> (lambda $1 s (lambda $2 e ($0 $1 $2)))) | "
                "(lambda $0 s (lambda $1 e (loc:t $1 $0)))"))
      << ::testing::PrintToString(all);
  EXPECT_EQ(all.size(), semanticSplitStrings(relation, types, noEtaIdentity).size() + 2)
      << ::testing::PrintToString(all);
}

TEST(CcgLexicalSplittingTest, RestrictionsHold) {
  const TypeSystem types = smallTypes();
  const Term form = parseTerm("(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))");
  for (const SemanticSplit& split : splitSemantics(form, types)) {
    // No vacuous variables: neither side is the identity, g is never a bare variable.
    EXPECT_FALSE(alphaEquivalent(split.function, parseTerm("(lambda $0 e $0)")));
    EXPECT_NE(split.argument->kind, TermKind::Variable);
    // Limited application: no head of an application is extracted.
    EXPECT_NE(toString(split.argument), "state:t");
    EXPECT_NE(toString(split.argument), "next_to:t");
    // f uses its variable.
    ASSERT_EQ(split.function->kind, TermKind::Lambda);
  }
  const std::set<std::string> splits = semanticSplitStrings(form, types);
  // A conjunct extracted by application (g abstracts x) and by composition.
  EXPECT_TRUE(
      splits.count("A (lambda $0 <e,t> (lambda $1 e (and (state:t $1) ($0 $1)))) | "
                   "(lambda $0 e (next_to:t $0 texas:s))"))
      << ::testing::PrintToString(splits);
  SplitOptions noVariables;
  noVariables.maxAbstractedVariables = 0;
  for (const SemanticSplit& split : splitSemantics(form, types, noVariables)) {
    if (split.composition) continue;
    EXPECT_NE(split.argument->kind, TermKind::Lambda) << toString(split.argument);
  }
}

TEST(CcgLexicalSplittingTest, ConjunctSubsetsAreExtracted) {
  const TypeSystem types = smallTypes();
  const Term form =
      parseTerm("(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s) (loc:t $0 ohio:s)))");
  const std::set<std::string> splits = semanticSplitStrings(form, types);
  EXPECT_TRUE(
      splits.count("A (lambda $0 <e,t> (lambda $1 e (and ($0 $1) (loc:t $1 ohio:s)))) | "
                   "(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))"))
      << ::testing::PrintToString(splits);
  SplitOptions single;
  single.maxExtractedConjuncts = 1;
  EXPECT_LT(splitSemantics(form, types, single).size(), splits.size());
}

TEST(CcgLexicalSplittingTest, LexicalSplitsRecombineIncludingComposition) {
  const TypeSystem types = smallTypes();
  const LexicalItem relation = item("in texas", "S|NP", "(lambda $0 e (loc:t $0 texas:s))");
  const std::vector<LexicalSplit> splits = splitLexicalItem(relation, types);
  bool paperSplit = false;
  for (const LexicalSplit& split : splits) {
    EXPECT_TRUE(recombines(relation, split));
    if (toString(split.left) == "in :- (S|NP)/NP : (lambda $0 s (lambda $1 e (loc:t $1 $0)))" &&
        toString(split.right) == "texas :- NP : texas:s") {
      paperSplit = true;
    }
  }
  EXPECT_TRUE(paperSplit);

  const LexicalItem modifier = item("capital of", "NP|NP", "(lambda $0 s (capital:c $0))");
  const LexicalItem chain =
      item("population of capital", "NP/NP", "(lambda $0 s (population:i (capital:c $0)))");
  int compositions = 0;
  for (const LexicalSplit& split : splitLexicalItem(chain, types)) {
    EXPECT_TRUE(recombines(chain, split));
    if (split.combinator == Combinator::ForwardComposition) ++compositions;
    EXPECT_NE(split.combinator, Combinator::BackwardComposition);  // X/Z composes forward only
  }
  EXPECT_EQ(compositions, 2);  // g = λx.capital(x), over the two word split points
  for (const LexicalSplit& split : splitLexicalItem(modifier, types)) {
    EXPECT_TRUE(recombines(modifier, split));
  }
  EXPECT_TRUE(splitLexicalItem(item("texas", "NP", "texas:s"), types).empty());
}

TEST(CcgLexicalSplittingTest, FactoringsRoundTrip) {
  const LexicalItem relation =
      item("from boston", "(S|NP)\\(S|NP)",
           "(lambda $0 <e,t> (lambda $1 e (and ($0 $1) (loc:t $1 boston:c))))");
  EXPECT_TRUE(factoringsRoundTrip(relation));
  const Factoring maximal = maximalFactoringOf(relation);
  EXPECT_EQ(lexemeKey(maximal.lexeme), "from boston :- loc:t boston:c");
  const std::vector<Factoring> partial = partialFactorings(relation);
  ASSERT_EQ(partial.size(), 2u);
  // The paper's template with content (section 6.2): λf.λx.f(x) ∧ from(x, v1).
  EXPECT_EQ(lexemeKey(partial[1].lexeme), "from boston :- boston:c");
  EXPECT_EQ(templateKey(partial[1].lexicalTemplate),
            "(S|NP)\\(S|NP) : (lambda $0 <e,t> (lambda $1 e (and ($0 $1) (loc:t $1 #0))))");
  EXPECT_TRUE(partialFactorings(item("texas", "NP", "texas:s")).empty());
}

// The unification oracle on real data: every split of every item of the initial lexicon of the
// 600 Geo880 training pairs (sentence ⊢ S : logical form), recombined by the combinators, gives
// the item back, and so does every split of those splits for the first 40 pairs (which brings in
// composition); every item met factors and rebuilds.
TEST(CcgLexicalSplittingTest, SharedGeo600InitialLexiconSplitsRecombine) {
  GWB_REQUIRE_SHARED(typesPath, "data/geoquery/geo-lambda.types");
  GWB_REQUIRE_SHARED(langPath, "data/geoquery/geo-lambda.lang");
  GWB_REQUIRE_SHARED(trainPath, "data/geoquery/geosents600-typed.ccg.dev");
  TypeSystemLoad types = loadTypeSystem(typesPath, langPath);
  ASSERT_FALSE(types.diagnostics.hasErrors());
  SemanticExamplesLoad train = loadSemanticExamples(trainPath);
  ASSERT_EQ(train.examples.size(), 600u);
  std::size_t splitCount = 0;
  std::size_t secondLevel = 0;
  std::size_t compositions = 0;
  int unsplit = 0;
  for (std::size_t e = 0; e < train.examples.size(); ++e) {
    const SemanticExample& example = train.examples[e];
    LexicalItem sentence{example.words, makeAtomicCategory("S"), example.logicalForm};
    ASSERT_TRUE(factoringsRoundTrip(sentence));
    const std::vector<LexicalSplit> splits = splitLexicalItem(sentence, types.types);
    if (splits.empty()) ++unsplit;
    splitCount += splits.size();
    for (std::size_t s = 0; s < splits.size(); ++s) {
      ASSERT_TRUE(recombines(sentence, splits[s])) << "example " << e + 1;
      if (e >= 40 || s % 7 != 0) continue;
      for (const LexicalItem* part : {&splits[s].left, &splits[s].right}) {
        ASSERT_TRUE(factoringsRoundTrip(*part));
        for (const LexicalSplit& inner : splitLexicalItem(*part, types.types)) {
          ASSERT_TRUE(recombines(*part, inner)) << "example " << e + 1;
          ++secondLevel;
          if (inner.combinator == Combinator::ForwardComposition ||
              inner.combinator == Combinator::BackwardComposition) {
            ++compositions;
          }
        }
      }
    }
  }
  // Only forms that do not type-check (the data's few bad ones, see ccg_term_test) give none.
  EXPECT_LE(unsplit, 9);
  EXPECT_GT(splitCount, 40000u);
  EXPECT_GT(secondLevel, 10000u);
  EXPECT_GT(compositions, 100u);
  std::printf("splits: %zu first level, %zu second level (%zu compositions); %d unsplit\n",
              splitCount, secondLevel, compositions, unsplit);
}

}  // namespace
}  // namespace gwb::ccg
