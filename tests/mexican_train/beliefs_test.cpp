// Beliefs from play (src/mexican_train/beliefs.h): ismcts weighs sampled
// deals by the likelihood of the other seats' placements since their last
// draw.
#include "mexican_train/beliefs.h"

#include <cmath>
#include <set>

#include "helpers.h"

using namespace mt_test;

namespace {

// Two players, double-nine, engine 9-9. Seat 0 opens 9-1 (it could have
// laid 9-4), 1-4, 4-9 and has no nine left; seat 1 holds no nine, draws 1-1
// and is marked; then seat 0 has nothing for a nine either and draws.
const std::vector<std::string> kHands = {"9-1 9-4 1-4 2-3 2-5 3-5 6-7 7-8 6-8 0-2",
                                         "0-3 0-5 5-5 6-6 7-7 8-8 2-2 3-3 5-6 0-6"};
State opened(const std::vector<std::string>& hands = kHands, const std::string& stock = "1-1 1-3 9-5") {
  State s = two_nine();
  deal(s, hands, stock);
  for (const char* m : {"9-1", "1-4", "4-9", "end_opening", "draw"}) play(s, m);
  EXPECT_EQ(s.phase(), Phase::Play);
  EXPECT_EQ(s.to_move(), 0);
  return s;
}

TEST(MexicanTrainBeliefs, AChoiceIsEvidenceTheOnlyTileIsNot) {
  const State s = opened();
  // Seat 0's first tile was a choice (9-1 or 9-4); the next two were its
  // only tiles for the end. Seen by seat 1, a deal holding 9-4 too explains
  // 9-1 less well than one where 9-1 was the only nine.
  const double with_choice = play_log_likelihood(s, 1);
  EXPECT_LT(with_choice, 0);
  std::vector<std::string> forced = kHands;
  forced[0] = "9-1 0-4 1-4 2-3 2-5 3-5 6-7 7-8 6-8 0-2";  // no 9-4: 9-1 was the only nine
  forced[1] = "0-3 0-5 5-5 6-6 7-7 8-8 2-2 3-3 5-6 9-4";
  State s2 = two_nine();
  deal(s2, forced, "1-1 1-3 9-5");
  for (const char* m : {"9-1", "1-4", "4-0"}) play(s2, m);
  EXPECT_EQ(play_log_likelihood(s2, 1), 0) << "one option at each placement: the play says nothing";
  // The observer's own placements are no evidence.
  EXPECT_EQ(play_log_likelihood(s, 0), 0);
  EXPECT_EQ(s.laid_count(), 3);
  EXPECT_EQ(s.laid_by(0), 0);
  EXPECT_EQ(s.laid_ends(0), 1u << 9) << "the opening: the own train only";
}

TEST(MexicanTrainBeliefs, PlacementsBeforeADrawAndTheDrawnTileAreNoEvidence) {
  State s = opened();
  ASSERT_LT(play_log_likelihood(s, 1), 0);
  EXPECT_EQ(s.drew_at(1), 3) << "seat 1 drew after the three placements";
  // Seat 0 draws 1-3, which fits nothing: it is marked. Its hand when it
  // laid 9-1 is now unknown to a sampled deal (which tile came when), so
  // that placement weighs nothing any more.
  play(s, "draw");
  EXPECT_EQ(s.drew_at(0), 3);
  EXPECT_TRUE(s.marked(0));
  EXPECT_EQ(play_log_likelihood(s, 1), 0);
  // Seat 1 draws 9-5 and must lay that tile: no choice, whatever its hand.
  play(s, "draw");
  const auto lays = legal(s);
  ASSERT_FALSE(lays.empty());
  play(s, lays[0]);
  EXPECT_EQ(s.laid_count(), 4);
  EXPECT_TRUE(s.laid_drawn(3));
  EXPECT_EQ(s.laid_by(3), 1);
  EXPECT_EQ(play_log_likelihood(s, 0), 0);
}

TEST(MexicanTrainBeliefs, PoolWeightsReadOnlyTheSeatsObservation) {
  // Two deals alike but for hidden tiles (seat 0's 6-7 and the boneyard's
  // 7-0, neither seen by seat 1), seen by seat 1 after the opening: the
  // same samples and weights.
  std::vector<std::string> other = kHands;
  other[0] = "9-1 9-4 1-4 2-3 2-5 3-5 7-0 7-8 6-8 0-2";
  State a = two_nine(), b = two_nine();
  deal(a, kHands, "1-1 1-3 9-5");
  deal(b, other, "1-1 1-3 9-5");
  for (State* s : {&a, &b})
    for (const char* m : {"9-1", "1-4", "4-9", "end_opening"}) play(*s, m);
  ASSERT_NE(a.hand(0), b.hand(0));
  Rng ra(7), rb(7);
  std::set<double> seen;
  for (int i = 0; i < 64; ++i) {
    double wa = 0, wb = 0;
    const State sa = MexicanTrain::sample_weighted(a.observe(1), ra, wa);
    const State sb = MexicanTrain::sample_weighted(b.observe(1), rb, wb);
    EXPECT_EQ(wa, wb);
    for (int k = 0; k < 2; ++k) EXPECT_EQ(sa.hand(k), sb.hand(k));
    seen.insert(wa);
  }
  EXPECT_GT(seen.size(), 1u) << "seat 0's choice of 9-1 must tell the sampled deals apart";
}

TEST(MexicanTrainBeliefs, NoPlacementsNoEvidence) {
  State s = two_nine();
  deal(s, kHands, "1-1 1-3 9-5");
  EXPECT_EQ(play_log_likelihood(s, 1), 0);
  double w = 1;
  Rng r(3);
  MexicanTrain::sample_weighted(s.observe(1), r, w);
  EXPECT_EQ(w, 0);
}

TEST(MexicanTrainBeliefs, TheLogKeepsWhoLaidEachTileAndWhereTheyCouldLay) {
  // On random 4-player games: each placement's seat is logged, and the
  // numbers it could lay on then include one its tile shows; the true
  // deal's likelihood stays a finite log-probability, at most 0.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    State s = make({}, seed);
    Rng rng(seed);
    while (!s.terminal()) {
      if (s.actor().kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      const int before = s.laid_count(), seat = s.to_move();
      const double ll = play_log_likelihood(s, (seat + 1) % s.num_seats());
      ASSERT_TRUE(std::isfinite(ll));
      ASSERT_LE(ll, 0);
      const int rounds = s.hands_finished();
      s.apply_random(seat, rng);
      if (s.hands_finished() != rounds || s.laid_count() != before + 1) continue;
      ASSERT_TRUE(s.laid_ends(before) >> s.laid_tile(before).high() & 1 ||
                  s.laid_ends(before) >> s.laid_tile(before).low() & 1);
      EXPECT_EQ(s.laid_by(before), seat);
    }
  }
}

}  // namespace
