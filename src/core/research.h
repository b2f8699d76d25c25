#pragma once
// Research interface (the Python package, docs/python.md): every game folder
// has a research.h with a struct Research giving
//   static int num_actions(const State& fresh);        fixed action space
//   static int to_action(const State&, Move);          0 .. num_actions-1
//   static Move from_action(const State&, int action); throws Error out of range
//   static std::vector<int> observation_shape(const State& fresh);
//   static void observation(const State&, int seat, float* out);
//   static int max_game_length(const State& fresh);
//   static int max_chance_nodes(const State& fresh);   // in any history, under max_game_length's caps
// and the perfect-recall information-state tensor's parts (assembled by
// src/research/spiel_state.h: the observation, then per hand of the game
// the seat's tiles at the hand's first step and one slot per step of the
// hand, each the actor relative to the observer and info_step's fields):
//   static int info_max_hands(const State& fresh);   // hands with room; 1 with single_hand
//   static int info_hand_size(const State& fresh);
//   static void info_hand(const State&, int seat, float* out);
//   static int info_step_size(const State& fresh);
//   static int info_max_steps(const State& fresh);   // slots; later steps are left out
//   static void info_step(const State& before, const State& after, int seat, int actor, Move m, bool own,
//                         float* out);
//       the step `m` of `actor` as `seat` knows it: `after` is the state
//       when the next step comes (its chance outcomes resolved) or now;
//       with own = false only what every seat sees (a resampled world's
//       other seats); out is zeroed, info_step_size long
// and, for explicit chance (docs/python.md, Chance), chance actions
// 0 .. max_chance_outcomes-1 (a tile's index; Dice & Dominoes: a face
// 0..27, then the six die faces 28..33):
//   static int max_chance_outcomes(const State& fresh);
//   static void chance_outcomes(const State&, std::span<const uint8_t> chosen, std::vector<Outcome>& out);
//       at Actor::Chance (a deal, a draw for the lead or the dealer, a
//       roll): the outcomes of the next step after `chosen` (this event's
//       outcomes so far), sorted by action, probabilities summing to 1
//   static bool chance_finish(State&, std::span<const uint8_t> chosen);
//       applies the event (the game's explicit deal or roll) once `chosen`
//       determines it and returns true; else false (more steps follow)
//   static uint32_t stock_draws(const State&);  // tiles drawn from the stock so far
//       (only differences over one move are used)
//   static void draw_outcomes(const State&, int k, std::vector<Outcome>& out);
//       the tile drawn k-th from now (the k before chosen already)
//   static void put_next_draw(State&, int k, int action);  // throws Error
//   static std::string chance_action_text(int action);
//   static const char* chance_event(const State&);  // "deal", "dealer_draw", "roll"
//   static int chance_action_of(const State&, std::string_view text);  // throws Error
// Encoders read only the seat's Observation (observe(seat).masked) and the
// public moves, so they cannot leak what the seat may not see.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace boneyard {

struct Outcome {
  int action;
  double probability;
};

// Each distinct value of tiles[0..n) with probability (its copies) / n,
// sorted by value: one uniform draw from what is left.
inline void uniform_outcomes(const uint8_t* tiles, int n, std::vector<Outcome>& out) {
  out.clear();
  int count[256] = {};
  for (int i = 0; i < n; ++i) ++count[tiles[i]];
  for (int v = 0; v < 256; ++v)
    if (count[v]) out.push_back({v, static_cast<double>(count[v]) / n});
}

// A small writer over a float buffer: each field in order.
struct TensorWriter {
  float* p;
  void zeros(int n) { std::fill(p, p + n, 0.0f); }
  // n zeros with a one at i (none if i is outside 0..n-1).
  void one_hot(int n, int i) {
    zeros(n);
    if (i >= 0 && i < n) p[i] = 1.0f;
    p += n;
  }
  void value(float v) { *p++ = v; }
  template <class F>
  void bits(int n, F has) {
    for (int i = 0; i < n; ++i) *p++ = has(i) ? 1.0f : 0.0f;
  }
};

}  // namespace boneyard
