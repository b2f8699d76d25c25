// Fuzz target: every registered game's move parser (and chance-outcome
// parser), in every phase its games reach: the first bytes pick a game, a
// seed and how many random moves to play first (bids, trumps, tricks,
// trains, dice rounds); the rest is fed as a move text. Only
// boneyard::Error may come out, and an accepted move's canonical text must
// be accepted again as the same move.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/game.h"

namespace {

struct Setup {
  size_t game = 0;
  int steps = 0;
  uint64_t seed = 0;
  int seat_pick = 0;  // 0..3: the seat to act; more: another seat (maybe none)
};

// Plays `steps` random decisions (chance events resolved by the game's own
// generator) and returns the state there; fewer if the game ends first.
std::unique_ptr<boneyard::AnyState> advance(const boneyard::GameEntry& g, const Setup& s) {
  auto st = g.make({}, s.seed);
  std::vector<std::unique_ptr<boneyard::AnyBot>> bots;
  for (int k = 0; k < st->num_seats(); ++k)
    bots.push_back(g.make_bot("random", s.seed * 31 + static_cast<uint64_t>(k)));
  for (int step = 0; step < s.steps && !st->terminal();) {
    const boneyard::Actor a = st->actor();
    if (a.kind == boneyard::Actor::Chance) {
      st->apply_chance();
      continue;
    }
    for (int k = 0; k < st->num_seats(); ++k)
      if (a.acts(k)) {
        st->play_bot(k, *bots[static_cast<size_t>(k)]);
        ++step;
        if (a.kind == boneyard::Actor::Seat) break;
      }
  }
  return st;
}

int pick_seat(const boneyard::AnyState& st, int pick) {
  const boneyard::Actor a = st.actor();
  if (pick < 4) {
    if (a.kind == boneyard::Actor::Seat) return a.seat;
    for (int k = 0; k < st.num_seats(); ++k)
      if (a.acts(k)) return k;
    return 0;
  }
  return pick - 6;  // -2 .. 249: other seats, and seats that do not exist
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool registered = (boneyard::register_all_games(), true);
  (void)registered;
  const auto& all = boneyard::games();
  if (size < 4 || all.empty()) return 0;
  Setup s;
  s.game = data[0] % all.size();
  s.steps = data[1] + 256 * (data[2] & 3);  // up to 1023 decisions in
  s.seed = data[2] >> 2;
  s.seat_pick = data[3];
  const std::string_view text(reinterpret_cast<const char*>(data) + 4, size - 4);
  const auto st = advance(all[s.game], s);
  const int seat = pick_seat(*st, s.seat_pick);
  if (st->actor().kind == boneyard::Actor::Chance) {
    auto copy = st->clone();
    try {
      copy->apply_chance(text);
    } catch (const boneyard::Error&) {
    }
  }
  auto copy = st->clone();
  std::string canon;
  try {
    canon = copy->apply(seat, text);
  } catch (const boneyard::Error&) {
    return 0;
  }
  // The canonical text must name the same move again.
  auto again = st->clone();
  std::string canon2;
  try {
    canon2 = again->apply(seat, canon);
  } catch (const boneyard::Error&) {
    __builtin_trap();
  }
  if (canon2 != canon) __builtin_trap();
  return 0;
}
