#include "line/rules.h"

#include "core/text.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <nlohmann/json.hpp>

namespace boneyard::line {

namespace {

template <class E, size_t N>
struct Names {
  std::array<const char*, N> names;
  const char* operator()(E e) const { return names[static_cast<size_t>(e)]; }
  E parse(std::string_view key, std::string_view v) const {
    for (size_t i = 0; i < N; ++i)
      if (v == names[i]) return static_cast<E>(i);
    std::string list;
    for (auto* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
    throw Error(fmt::format("bad value '{}' for option {}; expected one of: {}", v, key, list));
  }
  std::vector<std::string> all() const { return {names.begin(), names.end()}; }
};

constexpr Names<SetKind, 4> kSet{{"double-six", "double-nine", "double-six-no-blank-double", "double-six-no-doubles"}};
constexpr Names<Players, 4> kPlayers{{"teams", "2", "3", "4"}};
constexpr Names<Undealt, 2> kUndealt{{"sleep", "draw"}};
constexpr Names<FirstLeader, 3> kFirst{{"highest_double", "draw_before_deal", "draw_after_deal"}};
constexpr Names<NextLeader, 3> kNext{{"winning_team_chooses", "rotate", "winner"}};
constexpr Names<BlockWinner, 4> kBlock{{"lowest_player", "lowest_team", "last_vs_next", "last_vs_opponents"}};
constexpr Names<BlockTie, 7> kTie{{"void_reset", "last_player_wins", "closest_to_leader", "void", "void_same_leader",
                                   "last_player_loses", "lowest_player_wins"}};
constexpr Names<Scoring, 7> kScoring{{"wins", "others_pips", "all_pips", "losers_own_pips", "all_pips_floor10",
                                      "all_pips_round10", "cuban_tens"}};

// "capicua_25", "capicua_25_no_zero", "lead_pass_10_cancel", ...
bool parse_points_bonus(std::string_view item, std::string_view prefix, int16_t& points, std::string_view variant,
                        bool* variant_flag) {
  if (item.substr(0, prefix.size()) != prefix) return false;
  std::string_view rest = item.substr(prefix.size());
  bool var = false;
  if (!variant.empty() && rest.size() > variant.size() && rest.substr(rest.size() - variant.size()) == variant) {
    rest.remove_suffix(variant.size());
    var = true;
  }
  points = static_cast<int16_t>(parse_option_int(fmt::format("bonuses ({})", item), rest, 1, 1000));
  if (variant_flag) *variant_flag = var;
  return true;
}

void parse_bonuses(Bonuses& b, std::string_view list) {
  b = Bonuses{};
  if (list.empty() || list == "none") return;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    const std::string_view item = list.substr(start, comma - start);
    start = comma + 1;
    if (item == "first_pass_2") b.first_pass_2 = true;
    else if (item == "capicua_double") b.capicua_double = true;
    else if (item == "pass_20_10") b.pass_20_10 = true;
    else if (item == "early_hands") b.early_hands = true;
    else if (item == "blank_double_domino") b.blank_double_domino = true;
    else if (item == "ones_ends") b.ones_ends = true;
    else if (item == "first_block_win") b.first_block_win = true;
    else if (parse_points_bonus(item, "capicua_", b.capicua, "_no_zero", &b.capicua_no_zero)) {
    } else if (parse_points_bonus(item, "lead_pass_", b.lead_pass, "_cancel", &b.lead_pass_cancel)) {
    } else if (parse_points_bonus(item, "three_passes_", b.three_passes, "", nullptr)) {
    } else
      throw Error(fmt::format(
          "unknown bonus '{}'; expected a comma list of: first_pass_2, capicua_double, capicua_N, capicua_N_no_zero, "
          "lead_pass_N, lead_pass_N_cancel, three_passes_N, pass_20_10, early_hands, blank_double_domino, ones_ends, "
          "first_block_win (or none)",
          item));
    if (comma == list.size()) break;
  }
}

}  // namespace

const char* name(SetKind e) { return kSet(e); }
const char* name(Players e) { return kPlayers(e); }
const char* name(Undealt e) { return kUndealt(e); }
const char* name(FirstLeader e) { return kFirst(e); }
const char* name(NextLeader e) { return kNext(e); }
const char* name(BlockWinner e) { return kBlock(e); }
const char* name(BlockTie e) { return kTie(e); }
const char* name(Scoring e) { return kScoring(e); }

const char* bonus_name(BonusKind k) {
  static constexpr const char* n[] = {"first_pass_2", "capicua_double", "capicua", "lead_pass", "three_passes",
                                      "pass_20_10",   "early_hands",    "blank_double_domino", "ones_ends",
                                      "first_block_win"};
  return n[static_cast<int>(k)];
}

int Rules::tiles_in_set() const {
  switch (set) {
    case SetKind::DoubleSix: return 28;
    case SetKind::DoubleNine: return 55;
    case SetKind::DoubleSixNoBlankDouble: return 27;
    case SetKind::DoubleSixNoDoubles: return 21;
  }
  return 28;
}

std::string bonuses_text(const Bonuses& b) {
  std::vector<std::string> v;
  if (b.lead_pass) v.push_back(fmt::format("lead_pass_{}{}", b.lead_pass, b.lead_pass_cancel ? "_cancel" : ""));
  if (b.three_passes) v.push_back(fmt::format("three_passes_{}", b.three_passes));
  if (b.capicua) v.push_back(fmt::format("capicua_{}{}", b.capicua, b.capicua_no_zero ? "_no_zero" : ""));
  if (b.capicua_double) v.push_back("capicua_double");
  if (b.first_pass_2) v.push_back("first_pass_2");
  if (b.pass_20_10) v.push_back("pass_20_10");
  if (b.early_hands) v.push_back("early_hands");
  if (b.blank_double_domino) v.push_back("blank_double_domino");
  if (b.ones_ends) v.push_back("ones_ends");
  if (b.first_block_win) v.push_back("first_block_win");
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s.empty() ? "none" : s;
}

void set_option(Rules& r, std::string_view key, std::string_view v) {
  if (key == "set") r.set = kSet.parse(key, v);
  else if (key == "players") r.players = kPlayers.parse(key, v);
  else if (key == "hand_size") r.hand_size = static_cast<int8_t>(parse_option_int(key, v, 1, 27));
  else if (key == "undealt") r.undealt = kUndealt.parse(key, v);
  else if (key == "redeal_five_doubles") r.redeal_five_doubles = parse_option_bool(key, v);
  else if (key == "first_leader") r.first_leader = kFirst.parse(key, v);
  else if (key == "next_leader") r.next_leader = kNext.parse(key, v);
  else if (key == "block_winner") r.block_winner = kBlock.parse(key, v);
  else if (key == "block_tie") r.block_tie = kTie.parse(key, v);
  else if (key == "scoring") r.scoring = kScoring.parse(key, v);
  else if (key == "target") r.target = static_cast<int16_t>(parse_option_int(key, v, 1, 10000));
  else if (key == "wins_need_shutout") r.wins_need_shutout = parse_option_bool(key, v);
  else if (key == "jamaica_double_up") r.jamaica_double_up = parse_option_bool(key, v);
  else if (key == "tie_doubles_next") r.tie_doubles_next = parse_option_bool(key, v);
  else if (key == "single_hand") r.single_hand = parse_option_bool(key, v);
  else if (key == "bonuses") parse_bonuses(r.bonuses, v);
  else
    throw Error(fmt::format(
        "unknown option '{}' for a line game; options: set, players, hand_size, undealt, redeal_five_doubles, "
        "first_leader, next_leader, block_winner, block_tie, scoring, target, bonuses, wins_need_shutout, "
        "jamaica_double_up, tie_doubles_next, single_hand",
        key));
}

void validate(const Rules& r) {
  const int dealt = r.hand_size * r.seats();
  if (dealt > r.tiles_in_set())
    throw Error(fmt::format("impossible options: {} players x {} tiles = {} tiles, but the {} set has only {}",
                            r.seats(), r.hand_size, dealt, name(r.set), r.tiles_in_set()));
  if (r.first_leader == FirstLeader::DrawAfterDeal) {
    const int pool = r.tiles_in_set() - dealt + (r.max_pip() == 6 ? 28 - r.tiles_in_set() : 0);
    if (pool < r.seats())
      throw Error(fmt::format("impossible options: first_leader=draw_after_deal needs at least {} undealt tiles to draw, "
                              "but only {} are left",
                              r.seats(), pool));
  }
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = {
      {"latin", "Lugo (seed 000)", "Latin partnership dominoes, after Miguel Lugo's How to Better Dominoes",
       {{"redeal_five_doubles", "on"}, {"first_leader", "draw_before_deal"}, {"next_leader", "rotate"},
        {"block_winner", "lowest_team"}, {"block_tie", "void_same_leader"}, {"scoring", "all_pips"}, {"target", "200"}}},
      {"caribbean", "*", "the defaults of the Caribbean rules (seed 003)",
       {{"first_leader", "highest_double"}, {"next_leader", "winning_team_chooses"}, {"block_winner", "lowest_player"},
        {"block_tie", "void_reset"}, {"scoring", "all_pips"}, {"target", "200"}}},
      {"colombia", "C", "Colombia",
       {{"block_winner", "lowest_player"}, {"block_tie", "last_player_wins"}, {"scoring", "others_pips"}, {"target", "100"}}},
      {"dominican-general", "Dg", "Dominican Republic, general rules",
       {{"block_winner", "lowest_team"}, {"block_tie", "closest_to_leader"}, {"scoring", "others_pips"}, {"target", "100"}}},
      {"dominican-patio", "Dp", "Dominican Republic, patio (street) rules",
       {{"block_winner", "last_vs_next"}, {"block_tie", "closest_to_leader"}, {"scoring", "all_pips"}, {"target", "100"},
        {"bonuses", "lead_pass_25,three_passes_25,capicua_25"}}},
      {"dominican-200", "D2", "Dominican Republic, 200-point game",
       {{"block_winner", "last_vs_next"}, {"block_tie", "closest_to_leader"}, {"scoring", "others_pips"}, {"target", "200"},
        {"bonuses", "lead_pass_10_cancel,three_passes_25,capicua_25_no_zero"}}},
      {"dominican-500", "D5", "Dominican Republic, 500-point game",
       {{"block_winner", "last_vs_next"}, {"block_tie", "closest_to_leader"}, {"scoring", "all_pips"}, {"target", "500"},
        {"bonuses", "lead_pass_25_cancel,three_passes_25,capicua_25_no_zero"}}},
      {"fid", "F", "International Domino Federation",
       {{"first_leader", "draw_before_deal"}, {"next_leader", "rotate"}, {"block_winner", "lowest_team"}, {"block_tie", "void"},
        {"scoring", "all_pips"}, {"target", "200"}}},
      {"havana", "H", "Havana (double-nine, 10 tiles each)",
       {{"set", "double-nine"}, {"hand_size", "10"}, {"block_winner", "lowest_player"}, {"block_tie", "void_reset"},
        {"scoring", "others_pips"}, {"target", "150"}}},
      {"jamaica", "J", "Jamaica (counting wins, six-love)",
       {{"block_winner", "lowest_player"}, {"block_tie", "void_reset"}, {"scoring", "wins"}, {"target", "6"},
        {"wins_need_shutout", "on"}, {"next_leader", "winning_team_chooses"}}},
      {"mexico", "M", "Mexico (losers count their own pips; reaching the target loses)",
       {{"block_winner", "lowest_team"}, {"block_tie", "last_player_loses"}, {"scoring", "losers_own_pips"}, {"target", "100"}}},
      {"puerto-rico", "Pp", "Puerto Rico, 200-point game",
       {{"block_winner", "lowest_team"}, {"block_tie", "void_reset"}, {"scoring", "all_pips_floor10"}, {"target", "200"}}},
      {"puerto-rico-500", "Pp", "Puerto Rico, 500-point game with bonuses",
       {{"block_winner", "lowest_team"}, {"block_tie", "void_reset"}, {"scoring", "all_pips_floor10"}, {"target", "500"},
        {"bonuses", "early_hands,capicua_100,blank_double_domino"}}},
      {"chiva", "Pch", "Puerto Rico, chiva (counting wins)",
       {{"block_winner", "lowest_team"}, {"block_tie", "void_reset"}, {"scoring", "wins"}, {"target", "4"}, {"wins_need_shutout", "on"}}},
      {"santiago", "Sd", "Santiago de Cuba",
       {{"next_leader", "rotate"}, {"block_winner", "lowest_player"}, {"block_tie", "closest_to_leader"},
        {"scoring", "cuban_tens"}, {"target", "20"}, {"bonuses", "first_pass_2"}}},
      {"santiago-capicua", "Sc", "Santiago de Cuba with capicua",
       {{"next_leader", "winning_team_chooses"}, {"block_winner", "lowest_player"}, {"block_tie", "closest_to_leader"},
        {"scoring", "cuban_tens"}, {"target", "20"}, {"bonuses", "first_pass_2,capicua_double"}}},
      {"venezuela", "V", "Venezuela",
       {{"next_leader", "rotate"}, {"block_winner", "lowest_team"}, {"block_tie", "void"}, {"scoring", "others_pips"}, {"target", "100"}}},
      {"maracaibo", "Vm", "Venezuela, Maracaibo",
       {{"next_leader", "rotate"}, {"block_winner", "lowest_team"}, {"block_tie", "lowest_player_wins"}, {"scoring", "all_pips"},
        {"target", "100"}}},
      {"two-draw", "2a", "two players, drawing from the boneyard",
       {{"players", "2"}, {"hand_size", "7"}, {"undealt", "draw"}, {"block_winner", "lowest_player"}, {"next_leader", "winner"},
        {"scoring", "others_pips"}, {"target", "100"}}},
      {"two-sleep", "2b", "two players, 10 tiles each, 8 sleeping",
       {{"players", "2"}, {"hand_size", "10"}, {"undealt", "sleep"}, {"block_winner", "lowest_player"}, {"next_leader", "winner"},
        {"scoring", "others_pips"}, {"target", "100"}}},
      {"three-draw", "3a", "three players, drawing from the boneyard",
       {{"players", "3"}, {"hand_size", "7"}, {"undealt", "draw"}, {"next_leader", "winner"}, {"scoring", "others_pips"}, {"target", "100"}}},
      {"three-27", "3b", "three players, set without 0-0, 9 tiles each",
       {{"players", "3"}, {"set", "double-six-no-blank-double"}, {"hand_size", "9"}, {"next_leader", "winner"},
        {"scoring", "others_pips"}, {"target", "100"}}},
      {"three-21", "3c", "three players, set without doubles, leader drawn from the removed doubles",
       {{"players", "3"}, {"set", "double-six-no-doubles"}, {"hand_size", "7"}, {"first_leader", "draw_after_deal"},
        {"next_leader", "winner"}, {"scoring", "others_pips"}, {"target", "100"}}},
      {"four-individual", "-", "four players, each for themselves",
       {{"players", "4"}, {"hand_size", "7"}, {"next_leader", "winner"}, {"scoring", "others_pips"}, {"target", "100"}}},
  };
  return p;
}

Rules make_rules(std::string_view preset, const OptionList& overrides) {
  const Preset* p = nullptr;
  for (const auto& x : presets())
    if (x.name == preset) p = &x;
  if (!p) throw Error(fmt::format("unknown line-game preset '{}'", preset));
  Rules r;
  bool scoring_given = false, target_given = false;
  auto apply = [&](std::string_view k, std::string_view v) {
    set_option(r, k, v);
    scoring_given |= k == "scoring";
    target_given |= k == "target";
  };
  for (const auto& [k, v] : p->options) apply(k, v);
  for (const auto& [k, v] : overrides) apply(k, v);
  // Decision (spec: Options): individual games default to others_pips to 100.
  if (!r.teams()) {
    if (!scoring_given) r.scoring = Scoring::OthersPips;
    if (!target_given) r.target = 100;
  }
  validate(r);
  return r;
}

nlohmann::json to_json(const Rules& r) {
  return {{"set", name(r.set)},
          {"players", name(r.players)},
          {"hand_size", r.hand_size},
          {"undealt", name(r.undealt)},
          {"redeal_five_doubles", r.redeal_five_doubles},
          {"first_leader", name(r.first_leader)},
          {"next_leader", name(r.next_leader)},
          {"block_winner", name(r.block_winner)},
          {"block_tie", name(r.block_tie)},
          {"scoring", name(r.scoring)},
          {"target", r.target},
          {"wins_need_shutout", r.wins_need_shutout},
          {"jamaica_double_up", r.jamaica_double_up},
          {"tie_doubles_next", r.tie_doubles_next},
          {"single_hand", r.single_hand},
          {"bonuses", bonuses_text(r.bonuses)}};
}

nlohmann::json option_catalogue() {
  return {{"set", kSet.all()},
          {"players", kPlayers.all()},
          {"hand_size", "1..27 (7 default; 10 havana and two-sleep; 9 three-27)"},
          {"undealt", kUndealt.all()},
          {"redeal_five_doubles", {"off", "on"}},
          {"first_leader", kFirst.all()},
          {"next_leader", kNext.all()},
          {"block_winner", kBlock.all()},
          {"block_tie", kTie.all()},
          {"scoring", kScoring.all()},
          {"target", "points (or wins) that end the game"},
          {"bonuses",
           "comma list of first_pass_2, capicua_double, capicua_N[_no_zero], lead_pass_N[_cancel], three_passes_N, "
           "pass_20_10, early_hands, blank_double_domino, ones_ends, first_block_win"},
          {"wins_need_shutout", {"on", "off"}},
          {"jamaica_double_up", {"off", "on"}},
          {"tie_doubles_next", {"off", "on"}},
          {"single_hand", {"off", "on"}}};
}

}  // namespace boneyard::line
