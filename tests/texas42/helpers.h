#pragma once
// Helpers for setting up exact Texas 42 situations from explicit deals.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "texas42/state.h"

namespace t42test {

using namespace boneyard;
using namespace boneyard::texas42;

inline uint32_t tiles(const std::string& list) {
  uint32_t m = 0;
  size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && list[i] == ' ') ++i;
    size_t j = i;
    while (j < list.size() && list[j] != ' ') ++j;
    if (j > i) m |= uint32_t{1} << parse_tile(list.substr(i, j - i), 6).index;
    i = j;
  }
  return m;
}

// Hands given in part: each seat's listed tiles, the rest of the set filled
// in index order (lowest first) into the seats still short of 7.
inline std::string deal_text(std::vector<std::string> given) {
  uint32_t h[4];
  uint32_t used = 0;
  for (int s = 0; s < 4; ++s) {
    h[s] = tiles(given[static_cast<size_t>(s)]);
    used |= h[s];
  }
  for (int i = 0; i < kTiles; ++i) {
    if ((used >> i) & 1) continue;
    for (int s = 0; s < 4; ++s)
      if (std::popcount(h[s]) < 7) {
        h[s] |= uint32_t{1} << i;
        break;
      }
  }
  std::string out = "deal";
  for (int s = 0; s < 4; ++s) out += (s ? " / " : " ") + to_string(SmallSet{{h[s]}});
  return out;
}

// A state with seat 0 dealing (bidding starts with seat 1) and this deal.
inline State dealt(std::vector<std::string> hands, const OptionList& o = {}) {
  State s(make_rules(o), 1);
  s.apply_chance_text("draw 6-6 0-0 1-0 2-0");
  s.apply_chance_text(deal_text(std::move(hands)));
  return s;
}

inline void act(State& s, const std::string& move) {
  const int seat = s.actor().seat;
  ASSERT_GE(seat, 0) << "no seat to act for " << move;
  s.apply(seat, s.parse_move(seat, move));
}

// Bidding in order seats 1, 2, 3, 0: the given texts.
inline void bids(State& s, const std::string& b1, const std::string& b2, const std::string& b3, const std::string& b0) {
  act(s, b1);
  act(s, b2);
  act(s, b3);
  act(s, b0);
}

// The declarer (seat 0 unless given) bids `bid`, everyone else passes, then
// trumps are named.
inline void contract(State& s, const std::string& bid, const std::string& trump, int declarer = 0) {
  for (int seat : {1, 2, 3, 0}) act(s, seat == declarer ? bid : "pass");
  act(s, trump);
}

inline std::vector<std::string> legal(const State& s) {
  MoveList<Move, Texas42::kMaxMoves> l;
  s.legal_moves(s.actor().seat, l);
  std::vector<std::string> out;
  for (const Move& m : l) out.push_back(s.move_text(m));
  return out;
}

inline std::vector<std::string> sorted_copy(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

inline bool has(const std::vector<std::string>& v, const std::string& x) {
  for (const auto& y : v)
    if (y == x) return true;
  return false;
}

}  // namespace t42test
