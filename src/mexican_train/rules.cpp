#include "mexican_train/rules.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "core/tile.h"

namespace boneyard::mexican_train {

namespace {

constexpr const char* kSetNames[] = {"double-nine", "double-twelve", "double-fifteen"};
constexpr const char* kEngineNames[] = {"highest_in_hand", "round_doubles"};
constexpr const char* kKeys = "set, players, engine, rounds, multiple_doubles, blank_double_50, single_hand";

template <class E, size_t N>
E parse_enum(std::string_view key, std::string_view v, const char* const (&names)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (v == names[i]) return static_cast<E>(i);
  std::string list;
  for (auto* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  throw Error(fmt::format("bad value '{}' for option {}; expected one of: {}", v, key, list));
}

}  // namespace

const char* name(SetKind s) { return kSetNames[static_cast<int>(s)]; }
const char* name(Engine e) { return kEngineNames[static_cast<int>(e)]; }

int Rules::hand_size() const {
  // 2-4 players 15, 5-6 12, 7-8 11; double-nine 10 / 8 / 6 (Decision).
  const bool nine = set == SetKind::DoubleNine;
  if (players <= 4) return nine ? 10 : 15;
  if (players <= 6) return nine ? 8 : 12;
  return nine ? 6 : 11;
}

int Rules::total_rounds() const {
  if (single_hand) return 1;
  if (rounds > 0) return rounds;
  return engine == Engine::RoundDoubles ? max_pip() + 1 : 13;
}

void set_option(Rules& r, std::string_view key, std::string_view value) {
  if (key == "set")
    r.set = parse_enum<SetKind>(key, value, kSetNames);
  else if (key == "players")
    r.players = static_cast<int8_t>(parse_option_int(key, value, 2, kMaxSeats));
  else if (key == "engine")
    r.engine = parse_enum<Engine>(key, value, kEngineNames);
  else if (key == "rounds")
    r.rounds = static_cast<int16_t>(parse_option_int(key, value, 1, 1000));
  else if (key == "multiple_doubles")
    r.multiple_doubles = parse_option_bool(key, value);
  else if (key == "blank_double_50")
    r.blank_double_50 = parse_option_bool(key, value);
  else if (key == "single_hand")
    r.single_hand = parse_option_bool(key, value);
  else
    throw Error(fmt::format("unknown option '{}' for mexican-train; options: {}", key, kKeys));
}

void validate(const Rules& r) {
  if (r.players < 2 || r.players > kMaxSeats)
    throw Error(fmt::format("bad value '{}' for option players; expected 2 to {}", r.players, kMaxSeats));
  if (r.engine == Engine::RoundDoubles && r.rounds > r.max_pip() + 1)
    throw Error(
        fmt::format("bad value '{}' for option rounds: engine=round_doubles with the {} set has at most {} rounds "
                    "(one per double, {}-{} down to 0-0)",
                    r.rounds, name(r.set), r.max_pip() + 1, r.max_pip(), r.max_pip()));
}

Rules make_rules(const OptionList& overrides) {
  Rules r;
  for (const auto& [k, v] : overrides) set_option(r, k, v);
  validate(r);
  return r;
}

nlohmann::json to_json(const Rules& r) {
  return {{"set", name(r.set)},
          {"players", r.players},
          {"engine", name(r.engine)},
          {"rounds", r.total_rounds()},
          {"multiple_doubles", r.multiple_doubles ? "on" : "off"},
          {"blank_double_50", r.blank_double_50 ? "on" : "off"},
          {"single_hand", r.single_hand ? "on" : "off"},
          {"hand_size", r.hand_size()}};
}

nlohmann::json option_catalogue() {
  return {{"set", {"double-twelve", "double-nine", "double-fifteen"}},
          {"players", "2..8 (4 default)"},
          {"engine", {"highest_in_hand", "round_doubles"}},
          {"rounds", "1..1000 (13 default; round_doubles: 1..N+1, N+1 default)"},
          {"multiple_doubles", {"off", "on"}},
          {"blank_double_50", {"off", "on"}},
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
         {{"double-twelve", "the 91 tiles from 0-0 to 12-12"},
          {"double-nine", "the 55 tiles from 0-0 to 9-9"},
          {"double-fifteen", "the 136 tiles from 0-0 to 15-15"}}}}},
      {"players", {{"about", "how many play, each for themselves"}}},
      {"engine",
       {{"about", "the double every train starts from (the engine)"},
        {"values",
         {{"highest_in_hand", "the round's first player lays their highest double (drawing until they have one)"},
          {"round_doubles", "round 1 uses the highest double, each round the next lower one"}}}}},
      {"rounds", {{"about", "rounds in the game; penalties add up over them and the lowest total wins"}}},
      {"multiple_doubles",
       {{"about", "a player who owes a cover for their own double may lay more doubles first (house rule)"},
        {"values", {{"on", "allowed"}, {"off", "cover the double at once"}}}}},
      {"blank_double_50",
       {{"about", "the penalty for 0-0 left in hand"}, {"values", {{"on", "50 pips"}, {"off", "0 pips"}}}}},
      {"single_hand", {{"about", "play one round only"}, {"values", {{"on", "one round"}, {"off", "every round"}}}}}};
}

}  // namespace boneyard::mexican_train
