// Explicit chance for the Python package (dice_dominoes/research.h).
#include <gtest/gtest.h>

#include <vector>

#include "dice_dominoes/research.h"
#include "helpers.h"

using namespace dd_test;

TEST(DiceDominoesChance, DealRollAndDraws) {
  State s = make(6);  // two sets: every face twice
  std::vector<uint8_t> seq;
  std::vector<Outcome> out;
  Research::chance_outcomes(s, seq, out);
  ASSERT_EQ(out.size(), 28u);
  EXPECT_DOUBLE_EQ(out[0].probability, 2.0 / 56.0);
  seq.push_back(0);
  Research::chance_outcomes(s, seq, out);
  EXPECT_DOUBLE_EQ(out[0].probability, 1.0 / 55.0);  // one 0-0 left
  EXPECT_DOUBLE_EQ(out[1].probability, 2.0 / 55.0);
  while (!Research::chance_finish(s, seq)) seq.push_back(static_cast<uint8_t>(seq.size() % 28));
  EXPECT_EQ(seq.size(), 24u);
  EXPECT_EQ(s.phase(), Phase::Roll);
  EXPECT_EQ(s.boneyard(), 56 - 24);
  seq.clear();
  Research::chance_outcomes(s, seq, out);
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0].action, 28);
  EXPECT_EQ(Research::chance_action_text(33), "die 6");
  seq = {28 + 2, 28 + 4};  // 3 and 5
  ASSERT_TRUE(Research::chance_finish(s, seq));
  EXPECT_EQ(s.die(0), 3);
  EXPECT_EQ(s.die(1), 5);
  // Draws: the chosen faces go next, in order; the counter never resets.
  Research::draw_outcomes(s, 0, out);
  double sum = 0;
  for (const Outcome& o : out) sum += o.probability;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  const int f = out.back().action;
  Research::put_next_draw(s, 0, f);
  EXPECT_EQ(s.stock_tile(s.stock_drawn()), f);
  EXPECT_EQ(Research::stock_draws(s), 0u);
}
