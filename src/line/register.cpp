// Registers every line-game preset by name.
#include "bots/register.h"

#include <nlohmann/json.hpp>

#include "core/adapter.h"
#include "core/playout.h"
#include "line/bots.h"
#include "line/register.h"
#include "line/solver.h"

namespace boneyard::line {

void register_games() {
  for (const Preset& p : presets()) {
    const std::string name = p.name;
    GameEntry e;
    e.name = name;
    e.family = "line";
    e.summary = p.summary;
    e.sources = p.sources;
    e.describe = [name] {
      nlohmann::json j = to_json(make_rules(name, {}));
      return nlohmann::json{{"options", j}, {"catalogue", option_catalogue()}, {"explain", option_explanations()}};
    };
    e.make = [name](const OptionList& o, uint64_t seed) -> std::unique_ptr<AnyState> {
      return std::make_unique<GameAdapter<LineGame>>(name, State(make_rules(name, o), seed));
    };
    e.bots = {"random", "greedy"};
    e.make_bot = [](std::string_view bot, uint64_t seed) -> std::unique_ptr<AnyBot> {
      if (bot == "greedy") return std::make_unique<GreedyBot>(seed);
      return std::make_unique<RandomBot<LineGame>>(seed);
    };
    add_search_bots<LineGame>(e);
    e.strongest_bot = "ismcts";  // it beats pimc in duplicate arenas (docs/bots.md)
    e.bench = [name](const OptionList& o, uint64_t seed, double seconds) {
      return bench_random_playouts<LineGame>(State(make_rules(name, o), seed), seed, seconds);
    };
    register_game(std::move(e));
  }
}

}  // namespace boneyard::line
