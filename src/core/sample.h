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

// The uniform law over the consistent assignments (which the constructive
// pass above only approaches), at a fraction of its cost where plain
// rejection mostly fails (a few voids make it fail nearly always; the
// constructive pass then costs 10 to 35 us a deal): a few rejection
// attempts, else a random feasible assignment (augmenting paths) mixed by a
// chain of swaps and 3-rotations between places. Every step of the chain
// keeps the capacities and the allowed places, and each proposal is as
// likely as its reverse, so the chain's stationary law is the uniform one.
// Mexican Train's ismcts uses it (docs/bots.md); the other samplers keep the
// one above, so their bots and their measurements stay as they were.
std::vector<int8_t> sample_assignment_mixed(const std::vector<Tile>& tiles, const std::vector<uint32_t>& allowed,
                                            const std::vector<int>& capacity, Rng& rng);

}  // namespace boneyard
