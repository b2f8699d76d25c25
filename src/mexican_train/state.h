#pragma once
// The Mexican Train state (spec: rules/mexican-train.md). A value type of
// fixed size: copying it never allocates.
#include <array>
#include <bit>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game.h"
#include "core/sample.h"
#include "core/tile.h"
#include "mexican_train/rules.h"

namespace boneyard::mexican_train {

inline constexpr int kMexican = kMaxSeats;  // train index of the Mexican train; trains 0..7 are the seats'
inline constexpr int kTrains = kMaxSeats + 1;
inline constexpr int kMaxSetTiles = 136;  // double-fifteen

struct Move {
  enum Kind : uint8_t { Lay, Draw, Pass, EndOpening };
  Kind kind = Pass;
  uint8_t tile = 0;   // Lay: tile index
  uint8_t train = 0;  // Lay: a seat's train 0..7, or kMexican
  Tile t() const { return Tile{tile}; }
  bool operator==(const Move&) const = default;
};

enum class Phase : uint8_t { Deal, Opening, Play, GameOver };
enum class RoundEnd : uint8_t { None, Domino, Blocked };

// One finished round (spec: Play 6).
struct RoundResult {
  RoundEnd end = RoundEnd::None;
  int8_t out_seat = -1;  // who laid their last tile (Domino)
  int8_t start_seat = 0;
  uint8_t engine = 0;   // tile index of the engine double
  uint16_t number = 0;  // 1-based
  uint8_t tiles_left[kMaxSeats] = {};
  int16_t penalty[kMaxSeats] = {};
};

struct Observation;

class State {
 public:
  State() = default;
  State(const Rules& rules, uint64_t seed);

  // --- the common interface (core/game.h) ---
  int num_seats() const { return seats_; }
  int num_sides() const { return seats_; }
  int side_of(int seat) const { return seat; }
  Actor actor() const {  // inline: playouts ask before every move
    return phase_ == Phase::Deal       ? Actor::chance()
           : phase_ == Phase::GameOver ? Actor::terminal()
                                       : Actor::at(to_move_);
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
  int hands_finished() const { return rounds_done_; }
  HandSummary last_hand() const;
  void scores(double* per_side) const;
  Observation observe(int seat) const;
  nlohmann::json view(int seat) const;
  std::string render(int seat) const;
  nlohmann::json options_json() const;
  void reseed(uint64_t seed) { rng_.reseed(seed); }
  // A deal consistent with the observation, uniform given the hard evidence
  // (sample_assignment_mixed); sample_v1 deals it with the sampler of
  // `ismcts-v1`'s day (sample_assignment: the same law, up to 15 times the
  // cost where a seat lacks a number).
  static State sample(const Observation& o, Rng& rng) { return sample_with(o, rng, sample_assignment_mixed); }
  static State sample_v1(const Observation& o, Rng& rng) { return sample_with(o, rng, sample_assignment); }

  // --- Mexican Train specifics ---
  const Rules& rules() const { return r_; }
  Phase phase() const { return phase_; }
  int to_move() const { return to_move_; }
  int start_seat() const { return start_seat_; }
  int round_number() const { return rounds_done_ + (terminal() ? 0 : 1); }  // 1-based
  Tile engine() const { return Tile{engine_}; }
  int engine_seat() const { return engine_seat_; }    // who placed it (-1: round_doubles)
  int engine_draws() const { return engine_draws_; }  // tiles drawn looking for it
  TileSet hand(int seat) const;
  int hand_count(int seat) const { return count_[seat]; }
  TileSet table() const;  // every tile on the table, the engine included
  TileSet set_tiles() const { return TileSet::first_n(r_.tiles_in_set()); }
  int stock_left() const { return deck_n_ - stock_pos_; }
  Tile stock_at(int k) const { return Tile{deck_[stock_pos_ + k]}; }  // k-th next draw
  // Explicit chance (the Python package): tiles drawn from the deck this
  // round (the hands count), and `t` made the k-th next draw (a tile of
  // the boneyard not yet drawn). Throws Error.
  int stock_drawn() const { return stock_pos_; }
  void put_next_draw(int k, Tile t) {
    const int at = stock_pos_ + k;
    for (int i = at; i < deck_n_; ++i)
      if (deck_[i] == t.index) {
        std::swap(deck_[i], deck_[at]);
        return;
      }
    throw Error("tile " + to_string(t) + " cannot be drawn now: it is not in the boneyard");
  }
  // Trains: 0..seats-1 personal, kMexican the Mexican train.
  int train_end(int train) const { return end_[train]; }
  int train_length(int train) const { return len_[train]; }
  bool mexican_started() const { return len_[kMexican] > 0; }
  int train_tiles(int train, Tile* out) const;  // in order from the station
  // The round's placements in order (public): the tile, its train, who laid
  // it, whether it was the tile just drawn (no choice), and the numbers that
  // seat could lay on then.
  int laid_count() const { return n_log_; }
  Tile laid_tile(int i) const { return Tile{log_tile_[i]}; }
  int laid_train(int i) const { return log_train_[i]; }
  int laid_by(int i) const { return log_seat_[i] & 7; }
  bool laid_drawn(int i) const { return log_seat_[i] >> 7; }
  uint32_t laid_ends(int i) const { return log_ends_[i]; }
  // The log's length when `seat` last drew this round (0: never, or only
  // for the engine): its hand since is what it holds plus what it laid since.
  int drew_at(int seat) const { return drew_at_[seat]; }
  bool marked(int seat) const { return (marked_ >> seat) & 1; }
  // Every other tile showing n is on the table: the double n-n is its last
  // (spec Play 5, exception 1).
  bool last_of_number(int n) const { return (table_[n] | (1u << n)) == (2u << r_.max_pip()) - 1; }
  int open_doubles() const { return n_open_; }
  int open_double_train(int k) const { return open_[k]; }  // oldest first
  bool drew_this_turn() const { return drawn_; }
  int drawn_tile() const { return drawn_tile_; }  // -1 when no drawn tile waits to be laid
  bool owes_cover() const { return owes_cover_; }
  int tiles_laid_this_turn() const { return turn_laid_; }
  int passes_in_row() const { return passes_; }
  int score(int seat) const { return score_[seat]; }
  const RoundResult& last_result() const { return last_; }
  // Numbers this seat is publicly known not to hold (its draws and passes).
  uint32_t known_void(int seat) const { return void_[seat]; }
  // The highest double this seat may hold (-1: none; 127: unknown).
  int double_cap(int seat) const { return double_cap_[seat]; }
  int penalty_of(const TileSet& tiles) const;  // spec: Play 6
  // The tiles of `seat`'s hand showing n, as a mask of their other ends
  // (bit m: the seat holds n-m).
  unsigned holds(int seat, int n) const { return hand_[seat][n]; }

  // Explicit deal: the hands and the boneyard in draw order (stock_n < 0:
  // the undealt tiles in index order). Throws Error.
  void deal(const TileSet* hands, const uint8_t* stock, int stock_n);
  State masked_for(int seat) const;

 private:
  using Assign = decltype(&sample_assignment);  // either of core/sample.h's samplers
  static State sample_with(const Observation& o, Rng& rng, Assign assign);
  void apply_listed(int seat, Rng& rng);  // apply_random's uncommon cases
  // With no tile to lay: the one move left (end the opening, draw, or pass),
  // or false when there is none.
  bool move_without_tile(Move& m) const {
    if (phase_ == Phase::Opening && turn_laid_ > 0 && !owes_cover_) return m = {Move::EndOpening, 0, 0}, true;
    // One draw a turn, and one more for each double laid after it (spec Play 5).
    if ((drawn_ && !cover_draw_) || (turn_laid_ > 0 && !owes_cover_)) return false;
    if (stock_pos_ < deck_n_) return m = {Move::Draw, 0, 0}, true;
    if (turn_laid_ == 0) return m = {Move::Pass, 0, 0}, true;
    return false;
  }
  void start_round();
  void after_deal();
  void lay(int seat, Tile t, int train);
  void draw(int seat);
  void pass(int seat);
  void end_turn(int seat, bool mark);
  void continue_or_mark(int seat);
  bool has_move(int seat) const;
  bool blocked() const;
  void end_round(RoundEnd how);
  uint32_t playable_numbers(int seat) const;  // the train ends this seat may play on now
  bool remove_open(int train);
  void give(int seat, Tile t) {
    hand_[seat][t.high()] |= static_cast<uint16_t>(1u << t.low());
    hand_[seat][t.low()] |= static_cast<uint16_t>(1u << t.high());
  }
  void take(int seat, Tile t) {
    hand_[seat][t.high()] &= static_cast<uint16_t>(~(1u << t.low()));
    hand_[seat][t.low()] &= static_cast<uint16_t>(~(1u << t.high()));
  }
  int hand_penalty(int seat) const;
  // The tiles `seat` may lay on a train ending in n: its hand's, or only the
  // tile just drawn (spec Play 3).
  unsigned fits(int seat, int n) const {
    unsigned m = hand_[seat][n];
    if (drawn_tile_ >= 0) {
      const Tile t{static_cast<uint8_t>(drawn_tile_)};
      m &= t.shows(n) ? 1u << t.other(n) : 0u;
    }
    return m;
  }

  template <int N>
  static void push_lays(int train, int end, unsigned tiles, MoveList<Move, N>& out) {
    // Ascending other ends are ascending tile indices: the order of the moves is index order.
    // A local cursor, set once: push_back would reload the count per move.
    Move* m = out.data() + out.size();
    for (; tiles; tiles &= tiles - 1)
      *m++ = {Move::Lay, kTileOf[end][std::countr_zero(tiles)], static_cast<uint8_t>(train)};
    out.resize(static_cast<int>(m - out.data()));
  }
  static constexpr auto kTileOf = [] {
    std::array<std::array<uint8_t, 16>, 16> a{};
    for (int x = 0; x < 16; ++x)
      for (int y = 0; y < 16; ++y) a[x][y] = Tile::of(x, y).index;
    return a;
  }();

  Rules r_;
  Rng rng_;
  // Hands by number: bit m of hand_[s][n] is set when seat s holds n-m, so
  // the tiles that fit a train's end are one word (a double sets one bit).
  uint16_t hand_[kMaxSeats][16] = {};
  uint16_t table_[16] = {};  // the same for the tiles on the table, the engine included
  // The set as shuffled: the hands as dealt (seat by seat), then the
  // boneyard in draw order from dealt_n_; the next draw is deck_[stock_pos_].
  uint8_t deck_[kMaxSetTiles] = {};
  // Every tile laid, in order, and the train it went on.
  uint8_t log_tile_[kMaxSetTiles] = {};
  uint8_t log_train_[kMaxSetTiles] = {};
  // Who laid it (bit 7: it was the tile just drawn, so no choice), and the
  // numbers they could lay on then (public: the beliefs read them).
  uint8_t log_seat_[kMaxSetTiles] = {};
  uint16_t log_ends_[kMaxSetTiles] = {};
  uint8_t drew_at_[kMaxSeats] = {};  // the log's length at each seat's last draw
  uint8_t deck_n_ = 0, dealt_n_ = 0, stock_pos_ = 0, n_log_ = 0;
  int8_t end_[kTrains] = {};
  uint8_t len_[kTrains] = {};
  uint16_t marked_ = 0;
  int8_t open_[kTrains] = {};
  uint8_t n_open_ = 0;
  uint8_t count_[kMaxSeats] = {};
  uint8_t engine_ = 0;
  int8_t engine_pip_ = 0;
  int8_t engine_seat_ = -1;
  uint8_t engine_draws_ = 0;
  Phase phase_ = Phase::Deal;
  int8_t seats_ = 4, to_move_ = -1, start_seat_ = 0, opening_done_ = 0;
  // the turn in progress
  uint8_t turn_laid_ = 0;
  bool drawn_ = false;
  bool owes_cover_ = false;
  bool cover_draw_ = false;  // a double was laid since this turn's draw: one more draw to cover it
  int16_t drawn_tile_ = -1;
  uint8_t passes_ = 0;
  // public constraints on hidden hands
  uint16_t void_[kMaxSeats] = {};
  int8_t double_cap_[kMaxSeats] = {};
  // the game
  int32_t score_[kMaxSeats] = {};
  uint16_t rounds_done_ = 0;
  RoundResult last_;
};

// What one seat may know: the state with every hidden tile removed (other
// hands, the boneyard) and the generator cleared.
struct Observation {
  int seat = 0;
  State masked;
};

template <int N>
void State::legal_moves(int seat, MoveList<Move, N>& out) const {
  out.clear();
  if (seat != to_move_ || (phase_ != Phase::Opening && phase_ != Phase::Play)) return;
  if (phase_ == Phase::Opening) {
    // Spec Play 1: only the own train; keep laying while a tile fits.
    push_lays(seat, end_[seat], fits(seat, end_[seat]), out);
  } else if (n_open_ > 0) {
    // Spec Play 5: the oldest open double must be covered, nowhere else.
    const int t = open_[0];
    push_lays(t, end_[t], fits(seat, end_[t]), out);
    if (owes_cover_ && r_.multiple_doubles) {
      // multiple_doubles: instead of covering, lay a further double.
      for (int k = 0; k <= kMexican; ++k) {
        if (k >= seats_ && k != kMexican) continue;
        if (k != seat && k != kMexican && !((marked_ >> k) & 1)) continue;
        if (k == t) continue;
        const int e = end_[k];
        push_lays(k, e, fits(seat, e) & (1u << e), out);  // the double e-e
      }
    }
  } else {
    // Spec Play 2: own train, the Mexican train (or start it), marked trains.
    push_lays(seat, end_[seat], fits(seat, end_[seat]), out);
    push_lays(kMexican, end_[kMexican], fits(seat, end_[kMexican]), out);
    for (uint32_t m = marked_ & ~(1u << seat); m; m &= m - 1) {
      const int k = std::countr_zero(m);
      push_lays(k, end_[k], fits(seat, end_[k]), out);
    }
  }
  // Nothing fits: end the opening, draw (once a turn), or pass with the
  // boneyard empty.
  if (Move m; out.empty() && move_without_tile(m)) out.push_back(m);
}

inline void State::apply_random(int seat, Rng& rng) {
  // The trains whose tiles legal_moves lists, in its order, and the tiles
  // that fit each. Open doubles under multiple_doubles go the long way.
  int trains[kTrains];
  unsigned fit[kTrains];
  int nt = 0;
  auto add = [&](int train) {
    trains[nt] = train;
    fit[nt++] = fits(seat, end_[train]);
  };
  if (seat != to_move_) return apply_listed(seat, rng);
  if (phase_ == Phase::Opening) {
    add(seat);
  } else if (phase_ != Phase::Play || (n_open_ > 0 && owes_cover_ && r_.multiple_doubles)) {
    return apply_listed(seat, rng);
  } else if (n_open_ > 0) {
    add(open_[0]);
  } else {
    add(seat);
    add(kMexican);
    for (uint32_t m = marked_ & ~(1u << seat); m; m &= m - 1) add(std::countr_zero(m));
  }
  uint32_t total = 0;
  for (int i = 0; i < nt; ++i) total += static_cast<uint32_t>(std::popcount(fit[i]));
  if (total == 0) {
    Move m;
    if (!move_without_tile(m)) return apply_listed(seat, rng);
    rng.below(1);  // a list of one is drawn from too
    return apply(seat, m);
  }
  uint32_t k = rng.below(total);
  int i = 0;
  for (uint32_t c; k >= (c = static_cast<uint32_t>(std::popcount(fit[i]))); ++i) k -= c;
  unsigned x = fit[i];  // the k-th tile of this train's: usually k < 3, so no branches
  x &= x - (k > 0);
  x &= x - (k > 1);
  x &= x - (k > 2);
  for (; k > 3; --k) x &= x - 1;
  const int train = trains[i];
  lay(seat, Tile{kTileOf[end_[train]][std::countr_zero(x)]}, train);
}

nlohmann::json round_result_json(const State& s, const RoundResult& r);
std::string round_result_text(const State& s, const RoundResult& r);
std::string train_name(int train);

// The game type for the common interface.
struct MexicanTrain {
  static constexpr int kMaxMoves = 160;
  using Options = Rules;
  using Move = mexican_train::Move;
  using State = mexican_train::State;
  using Observation = mexican_train::Observation;
  static State sample(const Observation& o, Rng& rng) { return State::sample(o, rng); }
  static State sample_v1(const Observation& o, Rng& rng) { return State::sample_v1(o, rng); }
  // ismcts: each deal weighed by the placements since each seat's last draw
  // (beliefs.h).
  static State sample_weighted(const Observation& o, Rng& rng, double& log_weight);
  // The pool grows to a quarter of the time (or of the iterations): reusing
  // 256 deals for 50 ms of iterations measured worse than fresh deals, and
  // expert's 8,000 iterations over them level with strong (docs/bots.md).
  static constexpr int kMaxPool = 2048;
  static std::string side_name(const State& s, int side);
  // For ismcts: the round's penalty of `seat` against the mean of the
  // others', scaled to [-1, 1]; at the end of the game, half of it is the
  // same comparison of the totals (spec Play 7: the lowest total wins).
  static double reward(const State& from, const State& to, int seat);
  // ismcts-v1's playouts: a cheap club policy, no allocation (bots.cpp).
  // ismcts plays out at random: with beliefs from play that measured better
  // (docs/bots.md).
  static Move rollout_move_v1(const State& s, int seat, std::span<const Move> legal, Rng& rng);
};

}  // namespace boneyard::mexican_train
