// The line-game hand solver (see solver.h).
#include "line/solver.h"

#include <algorithm>
#include <array>
#include <bit>

namespace boneyard::line {

namespace {

constexpr int kInf = 1 << 20;
constexpr int kOrderBase = 1 << 20;  // priority() of a placement: above 0, below the table's best move
constexpr uint64_t kBonusSeed = 0x632be59bd9b4e019ULL;
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
  for (int seat = 0; seat < s.num_seats(); ++seat)
    s.hand(seat).for_each([&](Tile t) { k ^= kZobrist.tile[seat][t.index]; });
  return k;
}

using List = MoveList<Move, 64>;

// Pips of a set of tiles, a byte of the mask at a time.
struct PipTable {
  uint16_t byte[8][256] = {};
  PipTable() {
    for (int c = 0; c < 8; ++c)
      for (int b = 0; b < 256; ++b)
        for (int i = 0; i < 8; ++i)
          if ((b >> i & 1) && c * 8 + i < kMaxTiles)
            byte[c][b] = static_cast<uint16_t>(byte[c][b] + Tile{static_cast<uint8_t>(c * 8 + i)}.pips());
  }
  int operator()(uint64_t m) const {
    int p = 0;
    for (int c = 0; m; ++c, m >>= 8) p += byte[c][m & 255];
    return p;
  }
};
const PipTable kPips;

}  // namespace

// Likely-best moves first (higher first): those that leave the next seat
// fewest tiles to play (nothing: it must pass), then the seat before the
// mover (the other opponent in partnership play) fewest, then doubles
// (hard to place later), then heavy tiles (they count against whoever
// keeps them). Counting the next seat's tiles, not only whether it has
// one, took the latin solve from 241k to 86k nodes a deal; the other
// seat's count, to 72k (bench_line, BM_LineSolveDeals).
int Solver::priority(const State& s, int seat, Move m) {
  int l = s.left_, r = s.right_;
  const Tile t = m.tile();
  switch (m.kind) {
    case Move::Lead:
      l = t.high(), r = t.low();
      break;
    case Move::Left:
      l = t.other(l);
      break;
    case Move::Right:
      r = t.other(r);
      break;
    default:
      return 0;
  }
  const uint64_t ends = s.suit_[l] | s.suit_[r];
  const int next = seat + 1 == s.seats_ ? 0 : seat + 1, before = seat == 0 ? s.seats_ - 1 : seat - 1;
  return kOrderBase - 256 * std::popcount(s.hand_[next] & ends) - 64 * std::popcount(s.hand_[before] & ends) +
         (t.is_double() ? 32 : 0) + t.pips();
}

// One word an entry, so that twice as many fit in the cache: the value,
// the bound, the best move's index and the top bits of the key (mixed with
// the generation, so that entries of earlier calls do not match).
struct Solver::Entry {
  uint64_t word = 0;
  static constexpr int kCheckShift = 25;  // bits 25..63 of the key are checked
  static uint64_t pack(uint64_t key, int value, int bound, int best) {
    return (key >> kCheckShift) << kCheckShift | static_cast<uint64_t>(best & 0x7f) << 18 |
           static_cast<uint64_t>(bound) << 16 | static_cast<uint16_t>(value);
  }
  bool matches(uint64_t key) const { return word != 0 && (word >> kCheckShift) == (key >> kCheckShift); }
  int value() const { return static_cast<int16_t>(word & 0xffff); }
  int bound() const { return static_cast<int>(word >> 16 & 3); }
  int best() const { return static_cast<int>(word >> 18 & 0x7f); }
};

Solver::Solver(int log2_entries, int margin)
    : margin_(margin), table_(new Entry[size_t{1} << log2_entries]), mask_((uint64_t{1} << log2_entries) - 1) {}
Solver::~Solver() = default;

void Solver::begin(const State& s, int seat) {
  // Entries from earlier calls no longer count: every key changes.
  salt_ = mix(++generation_ * 0x9e3779b97f4a7c15ULL);
  stopped_ = false;
  me_side_ = s.side_of(seat);
  const Scoring sc = s.r_.scoring;
  pip_scoring_ = s.r_.bonuses == Bonuses{} && (sc == Scoring::AllPips || sc == Scoring::OthersPips ||
                                               sc == Scoring::AllPipsFloor10 || sc == Scoring::AllPipsRound10);
  if (pip_scoring_) salt_ ^= mix(kBonusSeed);  // key(): the same keys, one mix fewer
  hands_ = s.hands_finished();
  for (int sd = 0; sd < s.num_sides(); ++sd) base_[sd] = s.score(sd);
}

int Solver::leaf(const State& s) const {
  int mine = 0, best_other = -kInf;
  for (int sd = 0; sd < s.num_sides(); ++sd) {
    const int gain = s.score(sd) - base_[sd];
    if (sd == me_side_)
      mine = gain;
    else
      best_other = std::max(best_other, gain);
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
  // Without bonuses the bonuses' word is always 0: its mix is in salt_.
  if (pip_scoring_) return zobrist ^ mix(k) ^ salt_;
  uint64_t bonus = 0;
  for (int sd = 0; sd < s.num_sides(); ++sd)
    bonus =
        bonus * 0x10001 + static_cast<uint16_t>(s.hand_bonus_[sd]) * 0x9e37 + static_cast<uint16_t>(s.three_pass_[sd]);
  return zobrist ^ mix(k) ^ mix(bonus + kBonusSeed) ^ salt_;
}

// What State::end_hand and score_hand would add when the hand ends now,
// won by side w (-1: nobody), the hand scoring pips only (pip_scoring_);
// `out` (a domino's last tile) has left its hand already.
int Solver::end_value(const State& s, int w, int out) const {
  if (w < 0) return 0;
  int pts = 0;
  for (int i = 0; i < s.seats_; ++i)
    if (i != out && (s.r_.scoring != Scoring::OthersPips || s.side_of(i) != w)) pts += kPips(s.hand_[i]);
  if (s.r_.scoring == Scoring::AllPipsFloor10)
    pts -= pts % 10;
  else if (s.r_.scoring == Scoring::AllPipsRound10)
    pts = (pts + 5) / 10 * 10;
  return w == me_side_ ? pts : -pts;
}

int Solver::search(State& s, uint64_t zobrist, int alpha, int beta) {
  // The clock is read every 4096 nodes (about half a millisecond).
  if ((++nodes_ & 4095) == 0 && deadline_ != Clock::time_point::max() && Clock::now() >= deadline_) stopped_ = true;
  if (stopped_) return 0;
  if (s.terminal() || s.hands_finished() != hands_) return leaf(s);
  const Actor a = s.actor();
  if (a.kind != Actor::Seat) return 0;  // a fresh deal (redeal): unknown, valued 0
  const int seat = a.seat;

  // The seat's last tile fits: it dominoes (its one or two moves all end
  // the hand the same way, there being no bonus), scored here without
  // playing it.
  if (pip_scoring_ && s.count_[seat] == 1 && s.phase_ == Phase::Play && s.playable_mask(seat) != 0)
    return end_value(s, s.side_of(seat), seat);

  // Forced moves (a pass, a draw) need no table entry and no ordering.
  if (s.to_move_ >= 0 && s.n_placed_ > 0 && s.playable_mask(seat) == 0 && s.phase_ == Phase::Play) {
    if (s.stock_pos_ < s.drawable_) {
      // A draw changes only these: made and undone in place.
      const uint8_t t = s.stock_[s.stock_pos_];
      const uint64_t not_holding = s.not_holding_[seat];
      s.draw(seat);
      const int v = search(s, zobrist ^ kZobrist.tile[seat][t], alpha, beta);
      --s.stock_pos_;
      s.hand_[seat] &= ~(uint64_t{1} << t);
      --s.count_[seat];
      s.not_holding_[seat] = not_holding;
      return v;
    }
    if (s.passes_ + 1 < s.seats_ - 1 || s.can_play(s.last_placer_)) {
      // A pass that does not block the hand: made and undone in place
      // (the fields State::pass may change).
      const int placer_side = s.side_of(s.last_placer_);
      const int8_t passes = s.passes_, lead_pass = s.lead_pass_, first_pass_side = s.first_pass_side_,
                   to_move = s.to_move_;
      const uint8_t pass2010_n = s.pass2010_n_;
      const int16_t hand_bonus = s.hand_bonus_[placer_side], three_pass = s.three_pass_[placer_side];
      const uint64_t not_holding = s.not_holding_[seat];
      s.pass(seat);
      const int v = search(s, zobrist, alpha, beta);
      s.passes_ = passes, s.lead_pass_ = lead_pass, s.first_pass_side_ = first_pass_side, s.to_move_ = to_move;
      s.pass2010_n_ = pass2010_n;
      s.hand_bonus_[placer_side] = hand_bonus, s.three_pass_[placer_side] = three_pass;
      s.not_holding_[seat] = not_holding;
      return v;
    }
    if (pip_scoring_) {
      // A pass that blocks the hand: scored here, as State::end_hand would.
      bool tied = false;
      return end_value(s, s.block_winner(tied), -1);
    }
    State child = s;  // a pass that blocks the hand ends it: a copy
    child.apply(seat, Move{Move::Pass, 0});
    return search(child, zobrist, alpha, beta);
  }

  // The table probe misses the cache most of the time: ask for the line
  // first and generate the moves while it comes. Near the end of the hand
  // a search costs less than that miss (the profile: two thirds of the
  // time went to it), so there the table is not used at all.
  uint64_t all = 0;
  for (int i = 0; i < s.seats_; ++i) all |= s.hand_[i];
  if (pip_scoring_ && exact_) {
    // No side can score more than every pip still in the hands and the
    // drawable stock: a window beyond that is decided already. Exact
    // searches only: with a margin, a far worse move would get this looser
    // bound, and pimc and the fair review average those bounds.
    int most = kPips(all);
    for (int i = s.stock_pos_; i < s.drawable_; ++i) most += Tile{s.stock_[i]}.pips();
    if (s.phase_ == Phase::Play) {
      // The seat places a tile now (a forced pass or draw was dealt with
      // above): at least its lightest playable one leaves the hands.
      int least = 2 * kMaxPip;
      for (uint64_t x = s.playable_mask(seat); x; x &= x - 1)
        least = std::min(least, Tile{static_cast<uint8_t>(std::countr_zero(x))}.pips());
      most -= least;
    }
    if (s.r_.scoring == Scoring::AllPipsRound10) most = (most + 5) / 10 * 10;
    if (alpha >= most) return most;
    if (beta <= -most) return -most;
  }
  // Measured for four seats only: with two (two-draw) the endgames
  // transpose so much that five times the nodes came back without it.
  const bool use_table = s.seats_ != 4 || std::popcount(all) + (s.drawable_ - s.stock_pos_) > kNoTableTiles;
  const uint64_t k = use_table ? key(s, zobrist) : 0;
  if (use_table) __builtin_prefetch(&table_[k & mask_]);
  List moves;
  s.legal_moves(seat, moves);
  const int n = moves.size();
  std::array<int, 64> score;
  for (int i = 0; i < n; ++i) score[static_cast<size_t>(i)] = priority(s, seat, moves[i]);

  // Only now, so that the line has had the time the moves took to come.
  if (use_table) {
    const Entry e = table_[k & mask_];
    if (e.matches(k)) {
      const int value = e.value(), bound = e.bound();
      if (bound == 0) return value;
      if (bound == 1 && value >= beta) return value;
      if (bound == 2 && value <= alpha) return value;
      if (e.best() < n) score[static_cast<size_t>(e.best())] += 1 << 30;  // the move that was best here
    }
  }

  // Principal variation search: the first move with the full window, the
  // rest with a null window, searched again only if they prove better.
  const bool maximise = s.side_of(seat) == me_side_;
  const int alpha0 = alpha, beta0 = beta;
  int best = maximise ? -kInf : kInf;
  int best_i = -1;
  for (int j = 0; j < n; ++j) {
    // The best-scored move not yet searched: most nodes cut on the first,
    // so no full sort.
    int i = 0;
    for (int x = 1; x < n; ++x)
      if (score[static_cast<size_t>(x)] > score[static_cast<size_t>(i)]) i = x;
    score[static_cast<size_t>(i)] = -1;
    if (best_i < 0) best_i = i;
    const Move m = moves[i];
    const auto child_value = [&](State& c, uint64_t z) {
      if (j == 0) return search(c, z, alpha, beta);
      if (maximise) {
        const int v = search(c, z, alpha, alpha + 1);
        return v > alpha && v < beta ? search(c, z, v, beta) : v;
      }
      const int v = search(c, z, beta - 1, beta);
      return v < beta && v > alpha ? search(c, z, alpha, v) : v;
    };
    int v;
    const bool placement = m.kind == Move::Lead || m.kind == Move::Left || m.kind == Move::Right;
    if (placement && (s.hand_[seat] & ~(uint64_t{1} << m.arg)) != 0) {
      // A tile that does not end the hand changes a few fields: made and
      // undone in place (copying the whole State was a third of the time).
      const int8_t left = s.left_, right = s.right_, last_placer = s.last_placer_, passes = s.passes_,
                   to_move = s.to_move_;
      s.place(seat, m.tile(), m.kind != Move::Right);
      v = child_value(s, zobrist ^ kZobrist.tile[seat][m.arg]);
      const uint64_t bit = uint64_t{1} << m.arg;
      s.hand_[seat] |= bit;
      s.played_ &= ~bit;
      s.placed_by_[seat] &= ~bit;
      ++s.count_[seat];
      --s.n_placed_;
      s.left_ = left, s.right_ = right, s.last_placer_ = last_placer, s.passes_ = passes, s.to_move_ = to_move;
    } else {
      uint64_t z = zobrist;
      if (m.kind == Move::Draw)
        z ^= kZobrist.tile[seat][s.stock_[s.stock_pos_]];
      else if (placement)
        z ^= kZobrist.tile[seat][m.arg];
      State child = s;
      child.apply(seat, m);
      v = child_value(child, z);
    }
    if (maximise ? v > best : v < best) best = v, best_i = i;
    if (maximise)
      alpha = std::max(alpha, v);
    else
      beta = std::min(beta, v);
    if (alpha >= beta) {
      break;
    }
  }

  if (stopped_ || !use_table) return best;  // nothing proved: keep it out of the table
  // Fail-soft bounds: what this search proved about the true value.
  table_[k & mask_].word = Entry::pack(k, best, best <= alpha0 ? 2 : best >= beta0 ? 1 : 0, best_i);
  return best;
}

int Solver::solve(const State& s, int seat) {
  begin(s, seat);
  exact_ = true;
  State root = s;  // the search makes and undoes moves in it
  return search(root, hands_key(s), -kInf, kInf);
}

void Solver::values(const State& s, int seat, std::span<const Move> moves, double* out) {
  begin(s, seat);
  exact_ = margin_ == 0;
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
    if (m.kind == Move::Draw)
      zc ^= kZobrist.tile[seat][s.stock_[s.stock_pos_]];
    else if (m.kind == Move::Lead || m.kind == Move::Left || m.kind == Move::Right)
      zc ^= kZobrist.tile[seat][m.arg];
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
    if (sd == me)
      mine = gain;
    else
      best_other = std::max(best_other, gain);
  }
  return std::clamp((mine - best_other) / 100.0, -1.0, 1.0);
}

}  // namespace boneyard::line
