// Explicit chance for the Python package (mexican_train/research.h).
#include <gtest/gtest.h>

#include <vector>

#include "helpers.h"
#include "mexican_train/research.h"

using namespace mt_test;

TEST(MexicanTrainChance, DealThenEngineDraws) {
  // Highest in hand: the start player is dealt no double, so it draws for
  // one, a chance node per tile, until a double comes.
  State s = make({{"players", "2"}, {"set", "double-nine"}});
  const int hs = s.rules().hand_size(), start = s.start_seat();
  const Tile single = Tile::of(5, 4), dbl = Tile::of(9, 9);
  std::vector<uint8_t> singles, others;
  for (int i = 0; i < 55; ++i) {
    const Tile t{static_cast<uint8_t>(i)};
    if (t == single || t == dbl) continue;
    if (!t.is_double() && static_cast<int>(singles.size()) < hs)
      singles.push_back(t.index);
    else
      others.push_back(t.index);
  }
  std::vector<uint8_t> seq;
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < hs; ++i)
      seq.push_back(p == start ? singles[static_cast<size_t>(i)] : others[static_cast<size_t>(i)]);
  ASSERT_FALSE(Research::chance_finish(s, seq)) << "the start player holds no double: it draws";
  std::vector<Outcome> out;
  Research::chance_outcomes(s, seq, out);
  EXPECT_EQ(static_cast<int>(out.size()), 55 - 2 * hs);
  seq.push_back(single.index);  // a single: kept, draws on
  ASSERT_FALSE(Research::chance_finish(s, seq));
  seq.push_back(dbl.index);  // a double: the engine
  ASSERT_TRUE(Research::chance_finish(s, seq));
  EXPECT_EQ(s.engine(), dbl);
  EXPECT_EQ(s.engine_draws(), 2);
  EXPECT_TRUE(s.hand(start).has(single));
  EXPECT_EQ(s.hand_count(start), hs + 1);
}

TEST(MexicanTrainChance, DrawPutsTheChosenTileNext) {
  State s = two_nine();
  std::vector<uint8_t> seq;
  std::vector<Outcome> out;
  do {
    Research::chance_outcomes(s, seq, out);
    seq.push_back(static_cast<uint8_t>(out.back().action));
  } while (!Research::chance_finish(s, seq));
  EXPECT_EQ(static_cast<int>(seq.size()), 2 * s.rules().hand_size());
  Research::draw_outcomes(s, 0, out);
  ASSERT_EQ(static_cast<int>(out.size()), s.stock_left());
  Research::put_next_draw(s, 0, out[3].action);
  EXPECT_EQ(s.stock_at(0).index, out[3].action);
  EXPECT_THROW(Research::put_next_draw(s, 0, seq[0]), Error);
}
