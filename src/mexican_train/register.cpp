// Registers Mexican Train by name.
#include "bots/register.h"

#include <nlohmann/json.hpp>

#include "core/adapter.h"
#include "core/playout.h"
#include "mexican_train/bots.h"
#include "mexican_train/register.h"
#include "mexican_train/words.h"

namespace boneyard::mexican_train {

namespace {

// What the moves look like and mean, one paragraph a line (the rules:
// ../shared/rules/), for `play`'s help.
const char* kHelp =
    "A move is a tile and a train: 12-4:T2 lays 12-4 on seat 2's train, 12-4:T0 on seat 0's, 12-4:M on "
    "the Mexican train (laying there while it is empty starts it). A bare tile works when it fits one "
    "train only. The words in the list work too (\"12-4 on your train\").\n"
    "Your first turn of a round (the opening turn) is on your own train only: you go on laying while a "
    "tile fits its end, and end (\"end your opening turn\") ends the turn once none does.\n"
    "After that, one tile a turn: on your own train, the Mexican train, or a train with a MARKER (open "
    "to all). A double must be covered at once; if you cannot, it stays open and, once every seat has "
    "had its opening turn, the next seats must cover it before anything else.\n"
    "Type draw when nothing fits (once a turn; only the drawn tile may then be laid), pass when the "
    "boneyard is empty (your marker goes on). The pips left in hand are penalties: the lowest total wins.\n";

}  // namespace

void register_games() {
  GameEntry e;
  e.name = "mexican-train";
  e.family = "mexican-train";
  e.summary =
      "Mexican Train: 2-8 players, personal trains and the Mexican train, double-twelve; penalty pips over 13 rounds";
  e.sources = "source document 002 (Cardinal's rules)";
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
  // The levels: with the exact sampler, 8,000 iterations measured only +17
  // Elo over 2,000 (200 deal sets), where 2,000 measured +54 over 500; so
  // strong searches 500 and expert 8,000 (docs/bots.md, "Levels").
  e.strong_count = 500;
  e.expert_count = 8000;
  e.make_search_bot = [make = e.make_search_bot](std::string_view bot, uint64_t seed, const BotOptions& o) {
    BotOptions tuned = o;
    if ((bot == "ismcts" || bot == "ismcts-v1") && tuned.iterations == 0) tuned.iterations = kIsmctsIterations;
    return make(bot, seed, tuned);
  };
  e.bench = [](const OptionList& o, uint64_t seed, double seconds) {
    BenchResult r = bench_random_playouts<MexicanTrain>(State(make_rules(o), seed), seed, seconds);
    r.unit = "rounds";
    return r;
  };
  e.help = kHelp;
  // Penalty pips: say which way is good.
  e.score_heading = [](const AnyState&) { return std::string("Penalty so far (lower is better):"); };
  e.penalty = true;
  e.rounds = true;
  // Spec Play 3 and 5: a drawn tile that cannot be laid marks the own train.
  e.draw_ends_turn = [](bool to_drawer) -> std::string {
    return to_drawer ? "it cannot be laid: your marker goes on" : "it cannot be laid: its marker goes on";
  };
  e.words_heard = [](const AnyState& st, int seat, std::string_view move, int listener) {
    const auto& s = *typed_state<MexicanTrain>(st);
    return mexican_train::words_heard(s, seat, s.parse_move(seat, move), listener);
  };
  e.review_unit = [](const AnyState&) { return "pips"; };
  // ismcts's reward is a pip difference over 8 x the set's top pip (bots.cpp).
  e.review_scale = [](const AnyState& st) {
    const auto* s = typed_state<MexicanTrain>(st);
    return s ? 8.0 * s->rules().max_pip() : 1.0;
  };
  register_game(std::move(e));
}

}  // namespace boneyard::mexican_train
