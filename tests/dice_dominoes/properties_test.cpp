// Properties over many random hands, the text forms, observations and the
// bots (spec: rules/dice-and-dominoes.md; issue: tests that must exist).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "../core/apply_random_check.h"
#include "../refusal.h"
#include "core/adapter.h"
#include "core/env.h"
#include "core/playout.h"
#include "dice_dominoes/bots.h"
#include "helpers.h"

using namespace dd_test;

namespace {

void check_conservation(const State& s) {
  int copies[kFaces] = {};
  for (int k = 0; k < s.num_seats(); ++k) {
    ASSERT_EQ(pile::count(s.hand(k)), s.hand_count(k));
    ASSERT_EQ(s.known(k) & s.hand(k), s.known(k)) << "known tiles are in the hand";
    for (int f = 0; f < kFaces; ++f) copies[f] += pile::copies(s.hand(k), f) + pile::copies(s.discards(k), f);
  }
  for (int i = s.stock_drawn(); i < s.stock_size(); ++i) ++copies[s.stock_tile(i)];
  for (int f = 0; f < kFaces; ++f) ASSERT_EQ(copies[f], s.rules().sets) << to_string(Tile{static_cast<uint8_t>(f)});
  int64_t chips = s.pot();
  for (int k = 0; k < s.num_seats(); ++k) chips += s.balance(k);
  ASSERT_EQ(chips, 0);
}

void random_hands(int players) {
  const int hands = property_games(10000);
  State s(make_rules({{"players", std::to_string(players)}, {"hands", std::to_string(hands)}}), 99 + players);
  Rng rng(static_cast<uint64_t>(players));
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  int rounds = 0;
  while (!s.terminal()) {
    const Actor a = s.actor();
    if (a.kind == Actor::Chance) {
      s.apply_chance();
      if (s.phase() == Phase::Choose) {
        check_conservation(s);
        ASSERT_LT(++rounds, 1000) << "a hand must end";
      } else {
        rounds = 0;
      }
      continue;
    }
    for (int k = 0; k < s.num_seats(); ++k) {
      if (!a.acts(k)) continue;
      s.legal_moves(k, l);
      ASSERT_FALSE(l.empty());
      s.apply(k, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
      if (a.kind == Actor::Seat) break;
    }
  }
  check_conservation(s);
  EXPECT_EQ(s.hands_finished(), hands);
}

}  // namespace

TEST(DiceDominoesProperties, TwoPlayers) { random_hands(2); }
TEST(DiceDominoesProperties, ThreePlayers) { random_hands(3); }
TEST(DiceDominoesProperties, FivePlayers) { random_hands(5); }
TEST(DiceDominoesProperties, SixPlayersTwoSets) { random_hands(6); }
TEST(DiceDominoesProperties, TenPlayersTwoSets) { random_hands(10); }

// The dice are two match points, not an ordered pair (spec: A round 1, 3):
// a roll of 6 and 2 plays exactly as one of 2 and 6 (the same moves, the
// same reveals, specials, draws and chips). Random games, each roll played
// both ways. (ismcts's tree still keys the rolls in order: one node for
// both measured -2 [-32, +28] Elo, docs/bots.md.)
TEST(DiceDominoesRound, TheOrderOfTheDiceChangesNothing) {
  Rng rng(17);
  MoveList<Move, DiceDominoes::kMaxMoves> l, lx;
  int rolls = 0;
  for (int game = 0; game < 40; ++game) {
    State s = make(2 + game % 4, {{"hands", "2"}});
    s.reseed(rng.next());
    while (!s.terminal()) {
      if (s.actor().kind == Actor::Chance && s.phase() != Phase::Roll) {
        s.apply_chance();
        continue;
      }
      if (s.actor().kind != Actor::Chance) {  // a W-perfect's reroll or keep, a round on kept dice
        for (int k = 0; k < s.num_seats(); ++k) {
          if (!s.actor().acts(k)) continue;
          s.legal_moves(k, l);
          s.apply(k, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
        }
        continue;
      }
      const State before = s;
      s.apply_chance();
      if (s.phase() != Phase::Choose) continue;
      State x = before;
      x.roll(s.die(1), s.die(0));
      ++rolls;
      for (int k = 0; k < s.num_seats(); ++k) {
        if (!s.actor().acts(k)) continue;
        s.legal_moves(k, l);
        x.legal_moves(k, lx);
        ASSERT_EQ(std::vector<Move>(l.begin(), l.end()), std::vector<Move>(lx.begin(), lx.end()));
        const Move m = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
        s.apply(k, m);
        x.apply(k, m);
      }
      for (int k = 0; k < s.num_seats(); ++k) {
        ASSERT_EQ(x.hand(k), s.hand(k)) << "game " << game << " seat " << k;
        ASSERT_EQ(x.discards(k), s.discards(k)) << "game " << game << " seat " << k;
        ASSERT_EQ(x.balance(k), s.balance(k)) << "game " << game << " seat " << k;
      }
      ASSERT_EQ(x.pot(), s.pot());
      ASSERT_EQ(x.stock_drawn(), s.stock_drawn());
      ASSERT_EQ(x.phase(), s.phase());
    }
  }
  EXPECT_GT(rolls, 500);
}

// DiceDominoes::move_class (the search's classes): lays of one class leave
// the same game behind, every hand, discard, known tile and chip alike.
TEST(DiceDominoesRound, LaysThatTurnUpTheSameTilesHaveTheSameEffect) {
  Rng rng(23);
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  int swapped = 0;
  for (int game = 0; game < 40; ++game) {
    State s = make(2 + game % 4, {{"hands", "2"}});
    s.reseed(rng.next());
    while (!s.terminal()) {
      if (s.actor().kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      State x = s;
      for (int k = 0; k < s.num_seats(); ++k) {
        if (!s.actor().acts(k)) continue;
        s.legal_moves(k, l);
        const Move m = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
        std::vector<Move> alike;  // the others of m's class
        for (const Move& o : l)
          if (!(o == m) && DiceDominoes::move_class(s, k, o) == DiceDominoes::move_class(s, k, m)) alike.push_back(o);
        const Move mx = alike.empty() ? m : alike[rng.below(static_cast<uint32_t>(alike.size()))];
        swapped += !alike.empty();
        s.apply(k, m);
        x.apply(k, mx);
      }
      for (int k = 0; k < s.num_seats(); ++k) {
        ASSERT_EQ(x.hand(k), s.hand(k)) << "game " << game << " seat " << k;
        ASSERT_EQ(x.discards(k), s.discards(k)) << "game " << game << " seat " << k;
        ASSERT_EQ(x.known(k), s.known(k)) << "game " << game << " seat " << k;
        ASSERT_EQ(x.balance(k), s.balance(k)) << "game " << game << " seat " << k;
      }
      ASSERT_EQ(x.pot(), s.pot());
      ASSERT_EQ(x.stock_drawn(), s.stock_drawn());
      ASSERT_EQ(x.phase(), s.phase());
      ASSERT_EQ(x.hands_finished(), s.hands_finished());
    }
  }
  EXPECT_GT(swapped, 500);
  // And the classes are not too coarse: with 3 and 5 to match, 3-4 turned up
  // is not 3-4 and 5-5 turned up, nor nothing turned up.
  State s = make(2);
  s.apply_chance_text(deal_text(s, {"3-4 5-5 1-1 2-2", "0-1 0-2 0-3 0-4"}));
  s.apply_chance_text("roll 3 5");
  const auto cls = [&](const char* t) { return DiceDominoes::move_class(s, 0, s.parse_move(0, t)); };
  EXPECT_EQ(cls("3-4 1-1"), cls("2-2 3-4"));
  EXPECT_NE(cls("3-4 1-1"), cls("3-4 5-5"));
  EXPECT_NE(cls("3-4 1-1"), cls("1-1 2-2"));
}

TEST(DiceDominoesText, ChanceTextReplaysTheGame) {
  // Records store chance texts and move texts: replaying them through the
  // type-erased adapter gives the same game.
  for (int players : {2, 4, 7}) {
    GameAdapter<DiceDominoes> a("dice-and-dominoes",
                                State(make_rules({{"players", std::to_string(players)}, {"hands", "3"}}), 5));
    GameAdapter<DiceDominoes> b("dice-and-dominoes",
                                State(make_rules({{"players", std::to_string(players)}, {"hands", "3"}}), 777));
    Rng rng(3);
    while (!a.terminal()) {
      const Actor act = a.actor();
      if (act.kind == Actor::Chance) {
        b.apply_chance(a.apply_chance());
        continue;
      }
      for (int k = 0; k < players; ++k) {
        if (!act.acts(k)) continue;
        const auto moves = a.legal_moves(k);
        ASSERT_EQ(moves, b.legal_moves(k));
        const std::string m = moves[rng.below(static_cast<uint32_t>(moves.size()))];
        EXPECT_EQ(a.apply(k, m), m);
        b.apply(k, m);
        if (act.kind == Actor::Seat) break;
      }
      ASSERT_EQ(a.view(-1), b.view(-1));
    }
    EXPECT_TRUE(b.terminal());
    EXPECT_EQ(a.returns(), b.returns());
    EXPECT_EQ(a.hands().size(), 3u);
    EXPECT_EQ(a.scores(), b.scores());
  }
}

TEST(DiceDominoesText, BadInputGivesClearErrors) {
  State s = make(3);
  EXPECT_THROW(s.apply_chance_text("roll 2 6"), Error);  // the deal comes first
  EXPECT_THROW(s.apply_chance_text("deal 6-6 5-5 / 4-4"), Error);
  EXPECT_THROW(s.apply_chance_text("deal 6-6 5-5 4-4 3-3 / 6-6 2-2 1-1 0-0 / 6-5 6-4 6-3 6-2"), Error);  // 6-6 twice
  EXPECT_THROW(s.apply_chance_text("shuffle"), Error);
  s.apply_chance_text(deal_text(s, {"6-6 5-5 4-4 3-3", "2-2 1-1 0-0 6-5", "6-4 6-3 6-2 6-1"}));
  EXPECT_THROW(s.apply_chance_text("roll 0 6"), Error);
  EXPECT_THROW(s.apply_chance_text("roll 7 1"), Error);
  EXPECT_THROW(s.apply_chance_text("roll 2"), Error);
  s.apply_chance_text("roll 2 6");
  EXPECT_EQ(s.chance_text(), "roll 2 6");
  try {
    s.parse_move(0, "6-6,1-1");
    FAIL();
  } catch (const Error& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("seat 0 does not hold 1-1 (hand:"), std::string::npos) << w;  // 6-6 is held: not named
    EXPECT_NE(w.find("legal now"), std::string::npos) << w;
  }
  auto why = [&](const char* move) { return refusal(s, 0, move); };
  EXPECT_NE(why("1-1,2-2").find("does not hold 1-1 2-2 (hand:"), std::string::npos) << why("1-1,2-2");
  EXPECT_NE(why("6-6,6-6").find("holds only one 6-6: name two tiles"), std::string::npos) << why("6-6,6-6");
  EXPECT_THROW(s.parse_move(0, "6-6"), Error);          // two tiles are laid
  EXPECT_THROW(s.parse_move(0, "6-6,5-5,4-4"), Error);  // not three
  EXPECT_THROW(s.parse_move(0, "6-6,5-5 x"), Error);
  EXPECT_THROW(s.parse_move(0, "keep"), Error);
  EXPECT_THROW(s.parse_move(0, ""), Error);
  EXPECT_THROW(s.parse_move(0, "6-6,6-6"), Error);  // one set: one 6-6
  EXPECT_EQ(s.move_text(s.parse_move(0, " [5|5] , [6|6] ")), "6-6,5-5");
}

TEST(DiceDominoesText, DealTextRoundTrips) {
  for (int players : {3, 9}) {
    State s = make(players);
    s.apply_chance();
    const std::string text = s.chance_text();
    State t = make(players);
    t.apply_chance_text(text);
    EXPECT_EQ(t.chance_text(), text);
    EXPECT_EQ(t.view(-1), s.view(-1));
  }
}

TEST(DiceDominoesObservation, HidesOtherHandsAndSubmissions) {
  State s = make(3);
  s.apply_chance_text(deal_text(s, {"6-6 5-5 4-4 3-3", "2-2 1-1 0-0 6-5", "6-4 6-3 6-2 6-1"}));
  s.apply_chance_text("roll 2 6");
  lay(s, 1, "2-2,6-5");
  EXPECT_EQ(s.actor(), Actor::simultaneous(0b101));
  const Observation o = s.observe(0);
  EXPECT_EQ(o.masked.hand(0), s.hand(0));
  EXPECT_EQ(o.masked.hand(1), 0u);
  EXPECT_EQ(o.masked.hand(2), 0u);
  EXPECT_EQ(o.masked.hand_count(1), 4);
  EXPECT_TRUE(o.masked.submitted(1));
  EXPECT_EQ(o.masked.submission(1), Move{});  // what seat 1 laid stays hidden
  for (int i = 0; i < o.masked.stock_size(); ++i) EXPECT_EQ(o.masked.stock_tile(i), 0);
  const auto v = s.view(0);
  EXPECT_TRUE(v["players"][1]["tiles"].is_null());
  EXPECT_FALSE(v["players"][1].contains("submission"));
  EXPECT_TRUE(v["players"][0]["tiles"].is_array());
  EXPECT_EQ(s.view(1)["players"][1]["submission"], "6-5,2-2");
  EXPECT_EQ(s.render(0).find("6-5"), std::string::npos);  // seat 1's tiles are not shown to seat 0
  // A sampled state is a full state consistent with what seat 0 knows.
  Rng rng(4);
  for (int i = 0; i < 50; ++i) {
    State x = DiceDominoes::sample(o, rng);
    check_conservation(x);
    EXPECT_EQ(x.hand(0), s.hand(0));
    EXPECT_EQ(x.hand_count(1), 4);
    EXPECT_TRUE(x.submitted(1));
    EXPECT_TRUE(pile::has(x.hand(1), x.submission(1).first));
    lay(x, 0, "6-6,5-5");
    MoveList<Move, DiceDominoes::kMaxMoves> l;
    x.legal_moves(2, l);
    x.apply(2, l[0]);
    EXPECT_EQ(x.phase(), Phase::Roll);
  }
}

TEST(DiceDominoesObservation, RevealedTilesThatGoBackArePublic) {
  State s = make(2);
  s.apply_chance_text(deal_text(s, {"3-2 4-2 5-1 6-4", "0-0 6-2 3-1 5-5"}));
  s.apply_chance_text("roll 2 6");
  lay(s, 0, "6-4,5-1");
  lay(s, 1, "6-2,0-0");
  const Observation o = s.observe(1);
  EXPECT_EQ(o.masked.known(0), tiles("6-4"));
  EXPECT_EQ(o.masked.last_round().seat[0].laid[1], kNone);  // 5-1 was face down
  Rng rng(1);
  for (int i = 0; i < 30; ++i) {
    const State x = DiceDominoes::sample(o, rng);
    EXPECT_TRUE(pile::has(x.hand(0), Tile::of(6, 4).index));
    EXPECT_EQ(x.hand(1), s.hand(1));
    check_conservation(x);
  }
  const std::string r = s.render(-1);
  EXPECT_NE(r.find("back to the hand by seat 1's perfect"), std::string::npos) << r;
  EXPECT_NE(s.render(1).find("one back to the hand face down"), std::string::npos);
}

TEST(DiceDominoesBots, GreedyHidesWhenASpecialIsCertain) {
  // Seat 1 turned up the wild and took it back: for match points 3 and 4
  // seat 0 knows its plain tiles would go back, so it hides them.
  State s = make(2);
  s.apply_chance_text(deal_text(s, {"3-2 4-2 5-1 6-4", "0-0 6-2 3-1 5-5"}, "1-0 2-0 6-6 6-5"));
  s.apply_chance_text("roll 2 6");
  lay(s, 0, "5-1,4-2");
  lay(s, 1, "0-0,6-2");  // the wild goes back (perfect of seat 1 stands)
  ASSERT_EQ(s.known(1), tiles("0-0"));
  s.apply_chance_text("roll 3 4");
  GreedyBot bot(1);
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  s.legal_moves(0, l);
  const SpecialRisk risk = special_risk(s, 0);
  EXPECT_DOUBLE_EQ(risk.at_least[1], 1.0);
  const Move m = bot.choose(s.observe(0), l.span());
  EXPECT_EQ(reveal(3, 4, m.first, m.second).mask, 0) << s.move_text(m);
  // With nothing known against it, it lays two tiles that go.
  State t = make(2);
  t.apply_chance_text(deal_text(t, {"3-2 4-2 5-1 6-4", "1-0 6-2 3-1 5-5"}));
  t.apply_chance_text("roll 3 4");
  t.legal_moves(0, l);
  const Move n = bot.choose(t.observe(0), l.span());
  EXPECT_EQ(reveal(3, 4, n.first, n.second).mask, 3) << t.move_text(n);
}

TEST(DiceDominoesBots, GreedyLaysPerfectAndKeepsGoodDice) {
  State s = make(3);
  s.apply_chance_text(deal_text(s, {"2-2 6-6 5-1 4-3", "6-2 5-3 1-1 4-4", "0-0 3-1 4-1 5-5"}));
  s.apply_chance_text("roll 2 6");
  GreedyBot bot(2);
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  s.legal_moves(0, l);
  EXPECT_EQ(s.move_text(bot.choose(s.observe(0), l.span())), "6-6,2-2");
  s.legal_moves(1, l);
  EXPECT_EQ(s.move_text(bot.choose(s.observe(1), l.span())).substr(0, 3), "6-2");
}

TEST(DiceDominoesBots, GreedyBeatsRandom) {
  // Chips per hand for one greedy seat against random ones, with a 95%
  // confidence interval that must lie above zero.
  const int hands = std::max(500, property_games(5000));
  State s(make_rules({{"players", "4"}, {"hands", std::to_string(hands)}}), 11);
  GreedyBot greedy(5);
  RandomBot<DiceDominoes> random(6);
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  double sum = 0, sum2 = 0;
  int seen = 0;
  while (!s.terminal()) {
    const Actor a = s.actor();
    if (a.kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    for (int k = 0; k < 4; ++k) {
      if (!a.acts(k)) continue;
      s.legal_moves(k, l);
      Bot<DiceDominoes>& b = k == 0 ? static_cast<Bot<DiceDominoes>&>(greedy) : random;
      s.apply(k, b.choose(s.observe(k), l.span()));
      if (a.kind == Actor::Seat) break;
    }
    if (s.hands_finished() > seen) {
      seen = s.hands_finished();
      const double x = s.last_result().net[0];
      sum += x;
      sum2 += x * x;
    }
  }
  const double mean = sum / seen;
  const double se = std::sqrt((sum2 / seen - mean * mean) / seen);
  std::printf("greedy vs 3 random, %d hands: %.3f chips/hand +- %.3f (95%%)\n", seen, mean, 1.96 * se);
  EXPECT_GT(mean - 1.96 * se, 0.0);
}

// Playouts pick moves without listing them (State::apply_random); they must
// pick the same ones, with the same draws.
TEST(DiceDominoesProperties, PlayoutMovesMatchTheListedMoves) {
  for (const char* players : {"2", "4", "5"}) {
    SCOPED_TRACE(players);
    boneyard::testing::expect_apply_random_matches_list<DiceDominoes>(
        State(make_rules({{"players", players}, {"hands", "50"}}), 5), 300, 11);
  }
  SCOPED_TRACE("two sets");
  boneyard::testing::expect_apply_random_matches_list<DiceDominoes>(
      State(make_rules({{"players", "10"}, {"sets", "2"}, {"hands", "50"}}), 5), 300, 11);
}
