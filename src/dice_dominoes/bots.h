#pragma once
// Dice & Dominoes bots. Each sees one seat's Observation only.
#include "dice_dominoes/state.h"

namespace boneyard::dice_dominoes {

// Chances, from one seat's public knowledge, that some other player reveals
// a special of at least each rank this round (index: Rank).
struct SpecialRisk {
  double at_least[4] = {1, 0, 0, 0};
};
SpecialRisk special_risk(const State& s, int seat);

// Lays the two tiles most likely to be discarded; holds a perfect or the
// wild when another player's special is likely; hides its matching tiles
// when it expects them to be sent back anyway (the source's bluff). After a
// W-perfect it keeps match points that suit its hand.
class GreedyBot final : public Bot<DiceDominoes> {
 public:
  explicit GreedyBot(uint64_t seed) : Bot<DiceDominoes>("greedy", seed) {}
  Move choose(const Observation& obs, std::span<const Move> legal) override;
  // The heuristic value of laying `m` (higher is better), for tests.
  static double value(const State& s, int seat, const SpecialRisk& risk, Move m);
};

}  // namespace boneyard::dice_dominoes
