#pragma once
// Research interface (the Python package, docs/python.md): every game folder
// has a research.h with a struct Research giving
//   static int num_actions(const State& fresh);        fixed action space
//   static int to_action(const State&, Move);          0 .. num_actions-1
//   static Move from_action(const State&, int action); throws Error out of range
//   static std::vector<int> observation_shape(const State& fresh);
//   static void observation(const State&, int seat, float* out);
//   static std::vector<int> info_state_shape(const State& fresh);
//   static void info_state(const State&, int seat, std::span<const Step<Move>> hand, float* out);
//       `hand`: the moves of the current hand (or round), in order
//   static int max_game_length(const State& fresh);
// Encoders read only the seat's Observation (observe(seat).masked) and the
// public moves, so they cannot leak what the seat may not see.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace boneyard {

template <class M>
struct Step {
  int seat;
  M move;
};

// A small writer over a float buffer: each field in order.
struct TensorWriter {
  float* p;
  void zeros(int n) {
    std::fill(p, p + n, 0.0f);
  }
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
