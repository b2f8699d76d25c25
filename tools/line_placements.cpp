// line_placements: the data of the latin player model's fit (src/line/beliefs.h,
// docs/bots.md "Beliefs from play"). Plays latin games of ismcts against
// ismcts-v1 and prints, for every placement that had a choice, each legal
// move's features and which one was played; tools/fit_beliefs.py fits
// the model's weights (a conditional logit) to them.
//
// usage: line_placements GAMES ITERATIONS [SEED]
// One line a decision: "N f(1) ... f(N) | CHOSEN | LL", each f six integers:
// pips, double (0/1), tiles the seat keeps of the ends it leaves open,
// tiles of those numbers already played, lead (0/1), both ends alike (0/1).
// The same features as play_log_likelihood's, read from the state the
// mover saw (its own hand and the table). LL is the engine's own
// log-probability of the choice under the shipped model (kPlayModel): what
// the placement added to play_log_likelihood for another seat; "-" where
// the placement ended the hand. fit_beliefs.py computes it again from
// the features, so the C++ model and the script's are checked to agree.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bots/ismcts.h"
#include "line/beliefs.h"
#include "line/bots.h"

using namespace boneyard;
using namespace boneyard::line;

namespace {

int whole(const char* text, const char* what, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < lo || v > hi) {
    std::fprintf(stderr, "line_placements: %s must be a whole number from %d to %d, not '%s'\n", what, lo, hi, text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

void print_decision(const State& s, int seat, std::span<const Move> legal, const Move& chosen) {
  const int mp = s.rules().max_pip();
  const SmallSet hand = s.hand(seat), played = s.played();
  std::printf("%zu", legal.size());
  int index = -1;
  for (size_t i = 0; i < legal.size(); ++i) {
    const Tile t = legal[i].tile();
    int a = 0, b = 0;  // the open ends after it
    if (legal[i].kind == Move::Lead) {
      a = t.high();
      b = t.low();
    } else if (legal[i].kind == Move::Left) {
      a = t.other(s.left_end());
      b = s.right_end();
    } else {
      a = s.left_end();
      b = t.other(s.right_end());
    }
    const auto held = [&](int n) { return static_cast<int>((hand & suit<1>(n, mp)).size()) - (t.shows(n) ? 1 : 0); };
    const auto gone = [&](int n) { return static_cast<int>((played & suit<1>(n, mp)).size()); };
    if (legal[i] == chosen) index = static_cast<int>(i);
    std::printf(" %d %d %d %d %d %d", t.pips(), t.is_double() ? 1 : 0, held(a) + held(b), gone(a) + gone(b),
                legal[i].kind == Move::Lead ? 1 : 0, a == b ? 1 : 0);
  }
  std::printf(" | %d", index);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || std::string(argv[1]) == "--help") {
    std::fprintf(stderr,
                 "usage: line_placements GAMES ITERATIONS [SEED]\n"
                 "Plays GAMES latin games (ismcts against ismcts-v1, ITERATIONS each a decision) and prints\n"
                 "each placement with a choice: its moves' features and the one played (see the file's head).\n");
    return argc == 2 && std::string(argv[1]) == "--help" ? 0 : 2;
  }
  const int games = whole(argv[1], "GAMES", 1, 100000);
  const int iterations = whole(argv[2], "ITERATIONS", 1, 1000000);
  const int seed = argc == 4 ? whole(argv[3], "SEED", 0, 1 << 30) : 5000;
  BotOptions options;
  options.iterations = iterations;
  for (int g = 0; g < games; ++g) {
    State s(make_rules("latin", {}), static_cast<uint64_t>(seed + g));
    std::vector<std::unique_ptr<Bot<LineGame>>> bots;
    for (int k = 0; k < 4; ++k) {
      const uint64_t bot_seed = static_cast<uint64_t>(g) * 10 + static_cast<uint64_t>(k);
      if ((k + g) % 2)
        bots.push_back(std::make_unique<IsmctsBot<LineGame, true>>(bot_seed, options));
      else
        bots.push_back(std::make_unique<IsmctsBot<LineGame, false>>(bot_seed, options));
    }
    while (!s.terminal()) {
      const Actor a = s.actor();
      if (a.kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      MoveList<Move, 64> legal;
      s.legal_moves(a.seat, legal);
      const Move m = bots[static_cast<size_t>(a.seat)]->choose(s.observe(a.seat), legal.span());
      const bool shown =
          s.phase() == Phase::Play && legal.size() > 1 && legal[0].kind != Move::Pass && legal[0].kind != Move::Draw;
      if (!shown) {
        s.apply(a.seat, m);
        continue;
      }
      print_decision(s, a.seat, legal.span(), m);
      // The placement's term in the log-likelihood another seat computes.
      const int other = (a.seat + 1) % s.num_seats(), hands = s.hands_finished();
      const double before = play_log_likelihood(s, other);
      s.apply(a.seat, m);
      if (s.terminal() || s.hands_finished() != hands || s.phase() != Phase::Play)
        std::printf(" | -\n");
      else
        std::printf(" | %.17g\n", play_log_likelihood(s, other) - before);
    }
  }
  return 0;
}
