// The stepper view end to end: the controls drive the chart, strip, plot and explanation in
// step; the surprisal plot shows the parser's numbers; and a 2,000-token recording with the
// discourse grammar parses off the UI thread, with progress and cancel, without freezing it.
#include "ui/stepper_view.h"

#include <algorithm>
#include <cmath>
#include <iostream>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <gtest/gtest.h>

#include "gwb/grammar_io.h"
#include "qt_printers.h"
#include "session_fixtures.h"
#include "shared_data.h"
#include "ui/parse_session.h"
#include "ui/sentence_strip.h"
#include "ui/surprisal_plot.h"

namespace gwb::ui {
namespace {

using testing::kAmbiguous;
using testing::loadSampleGrammar;

class StepperViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.resize(1100, 700);
    view_.setGrammar(loadSampleGrammar());
    view_.setSentence(QString::fromLatin1(kAmbiguous));
    ASSERT_TRUE(view_.waitForParse());
    ASSERT_TRUE(view_.session());
  }
  StepperView view_;
};

TEST_F(StepperViewTest, SurprisalPlotShowsTheParsersNumbers) {
  const gwb::ParseResult& result = view_.session()->result();
  SurprisalPlot* plot = view_.surprisalPlot();
  for (const auto unit : {SurprisalPlot::Unit::Nats, SurprisalPlot::Unit::Bits}) {
    view_.setSurprisalUnit(unit);
    const double k = unit == SurprisalPlot::Unit::Bits ? 1.0 / std::log(2.0) : 1.0;
    const QVector<double> bars = plot->barValues();
    ASSERT_EQ(bars.size(), static_cast<qsizetype>(result.surprisal.size()));
    for (qsizetype i = 0; i < bars.size(); ++i)
      EXPECT_DOUBLE_EQ(bars[i], result.surprisal[static_cast<std::size_t>(i)] * k);
    const QVector<double> prefix = plot->prefixValues();
    ASSERT_EQ(prefix.size(), static_cast<qsizetype>(result.logPrefixProbability.size()));
    for (qsizetype i = 0; i < prefix.size(); ++i)
      EXPECT_DOUBLE_EQ(prefix[i], result.logPrefixProbability[static_cast<std::size_t>(i)] * k);
  }
  // The surprisals add up to the prefix probability of the whole sentence.
  double total = 0;
  for (double s : result.surprisal) total += s;
  EXPECT_NEAR(-total, result.logPrefixProbability.back(), 1e-9);
}

TEST_F(StepperViewTest, ControlsMoveEveryPartTogether) {
  // Shortcuts reach only an active window.
  view_.show();
  view_.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&view_));
  view_.chartView()->setFocus();
  EarleyStepper* stepper = view_.stepper();
  EXPECT_EQ(stepper->applied(), 0u);
  EXPECT_TRUE(view_.explanationView()->toPlainText().contains(QStringLiteral("Ready to parse")));

  // F11: the first word is read; the strip, the plot and the chart follow.
  QTest::keyClick(view_.chartView(), Qt::Key_F11);
  const std::size_t afterWord = stepper->applied();
  ASSERT_GT(afterWord, 0u);
  EXPECT_EQ(view_.strip()->currentPosition(), 1);
  EXPECT_EQ(view_.surprisalPlot()->position(), 1);
  EXPECT_EQ(view_.chartModel()->applied(), afterWord);
  EXPECT_TRUE(view_.explanationView()->toPlainText().startsWith(QStringLiteral("STEP")));
  EXPECT_TRUE(view_.explanationView()->toPlainText().contains(QStringLiteral("scan:")));

  // F10 and Shift+F10 step one operation each way.
  QTest::keyClick(view_.chartView(), Qt::Key_F10);
  EXPECT_EQ(stepper->applied(), afterWord + 1);
  QTest::keyClick(view_.chartView(), Qt::Key_F10, Qt::ShiftModifier);
  EXPECT_EQ(stepper->applied(), afterWord);

  // Selecting an item marks its span on the strip and explains it.
  const gwb::ParseEvent& last = view_.session()->trace().events()[afterWord - 1];
  view_.selectItem(last.item);
  EXPECT_EQ(view_.strip()->spanLeft(), view_.session()->chart().item(last.item).origin);
  EXPECT_EQ(view_.strip()->spanRight(), last.item.set);
  EXPECT_TRUE(view_.explanationView()->toPlainText().contains(QStringLiteral("SELECTED ITEM")));

  // F9 on the selection adds a breakpoint on its symbol; F5 runs to its next hit.
  QTest::keyClick(view_.chartView(), Qt::Key_F9);
  ASSERT_EQ(stepper->breakpoints().size(), 1u);
  const QString symbol = stepper->breakpoints().front().symbol;
  QTest::keyClick(view_.chartView(), Qt::Key_F5);
  ASSERT_GT(stepper->applied(), afterWord);
  if (!stepper->atEnd()) {
    const gwb::ParseEvent& hit = view_.session()->trace().events()[stepper->applied() - 1];
    EXPECT_EQ(view_.session()->symbolName(view_.session()->lhs(hit.item)), symbol);
  }
  // Shift+F5 resets; Ctrl+F10 runs to the position clicked in the strip.
  QTest::keyClick(view_.chartView(), Qt::Key_F5, Qt::ShiftModifier);
  EXPECT_EQ(stepper->applied(), 0u);
  view_.strip()->setTargetPosition(3);
  QTest::keyClick(view_.chartView(), Qt::Key_F10, Qt::ControlModifier);
  EXPECT_EQ(stepper->applied(), view_.session()->stepsBeforeSet(4));

  // Filters and number formats reach the model.
  view_.setFilter({true, false, QStringLiteral("NP")});
  EXPECT_TRUE(view_.chartModel()->filter().hidePredicted);
  EXPECT_EQ(view_.chartModel()->filter().symbol, QStringLiteral("NP"));
  view_.setNumberFormat(NumberFormat::LogProbability);
  EXPECT_EQ(view_.chartModel()->numberFormat(), NumberFormat::LogProbability);
}

TEST_F(StepperViewTest, StateRoundTripsThroughJson) {
  view_.stepper()->runToPosition(4);
  view_.stepper()->addBreakpoint({gwb::OperationKind::Complete, QStringLiteral("PP"), true});
  view_.setFilter({false, true, QString()});
  view_.setNumberFormat(NumberFormat::Scaled);
  view_.setSurprisalUnit(SurprisalPlot::Unit::Nats);
  const gwb::ItemRef item{3, 1};
  view_.selectItem(item);
  const QJsonObject state = view_.state();

  StepperView other;
  other.setGrammar(loadSampleGrammar());
  other.restoreState(state);
  ASSERT_TRUE(other.waitForParse());
  EXPECT_EQ(other.sentence(), view_.sentence());
  EXPECT_EQ(other.stepper()->applied(), view_.stepper()->applied());
  EXPECT_EQ(other.stepper()->breakpoints(), view_.stepper()->breakpoints());
  EXPECT_EQ(other.chartModel()->filter(), view_.chartModel()->filter());
  EXPECT_EQ(other.chartModel()->numberFormat(), NumberFormat::Scaled);
  EXPECT_EQ(other.surprisalPlot()->unit(), SurprisalPlot::Unit::Nats);
  EXPECT_EQ(other.selectedItem(), item);
  EXPECT_EQ(other.state(), state);
}

// The breakpoint bar names the two sides of a completion: "PP completed" stops where a PP item
// is finished; old workspaces' "complete PP" meant that too.
TEST_F(StepperViewTest, BreakpointKindsNameBothSidesOfCompletion) {
  auto* kinds = view_.findChild<QComboBox*>(QStringLiteral("breakpointKindBox"));
  auto* symbol = view_.findChild<QLineEdit*>(QStringLiteral("breakpointSymbolEdit"));
  ASSERT_NE(kinds, nullptr);
  ASSERT_NE(symbol, nullptr);
  const int finished = kinds->findData(QStringLiteral("finished"));
  const int advanced = kinds->findData(QStringLiteral("advanced-over"));
  ASSERT_GE(finished, 0);
  ASSERT_GE(advanced, 0);
  EXPECT_TRUE(kinds->itemText(finished).contains(QStringLiteral("completed")));
  EXPECT_TRUE(kinds->itemText(advanced).contains(QStringLiteral("advanced over")));
  kinds->setCurrentIndex(finished);
  symbol->setText(QStringLiteral("PP"));
  QTest::keyClick(symbol, Qt::Key_Return);
  ASSERT_EQ(view_.breakpointList()->count(), 1);
  EXPECT_EQ(view_.breakpointList()->item(0)->text(),
            QStringLiteral("PP completed (a PP item finished)"));

  const auto stopsOnAFinishedPP = [](StepperView& view) {
    view.stepper()->reset();
    view.stepper()->runToEnd();
    const std::size_t applied = view.stepper()->applied();
    if (applied == 0 || view.stepper()->atEnd()) return false;
    const std::shared_ptr<const ParseSession>& session = view.session();
    const gwb::ItemRef item = session->trace().events()[applied - 1].item;
    return session->symbolName(session->lhs(item)) == QLatin1String("PP") &&
           session->isFinished(item);
  };
  EXPECT_TRUE(stopsOnAFinishedPP(view_));

  // A workspace written before the sides had names.
  QJsonObject state = view_.state();
  state.insert(QStringLiteral("breakpoints"),
               QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("complete")},
                                      {QStringLiteral("symbol"), QStringLiteral("PP")},
                                      {QStringLiteral("enabled"), true}}});
  StepperView old;
  old.setGrammar(loadSampleGrammar());
  old.restoreState(state);
  ASSERT_TRUE(old.waitForParse());
  ASSERT_EQ(old.stepper()->breakpoints().size(), 1u);
  EXPECT_EQ(old.stepper()->breakpoints()[0].match, Breakpoint::Match::Finished);
  EXPECT_TRUE(stopsOnAFinishedPP(old));
}

// Ticking Textbook parses again without look-ahead: the words read stay read, and the chart
// shows the columns of that position rather than wherever it was scrolled before.
TEST_F(StepperViewTest, TextbookModeKeepsThePositionAndScrollsTheChartWithIt) {
  view_.show();
  view_.stepper()->runToPosition(3);
  QTableView* chart = view_.chartView();
  QApplication::processEvents();
  chart->horizontalScrollBar()->setValue(chart->horizontalScrollBar()->maximum());
  ASSERT_GT(chart->horizontalScrollBar()->value(), 0);
  const std::size_t lookaheadSteps = view_.session()->stepCount();

  view_.setLookahead(false);
  ASSERT_TRUE(view_.waitForParse());
  ASSERT_FALSE(view_.session()->lookahead());
  EXPECT_NE(view_.session()->stepCount(), lookaheadSteps);  // another parse indeed
  EXPECT_EQ(view_.stepper()->applied(), view_.session()->stepsBeforeSet(4));
  EXPECT_EQ(view_.strip()->currentPosition(), 3);
  QApplication::processEvents();
  const int x = chart->columnViewportPosition(3);
  EXPECT_GE(x, 0);
  EXPECT_LT(x, chart->viewport()->width());
}

// The parser's arithmetic and the chart's number format are two different settings: each has
// its own label, and their choices share no leading word ("Log arithmetic" / "Log
// probabilities" used to look like one control shown twice).
TEST_F(StepperViewTest, TheTwoNumberSettingsAreNamedApart) {
  auto* arithmetic = view_.findChild<QComboBox*>(QStringLiteral("arithmeticBox"));
  auto* format = view_.findChild<QComboBox*>(QStringLiteral("numberFormatBox"));
  ASSERT_NE(arithmetic, nullptr);
  ASSERT_NE(format, nullptr);
  QString arithmeticLabel;
  QString formatLabel;
  for (const QLabel* label : view_.findChildren<QLabel*>()) {
    if (label->buddy() == arithmetic) arithmeticLabel = label->text();
    if (label->buddy() == format) formatLabel = label->text();
  }
  EXPECT_FALSE(arithmeticLabel.isEmpty());
  EXPECT_FALSE(formatLabel.isEmpty());
  EXPECT_NE(arithmeticLabel, formatLabel);
  const auto firstWords = [](const QComboBox* box) {
    QStringList words;
    for (int i = 0; i < box->count(); ++i)
      words << box->itemText(i).section(QLatin1Char(' '), 0, 0).toLower();
    return words;
  };
  for (const QString& word : firstWords(arithmetic))
    EXPECT_FALSE(firstWords(format).contains(word)) << word.toStdString();
}

// Position numbers of four digits and more fit their markers (they were clipped at 1000), and
// neighbouring markers never overlap.
TEST(SentenceStripTest, LongSentencesKeepTheirPositionNumbersReadable) {
  SentenceStrip strip;
  QStringList words;
  for (int i = 0; i < 1200; ++i) words << QStringLiteral("a");
  strip.setWords(words);
  const QFontMetrics metrics(strip.font());
  for (const int p : {7, 99, 999, 1000, 1001, 1199}) {
    SCOPED_TRACE(p);
    const QRect marker = strip.markerRect(p);
    // The numbers are drawn at 80% of the strip's font.
    EXPECT_GE(marker.width(), 0.8 * metrics.horizontalAdvance(QString::number(p)) + 4);
    EXPECT_LT(marker.right(), strip.markerRect(p + 1).left());
    EXPECT_NEAR(marker.center().x(), strip.positionX(p), 1);
  }
  EXPECT_GT(strip.markerRect(1000).width(), strip.markerRect(7).width());
  EXPECT_LE(strip.markerRect(1200).right(), strip.width());
}

// The longest thing the stepper is asked to show: a whole recording (2,038 tokens) with the
// discourse grammar (35,764 rules). The UI thread must keep running while it parses.
TEST(StepperViewLongTest, ARecordingParsesOffTheUiThread) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(recording, "data/social-cues/recordings/A12.concat");
  gwb::GrammarReadOptions options;
  options.root = "Discourse";
  auto load = gwb::loadGrammarFile(grammarPath, options);
  ASSERT_TRUE(load.ok());
  const auto grammar = std::make_shared<const gwb::Grammar>(std::move(load.grammar));
  QFile file(QString::fromStdString(recording));
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(file.readAll()).simplified();

  StepperView view;
  view.resize(1100, 700);
  view.show();
  view.setGrammar(grammar);

  // Cancel part-way. The recording alone parses in a fraction of a second, quicker than the
  // progress row appears, so the parse to cancel is of the recording eight times over.
  QStringList copies;
  for (int k = 0; k < 8; ++k) copies << text;
  view.setSentence(copies.join(QLatin1Char(' ')));
  ASSERT_TRUE(view.isParsing());
  EXPECT_TRUE(QTest::qWaitFor(
      [&] { return view.findChild<QPushButton*>(QStringLiteral("cancelParse"))->isVisible(); },
      10000));
  view.cancelParse();
  EXPECT_FALSE(view.isParsing());
  view.setSentence(text);

  // A full parse, while a timer on the UI thread keeps ticking.
  QElapsedTimer clock;
  qint64 lastTick = 0;
  qint64 longestGap = 0;
  QTimer ticker;
  ticker.setInterval(10);
  QObject::connect(&ticker, &QTimer::timeout, &ticker, [&] {
    const qint64 now = clock.elapsed();
    longestGap = std::max(longestGap, now - lastTick);
    lastTick = now;
  });
  clock.start();
  ticker.start();
  view.parse();
  ASSERT_TRUE(view.waitForParse(120000));
  ticker.stop();
  const qint64 total = clock.elapsed();
  std::cout << "parse " << total << " ms; longest pause of the UI thread " << longestGap << " ms\n";
  ASSERT_TRUE(view.session());
  EXPECT_TRUE(view.session()->result().success);
  EXPECT_EQ(view.chartModel()->columnCount(), 2039);
  // The event loop never stopped for long while the worker parsed (a generous bound for a
  // loaded debug build; the parse itself takes seconds).
  EXPECT_LT(longestGap, std::max<qint64>(1500, total / 3));

  // Jumps across the whole chart are quick: the model only touches the sets in between and the
  // view asks only for visible cells.
  QElapsedTimer jumps;
  jumps.start();
  view.stepper()->runToEnd();
  view.stepper()->runToPosition(1000);
  view.stepper()->reset();
  view.stepper()->runToPosition(2038);
  QApplication::processEvents();
  EXPECT_LT(jumps.elapsed(), 5000);
  EXPECT_EQ(view.chartModel()->shownInSet(2038),
            static_cast<int>(view.session()->chart().set(2038).size()));
}

}  // namespace
}  // namespace gwb::ui
