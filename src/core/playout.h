#pragma once
// Uniformly random playouts over a concrete game: the engine's speed test.
#include <chrono>
#include <ctime>

#include "core/game.h"

namespace boneyard {

// A state may offer `apply_random(seat, rng)`: the move that
// `legal_moves(seat)[rng.below(size)]` would pick, applied without listing
// the moves (same move, same draws from `rng`), for speed.
template <class G>
concept HasApplyRandom = requires(typename G::State& s, Rng& rng) {
  s.apply_random(0, rng);
};

template <class G>
void apply_random_move(typename G::State& s, int seat, Rng& rng, MoveList<typename G::Move, G::kMaxMoves>& l) {
  if constexpr (HasApplyRandom<G>) {
    s.apply_random(seat, rng);
  } else {
    s.legal_moves(seat, l);
    s.apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
  }
}

// Plays random moves (and the state's own chance) from `s` until a hand
// ends or the game is over. Returns the number of moves made.
template <class G>
int play_random_hand(typename G::State& s, Rng& rng) {
  MoveList<typename G::Move, G::kMaxMoves> l;
  const int hands = s.hands_finished();
  int moves = 0;
  while (!s.terminal() && s.hands_finished() == hands) {
    const Actor a = s.actor();
    if (a.kind == Actor::Seat) {  // the common case first
      apply_random_move<G>(s, a.seat, rng, l);
      ++moves;
      continue;
    }
    if (a.kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    for (int seat = 0; seat < s.num_seats(); ++seat) {
      if (!a.acts(seat)) continue;
      apply_random_move<G>(s, seat, rng, l);
      ++moves;
    }
  }
  return moves;
}

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

template <class G>
BenchResult bench_random_playouts(const typename G::State& fresh, uint64_t seed, double seconds) {
  using Clock = std::chrono::steady_clock;
  BenchResult r;
  const double cpu0 = thread_cpu_seconds();
  r.state_bytes = sizeof(typename G::State);
  Rng rng(seed);
  typename G::State s = fresh;
  s.reseed(rng.next());
  const auto start = Clock::now();
  for (;;) {
    for (int k = 0; k < 256; ++k) {
      if (s.terminal()) {
        s = fresh;
        s.reseed(rng.next());
      }
      r.moves += static_cast<uint64_t>(play_random_hand<G>(s, rng));
      ++r.hands;
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (r.seconds >= seconds) break;
  }
  r.cpu_seconds = thread_cpu_seconds() - cpu0;
  return r;
}

}  // namespace boneyard
