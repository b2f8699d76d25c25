// The SPRT of arena --sprt (src/core/sprt.h) on synthetic paired results.
#include "core/sprt.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.h"

using namespace boneyard;

namespace {
// A deal set played both ways: two games, each a win, draw or loss for A,
// with A's expected score that of `elo`; the pair's score is 0, 1/4, ... 1.
double pair_score(std::mt19937_64& rng, double elo, double draw) {
  const double s = elo_to_score(elo), win = s - draw / 2;
  std::uniform_real_distribution<double> u(0, 1);
  double t = 0;
  for (int g = 0; g < 2; ++g) {
    const double x = u(rng);
    t += x < win ? 1 : x < win + draw ? 0.5 : 0;
  }
  return t / 2;
}

// Runs an SPRT on a stream until it decides (or max samples).
Sprt run_stream(double true_elo, SprtParams p, uint64_t seed, int max = 200000) {
  std::mt19937_64 rng(seed);
  Sprt t(p);
  for (int i = 0; i < max && t.add(pair_score(rng, true_elo, 0.3)) == Sprt::Result::Continue;) ++i;
  return t;
}
}  // namespace

TEST(Sprt, BoundsAndParsing) {
  const SprtParams p = SprtParams::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05");
  EXPECT_NEAR(p.lower(), std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(p.upper(), std::log(0.95 / 0.05), 1e-12);
  EXPECT_NEAR(p.upper(), 2.944, 1e-3);
  const SprtParams q = SprtParams::parse("elo1=10");
  EXPECT_EQ(q.elo0, 0);
  EXPECT_EQ(q.elo1, 10);
  EXPECT_THROW(SprtParams::parse("elo0=5,elo1=0"), Error);
  EXPECT_THROW(SprtParams::parse("alpha=0.7"), Error);
  EXPECT_THROW(SprtParams::parse("elo2=1"), Error);
  EXPECT_THROW(SprtParams::parse("elo1=abc"), Error);
  EXPECT_NEAR(score_to_elo(elo_to_score(37.5)), 37.5, 1e-9);
  EXPECT_NEAR(elo_to_score(0), 0.5, 1e-15);
}

TEST(Sprt, StandingSaysTheRunningEloAndLlr) {
  Sprt t(SprtParams::parse("elo0=0,elo1=50"));
  EXPECT_EQ(t.standing(), "");  // nothing to say before a deal set
  for (double x : {1.0, 0.75, 0.5, 0.75}) t.add(x);
  const std::string s = t.standing();
  EXPECT_EQ(s, fmt::format("{:+.0f} Elo [{:+.0f}, {:+.0f}], LLR {:+.2f} (-2.94 to +2.94)", t.elo(), t.elo_lo(),
                           t.elo_hi(), t.llr()));
  EXPECT_GT(t.elo(), 0);
  EXPECT_EQ(s.rfind("+", 0), 0u) << s;  // A is ahead: a signed figure
}

TEST(Sprt, LlrMatchesTheNormalApproximation) {
  // For many samples the GSPRT's LLR tends to N (s1-s0)(2m-s0-s1) / (2 var).
  std::mt19937_64 rng(3);
  std::map<double, double> h;
  double n = 0, sum = 0, sq = 0;
  for (int i = 0; i < 20000; ++i) {
    const double x = pair_score(rng, 8, 0.3);
    h[x] += 1, n += 1, sum += x, sq += x * x;
  }
  const double m = sum / n, var = sq / n - m * m;
  const double s0 = elo_to_score(0), s1 = elo_to_score(5);
  const double approx = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var);
  const double llr = Sprt::llr_of(h, 0, 5);
  EXPECT_NEAR(llr, approx, 0.05 * std::abs(approx) + 0.05);
  EXPECT_NEAR(Sprt::llr_of(h, 5, 5), 0, 1e-9);
  EXPECT_LT(Sprt::llr_of(h, 20, 25), 0);  // the data (about +8) is below 20..25
}

TEST(Sprt, AcceptsH1WhenAIsStronger) {
  const SprtParams p = SprtParams::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05");
  int h1 = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Sprt t = run_stream(30, p, seed);
    EXPECT_NE(t.result(), Sprt::Result::Continue);
    h1 += t.result() == Sprt::Result::H1;
    EXPECT_GE(t.llr(), t.result() == Sprt::Result::H1 ? p.upper() : -1e9);
  }
  EXPECT_GE(h1, 9);
}

TEST(Sprt, AcceptsH0WhenAIsNotStronger) {
  const SprtParams p = SprtParams::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05");
  int h0 = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Sprt t = run_stream(-20, p, seed);
    EXPECT_NE(t.result(), Sprt::Result::Continue);
    h0 += t.result() == Sprt::Result::H0;
    if (t.result() == Sprt::Result::H0) {
      EXPECT_LE(t.llr(), p.lower());
    }
  }
  EXPECT_GE(h0, 9);
}

TEST(Sprt, StopsAndEstimatesTheElo) {
  const Sprt t = run_stream(40, SprtParams::parse("elo0=0,elo1=20"), 7);
  EXPECT_EQ(t.result(), Sprt::Result::H1);
  EXPECT_GT(t.samples(), 5);
  EXPECT_LT(t.samples(), 5000);
  EXPECT_LE(t.elo_lo(), t.elo());
  EXPECT_GE(t.elo_hi(), t.elo());
  EXPECT_GT(t.elo_hi(), 10);  // the truth is 40: the interval is not far off
  // A decision stays: more samples do not change the result.
  Sprt u(SprtParams::parse("elo0=0,elo1=20"));
  std::mt19937_64 rng(7);
  while (u.add(pair_score(rng, 40, 0.3)) == Sprt::Result::Continue) {
  }
  const int at = u.samples();
  for (int i = 0; i < 50; ++i) u.add(0);
  EXPECT_EQ(u.result(), Sprt::Result::H1);
  EXPECT_EQ(at, t.samples());  // the same stream stops at the same sample
}

TEST(Sprt, DegenerateStreamsDecide) {
  // Every set won: no draws, no losses; the regularised histogram still gives an LLR.
  Sprt t(SprtParams::parse("elo0=0,elo1=5"));
  int n = 0;
  while (t.add(1.0) == Sprt::Result::Continue && n < 1000) ++n;
  EXPECT_EQ(t.result(), Sprt::Result::H1);
  EXPECT_LT(t.samples(), 1000);  // slow: the 1e-3 counts of the empty bins weigh (as in fishtest)
  Sprt u(SprtParams::parse("elo0=0,elo1=5"));
  n = 0;
  while (u.add(0.5) == Sprt::Result::Continue && n < 100000) ++n;
  EXPECT_EQ(u.result(), Sprt::Result::H0);  // level: exactly 0 Elo, below 5
  EXPECT_THROW(u.add(1.5), Error);
}
