// Explicit chance for the Python package (line/research.h): a deal one tile
// at a time, draws chosen when they happen.
#include <gtest/gtest.h>

#include <vector>

#include "line/research.h"
#include "support.h"

namespace boneyard::line::testing {

// Deals by always taking the first outcome; returns the outcomes taken.
static std::vector<uint8_t> deal_first(State& s) {
  std::vector<uint8_t> seq;
  std::vector<Outcome> out;
  do {
    Research::chance_outcomes(s, seq, out);
    EXPECT_FALSE(out.empty());
    double sum = 0;
    for (const Outcome& o : out) {
      EXPECT_DOUBLE_EQ(o.probability, 1.0 / static_cast<double>(out.size()));
      sum += o.probability;
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
    seq.push_back(static_cast<uint8_t>(out[0].action));
  } while (!Research::chance_finish(s, seq));
  return seq;
}

TEST(LineChance, DealOneTileAtATime) {
  State s = make("two-draw");
  const auto seq = deal_first(s);
  ASSERT_EQ(seq.size(), 14u);        // 2 seats x 7, the stock not chosen at the deal
  EXPECT_EQ(s.hand(0).w[0], 0x7Fu);  // the seven lowest indices, in order
  EXPECT_EQ(s.hand(1).w[0], 0x7Fu << 7);
  EXPECT_EQ(s.stock_left(), 14);
  EXPECT_NE(s.phase(), Phase::Deal);
}

TEST(LineChance, LeadDrawnBeforeTheDeal) {
  State s = make("latin");
  ASSERT_TRUE(s.deals_leader_by_draw());
  const auto seq = deal_first(s);
  ASSERT_EQ(seq.size(), 4u + 28u);  // a tile per seat for the lead, then the hands
  EXPECT_EQ(seq[0], 0);
  EXPECT_EQ(seq[4], 0);      // the lead tiles go back before the deal
  EXPECT_EQ(s.leader(), 3);  // seat 3 drew the highest of tiles 0..3
}

TEST(LineChance, DrawPutsTheChosenTileNext) {
  State s = make("two-draw");
  deal_first(s);
  // Play the first legal move until the seat to move must draw.
  MoveList<Move, 64> l;
  for (;;) {
    ASSERT_FALSE(s.terminal());
    s.legal_moves(s.to_move(), l);
    if (l[0].kind == Move::Draw) break;
    s.apply(s.to_move(), l[0]);
  }
  std::vector<Outcome> out;
  Research::draw_outcomes(s, 0, out);
  ASSERT_EQ(out.size(), 14u);
  const int t = out[5].action;
  Research::put_next_draw(s, 0, t);
  EXPECT_EQ(s.stock_at(0).index, t);
  EXPECT_THROW(Research::put_next_draw(s, 0, 0), Error);  // dealt to seat 0
  const uint32_t before = Research::stock_draws(s);
  const int seat = s.to_move();
  s.apply(seat, Move{Move::Draw, 0});
  EXPECT_EQ(Research::stock_draws(s), before + 1);
  EXPECT_TRUE((s.hand(seat).w[0] >> t) & 1);
}

}  // namespace boneyard::line::testing
