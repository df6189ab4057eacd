#include "gwb/earley/parse_tree.h"

#include <gtest/gtest.h>

namespace gwb {
namespace {

TEST(ParseTreeTest, PtbRoundTrips) {
  const struct {
    const char* text;
    const char* canonical;
  } cases[] = {
      {"(S (NP (Det the) (N dog)) (VP (V barks)))", "(S (NP (Det the) (N dog)) (VP (V barks)))"},
      {"( (ROOT (S (NP x))))", "(ROOT (S (NP x)))"},
      {"(S\n  (NP  a)\n  (VP b))", "(S (NP a) (VP b))"},
      {"(S (Adj) (N dog))", "(S (Adj) (N dog))"},
  };
  for (const auto& c : cases) {
    std::string error;
    const ParseTree tree = parsePtb(c.text, &error);
    ASSERT_TRUE(error.empty()) << error;
    EXPECT_EQ(tree.toPtb(), c.canonical);
    EXPECT_EQ(parsePtb(tree.toPtb()).toPtb(), c.canonical);
  }
  EXPECT_EQ(parsePtb("(S (NP x))").toPtb(true), "( (S (NP x)))");
}

TEST(ParseTreeTest, MalformedBracketsAreErrors) {
  for (const char* bad : {"(S (NP x)", "(S x))", "x", "(S x) (T y)"}) {
    std::string error;
    EXPECT_TRUE(parsePtb(bad, &error).empty()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(ParseTreeTest, DeepTreesNeedNoRecursion) {
  // A right-branching chain 200,000 deep would overflow a recursive printer.
  ParseTree tree;
  int parent = tree.addNode("D", false);
  tree.setRoot(parent);
  for (int k = 0; k < 200000; ++k) {
    const int word = tree.addNode("w", true);
    const int child = tree.addNode("D", false);
    tree.node(parent).children = {word, child};
    parent = child;
  }
  tree.node(parent).children = {tree.addNode("end", true)};
  EXPECT_EQ(tree.depth(), 200001);
  EXPECT_EQ(tree.leaves().size(), 200001u);
  const std::string ptb = tree.toPtb();
  EXPECT_EQ(parsePtb(ptb).leaves().size(), 200001u);
}

}  // namespace
}  // namespace gwb
