#pragma once
// Shared by the search bots: how long to think, and running workers on
// several threads, each with its own generator.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "core/game.h"

namespace boneyard {

// Stops a search after a time or after a number of steps, whichever the
// options name (a time wins: it is what a person asks for).
class Budget {
 public:
  using Clock = std::chrono::steady_clock;
  // With neither a time nor a count given, the bot's default count, cut
  // short after `default_cap_ms` if one is given.
  Budget(const BotOptions& o, int default_steps, double default_cap_ms = 0)
      : timed_(o.think_ms > 0),
        capped_(o.think_ms <= 0 && o.iterations <= 0 && default_cap_ms > 0),
        steps_(o.iterations > 0 ? o.iterations : default_steps),
        start_(Clock::now()),
        end_(start_ + std::chrono::microseconds(static_cast<int64_t>((timed_ ? o.think_ms : default_cap_ms) * 1000))) {}
  // Steps this worker should take when the work is split over `workers`.
  int share(int worker, int workers) const { return steps_ / workers + (worker < steps_ % workers ? 1 : 0); }
  // When a step under way should give up (time_point::max(): never).
  Clock::time_point deadline() const { return timed_ || capped_ ? end_ : Clock::time_point::max(); }
  // True when a worker that has taken `done` of its `share` steps should stop.
  // A time limit is a deadline: no step starts that, taking as long as the
  // steps so far did on average, would end after it. There is always at
  // least one step, so there is always an answer.
  // `since`: when the steps began, if work before them (a pool of deals)
  // should not count as their cost.
  bool over(int done, int share, Clock::time_point since = {}) const {
    if (!timed_ && done >= share) return true;
    if (!(timed_ || capped_) || done == 0) return false;
    const auto now = Clock::now();
    return now + (now - std::max(since, start_)) / done >= end_;
  }
  bool timed() const { return timed_; }
  // True when a time limit has used more than `fraction` of its time
  // (never without one).
  bool past(double fraction) const {
    if (!(timed_ || capped_)) return false;
    return Clock::now() - start_ >= std::chrono::duration_cast<Clock::duration>((end_ - start_) * fraction);
  }

 private:
  bool timed_, capped_;
  int steps_;
  Clock::time_point start_, end_;
};

// Runs work(worker) for worker = 0..threads-1, in parallel when threads > 1.
inline void run_workers(int threads, const std::function<void(int)>& work) {
  threads = std::max(1, threads);
  if (threads == 1) return work(0);
#ifdef __EMSCRIPTEN__
  // The WebAssembly build has no threads (cmake/wasm.cmake): the workers run
  // one after another. Each has its own generator and share of the steps, so
  // a fixed number of iterations gives the move the native threads give; a
  // time limit is mostly spent by worker 0 (the others see the deadline
  // passed and stop after their first step).
  for (int w = 0; w < threads; ++w) work(w);
  return;
#endif
  std::vector<std::thread> pool;
  for (int w = 1; w < threads; ++w) pool.emplace_back(work, w);
  work(0);
  for (auto& t : pool) t.join();
}

template <class Move>
int best_index(std::span<const Move> legal, const double* values) {
  int best = 0;
  for (int i = 1; i < static_cast<int>(legal.size()); ++i)
    if (values[i] > values[best]) best = i;
  return best;
}

// A search bot that chooses by its values: the move with the best (a single
// legal move at once, without a search).
template <class G>
typename G::Move best_by_values(Bot<G>& bot, const typename G::Observation& obs,
                                std::span<const typename G::Move> legal) {
  if (legal.size() == 1) return legal[0];
  std::vector<double> v(legal.size());
  bot.values(obs, legal, v.data());
  return legal[static_cast<size_t>(best_index(legal, v.data()))];
}

}  // namespace boneyard
