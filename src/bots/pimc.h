#pragma once
// Perfect-information Monte Carlo (pimc): sample full deals consistent with
// what the seat knows (G::sample honours every public constraint: passes,
// draws, failures to follow), solve each exactly with G::Solver, and choose
// the move with the best average. Also the omniscient reference bot, which
// solves the true state: it cheats, and says so in its name.
#include <concepts>
#include <memory>
#include <span>
#include <vector>

#include "bots/budget.h"
#include "core/game.h"

namespace boneyard {

template <class G>
concept HasSolver = requires {
  typename G::Solver;
};

// A solver that can give up at a deadline (line/solver.h).
template <class S>
concept HasDeadline = requires(S& s) {
  s.set_deadline(Budget::Clock::time_point{});
  { s.stopped() } -> std::same_as<bool>;
};

template <class G>
requires HasSolver<G>
class PimcBot final : public Bot<G> {
 public:
  using Move = typename G::Move;
  // The default budget: this many samples, cut short after kDefaultCapMs.
  static constexpr int kDefaultSamples = 24;
  static constexpr double kDefaultCapMs = 150;

  PimcBot(uint64_t seed, const BotOptions& o) : Bot<G>("pimc", seed), options_(o) {
    for (int w = 0; w < std::max(1, o.threads); ++w) solvers_.push_back(std::make_unique<typename G::Solver>());
  }

  Move choose(const typename G::Observation& obs, std::span<const Move> legal) override {
    return best_by_values<G>(*this, obs, legal);
  }

  // The mean exact value of each move over the sampled deals.
  bool values(const typename G::Observation& obs, std::span<const Move> legal, double* out) override {
    const int workers = static_cast<int>(solvers_.size());
    const Budget budget(options_, kDefaultSamples, kDefaultCapMs);
    std::vector<std::vector<double>> sums(static_cast<size_t>(workers), std::vector<double>(legal.size()));
    std::vector<int> counts(static_cast<size_t>(workers));
    std::vector<uint64_t> seeds;
    for (int w = 0; w < workers; ++w) seeds.push_back(this->rng().next());
    run_workers(workers, [&](int w) {
      Rng rng(seeds[static_cast<size_t>(w)]);
      auto& solver = *solvers_[static_cast<size_t>(w)];
      std::vector<double> v(legal.size());
      auto& sum = sums[static_cast<size_t>(w)];
      const int share = budget.share(w, workers);
      int& n = counts[static_cast<size_t>(w)];
      while (!budget.over(n, share)) {
        const typename G::State s = G::sample(obs, rng);
        // Past the first sample a time limit is a deadline: a sample still
        // being solved then is dropped, so no decision runs far over.
        if constexpr (HasDeadline<typename G::Solver>)
          solver.set_deadline(n > 0 ? budget.deadline() : Budget::Clock::time_point::max());
        solver.values(s, obs.seat, legal, v.data());
        if constexpr (HasDeadline<typename G::Solver>)
          if (solver.stopped()) break;
        for (size_t i = 0; i < legal.size(); ++i) sum[i] += v[i];
        ++n;
      }
    });
    int n = 0;
    for (size_t i = 0; i < legal.size(); ++i) out[i] = 0;
    for (int w = 0; w < workers; ++w) {
      n += counts[static_cast<size_t>(w)];
      for (size_t i = 0; i < legal.size(); ++i) out[i] += sums[static_cast<size_t>(w)][i];
    }
    for (size_t i = 0; i < legal.size(); ++i) out[i] /= std::max(1, n);
    return true;
  }

 private:
  BotOptions options_;
  std::vector<std::unique_ptr<typename G::Solver>> solvers_;
};

// Solves the true state: a reference for measuring, never a fair opponent.
template <class G>
requires HasSolver<G>
class OmniscientBot final : public Bot<G> {
 public:
  using Move = typename G::Move;
  explicit OmniscientBot(uint64_t seed) : Bot<G>("omniscient", seed) {}
  bool omniscient() const override { return true; }
  Move choose(const typename G::Observation&, std::span<const Move> legal) override {
    return legal[0];  // never called: the adapter shows this bot the whole state
  }
  Move choose_seeing_all(const typename G::State& s, int seat, std::span<const Move> legal) override {
    std::vector<double> v(legal.size());
    solver_.values(s, seat, legal, v.data());
    return legal[static_cast<size_t>(best_index(legal, v.data()))];
  }

 private:
  typename G::Solver solver_;
};

}  // namespace boneyard
