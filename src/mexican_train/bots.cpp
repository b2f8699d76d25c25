#include "mexican_train/bots.h"

#include <algorithm>

namespace boneyard::mexican_train {

namespace {

struct ChainSearch {
  Chain best;
  uint8_t path[kMaxSetTiles];
  int budget;
  const TileSet* by_number;  // hand tiles showing n

  void dfs(TileSet left, int end, int depth, int pips) {
    if (depth > best.length || (depth == best.length && pips > best.pips)) {
      best.length = depth;
      best.pips = pips;
      for (int i = 0; i < depth; ++i) best.tiles[i] = path[i];
    }
    if (--budget <= 0) return;
    const TileSet next = left & by_number[end];
    next.for_each([&](Tile t) {
      if (budget <= 0) return;
      path[depth] = t.index;
      TileSet rest = left;
      rest.remove(t);
      dfs(rest, t.other(end), depth + 1, pips + t.pips());
    });
  }
};

}  // namespace

Chain longest_chain(const TileSet& hand, int from, int budget) {
  ChainSearch cs;
  cs.budget = budget;
  TileSet by_number[16];
  hand.for_each([&](Tile t) {
    by_number[t.high()].add(t);
    by_number[t.low()].add(t);
  });
  cs.by_number = by_number;
  cs.dfs(hand, from, 0, 0);
  Chain c = cs.best;
  for (int i = 0; i < c.length; ++i) c.set.add(Tile{c.tiles[i]});
  return c;
}

double GreedyBot::value(const State& s, int seat, const Chain& plan, Move m) {
  if (m.kind != Move::Lay) return 0;  // draw / pass / end_opening come alone
  const Tile t = m.t();
  const bool on_chain = plan.set.has(t);
  const bool next_on_chain = plan.length > 0 && plan.tiles[0] == t.index;
  const TileSet hand = s.hand(seat);
  if (s.phase() == Phase::Opening) return (next_on_chain ? 1000 : 0) + t.pips();  // follow the plan
  if (m.train == seat) {
    // Lift our marker with the next chain tile; otherwise the chain waits.
    if (next_on_chain) return (s.marked(seat) ? 500 : 40) + t.pips();
    return (s.marked(seat) ? 300 : 5) + 0.1 * t.pips();
  }
  if (on_chain) return 10 + 0.1 * t.pips();  // spending our own chain elsewhere
  double v = 200 + t.pips();                 // off-chain tile elsewhere: shed it
  if (t.is_double()) {
    // A double we can cover (with an off-chain tile) sheds two tiles; one we
    // cannot cover earns a marker.
    TileSet covers = hand & suit<3>(t.high(), s.rules().max_pip());
    covers.remove(t);
    const bool can_cover = !covers.minus(plan.set).empty();
    v += can_cover ? 30 : (s.table() & suit<3>(t.high(), s.rules().max_pip())).size() == s.rules().max_pip() ? 0 : -150;
  }
  return v;
}

Move GreedyBot::choose(const Observation& obs, std::span<const Move> legal) {
  if (legal.size() == 1) return legal[0];
  const State& s = obs.masked;
  const Chain plan = longest_chain(s.hand(obs.seat), s.train_end(obs.seat));
  Move best = legal[0];
  double best_v = -1e18;
  for (const Move& m : legal) {
    const double v = value(s, obs.seat, plan, m) + 1e-3 * rng().uniform();  // ties at random
    if (v > best_v) {
      best_v = v;
      best = m;
    }
  }
  return best;
}

double MexicanTrain::reward(const State& from, const State& to, int seat) {
  const int n = to.num_seats();
  const double scale = 8.0 * to.rules().max_pip();  // a round's penalties differ by tens of pips
  auto versus_others = [&](auto&& penalty) {
    double others = 0;
    for (int k = 0; k < n; ++k)
      if (k != seat) others += penalty(k);
    return std::clamp((others / (n - 1) - penalty(seat)) / scale, -1.0, 1.0);
  };
  const double round = versus_others([&](int k) { return static_cast<double>(to.score(k) - from.score(k)); });
  if (!to.terminal()) return round;
  return 0.5 * round + 0.5 * versus_others([&](int k) { return static_cast<double>(to.score(k)); });
}

Move MexicanTrain::rollout_move_v1(const State& s, int seat, std::span<const Move> legal, Rng& rng) {
  if (legal.size() == 1) return legal[0];
  // Shed the heaviest tile; a double only when another tile covers it (one
  // that cannot be covered earns a marker); lift our own marker.
  int best = 0, best_v = -1;
  for (int i = 0; i < static_cast<int>(legal.size()); ++i) {
    const Move m = legal[static_cast<size_t>(i)];
    const Tile t = m.t();
    int v = 4 * t.pips() + static_cast<int>(rng.below(8));
    if (t.is_double()) v += (s.holds(seat, t.high()) & ~(1u << t.high())) ? 40 : -40;
    if (m.train == seat && s.marked(seat)) v += 20;
    if (v > best_v) best_v = v, best = i;
  }
  return legal[static_cast<size_t>(best)];
}

}  // namespace boneyard::mexican_train
