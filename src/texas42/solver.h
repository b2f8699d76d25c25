#pragma once
// The Texas 42 exact solver ("double dummy"): alpha-beta over the play with
// every hand known, a transposition table at trick boundaries, and move
// ordering. Used by pimc (sampled deals) and the omniscient bot (the true
// deal). docs/texas-42.md, "Solver", gives the value model.
//
// Values are for the asking seat's side, in marks: a made 1-mark contract
// (30..42) is +1, a set one -1, k marks +-k; plus a tiebreak of (points taken
// - points given) / 100, so among equal mark results more points are
// preferred. Points scoring: (points scored - points conceded) / 42.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "texas42/state.h"

namespace boneyard::texas42 {

class Solver {
 public:
  // How the bidding phase is valued (see values()): Auction, only the
  // seat's own bid carries kSetWeight and an overbid of the partner costs
  // kPartnerOverbid; Plain, the model before issue 23 (a set of either
  // partner's contract weighs kSetWeight, no overbid cost), kept for
  // `pimc-plain`.
  enum class BidModel : uint8_t { Auction, Plain };
  explicit Solver(BidModel bid_model = BidModel::Auction);

  // The exact value of each move for `seat` (see above). Play phase: the
  // hand played out double dummy. Trumps phase: the hand played with that
  // trump. Bidding phase: whoever holds the high bid after the move wins
  // the bidding at it (a pass with no bid yet: 0), names the trump its own
  // hand suggests (estimate_hand; plunge/splash: the partner's) and the hand
  // is played out double dummy; the tiebreak is the bid level the side can
  // make (bid_level) rather than the exact points. A points bid counts as
  // made only with kBidMargin points to spare, a set of the seat's own bid
  // weighs kSetWeight and an overbid of the partner costs kPartnerOverbid
  // (BidModel::Plain: a set of either partner's bid weighs kSetWeight).
  void values(const State& s, int seat, std::span<const Move> moves, double* out);
  // Bidding's safety margin, in points: double dummy flatters the declarer
  // (the real one does not see the hands), so the bidding model counts a
  // points bid b as made only when the side takes b + kBidMargin double
  // dummy. Tuned in the arena against greedy (iterations 8, 10 deal sets,
  // hand win share: 0 → 0.60, 4 → 0.63, 6 → 0.63, 8 → 0.60).
  static constexpr int kBidMargin = 6;
  // Bidding's risk weight (marks scoring): in the bidding model a set of
  // the asking seat's own side's contract (its own bid, or the partner's
  // when passing) counts kSetWeight times its marks, so a bid is worth
  // more than a pass worth 0 only when it is made in more than
  // kSetWeight / (1 + kSetWeight) of the sampled deals. Double dummy
  // results are bimodal (a side with trump control sweeps many random
  // deals), which a points margin alone does not correct. The opponents'
  // contracts are valued plainly (+-marks). BidModel::Auction weighs only
  // the seat's own bid: the partner's standing contract, which the seat
  // does not choose, counts the marks it is expected to give (the weight
  // corrects the seat's own decision to bid).
  static constexpr double kSetWeight = 3;
  // Auction model: a bid over the partner's high bid costs this many marks.
  // Double dummy credits a side with much the same tricks whichever partner
  // names trumps, so with a junk hand an overbid often ties the pass on the
  // samples and won on noise (the hint once said to overbid a partner's 30
  // with junk); in real play the partner, who showed the strength, names
  // the better trump. An overbid must gain a quarter of a mark on average
  // (a partner's 42 raised to 2 marks with a sweep still is).
  static constexpr double kPartnerOverbid = 0.25;
  // The double-dummy value of the play from `s` (Play phase) for `seat`.
  double value(const State& s, int seat);
  // Most points the declarer's side can be sure to take in a whole hand
  // with this trump and this seat leading (every hand known; no early stop).
  int max_points(const State& s, int declarer, int trump, int leader);
  // The same, resolved only as far as bidding needs: the highest bid 30..42
  // the declarer's side can make (29: none), by null-window searches.
  int bid_level(const State& s, int declarer, int trump, int leader);
  uint64_t nodes() const { return nodes_; }

  // The play-phase position the search walks: small and cheap to copy.
  struct Node {
    uint32_t hand[kSeats];
    uint8_t trick[kSeats];
    int8_t trick_seat[kSeats];
    uint8_t trick_n;
    int8_t to_move;
    uint8_t n_tricks;
    int16_t points[2];
    uint8_t tricks[2];
  };

 private:
  enum class Objective : uint8_t { Hand, Points };
  // What stays fixed during one search.
  struct Contract {
    Objective objective = Objective::Hand;
    int trump = 0, declarer = 0, bid = 30;
    BidKind kind = BidKind::Points;
    Scoring scoring = Scoring::Marks;
    bool stops_early = true, made_scores_taken = false;
    bool operator==(const Contract&) const = default;
  };
  struct Entry {
    uint64_t k1 = 0, k2 = 0;
    int16_t lo = 0, hi = 0;
    uint8_t best = 0xff, gen = 0;
  };

  void set_contract(const Contract& c);
  static Node node_of(const State& s);
  static Node dealt_node(const State& s, int leader);  // every hand as dealt
  Node points_contract(const State& s, int declarer, int trump, int leader);
  int search(const Node& n, int alpha, int beta);
  std::pair<int, int> bounds(const Node& n) const;  // lowest and highest value still possible
  // Plays tile t for the seat to move; true when the hand is over (score set).
  bool play(Node& n, int t, int& score) const;
  int score_of(const Node& n) const;
  bool decided(const Node& n, bool& made) const;
  int next_player(int seat) const;
  int divisor() const { return c_.objective == Objective::Hand && c_.scoring == Scoring::Marks ? 100 : 42; }
  double contract_value(const State& s, int seat, const Contract& c, int leader);

  BidModel bid_model_;
  Contract c_;
  bool have_contract_ = false;
  int bidders_ = 0, trick_size_ = 4, sitting_out_ = -1;
  int16_t win_key_[9][kTiles];  // trick-winning key by led suit (-1 cannot win)
  // Tiles that belong to one suit only (trumps; nello: the doubles; sevens:
  // every tile), by class then key, highest first: two such tiles of one
  // hand with the same count and no other tile still out ranked between
  // them are equivalent, and only the higher is searched.
  uint8_t single_[kTiles];
  uint8_t single_class_[kTiles];
  int n_single_ = 0;
  std::vector<Entry> tt_;
  uint8_t gen_ = 0;
  uint64_t nodes_ = 0;
};

}  // namespace boneyard::texas42
