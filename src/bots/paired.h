#pragma once
// Paired Monte Carlo (`paired`): every candidate move is played out on the
// same samples. Each step samples a full state consistent with what the seat
// knows (G::sample), then plays each candidate from a copy of it with the
// same future: the state's own generator (dice, draws) reseeded alike, and
// each seat's playout choices drawn from that seat's own generator, seeded
// alike. So two candidates' playouts differ only where the candidates make
// them differ, and the difference of their means, which is what a choice
// needs, has far less noise than in a search that gives each move its own
// random futures (ismcts, whose tree is thin below the root where chance
// branches widely: Dice & Dominoes' 36 rolls a round, docs/bots.md).
//
// Where the game names classes of moves of equal effect (Dice & Dominoes:
// lays that turn up the same tiles), `static Move G::move_class(const State&,
// int seat, Move)`, each class is played once a step and every move gets its
// class's value.
//
// Measured at Dice & Dominoes against ismcts-v1 at 50 ms a decision: +91 Elo
// (docs/bots.md, "Paired Monte Carlo").
#include <algorithm>
#include <span>
#include <vector>

#include "bots/budget.h"
#include "bots/ismcts.h"
#include "core/game.h"
#include "core/playout.h"

namespace boneyard {

template <class G>
concept HasMoveClass = requires(const typename G::State& s, const typename G::Move& m) {
  { G::move_class(s, 0, m) } -> std::same_as<typename G::Move>;
};

template <class G>
class PairedBot final : public Bot<G> {
 public:
  using Move = typename G::Move;
  using State = typename G::State;
  using List = MoveList<Move, G::kMaxMoves>;
  static constexpr int kDefaultPlayouts = 2000;  // a count counts playouts, not steps

  PairedBot(uint64_t seed, const BotOptions& o) : Bot<G>("paired", seed), options_(o) {}

  Move choose(const typename G::Observation& obs, std::span<const Move> legal) override {
    return best_by_values<G>(*this, obs, legal);
  }

  // Mean reward in [-1, 1] of each move (its class's) over the samples.
  bool values(const typename G::Observation& obs, std::span<const Move> legal, double* out) override {
    // The candidates: one move of each class.
    std::vector<int> cls(legal.size()), reps;
    {
      Rng r(1);
      [[maybe_unused]] const State s = G::sample(obs, r);  // the seat's own hand and the public state
      std::vector<Move> keys;
      for (size_t i = 0; i < legal.size(); ++i) {
        Move k = legal[i];
        if constexpr (HasMoveClass<G>) k = G::move_class(s, obs.seat, legal[i]);
        const auto it = std::find(keys.begin(), keys.end(), k);
        cls[i] = static_cast<int>(it - keys.begin());
        if (it == keys.end()) keys.push_back(k), reps.push_back(static_cast<int>(i));
      }
    }
    const int n = static_cast<int>(reps.size());
    const int workers = std::max(1, options_.threads);
    const Budget budget(options_, kDefaultPlayouts);
    std::vector<std::vector<double>> sums(static_cast<size_t>(workers), std::vector<double>(static_cast<size_t>(n)));
    std::vector<uint64_t> seeds;
    for (int w = 0; w < workers; ++w) seeds.push_back(this->rng().next());
    std::vector<int> steps(static_cast<size_t>(workers));
    run_workers(workers, [&](int w) {
      Rng rng(seeds[static_cast<size_t>(w)]);
      auto& sum = sums[static_cast<size_t>(w)];
      const int share = (budget.share(w, workers) + n - 1) / n;  // steps: each plays every candidate
      int& done = steps[static_cast<size_t>(w)];
      List l;
      for (; !budget.over(done, share); ++done) {
        const State root = G::sample(obs, rng);
        const uint64_t future = rng.next();
        for (int c = 0; c < n; ++c)
          sum[static_cast<size_t>(c)] +=
              playout(root, future, obs.seat, legal[static_cast<size_t>(reps[static_cast<size_t>(c)])], l);
      }
    });
    int total = 0;
    for (int k : steps) total += k;
    for (size_t i = 0; i < legal.size(); ++i) {
      double v = 0;
      for (const auto& sum : sums) v += sum[static_cast<size_t>(cls[i])];
      out[i] = v / std::max(1, total);
    }
    return true;
  }

 private:
  // The reward for `seat` of playing `m` from `root` on to the hand's end,
  // with the future `future` names (the same for every candidate).
  static double playout(const State& root, uint64_t future, int seat, const Move& m, List& l) {
    State s = root;
    s.reseed(future);
    Rng seat_rng[kMaxPlayoutSeats];
    for (int k = 0; k < s.num_seats(); ++k) seat_rng[k].reseed(future ^ (0x9e3779b97f4a7c15ULL * (k + 1)));
    s.apply(seat, m);
    const int hands = root.hands_finished();
    while (!s.terminal() && s.hands_finished() == hands) {
      const Actor a = s.actor();
      if (a.kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      for (int k = 0; k < s.num_seats(); ++k) {
        if (!s.actor().acts(k)) continue;
        if constexpr (HasRolloutPolicy<G>) {
          s.legal_moves(k, l);
          s.apply(k, G::rollout_move(s, k, l.span(), seat_rng[k]));
        } else {
          apply_random_move<G>(s, k, seat_rng[k], l);
        }
        if (a.kind == Actor::Seat) break;
      }
    }
    return G::reward(root, s, seat);
  }

  static constexpr int kMaxPlayoutSeats = 16;
  BotOptions options_;
};

}  // namespace boneyard
