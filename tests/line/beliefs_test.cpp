// Beliefs from play (src/line/beliefs.h): ismcts weighs sampled deals by the
// likelihood of the other seats' placements.
#include "line/beliefs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "support.h"

namespace boneyard::line {
namespace {

using testing::make;
using testing::play;

// A latin deal, seat 0 leading; `hands` for seats 0..3.
State dealt(const std::vector<std::string>& hands, const std::vector<std::string>& moves) {
  State s = make("latin");
  s.apply_chance_text(testing::rotated_deal(hands, 0, true));
  play(s, moves);
  return s;
}

const std::vector<std::string> kDeal = {"6-6 0-0 1-0 2-1 3-0 4-1 5-2", "6-5 6-4 5-5 4-4 3-3 2-0 1-1",
                                        "6-3 6-2 5-4 5-3 4-3 2-2 3-1", "6-1 6-0 5-1 5-0 4-2 4-0 3-2"};
const std::vector<std::string> kMoves = {"6-6", "6-5", "6-3", "5-1", "1-0"};

TEST(LineBeliefs, PoolWeightsReadOnlyTheSeatsObservation) {
  // Two deals alike but for hidden tiles (seats 1 and 2 swap 4-4 and 2-2,
  // neither placed yet): the same history, seen by seat 0.
  std::vector<std::string> other = kDeal;
  other[1] = "6-5 6-4 5-5 2-2 3-3 2-0 1-1";
  other[2] = "6-3 6-2 5-4 5-3 4-3 4-4 3-1";
  const State a = dealt(kDeal, kMoves), b = dealt(other, kMoves);
  ASSERT_NE(a.hand(1), b.hand(1));
  Rng ra(7), rb(7);
  std::set<double> seen;
  for (int i = 0; i < 64; ++i) {
    double wa = 0, wb = 0;
    const State sa = LineGame::sample_weighted(a.observe(0), ra, wa);
    const State sb = LineGame::sample_weighted(b.observe(0), rb, wb);
    EXPECT_EQ(wa, wb);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(sa.hand(k), sb.hand(k));
    seen.insert(wa);
  }
  EXPECT_GT(seen.size(), 1u) << "the placements must tell the sampled deals apart";
}

TEST(LineBeliefs, ADealThatExplainsThePlayBetterWeighsMore) {
  // Seat 1 answers the 6-6 with 6-4. Holding 6-5 as well, the heavier tile,
  // that is a less likely choice than holding no other six.
  const std::vector<std::string> moves = {"6-6", "6-4"};
  const State with_choice = dealt(kDeal, moves);
  std::vector<std::string> forced = kDeal;
  forced[1] = "5-3 6-4 5-5 4-4 3-3 2-0 1-1";
  forced[2] = "6-3 6-2 5-4 6-5 4-3 2-2 3-1";
  const State without = dealt(forced, moves);
  const double lw_choice = play_log_likelihood(with_choice, 0), lw_forced = play_log_likelihood(without, 0);
  EXPECT_LT(lw_choice, lw_forced);
  EXPECT_EQ(lw_forced, 0) << "one legal tile: the play says nothing";
  EXPECT_LT(lw_choice, std::log(0.5)) << "the heavier six was the likelier play";
  // The observer's own placements are no evidence: seen by seat 1, only
  // seat 0's lead counts, and the same in both deals.
  EXPECT_EQ(play_log_likelihood(with_choice, 1), play_log_likelihood(without, 1));
}

TEST(LineBeliefs, NoPlacementsNoEvidence) {
  const State s = dealt(kDeal, {});
  EXPECT_EQ(play_log_likelihood(s, 0), 0);
  double w = 1;
  Rng r(3);
  LineGame::sample_weighted(s.observe(0), r, w);
  EXPECT_EQ(w, 0);
}

TEST(LineBeliefs, PlacedByRecordsEachSeatsTiles) {
  const State s = dealt(kDeal, kMoves);
  EXPECT_EQ(to_string(s.placed_by(0)), "6-6 1-0");
  EXPECT_EQ(to_string(s.placed_by(1)), "6-5");
  EXPECT_EQ(s.placed_tile(1), Tile::of(6, 5));
  EXPECT_TRUE(s.placed_on_left(1));   // both ends showed 6: the left
  EXPECT_FALSE(s.placed_on_left(2));  // 6-3 on the six, the right end
}

}  // namespace
}  // namespace boneyard::line
