#include "dice_dominoes/state.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/sample.h"

namespace boneyard::dice_dominoes {

const char* rank_name(int rank) {
  switch (rank) {
    case kRankWild:
      return "wild";
    case kRankPerfect:
      return "perfect";
    case kRankDoublePerfect:
      return "W-perfect";
    default:
      return "none";
  }
}

State::State(const Rules& rules, uint64_t seed) : r_(rules), rng_(seed) {
  validate(r_);
  start_hand();
}

// Spec: Set-up and End. Everyone pays the ante; the first roller of each
// hand is the seat after the previous hand's.
void State::start_hand() {
  const int n = r_.players;
  for (int s = 0; s < n; ++s) {
    balance_[s] -= r_.ante;
    pot_ += r_.ante;
    hand_[s] = dealt_[s] = known_[s] = discards_[s] = 0;
    count_[s] = 0;
    best_rank_[s] = 0;
    submit_[s] = Move{};
  }
  first_roller_ = static_cast<int8_t>(hands_ % n);
  roller_ = first_roller_;
  round_ = 0;
  kept_ = false;
  chooser_ = -1;
  pending_ = 0;
  dice_[0] = dice_[1] = 0;
  stock_n_ = stock_pos_ = 0;
  stock_dead_ = false;
  phase_ = Phase::Deal;
}

void State::apply_deal_chance() {
  if (phase_ != Phase::Deal) throw Error("no chance event is pending now");
  // Every face once per set: a copy of a fixed list (one set: its first half).
  static constexpr auto kAll = [] {
    std::array<uint8_t, kMaxTiles> a{};
    for (int i = 0; i < kMaxTiles; ++i) a[i] = static_cast<uint8_t>(i % kFaces);
    return a;
  }();
  uint8_t tiles[kMaxTiles];
  std::copy(kAll.begin(), kAll.end(), tiles);
  const int n = r_.sets * kFaces;
  // A forward Fisher-Yates that stops once the rest is determined: the
  // undealt tiles first (their order is the draw order), then every hand but
  // the last; the last seat gets what is left, as a set.
  const int stock_n = n - 4 * r_.players;
  for (int i = 0; i < n - 4; ++i) {
    const int j = i + static_cast<int>(rng_.below(static_cast<uint32_t>(n - i)));
    std::swap(tiles[i], tiles[j]);
  }
  uint64_t hands[kMaxSeats] = {};
  for (int s = 0; s < r_.players; ++s)
    for (int i = 0; i < 4; ++i) {
      const uint8_t t = tiles[stock_n + s * 4 + i];
      if (r_.sets == 1)
        hands[s] |= uint64_t{1} << t;  // no twins: plain bits
      else
        pile::add(hands[s], t);
    }
  // A shuffled set is a valid deal: nothing to check (the hot path).
  lay_out_deal(hands, tiles, stock_n);
}

void State::deal(const uint64_t* hands, const uint8_t* stock, int stock_n) {
  if (phase_ != Phase::Deal) throw Error("no deal is pending now");
  const int n = r_.players;
  int used[kFaces] = {};
  for (int s = 0; s < n; ++s) {
    if (pile::count(hands[s]) != 4)
      throw Error(fmt::format("bad deal: seat {} has {} tiles; every player draws 4", s, pile::count(hands[s])));
    for (int f = 0; f < kFaces; ++f) used[f] += pile::copies(hands[s], f);
  }
  for (int f = 0; f < kFaces; ++f)
    if (used[f] > r_.sets)
      throw Error(fmt::format("bad deal: {} is dealt {} times but there {} only {} in play",
                              to_string(Tile{static_cast<uint8_t>(f)}), used[f], r_.sets == 1 ? "is" : "are", r_.sets));
  const int rest = r_.tiles() - 4 * n;
  if (stock_n >= 0) {
    if (stock_n != rest)
      throw Error(fmt::format("bad deal: the stock must hold exactly the {} undealt tiles, not {}", rest, stock_n));
    int all[kFaces];
    std::copy(used, used + kFaces, all);
    for (int i = 0; i < stock_n; ++i) {
      if (stock[i] >= kFaces) throw Error("bad deal: a stock tile is not a double-six tile");
      if (++all[stock[i]] > r_.sets)
        throw Error(fmt::format("bad deal: {} appears too often among hands and stock", to_string(Tile{stock[i]})));
    }
    lay_out_deal(hands, stock, stock_n);
    return;
  }
  uint8_t undealt[kMaxTiles];
  int k = 0;  // no stock given: the undealt tiles in face order
  for (int f = 0; f < kFaces; ++f)
    for (int c = used[f]; c < r_.sets; ++c) undealt[k++] = static_cast<uint8_t>(f);
  lay_out_deal(hands, undealt, rest);
}

void State::lay_out_deal(const uint64_t* hands, const uint8_t* stock, int stock_n) {
  // The last hand's final round stays on view until the next deal: the
  // round in which someone went out is seen before the table moves on.
  last_round_ = RoundRecord{};
  const int n = r_.players;
  std::copy(stock, stock + stock_n, stock_);
  stock_n_ = static_cast<uint8_t>(stock_n);
  stock_pos_ = 0;
  stock_dead_ = false;
  for (int s = 0; s < n; ++s) {
    hand_[s] = dealt_[s] = hands[s];
    count_[s] = 4;
  }
  last_chance_roll_ = false;
  round_ = 1;
  roller_ = first_roller_;
  phase_ = Phase::Roll;
}

// Spec: A round 1. The two dice give the round's match points.
void State::roll(int a, int b) {
  if (phase_ != Phase::Roll) throw Error("no roll of the dice is pending now");
  if (a < 1 || a > 6 || b < 1 || b > 6) throw Error(fmt::format("bad roll {} {}: each die shows 1 to 6", a, b));
  dice_[0] = static_cast<int8_t>(a);
  dice_[1] = static_cast<int8_t>(b);
  last_chance_roll_ = true;
  begin_choice();
}

void State::next_round() {
  ++round_;
  kept_ = false;
  roller_ = static_cast<int8_t>((first_roller_ + round_ - 1) % r_.players);
  dice_[0] = dice_[1] = 0;
  chooser_ = -1;
  phase_ = Phase::Roll;
}

void State::apply_dice_choice(Move m) {
  switch (m.kind) {
    case Move::Lay:
      return;  // apply() handles lays
    case Move::Reroll: {
      // Spec: A round 4, W-perfect: the player rolls the next round; the
      // rotation then continues as if nothing had changed (Decision).
      const int8_t c = chooser_;
      next_round();
      roller_ = c;
      return;
    }
    case Move::Keep: {
      const int8_t a = dice_[0], b = dice_[1];
      next_round();
      dice_[0] = a;
      dice_[1] = b;
      kept_ = true;
      begin_choice();
      return;
    }
  }
}

namespace {
// What stands of one submission, by its reveal code (RevealTable) and the
// round's best special (spec: A round 4): everything revealed when nobody
// laid a special; otherwise only for a seat with the best special, its
// specials of that rank and, under a wild, its plain tiles too.
struct StoodTable {
  uint8_t v[4][128];
};
constexpr StoodTable kStood = [] {
  StoodTable t{};
  for (int top = 0; top < 4; ++top)
    for (int c = 0; c < 128; ++c) {
      const int revealed = c & 3, r0 = (c >> 2) & 3, r1 = (c >> 4) & 3;
      const int rank = std::max(r0, r1);
      int stood = 0;
      if (top == 0)
        stood = revealed;
      else if (rank == top)
        for (int i = 0; i < 2; ++i) {
          const int rank_i = i == 0 ? r0 : r1;
          if ((revealed >> i & 1) && (rank_i == top || (rank_i == kPlain && top == kRankWild))) stood |= 1 << i;
        }
      t.v[top][c] = static_cast<uint8_t>(stood);
    }
  return t;
}();

// By reveal code: the best special rank revealed.
struct RankTable {
  uint8_t v[128];
};
constexpr RankTable kRankOf = [] {
  RankTable t{};
  for (int c = 0; c < 128; ++c) t.v[c] = static_cast<uint8_t>(std::max((c >> 2) & 3, (c >> 4) & 3));
  return t;
}();

// The seats in `mask` from `first` on, wrapping round the table, as one
// mask whose bit k is seat (first + k) mod n.
inline unsigned from_seat(unsigned mask, int first, int n) {
  return ((mask >> first) | (mask << (n - first))) & ((1u << n) - 1);
}
}  // namespace

void State::resolve_round() {
  const int n = r_.players;
  const int p = dice_[0], q = dice_[1];
  RoundRecord& rec = last_round_;  // filled in place: this is the hot path
  rec.number = round_;
  rec.dice[0] = dice_[0];
  rec.dice[1] = dice_[1];
  rec.roller = roller_;
  rec.kept_dice = kept_;
  rec.top_seat = -1;
  rec.leftover_unused = false;
  rec.chooser = -1;
  const auto& table = kReveal.v[(p - 1) * 6 + q - 1];
  uint8_t code[kMaxSeats];
  unsigned rank_mask[4] = {};  // by rank: the seats with that best special
  int top = 0;
  // Spec: A round 3. Each seat turns up what it may discard.
  for (int s = 0; s < n; ++s) {
    const Move m = submit_[s];
    // Arithmetic, not a branch on random data: kNone (0xFF) is the only
    // value with bit 7, and its column is kFaces.
    const int none = m.second >> 7;
    const uint8_t c = table[m.first][m.second ^ (none * (kNone ^ kFaces))];
    const int rank = kRankOf.v[c];
    code[s] = c;
    rank_mask[rank] |= 1u << s;
    top = std::max(top, rank);
    SeatRound& sr = rec.seat[s];
    sr.laid[0] = m.first;
    sr.laid[1] = m.second;
    sr.n_laid = static_cast<uint8_t>(2 - none);
    sr.revealed = c & 3;
    sr.stood = 0;
    sr.rank = static_cast<uint8_t>(rank);
    sr.drew = sr.out = false;
  }
  rec.top_rank = static_cast<uint8_t>(top);
  unsigned out_mask = 0;
  const unsigned top_mask = rank_mask[top];
  const uint8_t* stood_of = kStood.v[top];
  const bool one_set = r_.sets == 1;
  for (int s = 0; s < n; ++s) {
    SeatRound& sr = rec.seat[s];
    // Spec: A round 4. The best special stands with everything its player
    // revealed except lower specials; every other player's tiles go back.
    const uint8_t c = code[s];
    const uint8_t stood = stood_of[c];
    sr.stood = stood;
    // Spec: A round 5. A tile that stands is discarded face up (public); a
    // revealed one that does not goes back, known. Without branches: what
    // is revealed is random. A seat that revealed nothing changes nothing
    // (its known tiles are in its hand already).
    uint64_t hand = hand_[s], disc = discards_[s], back = 0;
    if (one_set) {
      // Plain bits, by the mask of laid tiles. kNone (one tile laid) is
      // never revealed.
      const uint64_t b0 = uint64_t{1} << (sr.laid[0] & 31), b1 = uint64_t{1} << (sr.laid[1] & 31);
      const uint64_t bits[4] = {0, b0, b1, b0 | b1};
      const uint64_t gone = bits[stood];
      back = bits[c & 3] & ~gone;
      hand &= ~gone;
      disc |= gone;
    } else {
      for (int i = 0; i < 2; ++i) {
        const int f = sr.laid[i] & 31;
        const uint64_t st = stood >> i & 1, bk = ((c & 3) & ~stood) >> i & 1;
        hand &= ~(st << (f + 32 * ((hand >> (32 + f)) & 1)));  // pile::remove
        disc |= st << (f + 32 * ((disc >> f) & 1));            // pile::add
        back |= bk << (f + 32 * ((back >> f) & 1));
      }
    }
    hand_[s] = hand;
    discards_[s] = disc;
    known_[s] = (known_[s] | back) & hand;
    const int count = count_[s] - std::popcount(stood);
    count_[s] = static_cast<uint8_t>(count);
    best_rank_[s] = static_cast<int8_t>(std::max<int>(best_rank_[s], stood ? top : 0));
    sr.out = count == 0;
    out_mask |= static_cast<unsigned>(count == 0) << s;
  }
  // top_mask is never empty (with top 0, every seat): no branch needed.
  int top_seat = roller_ + std::countr_zero(from_seat(top_mask, roller_, n));
  top_seat -= top_seat >= n ? n : 0;
  rec.top_seat = static_cast<int8_t>(top > 0 ? top_seat : -1);
  // Spec: A round 6. Out players, and a perfect or W-perfect that stood,
  // draw nothing; the others draw one each from the roller, unless fewer
  // tiles are left than drawers: then those tiles are never used.
  if (boneyard() > 0) {
    const unsigned draws = ((1u << n) - 1) & ~out_mask & ~(top >= kRankPerfect ? top_mask : 0u);
    if (std::popcount(draws) > boneyard()) {
      stock_dead_ = true;
      rec.leftover_unused = true;
    } else {
      for (unsigned x = from_seat(draws, roller_, n); x; x &= x - 1) {
        int s = roller_ + std::countr_zero(x);
        if (s >= n) s -= n;
        pile::add(hand_[s], stock_[stock_pos_++]);
        ++draws_made_;
        ++count_[s];
        rec.seat[s].drew = true;
      }
    }
  }
  pending_ = 0;
  if (out_mask) {
    end_hand(static_cast<uint16_t>(out_mask));
    return;
  }
  if (top == kRankDoublePerfect) {
    // The first W-perfect player from the roller chooses (Decision, two sets).
    rec.chooser = rec.top_seat;
    chooser_ = rec.chooser;
    phase_ = Phase::RerollChoice;
    return;
  }
  // Spec: A round 7. Nobody discarding with an empty boneyard simply
  // means the next round's roll.
  next_round();
}

void State::apply_random_listed(int seat, Rng& rng) {
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  legal_moves(seat, l);
  apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
}

// Spec: End and pay-out.
void State::end_hand(uint16_t out_mask) {
  const int n = r_.players;
  HandResult h;
  h.number = static_cast<uint16_t>(hands_ + 1);
  h.rounds = round_;
  h.out_mask = out_mask;
  h.pot = pot_;
  const unsigned all = (1u << n) - 1;
  uint16_t winners = 0;
  if (out_mask == all) {
    h.how = Payout::AllOut;  // the pot carries over
  } else if (std::popcount(static_cast<unsigned>(out_mask)) == 1) {
    h.how = Payout::Single;
    winners = out_mask;
  } else {
    int best = 0;
    for (int s = 0; s < n; ++s)
      if (out_mask >> s & 1) best = std::max<int>(best, best_rank_[s]);
    if (best > 0) {
      h.how = Payout::Special;
      h.winning_rank = static_cast<uint8_t>(best);
      for (int s = 0; s < n; ++s)
        if ((out_mask >> s & 1) && best_rank_[s] == best) winners = static_cast<uint16_t>(winners | (1u << s));
    } else {
      h.how = Payout::Split;
      winners = out_mask;
    }
  }
  h.winner_mask = winners;
  const int w = std::popcount(static_cast<unsigned>(winners));
  if (w > 0) {
    h.share = pot_ / w;
    pot_ -= h.share * w;  // a remainder stays in the pot (Decision)
  }
  h.kept = pot_;
  for (int s = 0; s < n; ++s) {
    const int won = (winners >> s & 1) ? h.share : 0;
    balance_[s] += won;
    h.net[s] = won - r_.ante;
  }
  last_ = h;
  ++hands_;
  phase_ = Phase::Deal;
  if (hands_ >= r_.hands) {
    phase_ = Phase::GameOver;
    return;
  }
  start_hand();
}

void State::returns(double* out) const {
  // The session's winners: the best chip balance (shared on a tie).
  const int n = r_.players;
  int32_t best = balance_[0];
  for (int s = 1; s < n; ++s) best = std::max(best, balance_[s]);
  int k = 0;
  for (int s = 0; s < n; ++s) k += balance_[s] == best;
  for (int s = 0; s < n; ++s) out[s] = balance_[s] == best ? 1.0 / k : 0.0;
}

void State::scores(double* per_side) const {
  for (int s = 0; s < r_.players; ++s) per_side[s] = balance_[s];
}

State State::masked_for(int seat) const {
  State m = *this;
  for (int s = 0; s < r_.players; ++s) {
    if (s == seat) continue;
    m.hand_[s] = m.known_[s];  // only what it revealed and took back is known
    m.dealt_[s] = 0;
    m.submit_[s] = Move{};
    SeatRound& sr = m.last_round_.seat[s];
    for (int i = 0; i < 2; ++i)
      if (!(sr.revealed >> i & 1)) sr.laid[i] = kNone;  // face down
  }
  std::fill(std::begin(m.stock_), std::end(m.stock_), uint8_t{0});
  m.rng_ = Rng(0);
  return m;
}

Observation State::observe(int seat) const { return Observation{seat, masked_for(seat)}; }

State State::sample(const Observation& o, Rng& rng) {
  State s = o.masked;
  const int me = o.seat;
  const int n = s.r_.players;
  s.rng_.reseed(rng.next());
  if (s.phase_ == Phase::Deal || s.phase_ == Phase::GameOver) return s;
  // Unknown tiles: the sets less my hand, every discard and every tile
  // known to be in another hand.
  int left[kFaces];
  for (int f = 0; f < kFaces; ++f) left[f] = s.r_.sets;
  auto take = [&](uint64_t pl) {
    for (int f = 0; f < kFaces; ++f) left[f] -= pile::copies(pl, f);
  };
  for (int k = 0; k < n; ++k) {
    take(s.discards_[k]);
    take(k == me ? s.hand_[k] : s.known_[k]);
  }
  std::vector<Tile> tiles;
  for (int f = 0; f < kFaces; ++f)
    for (int c = 0; c < left[f]; ++c) tiles.push_back(Tile{static_cast<uint8_t>(f)});
  // Places: the other seats (their unknown part), then the undealt tiles.
  std::vector<int> cap;
  std::vector<int> seat_of_place;
  for (int k = 0; k < n; ++k)
    if (k != me) {
      cap.push_back(s.count_[k] - pile::count(s.known_[k]));
      seat_of_place.push_back(k);
    }
  cap.push_back(s.stock_n_ - s.stock_pos_);
  const std::vector<uint32_t> allowed(tiles.size(), (1u << cap.size()) - 1);
  const auto place = sample_assignment(tiles, allowed, cap, rng);
  uint8_t undealt[kMaxTiles];
  int un = 0;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const size_t p = place.empty() ? cap.size() - 1 : static_cast<size_t>(place[i]);
    if (p < seat_of_place.size())
      pile::add(s.hand_[seat_of_place[p]], tiles[i].index);
    else
      undealt[un++] = tiles[i].index;
  }
  rng.shuffle(undealt, un);
  std::copy(undealt, undealt + un, s.stock_ + s.stock_pos_);
  // Seats that already laid their tiles face down: a guess from their hands.
  if (s.phase_ == Phase::Choose) {
    MoveList<Move, DiceDominoes::kMaxMoves> l;
    for (int k = 0; k < n; ++k) {
      if (k == me || (s.pending_ >> k & 1)) continue;
      s.pending_ = static_cast<uint16_t>(s.pending_ | (1u << k));
      s.legal_moves(k, l);
      s.pending_ = static_cast<uint16_t>(s.pending_ & ~(1u << k));
      s.submit_[k] = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
    }
  }
  return s;
}

double DiceDominoes::reward(const State& from, const State& to, int seat) {
  if (to.hands_finished() == from.hands_finished()) return 0;
  const HandResult& h = to.last_result();
  if (h.pot <= 0) return 0;
  const double won = h.net[seat] + to.rules().ante;  // net is after the ante
  return std::clamp(2 * won / h.pot - 1, -1.0, 1.0);
}

}  // namespace boneyard::dice_dominoes
