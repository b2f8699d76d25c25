// Registers every line-game preset by name.
#include "bots/register.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/adapter.h"
#include "core/playout.h"
#include "line/bots.h"
#include "line/register.h"
#include "line/review.h"
#include "line/solver.h"
#include "line/words.h"

namespace boneyard::line {

namespace {

// What the moves look like and mean, one paragraph a line (the rules:
// ../shared/rules/), for `play`'s help.
const char* kHelp =
    "Tiles: 6-4, 4-6, 6|4 or [6|4]; add :L or :R (or ' left' / ' right') when a tile fits both ends.\n"
    "pass and draw are played for you when they are your only move. leader:2 names who leads for your "
    "team when the winning team chooses; redeal or keep after a deal with five doubles.\n";

bool wins(const AnyState& st) {
  const auto* s = typed_state<LineGame>(st);
  return s && s->rules().scoring == Scoring::Wins;
}

}  // namespace

GameEntry make_entry(const std::string& name, const std::string& summary, const std::string& sources,
                     std::function<Rules(const OptionList&)> rules) {
  GameEntry e;
  e.name = name;
  e.family = "line";
  e.summary = summary;
  e.sources = sources;
  e.describe = [rules] {
    nlohmann::json j = to_json(rules({}));
    return nlohmann::json{{"options", j}, {"catalogue", option_catalogue()}, {"explain", option_explanations()}};
  };
  e.make = [name, rules](const OptionList& o, uint64_t seed) -> std::unique_ptr<AnyState> {
    return std::make_unique<GameAdapter<LineGame>>(name, State(rules(o), seed));
  };
  e.bots = {"random", "greedy"};
  e.make_bot = [](std::string_view bot, uint64_t seed) -> std::unique_ptr<AnyBot> {
    if (bot == "greedy") return std::make_unique<GreedyBot>(seed);
    return std::make_unique<RandomBot<LineGame>>(seed);
  };
  add_search_bots<LineGame>(e);
  e.strongest_bot = "ismcts";  // it beats pimc in duplicate arenas (docs/bots.md)
  e.bench = [rules](const OptionList& o, uint64_t seed, double seconds) {
    return bench_random_playouts<LineGame>(State(rules(o), seed), seed, seconds);
  };
  e.help = kHelp;
  e.count_passes = true;
  e.words_heard = [](const AnyState& st, int seat, std::string_view move, int listener) {
    const auto& s = *typed_state<LineGame>(st);
    return line::words_heard(s, seat, s.parse_move(seat, move), listener);
  };
  e.value_unit = [](const AnyState& st) {
    return fmt::format("{} for {} this hand", wins(st) ? "wins" : "points", your_side(st));
  };
  e.review_unit = [](const AnyState& st) { return wins(st) ? "wins" : "points"; };
  e.review_solver = review_solver();
  // Four players in partnerships unless the options (or the preset) say
  // how many play each for themselves.
  e.partnership = [rules](const nlohmann::json& options) {
    std::string players = line::name(rules({}).players);
    if (options.contains("players")) players = options["players"].get<std::string>();
    return players == "teams";
  };
  return e;
}

void register_games() {
  for (const Preset& p : presets()) {
    const std::string name = p.name;
    register_game(make_entry(name, p.summary, p.sources, [name](const OptionList& o) { return make_rules(name, o); }));
  }
}

}  // namespace boneyard::line
