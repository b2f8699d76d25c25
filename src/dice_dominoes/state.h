#pragma once
// The Dice & Dominoes state (spec: rules/dice-and-dominoes.md). A value type
// of fixed size: copying it never allocates.
//
// Tiles are double-six faces (Tile index 0..27). With two sets a face may
// appear twice, so a hand is a small multiset in one word (namespace pile):
// bit f says "at least one f", bit 32+f says "two f".
#include <array>
#include <bit>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/game.h"
#include "core/tile.h"
#include "dice_dominoes/rules.h"

namespace boneyard::dice_dominoes {

inline constexpr int kFaces = 28;
inline constexpr int kMaxTiles = 56;  // two sets
inline constexpr uint8_t kNone = 0xFF;

// A multiset of double-six faces, at most two of each.
namespace pile {
inline int count(uint64_t p) { return std::popcount(p); }
inline int copies(uint64_t p, int f) { return static_cast<int>(((p >> f) & 1) + ((p >> (32 + f)) & 1)); }
inline bool has(uint64_t p, int f) { return (p >> f) & 1; }
inline void add(uint64_t& p, int f) { p |= uint64_t{1} << (((p >> f) & 1) ? 32 + f : f); }
inline void remove(uint64_t& p, int f) { p &= ~(uint64_t{1} << (((p >> (32 + f)) & 1) ? 32 + f : f)); }
inline uint64_t faces(uint64_t p) { return p & 0x0FFFFFFFu; }  // distinct faces held
// (a & b) is the multiset minimum and (a | b) the maximum, copy by copy.
}  // namespace pile

// How a face can be discarded under match points (p, q) (spec: A round 3-4).
enum TileClass : uint8_t { kDieA = 1, kDieB = 2, kWild = 4, kPerfect = 8 };
// Special ranks: W-perfect outranks perfect, which outranks wild.
enum Rank : uint8_t { kPlain = 0, kRankWild = 1, kRankPerfect = 2, kRankDoublePerfect = 3 };
const char* rank_name(int rank);

struct ClassTable {
  uint8_t c[6][6][kFaces];
};
inline constexpr ClassTable kClass = [] {
  ClassTable t{};
  for (int p = 1; p <= 6; ++p)
    for (int q = 1; q <= 6; ++q)
      for (int f = 0; f < kFaces; ++f) {
        const Tile x{static_cast<uint8_t>(f)};
        uint8_t c = 0;
        if (f == Tile::of(0, 0).index)
          c = kWild;  // wild: 0-0, no die
        else if (x == Tile::of(p, q))
          c = kPerfect;  // shows both match points
        else {
          if (x.shows(p)) c |= kDieA;
          if (x.shows(q)) c |= kDieB;
        }
        t.c[p - 1][q - 1][f] = c;
      }
  return t;
}();

// What one submission reveals under match points (p, q): which of the laid
// tiles turn face up and the special rank of each (spec: A round 3-4).
struct Reveal {
  uint8_t mask = 0;  // bit i: laid tile i turns face up
  uint8_t rank[2] = {0, 0};
  bool order_matters = false;  // the other order reveals the other tile
};
constexpr Reveal reveal_rule(int p, int q, uint8_t a, uint8_t b) {
  Reveal r;
  const uint8_t* cls = kClass.c[p - 1][q - 1];
  const uint8_t ca = cls[a];
  auto rank_of = [](uint8_t c) -> uint8_t { return c & kWild ? kRankWild : c & kPerfect ? kRankPerfect : kPlain; };
  if (b == kNone) {
    r.mask = ca ? 1 : 0;
    r.rank[0] = rank_of(ca);
    return r;
  }
  // W-perfect: the two doubles p-p and q-q (two p-p when p = q, two sets).
  const uint8_t dp = Tile::of(p, p).index, dq = Tile::of(q, q).index;
  if ((a == dp && b == dq) || (a == dq && b == dp)) {
    r.mask = 3;
    r.rank[0] = r.rank[1] = kRankDoublePerfect;
    return r;
  }
  const uint8_t cb = cls[b];
  r.rank[0] = rank_of(ca);
  r.rank[1] = rank_of(cb);
  if (ca && cb) {
    // One tile per die: a wild needs no die, a perfect needs both, a plain
    // tile one of those it shows. Both go when the dice can be shared out.
    const bool both =
        ((ca | cb) & kWild) || (!((ca | cb) & kPerfect) && std::popcount(static_cast<unsigned>((ca | cb) & 3)) == 2);
    r.mask = both ? 3 : 1;  // otherwise the earlier-listed tile (Decision)
    r.order_matters = !both && a != b;
  } else {
    r.mask = static_cast<uint8_t>((ca ? 1 : 0) | (cb ? 2 : 0));
  }
  if (!(r.mask & 1)) r.rank[0] = 0;
  if (!(r.mask & 2)) r.rank[1] = 0;
  return r;
}

// reveal_rule for every roll and pair of faces, packed in a byte: bits 0-1
// mask, 2-3 and 4-5 the ranks, 6 order_matters. Index kFaces: no tile.
struct RevealTable {
  uint8_t v[36][kFaces][kFaces + 1];
};
inline constexpr RevealTable kReveal = [] {
  RevealTable t{};
  for (int p = 1; p <= 6; ++p)
    for (int q = 1; q <= 6; ++q)
      for (int a = 0; a < kFaces; ++a)
        for (int b = 0; b <= kFaces; ++b) {
          const Reveal r = reveal_rule(p, q, static_cast<uint8_t>(a), b == kFaces ? kNone : static_cast<uint8_t>(b));
          t.v[(p - 1) * 6 + q - 1][a][b] =
              static_cast<uint8_t>(r.mask | r.rank[0] << 2 | r.rank[1] << 4 | (r.order_matters ? 64 : 0));
        }
  return t;
}();
inline uint8_t reveal_code(int p, int q, uint8_t a, uint8_t b) {
  return kReveal.v[(p - 1) * 6 + q - 1][a][b == kNone ? kFaces : b];
}
inline Reveal reveal(int p, int q, uint8_t a, uint8_t b) {
  const uint8_t c = reveal_code(p, q, a, b);
  Reveal r;
  r.mask = c & 3;
  r.rank[0] = (c >> 2) & 3;
  r.rank[1] = (c >> 4) & 3;
  r.order_matters = c & 64;
  return r;
}

struct Move {
  enum Kind : uint8_t { Lay, Reroll, Keep };
  // No member initializers: a MoveList of 784 moves then costs nothing to
  // construct. Move{} is {Lay, 0, 0}.
  Kind kind;
  uint8_t first;   // face laid, in order of preference
  uint8_t second;  // kNone when the player lays its only tile
  bool operator==(const Move&) const = default;
};

enum class Phase : uint8_t { Deal, Roll, Choose, RerollChoice, GameOver };

// One seat's part of a resolved round (spec: What the engine exposes).
struct SeatRound {
  uint8_t laid[2] = {kNone, kNone};
  uint8_t n_laid = 0;
  uint8_t revealed = 0;  // bit i: laid[i] turned face up
  uint8_t stood = 0;     // bit i: laid[i] discarded for good
  uint8_t rank = 0;      // best special this seat revealed
  bool drew = false;
  bool out = false;
};

struct RoundRecord {
  uint16_t number = 0;  // round within the hand, 1-based; 0: none yet
  int8_t dice[2] = {0, 0};
  int8_t roller = -1;
  bool kept_dice = false;        // match points kept by a W-perfect player
  uint8_t top_rank = 0;          // best special that stood
  int8_t top_seat = -1;          // a seat whose top special stood
  bool leftover_unused = false;  // the boneyard became too small this round
  int8_t chooser = -1;           // the W-perfect player choosing reroll/keep
  SeatRound seat[kMaxSeats];
};

enum class Payout : uint8_t { Single, Special, Split, AllOut };

struct HandResult {
  uint16_t number = 0;  // 1-based hand number in the session
  uint16_t rounds = 0;
  uint16_t out_mask = 0;
  uint16_t winner_mask = 0;
  Payout how = Payout::Single;
  uint8_t winning_rank = 0;     // Special: the best special among those out
  int32_t pot = 0;              // before the pay-out
  int32_t share = 0;            // chips to each winner
  int32_t kept = 0;             // chips left in the pot for the next hand
  int32_t net[kMaxSeats] = {};  // this hand's chips won less the ante
};

struct Observation;

class State {
 public:
  State() = default;
  State(const Rules& rules, uint64_t seed);

  // --- the common interface (core/game.h) ---
  int num_seats() const { return r_.players; }
  int num_sides() const { return r_.players; }
  int side_of(int seat) const { return seat; }
  Actor actor() const;
  template <int N>
  void legal_moves(int seat, MoveList<Move, N>& out) const;
  void apply(int seat, Move m);
  // Playouts (core/playout.h): applies legal_moves(seat)[rng.below(size)]
  // without listing the moves.
  void apply_random(int seat, Rng& rng);
  void apply_random_listed(int seat, Rng& rng);  // the rare cases, by the list
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

  // --- Dice & Dominoes specifics ---
  const Rules& rules() const { return r_; }
  Phase phase() const { return phase_; }
  int die(int i) const { return dice_[i]; }  // match points (0 before the roll)
  int roller() const { return roller_; }
  int round() const { return round_; }
  int chooser() const { return phase_ == Phase::RerollChoice ? chooser_ : -1; }
  uint64_t hand(int seat) const { return hand_[seat]; }
  int hand_count(int seat) const { return count_[seat]; }
  uint64_t discards(int seat) const { return discards_[seat]; }
  // Tiles this seat revealed that went back: public, still in its hand.
  uint64_t known(int seat) const { return known_[seat]; }
  int best_special(int seat) const { return best_rank_[seat]; }             // discarded this hand
  int boneyard() const { return stock_dead_ ? 0 : stock_n_ - stock_pos_; }  // tiles that can be drawn
  int unused() const { return stock_dead_ ? stock_n_ - stock_pos_ : 0; }    // left over, never drawn
  int stock_size() const { return stock_n_; }                               // undealt tiles, drawn or not
  int stock_drawn() const { return stock_pos_; }
  uint8_t stock_tile(int i) const { return stock_[i]; }  // face, in draw order
  // Explicit chance (the Python package): tiles drawn from the boneyard
  // since the state was made (never reset), and face f made the k-th next
  // draw (a face among the tiles not yet drawn). Throws Error.
  uint32_t draws_made() const { return draws_made_; }
  void put_next_draw(int k, int f) {
    const int at = stock_pos_ + k;
    for (int i = at; i < stock_n_; ++i)
      if (stock_[i] == f) {
        std::swap(stock_[i], stock_[at]);
        return;
      }
    throw Error("face " + to_string(Tile{static_cast<uint8_t>(f)}) + " cannot be drawn now: it is not in the boneyard");
  }
  uint16_t pending() const { return phase_ == Phase::Choose ? pending_ : 0; }
  bool submitted(int seat) const { return phase_ == Phase::Choose && !((pending_ >> seat) & 1); }
  Move submission(int seat) const { return submit_[seat]; }
  int pot() const { return pot_; }
  int balance(int seat) const { return balance_[seat]; }
  const RoundRecord& last_round() const { return last_round_; }
  const HandResult& last_result() const { return last_; }

  // Explicit deal: the hands and the undealt tiles in draw order (faces).
  // Throws Error.
  void deal(const uint64_t* hands, const uint8_t* stock, int stock_n);
  // Explicit dice. Throws Error.
  void roll(int a, int b);

  Observation observe(int seat) const;
  static State sample(const Observation& o, Rng& rng);
  State masked_for(int seat) const;

 private:
  void apply_deal_chance();
  void apply_dice_choice(Move m);  // reroll or keep
  void begin_choice() {
    phase_ = Phase::Choose;
    pending_ = static_cast<uint16_t>((1u << r_.players) - 1);
  }
  void lay_out_deal(const uint64_t* hands, const uint8_t* stock, int stock_n);  // checked already
  void start_hand();
  void next_round();
  void resolve_round();
  void end_hand(uint16_t out_mask);

  Rules r_;
  Rng rng_;
  Phase phase_ = Phase::Deal;
  uint64_t hand_[kMaxSeats] = {};
  uint64_t dealt_[kMaxSeats] = {};
  uint64_t known_[kMaxSeats] = {};
  uint64_t discards_[kMaxSeats] = {};
  uint8_t stock_[kMaxTiles] = {};  // undealt faces in draw order
  uint8_t stock_n_ = 0, stock_pos_ = 0;
  uint32_t draws_made_ = 0;  // tiles drawn from the boneyard, ever (explicit chance)
  bool stock_dead_ = false;  // too few left for the drawers: never used (spec: A round 6)
  uint8_t count_[kMaxSeats] = {};
  Move submit_[kMaxSeats] = {};
  uint16_t pending_ = 0;
  int8_t dice_[2] = {0, 0};
  int8_t roller_ = 0, first_roller_ = 0, chooser_ = -1;
  uint16_t round_ = 0;
  bool kept_ = false;
  bool last_chance_roll_ = false;
  int8_t best_rank_[kMaxSeats] = {};
  int32_t balance_[kMaxSeats] = {};
  int32_t pot_ = 0;
  uint16_t hands_ = 0;
  RoundRecord last_round_;
  HandResult last_;
};

// What one seat may know: the state with every hidden tile removed (other
// hands except their publicly known tiles, the boneyard, the other seats'
// pending submissions and face-down tiles) and the generator cleared.
struct Observation {
  int seat = 0;
  State masked;
};

// Pair number p of a hand of k distinct faces in list order (faces in
// ascending order; each higher face with every lower one, from the top).
constexpr std::pair<int, int> lay_pair(int k, int p) {
  for (int i = k - 1; i >= 1; --i) {
    if (p < i) return {i, i - 1 - p};
    p -= i;
  }
  return {0, 0};
}

// Every pair of k distinct faces (no twins), higher face first, plus the
// reverse order when it changes what is revealed; unrolled.
template <int K, int N, size_t... P>
inline void lay_pairs(const uint8_t* f, const uint8_t (&table)[kFaces][kFaces + 1], MoveList<Move, N>& out,
                      std::index_sequence<P...>) {
  Move* m = out.data() + out.size();  // a local cursor: the count is set once
  auto lay = [&](uint8_t a, uint8_t b) {
    *m++ = {Move::Lay, a, b};
    if (table[a][b] & 64) *m++ = {Move::Lay, b, a};
  };
  (lay(f[lay_pair(K, P).first], f[lay_pair(K, P).second]), ...);
  out.resize(static_cast<int>(m - out.data()));
}

// The hot paths of playouts, inline.
inline Actor State::actor() const {
  switch (phase_) {
    case Phase::Deal:
    case Phase::Roll:
      return Actor::chance();
    case Phase::Choose:
      return Actor::simultaneous(pending_);
    case Phase::RerollChoice:
      return Actor::at(chooser_);
    case Phase::GameOver:
      return Actor::terminal();
  }
  return Actor::terminal();
}

inline void State::apply(int seat, Move m) {
  if (m.kind != Move::Lay) return apply_dice_choice(m);
  submit_[seat] = m;
  pending_ = static_cast<uint16_t>(pending_ & ~(1u << seat));
  if (pending_ == 0) resolve_round();
}

inline void State::apply_chance() {
  if (phase_ != Phase::Roll) return apply_deal_chance();
  // Spec: A round 1. Two dice: the round's match points.
  dice_[0] = static_cast<int8_t>(rng_.below(6) + 1);
  dice_[1] = static_cast<int8_t>(rng_.below(6) + 1);
  last_chance_roll_ = true;
  begin_choice();
}

template <int N>
void State::legal_moves(int seat, MoveList<Move, N>& out) const {
  out.clear();
  if (phase_ == Phase::RerollChoice) {
    if (seat == chooser_) {
      out.push_back({Move::Reroll, 0, kNone});
      out.push_back({Move::Keep, 0, kNone});
    }
    return;
  }
  if (phase_ != Phase::Choose || !((pending_ >> seat) & 1)) return;
  const uint64_t h = hand_[seat];
  if (count_[seat] == 1) {
    out.push_back({Move::Lay, static_cast<uint8_t>(std::countr_zero(h)), kNone});
    return;
  }
  // Two tiles: each pair once, higher face first, plus the reverse order
  // when the order changes what is revealed (spec: A round 3, Decision).
  uint8_t f[kFaces];
  int n = 0;
  for (uint64_t x = pile::faces(h); x; x &= x - 1) f[n++] = static_cast<uint8_t>(std::countr_zero(x));
  const auto& table = kReveal.v[(dice_[0] - 1) * 6 + dice_[1] - 1];
  const uint64_t twins = h >> 32;  // two sets: faces held twice
  if (!twins) {
    // The usual hands, unrolled (this is most of a random playout).
    switch (n) {
      case 2:
        return lay_pairs<2>(f, table, out, std::make_index_sequence<1>());
      case 3:
        return lay_pairs<3>(f, table, out, std::make_index_sequence<3>());
      case 4:
        return lay_pairs<4>(f, table, out, std::make_index_sequence<6>());
      case 5:
        return lay_pairs<5>(f, table, out, std::make_index_sequence<10>());
      case 6:
        return lay_pairs<6>(f, table, out, std::make_index_sequence<15>());
      default:
        break;
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    if (twins >> f[i] & 1) out.push_back({Move::Lay, f[i], f[i]});
    const uint8_t* row = table[f[i]];
    for (int j = i - 1; j >= 0; --j) {
      out.push_back({Move::Lay, f[i], f[j]});
      if (row[f[j]] & 64) out.push_back({Move::Lay, f[j], f[i]});
    }
  }
}

nlohmann::json round_json(const State& s, const RoundRecord& r, int seat);
std::string round_text(const State& s, const RoundRecord& r, int seat);
nlohmann::json hand_result_json(const State& s, const HandResult& h);
std::string hand_result_text(const State& s, const HandResult& h);

// The game type for the common interface.
struct DiceDominoes {
  // A hand holds at most 28 distinct faces (draws can make it large when
  // others skip theirs): 378 pairs, at most 378 of them also reversed, and
  // 28 pairs of twin faces (two sets). A hard bound, never reached in play.
  static constexpr int kMaxMoves = 784;
  using Options = Rules;
  using Move = dice_dominoes::Move;
  using State = dice_dominoes::State;
  using Observation = dice_dominoes::Observation;
  static State sample(const Observation& o, Rng& rng) { return State::sample(o, rng); }
  static std::string side_name(const State& s, int side);
  // For ismcts (bots/ismcts.h): the chips `seat` took from the pot in the
  // hand that `to` finished, as a share of that pot, from -1 (nothing) to 1
  // (the whole pot); 0 when `to` is still in the hand of `from`.
  static double reward(const State& from, const State& to, int seat);
  // A cheap playout policy (bots.cpp): the lay that discards most, specials
  // first, ties at random.
  static Move rollout_move(const State& s, int seat, std::span<const Move> legal, Rng& rng);
  // For ismcts: the public outcome of the chance event just applied (the
  // dice), so that each roll has its own node in the search tree.
  static uint64_t chance_key(const State& s) { return static_cast<uint64_t>(s.die(0) * 8 + s.die(1)); }
  // For paired (bots/paired.h): lays that turn up the same tiles have the
  // same effect (the face-down ones go back unseen), so the search plays
  // them as one move: the tiles turned up, in face order, kNone for a tile
  // left face down.
  static Move move_class(const State& s, int seat, Move m);
};

// apply_random's tables. For a hand of n distinct faces f_0 < f_1 < ... (no
// twins), legal_moves lists every pair (f_i, f_j), j < i, by i then j
// descending, each followed by (f_j, f_i) when the order matters. Element
// (i, j) is bit i(i-1) + 2j + 1 of a word, its reverse bit i(i-1) + 2j: the
// list is the set bits from the top down (up to 8 faces in 56 bits).
namespace pick {
// Per roll and face (indices kFaces and up: no face, for the steps past the
// hand's faces): the face's class as one bit in a byte, 0 die A, 1 die B,
// 2 both dice (a double roll), 3 perfect; nothing for a wild, a face that
// matches nothing or no face. The order matters for exactly these pairs
// (reveal_rule): die A with die A or perfect, die B with die B or perfect,
// both dice with perfect (never a wild; one perfect face in one set).
inline constexpr int kSteps = 7;  // faces: nearly every hand has fewer
struct ClassBitTable {
  uint32_t v[36][kFaces + kSteps];
};
inline constexpr ClassBitTable kClassBit = [] {
  ClassBitTable t{};
  for (int d = 0; d < 36; ++d)
    for (int f = 0; f < kFaces; ++f) {
      const uint8_t c = kClass.c[d / 6][d % 6][f];
      t.v[d][f] = c == kDieA             ? 1u
                  : c == kDieB           ? 1u << 8
                  : c == (kDieA | kDieB) ? 1u << 16
                  : c == kPerfect        ? 1u << 24
                                         : 0u;
    }
  return t;
}();
struct Tables {
  uint64_t pairs[256];            // by a set of indices: the reverse bits of its pairs
  uint64_t starts[9];             // by n: the bits of the pairs (f_i, f_j)
  uint8_t first[56], second[56];  // by bit: the indices laid first and second
  uint8_t select[256][8];         // the r-th set bit of a byte
};
inline constexpr Tables kTables = [] {
  Tables t{};
  for (int x = 0; x < 256; ++x)
    for (int i = 1; i < 8; ++i)
      for (int j = 0; j < i; ++j)
        if ((x >> i & 1) && (x >> j & 1)) t.pairs[x] |= uint64_t{1} << (i * (i - 1) + 2 * j);
  for (int n = 0; n <= 8; ++n) t.starts[n] = t.pairs[(1u << n) - 1] << 1;
  for (int i = 1; i < 8; ++i)
    for (int j = 0; j < i; ++j) {
      const int b = i * (i - 1) + 2 * j;
      t.first[b + 1] = t.second[b] = static_cast<uint8_t>(i);
      t.second[b + 1] = t.first[b] = static_cast<uint8_t>(j);
    }
  for (int x = 0; x < 256; ++x)
    for (int b = 0, r = 0; b < 8; ++b)
      if (x >> b & 1) t.select[x][r++] = static_cast<uint8_t>(b);
  return t;
}();
// The position of the r-th set bit of w (r < popcount(w)), without branches.
inline int select_bit(uint64_t w, unsigned r) {
  constexpr uint64_t kOnes = 0x0101010101010101u;
  uint64_t x = w - ((w >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  const uint64_t prefix = x * kOnes;  // byte t: the set bits in bytes 0..t
  // The bytes wholly before the bit: those whose prefix is <= r.
  const uint64_t le = ((r * kOnes) | (kOnes << 7)) - prefix;
  const int byte = std::popcount(le & (kOnes << 7));
  const unsigned before = static_cast<unsigned>(((prefix << 8) >> (8 * byte)) & 0xFF);
  return 8 * byte + kTables.select[(w >> (8 * byte)) & 0xFF][r - before];
}

// The reverse bits of the list (see above) for a hand of at most K faces:
// K steps whatever the hand (a loop on its size would mispredict), each
// taking one face and adding its index to the set of its class.
template <int K>
[[gnu::always_inline]] inline uint64_t reverse_bits(uint64_t faces, const uint32_t* class_bit, uint8_t* f) {
  uint64_t x = faces | ~uint64_t{0} << kFaces;  // past the hand: no face
  uint32_t sets = 0;
#pragma GCC unroll 8
  for (int t = 0; t < K; ++t) {
    const int face = std::countr_zero(x);
    x &= x - 1;
    f[t] = static_cast<uint8_t>(face);
    sets |= class_bit[face] << t;
  }
  const unsigned a = sets & 0xFF, b = (sets >> 8) & 0xFF, ab = (sets >> 16) & 0xFF, p = (sets >> 24) & 0xFF;
  // The perfect's pairs: those of the set with it less those without it.
  return kTables.pairs[a] | kTables.pairs[b] | (kTables.pairs[a | b | ab | p] & ~kTables.pairs[a | b | ab]);
}
}  // namespace pick

inline void State::apply_random(int seat, Rng& rng) {
  const uint64_t h = hand_[seat];
  const int count = count_[seat];
  // The rare cases by the list: no lay to choose, twins (two sets), a big hand.
  if (phase_ != Phase::Choose || !((pending_ >> seat) & 1) || (h >> 32) || count > pick::kSteps) [[unlikely]] {
    apply_random_listed(seat, rng);
    return;
  }
  Move m;
  if (count == 1) {
    rng.below(1);  // the one move is drawn for too
    m = {Move::Lay, static_cast<uint8_t>(std::countr_zero(h)), kNone};
  } else {
    const uint32_t* class_bit = pick::kClassBit.v[(dice_[0] - 1) * 6 + dice_[1] - 1];
    uint8_t f[pick::kSteps];
    const uint64_t w = pick::kTables.starts[count] | pick::reverse_bits<pick::kSteps>(h, class_bit, f);
    const uint32_t total = static_cast<uint32_t>(std::popcount(w));
    const int b = pick::select_bit(w, total - 1 - rng.below(total));
    m = {Move::Lay, f[pick::kTables.first[b]], f[pick::kTables.second[b]]};
  }
  submit_[seat] = m;
  pending_ = static_cast<uint16_t>(pending_ & ~(1u << seat));
  if (pending_ == 0) resolve_round();
}

}  // namespace boneyard::dice_dominoes
