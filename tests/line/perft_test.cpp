// Perft: the number of distinct complete play sequences of a hand from fixed
// explicit deals, counted by the engine and by an independent brute force
// written here from the spec's play mechanism alone.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "support.h"

using namespace boneyard;
using namespace boneyard::line;
using namespace boneyard::line::testing;

namespace {

uint64_t engine_count(const State& s) {
  if (s.hands_finished() > 0) return 1;
  MoveList<Move, 64> l;
  s.legal_moves(s.to_move(), l);
  uint64_t n = 0;
  for (const Move& m : l) {
    State c = s;
    c.apply(c.to_move(), m);
    n += engine_count(c);
  }
  return n;
}

// The independent model: plain vectors, no bitsets, no engine code.
struct Plain {
  std::vector<std::pair<int, int>> hand[4];
  std::vector<std::pair<int, int>> stock;  // drawn from the front
  int players = 4, left = -1, right = -1, to = 0, last = -1, passes = 0;
};

bool fits(std::pair<int, int> t, int n) { return t.first == n || t.second == n; }
int other(std::pair<int, int> t, int n) { return t.first == n ? t.second : t.first; }
bool can_play(const Plain& p, int seat) {
  for (auto t : p.hand[seat])
    if (fits(t, p.left) || fits(t, p.right)) return true;
  return false;
}

uint64_t plain_count(const Plain& p) {
  auto& h = p.hand[p.to];
  uint64_t n = 0;
  auto place = [&](size_t i, int new_left, int new_right) {
    Plain c = p;
    c.hand[c.to].erase(c.hand[c.to].begin() + static_cast<long>(i));
    c.left = new_left;
    c.right = new_right;
    if (c.hand[c.to].empty()) return uint64_t{1};  // domino
    c.last = c.to;
    c.passes = 0;
    c.to = (c.to + 1) % c.players;
    return plain_count(c);
  };
  if (p.left < 0) {  // the lead: any tile
    for (size_t i = 0; i < h.size(); ++i) n += place(i, h[i].first, h[i].second);
    return n;
  }
  bool any = false;
  for (size_t i = 0; i < h.size(); ++i) {
    if (fits(h[i], p.left)) {
      any = true;
      n += place(i, other(h[i], p.left), p.right);
    }
    if (p.left != p.right && fits(h[i], p.right)) {
      any = true;
      n += place(i, p.left, other(h[i], p.right));
    }
  }
  if (any) return n;
  if (!p.stock.empty()) {  // draw one tile, then decide again
    Plain c = p;
    c.hand[c.to].push_back(c.stock.front());
    c.stock.erase(c.stock.begin());
    return plain_count(c);
  }
  Plain c = p;  // pass
  ++c.passes;
  if (c.passes == c.players - 1) {
    c.to = c.last;
    if (!can_play(c, c.to)) return 1;  // block
    return plain_count(c);
  }
  c.to = (c.to + 1) % c.players;
  return plain_count(c);
}

std::vector<std::pair<int, int>> tiles(const std::string& list) {
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i + 2 < list.size() + 1; i += 4) out.emplace_back(list[i] - '0', list[i + 2] - '0');
  return out;
}

}  // namespace

TEST(LinePerft, FourPlayersFourTilesEach) {
  const std::vector<std::string> hands = {"6-5 4-3 2-1 0-0", "6-4 5-3 2-0 1-1", "6-3 5-4 3-1 2-2", "6-2 5-1 4-0 3-3"};
  State s = make("latin", {{"hand_size", "4"}});
  s.apply_chance_text(rotated_deal(hands, 0, true));
  Plain p;
  for (int k = 0; k < 4; ++k) p.hand[k] = tiles(hands[static_cast<size_t>(k)]);
  const uint64_t e = engine_count(s);
  EXPECT_EQ(e, plain_count(p));
  EXPECT_EQ(e, 202u);  // pinned, perft-style, once both counts agreed
}

TEST(LinePerft, FourPlayersFiveTilesWithManyPasses) {
  const std::vector<std::string> hands = {"6-6 6-5 5-5 1-0 2-1 4-1", "6-4 4-4 4-0 3-1 0-0 5-2",
                                          "6-3 3-3 3-2 2-0 1-1 6-0", "5-4 5-3 4-3 2-2 5-0 6-1"};
  State s = make("latin", {{"hand_size", "6"}});
  s.apply_chance_text(rotated_deal(hands, 1, true));
  Plain p;
  // rotated_deal puts hands[0] at the leader's seat (1).
  for (int k = 0; k < 4; ++k) p.hand[k] = tiles(hands[static_cast<size_t>((k - 1 + 4) % 4)]);
  p.to = 1;
  const uint64_t e = engine_count(s);
  EXPECT_EQ(e, plain_count(p));
  EXPECT_GT(e, 100000u);
}

TEST(LinePerft, TwoPlayersDrawingFromTheBoneyard) {
  State s = make("two-draw", {{"hand_size", "5"}});
  // The stock: every other tile, in a fixed scrambled order.
  std::string stock;
  std::vector<std::pair<int, int>> plain_stock;
  const std::string dealt = "6-6 5-1 2-0 3-3 4-2 6-1 4-4 3-0 5-5 2-1";
  for (int i = 0; i < 28; ++i) {
    const Tile t{static_cast<uint8_t>((i * 11) % 28)};
    const std::string txt = to_string(t);
    if (dealt.find(txt) != std::string::npos) continue;
    stock += " " + txt;
    plain_stock.emplace_back(t.high(), t.low());
  }
  s.apply_chance_text("deal 6-6 5-1 2-0 3-3 4-2 / 6-1 4-4 3-0 5-5 2-1 stock" + stock);
  Plain p;
  p.players = 2;
  p.hand[1] = tiles("6-1 4-4 3-0 5-5 2-1");
  p.stock = plain_stock;
  // The forced lead of 6-6 (highest double) is the engine's first move.
  ASSERT_EQ(s.forced_lead(), Tile::of(6, 6).index);
  p.hand[0] = tiles("5-1 2-0 3-3 4-2");
  p.left = p.right = 6;
  p.last = 0;
  p.to = 1;
  State after = s;
  after.apply(0, after.parse_move(0, "6-6"));
  const uint64_t e = engine_count(after);
  EXPECT_EQ(e, plain_count(p));
  EXPECT_GT(e, 100u);
}
