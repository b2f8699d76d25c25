#include "core/sample.h"

#include <algorithm>

namespace boneyard {

namespace {
// Hall's condition for a b-matching with few places: for every subset S of
// places, the tiles allowed only inside S fit in S's capacity.
bool feasible(const std::vector<uint32_t>& allowed, const std::vector<int>& cap, const std::vector<int8_t>& place,
              int places) {
  const uint32_t full = (1u << places) - 1;
  std::vector<int> count_by_mask(full + 1, 0);
  for (size_t i = 0; i < allowed.size(); ++i)
    if (place[i] < 0) ++count_by_mask[allowed[i] & full];
  for (uint32_t s = 1; s <= full; ++s) {
    int need = 0, have = 0;
    for (uint32_t m = 1; m <= full; ++m)
      if ((m & ~s) == 0) need += count_by_mask[m];
    for (int p = 0; p < places; ++p)
      if ((s >> p) & 1) have += cap[p];
    if (need > have) return false;
  }
  return count_by_mask[0] == 0;
}

// Plain rejection, `attempts` times: a shuffled list dealt into the places in
// order. Exactly uniform when it succeeds.
bool deal_by_rejection(const std::vector<uint32_t>& allowed, const std::vector<int>& capacity, Rng& rng, int attempts,
                       std::vector<int>& order, std::vector<int8_t>& place) {
  const int n = static_cast<int>(allowed.size());
  for (int attempt = 0; attempt < attempts; ++attempt) {
    rng.shuffle(order.data(), n);
    int k = 0;
    bool ok = true;
    for (size_t p = 0; p < capacity.size() && ok; ++p)
      for (int c = 0; c < capacity[p]; ++c, ++k) {
        const int i = order[static_cast<size_t>(k)];
        if (!((allowed[static_cast<size_t>(i)] >> p) & 1)) {
          ok = false;
          break;
        }
        place[static_cast<size_t>(i)] = static_cast<int8_t>(p);
      }
    if (ok) return true;
  }
  return false;
}
}  // namespace

std::vector<int8_t> sample_assignment(const std::vector<Tile>& tiles, const std::vector<uint32_t>& allowed,
                                      const std::vector<int>& capacity, Rng& rng) {
  const int n = static_cast<int>(tiles.size());
  const int places = static_cast<int>(capacity.size());
  std::vector<int8_t> place(static_cast<size_t>(n), -1);
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  if (deal_by_rejection(allowed, capacity, rng, 64, order, place)) return place;
  // Constructive: each tile in random order goes to a random allowed place
  // (weighted by room left) that keeps the rest feasible.
  std::fill(place.begin(), place.end(), -1);
  std::vector<int> cap = capacity;
  if (!feasible(allowed, cap, place, places)) return {};
  rng.shuffle(order.data(), n);
  for (int i : order) {
    int weights[32];
    int total = 0;
    for (int p = 0; p < places; ++p) {
      weights[p] = ((allowed[static_cast<size_t>(i)] >> p) & 1) ? cap[static_cast<size_t>(p)] : 0;
      total += weights[p];
    }
    while (total > 0) {
      int r = static_cast<int>(rng.below(static_cast<uint32_t>(total)));
      int p = 0;
      while (r >= weights[p]) r -= weights[p++];
      place[static_cast<size_t>(i)] = static_cast<int8_t>(p);
      --cap[static_cast<size_t>(p)];
      if (feasible(allowed, cap, place, places)) break;
      ++cap[static_cast<size_t>(p)];
      place[static_cast<size_t>(i)] = -1;
      total -= weights[p];
      weights[p] = 0;
    }
    if (place[static_cast<size_t>(i)] < 0) return {};
  }
  return place;
}

namespace {
// A feasible assignment: tiles in random order, each to a random allowed
// place with room, or, when none has room, along a shortest augmenting path
// (a tile moved from a full place to another it is allowed in, and so on to
// a place with room). False when no assignment exists.
bool feasible_assignment(const std::vector<uint32_t>& allowed, const std::vector<int>& capacity, Rng& rng,
                         std::vector<int>& order, std::vector<int8_t>& place) {
  const int n = static_cast<int>(allowed.size());
  const int places = static_cast<int>(capacity.size());
  int room[32];
  for (int p = 0; p < places; ++p) room[p] = capacity[static_cast<size_t>(p)];
  std::fill(place.begin(), place.end(), int8_t{-1});
  rng.shuffle(order.data(), n);
  for (int i : order) {
    const uint32_t a = allowed[static_cast<size_t>(i)];
    int open[32], n_open = 0;
    for (int p = 0; p < places; ++p)
      if ((a >> p & 1) && room[p] > 0) open[n_open++] = p;
    if (n_open > 0) {
      const int p = open[rng.below(static_cast<uint32_t>(n_open))];
      place[static_cast<size_t>(i)] = static_cast<int8_t>(p);
      --room[p];
      continue;
    }
    // Breadth first over places: reached[q] = the tile that would move into
    // q and the place it leaves (-1 for tile i itself, which has no place).
    int via_tile[32], via_place[32], queue[32], head = 0, tail = 0;
    for (int p = 0; p < places; ++p) via_tile[p] = -2;
    for (int p = 0; p < places; ++p)
      if (a >> p & 1) via_tile[p] = i, via_place[p] = -1, queue[tail++] = p;
    int goal = -1;
    while (head < tail && goal < 0) {
      const int p = queue[head++];
      for (int j = 0; j < n && goal < 0; ++j) {
        if (place[static_cast<size_t>(j)] != p) continue;
        const uint32_t b = allowed[static_cast<size_t>(j)];
        for (int q = 0; q < places; ++q)
          if ((b >> q & 1) && via_tile[q] == -2) {
            via_tile[q] = j, via_place[q] = p, queue[tail++] = q;
            if (room[q] > 0) {
              goal = q;
              break;
            }
          }
      }
    }
    if (goal < 0) return false;
    --room[goal];
    for (int q = goal; q >= 0;) {  // each tile on the path moves one place on
      const int t = via_tile[q], from = via_place[q];
      place[static_cast<size_t>(t)] = static_cast<int8_t>(q);
      q = from;
    }
  }
  return true;
}
}  // namespace

constexpr int kMixSteps = 8;  // proposals a constrained tile: 4 reached exact rejection's marginals
std::vector<int8_t> sample_assignment_mixed(const std::vector<Tile>& tiles, const std::vector<uint32_t>& allowed,
                                            const std::vector<int>& capacity, Rng& rng) {
  const int n = static_cast<int>(tiles.size());
  std::vector<int8_t> place(static_cast<size_t>(n), -1);
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  if (deal_by_rejection(allowed, capacity, rng, 4, order, place)) return place;
  if (!feasible_assignment(allowed, capacity, rng, order, place)) return {};
  // The chain moves only the constrained tiles (each proposal picks one of
  // them and one or two tiles of any kind, a choice that does not depend on
  // the places, so each proposal is as likely as its reverse); the tiles
  // allowed everywhere are then shuffled among their places exactly.
  const uint32_t everywhere = (capacity.size() >= 32 ? ~0u : (1u << capacity.size()) - 1);
  std::vector<int> bound, free;
  for (int i = 0; i < n; ++i)
    ((allowed[static_cast<size_t>(i)] & everywhere) == everywhere ? free : bound).push_back(i);
  const auto un = static_cast<uint32_t>(n);
  const auto fits = [&](int i, int p) { return (allowed[static_cast<size_t>(i)] >> p & 1) != 0; };
  const int steps = kMixSteps * static_cast<int>(bound.size());
  const auto ub = static_cast<uint32_t>(bound.size());
  for (int step = 0; step < steps; ++step) {
    const int i = bound[rng.below(ub)], j = static_cast<int>(rng.below(un));
    const int pi = place[static_cast<size_t>(i)], pj = place[static_cast<size_t>(j)];
    if (pi == pj) continue;
    if ((step & 3) != 3) {
      if (fits(i, pj) && fits(j, pi))
        place[static_cast<size_t>(i)] = static_cast<int8_t>(pj),
        place[static_cast<size_t>(j)] = static_cast<int8_t>(pi);
      continue;
    }
    const int k = static_cast<int>(rng.below(un));  // i -> j's place, j -> k's, k -> i's
    const int pk = place[static_cast<size_t>(k)];
    if (pk == pi || pk == pj) continue;
    if (fits(i, pj) && fits(j, pk) && fits(k, pi)) {
      place[static_cast<size_t>(i)] = static_cast<int8_t>(pj);
      place[static_cast<size_t>(j)] = static_cast<int8_t>(pk);
      place[static_cast<size_t>(k)] = static_cast<int8_t>(pi);
    }
  }
  std::vector<int8_t> spots(free.size());
  const int nf = static_cast<int>(free.size());
  for (int f = 0; f < nf; ++f) spots[static_cast<size_t>(f)] = place[static_cast<size_t>(free[static_cast<size_t>(f)])];
  rng.shuffle(spots.data(), nf);
  for (int f = 0; f < nf; ++f) place[static_cast<size_t>(free[static_cast<size_t>(f)])] = spots[static_cast<size_t>(f)];
  return place;
}

}  // namespace boneyard
