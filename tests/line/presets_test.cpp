// Every preset by name with what makes it different (spec: Presets).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/playout.h"
#include "support.h"

using namespace boneyard;
using namespace boneyard::line;
using namespace boneyard::line::testing;

struct PresetCase {
  const char* name;
  std::map<std::string, std::string> expect;
};

// The spec's preset table, option by option.
static const PresetCase kPresets[] = {
    {"latin",
     {{"players", "teams"},
      {"hand_size", "7"},
      {"redeal_five_doubles", "true"},
      {"first_leader", "draw_before_deal"},
      {"next_leader", "rotate"},
      {"block_winner", "lowest_team"},
      {"block_tie", "void_same_leader"},
      {"scoring", "all_pips"},
      {"target", "200"}}},
    {"caribbean",
     {{"first_leader", "highest_double"},
      {"next_leader", "winning_team_chooses"},
      {"block_winner", "lowest_player"},
      {"block_tie", "void_reset"},
      {"scoring", "all_pips"},
      {"target", "200"}}},
    {"colombia",
     {{"block_winner", "lowest_player"},
      {"block_tie", "last_player_wins"},
      {"scoring", "others_pips"},
      {"target", "100"}}},
    {"dominican-general",
     {{"block_winner", "lowest_team"},
      {"block_tie", "closest_to_leader"},
      {"scoring", "others_pips"},
      {"target", "100"}}},
    {"dominican-patio",
     {{"block_winner", "last_vs_next"},
      {"block_tie", "closest_to_leader"},
      {"scoring", "all_pips"},
      {"target", "100"},
      {"bonuses", "lead_pass_25,three_passes_25,capicua_25"}}},
    {"dominican-200",
     {{"block_winner", "last_vs_next"},
      {"scoring", "others_pips"},
      {"target", "200"},
      {"bonuses", "lead_pass_10_cancel,three_passes_25,capicua_25_no_zero"}}},
    {"dominican-500",
     {{"block_winner", "last_vs_next"},
      {"scoring", "all_pips"},
      {"target", "500"},
      {"bonuses", "lead_pass_25_cancel,three_passes_25,capicua_25_no_zero"}}},
    {"fid",
     {{"first_leader", "draw_before_deal"},
      {"next_leader", "rotate"},
      {"block_winner", "lowest_team"},
      {"block_tie", "void"},
      {"scoring", "all_pips"},
      {"target", "200"}}},
    {"havana",
     {{"set", "double-nine"},
      {"hand_size", "10"},
      {"block_winner", "lowest_player"},
      {"block_tie", "void_reset"},
      {"scoring", "others_pips"},
      {"target", "150"}}},
    {"jamaica",
     {{"block_winner", "lowest_player"},
      {"block_tie", "void_reset"},
      {"scoring", "wins"},
      {"target", "6"},
      {"wins_need_shutout", "true"},
      {"next_leader", "winning_team_chooses"}}},
    {"mexico",
     {{"block_winner", "lowest_team"},
      {"block_tie", "last_player_loses"},
      {"scoring", "losers_own_pips"},
      {"target", "100"}}},
    {"puerto-rico",
     {{"block_winner", "lowest_team"},
      {"block_tie", "void_reset"},
      {"scoring", "all_pips_floor10"},
      {"target", "200"},
      {"bonuses", "none"}}},
    {"puerto-rico-500",
     {{"scoring", "all_pips_floor10"}, {"target", "500"}, {"bonuses", "capicua_100,early_hands,blank_double_domino"}}},
    {"chiva", {{"block_winner", "lowest_team"}, {"block_tie", "void_reset"}, {"scoring", "wins"}, {"target", "4"}}},
    {"santiago",
     {{"next_leader", "rotate"},
      {"block_winner", "lowest_player"},
      {"block_tie", "closest_to_leader"},
      {"scoring", "cuban_tens"},
      {"target", "20"},
      {"bonuses", "first_pass_2"}}},
    {"santiago-capicua",
     {{"next_leader", "winning_team_chooses"},
      {"scoring", "cuban_tens"},
      {"target", "20"},
      {"bonuses", "capicua_double,first_pass_2"}}},
    {"venezuela",
     {{"next_leader", "rotate"},
      {"block_winner", "lowest_team"},
      {"block_tie", "void"},
      {"scoring", "others_pips"},
      {"target", "100"}}},
    {"maracaibo",
     {{"next_leader", "rotate"},
      {"block_winner", "lowest_team"},
      {"block_tie", "lowest_player_wins"},
      {"scoring", "all_pips"}}},
    {"two-draw",
     {{"players", "2"},
      {"hand_size", "7"},
      {"undealt", "draw"},
      {"block_winner", "lowest_player"},
      {"next_leader", "winner"},
      {"scoring", "others_pips"},
      {"target", "100"}}},
    {"two-sleep", {{"players", "2"}, {"hand_size", "10"}, {"undealt", "sleep"}, {"next_leader", "winner"}}},
    {"three-draw",
     {{"players", "3"},
      {"hand_size", "7"},
      {"undealt", "draw"},
      {"next_leader", "winner"},
      {"scoring", "others_pips"}}},
    {"three-27",
     {{"players", "3"}, {"set", "double-six-no-blank-double"}, {"hand_size", "9"}, {"next_leader", "winner"}}},
    {"three-21",
     {{"players", "3"}, {"set", "double-six-no-doubles"}, {"hand_size", "7"}, {"first_leader", "draw_after_deal"}}},
    {"four-individual",
     {{"players", "4"}, {"hand_size", "7"}, {"next_leader", "winner"}, {"scoring", "others_pips"}, {"target", "100"}}},
};

TEST(LinePresets, EveryPresetExistsWithItsOptions) {
  EXPECT_EQ(presets().size(), 24u);
  for (const auto& c : kPresets) {
    SCOPED_TRACE(c.name);
    const nlohmann::json j = to_json(make_rules(c.name, {}));
    for (const auto& [k, v] : c.expect) {
      const auto& got = j.at(k);
      EXPECT_EQ(got.is_string() ? got.get<std::string>() : got.dump(), v) << k;
    }
  }
}

TEST(LinePresets, OptionsOverrideAPresetOneByOne) {
  const Rules r = make_rules("dominican-patio", {{"target", "200"}});
  EXPECT_EQ(r.target, 200);
  EXPECT_EQ(r.block_winner, BlockWinner::LastVsNext);  // the rest stays
  EXPECT_THROW(make_rules("latin", {{"colour", "red"}}), Error);
  EXPECT_THROW(make_rules("latin", {{"scoring", "most"}}), Error);
  EXPECT_THROW(make_rules("latin", {{"hand_size", "8"}}), Error);  // 32 tiles from 28
  EXPECT_THROW(make_rules("latin", {{"bonuses", "capicua_x"}}), Error);
  // A bonus twice is said, not the last kept silently; two kinds of capicúa bonus may go together.
  try {
    make_rules("latin", {{"bonuses", "capicua_25,first_pass_2,capicua_30_no_zero"}});
    ADD_FAILURE() << "a bonus twice was taken";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bonuses: 'capicua_25' and 'capicua_30_no_zero' are the same bonus twice; keep one");
  }
  EXPECT_THROW(make_rules("latin", {{"bonuses", "early_hands,early_hands"}}), Error);
  EXPECT_EQ(make_rules("latin", {{"bonuses", "capicua_double,capicua_25"}}).bonuses.capicua, 25);
  // Individual play defaults to others_pips to 100 unless set.
  EXPECT_EQ(make_rules("caribbean", {{"players", "3"}}).scoring, Scoring::AllPips);  // the preset sets it
  EXPECT_EQ(make_rules("two-draw", {}).target, 100);
}

// Deals and counts every preset's set, hand size and undealt tiles.
TEST(LinePresets, SetsHandSizesAndSleepingTiles) {
  struct {
    const char* name;
    int seats, hand, set, undealt;
  } cases[] = {{"latin", 4, 7, 28, 0},      {"havana", 4, 10, 55, 15},       {"two-draw", 2, 7, 28, 14},
               {"two-sleep", 2, 10, 28, 8}, {"three-draw", 3, 7, 28, 7},     {"three-27", 3, 9, 27, 0},
               {"three-21", 3, 7, 21, 0},   {"four-individual", 4, 7, 28, 0}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    State s = make(c.name, {}, 9);
    s.apply_chance();
    EXPECT_EQ(s.num_seats(), c.seats);
    EXPECT_EQ(s.set_tiles().size(), c.set);
    for (int k = 0; k < c.seats; ++k) EXPECT_EQ(s.hand_count(k), c.hand);
    EXPECT_EQ(s.undealt_count(), c.undealt);
  }
  State t = make("three-27");
  EXPECT_FALSE(t.set_tiles().has(Tile::of(0, 0)));
  State u = make("three-21");
  EXPECT_EQ((u.set_tiles() & doubles<1>(6)).size(), 0);
}

TEST(LinePresets, DrawingUntilAPlayableTile) {
  // two-draw: seat 1 cannot follow 6-6 and draws from the stock in order.
  State s = make("two-draw");
  s.apply_chance_text(
      "deal 6-6 6-4 6-3 6-2 6-1 6-0 5-5 / 0-0 1-0 1-1 2-0 2-1 2-2 3-0 stock 3-1 3-2 5-6 3-3 4-0 4-1 4-2 4-3 4-4 5-0 "
      "5-1 "
      "5-2 5-3 5-4");
  ASSERT_EQ(s.to_move(), 0);
  play(s, {"6-6"});
  MoveList<Move, 64> l;
  s.legal_moves(1, l);
  ASSERT_EQ(l.size(), 1);
  EXPECT_EQ(l[0].kind, Move::Draw);
  play(s, {"draw", "draw"});
  EXPECT_EQ(s.hand_count(1), 9);
  s.legal_moves(1, l);
  EXPECT_EQ(l[0].kind, Move::Draw);  // 3-1 and 3-2 do not fit 6
  play(s, {"draw"});                 // 6-5 fits
  s.legal_moves(1, l);
  ASSERT_EQ(l.size(), 1);
  EXPECT_EQ(s.move_text(l[0]), "6-5:L");
  EXPECT_EQ(s.stock_left(), 11);
  // The seat drew, so it holds no 6 but the one it must play: public knowledge.
  EXPECT_TRUE(s.not_holding(1).has(Tile::of(6, 0)));
}

TEST(LinePresets, SleepingTilesAreNeverDrawn) {
  State s = make("two-sleep");
  s.apply_chance();
  Rng rng(3);
  MoveList<Move, 64> l;
  while (s.hands_finished() == 0) {
    if (s.actor().kind != Actor::Seat) break;
    s.legal_moves(s.to_move(), l);
    for (const Move& m : l) EXPECT_NE(m.kind, Move::Draw);
    s.apply(s.to_move(), l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
  }
}

TEST(LinePresets, RedealWithFiveDoublesKeepsTheLeader) {
  State s = make("latin");
  s.apply_chance_text(
      "deal 6-5 6-4 6-3 6-2 6-1 6-0 5-4 / 0-0 1-1 2-2 3-3 4-4 5-3 5-2 / 6-6 5-5 5-1 5-0 4-3 4-2 4-1 / "
      "4-0 3-2 3-1 3-0 2-1 2-0 1-0 leader 2");
  ASSERT_EQ(s.phase(), Phase::Redeal);
  EXPECT_EQ(s.to_move(), 1);  // five doubles
  MoveList<Move, 64> l;
  s.legal_moves(1, l);
  EXPECT_EQ(l.size(), 2);
  play(s, {"redeal"});
  EXPECT_EQ(s.phase(), Phase::Deal);
  s.apply_chance_text(
      "deal 6-6 6-4 6-3 6-2 6-1 6-0 5-4 / 0-0 1-1 2-2 6-5 4-4 5-3 5-2 / 3-3 5-5 5-1 5-0 4-3 4-2 4-1 / "
      "4-0 3-2 3-1 3-0 2-1 2-0 1-0");
  EXPECT_EQ(s.phase(), Phase::Play);
  EXPECT_EQ(s.to_move(), 2);  // the leader does not change
  // Where the first leader held the highest double, the redeal's leader is
  // said, and leads any tile (the new deal has no forced lead).
  State c = make("caribbean", {{"redeal_five_doubles", "on"}});
  c.apply_chance_text(
      "deal 6-5 6-4 6-3 6-2 6-1 6-0 5-4 / 0-0 1-1 2-2 3-3 4-4 5-3 5-2 / 6-6 5-5 5-1 5-0 4-3 4-2 4-1 / "
      "4-0 3-2 3-1 3-0 2-1 2-0 1-0");
  ASSERT_EQ(c.phase(), Phase::Redeal);
  play(c, {"redeal"});
  c.apply_chance_text(
      "deal 6-6 6-4 6-3 6-2 6-1 6-0 5-4 / 0-0 1-1 2-2 6-5 4-4 5-3 5-2 / 3-3 5-5 5-1 5-0 4-3 4-2 4-1 / "
      "4-0 3-2 3-1 3-0 2-1 2-0 1-0");
  ASSERT_EQ(c.phase(), Phase::Play);
  EXPECT_EQ(c.to_move(), 2);  // the holder of 6-6 in the first deal
  EXPECT_NE(c.render(-1).find("Seat 2 keeps the lead and may lead any tile: a redeal for five doubles"),
            std::string::npos)
      << c.render(-1);
  c.legal_moves(2, l);
  EXPECT_EQ(l.size(), 7);  // any tile
  // Keeping the deal plays on.
  State k = make("latin");
  k.apply_chance_text(
      "deal 6-5 6-4 6-3 6-2 6-1 6-0 5-4 / 0-0 1-1 2-2 3-3 4-4 5-3 5-2 / 6-6 5-5 5-1 5-0 4-3 4-2 4-1 / "
      "4-0 3-2 3-1 3-0 2-1 2-0 1-0 leader 2");
  play(k, {"keep"});
  EXPECT_EQ(k.phase(), Phase::Play);
  EXPECT_EQ(k.to_move(), 2);
  // Without the option nobody is asked.
  State f = make("caribbean");
  f.apply_chance_text(
      "deal 6-5 6-4 6-3 6-2 6-1 6-0 5-4 / 0-0 1-1 2-2 3-3 4-4 5-3 5-2 / 6-6 5-5 5-1 5-0 4-3 4-2 4-1 / "
      "4-0 3-2 3-1 3-0 2-1 2-0 1-0");
  EXPECT_EQ(f.phase(), Phase::Play);
}

TEST(LinePresets, DrawBeforeDealHighestTileLeadsAnyTile) {
  for (uint64_t seed = 1; seed < 200; ++seed) {
    State s = make("latin", {}, seed);
    s.apply_chance();
    if (s.phase() == Phase::Redeal) continue;
    int best = -1;
    for (int k = 0; k < 4; ++k) {
      const Tile t{static_cast<uint8_t>(s.leader_draw(k))};
      const Tile b{static_cast<uint8_t>(best < 0 ? 0 : s.leader_draw(best))};
      if (best < 0 || t.pips() > b.pips() || (t.pips() == b.pips() && t.high() > b.high())) best = k;
    }
    ASSERT_EQ(s.leader(), best);
    EXPECT_EQ(s.forced_lead(), -1);
    EXPECT_NE(s.chance_text().find("leader"), std::string::npos);
    // Every seat's view says why: the tiles turned up for the lead.
    for (int k = 0; k < 4; ++k)
      ASSERT_EQ(s.view(2)["lead_draws"][k], to_string(Tile{static_cast<uint8_t>(s.leader_draw(k))}));
  }
  // The next hand's leader is not drawn for (next_leader rotate): no draws shown.
  State s = make("latin", {{"target", "500"}}, 7);
  Rng rng(3);
  while (s.hands_finished() == 0 || s.actor().kind == Actor::Chance) {
    if (s.actor().kind == Actor::Chance)
      s.apply_chance();
    else
      s.apply_random(s.to_move(), rng);
  }
  ASSERT_EQ(s.hands_finished(), 1);
  EXPECT_FALSE(s.view(0).contains("lead_draws")) << s.view(0).dump();
}

TEST(LinePresets, DrawAfterDealFromTheRemovedDoubles) {
  for (uint64_t seed = 1; seed < 200; ++seed) {
    State s = make("three-21", {}, seed);
    s.apply_chance();
    int best = 0;
    for (int k = 0; k < 3; ++k) {
      const Tile t{static_cast<uint8_t>(s.leader_draw(k))};
      ASSERT_TRUE(t.is_double());  // drawn from the 7 removed doubles
      if (t.pips() > Tile{static_cast<uint8_t>(s.leader_draw(best))}.pips()) best = k;
    }
    ASSERT_EQ(s.leader(), best);
  }
  // With ties possible (havana's 15 sleeping tiles), only tied players draw
  // again: the leader beats everyone in the last round, and everyone who
  // stopped earlier drew less than that round's best.
  int redraws = 0;
  for (uint64_t seed = 1; seed < 300; ++seed) {
    State s = make("havana", {{"first_leader", "draw_after_deal"}}, seed);
    s.apply_chance();
    const int L = s.leader();
    const int last = s.leader_draw_round(L);
    redraws += last > 0;
    const Tile lt{static_cast<uint8_t>(s.leader_draw(L))};
    for (int k = 0; k < 4; ++k) {
      if (k == L) continue;
      EXPECT_LE(s.leader_draw_round(k), last);
      if (s.leader_draw_round(k) == last) {
        EXPECT_LT(Tile{static_cast<uint8_t>(s.leader_draw(k))}.pips(), lt.pips());
      }
    }
  }
  EXPECT_GT(redraws, 0);  // ties did happen and were redrawn
}

// draw_after_deal with undealt=draw: the tiles drawn for the lead go back
// face down and are never used in play (spec: first_leader). The boneyard
// is the rest; a seat's observation, a sample and a replayed deal agree.
TEST(LinePresets, TilesDrawnForTheLeadAreNeverUsedInPlay) {
  const OptionList o{{"first_leader", "draw_after_deal"}};
  Rng rng(3);
  MoveList<Move, LineGame::kMaxMoves> l;
  int draws_seen = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    State s = make("two-draw", o, seed);
    s.apply_chance();
    ASSERT_EQ(s.phase(), Phase::Play);
    uint64_t drawn = 0;  // at least the last tile each seat drew
    for (int k = 0; k < 2; ++k) drawn |= uint64_t{1} << s.leader_draw(k);
    EXPECT_LE(s.stock_left(), 14 - 2) << "seed " << seed;  // 14 undealt, each seat drew at least one
    const auto v = s.view(0);
    EXPECT_EQ(v["boneyard"], s.stock_left());
    EXPECT_EQ(v["sleeping"].get<int>() + s.stock_left(), 14);
    // The chance text reproduces the deal, boneyard included.
    State r = make("two-draw", o, 99);
    r.apply_chance_text(s.chance_text());
    EXPECT_EQ(r.stock_left(), s.stock_left());
    EXPECT_EQ(r.leader(), s.leader());
    // A seat's sample: the same boneyard size, no drawn tile in a hand.
    State x = s.sampled(s.leader(), rng);
    EXPECT_EQ(x.stock_left(), s.stock_left());
    for (int k = 0; k < 2; ++k) EXPECT_EQ(x.hand(k).w[0] & drawn, 0u);
    // Play the hand out (the replayed deal in step): no drawn tile comes into play.
    while (s.hands_finished() == 0) {
      const int seat = s.to_move();
      s.legal_moves(seat, l);
      const Move m = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
      draws_seen += m.kind == Move::Draw;
      s.apply(seat, m);
      r.apply(seat, m);
      for (int k = 0; k < 2; ++k) {
        ASSERT_EQ(s.hand(k).w[0] & drawn, 0u) << "seed " << seed << ": seat " << k << " drew a tile drawn for the lead";
        ASSERT_EQ(r.hand(k), s.hand(k));
      }
      ASSERT_EQ(s.played().w[0] & drawn, 0u);
    }
    while (x.hands_finished() == 0) {
      x.apply_random(x.to_move(), rng);
      for (int k = 0; k < 2; ++k) ASSERT_EQ(x.hand(k).w[0] & drawn, 0u) << "seed " << seed << ": in a sample";
    }
  }
  EXPECT_GT(draws_seen, 0);
  // Sleeping games: a sample never hands out a tile drawn for the lead.
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    State s = make("havana", o, seed);
    s.apply_chance();
    uint64_t drawn = 0;
    for (int k = 0; k < 4; ++k) drawn |= uint64_t{1} << s.leader_draw(k);
    const State x = s.sampled(s.leader(), rng);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(x.hand(k).w[0] & drawn, 0u) << "seed " << seed;
  }
}

// An explicit deal may say which tiles were drawn for the lead; they sleep.
TEST(LinePresets, ExplicitDealNamesTheTilesDrawnForTheLead) {
  const OptionList o{{"first_leader", "draw_after_deal"}};
  State s = make("two-draw", o);
  const std::string hands = "deal 6-6 6-5 6-4 6-3 6-2 6-1 6-0 / 5-5 5-4 5-3 5-2 5-1 5-0 4-4";
  s.apply_chance_text(hands +
                      " stock 4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 1-0 0-0 leader 1 drawn 4-3 1-0 0-0");
  EXPECT_EQ(s.leader(), 1);
  EXPECT_EQ(s.stock_left(), 11);
  EXPECT_EQ(s.view(-1)["sleeping"], 3);
  EXPECT_EQ(s.view(0)["drawn_for_lead"], nlohmann::json::array({"4-3", "1-0", "0-0"}));
  // The boneyard keeps its order without them; the text says which were drawn.
  EXPECT_NE(
      s.chance_text().find("stock 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 4-3 1-0 0-0 leader 1 drawn 4-3 1-0 0-0"),
      std::string::npos)
      << s.chance_text();
  // Errors: a dealt tile; fewer tiles than seats; a game whose leader is not drawn after the deal.
  State t = make("two-draw", o);
  EXPECT_THROW(t.apply_chance_text(hands + " leader 1 drawn 6-6 4-3"), Error);
  EXPECT_THROW(t.apply_chance_text(hands + " leader 1 drawn 4-3"), Error);
  EXPECT_THROW(t.apply_chance_text(hands + " drawn 4-3 4-2"), Error);
  State u = make("two-draw");
  EXPECT_THROW(u.apply_chance_text(hands + " drawn 4-3 4-2"), Error);
}

TEST(LineView, NamesWhereTheOpeningTileLies) {
  // The browser lays the line out from its opening tile, so the view says
  // which of "line" it is: the tiles placed on the left end come before it.
  State s = make("two-draw");
  s.apply_chance_text(
      "deal 6-6 6-4 6-3 6-2 6-1 6-0 5-5 / 0-0 1-0 1-1 2-0 2-1 2-2 3-0 stock 3-1 3-2 5-6 3-3 4-0 4-1 4-2 4-3 4-4 5-0 "
      "5-1 "
      "5-2 5-3 5-4");
  EXPECT_FALSE(s.view(0).contains("opening"));  // nothing laid yet
  play(s, {"6-6"});
  EXPECT_EQ(s.view(1)["opening"], 0);
  play(s, {"draw", "draw", "draw", "6-5:L"});
  EXPECT_EQ(s.view(0)["line"], nlohmann::json::array({"5-6", "6-6"}));
  EXPECT_EQ(s.view(0)["opening"], 1);
  MoveList<Move, 64> l;
  s.legal_moves(0, l);
  for (int i = 0; i < l.size(); ++i)
    if (s.move_text(l[i]).rfind("5-5", 0) == 0) {
      s.apply(0, l[i]);
      break;
    }
  EXPECT_EQ(s.view(-1)["line"], nlohmann::json::array({"5-5", "5-6", "6-6"}));
  EXPECT_EQ(s.view(-1)["opening"], 2);
}
