#include "dice_dominoes/research.h"

#include <fmt/format.h>

namespace boneyard::dice_dominoes {

namespace {
// Actions: lay faces (a, b) = a*29 + b, b = 28 for a single tile; reroll
// 812; keep 813.
constexpr int kLays = kFaces * (kFaces + 1);
constexpr int kActions = kLays + 2;
int obs_size(const State& s) {
  const int S = s.num_seats();
  return kFaces + 2 * S * kFaces + 6 * S + 12 + 5 + 4;
}
}  // namespace

int Research::num_actions(const State&) { return kActions; }

int Research::to_action(const State&, Move m) {
  switch (m.kind) {
    case Move::Lay:
      return m.first * (kFaces + 1) + (m.second == kNone ? kFaces : m.second);
    case Move::Reroll:
      return kLays;
    case Move::Keep:
      return kLays + 1;
  }
  return 0;
}

Move Research::from_action(const State&, int a) {
  if (a < 0 || a >= kActions) throw Error(fmt::format("action {} is outside 0..{}", a, kActions - 1));
  if (a == kLays) return {Move::Reroll, 0, kNone};
  if (a == kLays + 1) return {Move::Keep, 0, kNone};
  const int b = a % (kFaces + 1);
  return {Move::Lay, static_cast<uint8_t>(a / (kFaces + 1)), b == kFaces ? kNone : static_cast<uint8_t>(b)};
}

std::vector<int> Research::observation_shape(const State& fresh) { return {obs_size(fresh)}; }

// own hand: copies per face /2 (28) | per seat (relative): publicly known
// tiles 28, discards 28 | per seat: hand count /7, balance /(10 ante), best
// special /3, submitted, still to submit, is the roller | dice 2x6 one-hot
// | phase 5 | pot /(10 ante), round /10, boneyard /56, unused /56.
void Research::observation(const State& full, int seat, float* out) {
  const State s = full.masked_for(seat);
  const int S = s.num_seats();
  auto abs = [&](int k) { return (seat + k) % S; };
  const float ante10 = 10.0f * static_cast<float>(s.rules().ante);
  TensorWriter w{out};
  const uint64_t hand = s.hand(seat);
  for (int f = 0; f < kFaces; ++f) w.value(static_cast<float>(pile::copies(hand, f)) / 2.0f);
  for (int k = 0; k < S; ++k) {
    const uint64_t kn = s.known(abs(k)), d = s.discards(abs(k));
    for (int f = 0; f < kFaces; ++f) w.value(static_cast<float>(pile::copies(kn, f)) / 2.0f);
    for (int f = 0; f < kFaces; ++f) w.value(static_cast<float>(pile::copies(d, f)) / 2.0f);
  }
  const Actor a = s.actor();
  for (int k = 0; k < S; ++k) {
    const int x = abs(k);
    w.value(static_cast<float>(s.hand_count(x)) / 7.0f);
    w.value(static_cast<float>(s.balance(x)) / ante10);
    w.value(static_cast<float>(s.best_special(x)) / 3.0f);
    w.value(s.submitted(x) ? 1.0f : 0.0f);
    w.value(a.acts(x) ? 1.0f : 0.0f);
    w.value(s.roller() == x ? 1.0f : 0.0f);
  }
  w.one_hot(6, s.die(0) - 1);
  w.one_hot(6, s.die(1) - 1);
  w.one_hot(5, static_cast<int>(s.phase()));
  w.value(static_cast<float>(s.pot()) / ante10);
  w.value(static_cast<float>(s.round()) / 10.0f);
  w.value(static_cast<float>(s.boneyard()) / 56.0f);
  w.value(static_cast<float>(s.unused()) / 56.0f);
}

// Perfect recall (docs/python.md, Tensors): the seat's tiles at the hand's
// first step (copies per face /2, 28), then per step the actor (written by
// the caller) and kind one-hot 3 (lay, reroll, keep) | two tiles laid | the
// faces laid, first and second 2 x 28 (the seat's own lays only: another
// seat's are face down) | the dice before the step 2 x 6 | once its round
// is resolved, the actor's part of it: the tiles turned up, in the order
// the round's text lists them, 2 x 28, each stood 2, went back 2, drew,
// went out | the seat's own
// hand after the step (copies /2, 28; its own steps only). Room for 20
// rounds of S lays and a reroll choice (random play: 65 steps at most in
// 1,500 hands); later steps are left out.
namespace {
constexpr int kStep = 3 + 1 + 2 * kFaces + 12 + 2 * kFaces + 2 + 2 + 2 + kFaces;
}

int Research::info_hand_size(const State&) { return kFaces; }

void Research::info_hand(const State& s, int seat, float* out) {
  const uint64_t hand = s.hand(seat);
  for (int f = 0; f < kFaces; ++f) out[f] = static_cast<float>(pile::copies(hand, f)) / 2.0f;
}

int Research::info_step_size(const State&) { return kStep; }

int Research::info_max_steps(const State& fresh) { return 20 * (fresh.num_seats() + 1); }

// Every hand of the session.
int Research::info_max_hands(const State& fresh) { return fresh.rules().single_hand ? 1 : fresh.rules().hands; }

void Research::info_step(const State& before, const State& after, int seat, int actor, Move m, bool own, float* out) {
  TensorWriter w{out};
  w.one_hot(3, static_cast<int>(m.kind));
  const bool mine = own && actor == seat;
  w.value(m.kind == Move::Lay && m.second != kNone ? 1.0f : 0.0f);
  w.one_hot(kFaces, m.kind == Move::Lay && mine ? m.first : -1);
  w.one_hot(kFaces, m.kind == Move::Lay && mine && m.second != kNone ? m.second : -1);
  w.one_hot(6, before.die(0) - 1);
  w.one_hot(6, before.die(1) - 1);
  const RoundRecord& r = after.last_round();
  const bool resolved = m.kind == Move::Lay && r.number == before.round() && r.number > 0;
  const SeatRound& x = r.seat[actor];
  // The tiles turned up, in the order the round's text lists them (a tile
  // left face down leaves no gap: its place is not public).
  int shown[2] = {-1, -1}, stood[2] = {0, 0}, k = 0;
  for (int i = 0; resolved && i < x.n_laid && i < 2; ++i)
    if ((x.revealed >> i) & 1) {
      shown[k] = x.laid[i];
      stood[k++] = (x.stood >> i) & 1;
    }
  for (int i = 0; i < 2; ++i) w.one_hot(kFaces, shown[i]);
  for (int i = 0; i < 2; ++i) w.value(shown[i] >= 0 && stood[i] ? 1.0f : 0.0f);
  for (int i = 0; i < 2; ++i) w.value(shown[i] >= 0 && !stood[i] ? 1.0f : 0.0f);
  w.value(resolved && x.drew ? 1.0f : 0.0f);
  w.value(resolved && x.out ? 1.0f : 0.0f);
  if (mine)
    info_hand(after, seat, w.p);
  else
    w.zeros(kFaces);
}

// Not a hard bound (rounds repeat until someone goes out): 50 rounds of S
// submissions and a reroll choice per hand.
int Research::max_game_length(const State& fresh) { return fresh.rules().hands * 50 * (fresh.num_seats() + 1); }

// Chance nodes in a hand: the deal (4 tiles a player), then per round (50,
// as max_game_length) two rolls of two dice and a draw per player.
int Research::max_chance_nodes(const State& fresh) {
  const int S = fresh.num_seats();
  return (fresh.rules().single_hand ? 1 : fresh.rules().hands) * (4 * S + 50 * (4 + S));
}

}  // namespace boneyard::dice_dominoes

// Explicit chance. Chance actions: a tile's face 0..27 (a tile index of the
// double-six set; with two sets a face has two copies, and its probability
// is its copies left over the tiles left), and a die showing d is 27 + d
// (28..33). Each hand's deal: 4 tiles per player, seat 0 first. Each roll:
// the first die, then the second (1/6 each). The tiles drawn after a round
// are chance nodes when they are drawn, one per drawing player, in the order
// the rules draw them.
namespace boneyard::dice_dominoes {

namespace {
constexpr int kDie0 = kFaces - 1;  // die d is kDie0 + d
}

int Research::max_chance_outcomes(const State&) { return kFaces + 6; }

void Research::chance_outcomes(const State& s, std::span<const uint8_t> seq, std::vector<Outcome>& out) {
  out.clear();
  if (s.phase() == Phase::Roll) {
    for (int d = 1; d <= 6; ++d) out.push_back({kDie0 + d, 1.0 / 6.0});
    return;
  }
  int left[kFaces];
  std::fill(left, left + kFaces, s.rules().sets);
  for (uint8_t f : seq) --left[f];
  uint8_t tiles[kMaxTiles];
  int n = 0;
  for (int f = 0; f < kFaces; ++f)
    for (int c = 0; c < left[f]; ++c) tiles[n++] = static_cast<uint8_t>(f);
  uniform_outcomes(tiles, n, out);
}

bool Research::chance_finish(State& s, std::span<const uint8_t> seq) {
  if (s.phase() == Phase::Roll) {
    if (seq.size() < 2) return false;
    s.roll(seq[0] - kDie0, seq[1] - kDie0);
    return true;
  }
  const int n = s.rules().players;
  if (seq.size() < static_cast<size_t>(4 * n)) return false;
  uint64_t hands[kMaxSeats] = {};
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < 4; ++i) pile::add(hands[p], seq[static_cast<size_t>(p * 4 + i)]);
  s.deal(hands, nullptr, -1);
  return true;
}

uint32_t Research::stock_draws(const State& s) { return s.draws_made(); }

void Research::draw_outcomes(const State& s, int k, std::vector<Outcome>& out) {
  uint8_t tiles[kMaxTiles];
  int n = 0;
  for (int i = s.stock_drawn() + k; i < s.stock_size(); ++i) tiles[n++] = s.stock_tile(i);
  uniform_outcomes(tiles, n, out);
}

void Research::put_next_draw(State& s, int k, int action) {
  if (action < 0 || action >= kFaces)
    throw Error(fmt::format("chance action {} is not a tile's face (0..{})", action, kFaces - 1));
  s.put_next_draw(k, action);
}

std::string Research::chance_action_text(int action) {
  if (action > kDie0 && action <= kDie0 + 6) return fmt::format("die {}", action - kDie0);
  return to_string(Tile{static_cast<uint8_t>(action)});
}

int Research::chance_action_of(const State&, std::string_view text) {
  if (text.size() == 5 && text.substr(0, 4) == "die " && text[4] >= '1' && text[4] <= '6')
    return kDie0 + (text[4] - '0');
  return parse_tile(text, 6).index;
}

const char* Research::chance_event(const State& s) { return s.phase() == Phase::Roll ? "roll" : "deal"; }

}  // namespace boneyard::dice_dominoes

namespace boneyard::dice_dominoes {

namespace {
std::string face_text(uint8_t f) { return f == kNone ? "?" : to_string(Tile{f}); }
}  // namespace

std::string Research::hand_text(const State& s, int seat) {
  std::string out;
  const uint64_t p = s.hand(seat);
  for (int f = kFaces - 1; f >= 0; --f)
    for (int c = 0; c < pile::copies(p, f); ++c) out += (out.empty() ? "" : " ") + face_text(static_cast<uint8_t>(f));
  return out;
}

// A laid pair is face down: the others see how many tiles, not which.
std::string Research::public_move_text(const State&, int, Move m) {
  if (m.kind == Move::Lay) return m.second == kNone ? "lay 1" : "lay 2";
  return m.kind == Move::Reroll ? "reroll" : "keep";
}

// Only the revealed tiles are named; a face-down tile stays hidden.
std::string Research::public_round_text(const State& s) {
  const RoundRecord& r = s.last_round();
  std::string out = fmt::format("round {} dice {} {}{}", r.number, r.dice[0], r.dice[1], r.kept_dice ? " kept" : "");
  for (int k = 0; k < s.num_seats(); ++k) {
    const SeatRound& x = r.seat[k];
    out += fmt::format("; s{} laid {}", k, x.n_laid);
    for (int i = 0; i < x.n_laid; ++i)
      if ((x.revealed >> i) & 1)
        out += fmt::format(" shown {}{}", face_text(x.laid[i]), ((x.stood >> i) & 1) ? " stood" : " back");
    if (x.drew) out += " drew";
    if (x.out) out += " out";
  }
  return out;
}

}  // namespace boneyard::dice_dominoes

namespace boneyard::dice_dominoes {
void Research::hand_points(const State& s, std::vector<double>& out) {
  out.clear();
  for (int k = 0; k < s.num_seats(); ++k) out.push_back(s.last_result().net[k]);
}
}  // namespace boneyard::dice_dominoes
