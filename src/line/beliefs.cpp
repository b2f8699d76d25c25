#include "line/beliefs.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace boneyard::line {

// Fitted on 60 latin games of ismcts and ismcts-v1 at 1,000 iterations
// (8,150 placements on an end, 605 leads); log-likelihood a choice: plays
// -0.867 against -0.982 for a uniform choice, leads -1.14 against -1.95.
const PlayModel kPlayModel = {{0.084, 1.396, 0.351, 0.0, 1.396}, {0.121, 0.653, 0.332, 0.208, 0.325}};

double play_log_likelihood(const State& s, int observer, const PlayModel& model) {
  if (s.phase() != Phase::Play || s.stock_drawn() > 0 || s.placed_count() == 0) return 0;
  const int seats = s.num_seats();
  const int mp = s.rules().max_pip();
  uint64_t suit_of[10];
  for (int n = 0; n <= mp; ++n) suit_of[n] = suit<1>(n, mp).w[0];
  // Each seat's hand as dealt: what it holds now and what it placed.
  uint64_t hand[kMaxSeats];
  for (int k = 0; k < seats; ++k) hand[k] = (s.hand(k) | s.placed_by(k)).w[0];
  uint64_t played = 0;
  int left = -1, right = -1;
  double total = 0;
  double v[2 * kMaxSetTiles];
  for (int i = 0; i < s.placed_count(); ++i) {
    const Tile t = s.placed_tile(i);
    const bool on_left = s.placed_on_left(i);
    int seat = 0;
    while (seat < seats && !s.placed_by(seat).has(t)) ++seat;
    if (seat == seats) return 0;  // not a placement this hand: no evidence to read
    if (seat != observer && !(i == 0 && s.forced_lead() >= 0)) {
      const uint64_t h = hand[seat];
      const double* w = i == 0 ? model.lead : model.play;
      // The model's score of placing x leaving ends a and b.
      const auto score = [&](Tile x, int a, int b) {
        const uint64_t rest = h & ~(uint64_t{1} << x.index);
        const int held = std::popcount(rest & suit_of[a]) + std::popcount(rest & suit_of[b]);
        const int gone = std::popcount(played & suit_of[a]) + std::popcount(played & suit_of[b]);
        return w[0] * x.pips() + w[1] * x.is_double() + w[2] * held + w[3] * gone + w[4] * (a == b);
      };
      int n = 0;
      double chosen = 0;
      for (uint64_t x = h; x; x &= x - 1) {
        const Tile c{static_cast<uint8_t>(std::countr_zero(x))};
        if (i == 0) {
          v[n] = score(c, c.high(), c.low());
          if (c == t) chosen = v[n];
          ++n;
          continue;
        }
        if (c.shows(left)) {
          v[n] = score(c, c.other(left), right);
          if (c == t && on_left) chosen = v[n];
          ++n;
        }
        if (c.shows(right) && left != right) {
          v[n] = score(c, left, c.other(right));
          if (c == t && !on_left) chosen = v[n];
          ++n;
        }
      }
      if (n > 1) {
        const double top = *std::max_element(v, v + n);
        double z = 0;
        for (int j = 0; j < n; ++j) z += std::exp(v[j] - top);
        total += chosen - top - std::log(z);
      }
    }
    hand[seat] &= ~(uint64_t{1} << t.index);
    played |= uint64_t{1} << t.index;
    if (i == 0) {
      left = t.high();
      right = t.low();
    } else if (on_left) {
      left = t.other(left);
    } else {
      right = t.other(right);
    }
  }
  return total;
}

State LineGame::sample_weighted(const Observation& o, Rng& rng, double& log_weight) {
  State s = State::sample(o, rng);
  log_weight = play_log_likelihood(s, o.seat);
  return s;
}

}  // namespace boneyard::line
