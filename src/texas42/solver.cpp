#include "texas42/solver.h"

#include <algorithm>
#include <array>
#include <bit>

#include "texas42/bots.h"

namespace boneyard::texas42 {

namespace {
constexpr int kInf = 30000;
constexpr int kTableBits = 19;  // 512k entries, 12 MB

constexpr std::array<int8_t, kTiles> kCount = [] {
  std::array<int8_t, kTiles> c{};
  for (int i = 0; i < kTiles; ++i)
    c[static_cast<size_t>(i)] = static_cast<int8_t>(count_of(Tile{static_cast<uint8_t>(i)}));
  return c;
}();

inline uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}
}  // namespace

Solver::Solver(BidModel bid_model) : bid_model_(bid_model), tt_(size_t{1} << kTableBits) {}

void Solver::set_contract(const Contract& c) {
  if (have_contract_ && c == c_) return;  // the table stays valid: its keys are exact
  c_ = c;
  have_contract_ = true;
  if (++gen_ == 0) {  // generations wrapped: forget everything
    std::fill(tt_.begin(), tt_.end(), Entry{});
    gen_ = 1;
  }
  bidders_ = State::side_of(c.declarer);
  sitting_out_ = c.trump == kNello ? State::partner(c.declarer) : -1;
  trick_size_ = c.trump == kNello ? 3 : 4;
  // The same keys as State::trick_winner_index: the highest trump, else the
  // highest of the led suit; sevens: closest to 7 pips, the earlier on a tie.
  const TrumpTables& T = tables();
  for (int led = 0; led < 9; ++led)
    for (int t = 0; t < kTiles; ++t) {
      int k;
      if (c.trump == kSevens) {
        const int d = Tile{static_cast<uint8_t>(t)}.pips() - 7;
        k = 20 - (d < 0 ? -d : d);
      } else if ((T.trumps[c.trump] >> t) & 1) {
        k = 100 + T.rank[c.trump][kTrumpSuit][t];
      } else {
        k = T.rank[c.trump][led][t];
      }
      win_key_[led][t] = static_cast<int16_t>(k);
    }
  // class 1: trumps, 2: nello doubles, 3: sevens (every tile)
  const auto cls = [&](int t) {
    if (c.trump == kSevens) return 3;
    if ((T.trumps[c.trump] >> t) & 1) return 1;
    if (c.trump == kNello && ((kDoubles >> t) & 1)) return 2;
    return 0;
  };
  const auto key = [&](int t) { return cls(t) == 2 ? T.rank[kNello][kDoublesSuit][t] : win_key_[kTrumpSuit][t]; };
  n_single_ = 0;
  for (int t = 0; t < kTiles; ++t)
    if (cls(t)) single_[n_single_++] = static_cast<uint8_t>(t);
  std::sort(single_, single_ + n_single_,
            [&](int a, int b) { return cls(a) != cls(b) ? cls(a) < cls(b) : key(a) > key(b); });
  for (int i = 0; i < n_single_; ++i) single_class_[single_[i]] = static_cast<uint8_t>(cls(single_[i]));
}

Solver::Node Solver::node_of(const State& s) {
  Node n{};
  for (int k = 0; k < kSeats; ++k) n.hand[k] = s.hand(k);
  n.trick_n = static_cast<uint8_t>(s.trick_size());
  for (int i = 0; i < n.trick_n; ++i) {
    n.trick[i] = static_cast<uint8_t>(s.trick_tile(i));
    n.trick_seat[i] = static_cast<int8_t>(s.trick_seat(i));
  }
  n.to_move = static_cast<int8_t>(s.to_move());
  n.n_tricks = static_cast<uint8_t>(s.tricks_done());
  for (int sd = 0; sd < 2; ++sd) {
    n.points[sd] = static_cast<int16_t>(s.points_taken(sd));
    n.tricks[sd] = static_cast<uint8_t>(s.tricks_taken(sd));
  }
  return n;
}

int Solver::next_player(int seat) const {
  int n = (seat + 1) & 3;
  if (n == sitting_out_) n = (n + 1) & 3;
  return n;
}

// As State::decided (spec: Scoring; docs: nello).
bool Solver::decided(const Node& n, bool& made) const {
  const int defenders = 1 - bidders_;
  if (c_.trump == kNello) {
    if (n.tricks[bidders_] > 0) return made = false, true;
    if (n.n_tricks == kTricks) return made = true, true;
    return false;
  }
  if (c_.bid >= 42) {
    if (n.tricks[defenders] > 0) return made = false, true;
    if (n.n_tricks == kTricks) return made = true, true;
    return false;
  }
  if (n.points[bidders_] >= c_.bid) return made = true, true;
  if (n.points[defenders] > 42 - c_.bid) return made = false, true;
  return false;
}

// The hand's value for the bidders, in 1/divisor() units (as State::end_hand).
int Solver::score_of(const Node& n) const {
  const int b = bidders_, d = 1 - bidders_;
  const int diff = n.points[b] - n.points[d];
  if (c_.objective == Objective::Points) return diff;
  bool made = false;
  decided(n, made);
  if (c_.scoring == Scoring::Marks) {
    const int marks = c_.bid <= 42 ? 1 : c_.bid / 42;
    return (made ? marks : -marks) * 100 + diff;
  }
  if (c_.trump == kNello) return made ? c_.bid : -c_.bid;
  if (made) {
    const bool taken = c_.made_scores_taken && c_.kind == BidKind::Points;
    return (taken ? n.points[b] : c_.bid) - n.points[d];
  }
  return -(c_.bid + n.points[d]);
}

bool Solver::play(Node& n, int t, int& score) const {
  const int seat = n.to_move;
  n.hand[seat] &= ~(uint32_t{1} << t);
  n.trick[n.trick_n] = static_cast<uint8_t>(t);
  n.trick_seat[n.trick_n] = static_cast<int8_t>(seat);
  if (++n.trick_n < trick_size_) {
    n.to_move = static_cast<int8_t>(next_player(seat));
    return false;
  }
  const int led = tables().led_suit[c_.trump][n.trick[0]];
  int best = 0, best_key = win_key_[led][n.trick[0]], pts = 1 + kCount[n.trick[0]];
  for (int i = 1; i < trick_size_; ++i) {
    const int k = win_key_[led][n.trick[i]];
    pts += kCount[n.trick[i]];
    if (k > best_key) best_key = k, best = i;
  }
  const int w = n.trick_seat[best];
  n.points[State::side_of(w)] = static_cast<int16_t>(n.points[State::side_of(w)] + pts);
  ++n.tricks[State::side_of(w)];
  ++n.n_tricks;
  n.trick_n = 0;
  n.to_move = static_cast<int8_t>(w);
  if (c_.objective == Objective::Points) {
    if (n.n_tricks < kTricks) return false;
  } else {
    bool made = false;
    if (!((n.n_tricks == kTricks || c_.stops_early) && decided(n, made))) return false;
  }
  score = score_of(n);
  return true;
}

std::pair<int, int> Solver::bounds(const Node& n) const {
  if (c_.objective == Objective::Hand && c_.scoring == Scoring::Points) return {-kInf, kInf};
  int left = kTricks - n.n_tricks;
  for (int k = 0; k < kSeats; ++k)
    if (k != sitting_out_)
      for (uint32_t x = n.hand[k] & kCountTiles; x; x &= x - 1) left += kCount[std::countr_zero(x)];
  const int b = bidders_, d = 1 - bidders_;
  const int diff = n.points[b] - n.points[d];
  if (c_.objective == Objective::Points) return {diff - left, diff + left};
  // Not decided yet: a 42 bid, nello or a points bid the bidders can still
  // reach can be made; likewise set.
  const int marks = 100 * (c_.bid <= 42 ? 1 : c_.bid / 42);
  const bool threshold = c_.trump != kNello && c_.bid < 42;
  const bool can_make = !threshold || n.points[b] + left >= c_.bid;
  const bool can_set = !threshold || n.points[d] + left > 42 - c_.bid;
  return {(can_set ? -marks : marks) + diff - left, (can_make ? marks : -marks) + diff + left};
}

int Solver::search(const Node& n, int alpha, int beta) {
  ++nodes_;
  const bool boundary = n.trick_n == 0;
  Entry* e = nullptr;
  uint64_t k1 = 0, k2 = 0;
  int tt_move = -1;
  if (boundary) {
    // What is left to take bounds the value: the bidders take all of it, or
    // none of it.
    if (const auto [lb, ub] = bounds(n); ub <= alpha || lb >= beta) return ub <= alpha ? ub : lb;
    // Exact key: the hands, who leads and the bidders' points determine
    // everything else (tricks so far follow from the hand sizes, the
    // defenders' points from what is left).
    k1 = uint64_t{n.hand[0]} | uint64_t{n.hand[1]} << 28;
    k2 = uint64_t{n.hand[2]} | uint64_t{n.hand[3]} << 28 | uint64_t(n.to_move) << 56 |
         uint64_t(n.points[bidders_]) << 58;
    e = &tt_[mix(k1, k2) >> (64 - kTableBits)];
    if (e->gen == gen_ && e->k1 == k1 && e->k2 == k2) {
      if (e->lo >= beta) return e->lo;
      if (e->hi <= alpha) return e->hi;
      if (e->lo == e->hi) return e->lo;
      alpha = std::max<int>(alpha, e->lo);
      beta = std::min<int>(beta, e->hi);
      tt_move = e->best;
    }
  }
  const int seat = n.to_move;
  const bool maxi = State::side_of(seat) == bidders_;
  // Playable tiles (the must-follow rule; sevens: any tile).
  uint32_t can = n.hand[seat];
  int led = -1;
  if (n.trick_n > 0) {
    led = tables().led_suit[c_.trump][n.trick[0]];
    if (c_.trump != kSevens) {
      const uint32_t f = can & tables().members[c_.trump][led];
      if (f) can = f;
    }
  }
  // Equivalent tiles (see single_): walk the single-suit tiles highest
  // first; a held tile right under another held one of the same count, with
  // nothing out between them, is dropped.
  if (n_single_) {
    uint32_t out = n.hand[0] | n.hand[1] | n.hand[2] | n.hand[3];
    for (int i = 0; i < n.trick_n; ++i) out |= uint32_t{1} << n.trick[i];
    out &= ~n.hand[seat];
    int prev = -1, prev_class = -1;
    for (int i = 0; i < n_single_; ++i) {
      const int t = single_[i];
      if (single_class_[t] != prev_class) prev = -1, prev_class = single_class_[t];
      if ((can >> t) & 1) {
        if (prev >= 0 && kCount[prev] == kCount[t])
          can &= ~(uint32_t{1} << t);
        else
          prev = t;
      } else if ((out >> t) & 1) {
        prev = -1;
      }
    }
  }
  // Move ordering: the table's move, then by a cheap plan: lead high; take
  // the trick cheaply when the opponents hold it, feed count to a partner
  // who holds it, else shed low tiles without count.
  int order[kTricks] = {}, prio[kTricks] = {}, m = 0;
  int win_key = -1, win_side = -1;
  if (n.trick_n > 0) {
    int wi = 0;
    for (int i = 1; i < n.trick_n; ++i)
      if (win_key_[led][n.trick[i]] > win_key_[led][n.trick[wi]]) wi = i;
    win_key = win_key_[led][n.trick[wi]];
    win_side = State::side_of(n.trick_seat[wi]);
  }
  const bool nello_declarer = c_.trump == kNello && maxi;
  for (uint32_t x = can; x; x &= x - 1) {
    const int t = std::countr_zero(x);
    int p;
    if (t == tt_move) {
      p = 1000;
    } else if (n.trick_n == 0) {
      const int k = win_key_[tables().led_suit[c_.trump][t]][t];
      p = nello_declarer ? -k : k;
    } else {
      const int k = win_key_[led][t];
      if (nello_declarer)
        p = k > win_key ? -100 - k : k;  // duck under, with the highest that loses
      else if (win_side == State::side_of(seat))
        p = 10 * kCount[t] - k;
      else if (k > win_key)
        p = 200 + 10 * kCount[t] - k;
      else
        p = -10 * kCount[t] - k;
    }
    int i = m++;
    while (i > 0 && prio[i - 1] < p) {
      order[i] = order[i - 1];
      prio[i] = prio[i - 1];
      --i;
    }
    order[i] = t;
    prio[i] = p;
  }
  const int a0 = alpha, b0 = beta;
  int best = maxi ? -kInf : kInf, best_move = order[0];
  for (int i = 0; i < m; ++i) {
    Node c = n;
    int v = 0;
    if (!play(c, order[i], v)) v = search(c, alpha, beta);
    if (maxi) {
      if (v > best) best = v, best_move = order[i];
      alpha = std::max(alpha, best);
    } else {
      if (v < best) best = v, best_move = order[i];
      beta = std::min(beta, best);
    }
    if (alpha >= beta) break;
  }
  if (boundary) {
    // Fail-soft bounds: at or below the window an upper bound, at or above
    // a lower bound, inside it exact. Merged with what the entry knew.
    int lo = best <= a0 ? -kInf : best, hi = best >= b0 ? kInf : best;
    if (e->gen == gen_ && e->k1 == k1 && e->k2 == k2) {
      lo = std::max<int>(lo, e->lo);
      hi = std::min<int>(hi, e->hi);
    }
    *e = Entry{k1, k2, static_cast<int16_t>(lo), static_cast<int16_t>(hi), static_cast<uint8_t>(best_move), gen_};
  }
  return best;
}

double Solver::value(const State& s, int seat) {
  Contract c;
  c.trump = s.trump();
  c.declarer = s.declarer();
  c.bid = s.high_bid();
  c.kind = s.high_kind();
  c.scoring = s.rules().scoring;
  c.stops_early = s.rules().stops_early();
  c.made_scores_taken = s.rules().made_scores_taken;
  set_contract(c);
  const int v = search(node_of(s), -kInf, kInf);
  return (State::side_of(seat) == bidders_ ? v : -v) / static_cast<double>(divisor());
}

// The hand as dealt, led by `leader`, with a points contract for the
// declarer under `trump`: what max_points and bid_level search.
Solver::Node Solver::points_contract(const State& s, int declarer, int trump, int leader) {
  Contract c;
  c.objective = Objective::Points;
  c.trump = trump;
  c.declarer = declarer;
  set_contract(c);
  return dealt_node(s, leader);
}

Solver::Node Solver::dealt_node(const State& s, int leader) {
  Node n{};
  for (int k = 0; k < kSeats; ++k) n.hand[k] = s.hand(k) | s.played_by(k);
  n.to_move = static_cast<int8_t>(leader);
  return n;
}

int Solver::max_points(const State& s, int declarer, int trump, int leader) {
  const Node n = points_contract(s, declarer, trump, leader);
  const int diff = search(n, -kInf, kInf);  // points[b] - points[d], which add up to 42
  return (42 + diff) / 2;
}

int Solver::bid_level(const State& s, int declarer, int trump, int leader) {
  const Node n = points_contract(s, declarer, trump, leader);
  // Taking b points is a difference of 2b - 42: null-window probes, binary
  // search over 29..42 (the table keeps what each probe learnt).
  int lo = 29, hi = 42;  // lo: known reachable (29: stands for "below 30")
  while (lo < hi) {
    const int b = (lo + hi + 1) / 2;
    if (search(n, 2 * b - 43, 2 * b - 42) >= 2 * b - 42)
      lo = b;
    else
      hi = b - 1;
  }
  return lo;
}

// The value for `seat` of playing the whole hand from the first lead under
// contract c (declarer's side bids), led by `leader`.
double Solver::contract_value(const State& s, int seat, const Contract& c, int leader) {
  set_contract(c);
  const int v = search(dealt_node(s, leader), -kInf, kInf);
  return (State::side_of(seat) == bidders_ ? v : -v) / static_cast<double>(divisor());
}

void Solver::values(const State& s, int seat, std::span<const Move> moves, double* out) {
  const Rules& r = s.rules();
  const auto base = [&](int declarer, int bid, BidKind kind, int trump) {
    Contract c;
    c.trump = trump;
    c.declarer = declarer;
    c.bid = bid;
    c.kind = kind;
    c.scoring = r.scoring;
    c.stops_early = r.stops_early();
    c.made_scores_taken = r.made_scores_taken;
    return c;
  };
  switch (s.phase()) {
    case Phase::Play: {
      Contract c = base(s.declarer(), s.high_bid(), s.high_kind(), s.trump());
      set_contract(c);
      const Node root = node_of(s);
      const bool mine = State::side_of(seat) == bidders_;
      for (size_t i = 0; i < moves.size(); ++i) {
        Node n = root;
        int v = 0;
        if (!play(n, moves[i].arg, v)) v = search(n, -kInf, kInf);
        out[i] = (mine ? v : -v) / static_cast<double>(divisor());
      }
      return;
    }
    case Phase::Trumps: {
      for (size_t i = 0; i < moves.size(); ++i)
        out[i] = contract_value(s, seat, base(s.declarer(), s.high_bid(), s.high_kind(), moves[i].arg), s.to_move());
      return;
    }
    case Phase::Bidding: {
      // The model: whoever holds the high bid after this move wins the
      // bidding at it (a pass leaves it where it is: 0 if nobody bid), names
      // the trump its own hand suggests (estimate_hand; plunge and splash:
      // the partner names it from theirs) and leads, and the hand is played
      // double dummy. Taking the best trump for each sampled deal instead
      // would let pimc name trumps seeing every hand: it would bid on
      // almost anything. And double dummy still flatters the declarer, who
      // in real play does not see the hands: a points bid b counts as made
      // only when the side can take b + kBidMargin double dummy (see
      // kBidMargin). The same for every seat's bid, the opponents' too.
      // Even so a side sweeps many random deals double dummy, so (marks
      // scoring) a set of the asking seat's own bid counts kSetWeight
      // marks: a bid beats a pass worth 0 only when it is made in more than
      // kSetWeight / (1 + kSetWeight) of the samples. An overbid of the
      // partner costs kPartnerOverbid. The samples are weighed by the
      // auction (State::sample), so the partner's hand is as its bids say.
      int level[kSeats][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
      const auto result = [&](int declarer, int bid, BidKind kind) {  // for declarer's side
        const int via_partner = kind == BidKind::Plunge || kind == BidKind::Splash;
        const int caller = via_partner ? State::partner(declarer) : declarer;
        int& p = level[declarer][via_partner];
        if (p < 0) p = bid_level(s, declarer, estimate_hand(s.hand(caller)).trump, caller);
        // A points bid counts as made only with kBidMargin points to spare
        // double dummy (capped at 42: every trick).
        const bool made = bid >= 42 ? p == 42 : p >= std::min(42, bid + kBidMargin);
        if (r.scoring == Scoring::Marks) {
          const int marks = bid <= 42 ? 1 : bid / 42;
          // A set of our own side's contract weighs kSetWeight (see there);
          // in the auction model only the seat's own bid does: the weight
          // corrects the seat's own decision to bid, and the contracts the
          // other seats choose count as the marks they are expected to give.
          const bool weighed =
              bid_model_ == BidModel::Auction ? declarer == seat : State::side_of(declarer) == State::side_of(seat);
          const double w = weighed ? kSetWeight : 1.0;
          return (made ? marks : -marks * w) + (2 * p - 42) / 100.0;
        }
        const bool taken = r.made_scores_taken && kind == BidKind::Points;
        return (made ? (taken ? p : bid) - (42 - p) : -(bid + 42 - p)) / 42.0;
      };
      const auto kind_of = [](Move mv) {
        return mv.kind == Move::Bid      ? BidKind::Points
               : mv.kind == Move::Marks  ? BidKind::Marks
               : mv.kind == Move::Plunge ? BidKind::Plunge
                                         : BidKind::Splash;
      };
      // The high bid before the move, and who holds it.
      int high = 0, high_seat = -1;
      BidKind high_kind = BidKind::None;
      for (int k = 0; k < kSeats; ++k)
        if (s.high_bid() > 0 && s.bid_of(k) == s.high_bid() && s.bid_kind_of(k) == s.high_kind())
          high = s.high_bid(), high_seat = k, high_kind = s.high_kind();
      for (size_t i = 0; i < moves.size(); ++i) {
        const Move mv = moves[i];
        int h = high, hs = high_seat;
        BidKind hk = high_kind;
        if (mv.kind != Move::Pass) h = State::value_of(mv), hs = seat, hk = kind_of(mv);
        if (hs < 0) {
          out[i] = 0;  // a pass with no bid yet
          continue;
        }
        const double v = result(hs, h, hk);
        out[i] = State::side_of(hs) == State::side_of(seat) ? v : -v;
        if (bid_model_ == BidModel::Auction && mv.kind != Move::Pass && high_seat == State::partner(seat))
          out[i] -= kPartnerOverbid;  // see kPartnerOverbid
      }
      return;
    }
    default:
      for (size_t i = 0; i < moves.size(); ++i) out[i] = 0;
  }
}

}  // namespace boneyard::texas42
