#include "dice_dominoes/bots.h"

#include <algorithm>

namespace boneyard::dice_dominoes {

SpecialRisk special_risk(const State& s, int seat) {
  const int n = s.num_seats();
  const int p = s.die(0), q = s.die(1);
  // Unseen copies of each face: not in my hand, not discarded, not known in
  // another hand. They lie in the others' unknown tiles or the boneyard.
  int unseen[kFaces];
  for (int f = 0; f < kFaces; ++f) unseen[f] = s.rules().sets;
  int total = 0;
  for (int k = 0; k < n; ++k) {
    const uint64_t mine = k == seat ? s.hand(k) : s.known(k);
    for (int f = 0; f < kFaces; ++f) unseen[f] -= pile::copies(s.discards(k), f) + pile::copies(mine, f);
  }
  for (int f = 0; f < kFaces; ++f) total += unseen[f];
  const int wild = Tile::of(0, 0).index, perfect = Tile::of(p, q).index;
  const int dp = Tile::of(p, p).index, dq = Tile::of(q, q).index;
  double none[4] = {1, 1, 1, 1};  // chance no other seat reaches each rank
  for (int k = 0; k < n; ++k) {
    if (k == seat) continue;
    const int slots = s.hand_count(k) - pile::count(s.known(k));
    const double share = total > 0 ? std::min(1.0, static_cast<double>(slots) / total) : 0.0;
    auto holds = [&](int f, int need) {
      if (pile::copies(s.known(k), f) >= need) return 1.0;
      double miss = 1;
      for (int c = 0; c < unseen[f]; ++c) miss *= 1 - share;
      return 1 - miss;
    };
    const double w = holds(wild, 1);
    const double pf = holds(perfect, 1);
    const double ww = p == q ? (s.rules().sets == 2 ? holds(dp, 2) * 0.5 : 0.0) : holds(dp, 1) * holds(dq, 1);
    none[3] *= 1 - ww;
    none[2] *= (1 - ww) * (1 - pf);
    none[1] *= (1 - ww) * (1 - pf) * (1 - w);
  }
  SpecialRisk r;
  for (int i = 1; i < 4; ++i) r.at_least[i] = 1 - none[i];
  return r;
}

namespace {
// A tile's worth in the hand: doubles match fewer rolls (11 of 36 against
// 20 of 36), so shedding them is worth more; the wild always goes later.
double shed_worth(uint8_t f) {
  const Tile t{f};
  if (f == Tile::of(0, 0).index) return 0.7;
  return t.is_double() ? 1.3 : 1.0;
}

// How well match points (p, q) suit a hand: the best a lay can discard.
double dice_worth(uint64_t hand, int p, int q) {
  double best = 0;
  uint8_t f[kFaces];
  int n = 0;
  for (uint64_t x = pile::faces(hand); x; x &= x - 1) f[n++] = static_cast<uint8_t>(std::countr_zero(x));
  for (int i = 0; i < n; ++i) {
    const Reveal r1 = reveal(p, q, f[i], kNone);
    best = std::max(best, r1.mask ? 1.0 + r1.rank[0] : 0.0);
    for (int j = i; j < n; ++j) {
      if (j == i && pile::copies(hand, f[i]) < 2) continue;
      const Reveal r = reveal(p, q, f[i], f[j]);
      best = std::max(best, std::popcount(static_cast<unsigned>(r.mask)) + 0.5 * std::max(r.rank[0], r.rank[1]));
    }
  }
  return best;
}
}  // namespace

double GreedyBot::value(const State& s, int seat, const SpecialRisk& risk, Move m) {
  const Reveal r = reveal(s.die(0), s.die(1), m.first, m.second);
  const int rank = std::max(r.rank[0], r.rank[1]);
  // Chance that what I reveal stands: only an equal or better special of
  // another player sends it back (equal ranks all stand, Decision).
  const double stand = rank == kRankDoublePerfect ? 1.0 : 1.0 - risk.at_least[rank + 1];
  double shed = 0;
  int revealed = 0, shed_n = 0;
  const uint8_t laid[2] = {m.first, m.second};
  for (int i = 0; i < 2; ++i) {
    if (!(r.mask >> i & 1)) continue;
    ++revealed;
    if (rank >= kRankPerfect && r.rank[i] == kRankWild) continue;  // the wild goes back
    shed += shed_worth(laid[i]);
    ++shed_n;
  }
  double v = stand * shed;
  if (rank >= kRankPerfect && s.boneyard() > 0) v += stand * 0.8;                 // no draw this round
  if (rank > 0) v += stand * 0.3 * (s.num_seats() - 1) * (1 - risk.at_least[1]);  // others' tiles go back
  if (shed_n == s.hand_count(seat)) v += stand * 6.0;                             // out: the pot
  // A revealed tile that goes back tells everyone what I hold: hide it when
  // it is likely to be sent back anyway.
  v -= 0.5 * (1 - stand) * revealed;
  return v;
}

Move GreedyBot::choose(const Observation& obs, std::span<const Move> legal) {
  const State& s = obs.masked;
  if (legal[0].kind != Move::Lay) {
    // Reroll or keep: keep match points that suit my hand better than an
    // average roll does.
    double avg = 0;
    for (int p = 1; p <= 6; ++p)
      for (int q = 1; q <= 6; ++q) avg += dice_worth(s.hand(obs.seat), p, q) / 36.0;
    const bool keep = dice_worth(s.hand(obs.seat), s.die(0), s.die(1)) >= avg;
    for (const Move& m : legal)
      if ((m.kind == Move::Keep) == keep) return m;
    return legal[0];
  }
  const SpecialRisk risk = special_risk(s, obs.seat);
  Move best = legal[0];
  double best_v = -1e9;
  for (const Move& m : legal) {
    const double v = value(s, obs.seat, risk, m) + 1e-3 * rng().uniform();  // ties at random
    if (v > best_v) {
      best_v = v;
      best = m;
    }
  }
  return best;
}

Move DiceDominoes::rollout_move(const State& s, int seat, std::span<const Move> legal, Rng& rng) {
  (void)seat;
  if (legal[0].kind != Move::Lay) return legal[rng.below(static_cast<uint32_t>(legal.size()))];
  const auto& table = kReveal.v[(s.die(0) - 1) * 6 + s.die(1) - 1];
  int best = -1, ties = 0;
  Move pick = legal[0];
  for (const Move& m : legal) {
    const uint8_t c = table[m.first][m.second == kNone ? kFaces : m.second];
    // Tiles turned up, then the special's rank.
    const int score = std::popcount(static_cast<unsigned>(c & 3)) * 4 + std::max((c >> 2) & 3, (c >> 4) & 3);
    if (score > best) {
      best = score;
      ties = 1;
      pick = m;
    } else if (score == best && rng.below(static_cast<uint32_t>(++ties)) == 0) {
      pick = m;
    }
  }
  return pick;
}

Move DiceDominoes::move_class(const State& s, int seat, Move m) {
  (void)seat;
  if (m.kind != Move::Lay) return m;
  const Reveal r = reveal(s.die(0), s.die(1), m.first, m.second);
  const uint8_t a = (r.mask & 1) ? m.first : kNone;
  const uint8_t b = (r.mask & 2) ? m.second : kNone;
  return Move{Move::Lay, std::min(a, b), std::max(a, b)};
}

}  // namespace boneyard::dice_dominoes
