#pragma once
// The common game interface: the one thing every game module agrees on.
//
// Hot paths (playouts, solvers, search bots) are templates over a concrete
// game type G. Front-ends (play, arena, engine, replay) only see AnyState and
// AnyBot, which GameAdapter<G> provides once for every G. A game G supplies
// (the Game concept in adapter.h checks it at compile time):
//
//   struct G {
//     static constexpr int kMaxMoves;   // capacity of one MoveList
//     using Options;                    // parsed rule options (value type)
//     using Move;                       // small, trivially copyable, ==
//     using State;                      // value type: copying never allocates
//     using Observation;                // what one seat may know
//   };
//   State members:
//     int num_seats() const;  int num_sides() const;  int side_of(int seat) const;
//     Actor actor() const;                       // seat / simultaneous / chance / terminal
//     void legal_moves(int seat, MoveList<Move, G::kMaxMoves>&) const;
//     void apply(int seat, Move);                // precondition: legal
//     void apply_chance();                       // outcome from the state's own Rng
//     std::string chance_text() const;           // the last chance outcome, parseable
//     void apply_chance_text(std::string_view);  // explicit outcome; throws Error
//     std::string move_text(Move) const;         // canonical text, round-trips
//     std::string move_words(int seat, Move) const;  // the move said for people
//                                                // ("lead 6-6", "bid 30"); optional
//     Move parse_move(int seat, std::string_view) const;  // throws Error if not legal now
//     bool terminal() const;
//     void returns(double* out) const;           // per seat: share of the game won
//     int hands_finished() const;                // completed hands (rounds)
//     HandSummary last_hand() const;             // summary of the last completed hand
//     void scores(double* per_side) const;       // running score per side
//     Observation observe(int seat) const;       // exactly what that seat may know
//     nlohmann::json view(int seat) const;       // -1: everything (for the protocol)
//     std::string render(int seat) const;        // text for a person (-1: everything)
//     nlohmann::json options_json() const;
//     void reseed(uint64_t);                     // new stream for the state's own Rng
//   static State G::sample(const Observation&, Rng&);  // a full state consistent with it
//   static std::string G::side_name(const State&, int side);
//   static double G::reward(const State& from, const State& to, int seat);
//       // how good `to` is for `seat` compared with `from` (the same hand or
//       // game, later), in [-1, 1]: what ismcts maximises (bots/ismcts.h)
// Optional, for the exact solvers and pimc (bots/pimc.h):
//   using G::Solver;  // Solver().values(state, seat, moves, out): exact value
//                     // of each move with every hand known, larger is better
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/rng.h"

namespace boneyard {

struct Actor {
  enum Kind : uint8_t { Seat, Simultaneous, Chance, Terminal };
  Kind kind = Terminal;
  int8_t seat = -1;    // Seat: who acts
  uint16_t seats = 0;  // Simultaneous: bit mask of seats still to submit

  static constexpr Actor at(int s) { return {Seat, static_cast<int8_t>(s), 0}; }
  static constexpr Actor chance() { return {Chance, -1, 0}; }
  static constexpr Actor terminal() { return {Terminal, -1, 0}; }
  static constexpr Actor simultaneous(uint16_t mask) { return {Simultaneous, -1, mask}; }
  constexpr bool acts(int s) const {
    return (kind == Seat && seat == s) || (kind == Simultaneous && ((seats >> s) & 1));
  }
  constexpr bool operator==(const Actor&) const = default;
};

std::string to_string(const Actor&);

// A fixed-capacity list of moves: generating moves never allocates, and
// creating a list constructs nothing (the buffer is raw storage).
template <class M, int N>
class MoveList {
  static_assert(std::is_trivially_copyable_v<M> && std::is_trivially_destructible_v<M>);

 public:
  MoveList() {}
  void clear() { n_ = 0; }
  void push_back(M m) { data_[n_++] = m; }
  // For tight generators: write up to N moves at data(), then resize(count).
  M* data() { return data_; }
  void resize(int n) { n_ = n; }
  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  M& operator[](int i) { return data_[i]; }
  const M& operator[](int i) const { return data_[i]; }
  M* begin() { return data_; }
  M* end() { return data_ + n_; }
  const M* begin() const { return data_; }
  const M* end() const { return data_ + n_; }
  std::span<const M> span() const { return {data_, static_cast<size_t>(n_)}; }

 private:
  union {
    M data_[N];
  };
  int n_ = 0;
};

// One finished hand (or round), as every front-end reports it.
struct HandSummary {
  int winner_side = -1;             // -1: nobody won the hand
  std::vector<double> side_points;  // what the hand gave each side (game's own unit)
  std::string how;                  // "domino", "block", "tie", "set", ...
  std::string text;                 // for a person: the result, and the hands as it ended where the game shows them
  std::string detail_json;          // game-specific itemised result (JSON text)
  // Who leads (starts) the next hand, where the game names it (line games:
  // {"seat", "how", ...}, null once the game is over); JSON text, empty: not given.
  std::string next_json;
};

class AnyBot;

// The type-erased game state the front-ends drive.
class AnyState {
 public:
  virtual ~AnyState() = default;
  virtual std::unique_ptr<AnyState> clone() const = 0;
  virtual const std::string& game() const = 0;  // registered name
  virtual nlohmann::json options() const = 0;   // effective options
  virtual int num_seats() const = 0;
  virtual int num_sides() const = 0;
  virtual int side_of(int seat) const = 0;
  virtual std::string side_name(int side) const = 0;
  virtual Actor actor() const = 0;
  virtual std::vector<std::string> legal_moves(int seat) const = 0;
  // A move legal now for `seat`, said for people ("lead 6-6", "seat 2
  // leads", "trumps: fives", "bid 30"): what the move list, logs and hints
  // show; the protocol and records keep the move's text. Throws Error when
  // the move is not legal now.
  virtual std::string move_words(int seat, std::string_view move) const = 0;
  // Applies a move given as text (any accepted form); returns its canonical
  // text. Throws Error naming the move and what was expected.
  virtual std::string apply(int seat, std::string_view move) = 0;
  virtual std::string apply_chance() = 0;                   // own Rng; returns outcome text
  virtual void apply_chance(std::string_view outcome) = 0;  // explicit; throws Error
  virtual bool terminal() const = 0;
  virtual std::vector<double> returns() const = 0;  // per seat
  virtual std::vector<double> scores() const = 0;   // per side
  virtual const std::vector<HandSummary>& hands() const = 0;
  // Deals so far: the hands finished, plus the deals thrown in and dealt
  // again (everyone passed the bidding, a player called five doubles), so a
  // front-end can show each deal once.
  virtual int deals() const = 0;
  virtual nlohmann::json view(int seat) const = 0;  // -1: everything
  virtual std::string render(int seat) const = 0;   // -1: everything
  // Lets a bot choose for `seat` from that seat's observation only; applies
  // the move and returns its text. Throws Error if the bot is for another game.
  virtual std::string play_bot(int seat, AnyBot& bot) = 0;
  // The bot's choice without applying it.
  virtual std::string ask_bot(int seat, AnyBot& bot) const = 0;
  // Every legal move with its value by the bot, best first; empty when the
  // bot gives no values (random, greedy).
  virtual std::vector<std::pair<std::string, double>> bot_values(int seat, AnyBot& bot) const = 0;
};

class AnyBot {
 public:
  virtual ~AnyBot() = default;
  virtual const std::string& name() const = 0;
  // True only for reference bots that see every hand: they cheat, by name.
  virtual bool omniscient() const { return false; }
};

// How much a search bot may think: a time per decision, or a fixed count
// of samples / iterations (reproducible), on one or more threads.
struct BotOptions {
  double think_ms = 0;  // > 0: stop after this long (wins over iterations)
  int iterations = 0;   // 0: the bot's default
  int threads = 1;
};

// A bot for game G: sees one seat's Observation and the legal moves, nothing else.
template <class G>
class Bot : public AnyBot {
 public:
  using Move = typename G::Move;
  explicit Bot(std::string name, uint64_t seed) : name_(std::move(name)), rng_(seed) {}
  const std::string& name() const override { return name_; }
  virtual Move choose(const typename G::Observation& obs, std::span<const Move> legal) = 0;
  // The value of each legal move for hints and analysis (larger is better,
  // in the bot's own unit); false when the bot has no values to give.
  virtual bool values(const typename G::Observation&, std::span<const Move>, double*) { return false; }
  // Only omniscient() bots: the choice with the whole state in view.
  virtual Move choose_seeing_all(const typename G::State&, int, std::span<const Move> legal) { return legal[0]; }

 protected:
  Rng& rng() { return rng_; }

 private:
  std::string name_;
  Rng rng_;
};

// A bot that picks uniformly among the legal moves; works for every game.
template <class G>
class RandomBot final : public Bot<G> {
 public:
  explicit RandomBot(uint64_t seed) : Bot<G>("random", seed) {}
  typename G::Move choose(const typename G::Observation&, std::span<const typename G::Move> legal) override {
    return legal[this->rng().below(static_cast<uint32_t>(legal.size()))];
  }
};

// Option overrides in the order given ("key", "value"); later ones win.
using OptionList = std::vector<std::pair<std::string, std::string>>;

struct BenchResult {
  double seconds = 0;
  double cpu_seconds = 0;  // the playing thread's own time: unlike seconds, blind to a busy machine
  uint64_t hands = 0;
  uint64_t moves = 0;
  size_t state_bytes = 0;
  std::string unit = "hands";  // what "hands" counts ("rounds" for Mexican Train)
};

// A review's budgets for the face-up line (record/review.h, ReviewOptions).
struct FaceUpBudget {
  double solver_ms = 0, hand_exact_ms = 0, bounded_ms = 0, hand_ms = 0;
};

// How a game's exact solver values decisions for reviews and hints
// (docs/bots.md, "Review"); a game without one is valued by its strongest
// fair bot.
struct ReviewSolver {
  using Values = std::vector<std::pair<std::string, double>>;
  // Each legal move's value, in the review's unit, in each of `samples`
  // deals consistent with what `seat` sees (only its observation goes in):
  // names[i] is move i, out[k][i] its value in deal k. Stops at `deadline`
  // with the deals solved so far.
  std::function<void(const AnyState&, int seat, uint64_t seed, int samples, std::vector<std::string>& names,
                     std::vector<std::vector<double>>& out, std::chrono::steady_clock::time_point deadline)>
      sampled;
  // The face-up line: a function valuing every move with every hand known,
  // best first (bound: some values are bounds; empty: not valued in time),
  // one per reviewed hand (it keeps its solvers and the time spent).
  std::function<std::function<Values(const AnyState&, int seat, bool& bound)>(const FaceUpBudget&)> face_up;
  // A value further than this below a deal's best is a bound, not exact.
  double margin = 1e300;
};

// One registered name: a game or one of its presets.
struct GameEntry {
  std::string name;                          // "latin", "mexican-train", ...
  std::string family;                        // "line", "mexican-train", "texas-42", "dice-and-dominoes"
  std::string summary;                       // one line
  std::string sources;                       // source letters / seed file
  std::function<nlohmann::json()> describe;  // options with values, for `rules`
  std::function<std::unique_ptr<AnyState>(const OptionList&, uint64_t seed)> make;
  std::vector<std::string> bots;  // names accepted by make_bot
  std::function<std::unique_ptr<AnyBot>(std::string_view bot, uint64_t seed)> make_bot;
  // The search bots (ismcts, pimc, omniscient), which take a budget.
  std::vector<std::string> search_bots;
  // The strongest fair bot by our duplicate arenas (docs/bots.md), for hints
  // and analysis; empty: pimc, else ismcts, else greedy.
  std::string strongest_bot;
  // The strong and expert levels' bot, where it is not the strongest_bot:
  // Texas 42's ismcts plays as well as pimc at a fifteenth of the time, so
  // the levels answer at once while hints keep pimc's values in points.
  std::string level_bot;
  // The strong and expert levels' iteration counts, where not the default
  // (bots/levels.h: strong the bot's default count, expert kExpertFactor
  // times strong's): the counts that space the game's levels as measured
  // (docs/bots.md, "Levels"); 0: the default.
  int strong_count = 0;
  int expert_count = 0;
  std::function<std::unique_ptr<AnyBot>(std::string_view bot, uint64_t seed, const BotOptions&)> make_search_bot;
  // Random playouts from a fresh game with this name, for `boneyard bench`.
  std::function<BenchResult(const OptionList&, uint64_t seed, double seconds)> bench;

  // The game's own words and measures, given by its folder: the front-ends
  // (play, arena, hints, review, the server's ratings and log) ask here and
  // never branch on the family. Absent fields take the default said.
  std::string help;  // what its moves look like and mean, for `play`'s help; one paragraph a line
  // The heading of the scores in `play`; absent: "Score:".
  std::function<std::string(const AnyState&)> score_heading;
  bool penalty = false;    // its scores are penalties (lower is better): arena says so
  bool face_down = false;  // its simultaneous moves lay tiles face down: logs say how many, never which
  // The part of a chance outcome every seat sees, as logs and replays show
  // it (Dice & Dominoes' dice: "roll 6 3" gives "6 3"); absent, or nothing
  // returned: the outcome is hidden (a deal, a draw) and logs name its kind only.
  std::function<std::optional<std::string>(std::string_view outcome)> public_chance;
  bool count_passes = false;  // `play` says each seat's passes after a hand
  bool rounds = false;        // its hands are called rounds ("Round 2 is dealt")
  // What follows a draw that ends the turn, said to the drawer or to the
  // others (Mexican Train: "it cannot be laid: your marker goes on");
  // absent: the draw ends the turn silently.
  std::function<std::string(bool to_drawer)> draw_ends_turn;
  // A move legal now for `seat`, said for `listener` where the words depend
  // on who hears them (record/words.h); absent: AnyState::move_words.
  std::function<std::string(const AnyState&, int seat, std::string_view move, int listener)> words_heard;
  // What the exact values (pimc, omniscient) of its moves mean, for hints;
  // absent: "points for your side this hand".
  std::function<std::string(const AnyState&)> value_unit;
  // The unit a review grades its moves in (docs/bots.md, "Review": points,
  // wins, marks, pips, chips); absent: the game is not reviewed (Error).
  std::function<std::string(const AnyState&)> review_unit;
  // One unit of its strongest fair bot's values in the review's unit; absent: 1.
  std::function<double(const AnyState&)> review_scale;
  // Its exact solver for reviews; absent: reviews ask its strongest fair bot.
  ReviewSolver review_solver;
  // Rated among the games of this family (ratings.h); absent: its family.
  std::string rating_family;
  // With these options four players play in two partnerships (rated and
  // matched as teams); absent: never.
  std::function<bool(const nlohmann::json& options)> partnership;
};

void register_game(GameEntry entry);
const std::vector<GameEntry>& games();              // every registered name, in order
const GameEntry& find_game(std::string_view name);  // throws Error listing the names
std::unique_ptr<AnyBot> make_bot(const GameEntry& g, std::string_view bot, uint64_t seed,
                                 const BotOptions& options = {});

// Every bot name make_bot accepts for g: the simple ones, then the search
// bots (for `rules` and the protocol's `games`).
std::vector<std::string> all_bots(const GameEntry& g);

// The strongest fair bot a game offers (as measured, else pimc, else
// ismcts, else greedy), for hints and analysis.
std::string strongest_fair_bot(const GameEntry& g);
// The bot of the strong and expert levels (level_bot, else the strongest).
std::string level_search_bot(const GameEntry& g);

// The family its ratings are kept in (rating_family, else family).
const std::string& rating_family(const GameEntry& g);
// Every rating family of the registered games, in registration order.
std::vector<std::string> rating_families();

// Registers every game module; call once before using the registry.
void register_all_games();

// "your side" where seats play in teams, "you" where each seat is its own
// side (Mexican Train, the individual line forms): a hint's unit in words.
inline std::string your_side(const AnyState& st) { return st.num_sides() < st.num_seats() ? "your side" : "you"; }

}  // namespace boneyard
