#pragma once
// Dice & Dominoes (spec: rules/dice-and-dominoes.md): the options of a
// session. Every option is a plain number; parsing gives clear errors.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "core/game.h"

namespace boneyard::dice_dominoes {

inline constexpr int kMaxSeats = 10;

struct Rules {
  int8_t players = 4;        // 2..5 on one set, 6..10 on two (spec: Set-up, Decision)
  int8_t sets = 1;           // double-six sets mixed together: 1 or 2
  int32_t ante = 1;          // chips each player pays into the pot every hand
  int32_t hands = 10;        // hands in a session
  bool single_hand = false;  // the session ends after its first hand (hands = 1)
  bool operator==(const Rules&) const = default;

  int tiles() const { return 28 * sets; }
};

// Defaults, then `key=value` overrides in order. `sets` follows `players`
// (1 for 2..5, 2 for 6..10) unless given. Throws Error naming the key.
Rules make_rules(const OptionList& overrides);
void validate(const Rules& r);
nlohmann::json to_json(const Rules& r);
nlohmann::json option_catalogue();
// Every option and value in words (rules NAME, the lobby).
nlohmann::json option_explanations();

}  // namespace boneyard::dice_dominoes
