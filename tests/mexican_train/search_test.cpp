// The generic search bots on Mexican Train: ismcts plays legal moves only,
// the same ones for the same seed; the reward and the playout policy.
#include "bots/ismcts.h"
#include "helpers.h"
#include "mexican_train/bots.h"

using namespace mt_test;

namespace {

// Plays a 1-round, 3-player game with ismcts at seat 0 and greedy elsewhere;
// returns every move's text. Fails on any illegal ismcts move.
std::vector<std::string> ismcts_round(uint64_t seed) {
  State s = make({{"players", "3"}, {"rounds", "1"}}, 5);
  IsmctsBot<MexicanTrain> search(seed, BotOptions{.iterations = 40});
  GreedyBot g1(1), g2(2);
  std::vector<std::string> out;
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  while (!s.terminal()) {
    if (s.actor().kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    const int seat = s.to_move();
    s.legal_moves(seat, l);
    const Move m =
        seat == 0 ? search.choose(s.observe(seat), l.span()) : (seat == 1 ? g1 : g2).choose(s.observe(seat), l.span());
    bool legal = false;
    for (const Move& x : l) legal |= x == m;
    EXPECT_TRUE(legal) << "seat " << seat << " chose " << s.move_text(m);
    if (!legal) break;
    out.push_back(s.move_text(m));
    s.apply(seat, m);
  }
  return out;
}

}  // namespace

TEST(MexicanTrainSearch, IsmctsPlaysLegalMovesAndIsDeterministicForASeed) {
  const auto a = ismcts_round(11);
  EXPECT_GT(a.size(), 10u);
  EXPECT_EQ(a, ismcts_round(11));
}

TEST(MexicanTrainSearch, RewardComparesTheRoundPenaltyWithTheOthersMean) {
  State s = two_nine();
  deal(s, {"9-8 8-7 7-6 6-5 5-4 4-3 3-2 2-1 1-0 0-0", "9-7 7-5 5-3 3-1 8-6 6-4 4-2 2-0 8-5 1-1"});
  const State from = s;
  // Seat 0 lays its whole hand in the opening turn (a chain 9..0): out, 0 penalty.
  for (int i = 0; i < 10 && s.hands_finished() == 0; ++i) play(s, legal(s)[0]);
  ASSERT_EQ(s.hands_finished(), 1);
  const int p1 = s.last_result().penalty[1];
  ASSERT_GT(p1, 0);
  EXPECT_DOUBLE_EQ(MexicanTrain::reward(from, s, 0), std::min(1.0, p1 / (8.0 * 9)));
  EXPECT_DOUBLE_EQ(MexicanTrain::reward(from, s, 1), -MexicanTrain::reward(from, s, 0));
  EXPECT_EQ(MexicanTrain::reward(from, from, 0), 0);
}

TEST(MexicanTrainSearch, TheV1RolloutPolicyShedsTheHeaviestTile) {
  State s = two_nine();
  deal(s, {"9-8 9-1 7-6 6-5 5-4 4-3 3-2 2-1 1-0 0-0", "9-7 7-5 5-3 3-1 8-6 6-4 4-2 2-0 8-5 1-1"});
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  s.legal_moves(0, l);
  ASSERT_EQ(l.size(), 2);
  Rng rng(3);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(s.move_text(MexicanTrain::rollout_move_v1(s, 0, l.span(), rng)), s.move_text(s.parse_move(0, "9-8")));
}
