// Properties over many random games for every player count (spec: Play),
// observation and sampling, and the bots.
#include <nlohmann/json.hpp>

#include "../core/apply_random_check.h"
#include "core/env.h"
#include "core/playout.h"
#include "helpers.h"
#include "mexican_train/bots.h"

using namespace mt_test;

namespace {

// The numbers `seat` may lay on now in a normal turn: the open double only,
// else its own train, the Mexican train (or its start) and marked trains
// (spec Play 2, 5), from the public state alone.
uint32_t numbers_open_to(const State& s, int seat) {
  if (s.open_doubles() > 0) return 1u << s.train_end(s.open_double_train(0));
  uint32_t m = (1u << s.train_end(seat)) | (1u << s.train_end(kMexican));
  for (int k = 0; k < s.num_seats(); ++k)
    if (k != seat && s.marked(k)) m |= 1u << s.train_end(k);
  return m;
}

// A seat holding a tile it could lay on its turn as things stand, or -1.
int seat_with_a_playable_tile(const State& s) {
  for (int k = 0; k < s.num_seats(); ++k) {
    const uint32_t n = numbers_open_to(s, k);
    bool fits = false;
    s.hand(k).for_each([&](Tile t) { fits |= ((n >> t.high()) & 1) || ((n >> t.low()) & 1); });
    if (fits) return k;
  }
  return -1;
}

bool every_train_marked(const State& s) {
  for (int k = 0; k < s.num_seats(); ++k)
    if (!s.marked(k)) return false;
  return true;
}

// Every tile of the set is in exactly one place: a hand, the table, the boneyard.
void expect_conserved(const State& s) {
  TileSet all = s.table();
  int n = s.table().size();
  for (int k = 0; k < s.num_seats(); ++k) {
    ASSERT_TRUE((all & s.hand(k)).empty());
    all |= s.hand(k);
    n += s.hand(k).size();
    ASSERT_EQ(s.hand(k).size(), s.hand_count(k));
  }
  for (int i = 0; i < s.stock_left(); ++i) {
    ASSERT_FALSE(all.has(s.stock_at(i)));
    all.add(s.stock_at(i));
    ++n;
  }
  ASSERT_EQ(all, s.set_tiles());
  ASSERT_EQ(n, s.set_tiles().size());
}

}  // namespace

TEST(MexicanTrainProperties, RandomGamesConserveTilesTerminateAndScorePips) {
  const int games = boneyard::property_games(10000);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  for (int p = 2; p <= 8; ++p) {
    Rng rng(static_cast<uint64_t>(p) * 1000);
    int blocked = 0;
    for (int g = 0; g < games; ++g) {
      const bool full_checks = g < games / 50 + 1;
      const char* engine = g % 2 ? "round_doubles" : "highest_in_hand";
      const char* set = g % 3 == 0 ? "double-twelve" : g % 3 == 1 ? "double-nine" : "double-fifteen";
      State s = make({{"players", std::to_string(p)},
                      {"engine", engine},
                      {"set", set},
                      {"rounds", "2"},
                      {"multiple_doubles", g % 4 == 3 ? "on" : "off"}},
                     rng.next());
      int32_t before[kMaxSeats] = {};
      while (!s.terminal()) {
        ASSERT_EQ(s.actor().kind, Actor::Chance);
        s.apply_chance();
        const int round = s.hands_finished();
        int moves = 0;
        while (s.hands_finished() == round) {
          ASSERT_EQ(s.actor().kind, Actor::Seat);
          const int seat = s.to_move();
          s.legal_moves(seat, l);
          ASSERT_FALSE(l.empty());
          s.apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
          if (full_checks && s.hands_finished() == round) expect_conserved(s);
          ASSERT_LT(++moves, 2000) << "round does not terminate";
        }
        // Scores are the pips left (0-0 counts 0).
        const RoundResult& r = s.last_result();
        for (int k = 0; k < p; ++k) {
          EXPECT_EQ(r.penalty[k], s.hand(k).pips());
          EXPECT_EQ(s.score(k), before[k] + r.penalty[k]);
          before[k] = s.score(k);
        }
        if (r.end == RoundEnd::Domino)
          EXPECT_EQ(r.tiles_left[r.out_seat], 0);
        else {
          ++blocked;
          EXPECT_EQ(s.stock_left(), 0);  // blocked only with an empty boneyard
          EXPECT_TRUE(every_train_marked(s));
          EXPECT_EQ(seat_with_a_playable_tile(s), -1);
        }
      }
      double ret[kMaxSeats];
      s.returns(ret);
      double sum = 0;
      for (int k = 0; k < p; ++k) sum += ret[k];
      EXPECT_NEAR(sum, 1.0, 1e-9);
    }
    if (games >= 1000) {
      EXPECT_GT(blocked, 0) << "players " << p;
    }
  }
}

// Playouts pick moves without listing them; they must pick the same ones,
// for every player count, set and option that changes what is listed.
TEST(MexicanTrainProperties, PlayoutMovesMatchTheListedMoves) {
  for (int p = 2; p <= 8; ++p)
    boneyard::testing::expect_apply_random_matches_list<MexicanTrain>(make({{"players", std::to_string(p)}}), 20, 3);
  for (const OptionList& o : {OptionList{{"multiple_doubles", "true"}}, OptionList{{"set", "double-nine"}},
                              OptionList{{"set", "double-fifteen"}}, OptionList{{"engine", "round_doubles"}}})
    boneyard::testing::expect_apply_random_matches_list<MexicanTrain>(make(o), 20, 4);
}

TEST(MexicanTrainProperties, EmptyBoneyardPassPutsAMarkerAndBlocks) {
  // Find, in random play, a seat whose only move is `pass`.
  Rng rng(11);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  int found = 0;
  for (int g = 0; g < 200 && found < 20; ++g) {
    State s = make({{"players", "8"}, {"rounds", "1"}}, rng.next());
    s.apply_chance();
    while (!s.terminal()) {
      const int seat = s.to_move();
      s.legal_moves(seat, l);
      if (l.size() == 1 && l[0].kind == Move::Pass) {
        ++found;
        EXPECT_EQ(s.stock_left(), 0);
        const int passes = s.passes_in_row();
        s.apply(seat, l[0]);
        if (s.terminal()) {
          EXPECT_EQ(s.last_result().end, RoundEnd::Blocked);
          EXPECT_TRUE(every_train_marked(s));
          EXPECT_EQ(seat_with_a_playable_tile(s), -1);
        } else {
          EXPECT_TRUE(s.marked(seat));
          EXPECT_EQ(s.passes_in_row(), passes + 1);
        }
        continue;
      }
      for (const Move& m : l) EXPECT_NE(m.kind, Move::Pass);
      s.apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
  }
  EXPECT_GT(found, 0);
}

// Spec Play 6: a round is blocked exactly when, after a pass, the boneyard
// is empty, every train carries a marker and nobody holds a tile they could
// lay: never while some player still holds a playable tile, and never later.
TEST(MexicanTrainProperties, NoBlockedRoundEndsWhileSomeoneHoldsAPlayableTile) {
  const int games = boneyard::property_games(10000);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  for (int p = 2; p <= 8; ++p) {
    Rng rng(static_cast<uint64_t>(p) * 77 + 5);
    int blocked = 0;
    for (int g = 0; g < games; ++g) {
      const char* set = g % 3 == 0 ? "double-twelve" : g % 3 == 1 ? "double-nine" : "double-fifteen";
      State s = make({{"players", std::to_string(p)},
                      {"set", set},
                      {"rounds", "1"},
                      {"engine", g % 2 ? "round_doubles" : "highest_in_hand"},
                      {"multiple_doubles", g % 4 == 3 ? "on" : "off"}},
                     rng.next());
      s.apply_chance();
      while (!s.terminal()) {
        const int seat = s.to_move();
        s.legal_moves(seat, l);
        const Move m = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
        s.apply(seat, m);
        if (m.kind != Move::Pass) continue;
        if (s.terminal()) {
          ASSERT_EQ(s.last_result().end, RoundEnd::Blocked);
          ++blocked;
          EXPECT_EQ(s.stock_left(), 0);
          EXPECT_TRUE(every_train_marked(s)) << "players " << p << " game " << g;
          const int k = seat_with_a_playable_tile(s);
          EXPECT_EQ(k, -1) << "players " << p << " game " << g << ": seat " << k << " could still play "
                           << to_string(s.hand(k));
        } else {
          EXPECT_TRUE(!every_train_marked(s) || seat_with_a_playable_tile(s) >= 0)
              << "players " << p << " game " << g << ": nothing can change, yet the round goes on";
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
    if (games >= 1000 && p <= 6) {
      EXPECT_GT(blocked, 0) << "players " << p;
    }  // rarer with more players
  }
}

TEST(MexicanTrainProperties, ObservationHidesAndSamplingRespectsWhatIsKnown) {
  Rng rng(5);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  for (int g = 0; g < 100; ++g) {
    State s = make({{"players", std::to_string(2 + g % 7)}, {"rounds", "1"}}, rng.next());
    s.apply_chance();
    int steps = static_cast<int>(rng.below(60));
    while (!s.terminal() && steps-- > 0) {
      s.legal_moves(s.to_move(), l);
      s.apply(s.to_move(), l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
    if (s.terminal()) continue;
    const int me = s.to_move();
    const Observation o = s.observe(me);
    for (int k = 0; k < s.num_seats(); ++k)
      if (k != me) {
        EXPECT_TRUE(o.masked.hand(k).empty());
      }
    EXPECT_EQ(o.masked.hand(me), s.hand(me));
    // A deal's hands obey the public facts: no tile of a number the seat is
    // known to lack, no double above its cap. (The drawn tile waiting to be
    // laid came after the void was seen.)
    const auto expect_hands_obey_the_facts = [&](const State& x, const char* deal) {
      for (int k = 0; k < s.num_seats(); ++k)
        x.hand(k).for_each([&](Tile t) {
          if (k == me && t.index == s.drawn_tile()) return;
          EXPECT_FALSE((x.known_void(k) >> t.high()) & 1) << deal << " seat " << k << " " << to_string(t);
          EXPECT_FALSE((x.known_void(k) >> t.low()) & 1) << deal << " seat " << k << " " << to_string(t);
          if (t.is_double()) {
            EXPECT_LE(t.high(), x.double_cap(k)) << deal << " seat " << k << " " << to_string(t);
          }
        });
    };
    expect_hands_obey_the_facts(s, "the true deal");
    // ismcts's sampler and ismcts-v1's (sample_v1) keep the same facts.
    for (const State& x : {State::sample(o, rng), State::sample_v1(o, rng)}) {
      expect_conserved(x);
      EXPECT_EQ(x.hand(me), s.hand(me));
      EXPECT_EQ(x.table(), s.table());
      for (int k = 0; k < s.num_seats(); ++k) EXPECT_EQ(x.hand_count(k), s.hand_count(k));
      expect_hands_obey_the_facts(x, "a sampled deal");
      MoveList<Move, MexicanTrain::kMaxMoves> lx;
      x.legal_moves(me, lx);
      s.legal_moves(me, l);
      EXPECT_EQ(lx.size(), l.size());
    }
    // The view hides other hands and the boneyard.
    const auto v = s.view(me);
    EXPECT_TRUE(v["hands"][(me + 1) % s.num_seats()]["tiles"].is_null());
    EXPECT_FALSE(v.contains("stock"));
    EXPECT_FALSE(s.render(me).empty());
  }
}

TEST(MexicanTrainBots, LongestChainSearch) {
  TileSet h;
  for (const char* t : {"12-3", "3-5", "5-12", "3-7", "0-0"}) h.add(T(t));
  const Chain c = longest_chain(h, 12);
  EXPECT_EQ(c.length, 3);  // 12-3 3-5 5-12 (3-7 would end the chain early)
  EXPECT_FALSE(c.set.has(T("3-7")));
  EXPECT_EQ(longest_chain(h, 9).length, 0);
}

TEST(MexicanTrainBots, GreedyBeatsRandom) {
  // 4 players, greedy in seats 0 and 2, random in 1 and 3 (then swapped).
  double share[2] = {0, 0};
  const int games = 60;
  Rng rng(99);
  for (int g = 0; g < games; ++g) {
    State s = make({{"rounds", "3"}}, rng.next());
    GreedyBot greedy(g);
    RandomBot<MexicanTrain> random(g + 1000);
    const int gseat = g % 2;
    MoveList<Move, MexicanTrain::kMaxMoves> l;
    while (!s.terminal()) {
      if (s.actor().kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      const int seat = s.to_move();
      s.legal_moves(seat, l);
      Bot<MexicanTrain>& b = seat % 2 == gseat ? static_cast<Bot<MexicanTrain>&>(greedy) : random;
      const Move m = b.choose(s.observe(seat), l.span());
      s.apply(seat, m);
    }
    double r[kMaxSeats];
    s.returns(r);
    for (int k = 0; k < 4; ++k) share[k % 2 == gseat ? 0 : 1] += r[k];
  }
  EXPECT_GT(share[0], 0.65 * games) << "greedy " << share[0] << " random " << share[1];
}

TEST(MexicanTrainProperties, TheGameOverViewKeepsTheLastRoundsTrains) {
  // The finished game's board (the app's "See the final board") is the last
  // round's trains as they were laid, and still shows no one's hand.
  Rng rng(3);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  State s = make({{"players", "3"}, {"rounds", "1"}}, 17);
  s.apply_chance();
  nlohmann::json before;
  while (!s.terminal()) {
    const int seat = s.to_move();
    s.legal_moves(seat, l);
    before = s.view(-1)["trains"];
    s.apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
  }
  const nlohmann::json v = s.view(0);
  ASSERT_TRUE(v.contains("trains")) << v.dump();
  size_t laid = 0, laid_before = 0;
  for (const auto& tr : v["trains"]) laid += tr["tiles"].size();
  for (const auto& tr : before) laid_before += tr["tiles"].size();
  EXPECT_GT(laid, 0u);
  EXPECT_GE(laid, laid_before);  // the last move's tile (if it laid one) is there too
  EXPECT_LE(laid, laid_before + 1);
  for (const auto& h : v["hands"]) {
    if (h["seat"] != 0) {
      EXPECT_TRUE(h["tiles"].is_null()) << "seat " << h["seat"] << "'s hand shown";
    }
  }
}
