#pragma once
// Texas 42 (spec: rules/texas-42.md): every rule option as a value type.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string_view>

#include "core/game.h"

namespace boneyard::texas42 {

// spec: Scoring (option `scoring`).
enum class Scoring : uint8_t { Marks, Points };

struct Rules {
  Scoring scoring = Scoring::Marks;
  int16_t target_marks = 7;        // spec: Scoring, marks
  int16_t target_points = 250;     // spec: Scoring, points
  bool stop_when_decided = true;   // marks scoring only
  bool open_two_marks = false;     // spec: Bidding
  bool forced_bid = false;         // spec: Bidding, all-pass rule
  bool made_scores_taken = false;  // spec: Scoring, points
  bool tricks_face_down = false;   // spec: Scoring, last option
  // Beyond the source (docs/texas-42.md), all off by default.
  bool nello = false;
  bool plunge = false;
  bool splash = false;
  bool sevens = false;
  bool single_hand = false;  // the game ends after its first hand
  bool operator==(const Rules&) const = default;

  // The hand stops as soon as its result is known (marks scoring only).
  bool stops_early() const { return scoring == Scoring::Marks && stop_when_decided; }
};

// Applies key=value overrides over the defaults. Throws Error naming the key
// or value and what was expected.
Rules make_rules(const OptionList& overrides);
void set_option(Rules& r, std::string_view key, std::string_view value);

nlohmann::json to_json(const Rules& r);
// Every option key with its allowed values, for `rules` and error messages.
nlohmann::json option_catalogue();
// Every option and value in words (rules NAME, the lobby).
nlohmann::json option_explanations();
const char* name(Scoring s);

}  // namespace boneyard::texas42
