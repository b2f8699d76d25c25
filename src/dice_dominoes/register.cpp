// Registers Dice & Dominoes by name.
#include "dice_dominoes/register.h"

#include <nlohmann/json.hpp>

#include "core/adapter.h"
#include "core/playout.h"
#include "dice_dominoes/bots.h"

namespace boneyard::dice_dominoes {

void register_games() {
  GameEntry e;
  e.name = "dice-and-dominoes";
  e.family = "dice-and-dominoes";
  e.summary = "Dice & Dominoes: two dice set the match points, everyone lays two tiles at once; first out takes the pot";
  e.sources = "001";
  e.describe = [] { return nlohmann::json{{"options", to_json(make_rules({}))}, {"catalogue", option_catalogue()}}; };
  e.make = [](const OptionList& o, uint64_t seed) -> std::unique_ptr<AnyState> {
    return std::make_unique<GameAdapter<DiceDominoes>>("dice-and-dominoes", State(make_rules(o), seed));
  };
  e.bots = {"random", "greedy"};
  e.make_bot = [](std::string_view bot, uint64_t seed) -> std::unique_ptr<AnyBot> {
    if (bot == "greedy") return std::make_unique<GreedyBot>(seed);
    return std::make_unique<RandomBot<DiceDominoes>>(seed);
  };
  e.bench = [](const OptionList& o, uint64_t seed, double seconds) {
    return bench_random_playouts<DiceDominoes>(State(make_rules(o), seed), seed, seconds);
  };
  register_game(std::move(e));
}

}  // namespace boneyard::dice_dominoes
