// Mexican Train engine throughput (Google Benchmark) and a typed
// greedy-vs-random arena. `boneyard bench mexican-train` reports the same
// playout figure from the command line.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>

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

BENCHMARK_MAIN();
