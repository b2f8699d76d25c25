#pragma once
// Adds the generic search bots to a game's registry entry: ismcts, its
// old version ismcts-v1 and paired for every game; pimc and the omniscient
// reference bot for games with an exact solver.
#include <memory>

#include "bots/ismcts.h"
#include "bots/paired.h"
#include "bots/pimc.h"
#include "core/game.h"

namespace boneyard {

template <class G>
void add_search_bots(GameEntry& e) {
  e.search_bots = {"ismcts", "ismcts-v1", "paired"};
  if constexpr (HasSolver<G>) e.search_bots = {"pimc", "ismcts", "omniscient", "ismcts-v1", "paired"};
  e.make_search_bot = [](std::string_view bot, uint64_t seed, const BotOptions& o) -> std::unique_ptr<AnyBot> {
    if constexpr (HasSolver<G>) {
      if (bot == "pimc") return std::make_unique<PimcBot<G>>(seed, o);
      if (bot == "omniscient") return std::make_unique<OmniscientBot<G>>(seed);
    }
    if (bot == "paired") return std::make_unique<PairedBot<G>>(seed, o);
    if (bot == "ismcts-v1") return std::make_unique<IsmctsBot<G, true>>(seed, o);
    return std::make_unique<IsmctsBot<G>>(seed, o);
  };
}

}  // namespace boneyard
