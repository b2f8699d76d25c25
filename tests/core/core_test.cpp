// Core: tiles, notation, tile sets, the generator and the hidden-tile sampler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "core/adapter.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/sample.h"
#include "core/tile.h"
#include "dice_dominoes/state.h"
#include "line/state.h"
#include "mexican_train/state.h"
#include "texas42/state.h"

// The game contract, checked when this file compiles: every game keeps it,
// and a type that lacks its members is not taken for a game.
namespace {
struct NotAGame {
  static constexpr int kMaxMoves = 4;
};
}  // namespace
static_assert(boneyard::Game<boneyard::line::LineGame>);
static_assert(boneyard::Game<boneyard::mexican_train::MexicanTrain>);
static_assert(boneyard::Game<boneyard::texas42::Texas42>);
static_assert(boneyard::Game<boneyard::dice_dominoes::DiceDominoes>);
static_assert(!boneyard::Game<NotAGame>);

using namespace boneyard;

TEST(Tile, IndexingCoversEverySetUpToDoubleEighteen) {
  EXPECT_EQ(set_size(6), 28);
  EXPECT_EQ(set_size(9), 55);
  EXPECT_EQ(set_size(12), 91);
  EXPECT_EQ(set_size(15), 136);
  EXPECT_EQ(set_size(18), 190);
  std::set<int> seen;
  for (int a = 0; a <= 18; ++a)
    for (int b = 0; b <= a; ++b) {
      const Tile t = Tile::of(a, b);
      EXPECT_EQ(t, Tile::of(b, a));
      EXPECT_EQ(t.high(), a);
      EXPECT_EQ(t.low(), b);
      EXPECT_EQ(t.pips(), a + b);
      EXPECT_EQ(t.is_double(), a == b);
      EXPECT_TRUE(t.shows(a) && t.shows(b));
      EXPECT_EQ(t.other(a), b);
      EXPECT_LT(t.index, set_size(a));  // double-a set is a prefix
      seen.insert(t.index);
    }
  EXPECT_EQ(seen.size(), 190u);
}

TEST(Notation, EveryFormParsesToTheSameTile) {
  for (const char* s : {"6-4", "4-6", "6|4", "4|6", "[6|4]", "[4|6]", " 6-4 "})
    EXPECT_EQ(parse_tile(s, 6), Tile::of(6, 4)) << s;
  EXPECT_EQ(parse_tile("12-11", 12), Tile::of(12, 11));
  EXPECT_EQ(to_string(Tile::of(4, 6)), "6-4");
  EXPECT_EQ(to_string(Tile::of(0, 0)), "0-0");
}

TEST(Notation, MalformedTilesGetClearErrors) {
  for (const char* s : {"", "6", "6-", "-4", "6/4", "6--4", "[6-4]", "[6|4", "6|4]", "a-b", "6-4x", "123-1", "6 4"}) {
    try {
      parse_tile(s, 6);
      ADD_FAILURE() << "accepted '" << s << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos) << e.what();
    }
  }
  try {
    parse_tile("7-3", 6);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0..6"), std::string::npos);
  }
}

TEST(TileSet, BitsetOperations) {
  TileSet s;
  s.add(Tile::of(18, 18));
  s.add(Tile::of(0, 0));
  s.add(Tile::of(12, 3));
  EXPECT_EQ(s.size(), 3);
  EXPECT_TRUE(s.has(Tile::of(18, 18)));
  EXPECT_EQ(s.pips(), 36 + 15);
  EXPECT_EQ(s.nth(0), Tile::of(0, 0));
  EXPECT_EQ(s.nth(2), Tile::of(18, 18));
  s.remove(Tile::of(0, 0));
  EXPECT_EQ(s.size(), 2);
  EXPECT_EQ((suit<3>(12, 12)).size(), 13);
  EXPECT_EQ((doubles<3>(15)).size(), 16);
  EXPECT_EQ((suit<1>(6, 6) & suit<1>(4, 6)).size(), 1);
  EXPECT_EQ(to_string(SmallSet::single(Tile::of(5, 3)) | SmallSet::single(Tile::of(6, 6))), "6-6 5-3");
  EXPECT_EQ(SmallSet::first_n(28).size(), 28);
}

// Known answers computed by an independent implementation of splitmix64 +
// xoshiro256** (and of the bounded draw): a seed gives the same game on any
// platform and standard library.
TEST(Rng, KnownAnswers) {
  Rng r(42);
  EXPECT_EQ(r.next(), 0x15780b2e0c2ec716ULL);
  EXPECT_EQ(r.next(), 0x6104d9866d113a7eULL);
  EXPECT_EQ(r.next(), 0xae17533239e499a1ULL);
  Rng b(7);
  const uint32_t want[] = {19, 7, 23, 27, 27, 24, 1, 2, 11, 4};
  for (uint32_t w : want) EXPECT_EQ(b.below(28), w);
}

TEST(Rng, ShuffleIsAPermutationAndBelowIsInRange) {
  Rng r(1);
  int a[100];
  for (int i = 0; i < 100; ++i) a[i] = i;
  r.shuffle(a, 100);
  std::set<int> s(a, a + 100);
  EXPECT_EQ(s.size(), 100u);
  int counts[7] = {};
  for (int i = 0; i < 70000; ++i) ++counts[r.below(7)];
  for (int c : counts) EXPECT_NEAR(c, 10000, 500);
}

TEST(Sampler, RespectsConstraintsAndCapacities) {
  // 6 tiles, 3 places of 2; tile 0 and 1 may only go to place 2.
  std::vector<Tile> tiles;
  for (int i = 0; i < 6; ++i) tiles.push_back(Tile{static_cast<uint8_t>(i)});
  std::vector<uint32_t> allowed = {4, 4, 7, 7, 3, 7};
  Rng rng(3);
  for (int rep = 0; rep < 200; ++rep) {
    auto p = sample_assignment(tiles, allowed, {2, 2, 2}, rng);
    ASSERT_EQ(p.size(), 6u);
    int cap[3] = {};
    for (int i = 0; i < 6; ++i) {
      ASSERT_TRUE((allowed[static_cast<size_t>(i)] >> p[static_cast<size_t>(i)]) & 1);
      ++cap[p[static_cast<size_t>(i)]];
    }
    EXPECT_EQ(cap[0], 2);
    EXPECT_EQ(cap[1], 2);
    EXPECT_EQ(cap[2], 2);
  }
  // Three tiles that only fit a place of two: impossible.
  EXPECT_TRUE(sample_assignment(tiles, {4, 4, 4, 7, 7, 7}, {2, 2, 2}, rng).empty());
}

TEST(Sampler, ConstructivePathStillFeasibleUnderTightConstraints) {
  // 12 tiles, 4 places of 3; each tile allowed in exactly one place except a
  // few: rejection rarely succeeds, the constructive pass must.
  std::vector<Tile> tiles;
  std::vector<uint32_t> allowed;
  for (int i = 0; i < 12; ++i) {
    tiles.push_back(Tile{static_cast<uint8_t>(i)});
    allowed.push_back(i < 10 ? 1u << (i % 4) : 15u);
  }
  Rng rng(9);
  auto p = sample_assignment(tiles, allowed, {3, 3, 3, 3}, rng);
  ASSERT_EQ(p.size(), 12u);
  for (int i = 0; i < 12; ++i) ASSERT_TRUE((allowed[static_cast<size_t>(i)] >> p[static_cast<size_t>(i)]) & 1);
}

namespace {
// Every assignment of tiles to places that keeps the allowed places and the
// capacities, counted by brute force: the exact law a sampler should follow.
std::vector<std::vector<double>> exact_marginals(const std::vector<uint32_t>& allowed, const std::vector<int>& cap) {
  const int n = static_cast<int>(allowed.size()), places = static_cast<int>(cap.size());
  std::vector<std::vector<double>> m(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(places)));
  std::vector<int> p(static_cast<size_t>(n), 0);
  double valid = 0;
  for (;;) {
    std::vector<int> used(static_cast<size_t>(places), 0);
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) {
      ok = (allowed[static_cast<size_t>(i)] >> p[static_cast<size_t>(i)]) & 1;
      ++used[static_cast<size_t>(p[static_cast<size_t>(i)])];
    }
    if (ok && used == cap) {
      valid += 1;
      for (int i = 0; i < n; ++i) m[static_cast<size_t>(i)][static_cast<size_t>(p[static_cast<size_t>(i)])] += 1;
    }
    int i = 0;
    while (i < n && ++p[static_cast<size_t>(i)] == places) p[static_cast<size_t>(i++)] = 0;
    if (i == n) break;
  }
  for (auto& row : m)
    for (auto& x : row) x /= valid;
  return m;
}

double sampled_marginals_gap(const std::vector<uint32_t>& allowed, const std::vector<int>& cap, int draws, Rng& rng) {
  const auto exact = exact_marginals(allowed, cap);
  std::vector<Tile> tiles;
  for (size_t i = 0; i < allowed.size(); ++i) tiles.push_back(Tile{static_cast<uint8_t>(i)});
  std::vector<std::vector<double>> seen(exact.size(), std::vector<double>(cap.size()));
  for (int d = 0; d < draws; ++d) {
    const auto p = sample_assignment_mixed(tiles, allowed, cap, rng);
    std::vector<int> used(cap.size(), 0);
    for (size_t i = 0; i < p.size(); ++i) {
      EXPECT_TRUE((allowed[i] >> p[i]) & 1) << "tile " << i << " in a place it may not go";
      ++used[static_cast<size_t>(p[i])];
      seen[i][static_cast<size_t>(p[i])] += 1.0 / draws;
    }
    EXPECT_EQ(used, cap);
  }
  double gap = 0;
  for (size_t i = 0; i < exact.size(); ++i)
    for (size_t q = 0; q < cap.size(); ++q) gap = std::max(gap, std::abs(seen[i][q] - exact[i][q]));
  return gap;
}
}  // namespace

// Mexican Train's sampler: where a few voids make plain rejection fail, a
// feasible assignment mixed by swaps and 3-rotations must still deal every
// consistent assignment equally often. Checked against brute force on a case
// where a rejection try succeeds 2 times in 1,000 (56 consistent assignments,
// so the chain deals 99 in 100) and on one whose assignments swaps alone do
// not connect.
TEST(Sampler, MixedDealsFollowTheExactLawWhereRejectionFails) {
  // 10 tiles; places: three hands (2, 3, 2) and a boneyard (3) that takes
  // anything. Hands lack numbers: some tiles fit one hand or none.
  const std::vector<uint32_t> allowed = {8 | 1, 8 | 1, 8 | 2, 8 | 2, 8 | 4, 8 | 4, 8 | 1 | 2, 8 | 2 | 4, 8, 15};
  const std::vector<int> cap = {2, 3, 2, 3};
  // A rejection try deals a uniform permutation: it succeeds with
  // probability (consistent assignments) x 2! 3! 2! 3! / 10! = 0.0022.
  Rng rng(21);
  // 20,000 draws: a marginal's standard error is at most 0.0035.
  EXPECT_LT(sampled_marginals_gap(allowed, cap, 20000, rng), 0.02);
  // Six assignments that swaps alone split into two sets of 2 and 4 (found
  // by brute force; the 3-rotations join them). A rejection try succeeds 1
  // time in 105.
  const std::vector<uint32_t> split = {9, 4, 9, 7, 8, 14, 6};
  EXPECT_LT(sampled_marginals_gap(split, {2, 1, 2, 2}, 20000, rng), 0.02);
  // No assignment at all: three tiles that fit only a place of two.
  std::vector<Tile> six;
  for (uint8_t i = 0; i < 6; ++i) six.push_back(Tile{i});
  EXPECT_TRUE(sample_assignment_mixed(six, {4, 4, 4, 7, 7, 7}, {2, 2, 2}, rng).empty());
}

TEST(Sampler, MixedAndPlainSamplersAgreeWhetherADealExists) {
  Rng rng(5);
  for (int rep = 0; rep < 300; ++rep) {
    const int n = 4 + static_cast<int>(rng.below(20)), places = 2 + static_cast<int>(rng.below(4));
    std::vector<Tile> tiles;
    std::vector<uint32_t> allowed;
    for (int i = 0; i < n; ++i) {
      tiles.push_back(Tile{static_cast<uint8_t>(i)});
      allowed.push_back(static_cast<uint32_t>(rng.below(1u << places)));
    }
    std::vector<int> cap(static_cast<size_t>(places), 0);
    for (int i = 0; i < n; ++i) ++cap[rng.below(static_cast<uint32_t>(places))];
    const auto plain = sample_assignment(tiles, allowed, cap, rng);
    const auto mixed = sample_assignment_mixed(tiles, allowed, cap, rng);
    ASSERT_EQ(plain.empty(), mixed.empty()) << "case " << rep;
    std::vector<int> used(static_cast<size_t>(places), 0);
    for (int i = 0; i < static_cast<int>(mixed.size()); ++i) {
      ASSERT_TRUE((allowed[static_cast<size_t>(i)] >> mixed[static_cast<size_t>(i)]) & 1);
      ++used[static_cast<size_t>(mixed[static_cast<size_t>(i)])];
    }
    if (!mixed.empty()) {
      EXPECT_EQ(used, cap);
    }
  }
}
