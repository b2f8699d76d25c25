// paired (bots/paired.h) on a game small enough to know the answer: every
// candidate is played out on the same future, so a small edge hidden in
// large luck shows exactly, from one sample; and moves the game names as one
// class are played once and valued alike.
#include "bots/paired.h"

#include <gtest/gtest.h>

#include <vector>

namespace boneyard {
namespace {

// One seat chooses a move 0 to 3, then a die of 1,000 faces is rolled (the
// state's own generator: the future). The reward is the die, spread over
// [-0.95, 0.95], plus 0.05 for move 1; moves 2 and 3 play as move 0 and
// the game says so (one class).
struct LuckGame {
  static constexpr int kMaxMoves = 4;
  struct Move {
    uint8_t v;
    bool operator==(const Move&) const = default;
  };
  class State {
   public:
    int num_seats() const { return 1; }
    Actor actor() const {
      if (stage_ == 1) return Actor::chance();
      return stage_ == 2 ? Actor::terminal() : Actor::at(0);
    }
    template <int N>
    void legal_moves(int, MoveList<Move, N>& out) const {
      out.clear();
      if (stage_ == 0)
        for (uint8_t v = 0; v < 4; ++v) out.push_back({v});
    }
    void apply(int, Move m) {
      move_ = m.v;
      stage_ = 1;
    }
    void apply_chance() {
      die_ = static_cast<int>(rng_.below(1000));
      stage_ = 2;
    }
    bool terminal() const { return stage_ == 2; }
    int hands_finished() const { return stage_ == 2; }
    void reseed(uint64_t seed) { rng_.reseed(seed); }
    double value() const { return 0.95 * (die_ / 499.5 - 1) + (move_ == 1 ? 0.05 : 0); }

   private:
    int stage_ = 0, move_ = -1, die_ = -1;
    Rng rng_{1};
  };
  struct Observation {
    int seat = 0;
    State masked;
  };
  static State sample(const Observation& o, Rng&) { return o.masked; }
  static double reward(const State&, const State& to, int) { return to.value(); }
  static Move move_class(const State&, int, Move m) { return m.v == 1 ? m : Move{0}; }
};

std::vector<double> values(int playouts, uint64_t seed) {
  PairedBot<LuckGame> bot(seed, BotOptions{.iterations = playouts});
  const std::vector<LuckGame::Move> legal = {{0}, {1}, {2}, {3}};
  std::vector<double> v(4);
  bot.values(LuckGame::Observation{}, legal, v.data());
  return v;
}

TEST(Paired, EveryCandidateMeetsTheSameFuture) {
  // Two playouts: one of each class, on one roll of the die. The rewards
  // spread over 1.9; the edge of 0.05 shows exactly all the same.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const auto v = values(2, seed);
    EXPECT_NEAR(v[1] - v[0], 0.05, 1e-12) << "seed " << seed;
  }
  PairedBot<LuckGame> bot(3, BotOptions{.iterations = 2});
  const std::vector<LuckGame::Move> legal = {{0}, {1}, {2}, {3}};
  EXPECT_EQ(bot.choose(LuckGame::Observation{}, legal).v, 1);
}

TEST(Paired, MovesOfOneClassArePlayedOnceAndValuedAlike) {
  const auto v = values(400, 9);
  EXPECT_EQ(v[0], v[2]);
  EXPECT_EQ(v[0], v[3]);
  // 400 playouts over the two classes: 200 rolls, the mean near the die's 0.
  EXPECT_NEAR(v[0], 0, 0.2);
  EXPECT_NEAR(v[1] - v[0], 0.05, 1e-12);
}

}  // namespace
}  // namespace boneyard
