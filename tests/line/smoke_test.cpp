#include <gtest/gtest.h>

#include "core/playout.h"
#include "line/state.h"

using namespace boneyard;
using namespace boneyard::line;

TEST(LineSmoke, RandomGameEnds) {
  State s(make_rules("latin", {}), 1);
  Rng rng(2);
  int hands = 0;
  while (!s.terminal() && hands < 1000) {
    play_random_hand<LineGame>(s, rng);
    ++hands;
  }
  EXPECT_TRUE(s.terminal());
}
