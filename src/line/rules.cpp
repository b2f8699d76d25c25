#include "line/rules.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/text.h"

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
constexpr Names<Scoring, 7> kScoring{
    {"wins", "others_pips", "all_pips", "losers_own_pips", "all_pips_floor10", "all_pips_round10", "cuban_tens"}};

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
  // Each bonus once: "capicua_25,capicua_30" kept the last silently.
  std::vector<std::pair<std::string_view, std::string_view>> seen;  // its kind, as written
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    const std::string_view item = list.substr(start, comma - start);
    start = comma + 1;
    std::string_view kind = item;
    if (item == "first_pass_2")
      b.first_pass_2 = true;
    else if (item == "capicua_double")
      b.capicua_double = true;
    else if (item == "pass_20_10")
      b.pass_20_10 = true;
    else if (item == "early_hands")
      b.early_hands = true;
    else if (item == "blank_double_domino")
      b.blank_double_domino = true;
    else if (item == "ones_ends")
      b.ones_ends = true;
    else if (item == "first_block_win")
      b.first_block_win = true;
    else if (parse_points_bonus(item, "capicua_", b.capicua, "_no_zero", &b.capicua_no_zero))
      kind = "capicua_";
    else if (parse_points_bonus(item, "lead_pass_", b.lead_pass, "_cancel", &b.lead_pass_cancel))
      kind = "lead_pass_";
    else if (parse_points_bonus(item, "three_passes_", b.three_passes, "", nullptr))
      kind = "three_passes_";
    else
      throw Error(fmt::format(
          "unknown bonus '{}'; expected a comma list of: first_pass_2, capicua_double, capicua_N, capicua_N_no_zero, "
          "lead_pass_N, lead_pass_N_cancel, three_passes_N, pass_20_10, early_hands, blank_double_domino, ones_ends, "
          "first_block_win (or none)",
          item));
    for (const auto& [k, written] : seen)
      if (k == kind)
        throw Error(fmt::format("bonuses: '{}' and '{}' are the same bonus twice; keep one", written, item));
    seen.emplace_back(kind, item);
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
  static constexpr const char* n[] = {"first_pass_2", "capicua_double", "capicua",     "lead_pass",
                                      "three_passes", "pass_20_10",     "early_hands", "blank_double_domino",
                                      "ones_ends",    "first_block_win"};
  return n[static_cast<int>(k)];
}

int Rules::tiles_in_set() const {
  switch (set) {
    case SetKind::DoubleSix:
      return 28;
    case SetKind::DoubleNine:
      return 55;
    case SetKind::DoubleSixNoBlankDouble:
      return 27;
    case SetKind::DoubleSixNoDoubles:
      return 21;
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
  if (key == "set")
    r.set = kSet.parse(key, v);
  else if (key == "players")
    r.players = kPlayers.parse(key, v);
  else if (key == "hand_size")
    r.hand_size = static_cast<int8_t>(parse_option_int(key, v, 1, 27));
  else if (key == "undealt")
    r.undealt = kUndealt.parse(key, v);
  else if (key == "redeal_five_doubles")
    r.redeal_five_doubles = parse_option_bool(key, v);
  else if (key == "first_leader")
    r.first_leader = kFirst.parse(key, v);
  else if (key == "next_leader")
    r.next_leader = kNext.parse(key, v);
  else if (key == "block_winner")
    r.block_winner = kBlock.parse(key, v);
  else if (key == "block_tie")
    r.block_tie = kTie.parse(key, v);
  else if (key == "scoring")
    r.scoring = kScoring.parse(key, v);
  else if (key == "target")
    r.target = static_cast<int16_t>(parse_option_int(key, v, 1, 10000));
  else if (key == "wins_need_shutout")
    r.wins_need_shutout = parse_option_bool(key, v);
  else if (key == "jamaica_double_up")
    r.jamaica_double_up = parse_option_bool(key, v);
  else if (key == "tie_doubles_next")
    r.tie_doubles_next = parse_option_bool(key, v);
  else if (key == "single_hand")
    r.single_hand = parse_option_bool(key, v);
  else if (key == "bonuses")
    parse_bonuses(r.bonuses, v);
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
      throw Error(
          fmt::format("impossible options: first_leader=draw_after_deal needs at least {} undealt tiles to draw, "
                      "but only {} are left",
                      r.seats(), pool));
  }
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = {
      {"latin",
       "Lugo (source document 000)",
       "Latin partnership dominoes, after Miguel Lugo's How to Better Dominoes",
       {{"redeal_five_doubles", "on"},
        {"first_leader", "draw_before_deal"},
        {"next_leader", "rotate"},
        {"block_winner", "lowest_team"},
        {"block_tie", "void_same_leader"},
        {"scoring", "all_pips"},
        {"target", "200"}}},
      {"caribbean",
       "*",
       "the defaults of the Caribbean rules (source document 003)",
       {{"first_leader", "highest_double"},
        {"next_leader", "winning_team_chooses"},
        {"block_winner", "lowest_player"},
        {"block_tie", "void_reset"},
        {"scoring", "all_pips"},
        {"target", "200"}}},
      {"colombia",
       "C",
       "Colombia",
       {{"block_winner", "lowest_player"},
        {"block_tie", "last_player_wins"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"dominican-general",
       "Dg",
       "Dominican Republic, general rules",
       {{"block_winner", "lowest_team"},
        {"block_tie", "closest_to_leader"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"dominican-patio",
       "Dp",
       "Dominican Republic, patio (street) rules",
       {{"block_winner", "last_vs_next"},
        {"block_tie", "closest_to_leader"},
        {"scoring", "all_pips"},
        {"target", "100"},
        {"bonuses", "lead_pass_25,three_passes_25,capicua_25"}}},
      {"dominican-200",
       "D2",
       "Dominican Republic, 200-point game",
       {{"block_winner", "last_vs_next"},
        {"block_tie", "closest_to_leader"},
        {"scoring", "others_pips"},
        {"target", "200"},
        {"bonuses", "lead_pass_10_cancel,three_passes_25,capicua_25_no_zero"}}},
      {"dominican-500",
       "D5",
       "Dominican Republic, 500-point game",
       {{"block_winner", "last_vs_next"},
        {"block_tie", "closest_to_leader"},
        {"scoring", "all_pips"},
        {"target", "500"},
        {"bonuses", "lead_pass_25_cancel,three_passes_25,capicua_25_no_zero"}}},
      {"fid",
       "F",
       "International Domino Federation",
       {{"first_leader", "draw_before_deal"},
        {"next_leader", "rotate"},
        {"block_winner", "lowest_team"},
        {"block_tie", "void"},
        {"scoring", "all_pips"},
        {"target", "200"}}},
      {"havana",
       "H",
       "Havana (double-nine, 10 tiles each)",
       {{"set", "double-nine"},
        {"hand_size", "10"},
        {"block_winner", "lowest_player"},
        {"block_tie", "void_reset"},
        {"scoring", "others_pips"},
        {"target", "150"}}},
      {"jamaica",
       "J",
       "Jamaica (counting wins, six-love)",
       {{"block_winner", "lowest_player"},
        {"block_tie", "void_reset"},
        {"scoring", "wins"},
        {"target", "6"},
        {"wins_need_shutout", "on"},
        {"next_leader", "winning_team_chooses"}}},
      {"mexico",
       "M",
       "Mexico (losers count their own pips; reaching the target loses)",
       {{"block_winner", "lowest_team"},
        {"block_tie", "last_player_loses"},
        {"scoring", "losers_own_pips"},
        {"target", "100"}}},
      {"puerto-rico",
       "Pp",
       "Puerto Rico, 200-point game",
       {{"block_winner", "lowest_team"},
        {"block_tie", "void_reset"},
        {"scoring", "all_pips_floor10"},
        {"target", "200"}}},
      {"puerto-rico-500",
       "Pp",
       "Puerto Rico, 500-point game with bonuses",
       {{"block_winner", "lowest_team"},
        {"block_tie", "void_reset"},
        {"scoring", "all_pips_floor10"},
        {"target", "500"},
        {"bonuses", "early_hands,capicua_100,blank_double_domino"}}},
      {"chiva",
       "Pch",
       "Puerto Rico, chiva (counting wins)",
       {{"block_winner", "lowest_team"},
        {"block_tie", "void_reset"},
        {"scoring", "wins"},
        {"target", "4"},
        {"wins_need_shutout", "on"}}},
      {"santiago",
       "Sd",
       "Santiago de Cuba",
       {{"next_leader", "rotate"},
        {"block_winner", "lowest_player"},
        {"block_tie", "closest_to_leader"},
        {"scoring", "cuban_tens"},
        {"target", "20"},
        {"bonuses", "first_pass_2"}}},
      {"santiago-capicua",
       "Sc",
       "Santiago de Cuba with capicua",
       {{"next_leader", "winning_team_chooses"},
        {"block_winner", "lowest_player"},
        {"block_tie", "closest_to_leader"},
        {"scoring", "cuban_tens"},
        {"target", "20"},
        {"bonuses", "first_pass_2,capicua_double"}}},
      {"venezuela",
       "V",
       "Venezuela",
       {{"next_leader", "rotate"},
        {"block_winner", "lowest_team"},
        {"block_tie", "void"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"maracaibo",
       "Vm",
       "Venezuela, Maracaibo",
       {{"next_leader", "rotate"},
        {"block_winner", "lowest_team"},
        {"block_tie", "lowest_player_wins"},
        {"scoring", "all_pips"},
        {"target", "100"}}},
      {"two-draw",
       "2a",
       "two players, drawing from the boneyard",
       {{"players", "2"},
        {"hand_size", "7"},
        {"undealt", "draw"},
        {"block_winner", "lowest_player"},
        {"next_leader", "winner"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"two-sleep",
       "2b",
       "two players, 10 tiles each, 8 sleeping",
       {{"players", "2"},
        {"hand_size", "10"},
        {"undealt", "sleep"},
        {"block_winner", "lowest_player"},
        {"next_leader", "winner"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"three-draw",
       "3a",
       "three players, drawing from the boneyard",
       {{"players", "3"},
        {"hand_size", "7"},
        {"undealt", "draw"},
        {"next_leader", "winner"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"three-27",
       "3b",
       "three players, set without 0-0, 9 tiles each",
       {{"players", "3"},
        {"set", "double-six-no-blank-double"},
        {"hand_size", "9"},
        {"next_leader", "winner"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"three-21",
       "3c",
       "three players, set without doubles, leader drawn from the removed doubles",
       {{"players", "3"},
        {"set", "double-six-no-doubles"},
        {"hand_size", "7"},
        {"first_leader", "draw_after_deal"},
        {"next_leader", "winner"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
      {"four-individual",
       "-",
       "four players, each for themselves",
       {{"players", "4"},
        {"hand_size", "7"},
        {"next_leader", "winner"},
        {"scoring", "others_pips"},
        {"target", "100"}}},
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

// Every option and value in words, for `rules NAME` and the app's lobby:
// {option: {"about": text, "values": {value: text}}} (English).
nlohmann::json option_explanations() {
  using J = nlohmann::json;
  return J{
      {"set",
       {{"about", "which dominoes are used"},
        {"values",
         {{"double-six", "the 28 tiles from 0-0 to 6-6"},
          {"double-nine", "the 55 tiles from 0-0 to 9-9"},
          {"double-six-no-blank-double", "double-six without 0-0 (27 tiles)"},
          {"double-six-no-doubles", "double-six without any double (21 tiles)"}}}}},
      {"players",
       {{"about", "who plays"},
        {"values",
         {{"teams", "four players in two partnerships, partners sitting opposite"},
          {"2", "two players, each for themselves"},
          {"3", "three players, each for themselves"},
          {"4", "four players, each for themselves"}}}}},
      {"hand_size", {{"about", "tiles dealt to each player"}}},
      {"undealt",
       {{"about", "what happens to the tiles nobody is dealt"},
        {"values",
         {{"sleep", "they stay face down and are never used"},
          {"draw", "they form a boneyard: a player who cannot play draws until a tile fits"}}}}},
      {"redeal_five_doubles",
       {{"about", "a player dealt five or more doubles may show them and ask for a new deal (the leader stays)"},
        {"values", {{"on", "allowed"}, {"off", "not allowed"}}}}},
      {"first_leader",
       {{"about", "who leads the first hand of the game"},
        {"values",
         {{"highest_double", "the holder of the highest double leads with it"},
          {"draw_before_deal",
           "before the deal everyone draws a tile; the most pips leads any tile (a tie: the higher number)"},
          {"draw_after_deal",
           "after the deal everyone draws one of the undealt tiles; the most pips leads any tile, tied players draw "
           "again"}}}}},
      {"next_leader",
       {{"about", "who leads the later hands"},
        {"values",
         {{"winning_team_chooses", "the team that won the last hand chooses which partner leads"},
          {"rotate", "the seat after the last hand's leader"},
          {"winner", "the winner of the last hand"}}}}},
      {"block_winner",
       {{"about", "who wins a blocked hand (nobody can play)"},
        {"values",
         {{"lowest_player", "the player with the fewest pips in hand, for their team"},
          {"lowest_team", "the team with the fewest pips in its two hands"},
          {"last_vs_next",
           "the player who laid the last tile against the next seat (an opponent): the fewer pips wins for its team"},
          {"last_vs_opponents",
           "the team of the player who laid the last tile wins if that player has fewer pips than both opponents; "
           "else the opponents win"}}}}},
      {"block_tie",
       {{"about", "what a tie in a blocked hand means"},
        {"values",
         {{"void_reset", "nobody scores; the next leader is found as for the first hand"},
          {"last_player_wins", "the team of the player who laid the last tile wins"},
          {"closest_to_leader", "the leader's team wins (individual players: the tied player nearest the leader)"},
          {"void", "nobody scores; the seat after the last leader leads"},
          {"void_same_leader", "nobody scores; the same player leads again"},
          {"last_player_loses", "the team of the player who laid the last tile loses"},
          {"lowest_player_wins", "the team of the single player with the fewest pips wins"}}}}},
      {"scoring",
       {{"about", "what the winner of a hand scores"},
        {"values",
         {{"wins", "one win per hand won"},
          {"others_pips", "the pips left in the losers' hands"},
          {"all_pips", "every pip left in every hand, the winners' own included"},
          {"losers_own_pips", "the losers score their own pips, and reaching the target loses"},
          {"all_pips_floor10", "every pip left, rounded down to a multiple of 10"},
          {"all_pips_round10", "every pip left, rounded to the nearest multiple of 10"},
          {"cuban_tens", "every pip left, rounded up to tens and counted in tens (at least 2)"}}}}},
      {"target", {{"about", "the points (or wins) that end the game: a whole number from 1 to 10000"}}},
      {"bonuses",
       {{"about", "extra points for special plays, a comma list"},
        {"values",
         {{"first_pass_2", "the first team to make an opponent pass scores 2"},
          {"capicua_double", "a hand won with a tile that fits both ends (capicúa) scores double"},
          {"capicua_N", "a hand won with a capicúa scores N more (_no_zero: not with a 0)"},
          {"lead_pass_N",
           "the leader's team scores N when the next seat cannot answer the lead (_cancel: unless the "
           "leader's partner passes too)"},
          {"three_passes_N", "a tile after which the three others all pass scores N"},
          {"pass_20_10", "each pass by the other team scores 20 for the first, then 10"},
          {"early_hands", "winning the 1st, 2nd, 3rd, 4th hand adds 100, 75, 50, 25"},
          {"blank_double_domino", "going out with 0-0 scores 100"},
          {"ones_ends", "going out with both ends showing 1 scores 100"},
          {"first_block_win", "the first hand won by a block scores 100"}}}}},
      {"wins_need_shutout",
       {{"about",
         "counting wins: the target wins only while another side still has none (six-love); when every "
         "side has a win, the counts go back to 0"},
        {"values", {{"on", "a shutout is needed"}, {"off", "reaching the target wins"}}}}},
      {"jamaica_double_up",
       {{"about", "counting wins: at one win each, the next hand's winner goes to 2 and the others to 0"},
        {"values",
         {{"on", "at one win each, the next hand's winner goes to 2 wins and the others back to 0"},
          {"off", "the counts go back to 0 as usual"}}}}},
      {"tie_doubles_next",
       {{"about", "counting wins: after a tied block the next hand counts 2 wins"},
        {"values", {{"on", "the hand after a tied block counts 2 wins"}, {"off", "every hand counts 1"}}}}},
      {"single_hand",
       {{"about", "play one hand only"}, {"values", {{"on", "one hand"}, {"off", "play to the target"}}}}}};
}

}  // namespace boneyard::line
