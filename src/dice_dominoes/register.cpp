// Registers Dice & Dominoes by name.
#include "dice_dominoes/register.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "bots/register.h"
#include "core/adapter.h"
#include "core/playout.h"
#include "dice_dominoes/bots.h"

namespace boneyard::dice_dominoes {

namespace {

// What the moves look like and mean, one paragraph a line (the rules:
// ../shared/rules/), for `play`'s help.
const char* kHelp =
    "Each round the dice give two match points. Everyone lays two tiles face down at once, in order of "
    "preference: 6-2,3-1 (one tile when you hold one).\n"
    "A tile showing a match point is turned up and discarded, one tile per die; the others stay face down "
    "and go back to your hand. Then everyone still in draws 1 tile.\n"
    "Wild: 0-0 always goes and uses no die. Perfect: one tile showing both match points (with 2 and 6: "
    "6-2), using both dice. W-perfect: two doubles, one for each match point (2-2 and 6-6); its player "
    "then chooses reroll (new match points) or keep (the same again). A W-perfect beats a perfect, which "
    "beats a wild: everyone else's revealed tiles, and the lower special, go back to their hands.\n"
    "The first player out takes the pot; several out at once: the best special discarded this hand takes "
    "it, else they split it.\n";

}  // namespace

// The default ismcts budget for a decision.
constexpr int kIsmctsIterations = 1000;

void register_games() {
  GameEntry e;
  e.name = "dice-and-dominoes";
  e.family = "dice-and-dominoes";
  e.summary =
      "Dice & Dominoes: two dice set the match points, everyone lays two tiles at once; first out takes the pot";
  e.sources = "source document 001";
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
  // The strong level searches as much, expert kExpertFactor times it.
  e.strong_count = kIsmctsIterations;
  e.make_search_bot = [make = e.make_search_bot](std::string_view bot, uint64_t seed, const BotOptions& o) {
    BotOptions budget = o;
    if (budget.iterations == 0 && budget.think_ms <= 0) budget.iterations = kIsmctsIterations;
    return make(bot, seed, budget);
  };
  e.bench = [](const OptionList& o, uint64_t seed, double seconds) {
    return bench_random_playouts<DiceDominoes>(State(make_rules(o), seed), seed, seconds);
  };
  e.help = kHelp;
  // The next hand's ante is taken as a hand ends: say so there. Mid-hand
  // (a game quit in its second round) it is this hand's ante.
  e.score_heading = [](const AnyState& st) {
    if (st.terminal()) return std::string("Score:");
    const auto* s = typed_state<DiceDominoes>(st);
    const bool between =
        s && s->hands_finished() > 0 && (s->phase() == Phase::Deal || (s->phase() == Phase::Roll && s->round() == 1));
    const int ante = st.options().value("ante", 1);
    return between ? fmt::format("Chips (the next hand's ante of {} already paid):", ante)
                   : fmt::format("Chips (this hand's ante of {} included):", ante);
  };
  e.face_down = true;
  // The dice are on the table for all; the deal is each seat's own.
  e.public_chance = [](std::string_view outcome) -> std::optional<std::string> {
    if (outcome.rfind("roll ", 0) != 0) return std::nullopt;
    return std::string(outcome.substr(5));
  };
  e.value_unit = [](const AnyState&) { return std::string("chips for your seat this hand"); };
  e.review_unit = [](const AnyState&) { return "chips"; };
  // ismcts's reward is 2 x won / pot - 1, and the pot stays the same through the hand.
  e.review_scale = [](const AnyState& st) {
    const auto* s = typed_state<DiceDominoes>(st);
    return s ? s->pot() / 2.0 : 1.0;
  };
  register_game(std::move(e));
}

}  // namespace boneyard::dice_dominoes
