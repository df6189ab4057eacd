// The parse tree view: the drawing has no overlapping boxes, subtrees collapse, and every
// export reads back (PTB and forest to the same tree, SVG to the same labels, PNG and PDF as
// images and documents).
#include "ui/earley/parse_tree_view.h"

#include <algorithm>
#include <map>
#include <string>

#include <QDir>
#include <QFile>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "session_fixtures.h"
#include "ui/common/qt_conversions.h"
#include "ui/common/tree_export.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {
namespace {

using testing::kAmbiguous;
using testing::loadSampleGrammar;
using testing::parseSentence;

const char* const kTrees[] = {
    "(S (NP i) (VP (V saw) (NP (NP (Det the) (N man)) (PP (P with) (NP (Det the) (N "
    "telescope))))))",
    "(S (NP (Det the) (N dog)) (VP (V barks)))",
    "(X a)",
    "(Discourse (Discourse.dog (Sentence.dog (Topic.dog .dog) (Words.dog (Word.dog dog))) "
    "(Discourse_t'.dog x)))",
    // LaTeX's special characters in labels and words.
    "(NP_1 (A#b 50%) (C&D $x$) (E{F} a~b^c) (Back\\slash w))",
};

std::multiset<std::string> labelsOf(const gwb::ParseTree& tree) {
  std::multiset<std::string> labels;
  for (std::size_t i = 0; i < tree.size(); ++i) labels.insert(tree.node(static_cast<int>(i)).label);
  return labels;
}

TEST(TreeExportTest, PtbAndForestRoundTrips) {
  for (const char* text : kTrees) {
    const gwb::ParseTree tree = gwb::parsePtb(text);
    ASSERT_FALSE(tree.empty()) << text;
    EXPECT_EQ(gwb::parsePtb(treeToPtb(tree).toStdString()).toPtb(), tree.toPtb());
    const QString forest = treeToForest(tree, QStringLiteral("a comment\nover two lines"));
    EXPECT_TRUE(forest.contains(QStringLiteral("\\begin{forest}")));
    QString error;
    const gwb::ParseTree back = forestToTree(forest, &error);
    ASSERT_FALSE(back.empty()) << error.toStdString() << "\n" << forest.toStdString();
    EXPECT_EQ(back.toPtb(), tree.toPtb()) << forest.toStdString();
  }
  EXPECT_EQ(latexEscape(QStringLiteral("NP_1 & {x}")), QStringLiteral("NP\\_1 \\& \\{x\\}"));
  // Malformed input is reported, not guessed at.
  QString error;
  EXPECT_TRUE(
      forestToTree(QStringLiteral("\\begin{forest} [S [NP] \\end{forest}"), &error).empty());
  EXPECT_FALSE(error.isEmpty());
  EXPECT_TRUE(forestToTree(QStringLiteral("[A] [B]"), &error).empty());
}

class ParseTreeViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    view_.resize(900, 600);
    session_ = parseSentence(loadSampleGrammar(), kAmbiguous);
    view_.setSession(session_);
  }
  // Every drawn box, by row.
  std::map<int, std::vector<QRectF>> boxesByRow() const {
    std::map<int, std::vector<QRectF>> rows;
    for (std::size_t i = 0; i < view_.tree().size(); ++i) {
      const QRectF box = view_.nodeRect(static_cast<int>(i));
      if (!box.isNull()) rows[static_cast<int>(box.top())].push_back(box);
    }
    return rows;
  }
  QTemporaryDir dir_;
  ParseTreeView view_;
  std::shared_ptr<const ParseSession> session_;
};

TEST_F(ParseTreeViewTest, ShowsTheViterbiTreeWithoutOverlaps) {
  EXPECT_EQ(view_.tree().toPtb(), session_->result().viterbiTree.toPtb());
  EXPECT_TRUE(view_.caption().contains(QStringLiteral("Viterbi")));
  const auto rows = boxesByRow();
  std::size_t boxes = 0;
  for (const auto& [top, row] : rows) {
    for (std::size_t a = 0; a < row.size(); ++a) {
      ++boxes;
      for (std::size_t b = a + 1; b < row.size(); ++b)
        EXPECT_FALSE(row[a].intersects(row[b])) << "boxes overlap on row " << top;
    }
  }
  EXPECT_EQ(boxes, view_.tree().size());
  // Every box lies inside the scene.
  for (const auto& [top, row] : rows)
    for (const QRectF& box : row) EXPECT_TRUE(view_.scene()->sceneRect().contains(box));
}

TEST_F(ParseTreeViewTest, CollapsingHidesASubtreeAndExpandAllRestoresIt) {
  const gwb::ParseTree& tree = view_.tree();
  const int vp = tree.node(tree.root()).children[1];
  const double fullWidth = view_.scene()->sceneRect().width();
  view_.toggleCollapsed(vp);
  EXPECT_TRUE(view_.isCollapsed(vp));
  EXPECT_FALSE(view_.nodeRect(vp).isNull());
  for (int child : tree.node(vp).children) EXPECT_TRUE(view_.nodeRect(child).isNull());
  EXPECT_LT(view_.scene()->sceneRect().width(), fullWidth);
  // Clicking is what collapses: the node under a point of its box.
  EXPECT_EQ(view_.nodeAt(view_.nodeRect(vp).center()), vp);
  // Words cannot be collapsed.
  const int word = tree.node(tree.node(tree.root()).children[0]).children[0];
  view_.toggleCollapsed(word);
  EXPECT_FALSE(view_.isCollapsed(word));
  // The workspace keeps what is collapsed and the zoom.
  view_.setZoom(0.5);
  const QJsonObject state = view_.state();
  view_.expandAll();
  EXPECT_FALSE(view_.isCollapsed(vp));
  EXPECT_NEAR(view_.scene()->sceneRect().width(), fullWidth, 1e-9);
  view_.restoreState(state);
  EXPECT_TRUE(view_.isCollapsed(vp));
  EXPECT_DOUBLE_EQ(view_.zoom(), 0.5);
}

// A long discourse's tree opens at a readable scale, centred on its root, instead of being
// shrunk to fit the width; the same holds for a selected node.
TEST(ParseTreeViewLongTest, ABigTreeOpensReadableAtItsRoot) {
  std::string ptb = "(Discourse";
  for (int k = 0; k < 400; ++k) ptb += " (Sentence (Words (Word w" + std::to_string(k) + ")))";
  ptb += ")";
  const gwb::ParseTree tree = gwb::parsePtb(ptb);
  ASSERT_FALSE(tree.empty());
  ParseTreeView view;
  view.resize(900, 600);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view, 600000));
  view.setTree(tree, QStringLiteral("a long discourse"));
  EXPECT_GE(view.zoom(), 0.6);
  const auto visible = [&view](int node) {
    const QRectF inView = view.view()->mapFromScene(view.nodeRect(node)).boundingRect();
    return QRectF(view.view()->viewport()->rect()).contains(inView);
  };
  EXPECT_TRUE(visible(tree.root()));
  // A node far to the right, selected: the view opens on it.
  const int last = tree.node(tree.root()).children.back();
  view.setHighlightedNode(last);
  EXPECT_TRUE(visible(last));
}

TEST_F(ParseTreeViewTest, SvgHasEveryLabel) {
  const QByteArray svg = view_.renderSvg();
  EXPECT_TRUE(QSvgRenderer(svg).isValid());
  std::multiset<std::string> texts;
  QXmlStreamReader xml(svg);
  while (!xml.atEnd()) {
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
      const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
      if (!text.isEmpty()) texts.insert(text.toStdString());
    }
  }
  EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
  EXPECT_EQ(texts, labelsOf(view_.tree()));
}

TEST_F(ParseTreeViewTest, ExportsEveryFormatAtomically) {
  struct Case {
    const char* file;
    const char* starts;
  };
  const Case cases[] = {{"tree.png", "\x89PNG"},
                        {"tree.svg", "<?xml"},
                        {"tree.pdf", "%PDF"},
                        {"tree.ptb", "(S "},
                        {"tree.tex", "% Viterbi parse"}};
  for (const Case& c : cases) {
    const QString path = dir_.filePath(QString::fromLatin1(c.file));
    QString error;
    ASSERT_TRUE(view_.exportFile(path, &error)) << c.file << ": " << error.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().startsWith(c.starts)) << c.file;
  }
  // Read back: the image has the drawing's proportions, the text formats the same tree.
  const QImage image(dir_.filePath(QStringLiteral("tree.png")));
  ASSERT_FALSE(image.isNull());
  const QRectF scene = view_.scene()->sceneRect();
  EXPECT_NEAR(image.width() / static_cast<double>(image.height()), scene.width() / scene.height(),
              0.02);
  QFile ptb(dir_.filePath(QStringLiteral("tree.ptb")));
  ASSERT_TRUE(ptb.open(QIODevice::ReadOnly));
  EXPECT_EQ(gwb::parsePtb(ptb.readAll().trimmed().toStdString()).toPtb(), view_.tree().toPtb());
  QFile tex(dir_.filePath(QStringLiteral("tree.tex")));
  ASSERT_TRUE(tex.open(QIODevice::ReadOnly));
  EXPECT_EQ(forestToTree(QString::fromUtf8(tex.readAll())).toPtb(), view_.tree().toPtb());

  // Failures leave nothing behind.
  QString error;
  EXPECT_FALSE(view_.exportFile(dir_.filePath(QStringLiteral("tree.doc")), &error));
  EXPECT_FALSE(QFile::exists(dir_.filePath(QStringLiteral("tree.doc"))));
  EXPECT_FALSE(view_.exportFile(dir_.filePath(QStringLiteral("no/such/folder/tree.svg")), &error));
  EXPECT_FALSE(error.isEmpty());
  EXPECT_EQ(QDir(dir_.path()).entryList(QDir::Files).size(), 5);
}

TEST_F(ParseTreeViewTest, OffersTheRunnersUpOfAShortSentence) {
  ASSERT_EQ(view_.parses().size(), 2u);  // the PP on the verb or on the noun
  EXPECT_EQ(view_.currentParse(), 0);
  const std::string viterbi = view_.tree().toPtb();
  view_.showParse(1);
  EXPECT_NE(view_.tree().toPtb(), viterbi);
  EXPECT_NE(view_.tree().toPtb().find("(NP (NP (Det the) (N man)) (PP"), std::string::npos)
      << view_.tree().toPtb();
  EXPECT_TRUE(view_.caption().contains(QStringLiteral("Parse 2"))) << view_.caption().toStdString();
  EXPECT_TRUE(view_.caption().contains(QStringLiteral("28.6%"))) << view_.caption().toStdString();
  // The LaTeX export names the runner-up as such, not as the Viterbi parse.
  const QString runnerUp = view_.forestText();
  EXPECT_FALSE(runnerUp.contains(QStringLiteral("Viterbi"))) << runnerUp.toStdString();
  EXPECT_TRUE(runnerUp.contains(QStringLiteral("Parse 2 of 2"))) << runnerUp.toStdString();
  const QJsonObject state = view_.state();
  view_.showParse(0);
  EXPECT_TRUE(view_.forestText().contains(QStringLiteral("Viterbi parse of")));
  view_.restoreState(state);
  EXPECT_EQ(view_.currentParse(), 1);
  EXPECT_EQ(view_.tree().toPtb(), view_.parses()[1].tree.toPtb());
}

TEST(ParseTreeViewNoParseTest, SaysWhyThereIsNoTree) {
  ParseTreeView view;
  view.setSession(parseSentence(loadSampleGrammar(), "i saw saw"));
  EXPECT_TRUE(view.tree().empty());
  EXPECT_TRUE(view.caption().contains(QStringLiteral("No parse"))) << view.caption().toStdString();
  QString error;
  EXPECT_FALSE(view.exportFile(QStringLiteral("/tmp/never.svg"), &error));
}

}  // namespace
}  // namespace gwb::ui
