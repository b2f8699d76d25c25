#pragma once
// Line games (spec: rules/line-games.md): every option of the shared play
// mechanism, and the presets as data.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace boneyard::line {

enum class SetKind : uint8_t { DoubleSix, DoubleNine, DoubleSixNoBlankDouble, DoubleSixNoDoubles };
enum class Players : uint8_t { Teams, Two, Three, Four };
enum class Undealt : uint8_t { Sleep, Draw };
enum class FirstLeader : uint8_t { HighestDouble, DrawBeforeDeal, DrawAfterDeal };
enum class NextLeader : uint8_t { WinningTeamChooses, Rotate, Winner };
enum class BlockWinner : uint8_t { LowestPlayer, LowestTeam, LastVsNext, LastVsOpponents };
enum class BlockTie : uint8_t {
  VoidReset,
  LastPlayerWins,
  ClosestToLeader,
  Void,
  VoidSameLeader,
  LastPlayerLoses,
  LowestPlayerWins
};
enum class Scoring : uint8_t { Wins, OthersPips, AllPips, LosersOwnPips, AllPipsFloor10, AllPipsRound10, CubanTens };

// Bonuses (spec: Bonuses). Points 0 = off.
struct Bonuses {
  bool first_pass_2 = false;
  bool capicua_double = false;
  int16_t capicua = 0;            // capicua_N
  bool capicua_no_zero = false;   // variant: tiles showing 0 do not count
  int16_t lead_pass = 0;          // lead_pass_N
  bool lead_pass_cancel = false;  // variant: cancelled if the leader's partner passes too
  int16_t three_passes = 0;       // three_passes_N
  bool pass_20_10 = false;
  bool early_hands = false;
  bool blank_double_domino = false;
  bool ones_ends = false;
  bool first_block_win = false;
  bool operator==(const Bonuses&) const = default;
};

// Names of bonus items in hand results.
enum class BonusKind : uint8_t {
  FirstPass,
  CapicuaDouble,
  Capicua,
  LeadPass,
  ThreePasses,
  Pass2010,
  EarlyHand,
  BlankDoubleDomino,
  OnesEnds,
  FirstBlockWin
};
const char* bonus_name(BonusKind k);

struct Rules {
  SetKind set = SetKind::DoubleSix;
  Players players = Players::Teams;
  int8_t hand_size = 7;
  Undealt undealt = Undealt::Sleep;
  bool redeal_five_doubles = false;
  FirstLeader first_leader = FirstLeader::HighestDouble;
  NextLeader next_leader = NextLeader::WinningTeamChooses;
  BlockWinner block_winner = BlockWinner::LowestPlayer;
  BlockTie block_tie = BlockTie::VoidReset;
  Scoring scoring = Scoring::AllPips;
  int16_t target = 200;
  bool wins_need_shutout = true;
  bool jamaica_double_up = false;
  bool tie_doubles_next = false;
  bool single_hand = false;  // the game ends after its first hand
  Bonuses bonuses;
  bool operator==(const Rules&) const = default;

  int seats() const {
    return players == Players::Teams ? 4 : players == Players::Two ? 2 : players == Players::Three ? 3 : 4;
  }
  bool teams() const { return players == Players::Teams; }
  int sides() const { return teams() ? 2 : seats(); }
  int max_pip() const { return set == SetKind::DoubleNine ? 9 : 6; }
  int tiles_in_set() const;
};

struct Preset {
  const char* name;
  const char* sources;  // where the rules come from: a column letter of source document 003, or a document
  const char* summary;
  std::vector<std::pair<std::string, std::string>> options;  // over the defaults
};

const std::vector<Preset>& presets();

// Applies `key=value` overrides over the preset `name` (spec defaults first).
// Throws Error for an unknown key, a bad value or an impossible combination.
Rules make_rules(std::string_view preset, const OptionList& overrides);
void set_option(Rules& r, std::string_view key, std::string_view value);
void validate(const Rules& r);

nlohmann::json to_json(const Rules& r);
std::string bonuses_text(const Bonuses& b);
// Every option key with its allowed values, for `rules` and error messages.
nlohmann::json option_catalogue();
// Every option and value in words (rules NAME, the lobby).
nlohmann::json option_explanations();

const char* name(SetKind);
const char* name(Players);
const char* name(Undealt);
const char* name(FirstLeader);
const char* name(NextLeader);
const char* name(BlockWinner);
const char* name(BlockTie);
const char* name(Scoring);

}  // namespace boneyard::line
