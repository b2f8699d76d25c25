#pragma once
// Helpers for Dice & Dominoes tests: explicit deals, dice and lays.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "dice_dominoes/state.h"

namespace dd_test {

using namespace boneyard;
using namespace boneyard::dice_dominoes;

inline State make(int players, OptionList extra = {}) {
  extra.insert(extra.begin(), {"players", std::to_string(players)});
  return State(make_rules(extra), 1);
}

// "deal <hands> stock <prefix> <every other undealt tile in face order>".
inline std::string deal_text(const State& s, const std::vector<std::string>& hands,
                             const std::string& stock_prefix = "") {
  int left[kFaces];
  for (int& x : left) x = s.rules().sets;
  auto take = [&](const std::string& tiles) {
    std::istringstream in(tiles);
    std::string t;
    while (in >> t) --left[parse_tile(t, 6).index];
  };
  std::string text = "deal";
  for (size_t i = 0; i < hands.size(); ++i) {
    text += (i ? " / " : " ") + hands[i];
    take(hands[i]);
  }
  take(stock_prefix);
  text += " stock " + stock_prefix;
  for (int f = 0; f < kFaces; ++f)
    for (int c = 0; c < left[f]; ++c) text += " " + to_string(Tile{static_cast<uint8_t>(f)});
  return text;
}

inline void lay(State& s, int seat, const std::string& text) { s.apply(seat, s.parse_move(seat, text)); }

// One round: roll the dice, then every seat lays (in seat order).
inline void round(State& s, int a, int b, const std::vector<std::string>& lays) {
  ASSERT_EQ(s.phase(), Phase::Roll);
  s.apply_chance_text("roll " + std::to_string(a) + " " + std::to_string(b));
  ASSERT_EQ(s.phase(), Phase::Choose);
  for (size_t k = 0; k < lays.size(); ++k) lay(s, static_cast<int>(k), lays[k]);
}

inline uint64_t tiles(const std::string& text) {
  uint64_t p = 0;
  std::istringstream in(text);
  std::string t;
  while (in >> t) pile::add(p, parse_tile(t, 6).index);
  return p;
}

}  // namespace dd_test
