// The exact solver and the search bots on the line games.
#include "line/solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "bots/ismcts.h"
#include "bots/pimc.h"
#include "core/env.h"
#include "core/playout.h"
#include "line/bots.h"
#include "support.h"

namespace boneyard::line {
namespace {

using List = MoveList<Move, LineGame::kMaxMoves>;

// The definition the solver must meet, by plain minimax: no table, no
// pruning, no ordering. Value for `me`'s side: its gain in the rest of the
// hand less the best other side's gain, the others playing against it.
int brute_force(const State& s, int me, int hands, const int* base) {
  if (s.terminal() || s.hands_finished() != hands) {
    int mine = 0, other = -1000000;
    for (int sd = 0; sd < s.num_sides(); ++sd) {
      const int gain = s.score(sd) - base[sd];
      if (sd == s.side_of(me))
        mine = gain;
      else
        other = std::max(other, gain);
    }
    return mine - other;
  }
  if (s.actor().kind != Actor::Seat) return 0;
  const int seat = s.actor().seat;
  List l;
  s.legal_moves(seat, l);
  const bool maximise = s.side_of(seat) == s.side_of(me);
  int best = maximise ? -1000000 : 1000000;
  for (const Move& m : l) {
    State c = s;
    c.apply(seat, m);
    const int v = brute_force(c, me, hands, base);
    best = maximise ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

// Random play from a fresh deal until at most `tiles_left` tiles are in hand.
// `preset` may carry one override: "latin+scoring=all_pips_round10".
Rules rules_of(const std::string& preset) {
  const size_t plus = preset.find('+');
  if (plus == std::string::npos) return make_rules(preset, {});
  const std::string opt = preset.substr(plus + 1);
  const size_t eq = opt.find('=');
  return make_rules(preset.substr(0, plus), {{opt.substr(0, eq), opt.substr(eq + 1)}});
}

State late_position(const char* preset, uint64_t seed, int tiles_left) {
  State s(rules_of(preset), seed);
  Rng rng(seed * 7 + 1);
  List l;
  for (;;) {
    while (s.actor().kind == Actor::Chance) s.apply_chance();
    int in_hand = 0;
    for (int seat = 0; seat < s.num_seats(); ++seat) in_hand += s.hand_count(seat);
    const int seat = s.actor().seat;
    s.legal_moves(seat, l);
    if (s.phase() == Phase::Play && in_hand <= tiles_left && l.size() > 1) return s;  // a real choice
    s.apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    if (s.hands_finished() > 0) return late_position(preset, seed + 1000, tiles_left);  // the hand ended early
  }
}

// Small enough for brute force: fewer tiles when more seats share them.
int s_tiles(const char* preset) {
  const std::string p = preset;
  return p.find("draw") != std::string::npos ? 9 : p.find("two") != std::string::npos ? 13 : 17;
}
// Deals compared: fewer where the boneyard's draws make brute force slow.
uint64_t s_deals(const char* preset) { return std::string(preset).find("draw") != std::string::npos ? 40 : 150; }

// Every preset family of scoring: partnerships with pip and bonus rules,
// two players drawing from the boneyard, three players, win counting.
class SolverAgainstBruteForce : public ::testing::TestWithParam<const char*> {};

TEST_P(SolverAgainstBruteForce, EqualValuesForEveryMove) {
  const char* preset = GetParam();
  Solver solver(16, 0);  // every value exact
  Solver bounded;        // pimc's margin: its solve() is still exact
  int compared = 0;
  for (uint64_t seed = 1; seed <= s_deals(preset); ++seed) {
    const State s = late_position(preset, seed, s_tiles(preset));
    const int seat = s.actor().seat;
    List l;
    s.legal_moves(seat, l);
    std::vector<double> v(static_cast<size_t>(l.size()));
    solver.values(s, seat, l.span(), v.data());
    int base[kMaxSeats] = {};
    for (int sd = 0; sd < s.num_sides(); ++sd) base[sd] = s.score(sd);
    for (int i = 0; i < l.size(); ++i) {
      State c = s;
      c.apply(seat, l[i]);
      EXPECT_EQ(v[static_cast<size_t>(i)], brute_force(c, seat, s.hands_finished(), base))
          << preset << " seed " << seed << " move " << s.move_text(l[i]) << "\n"
          << s.render(-1);
      ++compared;
    }
    int best = -1000000;
    for (double x : v) best = std::max(best, static_cast<int>(x));
    EXPECT_EQ(solver.solve(s, seat), best);
    EXPECT_EQ(bounded.solve(s, seat), best) << preset << " seed " << seed;
    // With the margin: exact within it of the best, else a bound below it.
    std::vector<double> b(v.size());
    bounded.values(s, seat, l.span(), b.data());
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] >= best - Solver::kPimcMargin)
        EXPECT_EQ(b[i], v[i]) << preset << " seed " << seed;
      else
        EXPECT_TRUE(b[i] >= v[i] && b[i] < best - Solver::kPimcMargin) << preset << " seed " << seed;
    }
  }
  EXPECT_GE(compared, static_cast<int>(2 * s_deals(preset)));
  std::printf("%s: %d moves compared\n", preset, compared);
}

INSTANTIATE_TEST_SUITE_P(Presets, SolverAgainstBruteForce,
                         ::testing::Values("latin", "dominican-patio", "dominican-200", "jamaica", "two-draw",
                                           "three-draw", "four-individual", "venezuela", "puerto-rico", "colombia",
                                           "fid", "mexico", "santiago", "two-sleep", "latin+scoring=all_pips_round10",
                                           "latin+block_tie=closest_to_leader"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// Plays one hand of `preset` from `seed` with bot a for side 0 and b for
// side 1 (through each seat's observation, as the front-ends do); returns
// side 0's points less side 1's.
int play_hand(const char* preset, uint64_t seed, Bot<LineGame>& a, Bot<LineGame>& b) {
  State s(make_rules(preset, {}), seed);
  List l;
  while (s.hands_finished() == 0) {
    if (s.actor().kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    const int seat = s.actor().seat;
    Bot<LineGame>& bot = s.side_of(seat) == 0 ? a : b;
    s.legal_moves(seat, l);
    const Move m = bot.omniscient() ? bot.choose_seeing_all(s, seat, l.span()) : bot.choose(s.observe(seat), l.span());
    EXPECT_TRUE(std::find(l.begin(), l.end(), m) != l.end()) << bot.name() << " chose an illegal move";
    s.apply(seat, m);
  }
  return s.score(0) - s.score(1);
}

// Duplicate: each deal twice, the bots trading sides.
double duplicate_margin(const char* preset, int deals, Bot<LineGame>& strong, Bot<LineGame>& weak) {
  double sum = 0;
  for (int d = 1; d <= deals; ++d)
    sum += play_hand(preset, static_cast<uint64_t>(d), strong, weak) -
           play_hand(preset, static_cast<uint64_t>(d), weak, strong);
  return sum / (2 * deals);
}

// Strength over fixed duplicate deals. The sanitizer build (fewer property
// games) plays two deals and checks legality only: it runs 10-20x slower.
bool full_run() { return property_games(10000) >= 10000; }

TEST(SearchBots, OmniscientOutscoresGreedy) {
  OmniscientBot<LineGame> cheat(1);
  EXPECT_TRUE(cheat.omniscient());
  GreedyBot greedy(2);
  const double margin = duplicate_margin("latin", full_run() ? 20 : 2, cheat, greedy);
  if (full_run()) {
    EXPECT_GT(margin, 5.0);
  }
}

TEST(SearchBots, PimcOutscoresGreedy) {
  PimcBot<LineGame> pimc(3, BotOptions{.iterations = 4});
  GreedyBot greedy(4);
  const double margin = duplicate_margin("latin", full_run() ? 12 : 1, pimc, greedy);
  if (full_run()) {
    EXPECT_GT(margin, 0.0);
  }
}

TEST(SearchBots, IsmctsPlaysLegallyInEveryFamily) {
  IsmctsBot<LineGame> ismcts(5, BotOptions{.iterations = 200});
  GreedyBot greedy(6);
  for (const char* preset : {"latin", "two-draw", "three-draw"}) play_hand(preset, 9, ismcts, greedy);
}

// Same seed, same budget: the same choice (tests and analyses repeat).
TEST(SearchBots, DeterministicForASeed) {
  State s(make_rules("latin", {}), 5);
  s.apply_chance();
  List l;
  for (int k = 0; k < 8; ++k) {  // a few tiles in: cheaper to solve
    s.legal_moves(s.actor().seat, l);
    s.apply(s.actor().seat, l[0]);
  }
  s.legal_moves(s.actor().seat, l);
  for (int k = 0; k < 2; ++k) {
    PimcBot<LineGame> a(7, BotOptions{.iterations = 6}), b(7, BotOptions{.iterations = 6});
    EXPECT_EQ(a.choose(s.observe(s.actor().seat), l.span()), b.choose(s.observe(s.actor().seat), l.span()));
    IsmctsBot<LineGame> c(7, BotOptions{.iterations = 100}), d(7, BotOptions{.iterations = 100});
    EXPECT_EQ(c.choose(s.observe(s.actor().seat), l.span()), d.choose(s.observe(s.actor().seat), l.span()));
  }
}

// A deadline stops a search: a past one stops it at once (and says so),
// and the solver is sound again for the next call without one.
TEST(Solver, DeadlineStopsTheSearchAndTheNextSolveIsExact) {
  State s(make_rules("latin", {}), 9);
  s.apply_chance();
  List l;
  s.legal_moves(s.actor().seat, l);
  std::vector<double> v(static_cast<size_t>(l.size())), again(v.size());
  Solver solver;
  solver.values(s, s.actor().seat, l.span(), v.data());
  EXPECT_FALSE(solver.stopped());
  solver.set_deadline(Solver::Clock::now());
  solver.values(s, s.actor().seat, l.span(), again.data());
  EXPECT_TRUE(solver.stopped());
  solver.set_deadline(Solver::Clock::time_point::max());
  solver.values(s, s.actor().seat, l.span(), again.data());
  EXPECT_FALSE(solver.stopped());
  EXPECT_EQ(v, again);
  Solver fresh;
  EXPECT_EQ(solver.solve(s, s.actor().seat), fresh.solve(s, s.actor().seat));
}

// pimc's samples honour what passes reveal: after a seat passes on ends
// a and b, no sample gives it a tile showing a or b.
TEST(SearchBots, SamplesHonourPasses) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    State s(make_rules("latin", {}), seed);
    Rng rng(seed);
    List l;
    int passer = -1, seen_by = -1;
    while (s.hands_finished() == 0 && passer < 0) {
      if (s.actor().kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      const int seat = s.actor().seat;
      s.legal_moves(seat, l);
      if (l[0].kind == Move::Pass) passer = seat, seen_by = (seat + 1) % 4;
      s.apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
    if (passer < 0 || s.hands_finished() > 0) continue;
    const SmallSet void_of = s.not_holding(passer);
    ASSERT_FALSE(void_of.empty());
    for (int k = 0; k < 20; ++k) {
      const State full = LineGame::sample(s.observe(seen_by), rng);
      EXPECT_TRUE((full.hand(passer) & void_of).empty()) << "seed " << seed;
      EXPECT_EQ(full.hand(seen_by), s.hand(seen_by));
    }
  }
}

// Whole deals, too big for brute force: the table only saves work, so its
// size (1 entry: nearly no table; 2^16; 2^20) must not change a value.
TEST(Solver, TableSizeNeverChangesAValue) {
  const State fresh(make_rules("latin", {}), 11);
  Solver tiny(0, 0), mid(16, 0), big(20, 0);
  for (uint64_t seed = 1; seed <= (full_run() ? 12u : 2u); ++seed) {
    State s = fresh;
    s.reseed(seed);
    while (s.actor().kind == Actor::Chance) s.apply_chance();
    // A few moves in, so that the tiny table's search stays short.
    Rng rng(seed);
    List l;
    for (int k = 0; k < 6; ++k) {
      s.legal_moves(s.actor().seat, l);
      s.apply(s.actor().seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
    const int seat = s.actor().seat;
    const int v = mid.solve(s, seat);
    EXPECT_EQ(tiny.solve(s, seat), v) << "seed " << seed;
    EXPECT_EQ(big.solve(s, seat), v) << "seed " << seed;
  }
}

}  // namespace
}  // namespace boneyard::line
