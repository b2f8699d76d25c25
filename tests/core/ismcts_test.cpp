// ismcts on a game small enough to know the answer: a public chance outcome
// that a game names (G::chance_key) gets its own node in the tree, so the
// search learns what is best after each outcome; left unnamed, the outcomes
// share one node and the search cannot tell them apart.
#include "bots/ismcts.h"

#include <gtest/gtest.h>

#include <vector>

namespace boneyard {
namespace {

// One seat. First "flip" (a public coin is tossed, then the seat calls it:
// +1 if right, -1 if wrong) or "sure" (+0.2 at once). Calling after seeing
// the coin is always right, so flip is worth +1 to a player who looks.
struct CoinGame {
  static constexpr int kMaxMoves = 2;
  struct Move {
    uint8_t v;
    bool operator==(const Move&) const = default;
  };
  class State {
   public:
    int num_seats() const { return 1; }
    Actor actor() const {
      if (stage_ == 1) return Actor::chance();
      return stage_ == 3 ? Actor::terminal() : Actor::at(0);
    }
    template <int N>
    void legal_moves(int, MoveList<Move, N>& out) const {
      out.clear();
      if (stage_ == 0 || stage_ == 2) {
        out.push_back({0});
        out.push_back({1});
      }
    }
    void apply(int, Move m) {
      if (stage_ == 0) {
        sure_ = m.v == 1;
        stage_ = sure_ ? 3 : 1;
      } else {
        call_ = m.v;
        stage_ = 3;
      }
    }
    void apply_chance() {
      coin_ = static_cast<int>(rng_.below(2));
      stage_ = 2;
    }
    bool terminal() const { return stage_ == 3; }
    int hands_finished() const { return stage_ == 3; }
    void reseed(uint64_t seed) { rng_.reseed(seed); }
    int coin() const { return coin_; }
    double value() const { return sure_ ? 0.2 : call_ == coin_ ? 1.0 : -1.0; }

   private:
    int stage_ = 0, coin_ = -1, call_ = -1;
    bool sure_ = false;
    Rng rng_{1};
  };
  struct Observation {
    int seat = 0;
    State masked;
  };
  static State sample(const Observation& o, Rng&) { return o.masked; }
  static double reward(const State&, const State& to, int) { return to.value(); }
};

// The same game, its coin named for the search.
struct NamedCoinGame : CoinGame {
  static uint64_t chance_key(const State& s) { return static_cast<uint64_t>(s.coin()); }
};

static_assert(HasPublicChance<NamedCoinGame> && !HasPublicChance<CoinGame>);

// Each first move's value after 4,000 iterations: flip, then sure.
template <class G, bool V1 = false>
std::vector<double> root_values() {
  IsmctsBot<G, V1> bot(7, BotOptions{.iterations = 4000});
  const std::vector<typename G::Move> legal = {{0}, {1}};
  std::vector<double> v(2);
  bot.values(typename G::Observation{}, legal, v.data());
  return v;
}

TEST(Ismcts, ANamedPublicChanceOutcomeHasItsOwnNode) {
  const auto v = root_values<NamedCoinGame>();
  EXPECT_GT(v[0], 0.8) << "flip, then call the coin seen";
  EXPECT_NEAR(v[1], 0.2, 1e-9);
  EXPECT_GT(v[0], v[1]);
}

TEST(Ismcts, UnnamedChanceOutcomesShareANode) {
  // The calls after heads and after tails are one edge each: neither is
  // better than a guess, and sure is preferred.
  const auto v = root_values<CoinGame>();
  EXPECT_LT(v[0], 0.2);
  EXPECT_NEAR(v[1], 0.2, 1e-9);
}

TEST(Ismcts, ItsV1DoesNotUseTheNamedOutcome) {
  const auto v = root_values<NamedCoinGame, true>();  // the bot before the change, kept to measure against
  EXPECT_LT(v[0], 0.2);
}

}  // namespace
}  // namespace boneyard
