// Budget (bots/budget.h): a count stops at its count; a time limit tells how
// much of it is spent (ismcts's pool of weighted deals takes at most a
// quarter of it) and judges the steps by their own time.
#include "bots/budget.h"

#include <gtest/gtest.h>

#include <thread>

namespace boneyard {
namespace {

TEST(Budget, ACountStopsAtItsShareAndHasNoTimeToSpend) {
  BotOptions o;
  o.iterations = 10;
  const Budget b(o, 2000);
  EXPECT_EQ(b.share(0, 3) + b.share(1, 3) + b.share(2, 3), 10);
  EXPECT_FALSE(b.over(3, 4));
  EXPECT_TRUE(b.over(4, 4));
  EXPECT_FALSE(b.past(0.0)) << "no time limit: never past any part of it";
}

TEST(Budget, ATimeLimitTellsWhatPartOfItIsSpent) {
  BotOptions o;
  o.think_ms = 1000;
  const Budget b(o, 2000);
  EXPECT_TRUE(b.past(0.0));
  EXPECT_FALSE(b.past(0.5));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(b.past(0.25));
  EXPECT_FALSE(b.over(0, 1)) << "at least one step, always";
}

// The steps' average cost leaves out work done before them (ismcts's pool of
// deals): 600 ms of pool and one quick step would otherwise look like a
// 600 ms step, and the search would stop with 400 ms left.
TEST(Budget, TheTimeBeforeTheStepsIsNotCountedAsTheirCost) {
  BotOptions o;
  o.think_ms = 1000;
  const Budget b(o, 2000);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  const auto begun = Budget::Clock::now();
  EXPECT_TRUE(b.over(1, 1)) << "counted from the start, one step took 600 ms";
  EXPECT_FALSE(b.over(1, 1, begun)) << "counted from the first step, it took no time";
}

}  // namespace
}  // namespace boneyard
