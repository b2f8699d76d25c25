// Properties over many random games of every preset (spec: the whole play
// mechanism): every tile in exactly one place, must-play respected, scores
// add up, and replaying the game's events reproduces it.
#include <gtest/gtest.h>

#include "../core/apply_random_check.h"
#include "core/env.h"
#include "support.h"

using namespace boneyard;
using namespace boneyard::line;
using namespace boneyard::line::testing;

namespace {

struct Event {
  bool chance;
  std::string text;
  Move move;
};

// Independent check of a finished hand's pip points from its pips and winner.
int expected_pip_points(const State& s, const HandResult& h, int side) {
  const Rules& r = s.rules();
  int total = 0, others = 0, own = 0;
  for (int k = 0; k < s.num_seats(); ++k) {
    total += h.pips[k];
    if (s.side_of(k) != h.winner_side) others += h.pips[k];
    if (s.side_of(k) == side) own += h.pips[k];
  }
  if (h.winner_side < 0) return 0;
  if (r.scoring == Scoring::LosersOwnPips) return side == h.winner_side ? 0 : own;
  if (side != h.winner_side) return 0;
  int p = 0;
  switch (r.scoring) {
    case Scoring::OthersPips:
      p = others;
      break;
    case Scoring::AllPips:
      p = total;
      break;
    case Scoring::AllPipsFloor10:
      p = total / 10 * 10;
      break;
    case Scoring::AllPipsRound10:
      p = (total + 5) / 10 * 10;
      break;
    case Scoring::CubanTens:
      p = total == 0 ? 0 : std::max(2, (total + 9) / 10);
      break;
    default:
      return h.pip_points[side];  // wins: checked by the win-count tests
  }
  return r.bonuses.capicua_double && h.capicua ? 2 * p : p;
}

void check_tiles(const State& s) {
  uint64_t seen = 0;
  for (int k = 0; k < s.num_seats(); ++k) {
    const uint64_t h = s.hand(k).w[0];
    ASSERT_EQ(h & seen, 0u) << "a tile in two hands";
    ASSERT_EQ(s.hand(k).size(), s.hand_count(k));
    seen |= h;
  }
  const uint64_t played = s.played().w[0];
  ASSERT_EQ(played & seen, 0u) << "a played tile still in a hand";
  seen |= played;
  ASSERT_EQ(seen & ~s.set_tiles().w[0], 0u) << "a tile outside the set";
  ASSERT_EQ(std::popcount(s.set_tiles().w[0] & ~seen), s.undealt_count()) << "undealt tiles lost or doubled";
  ASSERT_EQ(std::popcount(played), s.placed_count());
}

void check_must_play(const State& s, const MoveList<Move, 64>& l) {
  const int seat = s.to_move();
  if (s.phase() != Phase::Play || s.placed_count() == 0) return;
  int fitting = 0;
  s.hand(seat).for_each([&](Tile t) {
    if (t.shows(s.left_end())) ++fitting;
    if (s.left_end() != s.right_end() && t.shows(s.right_end())) ++fitting;
  });
  if (fitting == 0) {
    ASSERT_EQ(l.size(), 1);
    ASSERT_TRUE(l[0].kind == Move::Pass || l[0].kind == Move::Draw);
    ASSERT_EQ(l[0].kind == Move::Draw, s.stock_left() > 0);
  } else {
    ASSERT_EQ(l.size(), fitting);
    for (const Move& m : l) {
      ASSERT_TRUE(s.hand(seat).has(m.tile()));
      ASSERT_TRUE(m.tile().shows(m.kind == Move::Left ? s.left_end() : s.right_end()));
    }
  }
}

void run_preset(const char* preset, int games) {
  SCOPED_TRACE(preset);
  Rng rng(12345);
  long hands = 0;
  for (int g = 0; g < games; ++g) {
    State s = make(preset, {}, rng.next());
    const State fresh = s;
    std::vector<Event> events;
    std::vector<int> scores(static_cast<size_t>(s.num_sides()), 0);
    MoveList<Move, 64> l;
    int guard = 0;
    while (!s.terminal()) {
      ASSERT_LT(++guard, 200000) << "game did not end";
      if (s.actor().kind == Actor::Chance) {
        s.apply_chance();
        events.push_back({true, s.chance_text(), {}});
      } else {
        s.legal_moves(s.to_move(), l);
        ASSERT_GT(l.size(), 0);
        check_must_play(s, l);
        const Move m = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
        const int before = s.hands_finished();
        s.apply(s.to_move(), m);
        events.push_back({false, "", m});
        if (s.hands_finished() != before) {
          ++hands;
          const HandResult& h = s.last_result();
          for (int sd = 0; sd < s.num_sides(); ++sd) {
            int items = 0;
            for (int i = 0; i < h.n_items; ++i)
              if (h.items[i].side == sd) items += h.items[i].points;
            ASSERT_EQ(h.total[sd], h.pip_points[sd] + items);
            if (s.rules().scoring != Scoring::Wins) {
              ASSERT_EQ(h.pip_points[sd], expected_pip_points(s, h, sd));
              scores[static_cast<size_t>(sd)] += h.total[sd];
              ASSERT_EQ(s.score(sd), scores[static_cast<size_t>(sd)]) << "scores do not add up";
            }
          }
        }
      }
      check_tiles(s);
    }
    // Replaying the events from the same rules reproduces the game exactly,
    // whatever the seed: the chance outcomes are in the record.
    State r(fresh.rules(), 999);
    for (const Event& e : events) {
      if (e.chance)
        r.apply_chance_text(e.text);
      else {
        r.legal_moves(r.to_move(), l);
        ASSERT_NE(std::find(l.begin(), l.end(), e.move), l.end());
        r.apply(r.to_move(), r.parse_move(r.to_move(), r.move_text(e.move)));
      }
    }
    ASSERT_TRUE(r.terminal());
    ASSERT_EQ(r.winner_mask(), s.winner_mask());
    ASSERT_EQ(r.hands_finished(), s.hands_finished());
    for (int sd = 0; sd < s.num_sides(); ++sd) ASSERT_EQ(r.score(sd), s.score(sd));
  }
  EXPECT_GT(hands, games);
}

}  // namespace

class LineProperties : public ::testing::TestWithParam<const char*> {};

TEST_P(LineProperties, RandomGames) { run_preset(GetParam(), property_games(10000)); }

// Playouts pick moves without listing them; they must pick the same ones.
TEST_P(LineProperties, PlayoutMovesMatchTheListedMoves) {
  boneyard::testing::expect_apply_random_matches_list<LineGame>(State(make_rules(GetParam(), {}), 5), 100, 11);
}

INSTANTIATE_TEST_SUITE_P(EveryPreset, LineProperties,
                         ::testing::Values("latin", "caribbean", "colombia", "dominican-general", "dominican-patio",
                                           "dominican-200", "dominican-500", "fid", "havana", "jamaica", "mexico",
                                           "puerto-rico", "puerto-rico-500", "chiva", "santiago", "santiago-capicua",
                                           "venezuela", "maracaibo", "two-draw", "two-sleep", "three-draw", "three-27",
                                           "three-21", "four-individual"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });
