// Tree ↔ chart links: every constituent of a parse finds the completed item that built it (the
// rule, not just the label and span), and back; unit chains and ε subtrees are explained rather
// than matched. In a GrammarView, Ctrl+click on a tree node selects that item in the stepper as
// a click on its card would, mid-parse the status line says the item is not made yet, and
// selecting a completed item in the chart highlights its node in the tree.
#include "ui/earley/tree_chart_link.h"

#include <string>
#include <vector>

#include <QApplication>
#include <QGraphicsView>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "session_fixtures.h"
#include "shared_data.h"
#include "ui/common/qt_conversions.h"
#include "ui/earley/chart_model.h"
#include "ui/earley/earley_stepper.h"
#include "ui/earley/grammar_document.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/parse_tree_view.h"
#include "ui/earley/stepper_view.h"

namespace gwb::ui {
namespace {

using testing::grammarFromNltk;
using testing::kAmbiguous;
using testing::loadSampleGrammar;
using testing::parseSentence;

// The first node with `label` whose span is [begin, end) (-1: none).
int findNode(const gwb::ParseTree& tree, const std::string& label, int begin, int end) {
  const std::vector<NodeSpan> spans = nodeSpans(tree);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    if (!tree.node(static_cast<int>(i)).terminal && tree.node(static_cast<int>(i)).label == label &&
        spans[i].begin == begin && spans[i].end == end)
      return static_cast<int>(i);
  }
  return -1;
}

// "[4, 7] PP -> P NP ." in the parser's own spelling, for failure messages and comparisons.
std::string itemText(const ParseSession& session, gwb::ItemRef item) {
  return item.valid() ? session.itemText(item).toStdString() : std::string("(none)");
}

// The finished item [origin, set] with this text, e.g. "VP → V NP ." (invalid: none).
gwb::ItemRef findItem(const ParseSession& session, int set, const QString& text) {
  const auto items = session.chart().set(static_cast<std::size_t>(set));
  for (std::size_t k = 0; k < items.size(); ++k) {
    const gwb::ItemRef ref{set, static_cast<std::int32_t>(k)};
    if (session.itemText(ref) == text) return ref;
  }
  return {};
}

TEST(TreeChartLinkTest, SpansComeFromTheLeaves) {
  const gwb::ParseTree tree = gwb::parsePtb(
      "(S (NP i) (VP (V saw) (NP (NP (Det the) (N man)) (PP (P with) (NP (Det the) (N "
      "telescope))))))");
  const std::vector<NodeSpan> spans = nodeSpans(tree);
  ASSERT_EQ(spans.size(), tree.size());
  const struct {
    const char* label;
    int begin, end;
  } cases[] = {{"S", 0, 7}, {"VP", 1, 7}, {"NP", 2, 7}, {"NP", 2, 4}, {"PP", 4, 7}, {"N", 6, 7}};
  for (const auto& c : cases)
    EXPECT_GE(findNode(tree, c.label, c.begin, c.end), 0) << c.label << c.begin << c.end;
  EXPECT_EQ(spans[static_cast<std::size_t>(tree.root())].begin, 0);
  EXPECT_EQ(spans[static_cast<std::size_t>(tree.root())].end, 7);
  // An ε subtree is empty where it stands: (NP (Det the) (Adj) (N dog)).
  const gwb::ParseTree empty = gwb::parsePtb("(S (NP (Det the) (Adj) (N dog)) (VP (V barks)))");
  const int adj = findNode(empty, "Adj", 1, 1);
  EXPECT_GE(adj, 0);
  EXPECT_EQ(findNode(empty, "NP", 0, 2), empty.node(empty.root()).children[0]);
}

TEST(TreeChartLinkTest, EveryConstituentOfEveryParseFindsItsItemAndBack) {
  // The sample sentences, and the Viterbi tree of each.
  const auto grammar = loadSampleGrammar();
  for (const char* sentence : {kAmbiguous, "john saw a man in the park with a telescope",
                               "the man walked", "i saw john"}) {
    const auto session = parseSentence(grammar, sentence);
    ASSERT_TRUE(session->result().success) << sentence;
    const gwb::ParseTree& tree = session->result().viterbiTree;
    const std::vector<NodeSpan> spans = nodeSpans(tree);
    int linked = 0;
    for (std::size_t i = 0; i < tree.size(); ++i) {
      const int node = static_cast<int>(i);
      const TreeChartLink link = chartItemForNode(*session, tree, node);
      if (tree.node(node).terminal) {
        EXPECT_EQ(link.kind, TreeChartLink::Kind::Word);
        continue;
      }
      // No ε here, but one unit rule (VP -> V): its VP has no item of its own and links to
      // the V below it.
      const int only = tree.node(node).children.size() == 1 ? tree.node(node).children[0] : -1;
      const bool unitNode = only >= 0 && !tree.node(only).terminal;
      ASSERT_EQ(link.kind, unitNode ? TreeChartLink::Kind::UnitChain : TreeChartLink::Kind::Exact)
          << sentence << " node " << node;
      EXPECT_EQ(link.node, unitNode ? only : node);
      const std::size_t linkedNode = static_cast<std::size_t>(link.node);
      EXPECT_TRUE(session->isFinished(link.item)) << itemText(*session, link.item);
      EXPECT_EQ(session->symbolName(session->lhs(link.item)).toStdString(),
                tree.node(link.node).label);
      EXPECT_EQ(session->chart().item(link.item).origin, spans[linkedNode].begin);
      EXPECT_EQ(link.item.set, spans[linkedNode].end);
      EXPECT_EQ(spans[linkedNode].begin, spans[i].begin);
      EXPECT_EQ(spans[linkedNode].end, spans[i].end);
      EXPECT_EQ(treeNodeForItem(*session, tree, link.item), link.node)
          << itemText(*session, link.item);
      ++linked;
    }
    EXPECT_GT(linked, 0);
  }
}

TEST(TreeChartLinkTest, AUnitRuleLinksToTheItemBelowIt) {
  const auto session = parseSentence(loadSampleGrammar(), "the man walked");
  const gwb::ParseTree& tree = session->result().viterbiTree;
  ASSERT_EQ(tree.toPtb(), "(S (NP (Det the) (N man)) (VP (V walked)))");
  const int vp = findNode(tree, "VP", 2, 3);
  const TreeChartLink link = chartItemForNode(*session, tree, vp);
  EXPECT_EQ(link.kind, TreeChartLink::Kind::UnitChain);
  EXPECT_EQ(link.node, findNode(tree, "V", 2, 3));
  EXPECT_EQ(itemText(*session, link.item), "[2, 3] V \u2192 'walked' .");
}

TEST(TreeChartLinkTest, TheRuleTellsTheTwoVerbPhrasesApart) {
  const auto session = parseSentence(loadSampleGrammar(), kAmbiguous);
  const gwb::ParseTree& tree = session->result().viterbiTree;
  const int vp = findNode(tree, "VP", 1, 7);
  ASSERT_GE(vp, 0);
  const TreeChartLink link = chartItemForNode(*session, tree, vp);
  EXPECT_EQ(itemText(*session, link.item), "[1, 7] VP \u2192 V NP PP .");
  // The other analysis is finished too, but it is not a node of this tree.
  const gwb::ItemRef other = findItem(*session, 7, QStringLiteral("[1, 7] VP \u2192 V NP ."));
  ASSERT_TRUE(other.valid());
  EXPECT_EQ(treeNodeForItem(*session, tree, other), -1);
  // Unfinished items, predicted items and the goal item build no node.
  const gwb::ItemRef goal = findItem(*session, 7, QStringLiteral("[0, 7] GOAL \u2192 S ."));
  ASSERT_TRUE(goal.valid());
  EXPECT_EQ(treeNodeForItem(*session, tree, goal), -1);
  const gwb::ItemRef waiting = findItem(*session, 4, QStringLiteral("[1, 4] VP \u2192 V NP . PP"));
  ASSERT_TRUE(waiting.valid());
  EXPECT_EQ(treeNodeForItem(*session, tree, waiting), -1);
  EXPECT_EQ(treeNodeForItem(*session, tree, {}), -1);
}

TEST(TreeChartLinkTest, UnitChainsAndEmptySubtreesAreExplained) {
  // S -> A is a unit rule (folded into completion) and Adj can be empty.
  const auto grammar = grammarFromNltk(
      "%start S\n"
      "S -> A [1.0]\n"
      "A -> Det Adj N [1.0]\n"
      "Det -> 'the' [1.0]\n"
      "Adj -> [0.5] | 'big' [0.5]\n"
      "N -> 'dog' [1.0]\n");
  const auto session = parseSentence(grammar, "the dog");
  ASSERT_TRUE(session->result().success);
  const gwb::ParseTree& tree = session->result().viterbiTree;
  ASSERT_EQ(tree.toPtb(), "(S (A (Det the) (Adj) (N dog)))");
  const int s = tree.root();
  const int a = tree.node(s).children[0];
  const TreeChartLink top = chartItemForNode(*session, tree, s);
  ASSERT_TRUE(top.item.valid());
  // The chart has no finished S → A . to show (or, if it ever has one, it is that item).
  if (top.kind == TreeChartLink::Kind::UnitChain) {
    EXPECT_EQ(top.node, a);
    EXPECT_EQ(itemText(*session, top.item), "[0, 2] A \u2192 Det Adj:\u03b5 N .");
  } else {
    EXPECT_EQ(top.kind, TreeChartLink::Kind::Exact);
    EXPECT_EQ(itemText(*session, top.item), "[0, 2] S \u2192 A .");
  }
  // A's rule matches with the ε child left out.
  const TreeChartLink inner = chartItemForNode(*session, tree, a);
  EXPECT_EQ(inner.kind, TreeChartLink::Kind::Exact);
  EXPECT_EQ(treeNodeForItem(*session, tree, inner.item), a);
  const int adj = findNode(tree, "Adj", 1, 1);
  ASSERT_GE(adj, 0);
  EXPECT_EQ(chartItemForNode(*session, tree, adj).kind, TreeChartLink::Kind::Empty);
}

// A GrammarView on the PP-attachment sample, shown (offscreen) so that clicks reach it.
class GrammarViewLinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_ = std::make_unique<GrammarView>(
        GrammarDocument::load(toQString(gwb::testing::sourceDir() + "/samples/pp-attachment.cfg")));
    view_->resize(1200, 800);
    view_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(view_.get(), 600000));
    stepper_ = view_->stepperView();
    tree_ = view_->treeView();
    stepper_->setSentence(QString::fromLatin1(kAmbiguous));
    ASSERT_TRUE(stepper_->waitForParse());
    ASSERT_TRUE(stepper_->session()->result().success);
    session_ = stepper_->session();
  }

  // Ctrl+click (or a plain click) on a node's box, as the user does on the tree page.
  void clickNode(int node, Qt::KeyboardModifiers modifiers) {
    view_->showPage(GrammarView::Page::Tree);
    QApplication::processEvents();
    const QRectF box = tree_->nodeRect(node);
    ASSERT_FALSE(box.isNull()) << "node " << node << " is not drawn";
    tree_->view()->ensureVisible(box);
    const QPoint at = tree_->view()->mapFromScene(box.center());
    QTest::mouseClick(tree_->view()->viewport(), Qt::LeftButton, modifiers, at);
  }

  // The chart item selected in the stepper, as "[4, 7] PP → P NP .".
  std::string selectedText() const { return itemText(*session_, stepper_->selectedItem()); }

  std::unique_ptr<GrammarView> view_;
  StepperView* stepper_ = nullptr;
  ParseTreeView* tree_ = nullptr;
  std::shared_ptr<const ParseSession> session_;
};

TEST_F(GrammarViewLinkTest, CtrlClickOnATreeNodeSelectsItsCompletedItem) {
  stepper_->stepper()->runToEnd();
  ASSERT_TRUE(stepper_->stepper()->atEnd());
  const gwb::ParseTree& tree = tree_->tree();
  const struct {
    const char* label;
    int begin, end;
    const char* item;
  } cases[] = {
      {"PP", 4, 7, "[4, 7] PP \u2192 P NP ."},      {"S", 0, 7, "[0, 7] S \u2192 NP VP ."},
      {"VP", 1, 7, "[1, 7] VP \u2192 V NP PP ."},   {"NP", 2, 4, "[2, 4] NP \u2192 Det N ."},
      {"N", 6, 7, "[6, 7] N \u2192 'telescope' ."},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.item);
    const int node = findNode(tree, c.label, c.begin, c.end);
    ASSERT_GE(node, 0);
    stepper_->selectItem({});
    clickNode(node, Qt::ControlModifier);
    // The chart is brought into view with the item selected, as a click on its card does.
    EXPECT_EQ(view_->currentPage(), GrammarView::Page::Stepper);
    const gwb::ItemRef selected = stepper_->selectedItem();
    ASSERT_TRUE(selected.valid());
    EXPECT_EQ(selected.set, c.end);
    EXPECT_EQ(session_->chart().item(selected).origin, c.begin);
    EXPECT_EQ(session_->symbolName(session_->lhs(selected)).toStdString(), c.label);
    EXPECT_TRUE(session_->isFinished(selected));
    EXPECT_EQ(selectedText(), c.item);
    const QModelIndex cell = stepper_->chartModel()->indexOfItem(selected);
    ASSERT_TRUE(cell.isValid());
    EXPECT_EQ(stepper_->chartView()->currentIndex(), cell);
    EXPECT_TRUE(stepper_->chartView()->selectionModel()->isSelected(cell));
    EXPECT_EQ(stepper_->chartModel()->data(cell, ChartModel::RelationRole).toInt(),
              static_cast<int>(ChartModel::Relation::Selected));
    EXPECT_TRUE(
        stepper_->explanationView()->toPlainText().contains(QStringLiteral("SELECTED ITEM")));
    // Ctrl+click links; it does not collapse. And the node is now highlighted.
    EXPECT_FALSE(tree_->isCollapsed(node));
    EXPECT_EQ(tree_->highlightedNode(), node);
  }
}

TEST_F(GrammarViewLinkTest, APlainClickStillOnlyCollapses) {
  stepper_->stepper()->runToEnd();
  QSignalSpy requests(tree_, &ParseTreeView::showInChartRequested);
  const int pp = findNode(tree_->tree(), "PP", 4, 7);
  ASSERT_GE(pp, 0);
  clickNode(pp, Qt::NoModifier);
  EXPECT_TRUE(tree_->isCollapsed(pp));
  EXPECT_EQ(requests.count(), 0);
  EXPECT_EQ(view_->currentPage(), GrammarView::Page::Tree);
  EXPECT_FALSE(stepper_->selectedItem().valid());
  // The collapsed node still links.
  clickNode(pp, Qt::ControlModifier);
  EXPECT_EQ(requests.count(), 1);
  EXPECT_TRUE(tree_->isCollapsed(pp));
  EXPECT_EQ(selectedText(), "[4, 7] PP \u2192 P NP .");
}

TEST_F(GrammarViewLinkTest, SelectingACompletedChartItemHighlightsItsNode) {
  stepper_->stepper()->runToEnd();
  view_->showPage(GrammarView::Page::Stepper);
  QApplication::processEvents();
  const gwb::ParseTree& tree = tree_->tree();
  EXPECT_EQ(tree_->highlightedNode(), -1);
  // A click on the card of [4, 7] PP → P NP. in the chart.
  const gwb::ItemRef pp = findItem(*session_, 7, QStringLiteral("[4, 7] PP \u2192 P NP ."));
  ASSERT_TRUE(pp.valid());
  const QModelIndex cell = stepper_->chartModel()->indexOfItem(pp);
  ASSERT_TRUE(cell.isValid());
  stepper_->chartView()->scrollTo(cell);
  QTest::mouseClick(stepper_->chartView()->viewport(), Qt::LeftButton, Qt::NoModifier,
                    stepper_->chartView()->visualRect(cell).center());
  ASSERT_EQ(stepper_->selectedItem(), pp);
  EXPECT_EQ(tree_->highlightedNode(), findNode(tree, "PP", 4, 7));
  EXPECT_FALSE(tree_->nodeRect(tree_->highlightedNode()).isNull());

  // Each completed item of the tree highlights its node; anything else clears the highlight.
  const struct {
    int set;
    const char* item;
    const char* label;  // nullptr: no node
    int begin;
  } cases[] = {
      {7, "[0, 7] S \u2192 NP VP .", "S", 0},
      {4, "[2, 4] NP \u2192 Det N .", "NP", 2},
      {1, "[0, 1] NP \u2192 'i' .", "NP", 0},
      {7, "[1, 7] VP \u2192 V NP .", nullptr, 0},     // the other attachment
      {7, "[2, 7] NP \u2192 NP PP .", nullptr, 0},    // ditto
      {4, "[1, 4] VP \u2192 V NP . PP", nullptr, 0},  // not finished
      {7, "[0, 7] GOAL \u2192 S .", nullptr, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.item);
    const gwb::ItemRef item = findItem(*session_, c.set, QString::fromUtf8(c.item));
    ASSERT_TRUE(item.valid());
    stepper_->selectItem(item);
    ASSERT_EQ(stepper_->selectedItem(), item);
    EXPECT_EQ(tree_->highlightedNode(), c.label ? findNode(tree, c.label, c.begin, c.set) : -1);
  }
  stepper_->selectItem(pp);
  EXPECT_GE(tree_->highlightedNode(), 0);
  stepper_->selectItem({});
  EXPECT_EQ(tree_->highlightedNode(), -1);
  // Stepping back past the item unselects it, and the highlight goes with it.
  stepper_->selectItem(pp);
  stepper_->stepper()->reset();
  EXPECT_FALSE(stepper_->selectedItem().valid());
  EXPECT_EQ(tree_->highlightedNode(), -1);
}

TEST_F(GrammarViewLinkTest, MidParseTheStatusLineSaysTheItemIsNotMadeYet) {
  stepper_->stepper()->reset();
  stepper_->stepper()->nextWord();
  stepper_->stepper()->nextWord();  // "i saw" read: no PP yet
  const std::size_t applied = stepper_->stepper()->applied();
  const int pp = findNode(tree_->tree(), "PP", 4, 7);
  ASSERT_GE(pp, 0);
  clickNode(pp, Qt::ControlModifier);
  EXPECT_EQ(view_->currentPage(), GrammarView::Page::Stepper);
  const gwb::ItemRef item = findItem(*session_, 7, QStringLiteral("[4, 7] PP \u2192 P NP ."));
  ASSERT_TRUE(item.valid());
  EXPECT_FALSE(stepper_->selectedItem() == item);
  EXPECT_EQ(stepper_->stepper()->applied(), applied);  // the step stays where the user left it
  const QString status = stepper_->statusText();
  EXPECT_TRUE(status.contains(QStringLiteral("Not yet in the chart"))) << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("[4, 7] PP \u2192 P NP ."))) << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("step %1").arg(firstStepWith(*session_, item))))
      << status.toStdString();
  // Once the stepper has made it, the same gesture selects it. The step that made it is the
  // first at which it exists.
  const std::size_t made = firstStepWith(*session_, item);
  ASSERT_GT(made, applied);
  EXPECT_FALSE(session_->stateAfter(item, made - 1));
  EXPECT_TRUE(session_->stateAfter(item, made));
  stepper_->stepper()->setApplied(made);
  EXPECT_TRUE(view_->showTreeNodeInChart(pp));
  EXPECT_EQ(stepper_->selectedItem(), item);
  EXPECT_EQ(tree_->highlightedNode(), pp);
}

TEST_F(GrammarViewLinkTest, AFilterThatHidesTheItemIsCleared) {
  stepper_->stepper()->runToEnd();
  ChartModel::Filter filter;
  filter.symbol = QStringLiteral("VP");
  stepper_->setFilter(filter);
  const int pp = findNode(tree_->tree(), "PP", 4, 7);
  ASSERT_TRUE(view_->showTreeNodeInChart(pp));
  EXPECT_EQ(selectedText(), "[4, 7] PP \u2192 P NP .");
  EXPECT_TRUE(stepper_->chartModel()->indexOfItem(stepper_->selectedItem()).isValid());
}

}  // namespace
}  // namespace gwb::ui
