#pragma once
// Beliefs from play (issue 37): how likely the tiles other seats placed this
// hand were, had they held the hands of a sampled deal. ismcts weighs its
// pool of sampled deals by it (LineGame::sample_weighted).
#include "line/state.h"

namespace boneyard::line {

// The model of a player: at each placement it chose among the moves it had
// with probability proportional to exp(w . f), f the move's features: its
// pips, whether it is a double, the tiles the seat keeps for the ends it
// leaves open, the tiles of those numbers already played, and whether both
// ends then show one number. The weights are a conditional logit fitted to
// ismcts's placements in latin self-play (docs/bots.md, "Beliefs from play").
struct PlayModel {
  double lead[5];  // the first tile of a hand
  double play[5];  // a tile on an end
};
extern const PlayModel kPlayModel;

// Log-likelihood, up to a constant, of this hand's placements by every seat
// but `observer` under the model, the seats' hands being those of the full
// state `s` (what they hold now plus what they placed). It reads only the
// hands of s and the public history, so deals sampled from one observation
// are compared on what the observer saw. 0 when a tile was drawn this hand
// (the hands at each placement are then unknown) or nothing was placed.
double play_log_likelihood(const State& s, int observer, const PlayModel& model = kPlayModel);

}  // namespace boneyard::line
