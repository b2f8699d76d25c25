// The play mechanism, the seed 000 example, bonuses and leaders, on explicit
// deals (spec: rules/line-games.md).
#include <gtest/gtest.h>

#include "support.h"

using namespace boneyard;
using namespace boneyard::line;
using namespace boneyard::line::testing;

namespace {
int bonus(const HandResult& h, BonusKind k, int side) {
  for (int i = 0; i < h.n_items; ++i)
    if (h.items[i].kind == k && h.items[i].side == side) return h.items[i].points;
  return 0;
}
}  // namespace

// Seed 000: A goes out; B holds 6-3, 6-0; C (A's partner) 2-2; D 5-4, 4-3:
// A and C score (6+3+6+0)+(2+2)+(5+4+4+3) = 35 under latin.
TEST(LinePlay, Seed000ExampleScores35) {
  State s = make("latin", {{"hand_size", "3"}});
  s.apply_chance_text("deal 1-1 4-1 6-1 / 6-3 6-0 4-2 / 2-1 2-2 6-5 / 5-4 4-3 5-2 leader 0");
  play(s, {"1-1", "pass", "2-1", "5-2", "4-1:R", "4-2", "6-5", "pass", "6-1"});
  const HandResult& h = s.last_result();
  ASSERT_EQ(s.hands_finished(), 1);
  EXPECT_EQ(h.end, HandEnd::Domino);
  EXPECT_EQ(h.last_placer, 0);
  EXPECT_EQ(h.pips[1], 15);
  EXPECT_EQ(h.pips[2], 4);
  EXPECT_EQ(h.pips[3], 16);
  EXPECT_EQ(h.winner_side, 0);
  EXPECT_EQ(h.total[0], 35);
  EXPECT_EQ(h.total[1], 0);
  EXPECT_EQ(s.score(0), 35);
}

TEST(LinePlay, MustPlayAMatchingTileAndPassOnlyWhenNothingFits) {
  State s = make("latin", {{"hand_size", "3"}});
  s.apply_chance_text("deal 1-1 4-1 6-1 / 6-3 6-0 4-2 / 2-1 2-2 6-5 / 5-4 4-3 5-2 leader 0");
  play(s, {"1-1"});
  // Seat 1 holds nothing with a 1: its only move is to pass.
  MoveList<Move, 64> l;
  s.legal_moves(1, l);
  ASSERT_EQ(l.size(), 1);
  EXPECT_EQ(l[0].kind, Move::Pass);
  play(s, {"pass"});
  // Seat 2 holds 2-1, which fits: pass is not allowed, and the reason says why.
  try {
    s.parse_move(2, "pass");
    ADD_FAILURE() << "pass was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a tile in hand fits: pass only when none does"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(s.parse_move(2, "2-2"), Error);  // does not fit the ends 1 and 1
  s.legal_moves(2, l);
  ASSERT_EQ(l.size(), 1);  // both ends show 1: one placement, counted once
  EXPECT_EQ(s.move_text(l[0]), "2-1:L");
  // Named by either end, it is that one placement (":R" was refused as not
  // fitting the right end, though the right end shows 1 too).
  EXPECT_EQ(s.move_text(s.parse_move(2, "2-1:R")), "2-1:L");
  EXPECT_EQ(s.move_text(s.parse_move(2, "1-2 right")), "2-1:L");
  // ... and said without a side, so that ":R" typed is not echoed "on the left".
  EXPECT_EQ(s.move_words(2, l[0]), "2-1 on either end");
}

TEST(LinePlay, TileFittingBothDifferentEndsGivesTwoMoves) {
  State s = make("latin", {{"hand_size", "3"}});
  s.apply_chance_text("deal 5-3 4-1 6-1 / 5-5 3-3 4-2 / 2-1 2-2 6-5 / 5-4 4-3 5-2 leader 0");
  play(s, {"5-3"});
  MoveList<Move, 64> l;
  s.legal_moves(1, l);
  std::vector<std::string> texts;
  for (const Move& m : l) texts.push_back(s.move_text(m));
  EXPECT_EQ(texts, (std::vector<std::string>{"5-5:L", "3-3:R"}));
  EXPECT_EQ(s.left_end(), 5);
  EXPECT_EQ(s.right_end(), 3);
}

TEST(LinePlay, LineNeverBranchesAndNewEndIsTheOtherNumber) {
  State s = make("latin", {{"hand_size", "3"}});
  s.apply_chance_text("deal 5-3 4-1 6-1 / 5-5 3-3 4-2 / 2-1 2-2 6-0 / 5-4 4-3 5-2 leader 0");
  play(s, {"5-3", "5-5", "pass", "5-4:L"});
  EXPECT_EQ(s.left_end(), 4);
  EXPECT_EQ(s.right_end(), 3);
  std::pair<int, int> ln[64];
  ASSERT_EQ(s.line(ln), 3);
  EXPECT_EQ(ln[0], std::make_pair(4, 5));
  EXPECT_EQ(ln[1], std::make_pair(5, 5));
  EXPECT_EQ(ln[2], std::make_pair(5, 3));
}

TEST(LinePlay, HighestDoubleMustLead) {
  State s = make("caribbean", {{"hand_size", "2"}});
  s.apply_chance_text("deal 1-0 2-0 / 5-5 5-4 / 3-3 3-2 / 6-1 4-4");
  EXPECT_EQ(s.to_move(), 1);  // 5-5 is the highest double out
  MoveList<Move, 64> l;
  s.legal_moves(1, l);
  ASSERT_EQ(l.size(), 1);
  EXPECT_EQ(s.move_text(l[0]), "5-5");
  EXPECT_THROW(s.parse_move(1, "5-4"), Error);
}

TEST(LinePlay, NoDoubleOutMeansTheHeaviestTileLeads) {
  // 5-4 and 6-3 both have 9 pips; 6-3 shows the higher number (Decision).
  State s = make("caribbean", {{"hand_size", "2"}});
  s.apply_chance_text("deal 1-0 2-0 / 5-3 5-4 / 6-3 3-2 / 6-1 4-2");
  EXPECT_EQ(s.to_move(), 2);
  EXPECT_EQ(s.forced_lead(), Tile::of(6, 3).index);
}

// --- bonuses (spec: Bonuses) ---

TEST(LineBonus, CapicuaScores25InDominicanPatio) {
  // A leads 4-4; B 4-1 left (ends 1,4); C 4-2 right (ends 1,2); D passes;
  // A's 2-1 fits both ends: a capicua.
  State s = make("dominican-patio", {{"hand_size", "2"}});
  s.apply_chance_text("deal 4-4 2-1 / 4-1 0-0 / 4-2 3-3 / 6-3 5-3");
  play(s, {"4-4", "4-1", "4-2:R", "pass"});
  MoveList<Move, 64> l;
  s.legal_moves(0, l);
  EXPECT_EQ(l.size(), 2);  // 2-1 on either end
  play(s, {"2-1:L"});
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.capicua);
  EXPECT_EQ(bonus(h, BonusKind::Capicua, 0), 25);
  EXPECT_EQ(h.pip_points[0], 0 + 6 + 17);  // all_pips: B 0, C 6, D 17
  EXPECT_EQ(h.total[0], 23 + 25);
}

TEST(LineBonus, NoCapicuaWhenTheLastTileFitsOneEnd) {
  State s = make("dominican-patio", {{"hand_size", "2"}});
  s.apply_chance_text("deal 4-4 1-0 / 4-1 0-0 / 4-2 3-3 / 6-3 5-3");
  play(s, {"4-4", "4-1", "4-2:R", "pass", "1-0"});
  EXPECT_EQ(s.last_result().end, HandEnd::Domino);
  EXPECT_FALSE(s.last_result().capicua);
  EXPECT_EQ(bonus(s.last_result(), BonusKind::Capicua, 0), 0);
}

TEST(LineBonus, CapicuaNoZeroVariantIgnoresTilesShowingZero) {
  // dominican-200: capicua_25 excludes tiles showing 0. Ends 0 and 2, last 2-0.
  State s = make("dominican-200", {{"hand_size", "2"}});
  s.apply_chance_text("deal 4-4 2-0 / 4-0 1-1 / 4-2 3-3 / 6-3 5-3");
  play(s, {"4-4", "4-0", "4-2:R", "pass", "2-0:L"});
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.capicua);
  EXPECT_EQ(bonus(h, BonusKind::Capicua, 0), 0);
  EXPECT_EQ(h.total[0], 2 + 17);  // others_pips: B 1-1, D 6-3 5-3
  // The same capicua with 2-1 (no 0) would count in dominican-patio's variant.
  State p = make("dominican-patio", {{"hand_size", "2"}});
  p.apply_chance_text("deal 4-4 2-0 / 4-0 1-1 / 4-2 3-3 / 6-3 5-3");
  play(p, {"4-4", "4-0", "4-2:R", "pass", "2-0:L"});
  EXPECT_EQ(bonus(p.last_result(), BonusKind::Capicua, 0), 25);
}

TEST(LineBonus, CapicuaWithEqualEndsIsAnySingleShowingThatNumber) {
  // 3-3 leads, nobody else has a 3, and 3-2 goes out on ends 3 and 3.
  State s = make("dominican-patio", {{"hand_size", "2"}});
  s.apply_chance_text("deal 3-3 3-2 / 1-0 2-1 / 2-0 1-1 / 5-4 6-5");
  play(s, {"3-3", "pass", "pass", "pass"});
  MoveList<Move, 64> l;
  s.legal_moves(0, l);
  EXPECT_EQ(l.size(), 1);  // equal ends: one placement
  play(s, {"3-2"});
  EXPECT_TRUE(s.last_result().capicua);
  EXPECT_EQ(bonus(s.last_result(), BonusKind::Capicua, 0), 25);
}

TEST(LineBonus, CapicuaDoubleDoublesPipPointsOnly) {
  // santiago-capicua: cuban_tens, capicua doubles the pip points.
  State s = make("santiago-capicua", {{"hand_size", "2"}});
  s.apply_chance_text("deal 4-4 2-1 / 4-1 0-0 / 4-2 3-3 / 6-3 5-3");
  play(s, {"4-4", "4-1", "4-2:R"});
  // D passes: team 0 made an opponent pass first (first_pass_2).
  play(s, {"pass", "2-1:L"});
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.capicua);
  // all pips 23 -> rounded up to 30 -> 3, doubled by the capicua -> 6.
  EXPECT_EQ(h.pip_points[0], 6);
  EXPECT_EQ(bonus(h, BonusKind::FirstPass, 0), 2);
  EXPECT_EQ(h.total[0], 8);
}

TEST(LineBonus, LeadPassEarnedAndCancelledByPartnersPass) {
  // A leads 6-6; B passes; C (A's partner) passes; D plays; A goes out.
  const char* deal = "deal 6-6 1-0 / 5-5 5-4 / 3-3 3-2 / 6-1 4-4";
  const std::vector<std::string> moves = {"6-6", "pass", "pass", "6-1", "1-0"};
  State patio = make("dominican-patio", {{"hand_size", "2"}});  // lead_pass_25, no cancellation
  patio.apply_chance_text(deal);
  play(patio, moves);
  EXPECT_EQ(bonus(patio.last_result(), BonusKind::LeadPass, 0), 25);
  EXPECT_EQ(patio.last_result().total[0], 38 + 25);
  State d200 = make("dominican-200", {{"hand_size", "2"}});  // lead_pass_10 cancelled if partner passes
  d200.apply_chance_text(deal);
  play(d200, moves);
  EXPECT_EQ(bonus(d200.last_result(), BonusKind::LeadPass, 0), 0);
  EXPECT_EQ(d200.last_result().total[0], 19 + 8);  // others_pips only
}

TEST(LineBonus, LeadPassEarnedWhenPartnerPlays) {
  State s = make("dominican-200", {{"hand_size", "2"}});
  s.apply_chance_text("deal 6-6 3-0 / 5-5 5-4 / 6-3 2-2 / 1-1 4-1");
  play(s, {"6-6", "pass", "6-3", "pass", "3-0"});
  EXPECT_EQ(bonus(s.last_result(), BonusKind::LeadPass, 0), 10);
  EXPECT_EQ(s.last_result().total[0], 19 + 7 + 10);
}

TEST(LineBonus, ThreePassesLetThePlayerPlayAgainAndScore) {
  State s = make("dominican-patio", {{"hand_size", "2"}});
  s.apply_chance_text("deal 6-6 6-5 / 1-1 1-0 / 2-2 2-0 / 3-3 3-0");
  play(s, {"6-6", "pass", "pass", "pass"});
  EXPECT_EQ(s.to_move(), 0);  // plays again
  play(s, {"6-5"});           // on ends 6 and 6: also a capicua
  const HandResult& h = s.last_result();
  EXPECT_EQ(bonus(h, BonusKind::ThreePasses, 0), 25);
  EXPECT_EQ(bonus(h, BonusKind::LeadPass, 0), 25);
  EXPECT_EQ(bonus(h, BonusKind::Capicua, 0), 25);
  EXPECT_EQ(h.total[0], 18 + 25 + 25 + 25);
  // dominican-200: the lead-pass bonus is cancelled, three passes still count.
  State d = make("dominican-200", {{"hand_size", "2"}});
  d.apply_chance_text("deal 6-6 6-5 / 1-1 1-0 / 2-2 2-0 / 3-3 3-0");
  play(d, {"6-6", "pass", "pass", "pass", "6-5"});
  EXPECT_EQ(bonus(d.last_result(), BonusKind::ThreePasses, 0), 25);
  EXPECT_EQ(bonus(d.last_result(), BonusKind::LeadPass, 0), 0);
  EXPECT_EQ(d.last_result().total[0], 12 + 25 + 25);  // others' pips, three passes, capicua
}

TEST(LineBonus, ATileThatBlocksAfterThreePassesEarnsThreePasses) {
  // Decision: the passes before a block are recorded and count.
  State s = make("dominican-patio", {{"hand_size", "2"}});
  s.apply_chance_text("deal 6-6 1-1 / 2-2 2-1 / 3-3 3-1 / 4-4 4-1");
  play(s, {"6-6", "pass", "pass", "pass"});
  ASSERT_EQ(s.hands_finished(), 1);
  const HandResult& h = s.last_result();
  EXPECT_EQ(h.end, HandEnd::Block);
  EXPECT_EQ(bonus(h, BonusKind::ThreePasses, 0), 25);
  // last_vs_next: seat 0 (2) against seat 1 (5): team 0 wins, all_pips.
  EXPECT_EQ(h.winner_side, 0);
  EXPECT_EQ(h.pip_points[0], 2 + 7 + 10 + 13);
}

TEST(LineBonus, Pass2010CountsOnlyOpponentsPasses) {
  State s = make("puerto-rico", {{"hand_size", "2"}, {"bonuses", "pass_20_10"}});
  s.apply_chance_text("deal 6-6 6-5 / 1-1 1-0 / 2-2 2-0 / 3-3 3-0");
  play(s, {"6-6", "pass", "pass", "pass", "6-5"});
  const HandResult& h = s.last_result();
  // B's pass 20, C is the placer's partner (nothing), D's pass 10.
  EXPECT_EQ(bonus(h, BonusKind::Pass2010, 0), 30);
  EXPECT_EQ(h.pip_points[0], 10);  // 18 pips rounded down to 10
  EXPECT_EQ(h.total[0], 40);
}

TEST(LineBonus, FirstPass2CountsWhenTheTeamHasPoints) {
  State s = make("santiago", {{"hand_size", "2"}});
  s.apply_chance_text("deal 6-6 1-0 / 5-5 5-4 / 3-3 3-2 / 6-1 4-4");
  play(s, {"6-6", "pass", "pass", "6-1", "1-0"});
  const HandResult& h = s.last_result();
  EXPECT_EQ(h.pip_points[0], 4);  // 38 pips -> 40 -> 4
  EXPECT_EQ(bonus(h, BonusKind::FirstPass, 0), 2);
  EXPECT_EQ(s.score(0), 6);
}

TEST(LineBonus, FirstPass2IsLostWhenTheTeamStillHasNoPoints) {
  // Team 0 makes B pass first, but team 1 wins the hand: team 0 is at 0, the
  // bonus is lost for the whole game (Decision).
  State s = make("santiago", {{"hand_size", "2"}});
  s.apply_chance_text("deal 6-6 5-5 / 2-2 3-2 / 3-3 4-3 / 6-1 1-0");
  play(s, {"6-6", "pass", "pass", "6-1", "pass", "pass", "pass", "1-0"});
  const HandResult& h = s.last_result();
  EXPECT_EQ(h.winner_side, 1);
  EXPECT_EQ(bonus(h, BonusKind::FirstPass, 0), 0);
  EXPECT_EQ(s.score(0), 0);
  // No first-pass bonus ever again in this game, whoever passes.
  Rng rng(5);
  while (!s.terminal()) {
    MoveList<Move, 64> l;
    if (s.actor().kind == Actor::Chance)
      s.apply_chance();
    else {
      s.legal_moves(s.to_move(), l);
      s.apply(s.to_move(), l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
    for (int side = 0; side < 2; ++side) EXPECT_EQ(bonus(s.last_result(), BonusKind::FirstPass, side), 0);
  }
}

TEST(LineBonus, EarlyHandsBlankDoubleAndOnesEnds) {
  // puerto-rico-500: hand 1 won: +100 early-hands bonus; going out with 0-0: +100.
  State s = make("puerto-rico-500", {{"hand_size", "2"}});
  s.apply_chance_text("deal 6-6 6-0 / 1-1 1-2 / 2-2 2-3 / 3-3 3-4");
  play(s, {"6-6", "pass", "pass", "pass", "6-0"});
  EXPECT_EQ(bonus(s.last_result(), BonusKind::EarlyHand, 0), 100);
  EXPECT_EQ(bonus(s.last_result(), BonusKind::BlankDoubleDomino, 0), 0);
  State b = make("puerto-rico-500", {{"hand_size", "2"}});
  b.apply_chance_text("deal 6-6 5-5 / 6-0 0-0 / 2-2 2-3 / 3-3 3-4");
  play(b, {"6-6", "6-0", "pass", "pass", "pass", "0-0"});
  EXPECT_EQ(b.last_result().last_placer, 1);
  EXPECT_EQ(bonus(b.last_result(), BonusKind::BlankDoubleDomino, 1), 100);
  EXPECT_EQ(bonus(b.last_result(), BonusKind::EarlyHand, 1), 100);
}

TEST(LineBonus, OnesEndsScores100) {
  // 2-2 leads; 5-2; 2-1 right; D passes; A's 5-1 leaves both ends showing 1.
  State s = make("puerto-rico", {{"hand_size", "2"}, {"bonuses", "ones_ends"}});
  s.apply_chance_text("deal 2-2 5-1 / 5-2 0-0 / 2-1 6-3 / 6-4 4-3");
  play(s, {"2-2", "5-2", "2-1:R", "pass", "5-1:L"});
  EXPECT_EQ(s.left_end(), 1);
  EXPECT_EQ(s.right_end(), 1);
  EXPECT_EQ(bonus(s.last_result(), BonusKind::OnesEnds, 0), 100);
  EXPECT_EQ(s.last_result().total[0], 20 + 100);  // 26 pips rounded down to 20
}

TEST(LineBonus, FirstBlockWinOnlyOnce) {
  State s = make("puerto-rico", {{"hand_size", "2"}, {"bonuses", "first_block_win"}});
  s.apply_chance_text("deal 6-6 1-1 / 2-2 2-1 / 3-3 3-1 / 4-4 4-1");
  play(s, {"6-6", "pass", "pass", "pass"});
  ASSERT_EQ(s.last_result().end, HandEnd::Block);
  EXPECT_EQ(s.last_result().winner_side, 0);  // lowest_team: 12 against 20
  EXPECT_EQ(bonus(s.last_result(), BonusKind::FirstBlockWin, 0), 100);
  // The next hand: team 0 chooses its leader (seat 0), and blocks again.
  s.apply_chance_text("deal 6-6 1-1 / 2-2 2-1 / 3-3 3-1 / 4-4 4-1");
  ASSERT_EQ(s.phase(), Phase::ChooseLeader);
  play(s, {"leader:0", "6-6", "pass", "pass", "pass"});
  EXPECT_EQ(s.last_result().winner_side, 0);
  EXPECT_EQ(bonus(s.last_result(), BonusKind::FirstBlockWin, 0), 0);
}
