// The stepper view end to end: the controls drive the chart, strip, plot and explanation in
// step; the surprisal plot shows the parser's numbers; and a 2,000-token recording with the
// discourse grammar parses off the UI thread, with progress and cancel, without freezing it.
#include "ui/earley/stepper_view.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <iostream>
#include <thread>

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

#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "qt_printers.h"
#include "session_fixtures.h"
#include "shared_data.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/sentence_strip.h"
#include "ui/earley/surprisal_plot.h"
#include "ui/grounded/corpus_document.h"
#include "ui/grounded/corpus_view.h"

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
  ASSERT_TRUE(QTest::qWaitForWindowActive(&view_, 600000));
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
  const gwb::ParseEvent& last = view_.session()->trace().event(afterWord - 1);
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
    const gwb::ParseEvent& hit = view_.session()->trace().event(stepper->applied() - 1);
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
    const gwb::ItemRef item = session->trace().event(applied - 1).item;
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

// How a parse that finds no sentence ended, in the status line and in the explanation: a valid
// unfinished prefix is not "stuck at word 0", and an unknown word is named.
TEST_F(StepperViewTest, ANoParseSaysWhichWordOrThatTheSentenceEnded) {
  view_.setSentence(QStringLiteral("i saw the man with"));
  ASSERT_TRUE(view_.waitForParse());
  view_.stepper()->runToEnd();
  EXPECT_TRUE(
      view_.statusText().contains(QStringLiteral("the sentence ended before a complete parse")))
      << view_.statusText().toStdString();
  EXPECT_FALSE(view_.statusText().contains(QStringLiteral("word 0")));
  EXPECT_TRUE(view_.explanationView()->toPlainText().contains(
      QStringLiteral("the sentence ended before a complete parse")));

  view_.setSentence(QStringLiteral("i saw the zebra"));
  ASSERT_TRUE(view_.waitForParse());
  view_.stepper()->runToEnd();
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("word 4")))
      << view_.statusText().toStdString();
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("zebra")));
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("could not be scanned")));
  const QString explanation = view_.explanationView()->toPlainText();
  EXPECT_TRUE(explanation.contains(QStringLiteral("zebra"))) << explanation.toStdString();
  EXPECT_TRUE(explanation.contains(QStringLiteral("no rule for"))) << explanation.toStdString();

  // A known word where the grammar cannot take it.
  view_.setSentence(QStringLiteral("i saw saw"));
  ASSERT_TRUE(view_.waitForParse());
  view_.stepper()->runToEnd();
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("word 3")))
      << view_.statusText().toStdString();
  EXPECT_TRUE(view_.explanationView()->toPlainText().contains(QStringLiteral("knows")));
}

// A parse whose largest state set would not fit the trace's memory budget is shown finished,
// with a message saying so, instead of running out of memory.
TEST(StepperSessionTest, AParseTooLargeToStepIsShownFinishedWithAMessage) {
  ParseRequest request;
  request.grammar = loadSampleGrammar();
  request.words = gwb::tokenize(kAmbiguous);
  request.traceBudgetBytes = 64;  // far below any set's operations
  const auto session = ParseSession::run(request);
  ASSERT_TRUE(session->result().success);
  EXPECT_FALSE(session->steppable());
  EXPECT_TRUE(session->tooLargeText().contains(QStringLiteral("Too large to step through")));
  EarleyStepper stepper;
  stepper.setSession(session);
  EXPECT_EQ(stepper.applied(), session->stepCount());
  stepper.reset();
  stepper.stepBack();
  EXPECT_EQ(stepper.applied(), session->stepCount());
  EXPECT_EQ(session->trace().replays(), 0u);

  request.traceBudgetBytes = 0;  // the default: as much as the chart, at least 256 MiB
  EXPECT_TRUE(ParseSession::run(request)->steppable());
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

  // Declared before the view: a cancelled parse's worker may still read them while the view
  // (which owns its job) waits for it at the end of the test.
  std::atomic<bool> release{false};
  std::atomic<int> lastSet{0};
  StepperView view;
  view.resize(1100, 700);
  view.show();
  view.setGrammar(grammar);

  // Cancel part-way. The parse is held open after its first state set until the test has
  // cancelled it (a hook on the worker thread), so the progress row with its Cancel button must
  // appear however fast the machine is, and the cancel always lands mid-parse.
  view.setParseHook([&](int position) {
    lastSet.store(position);
    while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  view.setSentence(text);
  ASSERT_TRUE(view.isParsing());
  // The condition is certain to become true; the bound only keeps a broken build from hanging.
  EXPECT_TRUE(QTest::qWaitFor(
      [&] { return view.findChild<QPushButton*>(QStringLiteral("cancelParse"))->isVisible(); },
      600000));
  view.cancelParse();
  EXPECT_FALSE(view.isParsing());
  EXPECT_FALSE(view.findChild<QPushButton*>(QStringLiteral("cancelParse"))->isVisible());
  release.store(true);
  view.setParseHook({});
  EXPECT_EQ(lastSet.load(), 1);  // the cancelled parse never got past its first word

  // A full parse, while a timer on the UI thread keeps ticking. How long the UI thread paused
  // is printed, not asserted: a loaded machine may pause any thread (see the benchmarks).
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
  ASSERT_TRUE(view.waitForParse(600000));
  ticker.stop();
  const qint64 total = clock.elapsed();
  std::cout << "parse " << total << " ms; longest pause of the UI thread " << longestGap << " ms\n";
  ASSERT_TRUE(view.session());
  EXPECT_TRUE(view.session()->result().success);
  EXPECT_EQ(view.chartModel()->columnCount(), 2039);

  // Jumps across the whole chart: the model only touches the sets in between and the view
  // asks only for visible cells (the time is printed, not asserted).
  QElapsedTimer jumps;
  jumps.start();
  view.stepper()->runToEnd();
  view.stepper()->runToPosition(1000);
  view.stepper()->reset();
  view.stepper()->runToPosition(2038);
  QApplication::processEvents();
  std::cout << "jumps " << jumps.elapsed() << " ms\n";
  EXPECT_EQ(view.chartModel()->shownInSet(2038),
            static_cast<int>(view.session()->chart().set(2038).size()));
}

// "Parse whole file" on the whole corpus (51,665 tokens, about 240,000 characters) parses every
// token: the sentence box once kept only the first 32,767 characters (a line edit's default
// maximum) and said "no parse" for the cut-off word. The paper's headline case, as one string.
TEST(StepperViewLongTest, TheWholeCorpusParsesFromItsCorpusTab) {
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld.concat");
  gwb::GrammarReadOptions options;
  options.root = "Discourse";
  options.runChecks = false;
  auto load = gwb::loadGrammarFile(grammarPath, options);
  ASSERT_TRUE(load.ok());
  QString error;
  std::unique_ptr<CorpusDocument> document =
      CorpusDocument::load(QString::fromStdString(corpusPath), &error);
  ASSERT_TRUE(document) << error.toStdString();
  // What a parser reads: every token of the file (objects, cues, words), as the CLI reads it.
  const auto tokens = static_cast<int>(gwb::tokenize(document->allText().toStdString()).size());
  ASSERT_EQ(tokens, 51665);
  CorpusView corpus(std::move(document));
  StepperView view;
  view.setGrammar(std::make_shared<const gwb::Grammar>(std::move(load.grammar)));
  QObject::connect(&corpus, &CorpusView::parseRequested, &view, &StepperView::setSentence);
  QPushButton* parseAll = nullptr;
  for (QPushButton* button : corpus.findChildren<QPushButton*>())
    if (button->text() == QStringLiteral("Parse whole file")) parseAll = button;
  ASSERT_NE(parseAll, nullptr);
  parseAll->click();
  ASSERT_TRUE(view.waitForParse(1800000));
  ASSERT_TRUE(view.session());
  EXPECT_GT(view.sentence().size(), 32767);
  EXPECT_EQ(view.session()->words().size(), static_cast<std::size_t>(tokens));
  EXPECT_TRUE(view.session()->result().success);
  EXPECT_TRUE(view.session()->steppable()) << view.session()->tooLargeText().toStdString();
  // And it steps: into the middle of the discourse and to its end.
  view.stepper()->runToPosition(25000);
  view.stepper()->stepForward();
  EXPECT_EQ(view.session()->currentSet(view.stepper()->applied()), 25001u);
  EXPECT_TRUE(view.explanationView()->toPlainText().contains(QStringLiteral("STEP")));
  view.stepper()->runToEnd();
  EXPECT_TRUE(view.statusText().contains(QStringLiteral("parsed")));
  EXPECT_EQ(view.strip()->words().size(), tokens);
}

}  // namespace
}  // namespace gwb::ui
