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
#include "mexican_train/beliefs.h"
#include "placements.h"

using namespace boneyard;
using namespace boneyard::mexican_train;

namespace {

// Prints the placement's options and the one laid; false (nothing printed)
// where it was no choice: not a lay, the tile just drawn, or one option.
bool print_decision(const State& s, int seat, std::span<const Move> legal, const Move& chosen) {
  if (chosen.kind != Move::Lay || s.drawn_tile() >= 0 || legal.size() < 2) return false;
  uint16_t hand[16] = {};
  for (int n = 0; n <= s.rules().max_pip(); ++n) hand[n] = static_cast<uint16_t>(s.holds(seat, n));
  // The numbers it may lay on now: where its legal lays go.
  uint32_t ends = 0;
  for (const Move& m : legal)
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
  const tools::PlacementsArgs a = tools::placements_args(argc, argv, "mexican_train_placements", "Mexican Train");
  tools::play_placements<MexicanTrain>(
      a, [](uint64_t seed) { return State(make_rules({}), seed); }, print_decision,
      [](const State& s, int seat) { return play_log_likelihood(s, seat); }, [](const State&) { return false; });
  return 0;
}
