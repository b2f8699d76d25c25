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
    case Move::Lead:
      return m.arg;
    case Move::Left:
      return T + m.arg;
    case Move::Right:
      return 2 * T + m.arg;
    case Move::Pass:
      return 3 * T;
    case Move::Draw:
      return 3 * T + 1;
    case Move::Redeal:
      return 3 * T + 2;
    case Move::Keep:
      return 3 * T + 3;
    case Move::Leader:
      return 3 * T + 4 + m.arg;
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
    case 0:
      return {Move::Pass, 0};
    case 1:
      return {Move::Draw, 0};
    case 2:
      return {Move::Redeal, 0};
    case 3:
      return {Move::Keep, 0};
    default:
      return {Move::Leader, u(a - 3 * T - 4)};
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

// Perfect recall (docs/python.md, Tensors): the seat's tiles at the hand's
// first step T, then per step the actor (written by the caller) and
// kind one-hot 8 (lead, left, right, pass, draw, redeal, keep, leader) | T:
// the tile laid, the leader chosen (its seat), the tile the seat drew
// itself, or its hand after a redeal or keep (another seat's draw
// shows as the kind only).
int Research::info_hand_size(const State& fresh) { return tiles(fresh); }

void Research::info_hand(const State& s, int seat, float* out) {
  const uint64_t hand = s.hand(seat).w[0];
  TensorWriter{out}.bits(tiles(s), [&](int i) { return (hand >> i) & 1; });
}

int Research::info_step_size(const State& fresh) { return 8 + tiles(fresh); }

// The hand's bound (max_game_length of one hand).
int Research::info_max_steps(const State& fresh) {
  const int T = tiles(fresh), S = fresh.num_seats();
  return 2 * T + S * (T + 1) + 8;
}

// Room for every hand of a game to the documented cap of 100 hands.
int Research::info_max_hands(const State& fresh) { return fresh.rules().single_hand ? 1 : 100; }

void Research::info_step(const State& before, const State& after, int seat, int actor, Move m, bool own, float* out) {
  const int T = tiles(before);
  out[static_cast<int>(m.kind)] = 1.0f;
  float* t = out + 8;
  switch (m.kind) {
    case Move::Lead:
    case Move::Left:
    case Move::Right:
    case Move::Leader:
      t[m.arg] = 1.0f;
      break;
    case Move::Draw:
      if (own && actor == seat) {
        const uint64_t got = after.hand(seat).w[0] & ~before.hand(seat).w[0];
        for (int i = 0; i < T; ++i) t[i] = static_cast<float>((got >> i) & 1);
      }
      break;
    case Move::Redeal:
    case Move::Keep:
      if (own) info_hand(after, seat, t);
      break;
    case Move::Pass:
      break;
  }
}

// A hand: at most T placements, T draws, and S passes around each placement;
// a full game is bounded by the documented cap of 100 hands.
int Research::max_game_length(const State& fresh) {
  const int T = tiles(fresh), S = fresh.num_seats();
  const int hand = 2 * T + S * (T + 1) + 8;
  return fresh.rules().single_hand ? hand : 100 * hand;
}

// Chance nodes in a hand: for first_leader=draw_before_deal one tile per
// seat (they go back), then each tile of the set at most once (dealt, drawn
// for the lead, drawn from the stock); a redeal (five doubles) deals again
// and is not counted, as max_game_length counts none. Up to the cap of 100
// hands.
int Research::max_chance_nodes(const State& fresh) {
  const int hand = tiles(fresh) + fresh.num_seats();
  return fresh.rules().single_hand ? hand : 100 * hand;
}

}  // namespace boneyard::line

// Explicit chance. Chance actions are tile indices 0..T-1. One deal is, in
// order: for first_leader=draw_before_deal (when the lead is drawn for), one
// tile per seat from the whole set (they go back); the hands, seat 0 first,
// hand_size tiles each; for draw_after_deal, the tiles drawn for the lead
// from the undealt tiles (and a cut-down set's removed doubles), one per seat
// still in, with redraws for ties as the rules say. The stock's order is not
// chosen at the deal: each draw from it is a chance node when it happens.
namespace boneyard::line {

namespace {
bool lead_before(const State& s) {
  return s.deals_leader_by_draw() && s.rules().first_leader == FirstLeader::DrawBeforeDeal;
}
bool lead_after(const State& s) {
  return s.deals_leader_by_draw() && s.rules().first_leader == FirstLeader::DrawAfterDeal;
}
bool beats_tile(Tile a, Tile b) { return a.pips() != b.pips() ? a.pips() > b.pips() : a.high() > b.high(); }

// State::draw_leader over the tiles drawn so far: the leader, or -1 when
// more tiles must be drawn.
int lead_of(std::span<const uint8_t> seq, int seats, bool redraws, int pool_n) {
  unsigned in = (1u << seats) - 1;
  size_t next = 0;
  int drawn[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  for (;;) {
    int best_pips = -1;
    for (int s = 0; s < seats; ++s) {
      if (!((in >> s) & 1)) continue;
      if (next >= seq.size()) return -1;
      drawn[s] = seq[next++];
      best_pips = std::max(best_pips, Tile{static_cast<uint8_t>(drawn[s])}.pips());
    }
    unsigned tied = 0;
    for (int s = 0; s < seats; ++s)
      if (((in >> s) & 1) && Tile{static_cast<uint8_t>(drawn[s])}.pips() == best_pips) tied |= 1u << s;
    const int nt = std::popcount(tied);
    if (!(redraws && nt > 1 && static_cast<int>(next) + nt <= pool_n)) {
      int best = -1;
      for (int s = 0; s < seats; ++s)
        if ((tied >> s) & 1)
          if (best < 0 || beats_tile(Tile{static_cast<uint8_t>(drawn[s])}, Tile{static_cast<uint8_t>(drawn[best])}))
            best = s;
      return best;
    }
    in = tied;
  }
}

uint64_t mask_of(std::span<const uint8_t> seq) {
  uint64_t m = 0;
  for (uint8_t t : seq) m |= uint64_t{1} << t;
  return m;
}

void outcomes_of_mask(uint64_t m, std::vector<Outcome>& out) {
  uint8_t tiles[64];
  int n = 0;
  for (; m; m &= m - 1) tiles[n++] = static_cast<uint8_t>(std::countr_zero(m));
  uniform_outcomes(tiles, n, out);
}

// The pool the lead is drawn from after the deal, given the hands.
uint64_t after_pool(const State& s, uint64_t dealt) {
  const uint64_t set = s.set_tiles().w[0];
  return (set & ~dealt) | (s.rules().max_pip() == 6 ? ~set & ((uint64_t{1} << 28) - 1) : 0);
}
}  // namespace

int Research::max_chance_outcomes(const State& fresh) { return tiles(fresh); }

void Research::chance_outcomes(const State& s, std::span<const uint8_t> seq, std::vector<Outcome>& out) {
  const uint64_t set = s.set_tiles().w[0];
  const int seats = s.num_seats(), deal_n = seats * s.rules().hand_size;
  size_t i = 0;
  if (lead_before(s)) {
    if (seq.size() < static_cast<size_t>(seats)) return outcomes_of_mask(set & ~mask_of(seq), out);
    i = static_cast<size_t>(seats);
  }
  const auto hands = seq.subspan(i, std::min(seq.size() - i, static_cast<size_t>(deal_n)));
  if (hands.size() < static_cast<size_t>(deal_n)) return outcomes_of_mask(set & ~mask_of(hands), out);
  outcomes_of_mask(after_pool(s, mask_of(hands)) & ~mask_of(seq.subspan(i + static_cast<size_t>(deal_n))), out);
}

bool Research::chance_finish(State& s, std::span<const uint8_t> seq) {
  const int seats = s.num_seats(), hs = s.rules().hand_size, deal_n = seats * hs;
  size_t i = 0;
  int leader = -1;
  if (lead_before(s)) {
    if (seq.size() < static_cast<size_t>(seats)) return false;
    leader = lead_of(seq.first(static_cast<size_t>(seats)), seats, false, seats);
    i = static_cast<size_t>(seats);
  }
  if (seq.size() < i + static_cast<size_t>(deal_n)) return false;
  SmallSet hands[kMaxSeats];
  for (int p = 0; p < seats; ++p)
    hands[p] = SmallSet{{mask_of(seq.subspan(i + static_cast<size_t>(p * hs), static_cast<size_t>(hs)))}};
  uint64_t lead_drawn = 0;
  if (lead_after(s)) {
    const auto drawn = seq.subspan(i + static_cast<size_t>(deal_n));
    const int pool_n = std::popcount(after_pool(s, mask_of(seq.subspan(i, static_cast<size_t>(deal_n)))));
    leader = lead_of(drawn, seats, true, pool_n);
    if (leader < 0) return false;
    lead_drawn = mask_of(drawn);
  }
  s.deal(hands, nullptr, -1, leader, lead_drawn);
  return true;
}

uint32_t Research::stock_draws(const State& s) { return static_cast<uint32_t>(s.stock_drawn()); }

void Research::draw_outcomes(const State& s, int k, std::vector<Outcome>& out) {
  // The drawable tiles not yet drawn (never the sleeping ones), uniformly.
  uint8_t tiles[64];
  int n = 0;
  for (int j = k; j < s.stock_left(); ++j) tiles[n++] = s.stock_at(j).index;
  uniform_outcomes(tiles, n, out);
}

void Research::put_next_draw(State& s, int k, int action) {
  if (action < 0 || action >= tiles(s))
    throw Error(fmt::format("chance action {} is outside 0..{}", action, tiles(s) - 1));
  s.put_next_draw(k, Tile{static_cast<uint8_t>(action)});
}

std::string Research::chance_action_text(int action) { return to_string(Tile{static_cast<uint8_t>(action)}); }

int Research::chance_action_of(const State& s, std::string_view text) {
  return parse_tile(text, s.rules().max_pip()).index;
}

const char* Research::chance_event(const State&) { return "deal"; }

}  // namespace boneyard::line

namespace boneyard::line {
std::string Research::hand_text(const State& s, int seat) { return to_string(s.hand(seat)); }
}  // namespace boneyard::line

namespace boneyard::line {
void Research::hand_points(const State& s, std::vector<double>& out) {
  out.clear();
  for (int sd = 0; sd < s.num_sides(); ++sd) out.push_back(s.last_result().total[sd]);
}
}  // namespace boneyard::line
