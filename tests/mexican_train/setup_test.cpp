// Set-up: hand sizes, the engine rules, options, deals (spec: Set-up).
#include <nlohmann/json.hpp>

#include "helpers.h"

using namespace mt_test;

TEST(MexicanTrainSetup, HandSizesForTwoToEightPlayers) {
  // Spec Set-up: 2-4 players 15, 5-6 12, 7-8 11; double-nine 10 / 8 / 6.
  const int twelve[] = {0, 0, 15, 15, 15, 12, 12, 11, 11};
  const int nine[] = {0, 0, 10, 10, 10, 8, 8, 6, 6};
  for (int p = 2; p <= 8; ++p) {
    for (const char* set : {"double-twelve", "double-nine", "double-fifteen"}) {
      State s = make({{"players", std::to_string(p)}, {"set", set}, {"engine", "round_doubles"}}, 5);
      s.apply_chance();
      const int want = std::string(set) == "double-nine" ? nine[p] : twelve[p];
      int in_hands = 0;
      for (int k = 0; k < p; ++k) {
        EXPECT_EQ(s.hand_count(k), want) << set << " players " << p;
        in_hands += s.hand_count(k);
      }
      EXPECT_EQ(in_hands + s.stock_left() + 1, s.set_tiles().size());  // +1: the engine
    }
  }
}

TEST(MexicanTrainSetup, SourceExamplePenalty) {
  // Spec: "Hand left 6-11, 3-4, 2-0 scores 26".
  State s = make({});
  TileSet h;
  h.add(T("6-11"));
  h.add(T("3-4"));
  h.add(T("2-0"));
  EXPECT_EQ(s.penalty_of(h), 26);
  TileSet blank;
  blank.add(T("0-0"));
  EXPECT_EQ(s.penalty_of(blank), 0);
  State fifty = make({{"blank_double_50", "on"}});
  EXPECT_EQ(fifty.penalty_of(blank), 50);
  blank.add(T("2-1"));
  EXPECT_EQ(fifty.penalty_of(blank), 53);
}

TEST(MexicanTrainSetup, EngineIsTheHighestDoubleInTheStartPlayersHand) {
  State s = make({{"players", "2"}, {"set", "double-nine"}});
  deal(s, {"7-7 3-3 0-1 0-2 0-3 0-4 0-5 0-6 0-7 1-2", "9-9 8-8 1-3 1-4 1-5 1-6 1-7 2-3 2-4 2-5"});
  EXPECT_EQ(s.engine(), T("7-7"));  // seat 1's 9-9 does not count: seat 0 starts
  EXPECT_EQ(s.engine_seat(), 0);
  EXPECT_FALSE(s.hand(0).has(T("7-7")));
  EXPECT_TRUE(s.hand(0).has(T("3-3")));
  EXPECT_EQ(s.hand_count(0), 9);
  for (int k : {0, 1, kMexican}) EXPECT_EQ(s.train_end(k), 7);
  EXPECT_EQ(s.phase(), Phase::Opening);
  EXPECT_EQ(s.to_move(), 0);
}

TEST(MexicanTrainSetup, StartPlayerWithoutDoubleDrawsUntilOne) {
  State s = make({{"players", "2"}, {"set", "double-nine"}});
  // Seat 0 has no double: draws 2-1, 5-4, then 6-6, which is the engine.
  deal(s, {"0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 1-3", "9-9 8-8 1-4 1-5 1-6 1-7 2-3 2-4 2-5 2-6"}, "2-1 5-4 6-6");
  EXPECT_EQ(s.engine(), T("6-6"));
  EXPECT_EQ(s.engine_seat(), 0);
  EXPECT_EQ(s.engine_draws(), 3);
  EXPECT_EQ(s.hand_count(0), 12);
  EXPECT_TRUE(s.hand(0).has(T("2-1")));
  EXPECT_TRUE(s.hand(0).has(T("5-4")));
  EXPECT_EQ(s.stock_left(), 35 - 3);
  EXPECT_EQ(s.double_cap(0), -1);  // public: seat 0 holds no double
  EXPECT_EQ(s.to_move(), 0);       // the opening still starts with the start player
}

TEST(MexicanTrainSetup, NextPlayerTakesOverWhenTheBoneyardRunsOut) {
  // 8 players, double-nine: 6 tiles each, 7 in the boneyard, none a double.
  State s = make({{"players", "8"}, {"set", "double-nine"}});
  deal(s,
       {"0-1 0-2 0-3 0-4 0-5 0-6", "5-5 0-7 0-8 0-9 1-2 1-3", "0-0 1-1 2-2 3-3 4-4 6-6", "7-7 8-8 9-9 1-4 1-5 1-6",
        "1-7 1-8 1-9 2-3 2-4 2-5", "2-6 2-7 2-8 2-9 3-4 3-5", "3-6 3-7 3-8 3-9 4-5 4-6", "4-7 4-8 4-9 5-6 5-7 5-8"},
       "5-9 6-7 6-8 6-9 7-8 7-9 8-9");
  EXPECT_EQ(s.engine_draws(), 7);
  EXPECT_EQ(s.stock_left(), 0);
  EXPECT_EQ(s.hand_count(0), 13);  // the seven singles stay with seat 0
  EXPECT_EQ(s.engine_seat(), 1);   // seat 1 places its highest double
  EXPECT_EQ(s.engine(), T("5-5"));
  EXPECT_EQ(s.to_move(), 0);
}

TEST(MexicanTrainSetup, RoundDoublesGoFromTwelveDownToBlank) {
  State s = make({{"engine", "round_doubles"}}, 9);
  Rng rng(3);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  for (int r = 0; r < 13; ++r) {
    ASSERT_EQ(s.phase(), Phase::Deal);
    s.apply_chance();
    EXPECT_EQ(s.engine(), Tile::of(12 - r, 12 - r));
    EXPECT_EQ(s.start_seat(), r % 4);  // spec: Decision, the next seat starts each round
    for (int k = 0; k < 4; ++k) EXPECT_FALSE(s.hand(k).has(s.engine()));
    while (s.actor().kind == Actor::Seat) {
      s.legal_moves(s.to_move(), l);
      s.apply(s.to_move(), l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
  }
  EXPECT_TRUE(s.terminal());
  EXPECT_EQ(s.hands_finished(), 13);
}

TEST(MexicanTrainSetup, OptionsAndErrors) {
  EXPECT_EQ(make_rules({}).total_rounds(), 13);
  EXPECT_EQ(make_rules({{"engine", "round_doubles"}, {"set", "double-fifteen"}}).total_rounds(), 16);
  EXPECT_EQ(make_rules({{"rounds", "3"}}).total_rounds(), 3);
  EXPECT_THROW(make_rules({{"colour", "red"}}), Error);
  EXPECT_THROW(make_rules({{"players", "9"}}), Error);
  EXPECT_THROW(make_rules({{"players", "1"}}), Error);
  EXPECT_THROW(make_rules({{"set", "double-six"}}), Error);
  EXPECT_THROW(make_rules({{"engine", "round_doubles"}, {"rounds", "14"}}), Error);
  EXPECT_THROW(make_rules({{"multiple_doubles", "maybe"}}), Error);
  try {
    make_rules({{"engine", "lowest"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("highest_in_hand"), std::string::npos);
  }
}

TEST(MexicanTrainSetup, BadDealsAreRejected) {
  State s = two_nine();
  EXPECT_THROW(s.apply_chance_text("deal 1-2"), Error);
  EXPECT_THROW(s.apply_chance_text("hand 1-2 / 3-4"), Error);
  EXPECT_THROW(deal(s, {"9-9 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 1-1", "1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 2-2 2-3"}),
               Error);  // the engine
  EXPECT_THROW(deal(s, {"0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8", "1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 2-2 2-3"}),
               Error);  // 9 tiles
  EXPECT_THROW(s.apply_chance_text(
                   "deal 0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 / 1-1 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9 2-2 stock 3-3"),
               Error);
  EXPECT_EQ(s.phase(), Phase::Deal);
}

TEST(MexicanTrainSetup, ChanceTextReplaysTheDeal) {
  for (const char* mode : {"highest_in_hand", "round_doubles"}) {
    State a = make({{"engine", mode}}, 77);
    a.apply_chance();
    State b = make({{"engine", mode}}, 1234);
    b.apply_chance_text(a.chance_text());
    for (int k = 0; k < 4; ++k) EXPECT_EQ(a.hand(k), b.hand(k));
    EXPECT_EQ(a.engine(), b.engine());
    EXPECT_EQ(a.stock_left(), b.stock_left());
    for (int i = 0; i < a.stock_left(); ++i) EXPECT_EQ(a.stock_at(i), b.stock_at(i));
    EXPECT_EQ(a.chance_text(), b.chance_text());
  }
}
