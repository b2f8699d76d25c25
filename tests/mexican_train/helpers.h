#pragma once
// Shared helpers for the Mexican Train tests: explicit deals and moves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/tile.h"
#include "mexican_train/state.h"
#include "mexican_train/words.h"

namespace mt_test {

using namespace boneyard;
using namespace boneyard::mexican_train;

inline State make(const OptionList& o, uint64_t seed = 1) { return State(make_rules(o), seed); }

// Two players, double-nine, round_doubles: round 1's engine is 9-9, hands of 10.
inline State two_nine() { return make({{"players", "2"}, {"set", "double-nine"}, {"engine", "round_doubles"}}); }

// Deals the given hands; the stock starts with `stock_first` (draw order)
// and continues with every other undealt tile in index order.
inline void deal(State& s, const std::vector<std::string>& hands, const std::string& stock_first = "") {
  std::string text = "deal";
  TileSet used;
  for (size_t i = 0; i < hands.size(); ++i) {
    text += (i ? " / " : " ") + hands[i];
    std::string h = hands[i];
    size_t p = 0;
    while (p < h.size()) {
      while (p < h.size() && h[p] == ' ') ++p;
      size_t q = h.find(' ', p);
      if (q == std::string::npos) q = h.size();
      if (q > p) used.add(parse_tile(h.substr(p, q - p)));
      p = q;
    }
  }
  text += " stock " + stock_first;
  size_t p = 0;
  while (p < stock_first.size()) {
    while (p < stock_first.size() && stock_first[p] == ' ') ++p;
    size_t q = stock_first.find(' ', p);
    if (q == std::string::npos) q = stock_first.size();
    if (q > p) used.add(parse_tile(stock_first.substr(p, q - p)));
    p = q;
  }
  if (s.rules().engine == Engine::RoundDoubles) used.add(s.engine());
  s.set_tiles().minus(used).for_each([&](Tile t) { text += " " + to_string(t); });
  s.apply_chance_text(text);
}

inline std::vector<std::string> legal(const State& s) {
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  s.legal_moves(s.to_move(), l);
  std::vector<std::string> out;
  for (const Move& m : l) out.push_back(s.move_text(m));
  return out;
}

inline void play(State& s, const std::string& text) {
  const int seat = s.to_move();
  Move m;
  try {
    m = s.parse_move(seat, text);
  } catch (const Error& e) {
    FAIL() << "seat " << seat << " cannot play " << text << ": " << e.what();
  }
  s.apply(seat, m);
}

inline Tile T(const char* t) { return parse_tile(t); }

}  // namespace mt_test
