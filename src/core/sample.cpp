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
}  // namespace

std::vector<int8_t> sample_assignment(const std::vector<Tile>& tiles, const std::vector<uint32_t>& allowed,
                                      const std::vector<int>& capacity, Rng& rng) {
  const int n = static_cast<int>(tiles.size());
  const int places = static_cast<int>(capacity.size());
  std::vector<int8_t> place(static_cast<size_t>(n), -1);
  // Plain rejection: deal a shuffled list into the places in order.
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  for (int attempt = 0; attempt < 64; ++attempt) {
    rng.shuffle(order.data(), n);
    int k = 0;
    bool ok = true;
    for (int p = 0; p < places && ok; ++p)
      for (int c = 0; c < capacity[static_cast<size_t>(p)]; ++c, ++k) {
        const int i = order[static_cast<size_t>(k)];
        if (!((allowed[static_cast<size_t>(i)] >> p) & 1)) {
          ok = false;
          break;
        }
        place[static_cast<size_t>(i)] = static_cast<int8_t>(p);
      }
    if (ok) return place;
  }
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

}  // namespace boneyard
