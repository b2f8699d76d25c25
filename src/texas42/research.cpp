#include "texas42/research.h"

#include <fmt/format.h>

namespace boneyard::texas42 {

namespace {
// Actions: pass 0; bid 30..42 = 1..13; marks m (1..7) = 13+m; plunge m =
// 20+m; splash m = 27+m; trumps k (0..10) = 35+k; play tile t = 46+t.
constexpr int kActions = 46 + kTiles;
// Observation: hand 28 | laid by seat (relative) 4x28 | current trick 4x28
// (by position) | trick leader 4 | bids 4x2 (passed, points/84) | high bid
// /84 | declarer 4 | trump 12 (11 kinds + none) | phase 6 | to move 4 |
// dealer 4 | points taken 2 (/42) | score 2 (/target) | tiles proven not
// held 4x28 | tricks done /7.
constexpr int kObs = kTiles + 4 * kTiles + 4 * kTiles + 4 + 8 + 1 + 4 + 12 + 6 + 4 + 4 + 2 + 2 + 4 * kTiles + 1;
}  // namespace

int Research::num_actions(const State&) { return kActions; }

int Research::to_action(const State&, Move m) {
  switch (m.kind) {
    case Move::Pass:
      return 0;
    case Move::Bid:
      return m.arg - 29;
    case Move::Marks:
      return 13 + m.arg;
    case Move::Plunge:
      return 20 + m.arg;
    case Move::Splash:
      return 27 + m.arg;
    case Move::Trumps:
      return 35 + m.arg;
    case Move::Play:
      return 46 + m.arg;
  }
  return 0;
}

Move Research::from_action(const State&, int a) {
  if (a < 0 || a >= kActions) throw Error(fmt::format("action {} is outside 0..{}", a, kActions - 1));
  auto u = [](int x) { return static_cast<uint8_t>(x); };
  if (a == 0) return {Move::Pass, 0};
  if (a <= 13) return {Move::Bid, u(a + 29)};
  if (a <= 20) return {Move::Marks, u(a - 13)};
  if (a <= 27) return {Move::Plunge, u(a - 20)};
  if (a <= 34) return {Move::Splash, u(a - 27)};
  if (a <= 45) return {Move::Trumps, u(a - 35)};
  return {Move::Play, u(a - 46)};
}

std::vector<int> Research::observation_shape(const State&) { return {kObs}; }

void Research::observation(const State& full, int seat, float* out) {
  const State s = full.observe(seat).masked;
  auto rel = [&](int x) { return x < 0 ? -1 : (x - seat + 4) & 3; };
  auto abs = [&](int k) { return (seat + k) & 3; };
  TensorWriter w{out};
  const uint32_t hand = s.hand(seat);
  w.bits(kTiles, [&](int i) { return (hand >> i) & 1; });
  for (int k = 0; k < 4; ++k) {
    const uint32_t p = s.played_by(abs(k));
    w.bits(kTiles, [&](int i) { return (p >> i) & 1; });
  }
  for (int i = 0; i < 4; ++i) w.one_hot(kTiles, i < s.trick_size() ? s.trick_tile(i) : -1);
  w.one_hot(4, s.trick_size() > 0 ? rel(s.trick_leader()) : -1);
  for (int k = 0; k < 4; ++k) {
    const int b = s.bid_of(abs(k));
    w.value(b == 0 ? 1.0f : 0.0f);
    w.value(b > 0 ? static_cast<float>(b) / 84.0f : 0.0f);
  }
  w.value(static_cast<float>(s.high_bid()) / 84.0f);
  w.one_hot(4, s.high_bid() > 0 ? rel(s.declarer()) : -1);
  w.one_hot(12, s.trump() == kNoTrumpYet ? 11 : s.trump());
  w.one_hot(6, static_cast<int>(s.phase()));
  const Actor a = s.actor();
  w.one_hot(4, a.kind == Actor::Seat ? rel(a.seat) : -1);
  w.one_hot(4, rel(s.dealer()));
  const int me = State::side_of(seat);
  for (int k = 0; k < 2; ++k) w.value(static_cast<float>(s.points_taken(me ^ k)) / 42.0f);
  const float target =
      static_cast<float>(s.rules().scoring == Scoring::Marks ? s.rules().target_marks : s.rules().target_points);
  for (int k = 0; k < 2; ++k) w.value(static_cast<float>(s.score(me ^ k)) / target);
  for (int k = 0; k < 4; ++k) {
    const uint32_t v = s.not_holding(abs(k));
    w.bits(kTiles, [&](int i) { return (v >> i) & 1; });
  }
  w.value(static_cast<float>(s.tricks_done()) / 7.0f);
}

// Perfect recall (docs/python.md, Tensors): the seat's tiles at the hand's
// first step 28, then per step the actor (written by the caller) and the
// action one-hot 74 | the seat's new hand 28 after a step that ended in an
// all-pass redeal. Room for 45 steps: a hand of 33 and three redeals.
int Research::info_hand_size(const State&) { return kTiles; }

void Research::info_hand(const State& s, int seat, float* out) {
  const uint32_t hand = s.hand(seat);
  TensorWriter{out}.bits(kTiles, [&](int i) { return (hand >> i) & 1; });
}

int Research::info_step_size(const State&) { return kActions + kTiles; }

int Research::info_max_steps(const State&) { return 33 + 3 * 4; }

// Room for every hand of a game to the documented cap of 100 hands.
int Research::info_max_hands(const State& fresh) { return fresh.rules().single_hand ? 1 : 100; }

void Research::info_step(const State& before, const State& after, int seat, int, Move m, bool own, float* out) {
  out[to_action(before, m)] = 1.0f;
  if (own && after.redeals() != before.redeals()) info_hand(after, seat, out + kActions);
}

// A hand: 4 bids, a trump, 28 tiles. All-pass redeals and later hands make a
// full game longer: the documented cap is 100 hands.
int Research::max_game_length(const State& fresh) { return fresh.rules().single_hand ? 33 : 3300; }

// Chance nodes: the first-dealer draw (one tile per seat), then a deal of
// 28 per hand; all-pass redeals deal again and are not counted, as
// max_game_length counts none. Up to the cap of 100 hands.
int Research::max_chance_nodes(const State& fresh) { return 4 + kTiles * (fresh.rules().single_hand ? 1 : 100); }

}  // namespace boneyard::texas42

// Explicit chance. Chance actions are tile indices 0..27. Before the first
// hand, the first-dealer draw: one tile per seat, seat 0 first (they go
// back). Each hand's deal: 7 tiles per seat, seat 0 first.
namespace boneyard::texas42 {

namespace {
void outcomes_left(std::span<const uint8_t> seq, std::vector<Outcome>& out) {
  uint32_t used = 0;
  for (uint8_t t : seq) used |= uint32_t{1} << t;
  uint8_t tiles[kTiles];
  int n = 0;
  for (int i = 0; i < kTiles; ++i)
    if (!((used >> i) & 1)) tiles[n++] = static_cast<uint8_t>(i);
  uniform_outcomes(tiles, n, out);
}
}  // namespace

int Research::max_chance_outcomes(const State&) { return kTiles; }

void Research::chance_outcomes(const State&, std::span<const uint8_t> seq, std::vector<Outcome>& out) {
  outcomes_left(seq, out);
}

bool Research::chance_finish(State& s, std::span<const uint8_t> seq) {
  if (s.phase() == Phase::DealerDraw) {
    if (seq.size() < static_cast<size_t>(kSeats)) return false;
    Tile drawn[kSeats];
    for (int p = 0; p < kSeats; ++p) drawn[p] = Tile{seq[static_cast<size_t>(p)]};
    s.draw_for_dealer(drawn);
    return true;
  }
  if (seq.size() < static_cast<size_t>(kSeats * 7)) return false;
  uint32_t hands[kSeats] = {};
  for (int p = 0; p < kSeats; ++p)
    for (int i = 0; i < 7; ++i) hands[p] |= uint32_t{1} << seq[static_cast<size_t>(p * 7 + i)];
  s.deal(hands);
  return true;
}

uint32_t Research::stock_draws(const State&) { return 0; }  // nothing is drawn in play

void Research::draw_outcomes(const State&, int, std::vector<Outcome>& out) { out.clear(); }

void Research::put_next_draw(State&, int, int) { throw Error("Texas 42 has no boneyard to draw from"); }

std::string Research::chance_action_text(int action) { return to_string(Tile{static_cast<uint8_t>(action)}); }

int Research::chance_action_of(const State&, std::string_view text) { return parse_tile(text, 6).index; }

const char* Research::chance_event(const State& s) { return s.phase() == Phase::DealerDraw ? "dealer_draw" : "deal"; }

}  // namespace boneyard::texas42

namespace boneyard::texas42 {
std::string Research::hand_text(const State& s, int seat) { return to_string(SmallSet{{s.hand(seat)}}); }
}  // namespace boneyard::texas42

namespace boneyard::texas42 {
void Research::hand_points(const State& s, std::vector<double>& out) {
  out.assign({static_cast<double>(s.last_result().gained[0]), static_cast<double>(s.last_result().gained[1])});
}
}  // namespace boneyard::texas42
