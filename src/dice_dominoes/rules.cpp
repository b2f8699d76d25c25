#include "dice_dominoes/rules.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "core/text.h"

namespace boneyard::dice_dominoes {

void validate(const Rules& r) {
  // Spec: Set-up. One set for 2 to 5 players, two sets for 6 to 10 (Decision).
  if (r.sets == 1 && (r.players < 2 || r.players > 5))
    throw Error(
        fmt::format("impossible options: players={} on one set; one double-six set takes 2 to 5 players "
                    "(use sets=2 for 6 to 10)",
                    r.players));
  if (r.sets == 2 && (r.players < 6 || r.players > 10))
    throw Error(
        fmt::format("impossible options: players={} on two sets; two double-six sets take 6 to 10 players "
                    "(use sets=1 for 2 to 5)",
                    r.players));
}

Rules make_rules(const OptionList& overrides) {
  Rules r;
  bool sets_given = false;
  for (const auto& [k, v] : overrides) {
    if (k == "players")
      r.players = static_cast<int8_t>(parse_option_int(k, v, 2, kMaxSeats));
    else if (k == "sets") {
      r.sets = static_cast<int8_t>(parse_option_int(k, v, 1, 2));
      sets_given = true;
    } else if (k == "ante")
      r.ante = parse_option_int(k, v, 1, 1000000);
    else if (k == "hands")
      r.hands = parse_option_int(k, v, 1, 1000000);
    else if (k == "single_hand")
      r.single_hand = parse_option_bool(k, v);
    else
      throw Error(
          fmt::format("unknown option '{}' for dice-and-dominoes; options: players (2..10), sets (1 or 2), "
                      "ante (chips, 1..1000000), hands (1..1000000), single_hand (on/off)",
                      k));
  }
  if (!sets_given) r.sets = r.players > 5 ? 2 : 1;
  if (r.single_hand) r.hands = 1;
  validate(r);
  return r;
}

nlohmann::json to_json(const Rules& r) {
  return {
      {"players", r.players}, {"sets", r.sets}, {"ante", r.ante}, {"hands", r.hands}, {"single_hand", r.single_hand}};
}

nlohmann::json option_catalogue() {
  return {{"players", "2..5 on one set, 6..10 on two (default 4)"},
          {"sets", "1..2 (default: 1 for up to 5 players, 2 for 6 or more)"},
          {"ante", "1..1000000 chips (default 1)"},
          {"hands", "1..1000000 (default 10)"},
          {"single_hand", "on/off (default off): the session ends after its first hand"}};
}

// Every option and value in words, for `rules NAME` and the app's lobby:
// {option: {"about": text, "values": {value: text}}} (English).
nlohmann::json option_explanations() {
  using J = nlohmann::json;
  return J{{"players", {{"about", "how many play, each for themselves: 2..5 on one set, 6..10 on two"}}},
           {"sets", {{"about", "double-six sets mixed together"}}},
           {"ante",
            {{"about",
              "chips each player pays into the pot as every hand starts (the next hand's ante is taken "
              "as a hand ends)"}}},
           {"hands", {{"about", "hands in the session; the most chips at the end wins"}}},
           {"single_hand", {{"about", "play one hand only"}, {"values", {{"on", "one hand"}, {"off", "every hand"}}}}}};
}

}  // namespace boneyard::dice_dominoes
