// Every rule of rules/dice-and-dominoes.md with explicit hands and dice.
#include <gtest/gtest.h>

#include "helpers.h"

using namespace dd_test;

namespace {
// Two players: seat 0 holds 3-2 4-2 5-1 6-4, seat 1 holds 0-0 6-2 3-1 5-5.
State two_player() {
  State s = make(2);
  s.apply_chance_text(deal_text(s, {"3-2 4-2 5-1 6-4", "0-0 6-2 3-1 5-5"}));
  return s;
}
}  // namespace

TEST(DiceDominoesSetup, AnteAndDealAndRoller) {
  // Spec: Set-up. Everyone pays the ante into the pot and draws 4.
  State s = make(3, {{"ante", "5"}});
  EXPECT_EQ(s.pot(), 15);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(s.balance(k), -5);
  EXPECT_EQ(s.actor().kind, Actor::Chance);
  s.apply_chance();
  for (int k = 0; k < 3; ++k) EXPECT_EQ(s.hand_count(k), 4);
  EXPECT_EQ(s.boneyard(), 28 - 12);
  EXPECT_EQ(s.phase(), Phase::Roll);
  EXPECT_EQ(s.roller(), 0);  // seat 0 rolls the first round
  s.apply_chance();
  EXPECT_GE(s.die(0), 1);
  EXPECT_LE(s.die(0), 6);
  EXPECT_EQ(s.actor(), Actor::simultaneous(0b111));
}

TEST(DiceDominoesSetup, PlayersAndSets) {
  EXPECT_EQ(make_rules({{"players", "5"}}).sets, 1);
  EXPECT_EQ(make_rules({{"players", "6"}}).sets, 2);  // Decision: 6 to 10 on two sets
  EXPECT_THROW(make_rules({{"players", "6"}, {"sets", "1"}}), Error);
  EXPECT_THROW(make_rules({{"players", "5"}, {"sets", "2"}}), Error);
  EXPECT_THROW(make_rules({{"players", "11"}}), Error);
  EXPECT_THROW(make_rules({{"players", "1"}}), Error);
  EXPECT_THROW(make_rules({{"ante", "0"}}), Error);
  EXPECT_THROW(make_rules({{"hands", "x"}}), Error);
  try {
    make_rules({{"colour", "red"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("colour"), std::string::npos);
  }
  State s = make(8);
  s.apply_chance();
  EXPECT_EQ(s.boneyard(), 56 - 32);
}

TEST(DiceDominoesRound, OneTilePerDie) {
  // Spec: A round 3. Match points 2 and 6: 2-3 and 2-4 both need the 2.
  State s = two_player();
  s.apply_chance_text("roll 2 6");
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  s.legal_moves(0, l);
  bool fwd = false, rev = false;
  for (const Move& m : l) {
    fwd |= s.move_text(m) == "4-2,3-2";
    rev |= s.move_text(m) == "3-2,4-2";
  }
  EXPECT_TRUE(fwd && rev) << "order matters here, so both orders are legal";
  // Said in words with its order where the order matters, and with "and"
  // where it does not: typed the other way round it is the same move, which
  // the terminal echoes without an order of preference it does not have.
  EXPECT_EQ(s.move_words(0, s.parse_move(0, "3-2,4-2")), "lay 3-2 then 4-2 face down");
  EXPECT_EQ(s.move_words(0, s.parse_move(0, "5-1,6-4")), "lay 6-4 and 5-1 face down");
  EXPECT_EQ(s.move_words(0, s.parse_move(0, "6-4,5-1")), "lay 6-4 and 5-1 face down");
  lay(s, 0, "3-2,4-2");  // 3-2 preferred
  lay(s, 1, "3-1,5-5");  // nothing matches
  const SeatRound& r = s.last_round().seat[0];
  EXPECT_EQ(r.revealed, 1);  // 4-2 stays face down
  EXPECT_EQ(r.stood, 1);
  EXPECT_EQ(s.discards(0), tiles("3-2"));
  EXPECT_TRUE(pile::has(s.hand(0), Tile::of(4, 2).index));
  EXPECT_EQ(s.known(0), 0u);  // a face-down tile tells nothing

  State t = two_player();
  t.apply_chance_text("roll 2 6");
  EXPECT_EQ(t.parse_move(0, "[2|3] 4|2"), t.parse_move(0, "3-2,4-2"));
  EXPECT_EQ(t.move_text(t.parse_move(0, "2-4,2-3")), "4-2,3-2");
  State u = two_player();
  u.apply_chance_text("roll 2 6");
  lay(u, 0, "4-2 3-2");  // 4-2 preferred
  lay(u, 1, "3-1,5-5");
  EXPECT_EQ(u.discards(0), tiles("4-2"));
}

TEST(DiceDominoesRound, DoublesDiceAllowBoth) {
  // With match points 2 and 2, 2-3 and 2-4 both go; the order is then
  // irrelevant and only one order is listed.
  State s = two_player();
  s.apply_chance_text("roll 2 2");
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  s.legal_moves(0, l);
  int n = 0;
  for (const Move& m : l) n += s.move_text(m) == "3-2,4-2";
  EXPECT_EQ(n, 0);
  EXPECT_EQ(l.size(), 6);  // C(4,2)
  lay(s, 0, "3-2,4-2");
  lay(s, 1, "3-1,5-5");
  EXPECT_EQ(s.discards(0), tiles("3-2 4-2"));
  EXPECT_EQ(s.hand_count(0), 2 + 1);  // drew one
}

TEST(DiceDominoesRound, DifferentDiceTakeOneTileEach) {
  State s = two_player();
  s.apply_chance_text("roll 2 4");
  lay(s, 0, "3-2,6-4");  // 3-2 on the 2, 6-4 on the 4
  lay(s, 1, "3-1,5-5");
  EXPECT_EQ(s.discards(0), tiles("3-2 6-4"));
}

TEST(DiceDominoesSpecials, WildSendsOthersBackEveryoneDraws) {
  // Spec: A round 4, wild. 0-0 goes whatever the dice and uses no die.
  State s = make(3);
  s.apply_chance_text(deal_text(s, {"0-0 5-1 3-3 4-4", "3-2 6-4 1-1 5-3", "4-2 5-5 1-0 6-6"}, "6-5 6-3 6-1"));
  s.apply_chance_text("roll 2 6");
  lay(s, 0, "0-0,5-1");
  lay(s, 1, "3-2,6-4");
  lay(s, 2, "4-2,5-5");
  const RoundRecord& r = s.last_round();
  EXPECT_EQ(r.top_rank, kRankWild);
  EXPECT_EQ(s.discards(0), tiles("0-0"));
  EXPECT_EQ(r.seat[1].revealed, 3);
  EXPECT_EQ(r.seat[1].stood, 0);
  EXPECT_EQ(s.discards(1), 0u);
  EXPECT_EQ(s.known(1), tiles("3-2 6-4"));  // turned up, then taken back: public
  EXPECT_EQ(s.known(2), tiles("4-2"));
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(r.seat[k].drew) << k;
  EXPECT_EQ(s.hand_count(0), 4);
  EXPECT_EQ(s.hand_count(1), 5);
  EXPECT_TRUE(pile::has(s.hand(0), Tile::of(6, 5).index));  // draws from the roller, in seat order
  EXPECT_TRUE(pile::has(s.hand(1), Tile::of(6, 3).index));
}

TEST(DiceDominoesSpecials, WildKeepsItsPlayersOtherTile) {
  State s = two_player();
  s.apply_chance_text("roll 3 4");
  lay(s, 0, "3-2,6-4");
  lay(s, 1, "0-0,3-1");
  EXPECT_EQ(s.discards(1), tiles("0-0 3-1"));
  EXPECT_EQ(s.discards(0), 0u);
}

TEST(DiceDominoesSpecials, PerfectSendsOthersBackAndSkipsItsDraw) {
  State s = two_player();
  s.apply_chance_text("roll 2 6");
  lay(s, 0, "3-2,6-4");
  lay(s, 1, "6-2,5-5");  // 6-2 shows both match points
  const RoundRecord& r = s.last_round();
  EXPECT_EQ(r.top_rank, kRankPerfect);
  EXPECT_EQ(s.discards(1), tiles("6-2"));
  EXPECT_EQ(s.discards(0), 0u);
  EXPECT_FALSE(r.seat[1].drew);
  EXPECT_TRUE(r.seat[0].drew);
  EXPECT_EQ(s.hand_count(1), 3);
  EXPECT_EQ(s.hand_count(0), 5);
  EXPECT_EQ(s.best_special(1), kRankPerfect);
  // The round's account says why seat 1 drew nothing, and only for seat 1.
  const std::string text = round_text(s, r, 0);
  EXPECT_NE(
      text.find("seat 1: laid 2: 6-2 discarded; one back to the hand face down  [perfect]  (no draw after a perfect)"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find("no draw", text.find("no draw") + 1), std::string::npos) << text;
}

TEST(DiceDominoesSpecials, PerfectOnDoublesDiceIsTheDouble) {
  State s = two_player();
  s.apply_chance_text("roll 5 5");
  lay(s, 0, "5-1,3-2");
  lay(s, 1, "5-5,3-1");
  EXPECT_EQ(s.last_round().top_rank, kRankPerfect);
  EXPECT_EQ(s.discards(1), tiles("5-5"));
  EXPECT_EQ(s.discards(0), 0u);
  EXPECT_EQ(s.known(0), tiles("5-1"));
}

TEST(DiceDominoesSpecials, PerfectUsesBothDice) {
  // A perfect takes both dice: a plain tile laid with it cannot go too.
  State s = two_player();
  s.apply_chance_text("roll 2 6");
  lay(s, 0, "5-1,6-4");
  lay(s, 1, "6-2,0-0");  // the wild goes up with the perfect, then back
  EXPECT_EQ(s.discards(1), tiles("6-2"));
  EXPECT_EQ(s.known(1), tiles("0-0"));
  State t = make(2);
  t.apply_chance_text(deal_text(t, {"3-2 4-2 5-1 6-4", "6-2 3-6 3-1 5-5"}));
  t.apply_chance_text("roll 2 6");
  lay(t, 0, "5-1,4-2");
  lay(t, 1, "6-3,6-2");  // 6-3 preferred: 6-2 cannot have both dice
  EXPECT_EQ(t.discards(1), tiles("6-3"));
  EXPECT_EQ(t.last_round().top_rank, kPlain);
  EXPECT_EQ(t.discards(0), tiles("4-2"));
}

TEST(DiceDominoesSpecials, DoublePerfectOverPerfectOverWild) {
  State s = make(3);
  s.apply_chance_text(deal_text(s, {"2-2 6-6 5-1 4-3", "6-2 5-3 1-1 4-4", "0-0 3-1 4-1 5-5"}, "6-5 6-3 6-1"));
  s.apply_chance_text("roll 2 6");
  lay(s, 0, "2-2,6-6");
  lay(s, 1, "6-2,5-3");
  lay(s, 2, "0-0,3-1");
  const RoundRecord& r = s.last_round();
  EXPECT_EQ(r.top_rank, kRankDoublePerfect);
  EXPECT_EQ(s.discards(0), tiles("2-2 6-6"));
  EXPECT_EQ(s.discards(1), 0u);
  EXPECT_EQ(s.discards(2), 0u);
  EXPECT_EQ(s.known(1), tiles("6-2"));
  EXPECT_EQ(s.known(2), tiles("0-0"));
  EXPECT_FALSE(r.seat[0].drew);  // no draw for the W-perfect
  EXPECT_TRUE(r.seat[1].drew);   // a perfect sent back draws as usual
  EXPECT_TRUE(r.seat[2].drew);
  EXPECT_EQ(s.hand_count(0), 2);
  EXPECT_EQ(s.hand_count(1), 5);
  EXPECT_EQ(s.phase(), Phase::RerollChoice);
  EXPECT_EQ(s.actor(), Actor::at(0));
  EXPECT_EQ(s.best_special(0), kRankDoublePerfect);
  EXPECT_EQ(s.best_special(1), 0);
}

TEST(DiceDominoesSpecials, PerfectOverWild) {
  State s = two_player();
  s.apply_chance_text("roll 4 6");
  lay(s, 0, "6-4,3-2");
  lay(s, 1, "0-0,3-1");
  EXPECT_EQ(s.discards(0), tiles("6-4"));
  EXPECT_EQ(s.discards(1), 0u);
  EXPECT_EQ(s.known(1), tiles("0-0"));
  EXPECT_TRUE(s.last_round().seat[1].drew);
}

TEST(DiceDominoesSpecials, EqualSpecialsAllStandWithTwoSets) {
  // Decision: several specials of the same rank (two sets) all stand.
  State s = make(6);
  s.apply_chance_text(deal_text(s, {"0-0 5-1 3-3 4-4", "0-0 3-1 1-1 5-3", "4-2 5-5 1-0 6-6", "6-2 5-4 3-0 1-0",
                                    "6-2 5-4 3-0 2-1", "4-2 4-1 5-2 5-0"}));
  s.apply_chance_text("roll 2 6");
  lay(s, 0, "0-0,5-1");
  lay(s, 1, "0-0,3-1");
  lay(s, 2, "4-2,5-5");
  lay(s, 3, "6-2,5-4");
  lay(s, 4, "6-2,5-4");
  lay(s, 5, "4-2,5-2");
  EXPECT_EQ(s.last_round().top_rank, kRankPerfect);
  EXPECT_EQ(s.discards(3), tiles("6-2"));
  EXPECT_EQ(s.discards(4), tiles("6-2"));
  EXPECT_EQ(s.discards(0), 0u);
  EXPECT_EQ(s.discards(1), 0u);
  EXPECT_EQ(s.discards(5), 0u);
}

TEST(DiceDominoesSpecials, RerollOrKeep) {
  // Seat 3 makes a W-perfect in round 1 (roller 0) of a 4-player hand.
  auto setup = [] {
    State s = make(4);
    s.apply_chance_text(deal_text(s, {"5-1 4-3 3-0 1-0", "5-3 1-1 4-4 4-1", "3-1 5-5 5-0 4-0", "2-2 6-6 5-4 2-0"}));
    s.apply_chance_text("roll 2 6");
    lay(s, 0, "5-1,4-3");
    lay(s, 1, "5-3,1-1");
    lay(s, 2, "3-1,5-5");
    lay(s, 3, "2-2,6-6");
    return s;
  };
  State keep = setup();
  ASSERT_EQ(keep.chooser(), 3);
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  keep.legal_moves(3, l);
  ASSERT_EQ(l.size(), 2);
  keep.legal_moves(0, l);
  EXPECT_TRUE(l.empty());
  lay(keep, 3, "keep");
  EXPECT_EQ(keep.phase(), Phase::Choose);  // no roll: the same match points
  EXPECT_EQ(keep.die(0), 2);
  EXPECT_EQ(keep.die(1), 6);
  EXPECT_EQ(keep.round(), 2);
  EXPECT_EQ(keep.roller(), 1);  // the rotation goes on

  State reroll = setup();
  lay(reroll, 3, "reroll");
  EXPECT_EQ(reroll.phase(), Phase::Roll);
  EXPECT_EQ(reroll.roller(), 3);  // the W-perfect player rolls
  reroll.apply_chance_text("roll 1 1");
  for (int k = 0; k < 4; ++k) {
    MoveList<Move, DiceDominoes::kMaxMoves> m;
    reroll.legal_moves(k, m);
    // Lay two tiles without a 1 where possible.
    Move pick = m[0];
    for (const Move& x : m)
      if (reveal(1, 1, x.first, x.second).mask == 0) pick = x;
    reroll.apply(k, pick);
  }
  ASSERT_EQ(reroll.phase(), Phase::Roll);
  EXPECT_EQ(reroll.roller(), 2);  // round 3: as if nothing had changed
  // Draws in round 2 went from the roller (seat 3) in seat order.
  EXPECT_TRUE(reroll.last_round().seat[3].drew);
}

TEST(DiceDominoesRound, PlayersWithOneTileLayJustIt) {
  // Three perfects in a row (no draws) leave seat 0 with one tile.
  State s = make(2);
  s.apply_chance_text(deal_text(s, {"6-5 4-3 2-1 1-0", "5-5 6-6 3-3 4-4"}));
  round(s, 6, 5, {"6-5,1-0", "3-3,4-4"});
  round(s, 4, 3, {"4-3,1-0", "5-5,6-6"});
  round(s, 2, 1, {"2-1,1-0", "5-5,6-6"});
  ASSERT_EQ(s.hand(0), tiles("1-0"));
  s.apply_chance_text("roll 1 3");
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  s.legal_moves(0, l);
  ASSERT_EQ(l.size(), 1);
  EXPECT_EQ(s.move_text(l[0]), "1-0");
  EXPECT_THROW(lay(s, 0, "1-0,5-5"), Error);
  lay(s, 0, "0-1");
  EXPECT_THROW(lay(s, 0, "1-0"), Error);  // already laid this round
  lay(s, 1, "5-5,6-6");
  EXPECT_EQ(s.hands_finished(), 1);
  EXPECT_EQ(s.last_result().winner_mask, 1);
  EXPECT_EQ(s.last_result().how, Payout::Single);
}

// Five players: after round 1 the boneyard holds 3 tiles for 5 drawers, so
// they are never used (spec: A round 6). Seats 0 and 1 go out together in
// round 5; seat 0 laid a W-perfect in round 3 and takes the pot.
TEST(DiceDominoesPayout, SimultaneousFinishPriority) {
  State s = make(5, {{"hands", "1"}});
  s.apply_chance_text(
      deal_text(s, {"2-2 6-6 3-0 4-0", "2-1 6-1 3-2 4-2", "2-0 6-5 3-1 4-3", "5-1 6-0 3-3 4-1", "5-5 6-2 4-4 6-3"},
                "5-0 5-2 5-4 5-3 6-4 0-0 1-1 1-0"));
  round(s, 1, 1, {"2-2,6-6", "2-1,6-1", "2-0,6-5", "6-0,3-3", "5-5,6-2"});
  EXPECT_EQ(s.hand_count(1), 3);
  EXPECT_EQ(s.boneyard(), 3);
  round(s, 1, 1, {"2-2,6-6", "3-2,4-2", "2-0,6-5", "6-0,3-3", "5-5,6-2"});
  EXPECT_TRUE(s.last_round().leftover_unused);
  EXPECT_EQ(s.boneyard(), 0);
  EXPECT_EQ(s.unused(), 3);
  for (int k = 0; k < 5; ++k) EXPECT_FALSE(s.last_round().seat[k].drew);
  EXPECT_EQ(s.roller(), 2);
  round(s, 2, 6, {"2-2,6-6", "3-2,4-2", "3-1,4-3", "3-3,4-1", "5-5,4-4"});
  ASSERT_EQ(s.chooser(), 0);
  lay(s, 0, "reroll");
  EXPECT_EQ(s.roller(), 0);
  round(s, 3, 4, {"3-0,4-0", "3-2,4-2", "2-0,6-5", "5-1,6-0", "5-5,6-2"});
  EXPECT_EQ(s.hand_count(0), 1);
  EXPECT_EQ(s.hand_count(1), 1);
  EXPECT_EQ(s.roller(), 4);
  round(s, 5, 5, {"5-0", "5-2", "3-1,4-3", "3-3,4-1", "4-4,6-3"});
  // Two out, three would draw from 3 tiles left over: they stay unused.
  for (int k = 0; k < 5; ++k) EXPECT_FALSE(s.last_round().seat[k].drew);
  EXPECT_EQ(s.unused(), 3);
  ASSERT_EQ(s.hands_finished(), 1);
  const HandResult& h = s.last_result();
  EXPECT_EQ(h.out_mask, 0b11);
  EXPECT_EQ(h.how, Payout::Special);
  EXPECT_EQ(h.winner_mask, 0b1);
  EXPECT_EQ(h.winning_rank, kRankDoublePerfect);
  EXPECT_EQ(s.balance(0), 4);
  for (int k = 1; k < 5; ++k) EXPECT_EQ(s.balance(k), -1);
  EXPECT_EQ(s.pot(), 0);
  EXPECT_TRUE(s.terminal());
  double r[5];
  s.returns(r);
  EXPECT_EQ(r[0], 1.0);
  EXPECT_EQ(s.last_hand().winner_side, 0);
}

namespace {
// Five players: seats 0 and 1 shed two plain tiles in rounds 1 and 2; the
// boneyard dies in round 2; both go out in the next round with match points 4.
State split_setup() {
  State s = make(5, {{"hands", "2"}});
  s.apply_chance_text(
      deal_text(s, {"1-0 2-1 5-0 6-0", "3-1 4-1 5-3 6-3", "2-0 2-2 5-1 5-2", "3-0 3-2 5-4 5-5", "3-3 4-3 4-4 6-4"},
                "4-0 4-2 6-1 6-2 6-5 0-0 1-1 6-6"));
  round(s, 1, 1, {"1-0,2-1", "3-1,4-1", "2-0,2-2", "3-0,3-2", "3-3,4-3"});
  round(s, 5, 6, {"5-0,6-0", "5-3,6-3", "2-0,2-2", "3-0,3-2", "3-3,4-3"});
  return s;
}
}  // namespace

TEST(DiceDominoesPayout, EqualSplitRemainderStaysInPot) {
  State s = split_setup();
  EXPECT_EQ(s.hand_count(0), 1);
  EXPECT_EQ(s.hand_count(1), 1);
  round(s, 4, 4, {"4-0", "4-2", "2-0,2-2", "3-0,3-2", "3-3,6-5"});
  ASSERT_EQ(s.hands_finished(), 1);
  const HandResult& h = s.last_result();
  EXPECT_EQ(h.how, Payout::Split);
  EXPECT_EQ(h.winner_mask, 0b11);
  EXPECT_EQ(h.share, 2);
  EXPECT_EQ(h.kept, 1);
  EXPECT_EQ(h.net[0], 1);
  EXPECT_EQ(h.net[1], 1);
  EXPECT_EQ(h.net[2], -1);
  EXPECT_EQ(s.last_hand().winner_side, -1);
  // The next hand: the remainder plus five new antes; seat 1 rolls first.
  EXPECT_EQ(s.pot(), 1 + 5);
  EXPECT_EQ(s.balance(0), 0);
  s.apply_chance();
  EXPECT_EQ(s.roller(), 1);
}

TEST(DiceDominoesRound, EmptyBoneyardNobodyDiscardsRollsAgain) {
  // Spec: A round 7.
  State s = split_setup();
  ASSERT_EQ(s.boneyard(), 0);
  const int round_before = s.round();
  uint64_t before[5];
  for (int k = 0; k < 5; ++k) before[k] = s.hand(k);
  round(s, 1, 1, {"4-0", "4-2", "2-0,2-2", "3-0,3-2", "3-3,4-3"});
  EXPECT_EQ(s.phase(), Phase::Roll);
  EXPECT_EQ(s.round(), round_before + 1);
  EXPECT_EQ(s.hands_finished(), 0);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(s.hand(k), before[k]);
  round(s, 4, 4, {"4-0", "4-2", "2-0,2-2", "3-0,3-2", "3-3,6-5"});
  EXPECT_EQ(s.hands_finished(), 1);
}

TEST(DiceDominoesPayout, EqualBestSpecialsSplit) {
  // Two sets: seats 0 and 1 both go out laying a wild in the same round
  // (Decision: equal best specials split the pot).
  State s = make(6, {{"hands", "1"}});
  s.apply_chance_text(deal_text(s,
                                {"1-0 2-1 5-0 6-0", "3-1 4-1 5-3 6-3", "2-2 2-0 6-5 6-4", "2-2 2-0 6-5 6-4",
                                 "3-3 4-4 5-5 6-6", "3-3 4-4 5-5 6-6"},
                                "0-0 0-0 5-4 5-4 6-2 6-2 4-2 5-2 5-2 6-1 6-1 3-0"));
  round(s, 1, 1, {"1-0,2-1", "3-1,4-1", "2-2,2-0", "2-2,2-0", "3-3,4-4", "3-3,4-4"});
  round(s, 5, 6, {"5-0,6-0", "5-3,6-3", "2-2,2-0", "2-2,2-0", "3-3,4-4", "3-3,4-4"});
  ASSERT_EQ(s.hand(0), tiles("0-0 3-0"));
  ASSERT_EQ(s.hand(1), tiles("0-0 4-2"));
  round(s, 3, 4, {"0-0,3-0", "0-0,4-2", "2-2,2-0", "2-2,2-0", "6-6,5-5", "6-6,5-5"});
  ASSERT_EQ(s.hands_finished(), 1);
  const HandResult& h = s.last_result();
  EXPECT_EQ(h.out_mask, 0b11);
  EXPECT_EQ(h.how, Payout::Special);
  EXPECT_EQ(h.winning_rank, kRankWild);
  EXPECT_EQ(h.winner_mask, 0b11);
  EXPECT_EQ(h.share, 3);
  EXPECT_EQ(s.balance(0), 2);
  EXPECT_EQ(s.balance(1), 2);
  EXPECT_EQ(s.balance(2), -1);
}

TEST(DiceDominoesPayout, AllOutAtOnceCarriesThePot) {
  State s = make(2);
  s.apply_chance_text(deal_text(s, {"1-0 2-0 3-0 4-0", "3-1 4-2 5-3 6-4"}, "5-0 5-1 6-2 6-0"));
  round(s, 1, 2, {"1-0,2-0", "3-1,4-2"});
  round(s, 3, 4, {"3-0,4-0", "5-3,6-4"});
  EXPECT_EQ(s.hand(0), tiles("5-0 6-0"));
  EXPECT_EQ(s.hand(1), tiles("5-1 6-2"));
  round(s, 5, 6, {"5-0,6-0", "5-1,6-2"});
  ASSERT_EQ(s.hands_finished(), 1);
  EXPECT_EQ(s.last_result().how, Payout::AllOut);
  EXPECT_EQ(s.last_result().winner_mask, 0);
  EXPECT_EQ(s.last_result().kept, 2);
  EXPECT_EQ(s.balance(0), -2);  // two antes paid, nothing won
  EXPECT_EQ(s.pot(), 4);
}

TEST(DiceDominoesPayout, SingleWinnerTakesThePot) {
  State s = make(3, {{"ante", "7"}});
  s.apply_chance_text(deal_text(s, {"1-0 2-0 3-3 4-4", "5-5 6-6 5-4 6-4", "6-5 5-0 6-0 5-1"}, "3-0"));
  round(s, 1, 2, {"1-0,2-0", "5-5,6-6", "6-5,5-0"});
  ASSERT_EQ(s.hand(0), tiles("3-3 4-4 3-0"));
  round(s, 3, 3, {"3-3,4-4", "5-5,6-6", "6-5,5-0"});  // 3-3 is the perfect
  ASSERT_EQ(s.hand(0), tiles("4-4 3-0"));
  round(s, 4, 3, {"4-4,3-0", "5-5,6-6", "6-5,5-0"});
  ASSERT_EQ(s.hands_finished(), 1);
  EXPECT_EQ(s.last_result().how, Payout::Single);
  EXPECT_EQ(s.last_result().winner_mask, 1);
  EXPECT_EQ(s.last_result().net[0], 14);
  EXPECT_EQ(s.last_result().net[1], -7);
  EXPECT_EQ(s.balance(0), 14 - 7);  // the next hand's ante is already in
}
