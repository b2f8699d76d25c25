// Block winners, tie rules, scoring methods and win counting
// (spec: rules/line-games.md, Options and Win counting).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support.h"

using namespace boneyard;
using namespace boneyard::line;
using namespace boneyard::line::testing;

namespace {

// Seat 0 leads 6-6, nobody else holds a 6, so three passes follow and seat 0,
// holding `a`, is blocked. Returns the state after the hand.
State blocked(const char* preset, OptionList opts, const std::string& a, const std::string& b, const std::string& c,
              const std::string& d = "") {
  opts.emplace_back("hand_size", "2");
  State s = make(preset, opts);
  std::string deal = "deal 6-6 " + a + " / " + b + " / " + c;
  if (s.num_seats() == 4) deal += " / " + d;
  if (s.deals_leader_by_draw()) deal += " leader 0";
  s.apply_chance_text(deal);
  std::vector<std::string> moves = {"6-6"};
  for (int k = 1; k < s.num_seats(); ++k) moves.push_back("pass");
  play(s, moves);
  EXPECT_EQ(s.last_result().end, HandEnd::Block);
  return s;
}

// Pips: seat 0 1, seat 1 6, seat 2 8, seat 3 13; 28 in all.
State standard_block(const char* preset, OptionList opts = {}) {
  return blocked(preset, std::move(opts), "1-0", "2-1 3-0", "2-2 3-1", "4-4 5-0");
}

}  // namespace

TEST(LineBlock, LowestPlayerWinsForTheTeam) {
  State s = blocked("caribbean", {}, "5-5", "0-0 1-0", "2-2 3-1", "4-4 5-0");
  EXPECT_EQ(s.last_result().winner_side, 1);  // seat 1 holds 1 pip
  EXPECT_EQ(s.last_result().winner_seat, 1);
}

TEST(LineBlock, LowestPlayerSharedByPartnersIsNoTie) {
  State s = blocked("caribbean", {}, "2-0", "3-3 1-0", "1-1 0-0", "4-4 5-0");
  EXPECT_FALSE(s.last_result().tied);
  EXPECT_EQ(s.last_result().winner_side, 0);
}

TEST(LineBlock, LowestPlayerSharedAcrossTeamsIsATie) {
  State s = blocked("caribbean", {}, "2-0", "1-1 0-0", "3-3 3-2", "4-4 4-3");
  EXPECT_TRUE(s.last_result().tied);
  EXPECT_EQ(s.last_result().winner_side, -1);  // void_reset: nobody scores
  EXPECT_EQ(s.last_result().total[0] + s.last_result().total[1], 0);
  EXPECT_TRUE(s.first_rule_pending());  // next leader as for a first hand
}

TEST(LineBlock, LowestTeamComparesTeamTotals) {
  // Seat 1 is the lowest player (4), but team 0 holds 11 against 13.
  State s = blocked("dominican-general", {}, "5-5", "1-1 2-0", "0-0 1-0", "3-3 2-1");
  EXPECT_EQ(s.last_result().winner_side, 0);
  EXPECT_EQ(s.last_result().total[0], 4 + 9);  // others_pips
}

TEST(LineBlock, LowestTeamTieGoesToTheLeadersTeamInDominicanGeneral) {
  State s = blocked("dominican-general", {}, "5-5", "1-1 2-0", "0-0 1-0", "4-0 3-0");  // 11 each
  EXPECT_TRUE(s.last_result().tied);
  EXPECT_EQ(s.last_result().winner_side, 0);  // closest_to_leader: the leader's team
}

TEST(LineBlock, LastVsNextComparesTheLastPlayerWithTheNextSeat) {
  State t = blocked("dominican-patio", {}, "5-5", "1-1 2-0", "0-0 1-0", "3-3 2-1");
  EXPECT_EQ(t.last_result().winner_side, 1);  // seat 1: 4 < 10, though seat 2 holds 1
  State u = blocked("dominican-patio", {}, "2-0", "3-3 5-0", "0-0 1-0", "1-1 2-1");
  EXPECT_EQ(u.last_result().winner_side, 0);  // seat 0: 2 < 11
  State tie = blocked("dominican-patio", {}, "4-1", "3-0 2-0", "0-0 1-0", "3-3 2-1");
  EXPECT_TRUE(tie.last_result().tied);
  EXPECT_EQ(tie.last_result().winner_side, 0);  // closest_to_leader
}

TEST(LineBlock, LastVsOpponentsNeedsLessThanBothOpponents) {
  const OptionList o = {{"block_winner", "last_vs_opponents"}, {"block_tie", "void_reset"}};
  State win = blocked("colombia", o, "1-0", "2-1 3-0", "5-5 3-1", "4-4 5-0");
  EXPECT_EQ(win.last_result().winner_side, 0);  // 1 below 6 and 13
  State lose = blocked("colombia", o, "5-0", "2-1 1-0", "0-0 1-1", "4-4 3-0");
  EXPECT_EQ(lose.last_result().winner_side, 1);  // 5 is not below seat 1's 4
  State tie = blocked("colombia", o, "3-1", "2-1 1-0", "0-0 1-1", "4-4 5-0");
  EXPECT_TRUE(tie.last_result().tied);  // 4 equals the lower opponent's 4
  EXPECT_EQ(tie.last_result().winner_side, -1);
}

TEST(LineTie, EveryTieRule) {
  // A tie between seat 0 (2 pips) and seat 1 (2 pips) under lowest_player.
  auto tied = [](const char* rule) {
    return blocked("caribbean", {{"block_tie", rule}}, "2-0", "1-1 0-0", "3-3 3-2", "4-4 4-3");
  };
  State vr = tied("void_reset");
  EXPECT_EQ(vr.last_result().winner_side, -1);
  EXPECT_TRUE(vr.first_rule_pending());
  EXPECT_EQ(tied("last_player_wins").last_result().winner_side, 0);
  EXPECT_EQ(tied("closest_to_leader").last_result().winner_side, 0);
  EXPECT_EQ(tied("last_player_loses").last_result().winner_side, 1);
  State v = tied("void");
  EXPECT_EQ(v.last_result().winner_side, -1);
  EXPECT_FALSE(v.first_rule_pending());
  EXPECT_EQ(v.leader(), 1);  // the seat after the previous leader, whatever next_leader says
  State same = tied("void_same_leader");
  EXPECT_EQ(same.last_result().winner_side, -1);
  EXPECT_EQ(same.leader(), 0);
}

TEST(LineTie, LowestPlayerWinsBreaksATeamTie) {
  // maracaibo: lowest_team tie 12-12; seat 0 alone holds the fewest (2).
  State t = blocked("maracaibo", {}, "2-0", "3-3 0-0", "5-0 4-1", "3-0 2-1");
  EXPECT_TRUE(t.last_result().tied);
  EXPECT_EQ(t.last_result().winner_side, 0);
  // Lowest players tied across teams too (2 and 2, teams 11-11): nobody scores.
  State u = blocked("maracaibo", {}, "2-0", "1-1 0-0", "5-0 3-1", "3-3 2-1");
  EXPECT_TRUE(u.last_result().tied);
  EXPECT_EQ(u.last_result().winner_side, -1);
}

TEST(LineTie, ClosestToLeaderAmongIndividuals) {
  // four-individual: seats 1 and 3 tie on 3 pips; seat 1 comes first after the leader.
  State t = blocked("four-individual", {{"block_tie", "closest_to_leader"}}, "5-5", "0-0 2-1", "3-3 3-2", "1-0 2-0");
  EXPECT_TRUE(t.last_result().tied);
  EXPECT_EQ(t.last_result().winner_side, 1);
  EXPECT_EQ(t.last_result().total[1], 10 + 11 + 3);  // others_pips
}

TEST(LineScoring, EveryScoringMethodOnOneBlock) {
  // Seat 0 wins the block; pips 1, 6, 8, 13 (28 in all).
  EXPECT_EQ(standard_block("caribbean").last_result().total[0], 28);  // all_pips
  EXPECT_EQ(standard_block("caribbean", {{"scoring", "others_pips"}}).last_result().total[0], 19);
  EXPECT_EQ(standard_block("caribbean", {{"scoring", "all_pips_floor10"}}).last_result().total[0], 20);
  EXPECT_EQ(standard_block("caribbean", {{"scoring", "all_pips_round10"}}).last_result().total[0], 30);
  EXPECT_EQ(standard_block("caribbean", {{"scoring", "cuban_tens"}}).last_result().total[0], 3);
  State m = standard_block("caribbean", {{"scoring", "losers_own_pips"}});
  EXPECT_EQ(m.last_result().total[0], 0);
  EXPECT_EQ(m.last_result().total[1], 19);  // the losers score their own pips
}

TEST(LineScoring, CubanTensTurnsOneIntoTwo) {
  State s = make("santiago", {{"hand_size", "1"}});
  s.apply_chance_text("deal 6-6 / 0-0 / 1-0 / 2-0");
  play(s, {"6-6"});  // out at once: 3 pips -> 10 -> 1 -> 2
  EXPECT_EQ(s.last_result().total[0], 2);
}

TEST(LineScoring, IndividualOthersPipsCountsEveryOtherPlayer) {
  State s = blocked("three-27", {{"first_leader", "highest_double"}}, "1-0", "2-1 3-0", "2-2 3-1");
  EXPECT_EQ(s.last_result().winner_side, 0);
  EXPECT_EQ(s.last_result().total[0], 6 + 8);
}

TEST(LineScoring, MexicoReachingTheTargetLoses) {
  State s = make("mexico", {{"hand_size", "1"}, {"target", "10"}});
  s.apply_chance_text("deal 6-6 / 6-5 / 0-0 / 5-5");
  play(s, {"6-6"});  // team 0 goes out; team 1 scores its own 21 and reaches 10
  EXPECT_TRUE(s.terminal());
  EXPECT_EQ(s.score(1), 21);
  EXPECT_EQ(s.winner_mask(), 1);  // team 0 wins
  double r[4];
  s.returns(r);
  EXPECT_EQ(r[0], 1.0);
  EXPECT_EQ(r[1], 0.0);
}

TEST(LineScoring, TargetEndsTheGameMostPointsWinsEqualDraws) {
  State s = make("caribbean", {{"hand_size", "1"}, {"target", "10"}});
  s.apply_chance_text("deal 6-6 / 6-5 / 0-0 / 5-5");
  play(s, {"6-6"});
  EXPECT_TRUE(s.terminal());
  EXPECT_EQ(s.winner_mask(), 1);
}

// --- win counting ---

namespace {
enum class Script { LeaderWins, LeaderLoses, TiedBlock };

// Plays one hand from the leader's point of view; the leader is seat 0 when
// the first-hand rule applies (it holds 6-6), else the chosen or rotated one.
void script(State& s, Script k) {
  ASSERT_EQ(s.phase(), Phase::Deal);
  const int leader = s.first_rule_pending() ? 0 : s.choice_pending() ? s.chooser() : s.leader();
  std::vector<std::string> hands;
  std::vector<std::string> moves;
  switch (k) {
    case Script::LeaderWins:
      hands = {"6-6 6-5", "1-1 1-0", "2-2 2-0", "3-3 3-0"};
      moves = {"6-6", "pass", "pass", "pass", "6-5"};
      break;
    case Script::LeaderLoses:
      hands = {"6-6 0-0", "6-5 5-4", "1-1 1-2", "2-2 2-3"};
      moves = {"6-6", "6-5", "pass", "pass", "pass", "5-4"};
      break;
    case Script::TiedBlock:
      hands = {"6-6 2-0", "0-0 1-1", "3-3 3-2", "4-4 4-3"};
      moves = {"6-6", "pass", "pass", "pass"};
      break;
  }
  s.apply_chance_text(rotated_deal(hands, leader, s.deals_leader_by_draw()));
  if (s.phase() == Phase::ChooseLeader) play(s, {"leader:" + std::to_string(leader)});
  ASSERT_EQ(s.to_move(), leader);
  play(s, moves);
}
}  // namespace

TEST(LineWins, JamaicaNeedsAShutoutAndStartsOverWhenBothHaveWon) {
  State s = make("jamaica", {{"hand_size", "2"}});
  for (int i = 0; i < 5; ++i) script(s, Script::LeaderWins);
  EXPECT_EQ(s.score(0), 5);
  EXPECT_EQ(s.score(1), 0);
  script(s, Script::LeaderLoses);  // 5-1: every side has a win
  EXPECT_TRUE(s.last_result().wins_reset);
  EXPECT_EQ(s.score(0), 0);
  EXPECT_EQ(s.score(1), 0);
  EXPECT_TRUE(s.first_rule_pending());
  for (int i = 0; i < 5; ++i) script(s, Script::LeaderWins);
  EXPECT_FALSE(s.terminal());
  script(s, Script::LeaderWins);
  EXPECT_TRUE(s.terminal());
  EXPECT_EQ(s.winner_mask(), 1);
  EXPECT_EQ(s.score(0), 6);
}

TEST(LineWins, WithoutShutoutTheTargetWinsRegardless) {
  State s = make("jamaica", {{"hand_size", "2"}, {"wins_need_shutout", "off"}});
  script(s, Script::LeaderWins);
  script(s, Script::LeaderLoses);  // 1-1, no reset
  EXPECT_EQ(s.score(0), 1);
  EXPECT_EQ(s.score(1), 1);
  for (int i = 0; i < 5; ++i) script(s, Script::LeaderWins);  // team 1 now leads and wins
  EXPECT_TRUE(s.terminal());
  EXPECT_EQ(s.winner_mask(), 2);
  EXPECT_EQ(s.score(1), 6);
}

TEST(LineWins, ChivaPlaysToFour) {
  State s = make("chiva", {{"hand_size", "2"}});
  for (int i = 0; i < 3; ++i) script(s, Script::LeaderWins);
  EXPECT_FALSE(s.terminal());
  script(s, Script::LeaderWins);
  EXPECT_TRUE(s.terminal());
}

TEST(LineWins, JamaicanDoubleUp) {
  State s = make("jamaica", {{"hand_size", "2"}, {"jamaica_double_up", "on"}});
  script(s, Script::LeaderWins);   // 1-0
  script(s, Script::LeaderLoses);  // 1-1: double-up pending
  EXPECT_TRUE(s.last_result().double_up);
  EXPECT_TRUE(s.first_rule_pending());
  script(s, Script::LeaderWins);  // seat 0 leads (first-hand rule) and wins
  EXPECT_EQ(s.score(0), 2);
  EXPECT_EQ(s.score(1), 0);
}

TEST(LineWins, JamaicanDoubleUpOnlyAtOneWinEachElseTheUsualReset) {
  State s = make("jamaica", {{"hand_size", "2"}, {"jamaica_double_up", "on"}});
  for (int i = 0; i < 3; ++i) script(s, Script::LeaderWins);  // 3-0
  script(s, Script::LeaderLoses);                             // 3-1: not all square
  EXPECT_FALSE(s.last_result().double_up);
  EXPECT_TRUE(s.last_result().wins_reset);
  EXPECT_EQ(s.score(0), 0);
  EXPECT_EQ(s.score(1), 0);
  EXPECT_TRUE(s.first_rule_pending());
  script(s, Script::LeaderWins);  // an ordinary win: 1-0, not 2-0
  EXPECT_EQ(s.score(0), 1);
  EXPECT_EQ(s.score(1), 0);
}

TEST(LineWins, TieDoublesTheNextWin) {
  State s = make("jamaica", {{"hand_size", "2"}, {"tie_doubles_next", "on"}});
  script(s, Script::TiedBlock);
  EXPECT_TRUE(s.last_result().tied);
  EXPECT_EQ(s.score(0) + s.score(1), 0);
  script(s, Script::LeaderWins);
  EXPECT_EQ(s.score(0), 2);
  script(s, Script::LeaderWins);
  EXPECT_EQ(s.score(0), 3);  // only the one hand after the tie counts double
  State plain = make("jamaica", {{"hand_size", "2"}});
  script(plain, Script::TiedBlock);
  script(plain, Script::LeaderWins);
  EXPECT_EQ(plain.score(0), 1);
}

// Every hand's result names the next leader, or says that the winning team
// chooses, or that the first-hand rule finds it (spec: What the engine
// exposes); null once the game is over.
TEST(LineLeader, HandResultNamesTheNextLeader) {
  auto next = [](const State& s) { return s.view(-1)["last_hand"]["next_leader"]; };
  auto text = [](const State& s) { return s.last_hand().text; };
  {
    State s = make("caribbean", {{"hand_size", "2"}});
    script(s, Script::LeaderLoses);  // seat 1 goes out: team 1 chooses
    EXPECT_EQ(next(s),
              (nlohmann::json{
                  {"how", "winning_team_chooses"}, {"seat", nullptr}, {"side", 1}, {"seats", {1, 3}}, {"chooser", 1}}));
    EXPECT_NE(text(s).find("chooses who leads next"), std::string::npos) << text(s);
    EXPECT_EQ(nlohmann::json::parse(s.last_hand().detail_json)["next_leader"], next(s));
    script(s, Script::TiedBlock);  // void_reset: as for a first hand
    EXPECT_EQ(next(s), (nlohmann::json{{"how", "first_hand_rule"}, {"seat", nullptr}, {"rule", "highest_double"}}));
  }
  {
    State s = make("fid", {{"hand_size", "2"}, {"block_winner", "lowest_player"}});
    script(s, Script::LeaderWins);  // rotate: the seat after the leader (0)
    EXPECT_EQ(next(s), (nlohmann::json{{"how", "rotate"}, {"seat", 1}}));
    EXPECT_NE(text(s).find("seat 1 leads next"), std::string::npos) << text(s);
    script(s, Script::TiedBlock);  // block_tie=void: the seat after the leader (1)
    EXPECT_EQ(next(s), (nlohmann::json{{"how", "rotate"}, {"seat", 2}}));
  }
  {
    State s = make("latin", {{"hand_size", "2"}, {"block_winner", "lowest_player"}});
    script(s, Script::TiedBlock);  // void_same_leader
    EXPECT_EQ(next(s), (nlohmann::json{{"how", "same_leader"}, {"seat", 0}}));
  }
  {
    State s = make("four-individual", {{"hand_size", "2"}});
    script(s, Script::LeaderLoses);  // seat 1 goes out and leads next
    EXPECT_EQ(next(s), (nlohmann::json{{"how", "winner"}, {"seat", 1}}));
    EXPECT_EQ(s.leader(), 1);
  }
  {
    State s = make("caribbean", {{"hand_size", "1"}, {"target", "10"}});
    s.apply_chance_text("deal 6-6 / 6-5 / 0-0 / 5-5");
    play(s, {"6-6"});
    ASSERT_TRUE(s.terminal());
    EXPECT_TRUE(next(s).is_null());
    EXPECT_EQ(text(s).find("next"), std::string::npos) << text(s);
  }
}

TEST(LineLeader, WinningTeamChoosesItsLeader) {
  State s = make("caribbean", {{"hand_size", "2"}});
  script(s, Script::LeaderLoses);  // seat 1 goes out
  ASSERT_TRUE(s.choice_pending());
  EXPECT_EQ(s.chooser(), 1);
  s.apply_chance_text("deal 1-1 1-0 / 6-6 6-5 / 2-2 2-0 / 3-3 3-0");
  ASSERT_EQ(s.phase(), Phase::ChooseLeader);
  MoveList<Move, 64> l;
  s.legal_moves(1, l);
  ASSERT_EQ(l.size(), 2);
  EXPECT_EQ(s.move_text(l[0]), "leader:1");
  EXPECT_EQ(s.move_text(l[1]), "leader:3");
  play(s, {"leader:3"});
  EXPECT_EQ(s.to_move(), 3);
  EXPECT_EQ(s.forced_lead(), -1);  // the chosen leader leads any tile
}

TEST(LineLeader, RotateAndWinner) {
  State r = make("latin", {{"hand_size", "2"}});
  script(r, Script::LeaderWins);
  EXPECT_EQ(r.leader(), 1);  // rotate: the seat after the previous leader
  State w = make("four-individual", {{"hand_size", "2"}});
  script(w, Script::LeaderLoses);
  EXPECT_EQ(w.leader(), 1);  // winner: seat 1 went out
}
