#include "line/bots.h"

namespace boneyard::line {

double GreedyBot::value(const State& s, int seat, Move m) {
  switch (m.kind) {
    case Move::Redeal:
      return 1;  // five doubles is a weak hand: take the new deal
    case Move::Keep:
      return 0;
    case Move::Leader: {
      // Lead ourselves with a strong hand: a long suit or several doubles.
      const SmallSet h = s.hand(seat);
      int longest = 0;
      for (int n = 0; n <= s.rules().max_pip(); ++n)
        longest = std::max(longest, (h & suit<1>(n, s.rules().max_pip())).size());
      const int dbl = (h & doubles<1>(s.rules().max_pip())).size();
      const bool strong = longest >= 4 || dbl >= 3;
      return (m.arg == seat) == strong ? 1 : 0;
    }
    case Move::Pass:
    case Move::Draw:
      return 0;
    default:
      break;
  }
  const Tile t = m.tile();
  const SmallSet hand = s.hand(seat);
  const int mp = s.rules().max_pip();
  auto held = [&](int n) { return (hand & suit<1>(n, mp)).size() - (t.shows(n) ? 1 : 0); };
  double v = t.pips();        // shed weight
  if (t.is_double()) v += 4;  // doubles are the easiest tiles to strand
  int open_a, open_b;         // the ends after this move
  if (m.kind == Move::Lead) {
    open_a = t.high();
    open_b = t.low();
  } else if (m.kind == Move::Left) {
    open_a = t.other(s.left_end());
    open_b = s.right_end();
  } else {
    open_a = s.left_end();
    open_b = t.other(s.right_end());
  }
  v += 2.5 * (held(open_a) + held(open_b));  // keep ends we can answer
  // Numbers mostly gone from play are dangerous to leave open for partner's
  // opponents; numbers we hold many of are ours to control.
  const SmallSet out = s.played();
  v -= 0.5 * ((out & suit<1>(open_a, mp)).size() + (out & suit<1>(open_b, mp)).size());
  return v;
}

Move GreedyBot::choose(const Observation& obs, std::span<const Move> legal) {
  Move best = legal[0];
  double best_v = -1e9;
  for (const Move& m : legal) {
    const double v = value(obs.masked, obs.seat, m) + 1e-3 * rng().uniform();  // break ties at random
    if (v > best_v) {
      best_v = v;
      best = m;
    }
  }
  return best;
}

}  // namespace boneyard::line
