#include "gwb/ds/ds_tree.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/action.h"
#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_type.h"
#include "gwb/ds/label.h"
#include "gwb/ds/node_address.h"
#include "gwb/ds/record_type.h"
#include "shared_data.h"

namespace gwb::ds {
namespace {

LabelPtr label(const std::string& text) {
  LabelParseError error;
  LabelPtr l = parseLabel(text, &error);
  EXPECT_TRUE(l) << text << ": " << error.message;
  return l;
}

// A tree from (address, labels) pairs, with the pointer at `pointer`.
DsTree treeOf(const std::vector<std::pair<std::string, std::vector<std::string>>>& nodes,
              const std::string& pointer) {
  DsTree tree;
  tree.removeLabel(NodeAddress(), "?ty(t)");
  for (const auto& [address, labels] : nodes) {
    tree.make(NodeAddress(address));
    for (const std::string& l : labels) tree.addLabel(NodeAddress(address), label(l));
  }
  EXPECT_TRUE(tree.setPointer(NodeAddress(pointer)) || pointer == "0");
  return tree;
}

TEST(DsTreeTest, ParsesAndPrintsTypes) {
  const std::pair<const char*, const char*> cases[] = {
      {"e", "e"},
      {"es", "es"},
      {"e>t", "e>t"},
      {"e>e>t", "e>(e>t)"},
      {"(e>t)>t", "(e>t)>t"},
      {"((e))", "e"},
      {" cn > e ", "cn>e"},
      {"X", "X"},
      {"Y>X", "Y>X"},
      {"es>(e>(e>t))", "es>(e>(e>t))"},
  };
  for (const auto& [input, printed] : cases) {
    auto t = DsType::parse(input);
    ASSERT_TRUE(t) << input;
    EXPECT_EQ(t->toString(), printed);
  }
  for (const char* bad : {"", "q", "e>", ">t", "(e>t", "x"})
    EXPECT_FALSE(DsType::parse(bad)) << bad;
}

TEST(DsTreeTest, NodeAddressesSubsumeTheirFixings) {
  struct Case {
    const char* pattern;
    const char* address;
    bool expected;
  };
  const Case cases[] = {
      {"00", "00", true},   {"00", "01", false}, {"0*", "0", true},     {"0*", "00", true},
      {"0*", "0110", true}, {"0*", "0*", true},  {"0*", "0L0", false},  {"0U", "00", true},
      {"0U", "0110", true}, {"0U", "01", false}, {"0L*", "0L01", true}, {"0L*", "001", false},
  };
  for (const Case& c : cases)
    EXPECT_EQ(NodeAddress(c.pattern).subsumes(NodeAddress(c.address)), c.expected)
        << c.pattern << " subsumes " << c.address;
  EXPECT_TRUE(NodeAddress("0*").isStarUnfixed());
  EXPECT_FALSE(NodeAddress("0*").isLocallyFixed());
  EXPECT_FALSE(NodeAddress("0*0").isFixed());
  EXPECT_TRUE(NodeAddress("0*0").isLocallyFixed());
  EXPECT_TRUE(NodeAddress("01L").isLinked());
  EXPECT_FALSE(NodeAddress("0").up());
  EXPECT_EQ(NodeAddress("01L").up()->toString(), "01");
  EXPECT_EQ(NodeAddress("01L").up("L")->toString(), "01");
  EXPECT_FALSE(NodeAddress("01L").up("1"));
}

TEST(DsTreeTest, ParsesAndPrintsModalities) {
  const std::pair<const char*, const char*> cases[] = {
      {"<\\/0>", "<\\/0>"}, {"[/\\]", "</\\>"},
      {"\\/1", "<\\/1>"},   {"</\\0/\\*\\/0>", "</\\0/\\*\\/0>"},
      {"<Y>", "<Y>"},       {"Y", "<Y>"},
      {"<\\/L>", "<\\/L>"},
  };
  for (const auto& [input, printed] : cases) {
    auto m = Modality::parse(input);
    ASSERT_TRUE(m) << input;
    EXPECT_EQ(m->toString(), printed);
  }
  for (const char* bad : {"<\\/>", "<ab>", "", "<\\/0"}) EXPECT_FALSE(Modality::parse(bad)) << bad;
  EXPECT_EQ(Modality::between(NodeAddress("00"), NodeAddress("0*")).toString(), "</\\0\\/*>");
  EXPECT_EQ(Modality::between(NodeAddress("01L0"), NodeAddress("0")).toString(), "</\\0/\\L/\\1>");
  EXPECT_EQ(Modality::parse("</\\1\\/0>")->inverse().toString(), "</\\0\\/1>");
}

TEST(DsTreeTest, ModalitiesRelateNodesAsInDyLan) {
  const DsTree tree = treeOf({{"0", {"?ty(t)"}},
                              {"00", {"ty(e)"}},
                              {"01", {"?ty(e>t)"}},
                              {"010", {"ty(e)"}},
                              {"011", {"ty(e>(e>t))"}},
                              {"01L", {"ty(t)"}},
                              {"0*", {"?ty(e)"}}},
                             "0");
  struct Case {
    const char* from;
    const char* modality;
    const char* to;
    bool expected;
  };
  const Case cases[] = {
      {"0", "<\\/0>", "00", true},    {"0", "<\\/1\\/0>", "010", true},
      {"01L", "</\\>", "01", true},   {"01L", "</\\L>", "01", true},
      {"01L", "</\\1>", "01", false}, {"0", "<\\/*>", "0*", true},
      {"0", "<\\/*>", "010", false},  // an unfixed node exists: \/* goes there only
      {"01", "<\\/*>", "010", true},  // none below 01: any node below, within the tree
      {"01", "<\\/*>", "01L", false}, {"010", "</\\*>", "0", true},
      {"010", "</\\*>", "010", true}, {"0*", "</\\*>", "0", true},
      {"0", "</\\>", "0", false},     {"00", "</\\0\\/1>", "01", true},
  };
  for (const Case& c : cases)
    EXPECT_EQ(tree.relates(NodeAddress(c.from), NodeAddress(c.to), *Modality::parse(c.modality)),
              c.expected)
        << c.from << " " << c.modality << " " << c.to;
}

TEST(DsTreeTest, ParsesAndPrintsLabels) {
  const std::pair<const char*, const char*> cases[] = {
      {"?ty(t)", "?ty(t)"},
      {"Ty(e>(e>t))", "ty(e>(e>t))"},
      {"fo([x==john:e|head==x:e])", "fo([x==john : e|head==x : e])"},
      {"¬<\\/1>Ex.x", "¬<\\/1>Ex.x"},
      {"<\\/0>Ex.?x", "<\\/0>Ex.?x"},
      {"?X", "?X"},
      {"¬Ex.fo(x)", "¬Ex.fo(x)"},
      {"(ty(t) || ty(e>t))", "(ty(t) || ty(e>t))"},
      {"<Y>?Ex.tn(x)", "<Y>?Ex.tn(x)"},
      {"subsumes(Y)", "subsumes(Y)"},
      {"?<\\/*>fo(X)", "?<\\/*>fo(X)"},
      {"</\\0/\\*\\/0>(ty(e)& fo(X)& class(male))", "</\\0/\\*\\/0>(ty(e) & fo(X) & class(male))"},
      {"[/\\]?ty(e>X)", "</\\>?ty(e>X)"},
      {"¬(<\\/1>Ex.ty(x) & <\\/0>Ex.ty(y))", "¬(<\\/1>Ex.ty(x) & <\\/0>Ex.ty(y))"},
      {"Ex.<\\/0\\/L>?x", "Ex.<\\/0\\/L>?x"},
      {"+Q", "+Q"},
      {"!", "!"},
      {"person(s3)", "person(s3)"},
      {"</\\*>tn(0)", "</\\*>tn(0)"},
      {"context_tree(ty(X),fo(Y))", "context_tree(ty(X), fo(Y))"},
      {"Ex.Fo(null)", "Ex.fo(x)"},
      {"fo(null)", "fo(X)"},
  };
  for (const auto& [input, printed] : cases) {
    LabelPtr l = label(input);
    ASSERT_TRUE(l) << input;
    EXPECT_EQ(l->text(), printed);
    LabelPtr again = label(l->text());
    ASSERT_TRUE(again);
    EXPECT_EQ(again->text(), printed);
  }
  struct Bad {
    const char* input;
    std::size_t offset;
    const char* message;
  };
  const Bad bad[] = {
      {"ty(q)", 3, "expected a DS type"},      {"<\\/0", 0, "expected '>'"},
      {"fo([x:e|)", 2, "expected ')'"},        {"?", 1, "expected a label"},
      {"tn(2)", 3, "expected a tree address"}, {"<\\/Q>ty(e)", 0, "a down operator needs a step"},
  };
  for (const Bad& b : bad) {
    LabelParseError error;
    EXPECT_FALSE(parseLabel(b.input, &error)) << b.input;
    EXPECT_EQ(error.offset, b.offset) << b.input << ": " << error.message;
    EXPECT_NE(error.message.find(b.message), std::string::npos) << error.message;
  }
}

TEST(DsTreeTest, ChangesNodesAndLabelsCopyOnWrite) {
  DsTree axiom;
  EXPECT_EQ(axiom.toString(), "0 ◆ {?ty(t)}\n");
  EXPECT_FALSE(axiom.isComplete());
  DsTree tree = axiom;
  const auto before = tree.revision();
  EXPECT_TRUE(tree.make(NodeAddress("00")));
  EXPECT_FALSE(tree.make(NodeAddress("00")));
  EXPECT_TRUE(tree.addLabel(NodeAddress("00"), label("ty(e)")));
  EXPECT_FALSE(tree.addLabel(NodeAddress("00"), label("ty(e)")));
  EXPECT_TRUE(tree.addLabel(NodeAddress("00"), label("ty(t)")));  // replaces ty(e)
  EXPECT_TRUE(tree.addLabel(NodeAddress("00"), label("+Q")));
  EXPECT_FALSE(tree.setPointer(NodeAddress("01")));
  EXPECT_TRUE(tree.setPointer(NodeAddress("00")));
  EXPECT_GT(tree.revision(), before);
  EXPECT_EQ(tree.toString(), "0 {?ty(t)}\n00 ◆ {+Q, ty(t)}\n");
  EXPECT_EQ(tree.key(), "00|0{?ty(t);}|00{+Q;ty(t);}");
  // The copy it was made from is untouched.
  EXPECT_EQ(axiom.toString(), "0 ◆ {?ty(t)}\n");
  EXPECT_TRUE(tree.removeLabel(NodeAddress("0"), "?ty(t)"));
  EXPECT_FALSE(tree.removeLabel(NodeAddress("0"), "?ty(t)"));
  EXPECT_TRUE(tree.setPointer(NodeAddress("0")));
  EXPECT_TRUE(tree.isComplete());
}

TEST(DsTreeTest, MergesAnUnfixedNodeWithItsDaughters) {
  DsTree tree = treeOf({{"0", {"?ty(t)"}},
                        {"00", {"?ty(e)"}},
                        {"0*", {"?ty(e)", "?Ex.tn(x)", "ty(e)", "fo(john)"}},
                        {"0*0", {"ty(cn)"}}},
                       "00");
  ASSERT_TRUE(tree.merge(NodeAddress("0*"), NodeAddress("00")));
  EXPECT_EQ(tree.toString(),
            "0 {?ty(t)}\n"
            "00 ◆ {?Ex.tn(x), ?ty(e), fo(john), ty(e)}\n"
            "000 {ty(cn)}\n");
}

// The 2009 grammar's merge(Y) reaches from a LINKed tree up to the unfixed node it hangs
// below; merging that node into its own subtree would leave the pointer on no node (the DS
// stepper crashed drawing such a tree). It is refused and the tree is left as it was.
TEST(DsTreeTest, RefusesToMergeANodeIntoItsOwnSubtree) {
  DsTree tree = treeOf(
      {{"0", {"?ty(t)"}}, {"0*", {"?Ex.tn(x)", "ty(e)", "fo(john)"}}, {"0*L", {"?ty(t)"}}}, "0*L");
  const std::string before = tree.toString();
  const auto revision = tree.revision();
  EXPECT_FALSE(tree.merge(NodeAddress("0*"), NodeAddress("0*L")));
  EXPECT_EQ(tree.toString(), before);
  EXPECT_EQ(tree.revision(), revision);
  EXPECT_NE(tree.find(tree.pointer()), nullptr);
}

TEST(DsTreeTest, TypesDeeperThanTheLimitAreRefusedWithAReason) {
  std::string ok = "t";
  for (int i = 1; i < kMaxTypeDepth; ++i) ok = "e>" + ok;
  auto type = DsType::parse(ok);
  ASSERT_TRUE(type);
  EXPECT_EQ(type->depth(), kMaxTypeDepth);
  EXPECT_TRUE(type->isGround());
  EXPECT_FALSE(DsType::parse("e>" + ok));
  std::string error;
  EXPECT_FALSE(DsType::parse(std::string(100000, '(') + "e" + std::string(100000, ')'), &error));
  EXPECT_NE(error.find("nested more than 100 deep"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(DsType::parse("e>q", &error));
  EXPECT_NE(error.find("found 'q'"), std::string::npos) << error;
  EXPECT_FALSE(DsType::parse("Y>(e>X)")->isGround());
}

// Printing puts parentheses around every function-typed side (`e>(e>(e>t))`); those must not
// count as levels of their own, or a type read at depth 60 would print as one 120 deep that no
// longer reads (found by the ds_label and ds_record_type fuzz targets).
TEST(DsTreeTest, EveryTypeThatReadsReadsBackOncePrinted) {
  std::string rightNested = "t";
  std::string leftNested = "t";
  for (int i = 1; i < kMaxTypeDepth; ++i) {
    rightNested = "es>" + rightNested;
    leftNested = "(" + leftNested + ")>e";
  }
  for (const std::string& text : {rightNested, leftNested}) {
    auto type = DsType::parse(text);
    ASSERT_TRUE(type) << text.substr(0, 40);
    EXPECT_EQ(type->depth(), kMaxTypeDepth);
    std::string error;
    auto again = DsType::parse(type->toString(), &error);
    ASSERT_TRUE(again) << error;
    EXPECT_EQ(again->toString(), type->toString());
  }
  // Redundant parentheses beyond the printed pair still count.
  std::string error;
  EXPECT_FALSE(DsType::parse("e>" + std::string(110, '(') + "t" + std::string(110, ')'), &error));
  EXPECT_NE(error.find("nested more than 100 deep"), std::string::npos) << error;
}

// `/\*` tries every node above; a chain of them used to retry the same (operator, node) pairs
// exponentially often (32 stars over a tree 40 deep would never finish).
TEST(DsTreeTest, RelatesChainsOfKleeneStarsInPolynomialTime) {
  std::vector<std::pair<std::string, std::vector<std::string>>> nodes;
  std::string address = "0";
  for (int i = 0; i < 40; ++i, address += "1") nodes.push_back({address, {}});
  const DsTree tree = treeOf(nodes, "0");
  std::string stars;
  for (std::size_t i = 0; i < kMaxModalityOperators; ++i) stars += "/\\*";
  const auto modality = Modality::parse("<" + stars + ">");
  ASSERT_TRUE(modality);
  EXPECT_TRUE(tree.relates(NodeAddress(address.substr(0, 40)), NodeAddress("0"), *modality));
  EXPECT_FALSE(tree.relates(NodeAddress(address.substr(0, 40)), NodeAddress("00"), *modality));
  EXPECT_FALSE(Modality::parse("<" + stars + "/\\*>"));
}

TEST(DsTreeTest, ChecksConditionsAtThePointer) {
  const DsTree root = treeOf({{"0", {"?ty(t)"}},
                              {"00", {"ty(e)", "fo([x==john:e|head==x:e])"}},
                              {"01", {"?ty(e>t)"}},
                              {"0*", {"?ty(e)", "?Ex.tn(x)"}}},
                             "0");
  DsTree subject = root;
  subject.setPointer(NodeAddress("00"));
  DsTree unfixed = root;
  unfixed.setPointer(NodeAddress("0*"));
  struct Case {
    const DsTree* tree;
    const char* condition;
    bool expected;
  };
  const Case cases[] = {
      {&root, "?ty(t)", true},
      {&root, "ty(t)", false},
      {&root, "?ty(X)", true},
      {&root, "<\\/0>ty(e)", true},
      {&root, "<\\/1>ty(e>t)", false},
      {&root, "<\\/1>?ty(e>t)", true},
      {&root, "¬<\\/1>Ex.x", false},
      {&root, "¬<\\/L>Ex.x", true},
      {&root, "<\\/0>Ex.fo(x)", true},
      {&root, "<\\/1>Ex.fo(x)", false},
      {&root, "<\\/1>Ex.?x", true},
      {&root, "Ex.tn(x)", true},
      {&root, "<Y>?Ex.tn(x)", true},
      {&root, "(ty(t) || ?ty(t))", true},
      {&root, "(ty(t) || ty(e))", false},
      {&root, "</\\>Ex.x", false},
      {&root, "X", true},
      {&root, "<\\/0>fo([x==john:e|head==x:e])", true},
      {&subject, "</\\0>?ty(t)", true},
      {&subject, "</\\>Ex.x", true},
      {&subject, "<\\/*>Ex.x", false},
      {&subject, "Ex.tn(x)", true},
      {&subject, "ty(X)", true},
      {&unfixed, "¬Ex.tn(x)", true},
      {&unfixed, "</\\*>?ty(t)", true},
  };
  for (const Case& c : cases)
    EXPECT_EQ(holds(label(c.condition), *c.tree), c.expected)
        << c.condition << " at " << c.tree->pointer().toString();
}

// Applies a named action of the toy grammar to `tree`; the tree dump afterwards, or "abort".
std::string applyToy(const DsGrammar& grammar, const char* action, const DsTree& tree) {
  const DsAction* a = grammar.findAction(action);
  EXPECT_NE(a, nullptr) << action;
  if (a == nullptr) return "no such action";
  std::vector<DsTree> results = applyAction(*a, tree);
  return results.empty() ? "abort" : results.front().toString();
}

TEST(DsTreeTest, AppliesComputationalActions) {
  const DsGrammarLoad load = loadDsGrammar(testing::sourceDir() + "/tests/data/ds/toy");
  ASSERT_TRUE(load.ok());
  const DsGrammar& g = load.grammar;
  const DsTree axiom;
  const std::string introduced = applyToy(g, "introduction", axiom);
  EXPECT_EQ(introduced, "0 {?ty(t)}\n00 ◆ {?ty(e)}\n01 {?ty(e>t)}\n");
  // Completion needs a type at the pointer; anticipation a requirement below.
  EXPECT_EQ(applyToy(g, "completion", axiom), "abort");
  EXPECT_EQ(applyToy(g, "anticipation", axiom), "abort");
  // Thinning removes a satisfied requirement (ty(e) satisfies ?ty(e)).
  const DsTree satisfied = treeOf({{"0", {"?ty(t)"}}, {"00", {"?ty(e)", "ty(e)"}}}, "00");
  EXPECT_EQ(applyToy(g, "thinning", satisfied), "0 {?ty(t)}\n00 ◆ {ty(e)}\n");
  // Elimination: the mother's type and formula from its daughters, by beta-reduction.
  const DsTree daughters = treeOf(
      {{"0", {"?ty(t)"}},
       {"00", {"ty(e)", "fo([x1==ann:e|head==x1:e])"}},
       {"01", {"ty(e>t)", "fo(R^(R ++ [e1==sleep:es|head==e1:es|p1==agent(e1, R.head):t]))"}}},
      "0");
  EXPECT_EQ(
      applyToy(g, "elimination", daughters),
      "0 ◆ {?ty(t), fo([x1==ann : e|head==e1 : es|e1==sleep : es|p1==agent(e1, x1) : t]), "
      "ty(t)}\n"
      "00 {fo([x1==ann : e|head==x1 : e]), ty(e)}\n"
      "01 {fo(R^(R ++ [e1==sleep : es|head==e1 : es|p1==agent(e1, R.head) : t])), ty(e>t)}\n");
  // Closure applies the non-optional actions until none fires.
  std::vector<std::string> applied;
  DsTree closed = applyClosure(g.nonOptionalActions(), daughters, &applied);
  EXPECT_EQ(applied, (std::vector<std::string>{"elimination", "thinning"}));
  closed.setPointer(NodeAddress());
  EXPECT_TRUE(closed.isComplete());
}

TEST(DsTreeTest, ComputesTheMaximalSemanticsOfPartialTrees) {
  struct Case {
    std::vector<std::pair<std::string, std::vector<std::string>>> nodes;
    const char* expected;  // up to relabelling
  };
  const Case cases[] = {
      // The axiom commits to nothing yet.
      {{{"0", {"?ty(t)"}}}, "[]"},
      // A subject and a transitive verb: the object gets the default [x : e|head==x : e].
      {{{"0", {"?ty(t)"}},
        {"00", {"ty(e)", "fo([x1==john:e|head==x1:e])"}},
        {"01", {"?ty(e>t)"}},
        {"010", {"?ty(e)"}},
        {"011",
         {"ty(e>(e>t))",
          "fo(R1^R2^(R1 ++ (R2 ++ [e1==like:es|head==e1:es|"
          "p2==subj(e1, R2.head):t|p3==obj(e1, R1.head):t])))"}},
        {"01L", {"ty(t)", "fo([head:es|p1==pres(head):t])"}}},
       "[x5 : e|e1==like : es|x1==john : e|head==e1 : es|p1==pres(e1) : t|"
       "p2==subj(e1, x1) : t|p3==obj(e1, x5) : t]"},
      // An unfixed subject is merged where it can go; the predicate defaults to a function.
      {{{"0", {"?ty(t)"}},
        {"00", {"?ty(e)"}},
        {"01", {"?ty(e>t)"}},
        {"0*", {"ty(e)", "fo([x1==john:e|head==x1:e])", "?Ex.tn(x)"}}},
       "[x1==john : e|head==x1 : e]"},
      // An unfixed node with no place yet: its content, without its head.
      {{{"0", {"?ty(t)"}}, {"0*", {"ty(e)", "fo([x1==john:e|head==x1:e])", "?Ex.tn(x)"}}},
       "[x1==john : e]"},
      // A question feature at the root adds question(head).
      {{{"0", {"ty(t)", "+Q", "fo([e1==run:es|head==e1:es])"}}},
       "[e1==run : es|head==e1 : es|p==question(e1) : t]"},
  };
  for (const Case& c : cases) {
    const DsTree tree = treeOf(c.nodes, "0");
    FormulaPtr sem = maximalSemantics(tree);
    ASSERT_TRUE(sem && sem->isRecord()) << (sem ? sem->text() : "null");
    auto expected = RecordType::parse(c.expected);
    ASSERT_TRUE(expected);
    EXPECT_TRUE(equalUpToRelabelling(sem->recordType(), *expected))
        << sem->text() << "\nexpected " << c.expected;
  }
}

// A label numbered beyond int (x99999999999999999999, as a user may write in a lexicon) used to
// throw std::out_of_range from the fresh-label bookkeeping.
TEST(DsTreeTest, HugeLabelNumbersNeitherThrowNorOverflowTheFreshLabels) {
  // As the transitive case above, the subject's label numbered beyond int, a tense label at
  // int's maximum: the object still gets a fresh x label.
  const DsTree tree = treeOf(
      {{"0", {"?ty(t)"}},
       {"00", {"ty(e)", "fo([x99999999999999999999==john:e|head==x99999999999999999999:e])"}},
       {"01", {"?ty(e>t)"}},
       {"010", {"?ty(e)"}},
       {"011",
        {"ty(e>(e>t))",
         "fo(R1^R2^(R1 ++ (R2 ++ [e1==like:es|head==e1:es|"
         "p2==subj(e1, R2.head):t|p3==obj(e1, R1.head):t])))"}},
       {"01L", {"ty(t)", "fo([head:es|p2147483647==pres(head):t])"}}},
      "0");
  FormulaPtr sem;
  ASSERT_NO_THROW(sem = maximalSemantics(tree));
  ASSERT_TRUE(sem && sem->isRecord()) << (sem ? sem->text() : "null");
  const auto expected = RecordType::parse(
      "[x1 : e|e1==like : es|x99999999999999999999==john : e|head==e1 : es|"
      "p2147483647==pres(e1) : t|p2==subj(e1, x99999999999999999999) : t|p3==obj(e1, x1) : t]");
  ASSERT_TRUE(expected);
  EXPECT_TRUE(equalUpToRelabelling(sem->recordType(), *expected)) << sem->text();
}

TEST(DsTreeTest, WalksDeepTreesWithoutRecursion) {
  // A long chain of LINKed trees, each decorated: the maximal semantics conjoins them all.
  DsTree tree;
  tree.removeLabel(NodeAddress(), "?ty(t)");
  tree.addLabel(NodeAddress(), label("ty(t)"));
  tree.addLabel(NodeAddress(), label("fo([e0==run:es|head==e0:es])"));
  std::string address = "0";
  const int depth = 300;
  for (int i = 1; i <= depth; ++i) {
    address += "L";
    tree.make(NodeAddress(address));
    tree.addLabel(NodeAddress(address), label("ty(t)"));
    tree.addLabel(NodeAddress(address), label("fo([head:es|p" + std::to_string(i) + "==q" +
                                              std::to_string(i) + "(head):t])"));
  }
  FormulaPtr sem = maximalSemantics(tree);
  ASSERT_TRUE(sem && sem->isRecord());
  EXPECT_EQ(sem->recordType().size(), static_cast<std::size_t>(depth) + 2);
}

}  // namespace
}  // namespace gwb::ds
