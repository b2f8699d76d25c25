#pragma once
// Helpers for line-game tests: explicit deals and scripted moves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "line/state.h"

namespace boneyard::line::testing {

inline State make(const char* preset, const OptionList& opts = {}, uint64_t seed = 1) {
  return State(make_rules(preset, opts), seed);
}

// Applies moves by text for whoever is to act.
inline void play(State& s, const std::vector<std::string>& moves) {
  for (const auto& m : moves) {
    ASSERT_EQ(s.actor().kind, Actor::Seat) << "expected a seat to act before " << m;
    const int seat = s.actor().seat;
    s.apply(seat, s.parse_move(seat, m));
  }
}

// The hands of a deal written from the leader's point of view: hands[0] is
// the leader's. Returns the deal text for a leader at seat `leader`.
inline std::string rotated_deal(const std::vector<std::string>& hands, int leader, bool say_leader) {
  const int n = static_cast<int>(hands.size());
  std::string d = "deal";
  for (int seat = 0; seat < n; ++seat) d += (seat ? " / " : " ") + hands[static_cast<size_t>((seat - leader + n) % n)];
  if (say_leader) d += " leader " + std::to_string(leader);
  return d;
}

}  // namespace boneyard::line::testing
