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
#include "line/beliefs.h"
#include "line/bots.h"
#include "placements.h"

using namespace boneyard;
using namespace boneyard::line;

namespace {

// Prints the placement's moves and the one played; false (nothing printed)
// where it was no choice.
bool print_decision(const State& s, int seat, std::span<const Move> legal, const Move& chosen) {
  if (s.phase() != Phase::Play || legal.size() < 2 || legal[0].kind == Move::Pass || legal[0].kind == Move::Draw)
    return false;
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
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const tools::PlacementsArgs a = tools::placements_args(argc, argv, "line_placements", "latin");
  tools::play_placements<LineGame>(
      a, [](uint64_t seed) { return State(make_rules("latin", {}), seed); }, print_decision,
      [](const State& s, int seat) { return play_log_likelihood(s, seat); },
      [](const State& s) { return s.phase() != Phase::Play; });
  return 0;
}
