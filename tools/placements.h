#pragma once
// The driver the placements tools share (line_placements,
// mexican_train_placements): their arguments, and games of ismcts against
// ismcts-v1 in which every placement with a choice is printed with the
// engine's own log-probability of it (docs/bots.md, "Beliefs from play").
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bots/ismcts.h"

namespace boneyard::tools {

struct PlacementsArgs {
  int games = 0, iterations = 0, seed = 5000;
};

// GAMES ITERATIONS [SEED] from the command line, or exits: 0 after
// --help, 2 with the usage or a clear error.
inline PlacementsArgs placements_args(int argc, char** argv, const char* tool, const char* game) {
  if (argc < 3 || argc > 4 || std::string(argv[1]) == "--help") {
    std::fprintf(stderr,
                 "usage: %s GAMES ITERATIONS [SEED]\n"
                 "Plays GAMES %s games (ismcts against ismcts-v1, ITERATIONS each a decision) and prints\n"
                 "each placement with a choice: its options' features and the one laid (see the file's head).\n",
                 tool, game);
    std::exit(argc == 2 && std::string(argv[1]) == "--help" ? 0 : 2);
  }
  const auto whole = [&](const char* text, const char* what, int lo, int hi) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (!*text || *end || v < lo || v > hi) {
      std::fprintf(stderr, "%s: %s must be a whole number from %d to %d, not '%s'\n", tool, what, lo, hi, text);
      std::exit(2);
    }
    return static_cast<int>(v);
  };
  PlacementsArgs a;
  a.games = whole(argv[1], "GAMES", 1, 100000);
  a.iterations = whole(argv[2], "ITERATIONS", 1, 1000000);
  if (argc == 4) a.seed = whole(argv[3], "SEED", 0, 1 << 30);
  return a;
}

// Game g's bots: the seats alternate ismcts and ismcts-v1 (which seat
// starts with which alternates by game), each at `iterations` a decision.
template <class G>
std::vector<std::unique_ptr<Bot<G>>> placements_bots(int seats, int g, int iterations) {
  BotOptions options;
  options.iterations = iterations;
  std::vector<std::unique_ptr<Bot<G>>> bots;
  for (int k = 0; k < seats; ++k) {
    const uint64_t bot_seed = static_cast<uint64_t>(g) * 10 + static_cast<uint64_t>(k);
    if ((k + g) % 2)
      bots.push_back(std::make_unique<IsmctsBot<G, true>>(bot_seed, options));
    else
      bots.push_back(std::make_unique<IsmctsBot<G, false>>(bot_seed, options));
  }
  return bots;
}

// Plays the games (seats alternate ismcts and ismcts-v1). For each move,
// `print(s, seat, legal, move)` prints the placement's options and the one
// chosen, returning false where it was no choice (nothing printed); then
// the line ends with the placement's term in `log_likelihood(s, other)`
// for another seat, or "-" where `ended(s)` says the move ended the hand.
template <class G, class Make, class Print, class LogLikelihood, class Ended>
void play_placements(const PlacementsArgs& a, Make make_state, Print print, LogLikelihood log_likelihood, Ended ended) {
  for (int g = 0; g < a.games; ++g) {
    typename G::State s = make_state(static_cast<uint64_t>(a.seed + g));
    const auto bots = placements_bots<G>(s.num_seats(), g, a.iterations);
    while (!s.terminal()) {
      const Actor actor = s.actor();
      if (actor.kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      MoveList<typename G::Move, G::kMaxMoves> legal;
      s.legal_moves(actor.seat, legal);
      const auto m = bots[static_cast<size_t>(actor.seat)]->choose(s.observe(actor.seat), legal.span());
      if (!print(s, actor.seat, legal.span(), m)) {
        s.apply(actor.seat, m);
        continue;
      }
      const int other = (actor.seat + 1) % s.num_seats(), hands = s.hands_finished();
      const double before = log_likelihood(s, other);
      s.apply(actor.seat, m);
      if (s.terminal() || s.hands_finished() != hands || ended(s))
        std::printf(" | -\n");
      else
        std::printf(" | %.17g\n", log_likelihood(s, other) - before);
    }
  }
}

}  // namespace boneyard::tools
