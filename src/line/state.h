#pragma once
// The line-game state (spec: rules/line-games.md, "The play mechanism").
// A value type of fixed size: copying it never allocates.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/game.h"
#include "core/tile.h"
#include "line/rules.h"

namespace boneyard::line {

inline constexpr int kMaxSeats = 4;
inline constexpr int kMaxSetTiles = 55;  // double-nine

struct Move {
  enum Kind : uint8_t { Lead, Left, Right, Pass, Draw, Redeal, Keep, Leader };
  Kind kind = Pass;
  uint8_t arg = 0;  // tile index (Lead/Left/Right) or seat (Leader)
  Tile tile() const { return Tile{arg}; }
  bool operator==(const Move&) const = default;
};

enum class Phase : uint8_t { Deal, Redeal, ChooseLeader, Play, GameOver };
enum class HandEnd : uint8_t { None, Domino, Block };
// How the next hand's leader is found (spec: What the engine exposes).
enum class NextLead : uint8_t {
  None,           // the game is over
  Rotate,         // the seat after this hand's leader (next_leader=rotate, block_tie=void)
  Winner,         // the hand's winner
  SameLeader,     // block_tie=void_same_leader
  TeamChooses,    // the winning team chooses which partner leads (chooser enters it)
  FirstHandRule,  // as for a first hand: known only after the next deal
};
const char* name(NextLead n);

// The result of one hand, itemised (spec: What the engine exposes).
struct HandResult {
  struct Item {
    BonusKind kind;
    int8_t side;
    int16_t points;
  };
  HandEnd end = HandEnd::None;
  bool tied = false;        // a block with no clear winner under block_winner
  int8_t winner_side = -1;  // after the tie rule; -1: nobody scores pips
  int8_t winner_seat = -1;  // the domino player, or the winning side's lowest count
  int8_t last_placer = -1;
  int8_t leader = -1;
  bool capicua = false;
  uint8_t pips[kMaxSeats] = {};
  int16_t pip_points[kMaxSeats] = {};  // per side, after rounding (wins: wins added)
  int16_t total[kMaxSeats] = {};       // per side, pip points plus bonuses
  Item items[16] = {};
  uint8_t n_items = 0;
  uint16_t number = 0;      // 1-based hand number in the game
  bool wins_reset = false;  // win counting started over after this hand
  bool double_up = false;   // Jamaican double-up now pending
  NextLead next = NextLead::None;
  int8_t next_leader = -1;  // Rotate, Winner, SameLeader: the seat; TeamChooses: the chooser
  void add(BonusKind k, int side, int points);
};

struct Observation;
class Solver;

class State {
 public:
  State() = default;
  State(const Rules& rules, uint64_t seed);

  // --- the common interface (core/game.h) ---
  int num_seats() const { return seats_; }
  int num_sides() const { return r_.sides(); }
  int side_of(int seat) const { return r_.teams() ? (seat & 1) : seat; }
  Actor actor() const {
    switch (phase_) {
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
  // Playouts (core/playout.h): applies legal_moves(seat)[rng.below(size)]
  // without listing the moves.
  void apply_random(int seat, Rng& rng);
  void apply_chance();
  std::string chance_text() const;
  void apply_chance_text(std::string_view text);
  std::string move_text(Move m) const;
  std::string move_words(int seat, Move m) const;  // for people (text.cpp)
  Move parse_move(int seat, std::string_view text) const;
  bool terminal() const { return phase_ == Phase::GameOver; }
  void returns(double* out) const;
  int hands_finished() const { return hands_; }
  int redeals() const { return redeals_; }  // deals thrown in for five doubles
  HandSummary last_hand() const;
  void scores(double* per_side) const;
  nlohmann::json view(int seat) const;
  std::string render(int seat) const;
  nlohmann::json options_json() const;
  void reseed(uint64_t seed) { rng_.reseed(seed); }

  // --- line-game specifics ---
  const Rules& rules() const { return r_; }
  Phase phase() const { return phase_; }
  int to_move() const { return to_move_; }
  int leader() const { return leader_; }
  int last_placer() const { return last_placer_; }
  int left_end() const { return left_; }  // -1 before the lead
  int right_end() const { return right_; }
  int placed_count() const { return n_placed_; }
  // Tiles on the line from left to right, oriented so touching numbers match:
  // pairs (left number, right number).
  int line(std::pair<int, int>* out) const;
  // Where the opening tile lies in line() (its index): the tiles placed on the left end.
  int opening_index() const;
  SmallSet hand(int seat) const { return SmallSet{{hand_[seat]}}; }
  int hand_count(int seat) const { return count_[seat]; }
  SmallSet played() const { return SmallSet{{played_}}; }
  // This hand's placements in order (public): the i-th tile, which end it went
  // on, and the tiles each seat placed.
  Tile placed_tile(int i) const { return Tile{static_cast<uint8_t>(placed_[i] & 0x7f)}; }
  bool placed_on_left(int i) const { return placed_[i] & 0x80; }
  SmallSet placed_by(int seat) const { return SmallSet{{placed_by_[seat]}}; }
  SmallSet set_tiles() const { return SmallSet{{set_mask_}}; }
  // Tiles the public history proves this seat does not hold (its passes).
  SmallSet not_holding(int seat) const { return SmallSet{{not_holding_[seat]}}; }
  int stock_left() const { return drawable_ - stock_pos_; }    // tiles that can still be drawn
  int undealt_count() const { return stock_n_ - stock_pos_; }  // drawable + sleeping
  int passes_in_row() const { return passes_; }
  int score(int side) const { return score_[side]; }
  int winner_mask() const { return winners_; }  // sides that won the game (shared on a draw)
  const HandResult& last_result() const { return last_; }
  int forced_lead() const { return forced_lead_; }  // tile index the leader must lead, or -1
  int chooser() const { return chooser_; }
  int leader_draw(int seat) const { return leader_draw_[seat]; }         // last tile drawn for the lead, or -1
  int leader_draw_round(int seat) const { return leader_round_[seat]; }  // in which round (0 first)
  // draw_after_deal: every tile drawn for the lead; public, back face down,
  // never used in play (they sleep at the end of the stock).
  SmallSet lead_drawn() const { return SmallSet{{lead_drawn_}}; }
  int redeal_seat() const { return phase_ == Phase::Redeal ? to_move_ : -1; }
  bool deals_leader_by_draw() const;                                        // this deal's leader comes from a draw
  bool first_rule_pending() const { return first_rule_ && !keep_leader_; }  // next deal uses the first-hand rule
  bool choice_pending() const { return choice_pending_; }
  // Explicit chance (the Python package): tiles drawn from the stock this
  // hand, and `t` made the k-th next draw (it must be a drawable tile not
  // yet drawn; the stock's order is otherwise arbitrary). Throws Error.
  int stock_drawn() const { return stock_pos_; }
  Tile stock_at(int k) const { return Tile{stock_[stock_pos_ + k]}; }  // the k-th next draw
  void put_next_draw(int k, Tile t) {
    const int at = stock_pos_ + k;
    for (int i = at; i < drawable_; ++i)
      if (stock_[i] == t.index) {
        std::swap(stock_[i], stock_[at]);
        return;
      }
    throw Error("tile " + to_string(t) + " cannot be drawn now: it is not among the undrawn tiles of the stock");
  }
  uint64_t playable_mask(int seat) const {
    return left_ < 0 ? hand_[seat] : hand_[seat] & (suit_[left_] | suit_[right_]);
  }

  // A masked copy for `seat` and a full state sampled consistently with it.
  Observation observe(int seat) const;
  static State sample(const Observation& o, Rng& rng);
  State masked_for(int seat) const;
  State sampled(int seat, Rng& rng) const;  // full state consistent with seat's view

  // Explicit deal: hands (and optionally the undealt tiles in draw order),
  // the leader where it comes from a draw and, for draw_after_deal, the
  // tiles drawn for it (never used in play). Throws Error.
  void deal(const SmallSet* hands, const uint8_t* stock, int stock_n, int leader, uint64_t lead_drawn = 0);

 private:
  friend class Solver;  // reads the per-hand fields its hash must cover
  void start_hand();
  void after_deal(int drawn_leader);
  void begin_play();
  void offer_redeal(int k_start);
  void place(int seat, Tile t, bool on_left);
  void pass(int seat);
  void draw(int seat);
  void end_hand(HandEnd how);
  void score_hand();
  void next_hand_leader();
  int first_rule_leader_highest_double();
  int draw_leader(const uint8_t* pool, int pool_n);
  bool can_play(int seat) const { return playable_mask(seat) != 0; }
  int nearest_to_leader(unsigned seat_mask) const;
  unsigned lowest_of(const uint8_t* pips, unsigned among) const;
  int block_winner(bool& tied) const;

  Rules r_;
  Rng rng_;
  uint64_t suit_[10] = {};  // tiles of this set showing n
  uint64_t set_mask_ = 0;
  uint64_t hand_[kMaxSeats] = {};
  uint64_t dealt_[kMaxSeats] = {};  // hands as dealt (for the chance text)
  uint64_t not_holding_[kMaxSeats] = {};
  uint64_t played_ = 0;
  uint64_t placed_by_[kMaxSeats] = {};  // this hand's tiles per placer (public)
  uint8_t stock_[kMaxSetTiles] = {};    // undealt tiles; the first drawable_ may be drawn, in order
  uint8_t placed_[kMaxSetTiles] = {};   // tile index, 0x80 when laid on the left end
  uint8_t count_[kMaxSeats] = {};
  uint8_t stock_n_ = 0, drawable_ = 0, stock_pos_ = 0, n_placed_ = 0;
  int8_t seats_ = 4;
  int8_t left_ = -1, right_ = -1;
  Phase phase_ = Phase::Deal;
  int8_t to_move_ = 0, leader_ = 0, last_placer_ = -1, passes_ = 0;
  int8_t forced_lead_ = -1;
  int8_t chooser_ = -1;  // seat entering the winning team's choice of leader
  bool choice_pending_ = false;
  int8_t redeal_k_ = -1;    // offset from the leader of the seat offered a redeal
  bool first_rule_ = true;  // this hand's leader comes from the first-hand rule
  uint16_t redeals_ = 0;
  bool keep_leader_ = false;                          // redeal: the leader does not change
  bool drawn_leader_ = false;                         // the current deal's leader came from a draw
  int8_t leader_draw_[kMaxSeats] = {-1, -1, -1, -1};  // tiles drawn for the lead (display)
  int8_t leader_round_[kMaxSeats] = {};
  uint64_t lead_drawn_ = 0;  // draw_after_deal: tiles drawn for the lead this deal
  // per hand
  int8_t lead_pass_ = 0;  // 0 none, 1 earned, 2 cancelled
  uint8_t pass2010_n_ = 0;
  int16_t hand_bonus_[kMaxSeats] = {};  // three_passes and pass_20_10 so far, per side
  int16_t three_pass_[kMaxSeats] = {};
  int8_t first_pass_side_ = -1;  // first_pass_2: side credited in this hand
  // per game
  int32_t score_[kMaxSeats] = {};
  uint16_t hands_ = 0;
  uint16_t hand_in_game_ = 0;
  bool first_pass_done_ = false;
  bool first_block_done_ = false;
  bool double_up_pending_ = false;
  bool tie_double_pending_ = false;
  uint8_t winners_ = 0;
  HandResult last_;
};

// What one seat may know: the state with every tile that seat may not see
// removed (other hands, boneyard contents) and the generator cleared.
struct Observation {
  int seat = 0;
  State masked;
};

template <int N>
void State::legal_moves(int seat, MoveList<Move, N>& out) const {
  out.clear();
  if (seat != to_move_) return;
  switch (phase_) {
    case Phase::Play: {
      if (n_placed_ == 0) {
        if (forced_lead_ >= 0) {
          out.push_back({Move::Lead, static_cast<uint8_t>(forced_lead_)});
          return;
        }
        SmallSet{{hand_[seat]}}.for_each([&](Tile t) { out.push_back({Move::Lead, t.index}); });
        return;
      }
      const uint64_t l = hand_[seat] & suit_[left_];
      const uint64_t r = left_ == right_ ? 0 : hand_[seat] & suit_[right_];
      Move* m = out.data();  // a local cursor: the compiler keeps it in a register
      for (uint64_t x = l; x; x &= x - 1) *m++ = {Move::Left, static_cast<uint8_t>(std::countr_zero(x))};
      for (uint64_t x = r; x; x &= x - 1) *m++ = {Move::Right, static_cast<uint8_t>(std::countr_zero(x))};
      if (m == out.data()) *m++ = {stock_pos_ < drawable_ ? Move::Draw : Move::Pass, 0};
      out.resize(static_cast<int>(m - out.data()));
      return;
    }
    case Phase::Redeal:
      out.push_back({Move::Redeal, 0});
      out.push_back({Move::Keep, 0});
      return;
    case Phase::ChooseLeader:
      out.push_back({Move::Leader, static_cast<uint8_t>(seat)});
      out.push_back({Move::Leader, static_cast<uint8_t>((seat + 2) % seats_)});
      return;
    default:
      return;
  }
}

[[gnu::always_inline]] inline void State::place(int seat, Tile t, bool on_left) {
  const uint64_t bit = uint64_t{1} << t.index;
  hand_[seat] &= ~bit;
  played_ |= bit;
  placed_by_[seat] |= bit;
  --count_[seat];
  const int before_l = left_, before_r = right_;
  if (n_placed_ == 0) {
    left_ = static_cast<int8_t>(t.high());
    right_ = static_cast<int8_t>(t.low());
  } else {
    // Arithmetic, not a branch on random data: the matched end becomes the
    // tile's other number, pips - end.
    const int m = -static_cast<int>(on_left);
    left_ = static_cast<int8_t>(left_ + (m & (t.pips() - 2 * left_)));
    right_ = static_cast<int8_t>(right_ + (~m & (t.pips() - 2 * right_)));
  }
  placed_[n_placed_++] = static_cast<uint8_t>(t.index | (on_left ? 0x80 : 0));
  last_placer_ = static_cast<int8_t>(seat);
  passes_ = 0;
  if (hand_[seat] == 0) {
    // Capicúa: a single that could have gone on either end.
    // (With both ends equal, any single showing that number.)
    last_.capicua = before_l >= 0 && !t.is_double() && t.shows(before_l) && t.shows(before_r);
    end_hand(HandEnd::Domino);
    return;
  }
  to_move_ = static_cast<int8_t>(seat + 1 == seats_ ? 0 : seat + 1);
}

inline void State::apply_random(int seat, Rng& rng) {
  if (phase_ != Phase::Play || seat != to_move_) {
    MoveList<Move, 64> l;
    legal_moves(seat, l);
    apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    return;
  }
  // The list would be: the hand (or the forced lead) to lead; else the tiles
  // for the left end, then those for the right; else draw or pass.
  uint64_t l = hand_[seat], r = 0;
  if (n_placed_ == 0) {
    if (forced_lead_ >= 0) l = uint64_t{1} << forced_lead_;
  } else {
    l &= suit_[left_];
    r = hand_[seat] & suit_[right_] & (left_ == right_ ? 0 : ~uint64_t{0});
  }
  const uint32_t nl = static_cast<uint32_t>(std::popcount(l));
  const uint32_t n = nl + static_cast<uint32_t>(std::popcount(r));
  if (n == 0) {
    rng.below(1);  // the one move is drawn for too
    if (stock_pos_ < drawable_)
      draw(seat);
    else
      pass(seat);
    return;
  }
  // The k-th listed move, chosen without branches on random data (they
  // would mispredict): usually k < 3, so three conditional steps, then a loop.
  uint32_t k = rng.below(n);
  const bool on_left = k < nl;
  const uint64_t pick = on_left ? ~uint64_t{0} : 0;
  uint64_t x = (l & pick) | (r & ~pick);
  k -= nl & ~static_cast<uint32_t>(pick);
  x &= x - (k > 0);  // x & (x - 1) clears the lowest tile; x & x keeps x
  x &= x - (k > 1);
  x &= x - (k > 2);
  for (; k > 3; --k) x &= x - 1;
  place(seat, Tile{static_cast<uint8_t>(std::countr_zero(x))}, on_left);
}

nlohmann::json hand_result_json(const State& s, const HandResult& h);
std::string hand_result_text(const State& s, const HandResult& h);

// The game type for the common interface.
struct LineGame {
  static constexpr int kMaxMoves = 64;
  using Options = Rules;
  using Move = line::Move;
  using State = line::State;
  using Observation = line::Observation;
  using Solver = line::Solver;
  static State sample(const Observation& o, Rng& rng) { return State::sample(o, rng); }
  static std::string side_name(const State& s, int side);
  // For ismcts: the points the hand brought seat's side, less the best of
  // any other side's, per 100 points (game over: the game's result).
  static double reward(const State& from, const State& to, int seat);
  // ismcts's pool of deals weighed by beliefs from play: a sampled deal and
  // the log-likelihood of the others' placements this hand (beliefs.cpp).
  // New in issue 37: ismcts-v1 samples uniformly.
  static State sample_weighted(const Observation& o, Rng& rng, double& log_weight);
};

}  // namespace boneyard::line
