#include "mexican_train/beliefs.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace boneyard::mexican_train {

const PlayModel kPlayModel = {{0.073, 1.14, 0.248, -0.005}};

int placement_options(const uint16_t* hand, uint32_t ends, int own_end, PlacementOption* out) {
  int n_options = 0;
  for (; ends; ends &= ends - 1) {
    const int n = std::countr_zero(ends);
    for (unsigned x = hand[n]; x; x &= x - 1) {
      const int m = std::countr_zero(x);  // the tile n-m, leaving m open
      const int held = std::popcount(static_cast<unsigned>(hand[m]) & ~(1u << n));
      out[n_options++] = {Tile::of(n, m), n, {n + m, n == m, held, n == own_end}};
    }
  }
  return n_options;
}

double play_log_likelihood(const State& s, int observer, const PlayModel& model) {
  if (s.phase() != Phase::Opening && s.phase() != Phase::Play) return 0;
  const int seats = s.num_seats();
  const int mp = s.rules().max_pip();
  // Hands by number, as State keeps them: bit m of hand[k][n] is the tile n-m.
  uint16_t hand[kMaxSeats][16] = {};
  for (int k = 0; k < seats; ++k)
    for (int n = 0; n <= mp; ++n) hand[k][n] = static_cast<uint16_t>(s.holds(k, n));
  const auto give = [&](int k, Tile t, bool on) {
    const auto a = static_cast<uint16_t>(1u << t.low()), b = static_cast<uint16_t>(1u << t.high());
    if (on) {
      hand[k][t.high()] |= a;
      hand[k][t.low()] |= b;
    } else {
      hand[k][t.high()] &= static_cast<uint16_t>(~a);
      hand[k][t.low()] &= static_cast<uint16_t>(~b);
    }
  };
  const int laid = s.laid_count();
  for (int i = 0; i < laid; ++i)
    if (i >= s.drew_at(s.laid_by(i))) give(s.laid_by(i), s.laid_tile(i), true);
  int end[kTrains];
  std::fill(std::begin(end), std::end(end), s.engine().high());
  double total = 0;
  PlacementOption options[kMaxOptions];
  for (int i = 0; i < laid; ++i) {
    const Tile t = s.laid_tile(i);
    const int train = s.laid_train(i), k = s.laid_by(i);
    const bool known = i >= s.drew_at(k);
    if (known && k != observer && !s.laid_drawn(i)) {
      const int n_moves = placement_options(hand[k], s.laid_ends(i), end[k], options);
      if (n_moves > 1) {  // one option says nothing
        int chosen = -1;
        double z = 0;  // scores are a few units: exp needs no shift
        for (int j = 0; j < n_moves; ++j) {
          const double v = option_score(model, options[j]);
          z += std::exp(v);
          if (options[j].tile == t && options[j].on == end[train]) chosen = j;
        }
        if (chosen >= 0) total += option_score(model, options[chosen]) - std::log(z);
      }
    }
    if (known) give(k, t, false);
    end[train] = t.other(end[train]);
  }
  return total;
}

State MexicanTrain::sample_weighted(const Observation& o, Rng& rng, double& log_weight) {
  State s = State::sample(o, rng);
  log_weight = play_log_likelihood(s, o.seat);
  return s;
}

}  // namespace boneyard::mexican_train
