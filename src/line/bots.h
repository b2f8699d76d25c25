#pragma once
// Line-game bots. Each sees one seat's Observation only.
#include <memory>

#include "line/state.h"

namespace boneyard::line {

// A club player's heuristic: shed heavy tiles, keep numbers you hold many
// of, keep doubles from being stranded, and lead from your longest suit.
class GreedyBot final : public Bot<LineGame> {
 public:
  explicit GreedyBot(uint64_t seed) : Bot<LineGame>("greedy", seed) {}
  Move choose(const Observation& obs, std::span<const Move> legal) override;
  // The heuristic value of one move (higher is better), for tests and hints.
  static double value(const State& s, int seat, Move m);
};

}  // namespace boneyard::line
