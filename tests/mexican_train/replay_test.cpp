// Perft-style oracle: random games from fixed seeds, hashed move by move
// (the legal lists, the moves, the deals and the scores). The engine's
// internals may change for speed; these games must not.
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
    if (++moves % 17 == 0) f.add(s.render(-1));  // trains, hands, markers in the open
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
      {{}, 0xf53c7d88538bcb03ULL},
      {{{"players", "2"}}, 0xc91ec94432e7c8d8ULL},
      {{{"players", "8"}}, 0x0c9c572e24c7b6b9ULL},
      {{{"set", "double-nine"}, {"players", "3"}}, 0x3219352f3cc3bb55ULL},
      {{{"set", "double-fifteen"}, {"players", "6"}}, 0xe5d545e066db1c2eULL},
      {{{"engine", "round_doubles"}, {"multiple_doubles", "true"}, {"blank_double_50", "true"}}, 0x760271d932a6a9c9ULL},
      {{{"set", "double-fifteen"}, {"players", "5"}, {"multiple_doubles", "true"}}, 0xde3f3c787c4a50e4ULL},
  };
  for (const auto& c : cases) {
    uint64_t h = 0;
    for (uint64_t seed = 1; seed <= 5; ++seed) h = h * 31 + random_game_hash(c.options, seed);
    EXPECT_EQ(h, c.hash) << "options #" << (&c - cases);
  }
}
