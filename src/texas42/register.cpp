// Registers Texas 42 by name.
#include "bots/register.h"

#include <nlohmann/json.hpp>

#include "core/adapter.h"
#include "core/playout.h"
#include "texas42/bots.h"
#include "texas42/register.h"
#include "texas42/solver.h"

namespace boneyard::texas42 {

void register_games() {
  GameEntry e;
  e.name = "texas-42";
  e.family = "texas-42";
  e.summary = "Texas 42: partnership trick-taking with bids, trumps, count and marks";
  e.sources = "seed 004 (the 42 Dominoes app, with the footnote's house rules)";
  e.describe = [] {
    return nlohmann::json{
        {"options", to_json(Rules{})}, {"catalogue", option_catalogue()}, {"explain", option_explanations()}};
  };
  e.make = [](const OptionList& o, uint64_t seed) -> std::unique_ptr<AnyState> {
    return std::make_unique<GameAdapter<Texas42>>("texas-42", State(make_rules(o), seed));
  };
  e.bots = {"random", "greedy"};
  e.make_bot = [](std::string_view bot, uint64_t seed) -> std::unique_ptr<AnyBot> {
    if (bot == "greedy") return std::make_unique<GreedyBot>(seed);
    return std::make_unique<RandomBot<Texas42>>(seed);
  };
  add_search_bots<Texas42>(e);
  // pimc as it bid before issue 23 (auction ignored), for measuring.
  e.search_bots.push_back("pimc-plain");
  e.make_search_bot = [search = e.make_search_bot](std::string_view bot, uint64_t seed,
                                                   const BotOptions& o) -> std::unique_ptr<AnyBot> {
    if (bot == "pimc-plain") return std::make_unique<PlainPimcBot>(seed, o);
    return search(bot, seed, o);
  };
  e.bench = [](const OptionList& o, uint64_t seed, double seconds) {
    return bench_random_playouts<Texas42>(State(make_rules(o), seed), seed, seconds);
  };
  register_game(std::move(e));
}

}  // namespace boneyard::texas42
