#pragma once
// Mexican Train bots. Each sees one seat's Observation only.
#include <cstdint>

#include "mexican_train/state.h"

namespace boneyard::mexican_train {

// ismcts's default budget per decision (BotOptions.iterations overrides):
// about 25 ms a decision on one idle core (4 players, double-twelve); the
// bench harness measured 4000 no better against greedy within its noise.
inline constexpr int kIsmctsIterations = 2000;

// The longest chain a hand can lay from `from` (tiles in laying order), most
// pips on equal length; a depth-first search over the hand's tiles, bounded
// by `budget` search nodes.
struct Chain {
  uint8_t tiles[kMaxSetTiles] = {};
  int length = 0;
  int pips = 0;
  TileSet set;
};
Chain longest_chain(const TileSet& hand, int from, int budget = 20000);

// A club player: plans the longest chain on its own train, plays off-chain
// tiles elsewhere first, lays doubles it can cover, and lifts its marker.
class GreedyBot final : public Bot<MexicanTrain> {
 public:
  explicit GreedyBot(uint64_t seed) : Bot<MexicanTrain>("greedy", seed) {}
  Move choose(const Observation& obs, std::span<const Move> legal) override;
  // The heuristic value of one move given the planned chain (higher is better).
  static double value(const State& s, int seat, const Chain& plan, Move m);
};

}  // namespace boneyard::mexican_train
