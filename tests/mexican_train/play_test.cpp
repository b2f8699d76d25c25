// The opening turn, normal turns, markers, the Mexican train, doubles and
// their exceptions (spec: Play), on explicit deals.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "../refusal.h"
#include "helpers.h"

using namespace mt_test;

namespace {
bool has(const std::vector<std::string>& v, const std::string& m) {
  return std::find(v.begin(), v.end(), m) != v.end();
}

// Seat 0 opens 9-1 1-2; seat 1 draws 9-3 and lays 3-4; both stop.
State station_game() {
  State s = two_nine();
  deal(s, {"9-1 1-2 1-5 9-6 6-7 4-5 3-8 8-8 3-3 5-5", "3-4 6-6 7-0 5-8 1-1 2-2 1-8 2-8 0-2 0-1"}, "9-3 0-0");
  return s;
}
}  // namespace

TEST(MexicanTrainPlay, OpeningTurnChainsOnTheOwnTrainOnly) {
  State s = station_game();
  EXPECT_EQ(legal(s), (std::vector<std::string>{"9-1:T0", "9-6:T0"}));  // no Mexican train in the opening
  play(s, "9-1");
  EXPECT_EQ(s.to_move(), 0);  // must go on while a tile fits
  EXPECT_NE(refusal(s, s.to_move(), "end_opening").find("your opening turn goes on while a tile fits your own train"),
            std::string::npos)
      << refusal(s, s.to_move(), "end_opening");
  EXPECT_EQ(legal(s), (std::vector<std::string>{"2-1:T0", "5-1:T0"}));
  play(s, "1-2");
  EXPECT_EQ(legal(s), std::vector<std::string>{"end_opening"});
  play(s, "end_opening");
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_EQ(s.train_end(0), 2);
  EXPECT_FALSE(s.marked(0));
  // Seat 1 has no 9: it draws; 9-3 fits and is laid, then 3-4 follows.
  EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});
  EXPECT_EQ(s.move_words(1, s.parse_move(1, "draw")), "draw");  // no double binds it: no reason given
  play(s, "draw");
  EXPECT_EQ(legal(s), std::vector<std::string>{"9-3:T1"});
  play(s, "9-3");
  EXPECT_EQ(legal(s), std::vector<std::string>{"4-3:T1"});
  play(s, "3-4");
  play(s, "end_opening");
  EXPECT_EQ(s.phase(), Phase::Play);
  EXPECT_EQ(s.to_move(), 0);
  EXPECT_EQ(s.train_end(1), 4);
  EXPECT_NE(refusal(s, s.to_move(), "end_opening").find("the opening turns are over"), std::string::npos)
      << refusal(s, s.to_move(), "end_opening");
}

TEST(MexicanTrainPlay, MexicanTrainDoublesMarkersInSequence) {
  State s = station_game();
  for (const char* m : {"9-1", "1-2", "end_opening", "draw", "9-3", "3-4", "end_opening"}) play(s, m);
  // Starting the Mexican train with a tile showing the engine's number.
  EXPECT_FALSE(s.mexican_started());
  EXPECT_EQ(legal(s), std::vector<std::string>{"9-6:M"});
  play(s, "9-6:M");
  EXPECT_TRUE(s.mexican_started());
  EXPECT_EQ(s.train_end(kMexican), 6);
  EXPECT_EQ(s.to_move(), 1);  // one tile a turn
  // Seat 1 lays 6-6 on the Mexican train, cannot cover it, draws 0-0: marker.
  EXPECT_EQ(legal(s), std::vector<std::string>{"6-6:M"});
  play(s, "6-6:M");
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_TRUE(s.owes_cover());
  EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});
  play(s, "draw");
  EXPECT_TRUE(s.marked(1));
  EXPECT_EQ(s.to_move(), 0);
  EXPECT_EQ(s.open_doubles(), 1);
  EXPECT_EQ(s.open_double_train(0), kMexican);
  // The open double forces seat 0: only a cover, not the marked train.
  EXPECT_EQ(legal(s), std::vector<std::string>{"7-6:M"});
  EXPECT_THROW(s.parse_move(0, "4-5:T1"), Error);
  play(s, "6-7");
  EXPECT_EQ(s.open_doubles(), 0);
  EXPECT_EQ(s.to_move(), 1);
  // Seat 1 keeps its marker while playing on the Mexican train.
  EXPECT_TRUE(has(legal(s), "7-0:M"));
  play(s, "7-0:M");
  EXPECT_TRUE(s.marked(1));
  // Seat 0 may play on seat 1's marked train.
  EXPECT_TRUE(has(legal(s), "5-4:T1"));
  play(s, "4-5:T1");
  EXPECT_TRUE(s.marked(1));  // only the owner lifts the marker
  // Seat 1 plays on its own train: the marker is removed.
  EXPECT_TRUE(has(legal(s), "8-5:T1"));
  play(s, "5-8:T1");
  EXPECT_FALSE(s.marked(1));
  for (const auto& m : legal(s)) EXPECT_EQ(m.find(":T1"), std::string::npos) << m;
  EXPECT_THROW(s.parse_move(0, "8-8:T1"), Error);
}

TEST(MexicanTrainPlay, OpeningChainEndingOnADoubleDrawsToCoverIt) {
  State s = two_nine();
  deal(s, {"9-2 2-2 0-0 0-1 1-1 0-3 0-4 0-5 0-6 0-7", "9-8 1-3 1-4 1-5 1-6 1-7 1-8 3-3 3-4 4-4"}, "2-5 0-8");
  play(s, "9-2");
  play(s, "2-2");
  EXPECT_TRUE(s.owes_cover());
  EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});  // not end_opening
  EXPECT_EQ(s.move_words(0, s.parse_move(0, "draw")), "draw (the open double 2-2 on your train must be covered first)");
  play(s, "draw");  // 2-5 covers it
  EXPECT_EQ(legal(s), std::vector<std::string>{"5-2:T0"});
  play(s, "5-2");
  EXPECT_EQ(s.open_doubles(), 0);
  // 0-5 fits the new end: the opening chain goes on.
  EXPECT_EQ(legal(s), std::vector<std::string>{"5-0:T0"});
}

TEST(MexicanTrainPlay, OpeningDoubleLeftOpenBindsTheFirstNormalTurn) {
  State s = two_nine();
  deal(s, {"9-2 2-2 0-0 0-1 1-1 0-3 0-4 0-5 0-6 0-7", "9-8 2-8 1-4 1-5 1-6 1-7 1-8 3-3 3-4 4-4"}, "5-5 0-8");
  play(s, "9-2");
  play(s, "2-2");
  play(s, "draw");  // 5-5 does not cover 2-2: marker, the double stays open
  EXPECT_TRUE(s.marked(0));
  EXPECT_EQ(s.open_doubles(), 1);
  EXPECT_EQ(s.to_move(), 1);
  // Seat 1's opening is on its own train only.
  EXPECT_EQ(legal(s), std::vector<std::string>{"9-8:T1"});
  play(s, "9-8");
  EXPECT_TRUE(has(legal(s), "8-2:T1"));
  play(s, "8-2:T1");
  EXPECT_EQ(legal(s), std::vector<std::string>{"end_opening"});
  play(s, "end_opening");
  // Seat 0's first normal turn: it must cover its own open double, cannot, draws 0-8.
  EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});
  EXPECT_EQ(s.move_words(0, s.parse_move(0, "draw")), "draw (the open double 2-2 on your train must be covered first)");
  play(s, "draw");
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_TRUE(s.marked(0));
  EXPECT_EQ(s.open_doubles(), 1);
  EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});  // seat 1 holds no 2 either
  EXPECT_EQ(s.move_words(1, s.parse_move(1, "draw")),
            "draw (the open double 2-2 on seat 0's train must be covered first)");
}

// Spec Play 5: a double just drawn and laid must be covered like any
// double: from the hand, else by drawing once more; a marker only if that
// second tile does not fit either.
TEST(MexicanTrainPlay, DoubleLaidFromTheDrawDrawsOnceMoreToCoverIt) {
  for (const bool second_fits : {true, false}) {
    SCOPED_TRACE(second_fits ? "the second draw covers" : "the second draw does not fit");
    State s = two_nine();
    deal(s, {"9-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 2-3 2-4", "9-3 4-5 4-6 4-7 4-8 5-7 5-8 6-7 6-8 7-8"},
         second_fits ? "1-1 1-5" : "1-1 5-6");
    for (const char* m : {"9-1", "end_opening", "9-3", "end_opening"}) play(s, m);
    ASSERT_EQ(s.phase(), Phase::Play);
    // Seat 0 holds no 1 and no 9: it draws 1-1, which fits its own train.
    EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});
    play(s, "draw");
    EXPECT_EQ(legal(s), std::vector<std::string>{"1-1:T0"});
    play(s, "1-1");
    EXPECT_EQ(s.to_move(), 0);
    EXPECT_FALSE(s.marked(0));
    EXPECT_TRUE(s.owes_cover());
    EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});  // nothing in hand covers it: draw once more
    play(s, "draw");
    if (second_fits) {
      EXPECT_EQ(legal(s), std::vector<std::string>{"5-1:T0"});
      play(s, "5-1");
      EXPECT_FALSE(s.marked(0));
      EXPECT_EQ(s.open_doubles(), 0);
      EXPECT_EQ(s.train_end(0), 5);
    } else {
      EXPECT_TRUE(s.marked(0));
      EXPECT_EQ(s.open_doubles(), 1);
      EXPECT_TRUE(s.hand(0).has(T("6-5")));
    }
    EXPECT_EQ(s.to_move(), 1);
  }
}

TEST(MexicanTrainPlay, UnplayableDrawInTheOpeningPutsAMarker) {
  State s = two_nine();
  deal(s, {"0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 1-1 1-2", "9-8 1-3 1-4 1-5 1-6 1-7 1-8 3-3 3-4 4-4"}, "5-5");
  EXPECT_EQ(legal(s), std::vector<std::string>{"draw"});
  play(s, "draw");
  EXPECT_TRUE(s.marked(0));
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_EQ(s.train_length(0), 0);
  EXPECT_TRUE(s.hand(0).has(T("5-5")));
  EXPECT_EQ(s.known_void(0), 1u << 9);  // public: seat 0 held no 9
}

TEST(MexicanTrainPlay, ExceptionOneLastDoubleOfItsNumberNeedsNoCover) {
  State s = two_nine();
  deal(s, {"9-8 8-1 1-0 0-8 8-2 2-3 3-8 4-4 5-5 7-7", "9-4 8-4 8-5 6-5 8-6 8-7 0-0 1-1 2-2 3-3"}, "8-8 0-9");
  for (const char* m : {"9-8", "8-1", "1-0", "0-8", "8-2", "2-3", "3-8", "end_opening"}) play(s, m);
  for (const char* m : {"9-4", "4-8", "8-5", "5-6", "6-8", "8-7", "end_opening"}) play(s, m);
  ASSERT_EQ(s.phase(), Phase::Play);
  play(s, "draw");  // 8-8, the last tile showing 8
  EXPECT_EQ(legal(s), std::vector<std::string>{"8-8:T0"});
  EXPECT_EQ(words_heard(s, 0, s.parse_move(0, "8-8"), 1),
            "8-8 on its own train (the last tile showing 8: nobody covers it)");
  play(s, "8-8");
  EXPECT_EQ(s.open_doubles(), 0);
  EXPECT_EQ(s.to_move(), 1);  // play goes on normally
  EXPECT_FALSE(s.marked(0));
}

TEST(MexicanTrainPlay, ExceptionTwoDoubleOnOwnMarkedTrain) {
  State s = two_nine();
  deal(s, {"9-3 0-1 0-2 0-4 0-5 1-5 0-7 0-8 1-2 1-4", "9-5 5-6 1-1 2-2 4-4 1-7 1-8 2-4 2-7 4-7"}, "0-0 7-7 3-3");
  for (const char* m : {"9-3", "end_opening", "9-5", "5-6", "end_opening"}) play(s, m);
  play(s, "draw");  // seat 0: 0-0 fits nothing: marker
  EXPECT_TRUE(s.marked(0));
  play(s, "draw");  // seat 1: 7-7 fits nothing: marker
  EXPECT_TRUE(s.marked(1));
  play(s, "draw");  // seat 0: 3-3 fits its own marked train
  EXPECT_EQ(legal(s), std::vector<std::string>{"3-3:T0"});
  EXPECT_EQ(s.move_words(0, s.parse_move(0, "3-3")),
            "3-3 on your train (your marker comes off; a double laid there needs no cover)");
  EXPECT_EQ(words_heard(s, 0, s.parse_move(0, "3-3"), -1),
            "3-3 on its own train (its marker comes off; a double laid there needs no cover)");
  play(s, "3-3");
  EXPECT_FALSE(s.marked(0));       // the marker is removed
  EXPECT_EQ(s.open_doubles(), 0);  // nobody has to cover it
  EXPECT_EQ(s.to_move(), 1);       // the turn passes
}

TEST(MexicanTrainPlay, ExceptionThreeDoubleAsLastTileEndsTheRound) {
  State s = two_nine();
  deal(s, {"9-0 0-1 1-2 2-3 3-4 4-5 5-6 6-7 7-8 8-8", "0-2 0-3 0-4 0-5 0-6 0-7 0-8 1-3 1-4 1-5"});
  for (const char* m : {"9-0", "0-1", "1-2", "2-3", "3-4", "4-5", "5-6", "6-7", "7-8", "8-8"}) play(s, m);
  EXPECT_EQ(s.hands_finished(), 1);
  EXPECT_EQ(s.last_result().end, RoundEnd::Domino);
  EXPECT_EQ(s.last_result().out_seat, 0);
  EXPECT_EQ(s.last_result().penalty[0], 0);
  EXPECT_EQ(s.last_result().penalty[1], 2 + 3 + 4 + 5 + 6 + 7 + 8 + 4 + 5 + 6);
  EXPECT_EQ(s.score(1), 50);
  EXPECT_EQ(s.phase(), Phase::Deal);
  EXPECT_EQ(s.engine(), T("8-8"));  // round 2 of round_doubles
  // Until round 2 is dealt, the board is round 1's: its engine and trains.
  const nlohmann::json v = s.view(1);
  EXPECT_EQ(v["engine"], "9-9") << v.dump();
  ASSERT_TRUE(v.contains("trains")) << v.dump();
  EXPECT_EQ(v["trains"][0]["tiles"].size(), 10u) << v.dump();
  EXPECT_EQ(v["trains"][0]["tiles"][9], "8-8") << v.dump();
  const HandSummary h = s.last_hand();
  EXPECT_EQ(h.winner_side, 0);
  EXPECT_EQ(h.side_points[1], 50);
}

TEST(MexicanTrainPlay, CoveringTileEndsTheTurnUnlessMultipleDoubles) {
  auto game = [](const char* md) {
    State s = make({{"players", "2"}, {"set", "double-nine"}, {"engine", "round_doubles"}, {"multiple_doubles", md}});
    deal(s, {"9-3 9-6 6-6 6-1 8-8 2-2 2-5 0-0 0-2 5-5", "9-8 1-3 1-4 1-5 1-7 3-3 3-4 0-1 0-3 4-7"}, "7-7 8-1");
    for (const char* m : {"9-3", "end_opening", "9-8", "end_opening", "9-6:M", "draw"}) play(s, m);
    EXPECT_TRUE(s.marked(1));
    return s;
  };
  State s = game("off");
  play(s, "6-6:M");
  EXPECT_EQ(legal(s), std::vector<std::string>{"6-1:M"});  // one covering tile, no further double
  play(s, "6-1");
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_EQ(s.open_doubles(), 0);
  State m = game("on");
  play(m, "6-6:M");
  EXPECT_EQ(legal(m), (std::vector<std::string>{"6-1:M", "8-8:T1"}));
  play(m, "8-8:T1");
  EXPECT_EQ(m.open_doubles(), 2);
  EXPECT_EQ(legal(m), std::vector<std::string>{"6-1:M"});  // the oldest double first
  play(m, "6-1");
  EXPECT_EQ(m.to_move(), 1);
  EXPECT_EQ(m.open_doubles(), 1);
  EXPECT_EQ(m.open_double_train(0), 1);
  EXPECT_EQ(legal(m), std::vector<std::string>{"draw"});  // seat 1 must cover 8-8
  play(m, "draw");
  EXPECT_EQ(legal(m), std::vector<std::string>{"8-1:T1"});
  play(m, "8-1");
  EXPECT_FALSE(m.marked(1));
  EXPECT_EQ(m.open_doubles(), 0);
}

TEST(MexicanTrainPlay, MoveTextRoundTripsAndErrorsNameTheMove) {
  State s = station_game();
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  s.legal_moves(0, l);
  for (const Move& m : l) EXPECT_EQ(s.parse_move(0, s.move_text(m)), m);
  EXPECT_EQ(s.parse_move(0, "[9|1] own"), (Move{Move::Lay, T("9-1").index, 0}));
  EXPECT_EQ(s.parse_move(0, "1-9:t0"), (Move{Move::Lay, T("9-1").index, 0}));
  try {
    s.parse_move(0, "9-1:M");
    FAIL();
  } catch (const Error& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("9-1:M"), std::string::npos);
    EXPECT_NE(w.find("legal now"), std::string::npos);
  }
  EXPECT_THROW(s.parse_move(0, "draw"), Error);
  EXPECT_THROW(s.parse_move(0, "3-4"), Error);    // not held
  EXPECT_THROW(s.parse_move(0, "10-4"), Error);   // not in the set
  EXPECT_THROW(s.parse_move(0, "9-1:Q"), Error);  // no such train
  EXPECT_THROW(s.parse_move(1, "9-1"), Error);    // not seat 1's turn (no legal moves)
}
