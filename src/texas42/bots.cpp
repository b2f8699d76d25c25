#include "texas42/bots.h"

#include <algorithm>
#include <cmath>

#include "bots/pimc.h"
#include "texas42/solver.h"

namespace boneyard::texas42 {

namespace {

uint32_t bit(int i) { return uint32_t{1} << i; }

// The trick-winning key of tile t for a trick led in `led` (as in
// State::trick_winner_index): higher wins, -1 cannot win.
int key(int trump, int led, int t) {
  const TrumpTables& T = tables();
  if (trump == kSevens) {
    const int d = Tile{static_cast<uint8_t>(t)}.pips() - 7;
    return 20 - (d < 0 ? -d : d);
  }
  if ((T.trumps[trump] >> t) & 1) return 100 + T.rank[trump][kTrumpSuit][t];
  return T.rank[trump][led][t];
}

// Some tile in `others` beats key k in suit `led`.
bool beaten(int trump, int led, int k, uint32_t others) {
  for (uint32_t x = others; x; x &= x - 1)
    if (key(trump, led, std::countr_zero(x)) > k) return true;
  return false;
}

int rank_in_own_suit(int trump, int t) {
  const int led = tables().led_suit[trump][t];
  return key(trump, led, t);
}

}  // namespace

HandEstimate estimate_hand(uint32_t hand) {
  HandEstimate best;
  best.tricks = -1;
  for (int tr = 0; tr <= kDoublesTrump; ++tr) {
    const TrumpTables& T = tables();
    const uint32_t trumps = hand & T.trumps[tr];
    const int t = std::popcount(trumps);
    // Sure trump tricks: the run of top trumps held from the highest down.
    int sure = 0;
    for (int r = (tr == kDoublesTrump ? 6 : 7); r >= 0; --r) {
      if (r == tr) continue;  // a number trump has no rank equal to itself
      bool held = false;
      for (uint32_t x = trumps; x; x &= x - 1)
        if (T.rank[tr][kTrumpSuit][std::countr_zero(x)] == r) held = true;
      if (!held) break;
      ++sure;
    }
    // Off doubles are the highest tile of their suit.
    const int off_doubles = std::popcount(hand & kDoubles & ~T.trumps[tr]);
    double tricks = sure + 0.55 * (t - sure) + (t >= 3 ? 0.8 : 0.5) * off_doubles;
    if (t >= 5) tricks += 0.5;  // long trumps draw the rest
    tricks = std::min(tricks, 7.0);
    if (tricks > best.tricks) {
      best.tricks = tricks;
      best.trump = tr;
    }
  }
  // Count the hand protects: count tiles that are trumps or doubles.
  int safe_count = 0;
  const uint32_t safe = hand & kCountTiles & (tables().trumps[best.trump] | kDoubles);
  for (uint32_t x = safe; x; x &= x - 1) safe_count += count_of(Tile{static_cast<uint8_t>(std::countr_zero(x))});
  best.points = static_cast<int>(std::lround(5.2 * best.tricks + 0.5 * safe_count));
  return best;
}

double GreedyBot::value(const State& s, int seat, Move m) {
  const uint32_t hand = s.hand(seat);
  switch (m.kind) {
    case Move::Pass:
      return 0;
    case Move::Bid:
    case Move::Marks:
    case Move::Plunge:
    case Move::Splash: {
      // Never outbid a partner; bid the least that beats the table when the
      // hand is worth it (forced: the least bid).
      const HandEstimate e = estimate_hand(hand);
      const int v = State::value_of(m);
      const bool partner_high = s.high_bid() > 0 && s.bid_of(State::partner(seat)) == s.high_bid();
      if (m.kind == Move::Plunge) return e.tricks >= 6.5 ? 2 : -1;
      if (m.kind == Move::Splash) return e.tricks >= 6.5 ? 1.5 : -1;
      // The estimate is cautious: bid up to 4 over it. The dealer, after
      // three passes, takes a fair hand at 30 rather than throw the deal in.
      int can = e.tricks >= 6.8 ? 42 : std::min(e.points + 4, 41);
      if (seat == s.dealer() && s.high_bid() == 0 && e.points >= 20) can = std::max(can, 30);
      if (partner_high || v > (m.kind == Move::Marks ? (e.tricks >= 6.9 ? 84 : 0) : can)) return -1 - v * 1e-3;
      return 1 - v * 1e-3;  // the lowest bid that is worth it
    }
    case Move::Trumps: {
      const HandEstimate e = estimate_hand(hand);
      if (m.arg == e.trump) return 2;
      if (m.arg == kFollowMe) return 0.5;
      if (m.arg == kNello || m.arg == kSevens) return -1;
      return 0.1 * std::popcount(hand & tables().trumps[m.arg]);
    }
    case Move::Play:
      break;
  }
  const int t = m.arg;
  const int trump = s.trump();
  const int me_side = State::side_of(seat);
  const bool bidding_side = State::side_of(s.declarer()) == me_side;
  const uint32_t outstanding = kAllTiles & ~s.played() & ~hand;  // in other hands
  const int cnt = count_of(Tile{static_cast<uint8_t>(t)});
  const TrumpTables& T = tables();
  const uint32_t trumps = T.trumps[trump];
  const int own_rank = rank_in_own_suit(trump, t);
  const int size = trump == kNello ? 3 : 4;

  if (s.trick_size() == 0) {
    // Leading.
    if (trump == kNello) return bidding_side ? -own_rank : own_rank;  // declarer leads low
    if (trump == kSevens) return -std::abs(Tile{static_cast<uint8_t>(t)}.pips() - 7);
    const int led = T.led_suit[trump][t];
    const bool boss = !beaten(trump, led, key(trump, led, t),
                              outstanding & (led == kTrumpSuit ? trumps : T.members[trump][led] | trumps));
    if (bidding_side && (hand & trumps) && (outstanding & trumps)) {
      // spec source: as declarer, lead trumps first to pull the opponents'.
      if (trumps & bit(t)) return 50 + own_rank;
    }
    if (boss) return 30 + (Tile{static_cast<uint8_t>(t)}.is_double() ? 3 : 0) + cnt * 0.2;
    // Otherwise lead low, never count, keep trumps.
    return 10 - cnt - own_rank * 0.3 - ((trumps & bit(t)) ? 8 : 0);
  }

  // Following.
  const int led = s.led_suit();
  const int wi = s.trick_winner_index();
  const int win_seat = s.trick_seat(wi);
  const int win_key = key(trump, led, s.trick_tile(wi));
  const int my_key = key(trump, led, t);
  const bool i_win = my_key > win_key;
  const bool last = s.trick_size() == size - 1;
  if (trump == kNello) {
    const bool declarer = seat == s.declarer();
    if (declarer) return i_win ? -10 - own_rank : own_rank;  // lose with the highest tile that loses
    // Defenders: let the declarer win (stay under the declarer's tile).
    return win_seat == s.declarer() ? (i_win ? -5 : 5 - own_rank * 0.1) : -own_rank * 0.1;
  }
  const bool partner_winning = State::side_of(win_seat) == me_side;
  if (partner_winning) {
    // Feed count to a partner who holds the trick (safe: last, or nothing
    // outstanding beats the partner's tile).
    const bool safe = last || !beaten(trump, led, win_key, outstanding);
    if (safe) return 20 + cnt - own_rank * 0.1 - ((trumps & bit(t)) ? 3 : 0);
    return 10 - cnt - own_rank * 0.1 - ((trumps & bit(t)) ? 3 : 0);
  }
  if (i_win) {
    const bool safe = last || !beaten(trump, led, my_key, outstanding);
    // Win it: take count with a safe winner; otherwise the cheapest winner.
    if (safe) return 30 + cnt - my_key * 0.01;
    return 15 - cnt - my_key * 0.05;
  }
  // Cannot win: never give count to the opponents; shed the least useful tile.
  return 5 - 2 * cnt - own_rank * 0.2 - ((trumps & bit(t)) ? 4 : 0);
}

Move GreedyBot::choose(const Observation& obs, std::span<const Move> legal) {
  Move best = legal[0];
  double best_v = -1e18;
  for (const Move& m : legal) {
    const double v = value(obs.masked, obs.seat, m) + 1e-4 * rng().uniform();  // break ties at random
    if (v > best_v) {
      best_v = v;
      best = m;
    }
  }
  return best;
}

Move Texas42::rollout_move(const State& s, int seat, std::span<const Move> legal, Rng& rng) {
  if (legal.size() == 1 || rng.below(10) == 0) return legal[rng.below(static_cast<uint32_t>(legal.size()))];
  size_t best = 0;
  double best_v = -1e18;
  for (size_t i = 0; i < legal.size(); ++i) {
    const double v = GreedyBot::value(s, seat, legal[i]) + 1e-4 * rng.uniform();
    if (v > best_v) best_v = v, best = i;
  }
  return legal[best];
}

namespace {
// The game type pimc-plain searches: Texas 42 with the plain sampler and
// bid model (same state, moves and observations).
struct Texas42Plain : Texas42 {
  static State sample(const Observation& o, Rng& rng) { return State::sample_plain(o, rng); }
  struct Solver : texas42::Solver {
    Solver() : texas42::Solver(BidModel::Plain) {}
  };
};
}  // namespace

struct PlainPimcBot::Impl {
  PimcBot<Texas42Plain> bot;
};

PlainPimcBot::PlainPimcBot(uint64_t seed, const BotOptions& o)
    : Bot<Texas42>("pimc-plain", seed), impl_(std::make_unique<Impl>(Impl{PimcBot<Texas42Plain>(seed, o)})) {}
PlainPimcBot::~PlainPimcBot() = default;

Move PlainPimcBot::choose(const Observation& obs, std::span<const Move> legal) { return impl_->bot.choose(obs, legal); }

bool PlainPimcBot::values(const Observation& obs, std::span<const Move> legal, double* out) {
  return impl_->bot.values(obs, legal, out);
}

}  // namespace boneyard::texas42
