// The arc view: layout (no two arcs or labels overlap, shortest spans nearest the words),
// clicks, double-clicks and tooltips, scrolling for long sentences, and — in the stepper — the
// same items as the column view, with the selection shared both ways.
#include "ui/earley/arc_view.h"

#include <QApplication>
#include <QHelpEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTest>
#include <QToolTip>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "session_fixtures.h"
#include "ui/earley/chart_arc_link.h"
#include "ui/earley/chart_model.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/stepper_view.h"

namespace gwb::ui {
namespace {

using testing::kAmbiguous;
using testing::loadSampleGrammar;

std::vector<ChartArc> sampleArcs() {
  // [0, 0] predicted, [0, 1] scanned, [1, 3] and [0, 3] completed.
  const auto arc = [](qint64 key, int origin, int end, const char* label, gwb::OperationKind kind,
                      bool finished) {
    ChartArc a;
    a.key = key;
    a.origin = origin;
    a.end = end;
    a.label = QString::fromUtf8(label);
    a.madeBy = kind;
    a.finished = finished;
    a.toolTip = QStringLiteral("tip %1").arg(key);
    return a;
  };
  return {arc(1, 0, 0, "S → . NP VP", gwb::OperationKind::Predict, false),
          arc(2, 0, 1, "NP → i .", gwb::OperationKind::Scan, true),
          arc(3, 1, 3, "VP → V NP .", gwb::OperationKind::Complete, true),
          arc(4, 0, 3, "S → NP VP .", gwb::OperationKind::Complete, true),
          arc(5, 0, 1, "S → NP . VP", gwb::OperationKind::Complete, false)};
}

void expectNoOverlaps(const ArcView& view) {
  const std::vector<ChartArc>& arcs = view.arcs();
  for (std::size_t a = 0; a < arcs.size(); ++a)
    for (std::size_t b = a + 1; b < arcs.size(); ++b)
      EXPECT_FALSE(view.arcRect(arcs[a].key).intersects(view.arcRect(arcs[b].key)))
          << arcs[a].label.toStdString() << " overlaps " << arcs[b].label.toStdString();
}

TEST(ArcViewTest, LaysArcsOutInLanesWithoutOverlaps) {
  ArcView view;
  view.resize(600, 300);
  view.setWords({QStringLiteral("i"), QStringLiteral("saw"), QStringLiteral("him")});
  view.setArcs(sampleArcs());
  view.show();
  expectNoOverlaps(view);
  // Shorter spans sit nearer the words (lower on the canvas).
  EXPECT_GT(view.arcRect(2).bottom(), view.arcRect(4).bottom());
  EXPECT_GT(view.arcRect(3).bottom(), view.arcRect(4).bottom());
  // An arc covers its span: from position l to position r.
  EXPECT_LT(view.arcRect(4).left(), view.arcRect(3).left());
  EXPECT_GE(view.arcRect(4).right(), view.arcRect(3).right());
  EXPECT_GE(view.laneCount(), 3);
  for (const ChartArc& arc : view.arcs()) {
    const std::optional<qint64> hit = view.keyAt(view.arcRect(arc.key).center());
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(*hit, arc.key);
  }
  EXPECT_FALSE(view.keyAt(QPoint(2, 2)).has_value());
}

TEST(ArcViewTest, ClicksSelectDoubleClicksActivateAndHoverShowsTheValues) {
  ArcView view;
  view.resize(600, 300);
  view.setWords({QStringLiteral("i"), QStringLiteral("saw"), QStringLiteral("him")});
  view.setArcs(sampleArcs());
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view, 600000));
  QSignalSpy clicked(&view, &ArcView::arcClicked);
  QSignalSpy activated(&view, &ArcView::arcDoubleClicked);
  const QPoint at = view.arcRect(3).center();
  QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, at);
  ASSERT_EQ(clicked.size(), 1);
  EXPECT_EQ(clicked[0][0].toLongLong(), 3);
  EXPECT_EQ(view.selectedKey(), std::optional<qint64>(3));
  QTest::mouseDClick(view.canvas(), Qt::LeftButton, {}, view.arcRect(4).center());
  ASSERT_GE(activated.size(), 1);
  EXPECT_EQ(activated.last()[0].toLongLong(), 4);
  // Hover: the arc's own tooltip.
  QHelpEvent help(QEvent::ToolTip, view.arcRect(2).center(),
                  view.canvas()->mapToGlobal(view.arcRect(2).center()));
  QApplication::sendEvent(view.canvas(), &help);
  EXPECT_TRUE(QToolTip::isVisible());
  EXPECT_EQ(QToolTip::text(), QStringLiteral("tip 2"));
  QToolTip::hideText();
  // A key that is gone clears the selection.
  view.setArcs({});
  EXPECT_FALSE(view.selectedKey().has_value());
}

TEST(ArcViewTest, LongSentencesScrollAndTheSelectionIsScrolledIntoView) {
  ArcView view;
  view.resize(500, 250);
  QStringList words;
  std::vector<ChartArc> arcs;
  for (int i = 0; i < 40; ++i) {
    words << QStringLiteral("w%1").arg(i);
    ChartArc arc;
    arc.key = i;
    arc.origin = i;
    arc.end = i + 1;
    arc.label = QStringLiteral("X → w%1 .").arg(i);
    arc.madeBy = gwb::OperationKind::Scan;
    arcs.push_back(arc);
  }
  view.setWords(words);
  view.setArcs(arcs);
  view.show();
  QApplication::processEvents();
  EXPECT_GT(view.horizontalScrollBar()->maximum(), 0);
  EXPECT_EQ(view.horizontalScrollBar()->value(), 0);
  view.setSelectedKey(39);
  EXPECT_GT(view.horizontalScrollBar()->value(), 0);
  expectNoOverlaps(view);
}

class StepperArcsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.resize(1200, 800);
    view_.setGrammar(loadSampleGrammar());
    view_.setSentence(QString::fromLatin1(kAmbiguous));
    ASSERT_TRUE(view_.waitForParse());
    ASSERT_TRUE(view_.session());
    view_.stepper()->runToEnd();
    QApplication::processEvents();
  }
  int shownItems() const {
    int shown = 0;
    for (int c = 0; c < view_.chartModel()->columnCount(); ++c)
      shown += view_.chartModel()->shownInSet(c);
    return shown;
  }
  StepperView view_;
};

TEST_F(StepperArcsTest, ShowsWhatTheColumnViewShows) {
  ArcView* arcs = view_.arcView();
  ASSERT_NE(arcs, nullptr);
  EXPECT_EQ(arcs->words().size(), 7);
  const gwb::EarleyChart& chart = view_.session()->chart();
  ASSERT_EQ(static_cast<int>(arcs->arcs().size()), shownItems());
  EXPECT_EQ(arcs->arcs().size(), chart.itemCount());
  for (const ChartArc& arc : arcs->arcs()) {
    const gwb::ItemRef ref = ChartArcLink::itemOf(arc.key);
    EXPECT_EQ(arc.end, ref.set);
    EXPECT_EQ(arc.origin, chart.item(ref).origin);
    EXPECT_EQ(arc.finished, view_.session()->isFinished(ref));
    EXPECT_TRUE(arc.toolTip.contains(QStringLiteral("forward"))) << arc.toolTip.toStdString();
  }
  // Readable: on the PP-attachment chart no two arcs or labels overlap.
  expectNoOverlaps(*arcs);
  // Hiding predicted items in the column view hides them among the arcs too.
  view_.setFilter({true, false, QString()});
  QApplication::processEvents();
  EXPECT_EQ(static_cast<int>(arcs->arcs().size()), shownItems());
  EXPECT_LT(arcs->arcs().size(), chart.itemCount());
  for (const ChartArc& arc : arcs->arcs()) EXPECT_NE(arc.madeBy, gwb::OperationKind::Predict);
  // Back to the start: only the axiom.
  view_.setFilter({});
  view_.stepper()->reset();
  QApplication::processEvents();
  EXPECT_EQ(static_cast<int>(arcs->arcs().size()), shownItems());
}

TEST_F(StepperArcsTest, SelectionIsSharedWithTheColumnView) {
  ArcView* arcs = view_.arcView();
  // Column view → arcs.
  const gwb::ItemRef some{3, 1};
  view_.selectItem(some);
  EXPECT_EQ(arcs->selectedKey(), std::optional<qint64>(ChartArcLink::keyOf(some)));
  // Arcs → column view: a click on an arc selects its item.
  view_.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view_, 600000));
  const gwb::ItemRef other{5, 0};
  const QRect box = arcs->arcRect(ChartArcLink::keyOf(other));
  ASSERT_TRUE(box.isValid());
  arcs->setSelectedKey(ChartArcLink::keyOf(other));  // scrolls it into view
  QTest::mouseClick(arcs->canvas(), Qt::LeftButton, {}, box.center());
  EXPECT_EQ(view_.selectedItem(), other);
  EXPECT_EQ(view_.chartModel()->selectedItem(), other);
}

TEST_F(StepperArcsTest, ThePlaceOfTheArcsBesideOrBelowTheColumnsCanBeSwitched) {
  auto* splitter = qobject_cast<QSplitter*>(view_.arcView()->parentWidget());
  ASSERT_NE(splitter, nullptr);
  EXPECT_EQ(splitter->widget(0), view_.chartView());
  EXPECT_EQ(splitter->orientation(), Qt::Vertical);
  view_.arcView()->toggleSplitterOrientation();
  EXPECT_EQ(splitter->orientation(), Qt::Horizontal);
  view_.arcView()->toggleSplitterOrientation();
  EXPECT_EQ(splitter->orientation(), Qt::Vertical);
}

}  // namespace
}  // namespace gwb::ui
