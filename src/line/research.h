#pragma once
// Line games for the Python package: actions and tensors (docs/python.md).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/research.h"
#include "line/state.h"

namespace boneyard::line {

struct Research {
  static int num_actions(const State& fresh);
  static int to_action(const State& s, Move m);
  static Move from_action(const State& s, int action);
  static std::vector<int> observation_shape(const State& fresh);
  static void observation(const State& s, int seat, float* out);
  static int max_game_length(const State& fresh);
  static int max_chance_nodes(const State& fresh);
  // The perfect-recall information-state tensor (src/research/spiel_state.h):
  // the seat's tiles at the hand's first step, and one slot per step.
  static int info_hand_size(const State& fresh);
  static void info_hand(const State& s, int seat, float* out);
  static int info_step_size(const State& fresh);
  static int info_max_steps(const State& fresh);
  static int info_max_hands(const State& fresh);
  static void info_step(const State& before, const State& after, int seat, int actor, Move m, bool own, float* out);
  // Explicit chance (core/research.h, docs/python.md).
  static int max_chance_outcomes(const State& fresh);
  static void chance_outcomes(const State& s, std::span<const uint8_t> chosen, std::vector<Outcome>& out);
  static bool chance_finish(State& s, std::span<const uint8_t> chosen);
  static uint32_t stock_draws(const State& s);
  static void draw_outcomes(const State& s, int k, std::vector<Outcome>& out);
  static void put_next_draw(State& s, int k, int action);
  static std::string chance_action_text(int action);
  static const char* chance_event(const State& s);  // what the pending chance event is
  static int chance_action_of(const State& s, std::string_view text);
  // Perfect-recall information state (docs/python.md): the seat's own tiles.
  static std::string hand_text(const State& s, int seat);
  // What the last hand gave each side (HandSummary::side_points, without
  // building its texts): the single-hand returns.
  static void hand_points(const State& s, std::vector<double>& out);
};

}  // namespace boneyard::line
