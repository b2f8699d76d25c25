// mexican_train_placements: the data of the Mexican Train player model's fit
// (src/mexican_train/beliefs.h, docs/bots.md "Beliefs from play"). Plays
// Mexican Train games (4 players) of ismcts against ismcts-v1 and prints, for
// every placement that was a choice, each option's features and which one
// was laid; tools/fit_beliefs.py fits the model's weights (a conditional
// logit) to them.
//
// usage: mexican_train_placements GAMES ITERATIONS [SEED]
// One line a placement: "N f(1) ... f(N) | CHOSEN | LL", each f the four
// integers of PlacementOption (pips, double, tiles kept that show the new
// end, own train), the options being placement_options' for the mover's hand
// and the numbers it could lay on. LL is the engine's own log-probability of
// the choice under the shipped model: what the placement added to
// play_log_likelihood for another seat; "-" where it ended the round.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bots/ismcts.h"
#include "mexican_train/beliefs.h"

using namespace boneyard;
using namespace boneyard::mexican_train;

namespace {

int whole(const char* text, const char* what, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < lo || v > hi) {
    std::fprintf(stderr, "mexican_train_placements: %s must be a whole number from %d to %d, not '%s'\n", what, lo,
                 hi, text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

// Prints the options and returns whether the move was one of them.
bool print_decision(const State& s, int seat, const Move& chosen) {
  uint16_t hand[16] = {};
  for (int n = 0; n <= s.rules().max_pip(); ++n) hand[n] = static_cast<uint16_t>(s.holds(seat, n));
  // The numbers it may lay on now: where its legal lays go.
  MoveList<Move, MexicanTrain::kMaxMoves> legal;
  s.legal_moves(seat, legal);
  uint32_t ends = 0;
  for (const Move& m : legal.span())
    if (m.kind == Move::Lay) ends |= 1u << s.train_end(m.train);
  PlacementOption options[kMaxOptions];
  const int n = placement_options(hand, ends, s.train_end(seat), options);
  int index = -1;
  for (int i = 0; i < n; ++i)
    if (options[i].tile == chosen.t() && options[i].on == s.train_end(chosen.train)) index = i;
  if (index < 0 || n < 2) return false;
  std::printf("%d", n);
  for (int i = 0; i < n; ++i)
    std::printf(" %d %d %d %d", options[i].f[0], options[i].f[1], options[i].f[2], options[i].f[3]);
  std::printf(" | %d", index);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || std::string(argv[1]) == "--help") {
    std::fprintf(stderr,
                 "usage: mexican_train_placements GAMES ITERATIONS [SEED]\n"
                 "Plays GAMES Mexican Train games (ismcts against ismcts-v1, ITERATIONS each a decision) and\n"
                 "prints each placement with a choice: its options' features and the one laid (see the file's "
                 "head).\n");
    return argc == 2 && std::string(argv[1]) == "--help" ? 0 : 2;
  }
  const int games = whole(argv[1], "GAMES", 1, 100000);
  const int iterations = whole(argv[2], "ITERATIONS", 1, 1000000);
  const int seed = argc == 4 ? whole(argv[3], "SEED", 0, 1 << 30) : 5000;
  BotOptions options;
  options.iterations = iterations;
  for (int g = 0; g < games; ++g) {
    State s(make_rules({}), static_cast<uint64_t>(seed + g));
    std::vector<std::unique_ptr<Bot<MexicanTrain>>> bots;
    for (int k = 0; k < s.num_seats(); ++k) {
      const uint64_t bot_seed = static_cast<uint64_t>(g) * 10 + static_cast<uint64_t>(k);
      if ((k + g) % 2)
        bots.push_back(std::make_unique<IsmctsBot<MexicanTrain, true>>(bot_seed, options));
      else
        bots.push_back(std::make_unique<IsmctsBot<MexicanTrain, false>>(bot_seed, options));
    }
    while (!s.terminal()) {
      const Actor a = s.actor();
      if (a.kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      MoveList<Move, MexicanTrain::kMaxMoves> legal;
      s.legal_moves(a.seat, legal);
      const Move m = bots[static_cast<size_t>(a.seat)]->choose(s.observe(a.seat), legal.span());
      const bool choice = m.kind == Move::Lay && s.drawn_tile() < 0 && legal.size() > 1;
      if (!choice || !print_decision(s, a.seat, m)) {
        s.apply(a.seat, m);
        continue;
      }
      // The placement's term in the log-likelihood another seat computes.
      const int other = (a.seat + 1) % s.num_seats(), rounds = s.hands_finished();
      const double before = play_log_likelihood(s, other);
      s.apply(a.seat, m);
      if (s.terminal() || s.hands_finished() != rounds)
        std::printf(" | -\n");
      else
        std::printf(" | %.17g\n", play_log_likelihood(s, other) - before);
    }
  }
  return 0;
}
