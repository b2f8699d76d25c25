// Mexican Train engine throughput (Google Benchmark) and a typed
// greedy-vs-random arena. `boneyard bench mexican-train` reports the same
// playout figure from the command line.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "bots/ismcts.h"
#include "core/playout.h"
#include "mexican_train/bots.h"
#include "mexican_train/state.h"

using namespace boneyard;
using namespace boneyard::mexican_train;

static void BM_MexicanTrainRandomRound(benchmark::State& st, int players, const char* set) {
  const State fresh(make_rules({{"players", std::to_string(players)}, {"set", set}}), 1);
  State s = fresh;
  Rng rng(7);
  int64_t rounds = 0;
  for (auto _ : st) {
    if (s.terminal()) {
      s = fresh;
      s.reseed(rng.next());
    }
    benchmark::DoNotOptimize(play_random_hand<MexicanTrain>(s, rng));
    ++rounds;
  }
  st.counters["rounds/s"] = benchmark::Counter(static_cast<double>(rounds), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_MexicanTrainRandomRound, p4_double_twelve, 4, "double-twelve");
BENCHMARK_CAPTURE(BM_MexicanTrainRandomRound, p2_double_twelve, 2, "double-twelve");
BENCHMARK_CAPTURE(BM_MexicanTrainRandomRound, p8_double_twelve, 8, "double-twelve");
BENCHMARK_CAPTURE(BM_MexicanTrainRandomRound, p4_double_nine, 4, "double-nine");
BENCHMARK_CAPTURE(BM_MexicanTrainRandomRound, p6_double_fifteen, 6, "double-fifteen");

static void BM_MexicanTrainStateCopy(benchmark::State& st) {
  State s(make_rules({}), 1);
  s.apply_chance();
  for (auto _ : st) {
    State c = s;
    benchmark::DoNotOptimize(c);
  }
  st.counters["bytes"] = sizeof(State);
}
BENCHMARK(BM_MexicanTrainStateCopy);

// Greedy (seats 0+2 or 1+3, alternated) against random, 4 players, full
// 13-round games: win shares with a 95% confidence interval.
static void BM_MexicanTrainGreedyVsRandom(benchmark::State& st) {
  double greedy_sum = 0, greedy_sq = 0;
  int64_t games = 0;
  Rng seeds(2024);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  for (auto _ : st) {
    State s(make_rules({}), seeds.next());
    GreedyBot g0(seeds.next()), g1(seeds.next());
    RandomBot<MexicanTrain> r0(seeds.next()), r1(seeds.next());
    const int gpar = static_cast<int>(games % 2);
    while (!s.terminal()) {
      if (s.actor().kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      const int seat = s.to_move();
      s.legal_moves(seat, l);
      Bot<MexicanTrain>* b = seat % 2 == gpar ? static_cast<Bot<MexicanTrain>*>(seat < 2 ? &g0 : &g1)
                                              : static_cast<Bot<MexicanTrain>*>(seat < 2 ? &r0 : &r1);
      s.apply(seat, b->choose(s.observe(seat), l.span()));
    }
    double r[kMaxSeats];
    s.returns(r);
    double share = 0;
    for (int k = 0; k < 4; ++k)
      if (k % 2 == gpar) share += r[k];
    greedy_sum += share;
    greedy_sq += share * share;
    ++games;
  }
  const double n = static_cast<double>(games);
  const double mean = greedy_sum / n;
  const double var = std::max(0.0, greedy_sq / n - mean * mean);
  const double half = 1.96 * std::sqrt(var / n);
  st.counters["games"] = n;
  st.counters["greedy_share"] = mean;
  st.counters["random_share"] = 1 - mean;
  st.counters["ci95_half"] = half;
}
BENCHMARK(BM_MexicanTrainGreedyVsRandom)->Iterations(2000)->Unit(benchmark::kMillisecond);

// The same game with uniformly random ismcts playouts, for comparison.
struct MexicanTrainRandomRollouts {
  static constexpr int kMaxMoves = MexicanTrain::kMaxMoves;
  using Options = MexicanTrain::Options;
  using Move = MexicanTrain::Move;
  using State = MexicanTrain::State;
  using Observation = MexicanTrain::Observation;
  static State sample(const Observation& o, Rng& rng) { return MexicanTrain::sample(o, rng); }
  static std::string side_name(const State& s, int side) { return MexicanTrain::side_name(s, side); }
  static double reward(const State& from, const State& to, int seat) { return MexicanTrain::reward(from, to, seat); }
};

static int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

// ismcts at one seat against three greedy players, 4 players, double-twelve:
// the ismcts seat's round penalty minus the mean of the greedy seats' in the
// same round (negative: ismcts sheds more), with a 95% confidence interval.
// Games of 4 rounds; the ismcts seat moves round the table game by game.
// MT_ROUNDS (default 200) and MT_ITERS (default: the bot's) override.
template <class G>
static void ismcts_vs_greedy(benchmark::State& st) {
  const int rounds_wanted = env_int("MT_ROUNDS", 200);
  BotOptions o;
  o.iterations = env_int("MT_ITERS", 0);
  double sum = 0, sq = 0, think_s = 0;
  int64_t rounds = 0, decisions = 0;
  Rng seeds(99);
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  for (auto _ : st) {
    for (int game = 0; rounds < rounds_wanted; ++game) {
      State s(make_rules({{"rounds", "4"}}), seeds.next());
      const int me = game % 4;
      IsmctsBot<G> search(seeds.next(), o);
      std::unique_ptr<GreedyBot> greedy[4];
      for (auto& g : greedy) g = std::make_unique<GreedyBot>(seeds.next());
      while (!s.terminal() && rounds < rounds_wanted) {
        if (s.actor().kind == Actor::Chance) {
          s.apply_chance();
          continue;
        }
        const int seat = s.to_move();
        const int before = s.hands_finished();
        s.legal_moves(seat, l);
        Move m;
        if (seat == me) {
          const auto t0 = std::chrono::steady_clock::now();
          m = search.choose(s.observe(seat), l.span());
          think_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          decisions += l.size() > 1;
        } else {
          m = greedy[seat]->choose(s.observe(seat), l.span());
        }
        s.apply(seat, m);
        if (s.hands_finished() != before) {
          const RoundResult& r = s.last_result();
          double others = 0;
          for (int k = 0; k < 4; ++k)
            if (k != me) others += r.penalty[k];
          const double d = r.penalty[me] - others / 3;
          sum += d;
          sq += d * d;
          ++rounds;
        }
      }
    }
  }
  const double n = static_cast<double>(rounds);
  const double mean = sum / n;
  const double sd = std::sqrt(std::max(0.0, (sq - n * mean * mean) / (n - 1)));
  st.counters["rounds"] = n;
  st.counters["penalty_diff"] = mean;
  st.counters["ci95_half"] = 1.96 * sd / std::sqrt(n);
  st.counters["ms_per_decision"] = decisions ? 1000 * think_s / static_cast<double>(decisions) : 0;
}
static void BM_MexicanTrainIsmctsVsGreedy(benchmark::State& st) { ismcts_vs_greedy<MexicanTrain>(st); }
static void BM_MexicanTrainIsmctsRandomRolloutsVsGreedy(benchmark::State& st) {
  ismcts_vs_greedy<MexicanTrainRandomRollouts>(st);
}
BENCHMARK(BM_MexicanTrainIsmctsVsGreedy)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_MexicanTrainIsmctsRandomRolloutsVsGreedy)->Iterations(1)->Unit(benchmark::kSecond);

BENCHMARK_MAIN();
