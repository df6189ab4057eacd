// The stepper's controls as jumps over the recorded operations.
#include "ui/earley/earley_stepper.h"

#include <functional>
#include <optional>
#include <vector>

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "session_fixtures.h"

namespace gwb::ui {
namespace {

using testing::kAmbiguous;
using testing::loadSampleGrammar;
using testing::parseSentence;

// Waits below are for conditions certain to come true (a play at 1,000 operations a second
// through a short parse); the bound only stops a broken build from hanging, so it is generous
// enough for any loaded machine.
constexpr int kCertainWithinMs = 600000;

class EarleyStepperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = parseSentence(loadSampleGrammar(), kAmbiguous);
    stepper_.setSession(session_);
    events_ = testing::allEvents(*session_);
  }
  const std::vector<gwb::ParseEvent>& events() const { return events_; }
  std::shared_ptr<const ParseSession> session_;
  std::vector<gwb::ParseEvent> events_;
  EarleyStepper stepper_;
};

TEST_F(EarleyStepperTest, StepsForwardAndBackOneOperationAtATime) {
  QSignalSpy moved(&stepper_, &EarleyStepper::moved);
  EXPECT_TRUE(stepper_.atStart());
  stepper_.stepBack();  // nothing before the start
  EXPECT_EQ(moved.count(), 0);
  for (std::size_t i = 1; i <= stepper_.stepCount(); ++i) {
    stepper_.stepForward();
    ASSERT_EQ(stepper_.applied(), i);
    EXPECT_EQ(moved.last().at(0).value<std::size_t>(), i);
    EXPECT_EQ(moved.last().at(1).value<std::size_t>(), i - 1);
  }
  EXPECT_TRUE(stepper_.atEnd());
  stepper_.stepForward();
  EXPECT_EQ(stepper_.applied(), stepper_.stepCount());
  stepper_.stepBack();
  EXPECT_EQ(stepper_.applied(), stepper_.stepCount() - 1);
  stepper_.reset();
  EXPECT_EQ(stepper_.applied(), 0u);
}

TEST_F(EarleyStepperTest, NextWordReadsAWholeWord) {
  // Each press ends right after the last scan of the next word.
  for (std::size_t word = 1; word <= session_->words().size(); ++word) {
    stepper_.nextWord();
    const std::size_t applied = stepper_.applied();
    ASSERT_GT(applied, 0u);
    const gwb::ParseEvent& last = events()[applied - 1];
    EXPECT_EQ(last.kind, gwb::OperationKind::Scan);
    EXPECT_EQ(static_cast<std::size_t>(last.item.set), word);
    if (applied < events().size()) {
      const gwb::ParseEvent& next = events()[applied];
      EXPECT_FALSE(next.kind == gwb::OperationKind::Scan &&
                   static_cast<std::size_t>(next.item.set) == word);
    }
  }
  stepper_.nextWord();  // no word left: to the end
  EXPECT_TRUE(stepper_.atEnd());

  // previousWord walks the same stops backwards.
  std::vector<std::size_t> stops;
  stepper_.reset();
  for (std::size_t word = 1; word <= session_->words().size(); ++word) {
    stepper_.nextWord();
    stops.push_back(stepper_.applied());
  }
  stepper_.runToEnd();
  for (auto it = stops.rbegin(); it != stops.rend(); ++it) {
    stepper_.previousWord();
    EXPECT_EQ(stepper_.applied(), *it);
  }
  stepper_.previousWord();
  EXPECT_EQ(stepper_.applied(), 0u);
}

TEST_F(EarleyStepperTest, RunToPositionFinishesThatStateSet) {
  for (int position = 0; position <= static_cast<int>(session_->words().size()); ++position) {
    stepper_.reset();
    stepper_.runToPosition(position);
    const std::size_t applied = stepper_.applied();
    // Every operation so far worked on sets up to `position`; the next one on a later set.
    for (std::size_t i = 0; i < applied; ++i) ASSERT_LE(events()[i].item.set, position);
    if (applied < events().size()) {
      EXPECT_GT(events()[applied].item.set, position);
    } else {
      EXPECT_EQ(position, static_cast<int>(session_->words().size()));
    }
    // Running to an earlier position steps back.
    if (position > 0) {
      stepper_.runToPosition(position - 1);
      EXPECT_LT(stepper_.applied(), applied);
    }
  }
}

TEST_F(EarleyStepperTest, RunToEndStopsAtBreakpoints) {
  QSignalSpy hits(&stepper_, &EarleyStepper::breakpointHit);
  stepper_.runToEnd();
  EXPECT_TRUE(stepper_.atEnd());
  EXPECT_EQ(hits.count(), 0);

  // A breakpoint on completions of PP: stops right after each one, in order.
  stepper_.reset();
  stepper_.addBreakpoint({gwb::OperationKind::Complete, QStringLiteral("PP"), true});
  std::vector<std::size_t> expected;
  for (std::size_t i = 0; i < events().size(); ++i) {
    if (events()[i].kind == gwb::OperationKind::Complete &&
        session_->symbolName(session_->lhs(events()[i].item)) == QLatin1String("PP"))
      expected.push_back(i + 1);
  }
  ASSERT_GE(expected.size(), 2u);
  for (std::size_t stop : expected) {
    stepper_.runToEnd();
    EXPECT_EQ(stepper_.applied(), stop);
    EXPECT_EQ(stepper_.lastHitBreakpoint(), 0);
  }
  stepper_.runToEnd();
  EXPECT_TRUE(stepper_.atEnd());
  EXPECT_EQ(hits.count(), static_cast<int>(expected.size()));

  // A breakpoint on a word: the scan that reads "telescope".
  stepper_.setBreakpoints({{gwb::OperationKind::Scan, QStringLiteral("telescope"), true}});
  stepper_.reset();
  stepper_.runToEnd();
  ASSERT_GT(stepper_.applied(), 0u);
  EXPECT_EQ(events()[stepper_.applied() - 1].kind, gwb::OperationKind::Scan);
  EXPECT_EQ(events()[stepper_.applied() - 1].item.set, 7);
  // Disabled breakpoints do not stop; any predict does.
  stepper_.setBreakpoints({{gwb::OperationKind::Scan, QStringLiteral("telescope"), false},
                           {gwb::OperationKind::Predict, QString(), true}});
  stepper_.reset();
  stepper_.runToEnd();
  EXPECT_EQ(events()[stepper_.applied() - 1].kind, gwb::OperationKind::Predict);
  EXPECT_EQ(stepper_.lastHitBreakpoint(), 1);
  EXPECT_EQ(Breakpoint({gwb::OperationKind::Complete, QStringLiteral("NP"), true}).describe(),
            QStringLiteral("a NP item advanced (complete)"));
}

// "PP completed" stops where a PP item is finished (PP → P NP •), not where one merely moves
// its dot (PP → P • NP); "an item advanced over PP" stops where a finished PP is used.
TEST_F(EarleyStepperTest, CompletionBreakpointsNameTheirSide) {
  Breakpoint finished{std::nullopt, QStringLiteral("PP"), true, Breakpoint::Match::Finished};
  Breakpoint advancedOver{std::nullopt, QStringLiteral("PP"), true,
                          Breakpoint::Match::AdvancedOver};
  EXPECT_EQ(finished.describe(), QStringLiteral("PP completed (a PP item finished)"));
  EXPECT_EQ(advancedOver.describe(), QStringLiteral("an item advanced over PP"));
  const auto isPP = [&](gwb::ItemRef item) {
    return session_->symbolName(session_->lhs(item)) == QLatin1String("PP");
  };
  struct Case {
    Breakpoint breakpoint;
    std::function<bool(const gwb::ParseEvent&)> stopsAfter;
  };
  const std::vector<Case> cases{
      {finished,
       [&](const gwb::ParseEvent& e) { return isPP(e.item) && session_->isFinished(e.item); }},
      {advancedOver,
       [&](const gwb::ParseEvent& e) {
         return e.kind == gwb::OperationKind::Complete && isPP(e.child);
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.breakpoint.describe().toStdString());
    std::vector<std::size_t> expected;
    for (std::size_t i = 0; i < events().size(); ++i)
      if (c.stopsAfter(events()[i])) expected.push_back(i + 1);
    ASSERT_GE(expected.size(), 1u);
    stepper_.setBreakpoints({c.breakpoint});
    stepper_.reset();
    for (std::size_t stop : expected) {
      stepper_.runToEnd();
      EXPECT_EQ(stepper_.applied(), stop);
    }
    stepper_.runToEnd();
    EXPECT_TRUE(stepper_.atEnd());
  }
  // The first stop of "PP completed" is a finished PP item; an item that merely advanced
  // inside a PP (PP → P • NP) does not stop it.
  stepper_.setBreakpoints({finished});
  stepper_.reset();
  stepper_.runToEnd();
  ASSERT_GT(stepper_.applied(), 0u);
  const gwb::ItemRef first = events()[stepper_.applied() - 1].item;
  EXPECT_TRUE(isPP(first) && session_->isFinished(first))
      << session_->itemText(first).toStdString();
}

TEST_F(EarleyStepperTest, AutoPlayStepsOnATimerAndStopsAtABreakpoint) {
  stepper_.setSpeed(1000);
  stepper_.addBreakpoint({gwb::OperationKind::Scan, QString(), true});
  QSignalSpy playing(&stepper_, &EarleyStepper::playingChanged);
  stepper_.play();
  EXPECT_TRUE(stepper_.isPlaying());
  EXPECT_TRUE(QTest::qWaitFor([&] { return !stepper_.isPlaying(); }, kCertainWithinMs));
  const std::size_t firstScan = session_->trace().nextStepOfKind(0, gwb::OperationKind::Scan);
  EXPECT_EQ(stepper_.applied(), firstScan + 1);
  EXPECT_EQ(playing.count(), 2);
  stepper_.setBreakpoints({});
  stepper_.play();
  EXPECT_TRUE(
      QTest::qWaitFor([&] { return stepper_.atEnd() && !stepper_.isPlaying(); }, kCertainWithinMs));
}

}  // namespace
}  // namespace gwb::ui
