#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ccg/category.h"

namespace gwb::ccg {
namespace {

Category cat(const std::string& text) {
  std::string error;
  Category category = parseCategory(text, &error);
  EXPECT_TRUE(category) << text << ": " << error;
  return category;
}

Term term(const std::string& text) {
  std::string error;
  Term parsed = parseTerm(text, &error);
  EXPECT_TRUE(parsed) << text << ": " << error;
  return parsed;
}

TEST(CcgCategoryTest, PrintsCanonically) {
  struct Case {
    const char* input;
    const char* expected;
  };
  const Case cases[] = {
      {"NP", "NP"},
      {"S\\NP/NP", "(S\\NP)/NP"},
      {"(S\\NP)/NP", "(S\\NP)/NP"},
      {"N/(S|NP)", "N/(S|NP)"},
      {" ( N \\ N ) / NP ", "(N\\N)/NP"},
      {"((S))", "S"},
      {"S/(S/(S/NP))", "S/(S/(S/NP))"},
  };
  for (const Case& c : cases) EXPECT_EQ(toString(cat(c.input)), c.expected);
  EXPECT_EQ(slashCount(cat("(S\\NP)/NP")), 2);
}

TEST(CcgCategoryTest, BadCategoriesNameTheColumn) {
  struct Case {
    const char* input;
    const char* expected;
  };
  const Case cases[] = {
      {"", "f:4:10: error: expected a category, found the end of the text"},
      {"S/", "f:4:12: error: expected a category, found the end of the text"},
      {"(S/NP", "f:4:15: error: expected ')' closing the category"},
      {"S/NP)", "f:4:14: error: unexpected ')' in a category: expected '/', '\\', '|' or the end"},
      {"S/3", "f:4:12: error: expected an atomic category (S, NP, N, ...) or '(', found '3'"},
  };
  for (const Case& c : cases) {
    Diagnostics diagnostics;
    EXPECT_EQ(readCategory(c.input, "f", 4, 10, &diagnostics), nullptr) << c.input;
    ASSERT_EQ(diagnostics.size(), 1u) << c.input;
    EXPECT_EQ(toString(diagnostics.items()[0]), c.expected);
  }
  std::string deep(100, '(');
  deep += "S" + std::string(100, ')');
  Diagnostics diagnostics;
  EXPECT_EQ(readCategory(deep, "f", 1, 1, &diagnostics), nullptr);
}

// A fuzzing finding (fuzz_ccg_types): "A/B/C/..." has no parentheses but prints as
// "((A/B)/C)/...", so a long one read without error printed to a text nested past the reader's
// limit, which then refused it (and every walk over it recursed once a slash). The depth of the
// category as a tree is now bounded as the parentheses are: 64 levels, 63 slashes in a row.
TEST(CcgCategoryTest, WhatIsReadPrintsToATextThatReadsBack) {
  const auto slashes = [](int count) {
    std::string text = "S";
    for (int i = 0; i < count; ++i) text += i % 2 == 0 ? "/NP" : "\\N";
    return text;
  };
  const Category longest = cat(slashes(63));
  ASSERT_TRUE(longest);
  EXPECT_EQ(slashCount(longest), 63);
  const std::string printed = toString(longest);
  EXPECT_EQ(printed.substr(0, 64), std::string(62, '(') + "S/");
  const Category again = cat(printed);
  ASSERT_TRUE(again);
  EXPECT_TRUE(sameCategory(again, longest));
  Diagnostics diagnostics;
  EXPECT_EQ(readCategory(slashes(64), "f", 1, 1, &diagnostics), nullptr);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(toString(diagnostics.items()[0]).substr(0, 60),
            "f:1:" + std::to_string(slashes(63).size() + 1) +
                ": error: category nested more than 64 levels deep");
}

TEST(CcgCategoryTest, VerticalSlashMatchesEitherDirection) {
  EXPECT_TRUE(categoriesMatch(cat("S|NP"), cat("S\\NP")));
  EXPECT_TRUE(categoriesMatch(cat("S/NP"), cat("S|NP")));
  EXPECT_FALSE(categoriesMatch(cat("S/NP"), cat("S\\NP")));
  EXPECT_FALSE(sameCategory(cat("S|NP"), cat("S\\NP")));
  EXPECT_FALSE(categoriesMatch(cat("S|NP"), cat("S|N")));
}

TEST(CcgCategoryTest, CombinatorsComposeSemantics) {
  struct Case {
    const char* left;
    const char* leftSemantics;
    const char* right;
    const char* rightSemantics;
    bool composition;
    std::vector<std::string> expected;  // "combinator category : semantics"
  };
  const Case cases[] = {
      // The paper's "flights to Boston".
      {"(N\\N)/NP",
       "(lambda $0 e (lambda $1 <e,t> (lambda $2 e (and ($1 $2) (to:t $2 $0)))))",
       "NP",
       "bos:ci",
       true,
       {">  N\\N : (lambda $0 <e,t> (lambda $1 e (and ($0 $1) (to:t $1 bos:ci))))"}},
      {"N",
       "(lambda $0 e (flight:t $0))",
       "N\\N",
       "(lambda $0 <e,t> (lambda $1 e (and ($0 $1) (to:t $1 bos:ci))))",
       true,
       {"<  N : (lambda $0 e (and (flight:t $0) (to:t $0 bos:ci)))"}},
      // Forward composition: X/Y Y/Z => X/Z.
      {"S/S",
       "(lambda $0 t (not $0))",
       "S/NP",
       "(lambda $0 e (state:t $0))",
       true,
       {">B S/NP : (lambda $0 e (not (state:t $0)))"}},
      {"S/S", "(lambda $0 t (not $0))", "S/NP", "(lambda $0 e (state:t $0))", false, {}},
      // Backward composition: Y\Z X\Y => X\Z.
      {"S\\NP",
       "(lambda $0 e (state:t $0))",
       "S\\S",
       "(lambda $0 t (not $0))",
       true,
       {"<B S\\NP : (lambda $0 e (not (state:t $0)))"}},
      // A vertical slash is no functor (as in UBL and SPF): it only matches inside an argument,
      // in either direction.
      {"NP", "texas:s", "S|NP", "(lambda $0 e (state:t $0))", true, {}},
      {"S|NP", "(lambda $0 e (state:t $0))", "NP", "texas:s", true, {}},
      {"S|S", "(lambda $0 t (not $0))", "S|S", "(lambda $0 t (a:t $0))", true, {}},
      {"S/(S|NP)",
       "(lambda $0 <e,t> $0)",
       "S|NP",
       "(lambda $0 e (state:t $0))",
       true,
       {">  S : (lambda $0 e (state:t $0))"}},
      {"S|NP",
       "(lambda $0 e (state:t $0))",
       "S\\(S|NP)",
       "(lambda $0 <e,t> $0)",
       true,
       {"<  S : (lambda $0 e (state:t $0))"}},
      // Nor is it a secondary functor in composition.
      {"S/S", "(lambda $0 t (not $0))", "S|NP", "(lambda $0 e (state:t $0))", true, {}},
      // No match.
      {"S/NP", "(lambda $0 e (state:t $0))", "N", "(lambda $0 e (city:t $0))", true, {}},
      // Capture: the argument's variables are renamed apart.
      {"NP/(S|NP)",
       "(lambda $0 <e,t> (the $1 ($0 $1)))",
       "S|NP",
       "(lambda $1 e (exists $0 (next_to:t $1 $0)))",
       true,
       {">  NP : (the $0 (exists $1 (next_to:t $0 $1)))"}},
  };
  for (const Case& c : cases) {
    CombinatorOptions options;
    options.composition = c.composition;
    std::vector<std::string> got;
    for (const Combination& combination : combine(cat(c.left), term(c.leftSemantics), cat(c.right),
                                                  term(c.rightSemantics), options)) {
      std::string symbol = combinatorSymbol(combination.combinator);
      symbol.resize(2, ' ');
      got.push_back(symbol + " " + toString(combination.category) + " : " +
                    toString(combination.semantics));
    }
    EXPECT_EQ(got, c.expected) << c.left << " + " << c.right;
  }
}

}  // namespace
}  // namespace gwb::ccg
