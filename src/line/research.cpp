#include "line/research.h"

#include <fmt/format.h>

namespace boneyard::line {

namespace {
int tiles(const State& s) { return set_size(s.rules().max_pip()); }  // index space T
int pips(const State& s) { return s.rules().max_pip() + 1; }         // numbers P
int obs_size(const State& s) {
  const int T = tiles(s), P = pips(s), S = s.num_seats(), D = s.num_sides();
  return 2 * T + 2 * P + S * T + 2 * S + D + 5 + 2;
}
}  // namespace

// Actions: lead t = t; left t = T + t; right t = 2T + t; pass 3T; draw 3T+1;
// redeal 3T+2; keep 3T+3; leader s = 3T+4+s.
int Research::num_actions(const State& fresh) { return 3 * tiles(fresh) + 8; }

int Research::to_action(const State& s, Move m) {
  const int T = tiles(s);
  switch (m.kind) {
    case Move::Lead: return m.arg;
    case Move::Left: return T + m.arg;
    case Move::Right: return 2 * T + m.arg;
    case Move::Pass: return 3 * T;
    case Move::Draw: return 3 * T + 1;
    case Move::Redeal: return 3 * T + 2;
    case Move::Keep: return 3 * T + 3;
    case Move::Leader: return 3 * T + 4 + m.arg;
  }
  return 0;
}

Move Research::from_action(const State& s, int a) {
  const int T = tiles(s);
  if (a < 0 || a >= 3 * T + 8) throw Error(fmt::format("action {} is outside 0..{}", a, 3 * T + 7));
  auto u = [](int x) { return static_cast<uint8_t>(x); };
  if (a < T) return {Move::Lead, u(a)};
  if (a < 2 * T) return {Move::Left, u(a - T)};
  if (a < 3 * T) return {Move::Right, u(a - 2 * T)};
  switch (a - 3 * T) {
    case 0: return {Move::Pass, 0};
    case 1: return {Move::Draw, 0};
    case 2: return {Move::Redeal, 0};
    case 3: return {Move::Keep, 0};
    default: return {Move::Leader, u(a - 3 * T - 4)};
  }
}

std::vector<int> Research::observation_shape(const State& fresh) { return {obs_size(fresh)}; }

void Research::observation(const State& full, int seat, float* out) {
  const State s = full.masked_for(seat);
  const int T = tiles(s), P = pips(s), S = s.num_seats(), D = s.num_sides();
  TensorWriter w{out};
  const uint64_t hand = s.hand(seat).w[0], played = s.played().w[0];
  w.bits(T, [&](int i) { return (hand >> i) & 1; });
  w.bits(T, [&](int i) { return (played >> i) & 1; });
  w.one_hot(P, s.left_end());
  w.one_hot(P, s.right_end());
  for (int k = 0; k < S; ++k) {  // seats relative to the observer
    const uint64_t nh = s.not_holding((seat + k) % S).w[0];
    w.bits(T, [&](int i) { return (nh >> i) & 1; });
  }
  for (int k = 0; k < S; ++k) w.value(static_cast<float>(s.hand_count((seat + k) % S)) / static_cast<float>(T));
  const Actor a = s.actor();
  w.one_hot(S, a.kind == Actor::Seat ? (a.seat - seat + S) % S : -1);
  const int my_side = s.side_of(seat);
  for (int k = 0; k < D; ++k)
    w.value(static_cast<float>(s.score((my_side + k) % D)) / static_cast<float>(s.rules().target));
  w.one_hot(5, static_cast<int>(s.phase()));
  w.value(static_cast<float>(s.stock_left()) / static_cast<float>(T));
  w.value(static_cast<float>(s.passes_in_row()) / static_cast<float>(S));
}

// The observation, then per seat (relative) the tiles it laid this hand, then
// per seat its passes and draws this hand (counts / T).
std::vector<int> Research::info_state_shape(const State& fresh) {
  const int T = tiles(fresh), S = fresh.num_seats();
  return {obs_size(fresh) + S * T + 2 * S};
}

void Research::info_state(const State& s, int seat, std::span<const Step<Move>> hand, float* out) {
  const int T = tiles(s), S = s.num_seats();
  observation(s, seat, out);
  float* laid = out + obs_size(s);
  float* counts = laid + S * T;
  std::fill(laid, counts + 2 * S, 0.0f);
  for (const auto& st : hand) {
    const int k = (st.seat - seat + S) % S;
    switch (st.move.kind) {
      case Move::Lead:
      case Move::Left:
      case Move::Right: laid[k * T + st.move.arg] = 1.0f; break;
      case Move::Pass: counts[2 * k] += 1.0f / static_cast<float>(T); break;
      case Move::Draw: counts[2 * k + 1] += 1.0f / static_cast<float>(T); break;
      default: break;
    }
  }
}

// A hand: at most T placements, T draws, and S passes around each placement;
// a full game is bounded by the documented cap of 100 hands.
int Research::max_game_length(const State& fresh) {
  const int T = tiles(fresh), S = fresh.num_seats();
  const int hand = 2 * T + S * (T + 1) + 8;
  return fresh.rules().single_hand ? hand : 100 * hand;
}

}  // namespace boneyard::line
