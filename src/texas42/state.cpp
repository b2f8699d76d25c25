#include "texas42/state.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/sample.h"
#include "texas42/auction.h"

namespace boneyard::texas42 {

namespace {
constexpr TrumpTables build_tables() {
  TrumpTables t{};
  for (int cfg = 0; cfg < kTrumpKinds; ++cfg) {
    // spec: Trumps. A number: every tile showing it; doubles: the seven doubles.
    uint32_t trumps = 0;
    if (cfg <= 6)
      trumps = suit<1>(cfg, 6).w[0] & kAllTiles;
    else if (cfg == kDoublesTrump)
      trumps = kDoubles;
    t.trumps[cfg] = trumps;
    // Nello: doubles are their own suit (docs: nello).
    const bool doubles_suit = cfg == kNello;
    for (int s = 0; s < 9; ++s)
      for (int i = 0; i < kTiles; ++i) t.rank[cfg][s][i] = -1;
    for (int i = 0; i < kTiles; ++i) {
      const Tile x{static_cast<uint8_t>(i)};
      const uint32_t bit = uint32_t{1} << i;
      // spec: Suits and following. A trump leads trumps; a double its number
      // (or the doubles suit); any other tile its higher number.
      if (trumps & bit)
        t.led_suit[cfg][i] = kTrumpSuit;
      else if (x.is_double() && doubles_suit)
        t.led_suit[cfg][i] = kDoublesSuit;
      else
        t.led_suit[cfg][i] = static_cast<uint8_t>(x.high());
      if (trumps & bit) {
        t.members[cfg][kTrumpSuit] |= bit;
        // Rank in the trump number: the double, then the other number 6..0;
        // doubles as trumps rank 6-6 high to 0-0 low.
        t.rank[cfg][kTrumpSuit][i] = static_cast<int8_t>(cfg == kDoublesTrump ? x.high()
                                                         : x.is_double()      ? 7
                                                                              : x.other(cfg));
        continue;
      }
      if (x.is_double() && doubles_suit) {
        t.members[cfg][kDoublesSuit] |= bit;
        t.rank[cfg][kDoublesSuit][i] = static_cast<int8_t>(x.high());
        continue;
      }
      // A non-trump tile belongs to both of its numbers' suits.
      for (int n : {x.high(), x.low()}) {
        t.members[cfg][n] |= bit;
        t.rank[cfg][n][i] = static_cast<int8_t>(x.is_double() ? 7 : x.other(n));
      }
    }
  }
  return t;
}
}  // namespace

constinit const TrumpTables kTrumpTables = build_tables();
static const TrumpTables& kTables = kTrumpTables;

State::State(const Rules& rules, uint64_t seed) : r_(rules), rng_(seed) {}

int State::trick_winner_index() const {
  // spec: Suits and following. The highest trump, else the highest tile of
  // the led suit; sevens (docs): closest to 7 pips, the earlier tile on a tie.
  const TrumpTables& T = kTables;
  const int led = T.led_suit[trump_][trick_[0]];
  auto key = [&](int i) {
    const int t = trick_[i];
    if (trump_ == kSevens) {
      const int d = Tile{static_cast<uint8_t>(t)}.pips() - 7;
      return -(d < 0 ? -d : d);
    }
    if ((T.trumps[trump_] >> t) & 1) return 100 + T.rank[trump_][kTrumpSuit][t];
    return static_cast<int>(T.rank[trump_][led][t]);
  };
  int best = 0, best_key = key(0);
  for (int i = 1; i < trick_n_; ++i) {
    const int k = key(i);
    if (k > best_key) {
      best_key = k;
      best = i;
    }
  }
  return best;
}

int State::plunge_marks(int seat) const {
  // docs: plunge. Four doubles or more: 4 marks, the most the spec allows;
  // none once 4 marks are bid.
  if (!r_.plunge || phase_ != Phase::Bidding || std::popcount(hand_[seat] & kDoubles) < 4) return 0;
  const int k = std::max(4, high_bid_ >= 42 ? high_bid_ / 42 + 1 : 0);
  return k <= kMaxMarks ? k : 0;
}

int State::splash_marks(int seat) const {
  // docs: splash. Three doubles or more: 2 marks, or one above; at most 3.
  if (!r_.splash || phase_ != Phase::Bidding || std::popcount(hand_[seat] & kDoubles) < 3) return 0;
  const int k = std::max(2, high_bid_ >= 42 ? high_bid_ / 42 + 1 : 0);
  return k <= 3 ? k : 0;
}

void State::apply_chance() {
  uint8_t tiles[kTiles];
  for (int i = 0; i < kTiles; ++i) tiles[i] = static_cast<uint8_t>(i);
  rng_.shuffle(tiles, kTiles);
  if (phase_ == Phase::DealerDraw) {
    Tile drawn[kSeats];
    for (int s = 0; s < kSeats; ++s) drawn[s] = Tile{tiles[s]};
    draw_for_dealer(drawn);
    return;
  }
  // spec: Deal. The dealer's opponents take 7 each, then the partner, and
  // the dealer the last 7.
  uint32_t hands[kSeats] = {};
  const int order[kSeats] = {(dealer_ + 1) & 3, (dealer_ + 3) & 3, (dealer_ + 2) & 3, dealer_};
  for (int k = 0; k < kSeats; ++k)
    for (int i = 0; i < 7; ++i) hands[order[k]] |= uint32_t{1} << tiles[k * 7 + i];
  deal(hands);
}

void State::draw_for_dealer(const Tile* tiles) {
  if (phase_ != Phase::DealerDraw) throw Error("no first-dealer draw is pending now");
  uint32_t seen = 0;
  int best = -1;
  for (int s = 0; s < kSeats; ++s) {
    if (tiles[s].index >= kTiles)
      throw Error(fmt::format("bad draw: {} is not a double-six tile", to_string(tiles[s])));
    if ((seen >> tiles[s].index) & 1) throw Error(fmt::format("bad draw: {} drawn twice", to_string(tiles[s])));
    seen |= uint32_t{1} << tiles[s].index;
    draw_[s] = static_cast<int8_t>(tiles[s].index);
    // spec: Deal. Highest pip total deals; Decision: ties by the higher number.
    if (best < 0)
      best = s;
    else {
      const Tile b = tiles[best];
      if (tiles[s].pips() > b.pips() || (tiles[s].pips() == b.pips() && tiles[s].high() > b.high())) best = s;
    }
  }
  dealer_ = static_cast<int8_t>(best);
  last_chance_ = 1;
  start_hand();
}

void State::start_hand() {
  phase_ = Phase::Deal;
  to_move_ = -1;
}

void State::deal(const uint32_t* hands) {
  if (phase_ != Phase::Deal) throw Error("no deal is pending now");
  uint32_t seen = 0;
  for (int s = 0; s < kSeats; ++s) {
    if (std::popcount(hands[s]) != 7)
      throw Error(fmt::format("bad deal: seat {} has {} tiles; Texas 42 deals 7 each", s, std::popcount(hands[s])));
    if (hands[s] & ~kAllTiles) throw Error(fmt::format("bad deal: seat {} holds a tile outside the double-six set", s));
    if (hands[s] & seen) throw Error(fmt::format("bad deal: seat {} holds a tile already dealt to another seat", s));
    seen |= hands[s];
  }
  for (int s = 0; s < kSeats; ++s) {
    hand_[s] = hands[s];
    played_by_[s] = not_holding_[s] = 0;
    bids_[s] = -1;
    bid_kinds_[s] = BidKind::None;
  }
  played_ = 0;
  declarer_ = high_bidder_ = -1;
  high_bid_ = 0;
  high_kind_ = BidKind::None;
  bidder_turns_ = 0;
  trump_ = kNoTrumpYet;
  trick_n_ = 0;
  trick_leader_ = -1;
  n_tricks_ = 0;
  points_[0] = points_[1] = 0;
  tricks_won_[0] = tricks_won_[1] = 0;
  last_chance_ = 2;
  // spec: Bidding starts with the seat after the dealer.
  phase_ = Phase::Bidding;
  to_move_ = static_cast<int8_t>((dealer_ + 1) & 3);
}

void State::apply(int seat, Move m) {
  switch (m.kind) {
    case Move::Pass:
    case Move::Bid:
    case Move::Marks:
    case Move::Plunge:
    case Move::Splash:
      bid(seat, m);
      return;
    case Move::Trumps:
      // spec: Trumps. The declarer (plunge/splash: the partner) names trumps
      // and leads the first trick.
      trump_ = m.arg;
      phase_ = Phase::Play;
      trick_leader_ = static_cast<int8_t>(seat);
      trick_n_ = 0;
      return;
    case Move::Play:
      play(seat, m.tile());
      return;
  }
}

void State::bid(int seat, Move m) {
  if (m.kind == Move::Pass) {
    bids_[seat] = 0;
  } else {
    static constexpr BidKind kKind[] = {BidKind::None, BidKind::Points, BidKind::Marks, BidKind::Plunge,
                                        BidKind::Splash};
    high_bid_ = static_cast<int16_t>(value_of(m));
    high_kind_ = kKind[m.kind];
    high_bidder_ = static_cast<int8_t>(seat);
    bids_[seat] = high_bid_;
    bid_kinds_[seat] = high_kind_;
  }
  // spec: Bidding. One round, ending with the dealer.
  if (++bidder_turns_ < kSeats) {
    to_move_ = static_cast<int8_t>((seat + 1) & 3);
    return;
  }
  end_bidding();
}

void State::end_bidding() {
  if (high_bidder_ < 0) {
    // spec: Bidding. All four passed: the next dealer deals again.
    ++redeals_;
    last_was_redeal_ = true;
    dealer_ = static_cast<int8_t>((dealer_ + 1) & 3);
    start_hand();
    return;
  }
  last_was_redeal_ = false;
  declarer_ = high_bidder_;
  phase_ = Phase::Trumps;
  to_move_ = static_cast<int8_t>(trump_caller());
}

void State::play(int seat, Tile t) {
  const uint32_t bit = uint32_t{1} << t.index;
  if (trick_n_ > 0 && trump_ != kSevens) {
    // A failure to follow shows the seat holds no tile of the led suit.
    const uint32_t suit_tiles = kTables.members[trump_][kTables.led_suit[trump_][trick_[0]]];
    if (!(suit_tiles & bit)) not_holding_[seat] |= suit_tiles;
  }
  hand_[seat] &= ~bit;
  played_by_[seat] |= bit;
  played_ |= bit;
  trick_[trick_n_] = t.index;
  trick_seats_[trick_n_] = static_cast<int8_t>(seat);
  ++trick_n_;
  const int size = trump_ == kNello ? 3 : 4;  // nello: the partner sits out
  if (trick_n_ < size) {
    to_move_ = static_cast<int8_t>(next_player(seat));
    return;
  }
  finish_trick();
}

void State::finish_trick() {
  const int w = trick_seats_[trick_winner_index()];
  // spec: Count and points. The count in the trick and 1 for the trick.
  int pts = 1;
  for (int i = 0; i < trick_n_; ++i) pts += count_of(Tile{trick_[i]});
  points_[side_of(w)] = static_cast<int16_t>(points_[side_of(w)] + pts);
  ++tricks_won_[side_of(w)];
  for (int i = 0; i < kSeats; ++i) tricks_[n_tricks_][i] = i < trick_n_ ? trick_[i] : 0xff;
  trick_leaders_[n_tricks_] = trick_leader_;
  trick_winners_[n_tricks_] = static_cast<int8_t>(w);
  ++n_tricks_;
  trick_n_ = 0;
  trick_leader_ = static_cast<int8_t>(w);
  to_move_ = static_cast<int8_t>(w);
  bool made = false;
  if (n_tricks_ == kTricks || r_.stops_early()) {
    if (decided(made)) end_hand(made);
  }
}

bool State::decided(bool& made) const {
  const int bidders = side_of(declarer_), defenders = 1 - bidders;
  if (trump_ == kNello) {
    // docs: nello. The declarer must lose every trick.
    if (tricks_won_[bidders] > 0) return made = false, true;
    if (n_tricks_ == kTricks) return made = true, true;
    return false;
  }
  if (high_bid_ >= 42) {
    // spec: Scoring. A bid of 42 or of marks must take every trick (all 42
    // points); so must plunge, splash and sevens.
    if (tricks_won_[defenders] > 0) return made = false, true;
    if (n_tricks_ == kTricks) return made = true, true;
    return false;
  }
  // 30..41: made once the bidders hold the bid; set once the defenders hold
  // more than 42 - bid.
  if (points_[bidders] >= high_bid_) return made = true, true;
  if (points_[defenders] > 42 - high_bid_) return made = false, true;
  return false;
}

void State::end_hand(bool made) {
  const int bidders = side_of(declarer_), defenders = 1 - bidders;
  HandResult h;
  h.number = static_cast<uint16_t>(hands_ + 1);
  h.dealer = dealer_;
  h.declarer = declarer_;
  h.bid_kind = high_kind_;
  h.bid = high_bid_;
  h.trump = trump_;
  h.made = made;
  h.stopped_early = n_tricks_ < kTricks;
  h.tricks_played = n_tricks_;
  h.last_trick_winner = trick_winners_[n_tricks_ - 1];  // a hand ends only as a trick is taken
  for (int sd = 0; sd < 2; ++sd) {
    h.points[sd] = points_[sd];
    h.tricks[sd] = tricks_won_[sd];
  }
  const int w = made ? bidders : defenders;
  h.winner_side = static_cast<int8_t>(w);
  if (r_.scoring == Scoring::Marks) {
    // spec: Scoring, marks. 30..42: 1 mark; k marks: k.
    h.gained[w] = static_cast<int16_t>(high_bid_ <= 42 ? 1 : high_bid_ / 42);
  } else if (trump_ == kNello) {
    // docs: nello in points scoring moves only the bid.
    h.gained[w] = high_bid_;
  } else {
    // spec: Scoring, points. Made: the bid (made_scores_taken: the points
    // taken, for 30..42 bids) and the defenders their points; set: the
    // defenders the bid plus their points.
    if (made) {
      const bool taken = r_.made_scores_taken && high_kind_ == BidKind::Points;
      h.gained[bidders] = taken ? points_[bidders] : high_bid_;
      h.gained[defenders] = points_[defenders];
    } else {
      h.gained[defenders] = static_cast<int16_t>(high_bid_ + points_[defenders]);
    }
  }
  bool reached[2];
  for (int sd = 0; sd < 2; ++sd) {
    score_[sd] = static_cast<int16_t>(score_[sd] + h.gained[sd]);
    reached[sd] = score_[sd] >= (r_.scoring == Scoring::Marks ? r_.target_marks : r_.target_points);
  }
  // Decision (spec: Scoring, points): both past the target, the hand's winner wins.
  if (reached[0] && reached[1])
    winners_ = static_cast<uint8_t>(1u << w);
  else if (reached[0] || reached[1])
    winners_ = reached[0] ? 1 : 2;
  if (r_.single_hand && !winners_) winners_ = static_cast<uint8_t>(1u << w);  // the hand's winner wins
  ++hands_;
  last_ = h;
  if (winners_) {
    phase_ = Phase::GameOver;
    to_move_ = -1;
    return;
  }
  // spec: Deal. Later hands: the next seat deals.
  dealer_ = static_cast<int8_t>((dealer_ + 1) & 3);
  start_hand();
}

void State::returns(double* out) const {
  const int n = std::popcount(static_cast<unsigned>(winners_));
  for (int s = 0; s < kSeats; ++s) out[s] = (n && ((winners_ >> side_of(s)) & 1)) ? 1.0 / n : 0.0;
}

void State::scores(double* per_side) const {
  per_side[0] = score_[0];
  per_side[1] = score_[1];
}

Observation State::observe(int seat) const {
  Observation o{seat, *this};
  for (int s = 0; s < kSeats; ++s)
    if (s != seat) o.masked.hand_[s] = 0;
  o.masked.rng_ = Rng(0);
  return o;
}

State State::sample(const Observation& o, Rng& rng) { return sample_with(o, rng, kAuctionCandidates); }

State State::sample_plain(const Observation& o, Rng& rng) { return sample_with(o, rng, 1); }

State State::sample_weighted(const Observation& o, Rng& rng, double& log_weight) {
  State s = sample_with(o, rng, 1);
  log_weight = 0;
  bool evidence = false;
  for (int k = 0; k < kSeats; ++k) evidence |= k != o.seat && s.bids_[k] >= 0;
  if (!evidence || s.phase_ == Phase::DealerDraw || s.phase_ == Phase::Deal || s.phase_ == Phase::GameOver) return s;
  uint32_t dealt[kSeats];
  for (int k = 0; k < kSeats; ++k) dealt[k] = s.hand_[k] | s.played_by_[k];
  log_weight = auction_log_likelihood(s, o.seat, dealt);
  return s;
}

State State::sample_with(const Observation& o, Rng& rng, int candidates) {
  State s = o.masked;
  const int me = o.seat;
  s.rng_.reseed(rng.next());
  if (s.phase_ == Phase::DealerDraw || s.phase_ == Phase::Deal || s.phase_ == Phase::GameOver) return s;
  // Unknown tiles: the set less my hand and everything played. Each other
  // seat holds 7 less what it played, and nothing of a suit it failed to follow.
  const uint32_t unknown = kAllTiles & ~s.hand_[me] & ~s.played_;
  std::vector<Tile> tiles;
  for (uint32_t x = unknown; x; x &= x - 1) tiles.push_back(Tile{static_cast<uint8_t>(std::countr_zero(x))});
  std::vector<int> cap, seat_of;
  for (int k = 0; k < kSeats; ++k)
    if (k != me) {
      cap.push_back(7 - std::popcount(s.played_by_[k]));
      seat_of.push_back(k);
    }
  std::vector<uint32_t> allowed(tiles.size());
  for (size_t i = 0; i < tiles.size(); ++i)
    for (size_t p = 0; p < seat_of.size(); ++p)
      if (!((s.not_holding_[seat_of[p]] >> tiles[i].index) & 1)) allowed[i] |= 1u << p;
  // Plunge and splash bids are public: such a seat was dealt 4 (3) doubles.
  auto bids_hold = [&](const State& x) {
    for (int k = 0; k < kSeats; ++k) {
      if (k == me) continue;
      const int need = x.bid_kinds_[k] == BidKind::Plunge ? 4 : x.bid_kinds_[k] == BidKind::Splash ? 3 : 0;
      if (need && std::popcount((x.hand_[k] | x.played_by_[k]) & kDoubles) < need) return false;
    }
    return true;
  };
  const auto draw = [&] {
    for (int attempt = 0; attempt < 200; ++attempt) {
      auto place = sample_assignment(tiles, allowed, cap, rng);
      if (place.empty()) {  // contradictory constraints (cannot happen for real histories): drop them
        for (auto& a : allowed) a = (1u << cap.size()) - 1;
        place = sample_assignment(tiles, allowed, cap, rng);
      }
      for (int k = 0; k < kSeats; ++k)
        if (k != me) s.hand_[k] = 0;
      for (size_t i = 0; i < tiles.size(); ++i)
        s.hand_[seat_of[static_cast<size_t>(place[i])]] |= uint32_t{1} << tiles[i].index;
      if (bids_hold(s)) break;
    }
  };
  draw();
  // The auction as evidence: only when another seat has bid or passed.
  bool evidence = false;
  for (int k = 0; k < kSeats; ++k) evidence |= k != me && s.bids_[k] >= 0;
  if (candidates <= 1 || !evidence) return s;
  // Sampling importance resampling: draw candidates from the constrained
  // uniform deal, keep one with probability proportional to the likelihood
  // of the bids made, were those the hands dealt.
  uint32_t hands[kAuctionCandidates][kSeats];
  double ll[kAuctionCandidates];
  const int n = std::min(candidates, kAuctionCandidates);
  double top = -1e300;
  for (int c = 0; c < n; ++c) {
    if (c > 0) draw();
    uint32_t dealt[kSeats];
    for (int k = 0; k < kSeats; ++k) {
      hands[c][k] = s.hand_[k];
      dealt[k] = s.hand_[k] | s.played_by_[k];
    }
    ll[c] = auction_log_likelihood(s, me, dealt);
    top = std::max(top, ll[c]);
  }
  double total = 0;
  for (int c = 0; c < n; ++c) total += ll[c] = std::exp(ll[c] - top);
  double r = rng.uniform() * total;
  int pick = n - 1;
  for (int c = 0; c < n; ++c)
    if ((r -= ll[c]) < 0) {
      pick = c;
      break;
    }
  for (int k = 0; k < kSeats; ++k) s.hand_[k] = hands[pick][k];
  return s;
}

double Texas42::reward(const State& from, const State& to, int seat) {
  // 1 mark (42 points in points scoring) is 0.8; the hand's points
  // difference adds up to 0.2, so among equal marks more points are better.
  const int me = State::side_of(seat), them = 1 - me;
  double v = (to.score(me) - from.score(me)) - (to.score(them) - from.score(them));
  if (to.rules().scoring == Scoring::Points) v /= 42;
  v *= 0.8;
  // The hand that just ended (points are reset by the next deal).
  if (to.hands_finished() > from.hands_finished()) {
    const HandResult& h = to.last_result();
    v += 0.2 * (h.points[me] - h.points[them]) / 42;
  } else if (to.phase() == Phase::Play) {
    v += 0.2 * (to.points_taken(me) - to.points_taken(them)) / 42;
  }
  return std::clamp(v, -1.0, 1.0);
}

}  // namespace boneyard::texas42
