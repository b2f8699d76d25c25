// Engine throughput (Google Benchmark). `boneyard bench` reports the same
// figure from the command line.
#include <benchmark/benchmark.h>

#include "core/playout.h"
#include "line/state.h"

using namespace boneyard;

static void BM_LineRandomHand(benchmark::State& st, const char* preset) {
  const line::State fresh(line::make_rules(preset, {}), 1);
  line::State s = fresh;
  Rng rng(7);
  int64_t hands = 0;
  for (auto _ : st) {
    if (s.terminal()) s = fresh;
    benchmark::DoNotOptimize(play_random_hand<line::LineGame>(s, rng));
    ++hands;
  }
  st.counters["hands/s"] = benchmark::Counter(static_cast<double>(hands), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_LineRandomHand, latin, "latin");
BENCHMARK_CAPTURE(BM_LineRandomHand, dominican_500, "dominican-500");
BENCHMARK_CAPTURE(BM_LineRandomHand, two_draw, "two-draw");
BENCHMARK_CAPTURE(BM_LineRandomHand, havana, "havana");

static void BM_LineStateCopy(benchmark::State& st) {
  line::State s(line::make_rules("latin", {}), 1);
  s.apply_chance();
  for (auto _ : st) {
    line::State c = s;
    benchmark::DoNotOptimize(c);
  }
  st.counters["bytes"] = sizeof(line::State);
}
BENCHMARK(BM_LineStateCopy);

BENCHMARK_MAIN();
