#include "line/beliefs.h"

#include <algorithm>
#include <cmath>

#include "line/bots.h"

namespace boneyard::line {

double play_log_likelihood(const State& s, int observer, double beta) {
  if (s.phase() != Phase::Play || s.stock_drawn() > 0 || s.placed_count() == 0) return 0;
  const int seats = s.num_seats();
  const int mp = s.rules().max_pip();
  // Each seat's hand as dealt: what it holds now and what it placed.
  SmallSet hand[kMaxSeats];
  for (int k = 0; k < seats; ++k) hand[k] = s.hand(k) | s.placed_by(k);
  SmallSet played;
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
      // Greedy's value of every placement the seat had, and of the one it made.
      int n = 0;
      double chosen = 0;
      const SmallSet h = hand[seat];
      h.for_each([&](Tile x) {
        if (i == 0) {
          v[n] = GreedyBot::play_value(h, played, x, x.high(), x.low(), mp);
          if (x == t) chosen = v[n];
          ++n;
          return;
        }
        if (x.shows(left)) {
          v[n] = GreedyBot::play_value(h, played, x, x.other(left), right, mp);
          if (x == t && on_left) chosen = v[n];
          ++n;
        }
        if (x.shows(right) && left != right) {
          v[n] = GreedyBot::play_value(h, played, x, left, x.other(right), mp);
          if (x == t && !on_left) chosen = v[n];
          ++n;
        }
      });
      if (n > 1) {
        const double top = *std::max_element(v, v + n);
        double z = 0;
        for (int j = 0; j < n; ++j) z += std::exp(beta * (v[j] - top));
        total += beta * (chosen - top) - std::log(z);
      }
    }
    // Place it.
    hand[seat].remove(t);
    played.add(t);
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
