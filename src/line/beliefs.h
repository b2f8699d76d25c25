#pragma once
// Beliefs from play (issue 37): how likely the tiles other seats placed this
// hand were, had they held the hands of a sampled deal. ismcts weighs its
// pool of sampled deals by it (LineGame::sample_weighted).
#include "line/state.h"

namespace boneyard::line {

// The model of a player: at each of its placements it chose among the tiles
// it could place with probability proportional to exp(beta * greedy's value
// of the move) (GreedyBot::play_value: heavy tiles and doubles first, ends it
// can answer kept open).
inline constexpr double kPlayBeta = 0.15;

// Log-likelihood, up to a constant, of this hand's placements by every seat
// but `observer` under the model, the seats' hands being those of the full
// state `s` (what they hold now plus what they placed). It reads only the
// hands of s and the public history, so deals sampled from one observation
// are compared on what the observer saw. 0 when a tile was drawn this hand
// (the hands at each placement are then unknown) or nothing was placed.
double play_log_likelihood(const State& s, int observer, double beta = kPlayBeta);

}  // namespace boneyard::line
