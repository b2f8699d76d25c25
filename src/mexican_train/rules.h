#pragma once
// Mexican Train (spec: rules/mexican-train.md): the rule options.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string_view>

#include "core/game.h"
#include "core/tile.h"

namespace boneyard::mexican_train {

inline constexpr int kMaxSeats = 8;

enum class SetKind : uint8_t { DoubleNine, DoubleTwelve, DoubleFifteen };
// How each round's engine is chosen (spec: Set-up, option `engine`).
enum class Engine : uint8_t { HighestInHand, RoundDoubles };

struct Rules {
  SetKind set = SetKind::DoubleTwelve;
  int8_t players = 4;
  Engine engine = Engine::HighestInHand;
  int16_t rounds = 0;  // 0: the default (13; round_doubles: N+1)
  bool multiple_doubles = false;
  bool blank_double_50 = false;
  bool single_hand = false;  // the game ends after its first round
  bool operator==(const Rules&) const = default;

  int max_pip() const { return set == SetKind::DoubleNine ? 9 : set == SetKind::DoubleTwelve ? 12 : 15; }
  int tiles_in_set() const { return set_size(max_pip()); }
  // Spec: Set-up (and the Decision for double-nine).
  int hand_size() const;
  int total_rounds() const;
};

// Spec defaults with `key=value` overrides applied in order. Throws Error
// naming the key or value and what was expected.
Rules make_rules(const OptionList& overrides);
void set_option(Rules& r, std::string_view key, std::string_view value);
void validate(const Rules& r);

nlohmann::json to_json(const Rules& r);
nlohmann::json option_catalogue();
// Every option and value in words (rules NAME, the lobby).
nlohmann::json option_explanations();

const char* name(SetKind);
const char* name(Engine);

}  // namespace boneyard::mexican_train
