#pragma once
// Texas 42 for the Python package: actions and tensors (docs/python.md).
#include <span>
#include <vector>

#include "core/research.h"
#include "texas42/state.h"

namespace boneyard::texas42 {

struct Research {
  static int num_actions(const State& fresh);
  static int to_action(const State& s, Move m);
  static Move from_action(const State& s, int action);
  static std::vector<int> observation_shape(const State& fresh);
  static void observation(const State& s, int seat, float* out);
  static std::vector<int> info_state_shape(const State& fresh);
  static void info_state(const State& s, int seat, std::span<const Step<Move>> hand, float* out);
  static int max_game_length(const State& fresh);
};

}  // namespace boneyard::texas42
