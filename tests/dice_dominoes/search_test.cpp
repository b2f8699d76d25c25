// Dice & Dominoes with the generic search bots: ismcts's reward, and that
// the bot plays only legal moves, reproducibly, through simultaneous rounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "bots/ismcts.h"
#include "bots/paired.h"
#include "dice_dominoes/bots.h"
#include "helpers.h"

namespace dd_test {
namespace {

using List = MoveList<Move, DiceDominoes::kMaxMoves>;

// Random lays until the hand ends; returns the state at its start.
State play_hand_randomly(State& s, uint64_t seed) {
  Rng rng(seed);
  List l;
  s.apply_chance();  // deal
  const State start = s;
  while (s.hands_finished() == 0) {
    if (s.actor().kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    for (int seat = 0; seat < s.num_seats(); ++seat) {
      if (!s.actor().acts(seat)) continue;
      s.legal_moves(seat, l);
      s.apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
  }
  return start;
}

TEST(DiceDominoesSearch, RewardIsTheShareOfThePotWon) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    State s = make(4, {{"hands", "3"}, {"ante", "5"}});
    s.reseed(seed);
    const State start = play_hand_randomly(s, seed);
    EXPECT_EQ(DiceDominoes::reward(start, start, 0), 0);  // the hand goes on
    const HandResult& h = s.last_result();
    for (int seat = 0; seat < 4; ++seat) {
      const double r = DiceDominoes::reward(start, s, seat);
      const bool won = (h.winner_mask >> seat) & 1;
      EXPECT_DOUBLE_EQ(r, won ? 2.0 * h.share / h.pot - 1 : -1.0) << "seed " << seed << " seat " << seat;
      if (h.how == Payout::Single) {
        EXPECT_EQ(r, won ? 1.0 : -1.0);
      }
    }
  }
}

TEST(DiceDominoesSearch, RolloutMoveIsLegalAndDiscardsMost) {
  State s = make(4);
  s.apply_chance_text(deal_text(s, {"3-4 3-5 6-6 6-5", "0-1 0-2 0-3 0-4", "1-1 1-2 1-3 1-4", "2-2 2-3 2-4 2-5"}));
  s.apply_chance_text("roll 3 5");
  List l;
  s.legal_moves(0, l);
  Rng rng(1);
  const Move m = DiceDominoes::rollout_move(s, 0, l.span(), rng);
  EXPECT_NE(std::find(l.begin(), l.end(), m), l.end());
  EXPECT_EQ(reveal(3, 5, m.first, m.second).mask, 3) << s.move_text(m);  // 3-4 and 6-5 both go
}

// One hand with a search bot in every seat: each choice is legal, and the
// same seeds give the same game.
template <class SearchBot>
std::vector<Move> bot_hand(uint64_t seed, int iterations) {
  State s = make(3, {{"hands", "1"}});
  std::vector<SearchBot> bots;
  for (int k = 0; k < 3; ++k) bots.emplace_back(seed + static_cast<uint64_t>(k), BotOptions{.iterations = iterations});
  std::vector<Move> moves;
  List l;
  while (!s.terminal()) {
    if (s.actor().kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    const Actor a = s.actor();
    for (int seat = 0; seat < s.num_seats(); ++seat) {
      if (!a.acts(seat)) continue;
      s.legal_moves(seat, l);
      const Move m = bots[static_cast<size_t>(seat)].choose(s.observe(seat), l.span());
      EXPECT_NE(std::find(l.begin(), l.end(), m), l.end()) << s.move_text(m);
      moves.push_back(m);
      s.apply(seat, m);
    }
  }
  return moves;
}

TEST(DiceDominoesSearch, IsmctsPlaysLegallyAndReproducibly) {
  const std::vector<Move> a = bot_hand<IsmctsBot<DiceDominoes>>(11, 40);
  EXPECT_GT(a.size(), 3u);
  EXPECT_EQ(a, (bot_hand<IsmctsBot<DiceDominoes>>(11, 40)));
}

// Lays that turn up the same tiles are one move to paired (their face-down
// tiles go back unseen): each gets its class's value, and the classes
// differ. Here 3-4 with 1-1 and 3-4 with 2-2 are one class (3-4 turned up),
// 5-5 with either another.
TEST(DiceDominoesSearch, PairedJudgesLaysThatTurnUpTheSameTilesAlike) {
  State s = make(4);
  s.apply_chance_text(deal_text(s, {"3-4 1-1 2-2 5-5", "0-1 0-2 0-3 0-4", "1-2 1-3 1-4 1-5", "2-3 2-4 2-5 2-6"}));
  s.apply_chance_text("roll 3 5");
  List l;
  s.legal_moves(0, l);
  std::vector<double> v(static_cast<size_t>(l.size()));
  PairedBot<DiceDominoes>(5, BotOptions{.iterations = 2000}).values(s.observe(0), l.span(), v.data());
  const auto at = [&](const char* text) {
    const Move m = s.parse_move(0, text);
    return v[static_cast<size_t>(std::find(l.begin(), l.end(), m) - l.begin())];
  };
  EXPECT_EQ(at("3-4 1-1"), at("3-4 2-2"));
  EXPECT_EQ(at("5-5 1-1"), at("2-2 5-5"));
  EXPECT_NE(at("3-4 1-1"), at("3-4 5-5"));
  // Two tiles turned up (3-4 and 5-5) beat one or none.
  EXPECT_GT(at("3-4 5-5"), at("3-4 1-1"));
  EXPECT_GT(at("3-4 5-5"), at("1-1 2-2"));
}

TEST(DiceDominoesSearch, PairedPlaysLegallyAndReproducibly) {
  const std::vector<Move> a = bot_hand<PairedBot<DiceDominoes>>(11, 60);
  EXPECT_GT(a.size(), 3u);
  EXPECT_EQ(a, (bot_hand<PairedBot<DiceDominoes>>(11, 60)));
}

}  // namespace
}  // namespace dd_test
