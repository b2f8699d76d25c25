#include "texas42/rules.h"

#include "core/text.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

namespace boneyard::texas42 {

namespace {

constexpr const char* kKeys =
    "scoring, target_marks, target_points, stop_when_decided, open_two_marks, forced_bid, made_scores_taken, "
    "tricks_face_down, nello, plunge, splash, sevens, single_hand";

}  // namespace

const char* name(Scoring s) { return s == Scoring::Marks ? "marks" : "points"; }

void set_option(Rules& r, std::string_view key, std::string_view v) {
  if (key == "scoring") {
    if (v == "marks") r.scoring = Scoring::Marks;
    else if (v == "points") r.scoring = Scoring::Points;
    else throw Error(fmt::format("bad value '{}' for option scoring; expected one of: marks, points", v));
  } else if (key == "target_marks") r.target_marks = static_cast<int16_t>(parse_option_int(key, v, 1, 100));
  else if (key == "target_points") r.target_points = static_cast<int16_t>(parse_option_int(key, v, 1, 10000));
  else if (key == "stop_when_decided") r.stop_when_decided = parse_option_bool(key, v);
  else if (key == "open_two_marks") r.open_two_marks = parse_option_bool(key, v);
  else if (key == "forced_bid") r.forced_bid = parse_option_bool(key, v);
  else if (key == "made_scores_taken") r.made_scores_taken = parse_option_bool(key, v);
  else if (key == "tricks_face_down") r.tricks_face_down = parse_option_bool(key, v);
  else if (key == "nello") r.nello = parse_option_bool(key, v);
  else if (key == "plunge") r.plunge = parse_option_bool(key, v);
  else if (key == "splash") r.splash = parse_option_bool(key, v);
  else if (key == "sevens") r.sevens = parse_option_bool(key, v);
  else if (key == "single_hand") r.single_hand = parse_option_bool(key, v);
  else throw Error(fmt::format("unknown option '{}' for texas-42; options: {}", key, kKeys));
}

Rules make_rules(const OptionList& overrides) {
  Rules r;
  for (const auto& [k, v] : overrides) set_option(r, k, v);
  return r;
}

nlohmann::json to_json(const Rules& r) {
  return {{"scoring", name(r.scoring)},
          {"target_marks", r.target_marks},
          {"target_points", r.target_points},
          {"stop_when_decided", r.stop_when_decided},
          {"open_two_marks", r.open_two_marks},
          {"forced_bid", r.forced_bid},
          {"made_scores_taken", r.made_scores_taken},
          {"tricks_face_down", r.tricks_face_down},
          {"nello", r.nello},
          {"plunge", r.plunge},
          {"splash", r.splash},
          {"sevens", r.sevens},
          {"single_hand", r.single_hand}};
}

nlohmann::json option_catalogue() {
  return {{"scoring", nlohmann::json::array({"marks", "points"})},
          {"target_marks", "1..100 marks that win the game (7; the app uses 3)"},
          {"target_points", "1..10000 points that win the game (250; the app uses 150)"},
          {"stop_when_decided", nlohmann::json::array({"on", "off"})},
          {"open_two_marks", nlohmann::json::array({"off", "on"})},
          {"forced_bid", nlohmann::json::array({"off", "on"})},
          {"made_scores_taken", nlohmann::json::array({"off", "on"})},
          {"tricks_face_down", nlohmann::json::array({"off", "on"})},
          {"nello", nlohmann::json::array({"off", "on"})},
          {"plunge", nlohmann::json::array({"off", "on"})},
          {"splash", nlohmann::json::array({"off", "on"})},
          {"sevens", nlohmann::json::array({"off", "on"})},
          {"single_hand", nlohmann::json::array({"off", "on"})}};
}

}  // namespace boneyard::texas42
