// Perft-style oracle: random games from fixed seeds, hashed move by move
// (the legal lists, the moves, the deals and the scores). The engine's
// internals may change for speed; these games must not.
#include <nlohmann/json.hpp>

#include "core/playout.h"
#include "helpers.h"

using namespace mt_test;

namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ULL;
  void add(uint64_t x) {
    for (int i = 0; i < 8; ++i) {
      h ^= (x >> (8 * i)) & 0xff;
      h *= 1099511628211ULL;
    }
  }
  void add(const std::string& s) {
    for (char c : s) add(static_cast<uint64_t>(static_cast<unsigned char>(c)));
  }
};

uint64_t random_game_hash(const OptionList& o, uint64_t seed) {
  State s = make(o, seed);
  Rng rng(seed * 7 + 1);
  Fnv f;
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  int moves = 0;
  while (!s.terminal()) {
    if (s.actor().kind == Actor::Chance) {
      s.apply_chance();
      f.add(s.chance_text());
      continue;
    }
    const int seat = s.to_move();
    s.legal_moves(seat, l);
    for (const Move& m : l) f.add(uint64_t{m.kind} | uint64_t{m.tile} << 8 | uint64_t{m.train} << 16);
    const Move m = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
    f.add(static_cast<uint64_t>(s.hands_finished()));
    f.add(uint64_t{s.known_void(seat)} << 8 | static_cast<uint8_t>(s.double_cap(seat)));
    // Trains, hands, markers in the open: the view, not the table drawn for
    // a person, whose layout follows the terminal's width.
    if (++moves % 17 == 0) f.add(s.view(-1).dump());
    s.apply(seat, m);
  }
  for (int k = 0; k < s.num_seats(); ++k) f.add(static_cast<uint64_t>(s.score(k)));
  return f.h;
}

}  // namespace

TEST(MexicanTrainReplay, RandomGamesFromFixedSeedsAreUnchanged) {
  const struct {
    OptionList options;
    uint64_t hash;
  } cases[] = {
      {{}, 0x3d041ff3027d6111ULL},
      {{{"players", "2"}}, 0xb0ab3af22fa0c611ULL},
      {{{"players", "8"}}, 0x6cf475fb2988c9dcULL},
      {{{"set", "double-nine"}, {"players", "3"}}, 0x0aa9748be2c9e8ebULL},
      {{{"set", "double-fifteen"}, {"players", "6"}}, 0xd024d0b9a4dd42f5ULL},
      {{{"engine", "round_doubles"}, {"multiple_doubles", "true"}, {"blank_double_50", "true"}}, 0xc5d933fb8a112f40ULL},
      {{{"set", "double-fifteen"}, {"players", "5"}, {"multiple_doubles", "true"}}, 0xba2e81fa59d7f317ULL},
  };
  for (const auto& c : cases) {
    uint64_t h = 0;
    for (uint64_t seed = 1; seed <= 5; ++seed) h = h * 31 + random_game_hash(c.options, seed);
    EXPECT_EQ(h, c.hash) << "options #" << (&c - cases);
  }
}
