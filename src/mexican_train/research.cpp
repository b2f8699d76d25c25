#include "mexican_train/research.h"

#include <fmt/format.h>

namespace boneyard::mexican_train {

namespace {
// T tiles, S seats, S+1 trains (the seats' relative to the observer, then
// the Mexican train), P numbers.
int tiles(const State& s) { return s.rules().tiles_in_set(); }
int pips(const State& s) { return s.rules().max_pip() + 1; }
int obs_size(const State& s) {
  const int T = tiles(s), P = pips(s), S = s.num_seats();
  return 2 * T + (S + 1) * (P + 2) + S + S + S + S * P + P + 4 + 5;
}
}  // namespace

// Actions: lay tile t on train k = t*(S+1) + k (k: seat 0..S-1, S the Mexican
// train); then draw, pass, end the opening.
int Research::num_actions(const State& fresh) { return tiles(fresh) * (fresh.num_seats() + 1) + 3; }

int Research::to_action(const State& s, Move m) {
  const int S = s.num_seats(), base = tiles(s) * (S + 1);
  switch (m.kind) {
    case Move::Lay:
      return m.tile * (S + 1) + (m.train == kMexican ? S : m.train);
    case Move::Draw:
      return base;
    case Move::Pass:
      return base + 1;
    case Move::EndOpening:
      return base + 2;
  }
  return 0;
}

Move Research::from_action(const State& s, int a) {
  const int S = s.num_seats(), base = tiles(s) * (S + 1);
  if (a < 0 || a >= base + 3) throw Error(fmt::format("action {} is outside 0..{}", a, base + 2));
  if (a == base) return {Move::Draw, 0, 0};
  if (a == base + 1) return {Move::Pass, 0, 0};
  if (a == base + 2) return {Move::EndOpening, 0, 0};
  const int k = a % (S + 1);
  return {Move::Lay, static_cast<uint8_t>(a / (S + 1)), static_cast<uint8_t>(k == S ? kMexican : k)};
}

std::vector<int> Research::observation_shape(const State& fresh) { return {obs_size(fresh)}; }

// hand T | table T | per train (seats relative, then Mexican): open end
// one-hot P, length /T, marked | hand counts S (/T) | scores S (/100) | to
// move S | numbers proven void S x P | engine number P | phase 4 | stock /T,
// open doubles /4, drew this turn, owes a cover, round / rounds.
void Research::observation(const State& full, int seat, float* out) {
  const State s = full.masked_for(seat);
  const int T = tiles(s), P = pips(s), S = s.num_seats();
  auto abs = [&](int k) { return (seat + k) % S; };
  TensorWriter w{out};
  const TileSet hand = s.hand(seat), table = s.table();
  w.bits(T, [&](int i) { return hand.has(Tile{static_cast<uint8_t>(i)}); });
  w.bits(T, [&](int i) { return table.has(Tile{static_cast<uint8_t>(i)}); });
  for (int k = 0; k <= S; ++k) {
    const int train = k == S ? kMexican : abs(k);
    w.one_hot(P, s.phase() == Phase::Deal ? -1 : s.train_end(train));
    w.value(static_cast<float>(s.train_length(train)) / static_cast<float>(T));
    w.value(train != kMexican && s.marked(train) ? 1.0f : 0.0f);
  }
  for (int k = 0; k < S; ++k) w.value(static_cast<float>(s.hand_count(abs(k))) / static_cast<float>(T));
  for (int k = 0; k < S; ++k) w.value(static_cast<float>(s.score(abs(k))) / 100.0f);
  const Actor a = s.actor();
  w.one_hot(S, a.kind == Actor::Seat ? (a.seat - seat + S) % S : -1);
  for (int k = 0; k < S; ++k) {
    const uint32_t v = s.known_void(abs(k));
    w.bits(P, [&](int i) { return (v >> i) & 1; });
  }
  w.one_hot(P, s.phase() == Phase::Deal ? -1 : s.engine().high());
  w.one_hot(4, static_cast<int>(s.phase()));
  w.value(static_cast<float>(s.stock_left()) / static_cast<float>(T));
  w.value(static_cast<float>(s.open_doubles()) / 4.0f);
  w.value(s.drew_this_turn() ? 1.0f : 0.0f);
  w.value(s.owes_cover() ? 1.0f : 0.0f);
  w.value(static_cast<float>(s.round_number()) / static_cast<float>(s.rules().total_rounds()));
}

// Perfect recall (docs/python.md, Tensors): the seat's tiles at the round's
// first step T, then per step the actor (written by the caller) and kind
// one-hot 4 (lay, draw, pass, end the opening) | the tile's high and low
// numbers P + P (the tile laid, or the tile the seat drew itself; another
// seat's draw shows as the kind only) | the train laid on S + 1 (the seats'
// relative to the observer, then the Mexican train).
int Research::info_hand_size(const State& fresh) { return tiles(fresh); }

void Research::info_hand(const State& s, int seat, float* out) {
  const TileSet hand = s.hand(seat);
  TensorWriter{out}.bits(tiles(s), [&](int i) { return hand.has(Tile{static_cast<uint8_t>(i)}); });
}

int Research::info_step_size(const State& fresh) { return 4 + 2 * pips(fresh) + fresh.num_seats() + 1; }

int Research::info_max_steps(const State& fresh) { return 3 * tiles(fresh) + 4 * fresh.num_seats(); }

// Every round of the game.
int Research::info_max_hands(const State& fresh) { return fresh.rules().total_rounds(); }

void Research::info_step(const State& before, const State& after, int seat, int actor, Move m, bool own, float* out) {
  const int P = pips(before), S = before.num_seats();
  out[static_cast<int>(m.kind)] = 1.0f;
  auto tile = [&](Tile t) {
    out[4 + t.high()] = 1.0f;
    out[4 + P + t.low()] = 1.0f;
  };
  if (m.kind == Move::Lay) {
    tile(m.t());
    out[4 + 2 * P + (m.train == kMexican ? S : (m.train - seat + S) % S)] = 1.0f;
  } else if (m.kind == Move::Draw && own && actor == seat) {
    const TileSet got = after.hand(seat) & ~before.hand(seat);
    got.for_each(tile);  // one tile per draw
  }
}

// A round: each tile laid or drawn once, a pass per turn without a tile.
int Research::max_game_length(const State& fresh) {
  const int T = tiles(fresh), S = fresh.num_seats();
  return fresh.rules().total_rounds() * (3 * T + 4 * S);
}

// Chance nodes in a round: each tile of the set at most once (dealt, drawn
// looking for the engine, drawn from the boneyard).
int Research::max_chance_nodes(const State& fresh) { return fresh.rules().total_rounds() * tiles(fresh); }

}  // namespace boneyard::mexican_train

// Explicit chance. Chance actions are tile indices 0..T-1. One deal is, in
// order: the hands, seat 0 first, hand_size tiles each, from the set (less
// this round's engine for round_doubles); then, for engine=highest_in_hand
// when the start player holds no double, the tiles they draw looking for one,
// one at a time, until a double comes (if the boneyard runs out, the next
// player in turn, and so on). Every later draw is a chance node when it
// happens.
namespace boneyard::mexican_train {

namespace {
TileSet deal_pool(const State& s) {
  TileSet pool = s.set_tiles();
  if (s.rules().engine == Engine::RoundDoubles) pool.remove(s.engine());
  return pool;
}

void outcomes_of_set(const TileSet& set, std::vector<Outcome>& out) {
  std::vector<uint8_t> tiles;
  set.for_each([&](Tile t) { tiles.push_back(t.index); });
  uniform_outcomes(tiles.data(), static_cast<int>(tiles.size()), out);
}

// After the hands: whether the engine search (after_deal) ends within the
// tiles drawn so far, given what is left in the boneyard.
bool engine_found(const State& s, const TileSet* hands, std::span<const uint8_t> drawn, int left) {
  if (s.rules().engine != Engine::HighestInHand) return true;
  const int seats = s.num_seats();
  size_t next = 0;
  for (int k = 0; k < seats; ++k) {
    const int p = (s.start_seat() + k) % seats;
    bool has_double = false;
    hands[p].for_each([&](Tile t) { has_double = has_double || t.is_double(); });
    if (has_double) return true;
    for (; next < drawn.size(); ++next)
      if (Tile{drawn[next]}.is_double()) return true;
    if (left > 0) return false;  // this player draws on
  }
  return true;
}
}  // namespace

int Research::max_chance_outcomes(const State& fresh) { return tiles(fresh); }

void Research::chance_outcomes(const State& s, std::span<const uint8_t> seq, std::vector<Outcome>& out) {
  TileSet left = deal_pool(s);
  for (uint8_t t : seq) left.remove(Tile{t});
  outcomes_of_set(left, out);
}

bool Research::chance_finish(State& s, std::span<const uint8_t> seq) {
  const int seats = s.num_seats(), hs = s.rules().hand_size();
  const size_t deal_n = static_cast<size_t>(seats * hs);
  if (seq.size() < deal_n) return false;
  TileSet hands[kMaxSeats];
  TileSet left = deal_pool(s);
  for (int p = 0; p < seats; ++p)
    for (int i = 0; i < hs; ++i) hands[p].add(Tile{seq[static_cast<size_t>(p * hs + i)]});
  for (uint8_t t : seq) left.remove(Tile{t});
  const auto drawn = seq.subspan(deal_n);
  if (!engine_found(s, hands, drawn, left.size())) return false;
  // The boneyard in draw order: the tiles drawn for the engine first.
  std::vector<uint8_t> stock(drawn.begin(), drawn.end());
  left.for_each([&](Tile t) { stock.push_back(t.index); });
  s.deal(hands, stock.data(), static_cast<int>(stock.size()));
  return true;
}

uint32_t Research::stock_draws(const State& s) { return static_cast<uint32_t>(s.stock_drawn()); }

void Research::draw_outcomes(const State& s, int k, std::vector<Outcome>& out) {
  std::vector<uint8_t> tiles;
  for (int j = k; j < s.stock_left(); ++j) tiles.push_back(s.stock_at(j).index);
  uniform_outcomes(tiles.data(), static_cast<int>(tiles.size()), out);
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

}  // namespace boneyard::mexican_train

namespace boneyard::mexican_train {
std::string Research::hand_text(const State& s, int seat) { return to_string(s.hand(seat)); }
}  // namespace boneyard::mexican_train

namespace boneyard::mexican_train {
void Research::hand_points(const State& s, std::vector<double>& out) {
  out.clear();
  for (int k = 0; k < s.num_seats(); ++k) out.push_back(s.last_result().penalty[k]);
}
}  // namespace boneyard::mexican_train
