#pragma once
// Texas 42 bots. Each sees one seat's Observation only.
#include <memory>

#include "core/game.h"
#include "texas42/state.h"

namespace boneyard::texas42 {

// A hand evaluation for bidding and naming trumps (own hand only).
struct HandEstimate {
  int trump = 0;      // best trump: 0..6 or kDoublesTrump
  double tricks = 0;  // tricks the hand expects to take with those trumps
  int points = 0;     // estimated points for the bidding side
};
HandEstimate estimate_hand(uint32_t hand);

// The club player's plan: bid from a hand evaluation (trumps held, doubles,
// count it can protect); as declarer draw trumps first, then cash doubles;
// feed count to a partner who is winning the trick; never give count to the
// opponents when it can be avoided.
class GreedyBot final : public Bot<Texas42> {
 public:
  explicit GreedyBot(uint64_t seed) : Bot<Texas42>("greedy", seed) {}
  Move choose(const Observation& obs, std::span<const Move> legal) override;
  // The heuristic value of one move (higher is better), for tests and hints.
  static double value(const State& s, int seat, Move m);
};

// pimc as it bid before issue 23, kept under the name `pimc-plain` to
// measure the bidder against: its samples ignore the auction
// (State::sample_plain) and its bid values weigh a set of either partner's
// bid, with no cost on overbidding the partner (Solver::BidModel::Plain).
// Play and trumps as pimc.
class PlainPimcBot final : public Bot<Texas42> {
 public:
  PlainPimcBot(uint64_t seed, const BotOptions& o);
  ~PlainPimcBot() override;
  Move choose(const Observation& obs, std::span<const Move> legal) override;
  bool values(const Observation& obs, std::span<const Move> legal, double* out) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace boneyard::texas42
