#pragma once
// OpenSpiel semantics over every registered game (docs/python.md): a
// type-erased Game and State with explicit chance, perfect-recall
// information states, integer actions and tensors, and batches (random
// playouts, arenas) on a pool of threads. The Python package binds these
// (python/src/); the semantics live here so GoogleTest checks them
// (tests/research/).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/game.h"

namespace boneyard::spiel {

// pyspiel's player ids.
constexpr int kChancePlayer = -1;
constexpr int kSimultaneousPlayer = -2;
constexpr int kInvalidPlayer = -3;
constexpr int kTerminalPlayer = -4;

// Threads a batch (or a search bot) may use: the CLI's --threads and
// --bot-threads range.
constexpr int kMaxThreads = 256;
// Throws Error naming the range unless 1 <= n <= kMaxThreads.
void check_threads(const char* what, long long n);

class GameBase;

// One game in progress, as OpenSpiel sees it.
class StateBase {
 public:
  virtual ~StateBase() = default;
  virtual std::unique_ptr<StateBase> clone() const = 0;
  virtual const GameBase& game() const = 0;
  virtual std::shared_ptr<const GameBase> game_shared() const = 0;
  virtual int current_player() const = 0;
  virtual bool is_terminal() const = 0;
  virtual bool acts(int player) const = 0;
  virtual void legal_actions(int player, std::vector<int>& out) const = 0;
  virtual void apply_action(int action) = 0;
  virtual void apply_actions(const std::vector<int>& actions) = 0;
  virtual std::string action_to_string(int player, int action) const = 0;
  virtual int string_to_action(int player, const std::string& text) const = 0;
  virtual std::vector<double> returns() const = 0;
  virtual std::vector<double> scores() const = 0;
  virtual std::vector<std::pair<int, int>> history() const = 0;  // (player, action)
  virtual void observation(int player, float* out) const = 0;
  virtual void info_state(int player, float* out) const = 0;
  virtual std::string info_string(int player) const = 0;
  virtual void reshuffle(uint64_t seed) = 0;
  virtual std::string render(int player) const = 0;
  virtual std::string view_json(int player) const = 0;
  virtual std::string serialize() const = 0;
  virtual std::unique_ptr<StateBase> resample(int player, uint64_t seed) const = 0;
  virtual int bot_action(AnyBot& bot, int player) const = 0;
  virtual std::vector<std::pair<int, double>> bot_values(AnyBot& bot, int player) const = 0;
  virtual int num_players() const = 0;
  virtual int hands_finished() const = 0;
  // Explicit chance (docs/python.md, Chance).
  virtual bool explicit_chance() const = 0;
  virtual std::string chance_event() const = 0;
  virtual std::vector<std::pair<int, double>> chance_outcomes() const = 0;
  virtual void replay(const std::vector<std::pair<int, int>>& actions) = 0;
  // OpenSpiel's UndoAction: the last action must be (player, action); the
  // state is replayed from its start without it. Throws Error otherwise,
  // and for a resampled state (no seed replays it).
  virtual void undo(int player, int action) = 0;
};

struct PlayoutResult {
  uint64_t hands = 0, moves = 0;
  double seconds = 0;
  double cpu_seconds = 0;  // worker 0's own time (as `boneyard bench` reports it)
  bool interrupted = false;
};

struct ArenaResult {
  std::vector<double> returns;  // mean per seat over the games played
  uint64_t games = 0;           // played (fewer than asked when interrupted)
  double seconds = 0;
  bool interrupted = false;
};

// Called now and then, on the thread that started the batch, while the
// workers play; true stops them between hands (Python: Ctrl-C).
using Interrupt = std::function<bool()>;

class GameBase {
 public:
  virtual ~GameBase() = default;
  std::string name, family;
  OptionList options;  // as given, in order
  bool single_hand = false;
  int players = 0, actions = 0, max_length = 0, chance_actions = 0;
  int max_chance_nodes = 0;  // in any history (pyspiel's max_chance_nodes_in_history)
  std::vector<int> obs_shape, info_shape;
  std::string options_text;  // the game's options as JSON (every value, defaults included)
  int obs_size = 0, info_size = 0;
  int info_hands = 1;  // the hands the information-state tensor has a part for
  const GameEntry* entry = nullptr;

  // The same game: the same registered name and the same rules (every
  // option's value, defaults included), however the options were spelled.
  bool same_game(const GameBase& o) const { return name == o.name && options_text == o.options_text; }

  virtual std::unique_ptr<StateBase> new_state(uint64_t seed, bool explicit_chance = false) const = 0;
  virtual std::unique_ptr<StateBase> from_record(const std::string& text) const = 0;
  // n random hands on `threads` threads (1..kMaxThreads).
  virtual PlayoutResult random_playouts(uint64_t n, uint64_t seed, int threads,
                                        const Interrupt& interrupt = {}) const = 0;
  // `games` games, bots[p % size] at seat p, game k from seed + k; the
  // CLI arena's game loop (play_out); returns as State::returns().
  virtual ArenaResult arena(const std::vector<std::string>& bots, uint64_t games, uint64_t seed, int threads,
                            const BotOptions& budget, const Interrupt& interrupt = {}) const = 0;
};

void check_player(int player, int n);

// OpenSpiel's game string "name(key=value,...)": the name and its options
// in order. Throws Error on an empty or repeated option or a bad form.
std::pair<std::string, OptionList> parse_game_string(const std::string& text);

// A game by registered name (or game string) with option overrides; an
// option given both in the string and in `options` is refused.
std::shared_ptr<const GameBase> load_game(const std::string& name, const OptionList& options = {});

// Runs work(t) for t in 0..threads-1, each on its own thread, while the
// calling thread polls `interrupt` (every few milliseconds); a true answer
// sets `stop`, which the workers read between hands. Returns whether it was
// interrupted. Exceptions from a worker are rethrown after every join.
bool run_pool(int threads, const std::function<void(int)>& work, std::atomic<bool>& stop, const Interrupt& interrupt);

}  // namespace boneyard::spiel
