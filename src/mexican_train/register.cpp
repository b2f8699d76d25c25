// Registers Mexican Train by name.
#include "bots/register.h"

#include <nlohmann/json.hpp>

#include "core/adapter.h"
#include "core/playout.h"
#include "mexican_train/bots.h"
#include "mexican_train/register.h"

namespace boneyard::mexican_train {

void register_games() {
  GameEntry e;
  e.name = "mexican-train";
  e.family = "mexican-train";
  e.summary =
      "Mexican Train: 2-8 players, personal trains and the Mexican train, double-twelve; penalty pips over 13 rounds";
  e.sources = "seed 002 (Cardinal's rules)";
  e.describe = [] {
    return nlohmann::json{
        {"options", to_json(make_rules({}))}, {"catalogue", option_catalogue()}, {"explain", option_explanations()}};
  };
  e.make = [](const OptionList& o, uint64_t seed) -> std::unique_ptr<AnyState> {
    return std::make_unique<GameAdapter<MexicanTrain>>("mexican-train", State(make_rules(o), seed));
  };
  e.bots = {"random", "greedy"};
  e.make_bot = [](std::string_view bot, uint64_t seed) -> std::unique_ptr<AnyBot> {
    if (bot == "greedy") return std::make_unique<GreedyBot>(seed);
    return std::make_unique<RandomBot<MexicanTrain>>(seed);
  };
  add_search_bots<MexicanTrain>(e);
  e.make_search_bot = [make = e.make_search_bot](std::string_view bot, uint64_t seed, const BotOptions& o) {
    BotOptions tuned = o;
    if (bot == "ismcts" && tuned.iterations == 0) tuned.iterations = kIsmctsIterations;
    return make(bot, seed, tuned);
  };
  e.bench = [](const OptionList& o, uint64_t seed, double seconds) {
    BenchResult r = bench_random_playouts<MexicanTrain>(State(make_rules(o), seed), seed, seconds);
    r.unit = "rounds";
    return r;
  };
  register_game(std::move(e));
}

}  // namespace boneyard::mexican_train
