// Texas 42 engine throughput and bot strength (Google Benchmark). `boneyard
// bench texas-42` reports the same playout figure from the command line.
#include <benchmark/benchmark.h>

#include <cmath>

#include "core/playout.h"
#include "texas42/bots.h"
#include "texas42/state.h"

using namespace boneyard;
using namespace boneyard::texas42;

// Random full hands: deal, bidding, trumps and play (spec figure: >= 1M/s).
static void BM_Texas42RandomHand(benchmark::State& st, OptionList opts) {
  const State fresh(make_rules(opts), 1);
  State s = fresh;
  Rng rng(7);
  int64_t hands = 0;
  for (auto _ : st) {
    if (s.terminal()) s = fresh;
    benchmark::DoNotOptimize(play_random_hand<Texas42>(s, rng));
    ++hands;
  }
  st.counters["hands/s"] = benchmark::Counter(static_cast<double>(hands), benchmark::Counter::kIsRate);
  st.counters["state_bytes"] = sizeof(State);
}
BENCHMARK_CAPTURE(BM_Texas42RandomHand, marks, OptionList{});
BENCHMARK_CAPTURE(BM_Texas42RandomHand, marks_played_out, OptionList{{"stop_when_decided", "off"}});
BENCHMARK_CAPTURE(BM_Texas42RandomHand, points, OptionList{{"scoring", "points"}});
BENCHMARK_CAPTURE(BM_Texas42RandomHand, all_contracts,
                  OptionList{{"nello", "on"}, {"plunge", "on"}, {"splash", "on"}, {"sevens", "on"}});

static void BM_Texas42StateCopy(benchmark::State& st) {
  State s(Rules{}, 1);
  s.apply_chance();
  s.apply_chance();
  for (auto _ : st) {
    State c = s;
    benchmark::DoNotOptimize(c);
  }
  st.counters["bytes"] = sizeof(State);
}
BENCHMARK(BM_Texas42StateCopy);

// Greedy partnerships against random ones, games to 7 marks, seats swapped
// every game. Reports the greedy win share and its 95% confidence interval.
static void BM_Texas42GreedyVsRandom(benchmark::State& st) {
  const int games = static_cast<int>(st.range(0));
  double wins = 0;
  int played = 0;
  for (auto _ : st) {
    wins = 0;
    played = 0;
    Rng rng(3);
    MoveList<Move, Texas42::kMaxMoves> l;
    for (int g = 0; g < games; ++g) {
      State s(Rules{}, static_cast<uint64_t>(g) + 1000);
      GreedyBot greedy(static_cast<uint64_t>(g) * 31 + 5);
      const int gside = g & 1;
      while (!s.terminal()) {
        const Actor a = s.actor();
        if (a.kind == Actor::Chance) {
          s.apply_chance();
          continue;
        }
        s.legal_moves(a.seat, l);
        const Move m = State::side_of(a.seat) == gside ? greedy.choose(s.observe(a.seat), l.span())
                                                        : l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
        s.apply(a.seat, m);
      }
      double r[4];
      s.returns(r);
      wins += r[gside];
      ++played;
    }
  }
  const double p = wins / played;
  const double half = 1.96 * std::sqrt(p * (1 - p) / played);
  st.counters["games"] = played;
  st.counters["greedy_share"] = p;
  st.counters["ci95_low"] = p - half;
  st.counters["ci95_high"] = p + half;
}
BENCHMARK(BM_Texas42GreedyVsRandom)->Arg(2000)->Iterations(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
