#pragma once
// The Texas 42 state (spec: rules/texas-42.md). A value type of fixed size:
// copying it never allocates. Tiles are double-six indices 0..27 held in
// 32-bit masks.
#include <bit>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/game.h"
#include "core/tile.h"
#include "texas42/rules.h"

namespace boneyard::texas42 {

inline constexpr int kSeats = 4;
inline constexpr int kTiles = 28;
inline constexpr int kTricks = 7;
// spec: Bidding: a bid is 30..42 points or 1 to 4 marks (4 marks = 168).
inline constexpr int kMaxMarks = 4;  // highest mark bid accepted (plunge too)
inline constexpr uint32_t kAllTiles = (uint32_t{1} << kTiles) - 1;

// Trumps named by the declarer (spec: Trumps), plus the contracts beyond the
// source that replace the trump choice (docs/texas-42.md).
enum TrumpKind : uint8_t {
  // 0..6: that number is trumps
  kDoublesTrump = 7,
  kFollowMe = 8,
  kNello = 9,
  kSevens = 10,
  kNoTrumpYet = 255,
};
inline constexpr int kTrumpKinds = 11;
// Suits for following: 0..6 a number, 7 the doubles as their own suit, 8 trumps.
inline constexpr int kDoublesSuit = 7;
inline constexpr int kTrumpSuit = 8;

// What the winning bid was (spec: Bidding; plunge and splash: docs).
enum class BidKind : uint8_t { None, Points, Marks, Plunge, Splash };

struct Move {
  enum Kind : uint8_t { Pass, Bid, Marks, Plunge, Splash, Trumps, Play };
  Kind kind = Pass;
  uint8_t arg = 0;  // Bid: points 30..42; Marks/Plunge/Splash: marks; Trumps: TrumpKind; Play: tile index
  Tile tile() const { return Tile{arg}; }
  bool operator==(const Move&) const = default;
};

enum class Phase : uint8_t { DealerDraw, Deal, Bidding, Trumps, Play, GameOver };

// Fixed tables for one trump choice: suits, membership and rank.
struct TrumpTables {
  uint32_t trumps[kTrumpKinds];           // the trump suit
  uint8_t led_suit[kTrumpKinds][kTiles];  // the suit a tile leads
  uint32_t members[kTrumpKinds][9];       // the tiles that follow each suit
  int8_t rank[kTrumpKinds][9][kTiles];    // rank within a suit (higher wins), -1 not in it
};
extern const TrumpTables kTrumpTables;
inline const TrumpTables& tables() { return kTrumpTables; }

// spec: Count and points.
constexpr int count_of(Tile t) {
  return t.pips() == 10 ? 10 : t.pips() == 5 ? 5 : 0;  // 5-5 6-4: 10; 5-0 4-1 3-2: 5
}
inline constexpr uint32_t kCountTiles = [] {
  uint32_t m = 0;
  for (int i = 0; i < kTiles; ++i)
    if (count_of(Tile{static_cast<uint8_t>(i)})) m |= uint32_t{1} << i;
  return m;
}();
inline constexpr uint32_t kDoubles = [] {
  uint32_t m = 0;
  for (int n = 0; n <= 6; ++n) m |= uint32_t{1} << Tile::of(n, n).index;
  return m;
}();

// The result of one finished hand (spec: Scoring).
struct HandResult {
  uint16_t number = 0;  // 1-based hand number
  int8_t dealer = -1;
  int8_t declarer = -1;  // -1: all four passed (redeal)
  BidKind bid_kind = BidKind::None;
  int16_t bid = 0;  // in points: 30..42, or 42 per mark
  uint8_t trump = kNoTrumpYet;
  bool made = false;
  bool stopped_early = false;  // decided before the seventh trick
  uint8_t tricks_played = 0;
  int16_t points[2] = {};  // count + tricks taken per side
  uint8_t tricks[2] = {};
  int16_t gained[2] = {};  // marks or points scored per side
  int8_t winner_side = -1;
  int8_t last_trick_winner = -1;  // the seat that took the hand's last trick
};

struct Observation;
class Solver;  // texas42/solver.h

class State {
 public:
  State() = default;
  State(const Rules& rules, uint64_t seed);

  // --- the common interface (core/game.h) ---
  int num_seats() const { return kSeats; }
  int num_sides() const { return 2; }
  static int side_of(int seat) { return seat & 1; }
  static int partner(int seat) { return (seat + 2) & 3; }
  Actor actor() const {
    switch (phase_) {
      case Phase::DealerDraw:
      case Phase::Deal:
        return Actor::chance();
      case Phase::GameOver:
        return Actor::terminal();
      default:
        return Actor::at(to_move_);
    }
  }
  template <int N>
  void legal_moves(int seat, MoveList<Move, N>& out) const;
  void apply(int seat, Move m);
  void apply_chance();
  std::string chance_text() const;
  void apply_chance_text(std::string_view text);
  std::string move_text(Move m) const;
  std::string move_words(int seat, Move m) const;  // for people (text.cpp)
  Move parse_move(int seat, std::string_view text) const;
  bool terminal() const { return phase_ == Phase::GameOver; }
  void returns(double* out) const;
  int hands_finished() const { return hands_; }
  HandSummary last_hand() const;
  void scores(double* per_side) const;
  nlohmann::json view(int seat) const;
  std::string render(int seat) const;
  nlohmann::json options_json() const;
  void reseed(uint64_t seed) { rng_.reseed(seed); }

  // --- Texas 42 specifics ---
  const Rules& rules() const { return r_; }
  Phase phase() const { return phase_; }
  int to_move() const { return to_move_; }
  int dealer() const { return dealer_; }
  int declarer() const { return declarer_; }
  int high_bid() const { return high_bid_; }  // points (42 per mark); 0: no bid yet
  BidKind high_kind() const { return high_kind_; }
  int bid_of(int seat) const { return bids_[seat]; }  // -1 not yet, 0 pass, else points
  BidKind bid_kind_of(int seat) const { return bid_kinds_[seat]; }
  int trump() const { return trump_; }
  int sitting_out() const { return trump_ == kNello ? partner(declarer_) : -1; }
  uint32_t hand(int seat) const { return hand_[seat]; }
  uint32_t played_by(int seat) const { return played_by_[seat]; }
  uint32_t played() const { return played_; }
  // Suits this seat has shown it cannot follow (public: a failure to follow).
  uint32_t not_holding(int seat) const { return not_holding_[seat]; }
  int trick_size() const { return trick_n_; }
  int trick_tile(int i) const { return trick_[i]; }  // in play order
  int trick_seat(int i) const { return trick_seats_[i]; }
  int trick_leader() const { return trick_leader_; }
  int tricks_done() const { return n_tricks_; }
  // A finished trick: tiles in play order, its leader and winner.
  const uint8_t* trick_tiles(int k) const { return tricks_[k]; }
  int trick_led_by(int k) const { return trick_leaders_[k]; }
  int trick_won_by(int k) const { return trick_winners_[k]; }
  int points_taken(int side) const { return points_[side]; }
  int tricks_taken(int side) const { return tricks_won_[side]; }
  int score(int side) const { return score_[side]; }
  int winner_mask() const { return winners_; }
  int redeals() const { return redeals_; }                // all-pass redeals this game
  int first_draw(int seat) const { return draw_[seat]; }  // the first-dealer draw (-1: none)
  const HandResult& last_result() const { return last_; }
  // The suit the current trick was led in (-1 before the lead).
  int led_suit() const { return trick_n_ ? tables().led_suit[trump_][trick_[0]] : -1; }
  // Tiles the seat may play now (the must-follow rule).
  uint32_t playable(int seat) const {
    if (trick_n_ == 0 || trump_ == kSevens) return hand_[seat];
    const uint32_t f = hand_[seat] & tables().members[trump_][tables().led_suit[trump_][trick_[0]]];
    return f ? f : hand_[seat];
  }
  // The seat now winning the current trick and the winning tile's play index.
  int trick_winner_index() const;
  // The bid a seat may make (marks for a marks-like bid) or 0 if none.
  int plunge_marks(int seat) const;
  int splash_marks(int seat) const;
  // Points value of a bid (spec: Bidding: 1 mark = 42 points).
  static int value_of(Move m) { return m.kind == Move::Bid ? m.arg : 42 * m.arg; }
  // The seat that names trumps and leads (plunge and splash: the partner).
  int trump_caller() const {
    return (high_kind_ == BidKind::Plunge || high_kind_ == BidKind::Splash) ? partner(declarer_) : declarer_;
  }

  Observation observe(int seat) const;
  // A full deal consistent with what the seat knows (its hand, the play,
  // the voids shown, plunge/splash doubles), weighted by the auction: the
  // other seats' bids and passes are evidence about their hands
  // (auction.h). kAuctionCandidates deals are drawn and one is kept with
  // probability proportional to its likelihood (sampling importance
  // resampling).
  static State sample(const Observation& o, Rng& rng);
  // The same with the auction ignored: the sampler before issue 23, kept
  // for `pimc-plain` (the bidder it is measured against).
  static State sample_plain(const Observation& o, Rng& rng);
  static constexpr int kAuctionCandidates = 32;
  // One deal from the constrained uniform sampler (sample_plain) and its
  // auction log-likelihood (0 where no other seat has bid or passed): for a
  // search that resamples a pool of such deals once a decision (ismcts)
  // rather than drawing kAuctionCandidates deals for every sample.
  static State sample_weighted(const Observation& o, Rng& rng, double& log_weight);

  // Explicit outcomes (throw Error): the first-dealer draw (a tile per seat)
  // and a deal (7 tiles per seat).
  void draw_for_dealer(const Tile* tiles);
  void deal(const uint32_t* hands);

 private:
  int next_player(int seat) const {
    int n = (seat + 1) & 3;
    if (trump_ == kNello && n == partner(declarer_)) n = (n + 1) & 3;
    return n;
  }
  static State sample_with(const Observation& o, Rng& rng, int candidates);
  void start_hand();
  void bid(int seat, Move m);
  void end_bidding();
  void play(int seat, Tile t);
  void finish_trick();
  bool decided(bool& made) const;
  void end_hand(bool made);

  Rules r_;
  Rng rng_;
  Phase phase_ = Phase::DealerDraw;
  uint32_t hand_[kSeats] = {};
  uint32_t played_by_[kSeats] = {};
  uint32_t not_holding_[kSeats] = {};
  uint32_t played_ = 0;
  int8_t to_move_ = -1, dealer_ = -1, declarer_ = -1, bidder_turns_ = 0;
  int8_t draw_[kSeats] = {-1, -1, -1, -1};
  int16_t bids_[kSeats] = {-1, -1, -1, -1};
  BidKind bid_kinds_[kSeats] = {};
  int16_t high_bid_ = 0;
  BidKind high_kind_ = BidKind::None;
  int8_t high_bidder_ = -1;
  uint8_t trump_ = kNoTrumpYet;
  // play
  uint8_t trick_[kSeats] = {};
  int8_t trick_seats_[kSeats] = {};
  uint8_t trick_n_ = 0;
  int8_t trick_leader_ = -1;
  uint8_t n_tricks_ = 0;
  uint8_t tricks_[kTricks][kSeats] = {};
  int8_t trick_leaders_[kTricks] = {};
  int8_t trick_winners_[kTricks] = {};
  int16_t points_[2] = {};
  uint8_t tricks_won_[2] = {};
  // game
  int16_t score_[2] = {};
  uint16_t hands_ = 0;
  uint16_t redeals_ = 0;
  uint8_t winners_ = 0;
  bool last_was_redeal_ = false;
  uint8_t last_chance_ = 0;  // 1: the first-dealer draw, 2: a deal
  HandResult last_;
};

// What one seat may know: the state with the other hands removed and the
// generator cleared. Play history, bids and voids are public.
struct Observation {
  int seat = 0;
  State masked;
};

template <int N>
void State::legal_moves(int seat, MoveList<Move, N>& out) const {
  out.clear();
  if (seat < 0 || seat != to_move_) return;
  switch (phase_) {
    case Phase::Play: {
      for (uint32_t x = playable(seat); x; x &= x - 1)
        out.push_back({Move::Play, static_cast<uint8_t>(std::countr_zero(x))});
      return;
    }
    case Phase::Bidding: {
      // spec: Bidding. The dealer bids last; with forced_bid and three passes
      // the dealer may not pass.
      const bool forced = r_.forced_bid && seat == dealer_ && high_bidder_ < 0;
      if (!forced) out.push_back({Move::Pass, 0});
      for (int b = high_bid_ < 30 ? 30 : high_bid_ + 1; b <= 42; ++b)
        out.push_back({Move::Bid, static_cast<uint8_t>(b)});
      // 2 marks only once 42 is bid (or as the opening bid, nobody having
      // bid yet, with open_two_marks); then one mark above the highest bid.
      if (high_bid_ >= 42) {
        const int k = high_bid_ / 42 + 1;
        if (k <= kMaxMarks) out.push_back({Move::Marks, static_cast<uint8_t>(k)});
      } else if (r_.open_two_marks && high_bidder_ < 0) {
        out.push_back({Move::Marks, 2});
      }
      if (const int k = splash_marks(seat)) out.push_back({Move::Splash, static_cast<uint8_t>(k)});
      if (const int k = plunge_marks(seat)) out.push_back({Move::Plunge, static_cast<uint8_t>(k)});
      return;
    }
    case Phase::Trumps: {
      for (int t = 0; t <= kFollowMe; ++t) out.push_back({Move::Trumps, static_cast<uint8_t>(t)});
      // Nello and sevens replace the trump choice of a bid of 1 mark or more.
      if (high_kind_ == BidKind::Points || high_kind_ == BidKind::Marks) {
        if (high_bid_ >= 42 && r_.nello) out.push_back({Move::Trumps, kNello});
        if (high_bid_ >= 42 && r_.sevens) out.push_back({Move::Trumps, kSevens});
      }
      return;
    }
    default:
      return;
  }
}

nlohmann::json hand_result_json(const State& s, const HandResult& h);
std::string hand_result_text(const State& s, const HandResult& h);
std::string trump_name(int trump);               // "fives", "doubles", "follow-me", "nello", "sevens"
std::string bid_text(int points, BidKind kind);  // "31", "2 marks", "plunge (4 marks)"

// The game type for the common interface.
struct Texas42 {
  static constexpr int kMaxMoves = 20;
  using Options = Rules;
  using Move = texas42::Move;
  using State = texas42::State;
  using Observation = texas42::Observation;
  using Solver = texas42::Solver;  // include texas42/solver.h to use it
  static State sample(const Observation& o, Rng& rng) { return State::sample(o, rng); }
  static State sample_weighted(const Observation& o, Rng& rng, double& log_weight) {
    return State::sample_weighted(o, rng, log_weight);
  }
  static std::string side_name(const State& s, int side);
  // For ismcts: the marks (points scoring: points / 42) `seat`'s side gained
  // less those the other side gained from `from` to `to` (0.8 per mark), plus
  // 0.2 x the hand's points difference / 42, clamped to [-1, 1].
  static double reward(const State& from, const State& to, int seat);
  // For ismcts playouts (texas42/bots.cpp): the greedy bot's choice, with a
  // random move one time in ten.
  static Move rollout_move(const State& s, int seat, std::span<const Move> legal, Rng& rng);
};

}  // namespace boneyard::texas42
