#pragma once
// Beliefs from play (issue 37): how likely the tiles other seats laid this
// round were, had they held the hands of a sampled deal. ismcts weighs its
// pool of sampled deals by it (MexicanTrain::sample_weighted).
#include "mexican_train/state.h"

namespace boneyard::mexican_train {

// The model of a player: at each placement it chose among the tiles it
// could lay (each tile on each number it could lay on then) with
// probability proportional to exp(w . f), f the placement's features: the
// tile's pips, whether it is a double, the tiles the seat keeps that show
// the train's new end, and whether it went on the seat's own train.
struct PlayModel {
  double w[4];
};
extern const PlayModel kPlayModel;

// One placement a seat could make: `tile` on a train ending in `on`, and
// its features in PlayModel's order.
struct PlacementOption {
  Tile tile;
  int on;
  int f[4];
};
inline constexpr int kMaxOptions = 16 * 16;
// The placements a hand (by number: bit m of hand[n] is the tile n-m) could
// make on the numbers in `ends`, its own train ending in `own_end`; returns
// how many were written to `out`.
int placement_options(const uint16_t* hand, uint32_t ends, int own_end, PlacementOption* out);
inline double option_score(const PlayModel& model, const PlacementOption& o) {
  return model.w[0] * o.f[0] + model.w[1] * o.f[1] + model.w[2] * o.f[2] + model.w[3] * o.f[3];
}

// Log-likelihood, up to a constant, of this round's placements by every
// seat but `observer` under the model, the seats' hands being those of the
// full state `s`. Only the placements since a seat's last draw count: its
// hand then is what it holds now plus what it laid since; before, which
// tiles it drew when is unknown. A tile laid just after drawing it was no
// choice. Reads only the hands of s and the public log, so deals sampled
// from one observation are compared on what the observer saw.
double play_log_likelihood(const State& s, int observer, const PlayModel& model = kPlayModel);

}  // namespace boneyard::mexican_train
