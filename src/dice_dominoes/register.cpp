// Registers Dice & Dominoes by name.
#include "dice_dominoes/register.h"

#include <nlohmann/json.hpp>

#include "bots/register.h"
#include "core/adapter.h"
#include "core/playout.h"
#include "dice_dominoes/bots.h"

namespace boneyard::dice_dominoes {

// The default ismcts budget for a decision.
constexpr int kIsmctsIterations = 1000;

void register_games() {
  GameEntry e;
  e.name = "dice-and-dominoes";
  e.family = "dice-and-dominoes";
  e.summary =
      "Dice & Dominoes: two dice set the match points, everyone lays two tiles at once; first out takes the pot";
  e.sources = "001";
  e.describe = [] {
    return nlohmann::json{
        {"options", to_json(make_rules({}))}, {"catalogue", option_catalogue()}, {"explain", option_explanations()}};
  };
  e.make = [](const OptionList& o, uint64_t seed) -> std::unique_ptr<AnyState> {
    return std::make_unique<GameAdapter<DiceDominoes>>("dice-and-dominoes", State(make_rules(o), seed));
  };
  e.bots = {"random", "greedy"};
  e.make_bot = [](std::string_view bot, uint64_t seed) -> std::unique_ptr<AnyBot> {
    if (bot == "greedy") return std::make_unique<GreedyBot>(seed);
    return std::make_unique<RandomBot<DiceDominoes>>(seed);
  };
  add_search_bots<DiceDominoes>(e);
  // ismcts's generic default (2000 iterations) takes about 0.3 s a decision
  // here (its time grows faster than the iterations); 1000 stays near 50 ms.
  e.make_search_bot = [make = e.make_search_bot](std::string_view bot, uint64_t seed, const BotOptions& o) {
    BotOptions budget = o;
    if (budget.iterations == 0 && budget.think_ms <= 0) budget.iterations = kIsmctsIterations;
    return make(bot, seed, budget);
  };
  e.bench = [](const OptionList& o, uint64_t seed, double seconds) {
    return bench_random_playouts<DiceDominoes>(State(make_rules(o), seed), seed, seconds);
  };
  register_game(std::move(e));
}

}  // namespace boneyard::dice_dominoes
