// The line-game hand solver (see solver.h).
#include "line/solver.h"

#include <algorithm>
#include <array>
#include <bit>

namespace boneyard::line {

namespace {

constexpr int kInf = 1 << 20;
constexpr int kBlockBonus = 64;
// Positions with at most this many tiles left to play (in the hands and the
// drawable stock) skip the table.
constexpr int kNoTableTiles = 8;

// Zobrist keys: one per (seat, tile) for the hands, the rest mixed in.
struct Zobrist {
  uint64_t tile[kMaxSeats][kMaxSetTiles];
  Zobrist() {
    Rng rng(0x5eedb0e1a2d0ULL);
    for (auto& seat : tile)
      for (auto& k : seat) k = rng.next();
  }
};
const Zobrist kZobrist;

uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t hands_key(const State& s) {
  uint64_t k = 0;
  for (int seat = 0; seat < s.num_seats(); ++seat) s.hand(seat).for_each([&](Tile t) { k ^= kZobrist.tile[seat][t.index]; });
  return k;
}

using List = MoveList<Move, 64>;

// Likely-best moves first: doubles (they are hard to place later), then
// heavy tiles (they count against whoever keeps them).
int order_score(Move m) {
  if (m.kind != Move::Lead && m.kind != Move::Left && m.kind != Move::Right) return 0;
  const Tile t = m.tile();
  return (t.is_double() ? 32 : 0) + t.pips();
}

}  // namespace

// 1 when the move leaves the next seat nothing to play: such moves tend to
// be best, and trying them first cuts the search most.
int Solver::blocks_next(const State& s, int seat, Move m) {
  int l = s.left_, r = s.right_;
  const Tile t = m.tile();
  switch (m.kind) {
    case Move::Lead: l = t.high(), r = t.low(); break;
    case Move::Left: l = t.other(l); break;
    case Move::Right: r = t.other(r); break;
    default: return 0;
  }
  const int next = seat + 1 == s.seats_ ? 0 : seat + 1;
  return (s.hand_[next] & (s.suit_[l] | s.suit_[r])) == 0;
}

int Solver::priority(const State& s, int seat, Move m) { return order_score(m) + blocks_next(s, seat, m) * kBlockBonus; }

struct Solver::Entry {
  uint64_t key = 0;
  uint32_t generation = 0;
  int16_t value = 0;
  uint8_t bound = 0;  // 0 exact, 1 lower, 2 upper
  uint8_t best = 0xff;  // index of the best move in the generated list
};

Solver::Solver(int log2_entries, int margin)
    : margin_(margin), table_(new Entry[size_t{1} << log2_entries]), mask_((uint64_t{1} << log2_entries) - 1) {}
Solver::~Solver() = default;

void Solver::begin(const State& s, int seat) {
  ++generation_;  // entries from earlier calls no longer count
  stopped_ = false;
  me_side_ = s.side_of(seat);
  hands_ = s.hands_finished();
  for (int sd = 0; sd < s.num_sides(); ++sd) base_[sd] = s.score(sd);
}

int Solver::leaf(const State& s) const {
  int mine = 0, best_other = -kInf;
  for (int sd = 0; sd < s.num_sides(); ++sd) {
    const int gain = s.score(sd) - base_[sd];
    if (sd == me_side_) mine = gain;
    else best_other = std::max(best_other, gain);
  }
  return mine - best_other;
}

// Everything that decides the rest of the hand: the hands (Zobrist), the
// ends (either way round: the line is symmetric), who moves, the passes in a
// row, the last placer, the boneyard position and the bonuses so far.
uint64_t Solver::key(const State& s, uint64_t zobrist) const {
  const int l = s.left_, r = s.right_;
  uint64_t k = static_cast<uint64_t>(std::min(l, r) + 1) | static_cast<uint64_t>(std::max(l, r) + 1) << 4 |
               static_cast<uint64_t>(s.to_move_) << 8 | static_cast<uint64_t>(s.passes_) << 11 |
               static_cast<uint64_t>(s.last_placer_ + 1) << 14 | static_cast<uint64_t>(s.stock_pos_) << 17 |
               static_cast<uint64_t>(std::min<int>(s.n_placed_, 2)) << 24 | static_cast<uint64_t>(s.lead_pass_) << 26 |
               static_cast<uint64_t>(s.pass2010_n_ > 0) << 28 | static_cast<uint64_t>(s.first_pass_side_ + 1) << 29 |
               static_cast<uint64_t>(s.phase_) << 32;
  uint64_t bonus = 0;
  for (int sd = 0; sd < s.num_sides(); ++sd)
    bonus = bonus * 0x10001 + static_cast<uint16_t>(s.hand_bonus_[sd]) * 0x9e37 + static_cast<uint16_t>(s.three_pass_[sd]);
  return zobrist ^ mix(k) ^ mix(bonus + 0x632be59bd9b4e019ULL);
}

int Solver::search(const State& s, uint64_t zobrist, int alpha, int beta) {
  // The clock is read every 4096 nodes (about half a millisecond).
  if ((++nodes_ & 4095) == 0 && deadline_ != Clock::time_point::max() && Clock::now() >= deadline_) stopped_ = true;
  if (stopped_) return 0;
  if (s.terminal() || s.hands_finished() != hands_) return leaf(s);
  const Actor a = s.actor();
  if (a.kind != Actor::Seat) return 0;  // a fresh deal (redeal): unknown, valued 0
  const int seat = a.seat;

  // Forced moves (a pass, a draw) need no table entry and no ordering.
  if (s.to_move_ >= 0 && s.n_placed_ > 0 && s.playable_mask(seat) == 0 && s.phase_ == Phase::Play) {
    const bool draw = s.stock_pos_ < s.drawable_;
    uint64_t z = zobrist;
    if (draw) z ^= kZobrist.tile[seat][s.stock_[s.stock_pos_]];
    State child = s;
    child.apply(seat, Move{draw ? Move::Draw : Move::Pass, 0});
    return search(child, z, alpha, beta);
  }

  // The table probe misses the cache most of the time: ask for the line
  // first and generate the moves while it comes. Near the end of the hand
  // a search costs less than that miss (the profile: two thirds of the
  // time went to it), so there the table is not used at all.
  uint64_t all = 0;
  for (int i = 0; i < s.seats_; ++i) all |= s.hand_[i];
  // Measured for four seats only: with two (two-draw) the endgames
  // transpose so much that five times the nodes came back without it.
  const bool use_table = s.seats_ != 4 || std::popcount(all) + (s.drawable_ - s.stock_pos_) > kNoTableTiles;
  const uint64_t k = use_table ? key(s, zobrist) : 0;
  if (use_table) __builtin_prefetch(&table_[k & mask_]);
  List moves;
  s.legal_moves(seat, moves);
  const int n = moves.size();
  const Entry& e = table_[k & mask_];
  int tt_best = -1;
  if (use_table && e.key == k && e.generation == generation_) {
    if (e.bound == 0) return e.value;
    if (e.bound == 1 && e.value >= beta) return e.value;
    if (e.bound == 2 && e.value <= alpha) return e.value;
    tt_best = e.best == 0xff ? -1 : e.best;
  }

  std::array<uint8_t, 64> order;
  std::array<int, 64> score;
  for (int i = 0; i < n; ++i) {
    order[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
    const Move m = moves[i];
    score[static_cast<size_t>(i)] = (i == tt_best ? 1 << 30 : 0) + priority(s, seat, m);
  }
  if (n > 1)
    std::sort(order.begin(), order.begin() + n, [&](uint8_t x, uint8_t y) { return score[x] > score[y]; });

  // Principal variation search: the first move with the full window, the
  // rest with a null window, searched again only if they prove better.
  const bool maximise = s.side_of(seat) == me_side_;
  const int alpha0 = alpha, beta0 = beta;
  int best = maximise ? -kInf : kInf;
  int best_i = order[0];
  for (int j = 0; j < n; ++j) {
    const int i = order[static_cast<size_t>(j)];
    const Move m = moves[i];
    uint64_t z = zobrist;
    if (m.kind == Move::Draw) z ^= kZobrist.tile[seat][s.stock_[s.stock_pos_]];
    else if (m.kind == Move::Lead || m.kind == Move::Left || m.kind == Move::Right) z ^= kZobrist.tile[seat][m.arg];
    State child = s;
    child.apply(seat, m);
    int v;
    if (j == 0) {
      v = search(child, z, alpha, beta);
    } else if (maximise) {
      v = search(child, z, alpha, alpha + 1);
      if (v > alpha && v < beta) v = search(child, z, v, beta);
    } else {
      v = search(child, z, beta - 1, beta);
      if (v < beta && v > alpha) v = search(child, z, alpha, v);
    }
    if (maximise ? v > best : v < best) best = v, best_i = i;
    if (maximise) alpha = std::max(alpha, v);
    else beta = std::min(beta, v);
    if (alpha >= beta) {
      break;
    }
  }

  if (stopped_ || !use_table) return best;  // nothing proved: keep it out of the table
  // Fail-soft bounds: what this search proved about the true value.
  Entry& slot = table_[k & mask_];
  slot.key = k;
  slot.generation = generation_;
  slot.value = static_cast<int16_t>(best);
  slot.bound = best <= alpha0 ? 2 : best >= beta0 ? 1 : 0;
  slot.best = static_cast<uint8_t>(best_i);
  return best;
}

int Solver::solve(const State& s, int seat) {
  begin(s, seat);
  return search(s, hands_key(s), -kInf, kInf);
}

void Solver::values(const State& s, int seat, std::span<const Move> moves, double* out) {
  begin(s, seat);
  const uint64_t z = hands_key(s);
  // Likely-best first, so that the window is set early.
  std::vector<int> order(moves.size()), score(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    order[i] = static_cast<int>(i);
    score[i] = priority(s, seat, moves[i]);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return score[static_cast<size_t>(x)] > score[static_cast<size_t>(y)]; });
  int best = -kInf;
  for (const int i : order) {
    const Move m = moves[static_cast<size_t>(i)];
    State child = s;
    uint64_t zc = z;
    if (m.kind == Move::Draw) zc ^= kZobrist.tile[seat][s.stock_[s.stock_pos_]];
    else if (m.kind == Move::Lead || m.kind == Move::Left || m.kind == Move::Right) zc ^= kZobrist.tile[seat][m.arg];
    child.apply(seat, m);
    // Exact within `margin_` of the best so far; a move further below gets
    // the bound its search proved (still below the best).
    const int floor = margin_ > 0 && best > -kInf ? best - margin_ - 1 : -kInf;
    const int v = search(child, zc, floor, kInf);
    out[i] = v;
    best = std::max(best, v);
  }
}

double LineGame::reward(const State& from, const State& to, int seat) {
  if (to.terminal()) {
    double r[kMaxSeats];
    to.returns(r);
    return 2 * r[seat] - 1;
  }
  const int me = to.side_of(seat);
  double mine = 0, best_other = -1e9;
  for (int sd = 0; sd < to.num_sides(); ++sd) {
    const double gain = to.score(sd) - from.score(sd);
    if (sd == me) mine = gain;
    else best_other = std::max(best_other, gain);
  }
  return std::clamp((mine - best_other) / 100.0, -1.0, 1.0);
}

}  // namespace boneyard::line
