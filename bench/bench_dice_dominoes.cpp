// Engine throughput for Dice & Dominoes (Google Benchmark). `boneyard bench
// dice-and-dominoes` reports the same figure from the command line.
#include <benchmark/benchmark.h>

#include "core/playout.h"
#include "dice_dominoes/bots.h"

using namespace boneyard;
using namespace boneyard::dice_dominoes;

// Random full hands (deal, every round, pay-out), one thread.
static void BM_DiceDominoesRandomHand(benchmark::State& st) {
  const int players = static_cast<int>(st.range(0));
  const State fresh(make_rules({{"players", std::to_string(players)}, {"hands", "1000000"}}), 1);
  State s = fresh;
  Rng rng(7);
  int64_t hands = 0;
  for (auto _ : st) {
    if (s.terminal()) s = fresh;
    benchmark::DoNotOptimize(play_random_hand<DiceDominoes>(s, rng));
    ++hands;
  }
  st.counters["hands/s"] = benchmark::Counter(static_cast<double>(hands), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DiceDominoesRandomHand)->Arg(2)->Arg(4)->Arg(5)->Arg(8)->Arg(10);

static void BM_DiceDominoesStateCopy(benchmark::State& st) {
  State s(make_rules({{"players", "4"}}), 1);
  s.apply_chance();
  for (auto _ : st) {
    State c = s;
    benchmark::DoNotOptimize(c);
  }
  st.counters["bytes"] = sizeof(State);
}
BENCHMARK(BM_DiceDominoesStateCopy);

// One greedy decision from an observation (4 players).
static void BM_DiceDominoesGreedyChoice(benchmark::State& st) {
  State s(make_rules({{"players", "4"}}), 3);
  s.apply_chance();
  s.apply_chance();
  GreedyBot bot(1);
  MoveList<Move, DiceDominoes::kMaxMoves> l;
  s.legal_moves(0, l);
  const Observation o = s.observe(0);
  for (auto _ : st) benchmark::DoNotOptimize(bot.choose(o, l.span()));
}
BENCHMARK(BM_DiceDominoesGreedyChoice);

BENCHMARK_MAIN();
