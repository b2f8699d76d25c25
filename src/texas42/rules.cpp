#include "texas42/rules.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "core/text.h"

namespace boneyard::texas42 {

namespace {

constexpr const char* kKeys =
    "scoring, target_marks, target_points, stop_when_decided, open_two_marks, forced_bid, made_scores_taken, "
    "tricks_face_down, nello, plunge, splash, sevens, single_hand";

}  // namespace

const char* name(Scoring s) { return s == Scoring::Marks ? "marks" : "points"; }

void set_option(Rules& r, std::string_view key, std::string_view v) {
  if (key == "scoring") {
    if (v == "marks")
      r.scoring = Scoring::Marks;
    else if (v == "points")
      r.scoring = Scoring::Points;
    else
      throw Error(fmt::format("bad value '{}' for option scoring; expected one of: marks, points", v));
  } else if (key == "target_marks")
    r.target_marks = static_cast<int16_t>(parse_option_int(key, v, 1, 100));
  else if (key == "target_points")
    r.target_points = static_cast<int16_t>(parse_option_int(key, v, 1, 10000));
  else if (key == "stop_when_decided")
    r.stop_when_decided = parse_option_bool(key, v);
  else if (key == "open_two_marks")
    r.open_two_marks = parse_option_bool(key, v);
  else if (key == "forced_bid")
    r.forced_bid = parse_option_bool(key, v);
  else if (key == "made_scores_taken")
    r.made_scores_taken = parse_option_bool(key, v);
  else if (key == "tricks_face_down")
    r.tricks_face_down = parse_option_bool(key, v);
  else if (key == "nello")
    r.nello = parse_option_bool(key, v);
  else if (key == "plunge")
    r.plunge = parse_option_bool(key, v);
  else if (key == "splash")
    r.splash = parse_option_bool(key, v);
  else if (key == "sevens")
    r.sevens = parse_option_bool(key, v);
  else if (key == "single_hand")
    r.single_hand = parse_option_bool(key, v);
  else
    throw Error(fmt::format("unknown option '{}' for texas-42; options: {}", key, kKeys));
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
          {"stop_when_decided", nlohmann::json::array({"off", "on"})},
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

// Every option and value in words, for `rules NAME` and the app's lobby:
// {option: {"about": text, "values": {value: text}}} (English).
nlohmann::json option_explanations() {
  using J = nlohmann::json;
  const J on_off = {{"on", "yes"}, {"off", "no"}};
  return J{
      {"scoring",
       {{"about", "what a hand scores"},
        {"values",
         {{"marks",
           "a made bid scores its marks (1 for 30..42), a set gives them to the other "
           "team"},
          {"points", "hands score points: the bid, or the points taken"}}}}},
      {"target_marks", {{"about", "marks that win the game (marks scoring): a whole number from 1 to 100"}}},
      {"target_points", {{"about", "points that win the game (points scoring): a whole number from 1 to 10000"}}},
      {"stop_when_decided",
       {{"about", "marks scoring: the hand ends as soon as the bid is certainly made or set"},
        {"values", {{"on", "stop there"}, {"off", "play all seven tricks"}}}}},
      {"open_two_marks", {{"about", "the first bid may be 2 marks"}, {"values", on_off}}},
      {"forced_bid",
       {{"about", "after three passes the dealer must bid"},
        {"values",
         {{"on", "the dealer bids at least 30"}, {"off", "all four may pass; the next dealer deals again"}}}}},
      {"made_scores_taken",
       {{"about", "points scoring: a made bid of 30..42 scores the points taken, not the bid"}, {"values", on_off}}},
      {"tricks_face_down",
       {{"about", "a finished trick is turned face down: only who won it and the count stay in view"},
        {"values", on_off}}},
      {"nello",
       {{"about", "a declarer with a bid of 42 or more may call nello: play alone and lose every trick"},
        {"values", on_off}}},
      {"plunge",
       {{"about",
         "a player with four doubles or more may bid 4 marks, the most any bid may be (none once 4 marks are bid); "
         "the partner names trumps and leads"},
        {"values", on_off}}},
      {"splash", {{"about", "as plunge, with three doubles, for 2 or 3 marks"}, {"values", on_off}}},
      {"sevens",
       {{"about", "a declarer with 42 or more may call sevens: the tile closest to 7 pips wins each trick"},
        {"values", on_off}}},
      {"single_hand",
       {{"about", "play one hand only"}, {"values", {{"on", "one hand"}, {"off", "play to the target"}}}}}};
}

}  // namespace boneyard::texas42
