#pragma once
// Sampling hidden tiles consistently with what a seat knows: each unknown
// tile may only go to the places (other hands, boneyard) it is allowed in,
// and each place takes exactly its count. Shared by every game's sampler.
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "core/tile.h"

namespace boneyard {

// tiles[i] may go to place p when (allowed[i] >> p) & 1. capacity[p] is how
// many tiles place p takes; the capacities add up to tiles.size(). Returns
// place[i] for each tile, or an empty vector when no assignment exists.
// Uniform when plain rejection succeeds (the common case); otherwise a
// constructive pass with a Hall-condition check keeps every step feasible.
std::vector<int8_t> sample_assignment(const std::vector<Tile>& tiles, const std::vector<uint32_t>& allowed,
                                      const std::vector<int>& capacity, Rng& rng);

}  // namespace boneyard
