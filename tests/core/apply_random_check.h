#pragma once
// A game's `apply_random` (core/playout.h) must apply exactly the move that
// listing the legal moves and drawing an index would: the same state after
// every move and the same draws from the generator.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/playout.h"

namespace boneyard::testing {

template <class G>
void expect_apply_random_matches_list(const typename G::State& fresh, int hands, uint64_t seed) {
  static_assert(HasApplyRandom<G>);
  typename G::State fast = fresh, listed = fresh;
  Rng fast_rng(seed), listed_rng(seed);
  MoveList<typename G::Move, G::kMaxMoves> l;
  for (int h = 0; h < hands; ++h) {
    if (fast.terminal()) {
      fast = listed = fresh;
      fast.reseed(seed + static_cast<uint64_t>(h));
      listed.reseed(seed + static_cast<uint64_t>(h));
    }
    const int done = fast.hands_finished();
    while (!fast.terminal() && fast.hands_finished() == done) {
      const Actor a = fast.actor();
      if (a.kind == Actor::Chance) {
        fast.apply_chance();
        listed.apply_chance();
        continue;
      }
      for (int seat = 0; seat < fast.num_seats(); ++seat) {
        if (!a.acts(seat)) continue;
        fast.apply_random(seat, fast_rng);
        listed.legal_moves(seat, l);
        listed.apply(seat, l[static_cast<int>(listed_rng.below(static_cast<uint32_t>(l.size())))]);
      }
      ASSERT_EQ(fast.view(-1), listed.view(-1)) << "hand " << h;
    }
    ASSERT_EQ(fast_rng.next(), listed_rng.next()) << "the generators drifted apart in hand " << h;
  }
}

}  // namespace boneyard::testing
