// The DS stepper end to end, offscreen: it parses on its worker with the shared DyLan grammar;
// the drawing has one box per visible DAG node and follows the steps; toolbar actions and
// their shortcuts step by action and by word; clicking a DAG node shows that node's tree and
// record type (compared with the core's own texts); exports write files that read back; and the
// full breadth-first DAG of a 10-word sentence lays out fast enough to stay interactive.
#include "ui/ds/ds_stepper_view.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <set>

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QImage>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "shared_data.h"
#include "ui/common/graph_layout.h"
#include "ui/ds/ds_dag_model.h"
#include "ui/ds/ds_dag_view.h"
#include "ui/ds/ds_record_format.h"
#include "ui/ds/ds_tree_model.h"
#include "ui/ds/ds_tree_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"
#include "ui/frame/workspace.h"

namespace gwb::ui {
namespace {

namespace ds = gwb::ds;

class DsStepperViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GWB_REQUIRE_SHARED(actions, "data/dylan/2013-english-ttr/computational-actions.txt");
    directory_ = gwb::testing::sharedPath("data/dylan/2013-english-ttr");
    view_.resize(1200, 760);
    view_.show();
    view_.setGrammarDirectory(QString::fromStdString(directory_));
    // These tests count every tree; the folding of computational runs has its own test.
    view_.dagView()->setCollapsed(false);
  }

  // The same parse, done here by the core.
  ds::DsParseResult coreParse(const std::string& sentence) {
    static std::shared_ptr<ds::DsGrammarLoad> load;
    if (!load) load = std::make_shared<ds::DsGrammarLoad>(ds::loadDsGrammar(directory_));
    return ds::DsParser(load->grammar).parse(sentence);
  }

  void parse(const QString& sentence) {
    view_.setSentence(sentence);
    ASSERT_TRUE(view_.parse());
    ASSERT_TRUE(view_.waitForParse());
    ASSERT_TRUE(view_.dagModel()->result() != nullptr) << view_.statusText().toStdString();
  }

  int drawnNodes() const {
    int count = 0;
    for (QGraphicsItem* item : view_.dagView()->graphScene()->items())
      if (item->data(DsGraphCanvas::kItemIdKey).isValid()) ++count;
    return count;
  }

  QAction* actionNamed(const QString& prefix) const {
    for (QAction* a : view_.actions())
      if (a->text().contains(prefix)) return a;
    return nullptr;
  }

  std::string directory_;
  DsStepperView view_;
};

TEST_F(DsStepperViewTest, DrawsTheVisibleDagAndFollowsTheSteps) {
  parse(QStringLiteral("john likes mary"));
  const ds::DsParseResult core = coreParse("john likes mary");
  DsDagModel* model = view_.dagModel();
  EXPECT_EQ(model->edgeCount(), static_cast<int>(core.dag.edges().size()));
  EXPECT_EQ(model->visibleEdges(), 0);
  EXPECT_EQ(drawnNodes(), 1);

  // Right arrow: one action; Ctrl+Right: to the end of the word.
  QTest::keyClick(view_.dagView(), Qt::Key_Right);
  EXPECT_EQ(model->visibleEdges(), 1);
  EXPECT_EQ(drawnNodes(), model->visibleNodes());
  QTest::keyClick(view_.dagView(), Qt::Key_Right, Qt::ControlModifier);
  const ds::DagEdge& last = core.dag.edges()[static_cast<std::size_t>(model->visibleEdges() - 1)];
  EXPECT_TRUE(last.lexical);
  EXPECT_EQ(last.word, "john");
  EXPECT_EQ(drawnNodes(), model->visibleNodes());
  // The newest node is selected and its tree shown.
  EXPECT_EQ(view_.selectedNode(), last.to);
  EXPECT_EQ(view_.treeModel()->dump(), core.dag.node(last.to).tree->toString());
  const int afterJohn = model->visibleEdges();
  QTest::keyClick(view_.dagView(), Qt::Key_Left);
  EXPECT_EQ(model->visibleEdges(), afterJohn - 1);
  QTest::keyClick(view_.dagView(), Qt::Key_Left, Qt::ControlModifier);
  EXPECT_EQ(model->visibleEdges(), 0);

  actionNamed(QStringLiteral("End"))->trigger();
  EXPECT_EQ(model->visibleEdges(), model->edgeCount());
  EXPECT_EQ(drawnNodes(), static_cast<int>(core.dag.nodes().size()));
  // At the end the final tree is selected and the record pane shows the core's result.
  EXPECT_EQ(view_.selectedNode(), core.finalNode);
  ASSERT_TRUE(core.rootFormula);
  EXPECT_NE(view_.recordText().indexOf(QString::fromStdString(formatFormula(core.rootFormula))), -1)
      << view_.recordText().toStdString();
  EXPECT_NE(view_.recordText().indexOf(QString::fromStdString(core.rootFormula->text())), -1);
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("PARSED")));

  actionNamed(QStringLiteral("Start"))->trigger();
  EXPECT_EQ(model->visibleEdges(), 0);
  EXPECT_EQ(drawnNodes(), 1);
  // Going forward again reuses the cached layouts.
  const int layouts = view_.dagView()->layoutsComputed();
  actionNamed(QStringLiteral("End"))->trigger();
  EXPECT_EQ(view_.dagView()->layoutsComputed(), layouts);
  EXPECT_TRUE(view_.dagView()->lastDrawingWasCached());
}

TEST_F(DsStepperViewTest, ClickingANodeShowsItsTreeAndRecordType) {
  parse(QStringLiteral("a man likes mary"));
  const ds::DsParseResult core = coreParse("a man likes mary");
  view_.dagModel()->toEnd();
  QApplication::processEvents();
  DsDagView* dag = view_.dagView();
  dag->zoomToFit();
  for (const int id : {3, 10, static_cast<int>(core.dag.nodes().size()) - 1}) {
    SCOPED_TRACE(id);
    const QRectF rect = dag->nodeRect(id);
    ASSERT_FALSE(rect.isEmpty());
    const QPoint at = dag->mapFromScene(rect.center());
    QTest::mouseClick(dag->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    EXPECT_EQ(view_.selectedNode(), id);
    const ds::DsTree& tree = *core.dag.node(id).tree;
    EXPECT_EQ(view_.treeModel()->dump(), tree.toString());
    // The record pane holds the core's maximal semantics (or root formula), formatted.
    const ds::FormulaPtr semantics = core.dag.node(id).complete
                                         ? tree.find(ds::NodeAddress())->formula()
                                         : ds::maximalSemantics(tree);
    ASSERT_TRUE(semantics);
    EXPECT_NE(view_.recordText().indexOf(QString::fromStdString(formatFormula(semantics))), -1)
        << view_.recordText().toStdString();
    // The tree pane draws one box per node of the tree, the pointer's among them.
    EXPECT_FALSE(
        view_.treeView()->nodeRect(QString::fromStdString(tree.pointer().toString())).isEmpty());
  }
}

TEST_F(DsStepperViewTest, ExportsReadBack) {
  parse(QStringLiteral("john likes mary"));
  view_.dagModel()->nextWord();
  view_.dagModel()->nextWord();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QString error;
  const QString dot = dir.filePath(QStringLiteral("dag.dot"));
  ASSERT_TRUE(view_.exportDag(dot, &error)) << error.toStdString();
  QFile dotFile(dot);
  ASSERT_TRUE(dotFile.open(QIODevice::ReadOnly));
  int nodes = 0, edges = 0;
  ASSERT_TRUE(parseDot(dotFile.readAll(), &nodes, &edges));
  EXPECT_EQ(nodes, view_.dagModel()->visibleNodes());
  EXPECT_EQ(edges, view_.dagModel()->visibleEdges());

  for (const bool dag : {true, false}) {
    const QString base = dag ? QStringLiteral("dag") : QStringLiteral("tree");
    const QString svg = dir.filePath(base + QStringLiteral(".svg"));
    const QString png = dir.filePath(base + QStringLiteral(".png"));
    ASSERT_TRUE(dag ? view_.exportDag(svg, &error) : view_.exportTree(svg, &error));
    ASSERT_TRUE(dag ? view_.exportDag(png, &error) : view_.exportTree(png, &error));
    QFile svgFile(svg);
    ASSERT_TRUE(svgFile.open(QIODevice::ReadOnly));
    EXPECT_TRUE(svgFile.readAll().contains("<svg"));
    QImage image;
    ASSERT_TRUE(image.load(png));
    EXPECT_GT(image.width(), 100);
    EXPECT_GT(image.height(), 30);
  }
  const QString treeDot = dir.filePath(QStringLiteral("tree.dot"));
  ASSERT_TRUE(view_.exportTree(treeDot, &error));
  QFile treeFile(treeDot);
  ASSERT_TRUE(treeFile.open(QIODevice::ReadOnly));
  ASSERT_TRUE(parseDot(treeFile.readAll(), &nodes, &edges));
  const ds::DsTree* tree = view_.treeModel()->tree();
  ASSERT_TRUE(tree);
  EXPECT_EQ(nodes, static_cast<int>(tree->size()));
  EXPECT_EQ(edges, static_cast<int>(tree->size()) - 1);
  EXPECT_FALSE(view_.exportDag(dir.filePath(QStringLiteral("dag.txt")), &error));
  EXPECT_FALSE(error.isEmpty());
}

TEST_F(DsStepperViewTest, BadGrammarFolderIsReportedNotFatal) {
  view_.setGrammarDirectory(QStringLiteral("/nonexistent/grammar"));
  view_.setSentence(QStringLiteral("john likes mary"));
  EXPECT_FALSE(view_.parse());
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("/nonexistent/grammar")));
  view_.setGrammarDirectory(QString::fromStdString(directory_));
  parse(QStringLiteral("john likes zzz"));
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("FAILED")));
}

TEST_F(DsStepperViewTest, TenWordSentenceStaysInteractive) {
  const QString sentence = QStringLiteral("the big man likes a fat girl from london slowly");
  parse(sentence);
  DsDagModel* model = view_.dagModel();
  ASSERT_TRUE(model->succeeded()) << view_.statusText().toStdString();
  // Word by word, then the whole DAG: one layout per new step count.
  double worst = 0.0;
  while (model->nextWord()) worst = std::max(worst, view_.dagView()->lastLayoutMilliseconds());
  const double full = view_.dagView()->lastLayoutMilliseconds();
  std::cout << "[ DS layout ] \"" << sentence.toStdString() << "\": " << model->nodeCount()
            << " trees, " << model->edgeCount() << " edges; full DAG layout " << full
            << " ms (worst word step " << worst << " ms)\n";
  EXPECT_EQ(drawnNodes(), model->nodeCount());
  // Layout times are printed, never asserted: a test must not depend on the machine's speed.
  // Stepping back and forth through laid-out steps is cached: no new layout at all.
  const int layouts = view_.dagView()->layoutsComputed();
  const auto start = std::chrono::steady_clock::now();
  while (model->previousWord()) {
  }
  while (model->nextWord()) {
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(view_.dagView()->layoutsComputed(), layouts);
  // Every action step once (each prefix laid out): no step is slow, and Graphviz survives
  // every prefix's shape.
  model->toStart();
  double worstAction = 0.0;
  while (model->stepForward()) {
    if (!view_.dagView()->lastDrawingWasCached())
      worstAction = std::max(worstAction, view_.dagView()->lastLayoutMilliseconds());
    ASSERT_TRUE(view_.dagView()->geometry().ok());
  }
  std::cout << "[ DS layout ] slowest layout over all " << model->edgeCount()
            << " action steps: " << worstAction << " ms\n";
  std::cout << "[ DS layout ] 22 cached word steps back and forth (DAG, tree and record redrawn): "
            << ms << " ms\n";
}

TEST_F(DsStepperViewTest, ReferenceSentencesLayOutQuickly) {
  GWB_REQUIRE_SHARED(reference, "reference/dylan/parses-2013-english-ttr.tsv");
  std::ifstream in(reference);
  std::string line;
  std::getline(in, line);  // header
  double worst = 0.0;
  std::string worstSentence;
  int worstNodes = 0;
  while (std::getline(in, line)) {
    const std::size_t a = line.find('\t');
    const std::size_t b = line.find('\t', a + 1);
    const std::string sentence = line.substr(a + 1, b - a - 1);
    parse(QString::fromStdString(sentence));
    view_.dagModel()->toEnd();
    EXPECT_EQ(drawnNodes(), view_.dagModel()->nodeCount()) << sentence;
    const double ms = view_.dagView()->lastLayoutMilliseconds();
    if (view_.dagModel()->nodeCount() > worstNodes) {
      worstNodes = view_.dagModel()->nodeCount();
      worst = ms;
      worstSentence = sentence;
    }
  }
  std::cout << "[ DS layout ] largest reference DAG \"" << worstSentence << "\": " << worstNodes
            << " trees, full layout " << worst << " ms\n";
}

TEST(DsStepperMenuTest, DynamicSyntaxMenuOpensAStepperTab) {
  GWB_REQUIRE_SHARED(actions, "data/dylan/2013-english-ttr/computational-actions.txt");
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings store(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings settings(store);
  MainWindow window(settings);
  const int before = window.documentTabs()->count();
  QAction* open = nullptr;
  for (QAction* menu : window.menuBar()->actions())
    if (menu->menu() != nullptr &&
        menu->text().remove(QLatin1Char('&')) == QStringLiteral("Dynamic Syntax"))
      open = menu->menu()->actions().value(0);
  ASSERT_TRUE(open != nullptr);
  open->trigger();
  EXPECT_EQ(window.documentTabs()->count(), before + 1);
  EXPECT_TRUE(qobject_cast<DsStepperView*>(window.documentTabs()->currentWidget()) != nullptr);

  const QString grammar =
      QString::fromStdString(gwb::testing::sharedPath("data/dylan/2013-english-ttr"));
  DsStepperView* view = window.openDsStepper(grammar, QStringLiteral("john likes mary"));
  EXPECT_EQ(window.documentTabs()->currentWidget(), view);
  ASSERT_TRUE(view->waitForParse());
  EXPECT_TRUE(view->dagModel()->succeeded()) << view->statusText().toStdString();
}

// Folded, each run of computational actions is one dashed edge from its anchor (the axiom or
// a lexical edge's target): drawn are the anchors, the complete trees and the selected/newest
// one. Clicking a folded edge unfolds its run; unfolding everything draws the whole DAG.
TEST_F(DsStepperViewTest, FoldsRunsOfComputationalActionsIntoOneEdge) {
  parse(QStringLiteral("john likes mary"));
  const ds::DsParseResult core = coreParse("john likes mary");
  view_.dagModel()->toEnd();
  DsDagView* dag = view_.dagView();
  const int allNodes = static_cast<int>(core.dag.nodes().size());
  const int allEdges = static_cast<int>(core.dag.edges().size());
  EXPECT_EQ(dag->drawnNodeCount(), allNodes);
  EXPECT_EQ(dag->drawnEdgeCount(), allEdges);

  // The anchors, found here from the core's DAG alone.
  std::set<int> expected;
  for (const ds::DagNode& n : core.dag.nodes())
    if (n.inEdge < 0 || core.dag.edges()[static_cast<std::size_t>(n.inEdge)].lexical || n.complete)
      expected.insert(n.id);
  expected.insert(core.finalNode);                  // selected at the end
  expected.insert(view_.dagModel()->latestNode());  // and the newest tree
  dag->setCollapsed(true);
  EXPECT_EQ(dag->drawnNodeCount(), static_cast<int>(expected.size()));
  EXPECT_EQ(drawnNodes(), dag->drawnNodeCount());
  for (int id = 0; id < allNodes; ++id)
    EXPECT_EQ(dag->isNodeDrawn(id), expected.count(id) > 0) << id;
  // One edge into every drawn tree but the axiom (at least), far fewer than the DAG's.
  EXPECT_GE(dag->drawnEdgeCount(), dag->drawnNodeCount() - 1);
  EXPECT_LT(dag->drawnEdgeCount(), allEdges);
  // A three-word parse now fits at a readable zoom in an ordinary window.
  view_.resize(1600, 1000);
  dag->zoomToReadableFit();
  QApplication::processEvents();
  EXPECT_TRUE(dag->viewport()->rect().contains(
      dag->mapFromScene(dag->scene()->itemsBoundingRect()).boundingRect()));

  // Click the label of a folded edge: its run unfolds.
  int hidden = -1;
  for (int id = 0; id < allNodes && hidden < 0; ++id)
    if (!dag->isNodeDrawn(id)) hidden = id;
  ASSERT_GE(hidden, 0);
  const int anchor = dag->anchorOf(hidden);
  QGraphicsItem* label = nullptr;
  for (QGraphicsItem* item : dag->graphScene()->items())
    if (item->data(DsGraphCanvas::kSecondaryIdKey).toInt() == anchor &&
        item->data(DsGraphCanvas::kSecondaryIdKey).isValid())
      label = item;
  ASSERT_TRUE(label != nullptr);
  dag->ensureVisible(label);
  QTest::mouseClick(dag->viewport(), Qt::LeftButton, Qt::NoModifier,
                    dag->mapFromScene(label->sceneBoundingRect().center()));
  EXPECT_TRUE(dag->isRunExpanded(anchor));
  EXPECT_TRUE(dag->isNodeDrawn(hidden));
  EXPECT_GT(dag->drawnNodeCount(), static_cast<int>(expected.size()));
  dag->setRunExpanded(anchor, false);
  EXPECT_FALSE(dag->isNodeDrawn(hidden));
  EXPECT_EQ(dag->drawnNodeCount(), static_cast<int>(expected.size()));
  // Every run unfolded: the whole DAG again.
  for (int id = 0; id < allNodes; ++id) dag->setRunExpanded(dag->anchorOf(id), true);
  EXPECT_EQ(dag->drawnNodeCount(), allNodes);
  EXPECT_EQ(dag->drawnEdgeCount(), allEdges);
}

// Fit shows the whole DAG, however small that makes it (the automatic fit stops at a readable
// zoom and scrolls instead).
TEST_F(DsStepperViewTest, FitShowsTheWholeDag) {
  view_.resize(900, 600);
  parse(QStringLiteral("the big man likes a fat girl from london slowly"));
  view_.dagModel()->toEnd();
  DsDagView* dag = view_.dagView();
  QApplication::processEvents();
  const auto fits = [dag] {
    return dag->viewport()->rect().contains(
        dag->mapFromScene(dag->scene()->itemsBoundingRect()).boundingRect());
  };
  EXPECT_FALSE(fits());  // the readable fit scrolls: the test would prove nothing otherwise
  QAction* fit = nullptr;
  for (QAction* a : view_.findChildren<QAction*>())
    if (a->text() == QStringLiteral("Fit")) fit = a;
  ASSERT_TRUE(fit != nullptr);
  fit->trigger();
  QApplication::processEvents();
  EXPECT_EQ(dag->fitMode(), DsGraphCanvas::FitMode::Whole);
  EXPECT_TRUE(fits()) << dag->zoom();
  // It keeps fitting as the drawing changes.
  view_.dagModel()->previousWord();
  view_.dagModel()->toEnd();
  QApplication::processEvents();
  EXPECT_TRUE(fits());
  dag->zoomIn();
  EXPECT_EQ(dag->fitMode(), DsGraphCanvas::FitMode::Manual);
}

// The grammar docks belong to grammar tabs: hidden while a DS stepper is in front, back when a
// grammar is.
TEST(DsStepperDocksTest, GrammarDocksFollowTheTabInFront) {
  GWB_REQUIRE_SHARED(actions, "data/dylan/2013-english-ttr/computational-actions.txt");
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings store(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings settings(store);
  MainWindow window(settings);
  window.resize(1600, 1000);
  window.show();
  ASSERT_TRUE(
      window.openGrammar(MainWindow::samplesDirectory() + QStringLiteral("/arithmetic.grammar")));
  auto* diagnostics = window.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"));
  auto* nonterminals = window.findChild<QDockWidget*>(QStringLiteral("nonterminalDock"));
  ASSERT_TRUE(diagnostics != nullptr && nonterminals != nullptr);
  diagnostics->show();
  nonterminals->show();
  const int grammarTab = window.documentTabs()->currentIndex();
  DsStepperView* ds = window.openDsStepper();
  EXPECT_EQ(window.documentTabs()->currentWidget(), ds);
  EXPECT_TRUE(diagnostics->isHidden());
  EXPECT_TRUE(nonterminals->isHidden());
  window.documentTabs()->setCurrentIndex(grammarTab);
  EXPECT_FALSE(diagnostics->isHidden());
  EXPECT_FALSE(nonterminals->isHidden());
  // A dock the user closed stays closed.
  nonterminals->hide();
  window.documentTabs()->setCurrentWidget(ds);
  window.documentTabs()->setCurrentIndex(grammarTab);
  EXPECT_FALSE(diagnostics->isHidden());
  EXPECT_TRUE(nonterminals->isHidden());
  // The saved layout has the docks as the user left them, even with the stepper in front.
  window.documentTabs()->setCurrentWidget(ds);
  EXPECT_TRUE(diagnostics->isHidden());
  const Workspace workspace = window.captureWorkspace();
  EXPECT_TRUE(diagnostics->isHidden());
  QMainWindow probe;
  auto* probeDiagnostics = new QDockWidget(&probe);
  probeDiagnostics->setObjectName(QStringLiteral("diagnosticsDock"));
  probe.addDockWidget(Qt::BottomDockWidgetArea, probeDiagnostics);
  probeDiagnostics->hide();
  ASSERT_TRUE(probe.restoreState(workspace.windowState));
  EXPECT_FALSE(probeDiagnostics->isHidden());
}

// Every DyLan grammar folder opens, parses and steps in the stepper, folded and unfolded,
// forwards and back, every tree selected (the 2009 grammar used to crash the DAG view).
TEST(DsStepperGrammarsTest, EveryDyLanGrammarOpensParsesAndSteps) {
  GWB_REQUIRE_SHARED(dylan, "data/dylan");
  int grammars = 0;
  for (const QFileInfo& folder :
       QDir(QString::fromStdString(dylan)).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    if (!QFileInfo::exists(folder.filePath() + QStringLiteral("/computational-actions.txt")))
      continue;
    SCOPED_TRACE(folder.fileName().toStdString());
    ++grammars;
    DsStepperView view;
    view.resize(1600, 1000);
    view.show();
    view.setGrammarDirectory(folder.filePath());
    view.setSentence(QStringLiteral("john likes mary"));
    ASSERT_TRUE(view.parse());
    ASSERT_TRUE(view.waitForParse());
    ASSERT_TRUE(view.dagModel()->result() != nullptr) << view.statusText().toStdString();
    for (const bool collapsed : {true, false}) {
      view.dagView()->setCollapsed(collapsed);
      DsDagModel* model = view.dagModel();
      while (model->stepForward()) ASSERT_TRUE(view.dagView()->geometry().ok());
      for (int id = 0; id < model->visibleNodes(); ++id) {
        view.selectNode(id);
        EXPECT_TRUE(view.dagView()->isNodeDrawn(id)) << id;
      }
      while (model->previousWord()) ASSERT_TRUE(view.dagView()->geometry().ok());
      EXPECT_EQ(model->visibleEdges(), 0);
      EXPECT_EQ(view.dagView()->drawnNodeCount(), 1);
    }
  }
  EXPECT_GE(grammars, 4);
}

}  // namespace
}  // namespace gwb::ui
