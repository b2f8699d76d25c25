// Core: tiles, notation, tile sets, the generator and the hidden-tile sampler.
#include <gtest/gtest.h>

#include <set>

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
