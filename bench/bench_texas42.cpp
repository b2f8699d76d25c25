// Texas 42 engine throughput and bot strength (Google Benchmark). `boneyard
// bench texas-42` reports the same playout figure from the command line.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "bots/pimc.h"
#include "core/playout.h"
#include "texas42/bots.h"
#include "texas42/solver.h"
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
        const Move m = State::side_of(a.seat) == gside
                           ? greedy.choose(s.observe(a.seat), l.span())
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

namespace {
using Clock = std::chrono::steady_clock;
using List = MoveList<Move, Texas42::kMaxMoves>;

// Deal `seed`, greedy bidding and trumps: the state at the first lead.
State first_lead(uint64_t seed) {
  State s(Rules{}, seed);
  GreedyBot greedy(seed);
  List l;
  while (s.phase() != Phase::Play) {
    if (s.actor().kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    s.legal_moves(s.actor().seat, l);
    s.apply(s.actor().seat, greedy.choose(s.observe(s.actor().seat), l.span()));
  }
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

// The exact solver on whole hands: every hand known, from the first lead
// (greedy bids and names trumps), 100 deals. Median time per solve, nodes/s.
static void BM_Texas42SolveFromFirstLead(benchmark::State& st) {
  std::vector<double> ms;
  double nodes = 0, secs = 0;
  for (auto _ : st) {
    ms.clear();
    Solver solver;
    for (int d = 0; d < 100; ++d) {
      const State s = first_lead(100 + static_cast<uint64_t>(d));
      const uint64_t n0 = solver.nodes();
      const auto t0 = Clock::now();
      benchmark::DoNotOptimize(solver.value(s, 0));
      const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
      ms.push_back(dt * 1000);
      secs += dt;
      nodes += static_cast<double>(solver.nodes() - n0);
    }
  }
  st.counters["median_ms"] = median(ms);
  st.counters["max_ms"] = *std::max_element(ms.begin(), ms.end());
  st.counters["nodes/s"] = nodes / secs;
}
BENCHMARK(BM_Texas42SolveFromFirstLead)->Iterations(1)->Unit(benchmark::kMillisecond);

// pimc at its default budget (PimcBot::kDefaultSamples deals): the median
// time of one decision at the first lead, and at the opening bid.
static void BM_Texas42PimcDecision(benchmark::State& st, bool bidding) {
  std::vector<double> ms;
  for (auto _ : st) {
    ms.clear();
    PimcBot<Texas42> pimc(1, BotOptions{});
    for (int d = 0; d < 20; ++d) {
      State s = first_lead(200 + static_cast<uint64_t>(d));
      if (bidding) {
        s = State(Rules{}, 200 + static_cast<uint64_t>(d));
        s.apply_chance();
        s.apply_chance();
      }
      const int seat = s.actor().seat;
      List l;
      s.legal_moves(seat, l);
      const auto t0 = Clock::now();
      benchmark::DoNotOptimize(pimc.choose(s.observe(seat), l.span()));
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
  }
  st.counters["median_ms"] = median(ms);
  st.counters["max_ms"] = *std::max_element(ms.begin(), ms.end());
}
BENCHMARK_CAPTURE(BM_Texas42PimcDecision, first_lead, false)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Texas42PimcDecision, opening_bid, true)->Iterations(1)->Unit(benchmark::kMillisecond);

// Strength between search bots: `boneyard arena texas-42 --bots pimc,greedy
// --duplicate` (deal sets in both seatings, intervals and Elo).

BENCHMARK_MAIN();
