// The DS stepper's models against the core parser: the DAG model shows exactly the core's DAG
// (its nodes' trees and its edges), step by step and word by word; its path is the core's;
// the tree model of any node dumps as the core's DsTree::toString; the record formatter keeps
// every character of the core's record types. Expectations are computed here from the core's
// DsParseResult, not by the models.
#include <fstream>
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "model_tester.h"
#include "shared_data.h"
#include "ui/common/graph_layout.h"
#include "ui/ds/ds_dag_model.h"
#include "ui/ds/ds_record_format.h"
#include "ui/ds/ds_tree_model.h"

namespace gwb::ui {
namespace {

namespace ds = gwb::ds;

const char* const kSentences[] = {"john likes mary", "a man likes mary", "john likes",
                                  "the likes mary", "john arrives from london"};

class DsModelsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GWB_REQUIRE_SHARED(actions, "data/dylan/2013-english-ttr/computational-actions.txt");
    static std::shared_ptr<ds::DsGrammarLoad> load;  // one load for the whole suite
    if (!load) {
      load = std::make_shared<ds::DsGrammarLoad>(
          ds::loadDsGrammar(gwb::testing::sharedPath("data/dylan/2013-english-ttr")));
    }
    ASSERT_TRUE(load->ok());
    grammar_ = &load->grammar;
  }

  std::shared_ptr<const ds::DsParseResult> parse(
      const std::string& sentence, ds::SearchStrategy strategy = ds::SearchStrategy::BreadthFirst) {
    ds::DsParseOptions options;
    options.strategy = strategy;
    return std::make_shared<const ds::DsParseResult>(
        ds::DsParser(*grammar_).parse(sentence, options));
  }

  const ds::DsGrammar* grammar_ = nullptr;
};

// The dump format of DsDagModel, written out here from the core's data.
std::string expectedDump(const ds::DsParseResult& r, int edges) {
  std::set<int> path(r.path.begin(), r.path.end());
  int nodes = 1;
  for (const ds::DagNode& n : r.dag.nodes())
    if (n.id > 0 && n.inEdge < edges) nodes = n.id + 1;
  std::string out = "nodes " + std::to_string(nodes) + "/" + std::to_string(r.dag.nodes().size()) +
                    ", edges " + std::to_string(edges) + "/" +
                    std::to_string(r.dag.edges().size()) + "\n";
  for (int id = 0; id < nodes; ++id) {
    const ds::DagNode& n = r.dag.node(id);
    out += "n" + std::to_string(id) + " w" + std::to_string(n.wordsConsumed) +
           (n.complete ? " complete" : "") + "\n";
    std::string tree = n.tree->toString();
    std::string indented = "    ";
    for (std::size_t i = 0; i < tree.size(); ++i) {
      indented += tree[i];
      if (tree[i] == '\n' && i + 1 < tree.size()) indented += "    ";
    }
    out += indented;
  }
  for (int id = 0; id < edges; ++id) {
    const ds::DagEdge& e = r.dag.edges()[static_cast<std::size_t>(id)];
    out += "e" + std::to_string(id) + " n" + std::to_string(e.from) + " -> n" +
           std::to_string(e.to) + " " + e.action;
    for (std::size_t k = 0; k < e.closure.size(); ++k) out += (k == 0 ? " +" : ",") + e.closure[k];
    if (e.lexical) out += " word " + std::to_string(e.wordIndex + 1);
    if (path.count(id) > 0) out += " path";
    out += "\n";
  }
  return out;
}

TEST_F(DsModelsTest, AtTheEndTheDagModelIsTheCoresDag) {
  for (const char* sentence : kSentences) {
    SCOPED_TRACE(sentence);
    for (const auto strategy : {ds::SearchStrategy::BreadthFirst, ds::SearchStrategy::BestFirst}) {
      const auto result = parse(sentence, strategy);
      DsDagModel model;
      gwb::ui::testing::CheckedModelTester tester(&model);
      model.setResult(result, ds::splitWords(sentence));
      EXPECT_EQ(model.visibleEdges(), 0);
      EXPECT_EQ(model.visibleNodes(), 1);
      ASSERT_TRUE(model.toEnd());
      EXPECT_EQ(model.visibleNodes(), static_cast<int>(result->dag.nodes().size()));
      EXPECT_EQ(model.rowCount(), static_cast<int>(result->dag.edges().size()));
      EXPECT_EQ(model.dump(), expectedDump(*result, static_cast<int>(result->dag.edges().size())));
      // The visible DOT of the whole DAG is the core's own DOT with its path highlighted.
      EXPECT_EQ(model.visibleDot(), result->dag.toDot(result->path));
      int nodes = 0, edges = 0;
      ASSERT_TRUE(parseDot(QByteArray::fromStdString(model.visibleDot()), &nodes, &edges));
      EXPECT_EQ(nodes, static_cast<int>(result->dag.nodes().size()));
      EXPECT_EQ(edges, static_cast<int>(result->dag.edges().size()));
    }
  }
}

TEST_F(DsModelsTest, SteppingByActionShowsExactlyThePrefix) {
  const auto result = parse("a man likes mary");
  DsDagModel model;
  gwb::ui::testing::CheckedModelTester tester(&model);
  model.setResult(result, ds::splitWords("a man likes mary"));
  const int total = static_cast<int>(result->dag.edges().size());
  ASSERT_GT(total, 20);
  for (int k = 0; k <= total; ++k) {
    SCOPED_TRACE(k);
    if (k > 0) {
      ASSERT_TRUE(model.stepForward());
    }
    EXPECT_EQ(model.visibleEdges(), k);
    EXPECT_EQ(model.dump(), expectedDump(*result, k));
    // A node is shown exactly when the first edge into it is.
    for (const ds::DagNode& n : result->dag.nodes())
      EXPECT_EQ(model.isNodeVisible(n.id), n.id == 0 || n.inEdge < k) << n.id;
    if (k > 0) {
      const QModelIndex last = model.index(k - 1, DsDagModel::ActionColumn);
      EXPECT_EQ(model.data(last).toString().toStdString(),
                result->dag.edges()[static_cast<std::size_t>(k - 1)].action);
      EXPECT_EQ(model.latestNode(), result->dag.edges()[static_cast<std::size_t>(k - 1)].to);
    }
  }
  EXPECT_FALSE(model.stepForward());
  for (int k = total; k > 0; --k) ASSERT_TRUE(model.stepBack());
  EXPECT_FALSE(model.stepBack());
  EXPECT_EQ(model.dump(), expectedDump(*result, 0));
}

TEST_F(DsModelsTest, SteppingByWordStopsAfterEachWord) {
  for (const char* sentence : {"john likes mary", "the woman likes a boy"}) {
    SCOPED_TRACE(sentence);
    const auto result = parse(sentence);
    const std::vector<std::string> words = ds::splitWords(sentence);
    DsDagModel model;
    model.setResult(result, words);
    std::vector<int> stops;
    for (std::size_t w = 0; w < words.size(); ++w) {
      ASSERT_TRUE(model.nextWord());
      stops.push_back(model.visibleEdges());
      EXPECT_EQ(model.wordsShown(), static_cast<int>(w) + 1);
      // After word w: exactly the trees that have read at most w words and those that word w's
      // lexical actions made, and no action yet from a tree that has read w+1 words.
      int expectedNodes = 0;
      for (const ds::DagNode& n : result->dag.nodes()) {
        const bool lexicalChild = n.inEdge >= 0 &&
                                  result->dag.edges()[static_cast<std::size_t>(n.inEdge)].lexical &&
                                  n.wordsConsumed == static_cast<int>(w) + 1;
        if (n.wordsConsumed <= static_cast<int>(w) || lexicalChild) ++expectedNodes;
      }
      EXPECT_EQ(model.visibleNodes(), expectedNodes);
      for (int e = 0; e < model.visibleEdges(); ++e) {
        const ds::DagEdge& edge = result->dag.edges()[static_cast<std::size_t>(e)];
        EXPECT_LE(result->dag.node(edge.from).wordsConsumed, static_cast<int>(w));
      }
      const ds::DagEdge& last = result->dag.edges()[static_cast<std::size_t>(stops.back() - 1)];
      EXPECT_TRUE(last.lexical);
      EXPECT_EQ(last.wordIndex, static_cast<int>(w));
    }
    // Then the completion after the last word, and no further.
    ASSERT_TRUE(model.nextWord());
    EXPECT_EQ(model.visibleEdges(), static_cast<int>(result->dag.edges().size()));
    EXPECT_FALSE(model.nextWord());
    for (auto it = stops.rbegin(); it != stops.rend(); ++it) {
      ASSERT_TRUE(model.previousWord());
      EXPECT_EQ(model.visibleEdges(), *it);
    }
    ASSERT_TRUE(model.previousWord());
    EXPECT_EQ(model.visibleEdges(), 0);
    EXPECT_FALSE(model.previousWord());
  }
}

TEST_F(DsModelsTest, PathIsTheCoresSuccessPath) {
  const auto result = parse("john likes mary");
  ASSERT_EQ(result->outcome, ds::ParseOutcome::Parsed);
  DsDagModel model;
  model.setResult(result, ds::splitWords("john likes mary"));
  model.toEnd();
  EXPECT_TRUE(model.succeeded());
  std::vector<int> path;
  for (int row = 0; row < model.rowCount(); ++row)
    if (model.data(model.index(row, 0), DsDagModel::OnPathRole).toBool())
      path.push_back(model.data(model.index(row, 0), DsDagModel::EdgeIdRole).toInt());
  EXPECT_EQ(path, result->path);
  // The path ends at the complete tree whose root holds the result.
  const ds::DagEdge& last = result->dag.edges()[static_cast<std::size_t>(path.back())];
  EXPECT_EQ(last.to, result->finalNode);
  EXPECT_TRUE(model.isNodeOnPath(result->finalNode));
  EXPECT_TRUE(result->dag.node(result->finalNode).complete);
  // An ungrammatical sentence has no success.
  DsDagModel failed;
  failed.setResult(parse("likes john mary"), ds::splitWords("likes john mary"));
  EXPECT_FALSE(failed.succeeded());
}

TEST_F(DsModelsTest, TreeModelDumpIsTheCoresTree) {
  for (const char* sentence : kSentences) {
    const auto result = parse(sentence);
    for (const ds::DagNode& node : result->dag.nodes()) {
      DsTreeModel model;
      model.setTree(node.tree);
      EXPECT_EQ(model.dump(), node.tree->toString()) << sentence << " #" << node.id;
    }
  }
}

TEST_F(DsModelsTest, TreeModelMarksPointerLinkAndUnfixedNodes) {
  const auto result = parse("john likes mary");
  // The final tree has a LINKed tense tree at 01L; tree #2 has the unfixed node 0*.
  DsTreeModel model;
  gwb::ui::testing::CheckedModelTester tester(&model);
  model.setTree(result->dag.node(result->finalNode).tree);
  const ds::DsTree& tree = *result->dag.node(result->finalNode).tree;
  bool sawLink = false;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const std::string address = tree.node(i).address.toString();
    const int parent = model.parentOf(static_cast<int>(i));
    if (address == "0") {
      EXPECT_EQ(parent, -1);
    }
    if (address == "01L") {
      sawLink = true;
      EXPECT_EQ(tree.node(static_cast<std::size_t>(parent)).address.toString(), "01");
    }
  }
  EXPECT_TRUE(sawLink);
  std::vector<QModelIndex> stack{model.index(0, 0)};
  int pointers = 0;
  while (!stack.empty()) {
    const QModelIndex at = stack.back();
    stack.pop_back();
    const std::string address = model.data(at).toString().toStdString();
    EXPECT_EQ(model.data(at, DsTreeModel::LinkedRole).toBool(),
              address.find('L') != std::string::npos);
    if (model.data(at, DsTreeModel::PointerRole).toBool()) {
      ++pointers;
      EXPECT_EQ(address, tree.pointer().toString());
    }
    for (int r = 0; r < model.rowCount(at); ++r) stack.push_back(model.index(r, 0, at));
  }
  EXPECT_EQ(pointers, 1);

  bool sawUnfixed = false;
  for (const ds::DagNode& node : result->dag.nodes()) {
    model.setTree(node.tree);
    for (std::size_t i = 0; i < node.tree->size(); ++i) {
      if (node.tree->node(i).address.toString() != "0*") continue;
      sawUnfixed = true;
      const QModelIndex root = model.index(0, 0);
      bool found = false;
      for (int r = 0; r < model.rowCount(root); ++r) {
        const QModelIndex child = model.index(r, 0, root);
        if (model.data(child).toString() == QStringLiteral("0*")) {
          found = true;
          EXPECT_TRUE(model.data(child, DsTreeModel::UnfixedRole).toBool());
          EXPECT_TRUE(model.data(child, DsTreeModel::RequirementsRole)
                          .toStringList()
                          .contains(QStringLiteral("?Ex.tn(x)")));
        }
      }
      EXPECT_TRUE(found);
    }
  }
  EXPECT_TRUE(sawUnfixed);
}

TEST(DsRecordFormatTest, LaysFieldsOutInAlignedColumns) {
  const auto record = ds::RecordType::parse(
      "[x5==mary : e|r1 : [x7 : e|p2==man(x7) : t|head : x7]|head==e5 : es|p==subj(e5, x5) : t]");
  ASSERT_TRUE(record);
  EXPECT_EQ(formatRecordType(*record),
            "[ x5   == mary         : e\n"
            "  r1   : [ x7              : e\n"
            "           p2   == man(x7) : t\n"
            "           head : x7 ]\n"
            "  head == e5           : es\n"
            "  p    == subj(e5, x5) : t ]\n");
  EXPECT_EQ(formatRecordType(ds::RecordType()), "[]\n");
}

TEST(DsRecordFormatTest, KeepsEveryCharacterOfTheReferenceRecordTypes) {
  GWB_REQUIRE_SHARED(reference, "reference/dylan/parses-2013-english-ttr.tsv");
  std::ifstream in(reference);
  std::string line;
  std::getline(in, line);  // header
  int checked = 0;
  const auto squeeze = [](const std::string& s, bool bars) {
    std::string out;
    for (char c : s)
      if (c != ' ' && c != '\n' && (!bars || c != '|')) out += c;
    return out;
  };
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::size_t begin = 0;
    for (std::size_t tab; (tab = line.find('\t', begin)) != std::string::npos; begin = tab + 1)
      cells.push_back(line.substr(begin, tab - begin));
    cells.push_back(line.substr(begin));
    if (cells.size() < 4 || cells[3] == "-") continue;
    const auto record = ds::RecordType::parse(cells[3]);
    ASSERT_TRUE(record) << cells[3];
    const std::string pretty = formatRecordType(*record);
    EXPECT_EQ(squeeze(pretty, false), squeeze(record->toString(), true)) << pretty;
    // One line per field at the top level and inside each restrictor.
    std::size_t fields = 0;
    for (char c : record->toString()) fields += c == '|' ? 1 : 0;
    std::size_t lines = 0;
    for (char c : pretty) lines += c == '\n' ? 1 : 0;
    EXPECT_EQ(lines, fields + 1) << pretty;
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace gwb::ui
