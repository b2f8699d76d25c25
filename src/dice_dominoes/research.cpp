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
    case Move::Lay: return m.first * (kFaces + 1) + (m.second == kNone ? kFaces : m.second);
    case Move::Reroll: return kLays;
    case Move::Keep: return kLays + 1;
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

// The state keeps the hand's public facts (known tiles, discards, specials):
// the information state tensor is the observation.
std::vector<int> Research::info_state_shape(const State& fresh) { return {obs_size(fresh)}; }

void Research::info_state(const State& s, int seat, std::span<const Step<Move>>, float* out) {
  observation(s, seat, out);
}

// Not a hard bound (rounds repeat until someone goes out): 50 rounds of S
// submissions and a reroll choice per hand.
int Research::max_game_length(const State& fresh) {
  return fresh.rules().hands * 50 * (fresh.num_seats() + 1);
}

}  // namespace boneyard::dice_dominoes
