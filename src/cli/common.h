#pragma once
// Helpers shared by the subcommands (one file per subcommand, KataGo-style).
#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "record/session.h"

namespace boneyard::cli {

// "key=value" strings from --option into an OptionList; throws Error.
OptionList parse_options(const std::vector<std::string>& kv);
std::vector<std::string> split(const std::string& s, char sep);
uint64_t mix_seed(uint64_t base, uint64_t k);
// Seeds from the clock when the user gives none, so each run differs.
uint64_t default_seed();
// --seed as text: digits only, 0 to 2^64-1; a sign, a fraction or more is
// refused (CLI11 would wrap -1 to 2^64-1).
void add_seed_option(CLI::App* cmd, std::string& text, const std::string& help);
uint64_t parse_seed(const std::string& text);

// SIGINT and SIGTERM only set a flag, so a game can stop between moves and
// write its record; a read at the prompt returns (no SA_RESTART). A second
// signal ends the program at once.
void install_stop_handlers();
int stop_signal();  // the signal received, or 0
// Ends the program by the signal received, as it would have without the
// handler (exit status 128 + signal for the shell).
[[noreturn]] void die_of_stop_signal();
// "Interrupted (Ctrl-C)" for SIGINT, "Stopped (...)" otherwise: how a
// stop is said to a person (no signal numbers).
std::string stop_words(int sig);

// Mean and 95% confidence half-width of samples summarised by sum, sum of squares, n.
struct MeanCI {
  double mean = 0, half = 0;
};
MeanCI mean_ci(double sum, double sum_sq, double n);

// "estimating..." until something is done, then "1m05s left" at the pace so
// far ("at most 1m05s left" when the run may stop before its total).
std::string eta_text(uint64_t done, uint64_t total, double elapsed, bool at_most = false);

// The progress bar's line for a terminal `cols` wide: "\r", the line (at
// most cols - 1 columns), then "clear to the end of the line". `note` (a
// running result, "+12 Elo [-30, +54], LLR +0.41") follows the time where
// the line has room for it.
std::string progress_line(const std::string& label, uint64_t done, uint64_t total, double elapsed, int cols,
                          const std::string& note = {}, bool at_most = false);
// The same as one plain line of a log: "LABEL: 40 of 400 done, 9m00s left; NOTE\n".
std::string progress_log_line(const std::string& label, uint64_t done, uint64_t total, double elapsed,
                              const std::string& note = {}, bool at_most = false);

// Progress on stderr: a bar redrawn in place on a terminal; a plain line a
// minute when stderr is a file (`2> arena.log`, nohup), so a long run in the
// background shows it is alive and how it stands; nothing into a pipe.
class Progress {
 public:
  // `log_every`: seconds between a log's lines.
  Progress(std::string label, uint64_t total, double log_every = 60);
  void update(uint64_t done, const std::string& note = {});
  void finish();
  // The total is the most there may be (an SPRT stops when it decides).
  void total_is_the_most() { at_most_ = true; }

 private:
  std::string label_;
  uint64_t total_;
  bool tty_, log_, at_most_ = false;
  double log_every_, start_, last_log_;
};

// The bots a --bots list may name, for a --help: each game's own (`boneyard
// rules GAME` lists them) and the levels, which every game has.
std::string bots_help();

// --think-ms, --iterations, --bot-threads: the search bots' budget.
void add_bot_budget(CLI::App* cmd, BotOptions& o);
// A setting read back from a checkpoint or a manifest has skipped its
// option's check: the same range, or Error naming the setting.
void check_setting(const std::string& name, double value, double lo, double hi);
void check_bot_budget(const BotOptions& o);
// Every legal move of `seat` with its value by the strongest fair bot (a
// table for a person), or that bot's choice when it gives no values.
// `bot`: that bot instead of the strongest fair one.
// `seed`: the bot's seed (values_bot_seed, as the protocol's `values`).
// Moves are said for people, with their number in the move list.
std::string move_values_text(const AnyState& st, int seat, const GameEntry& g, const BotOptions& budget,
                             const std::string& bot, uint64_t seed);
// The hint: every legal move of `seat` with its expected value from what the
// seat can see (record/review.h expected_values, the review's numbers), in
// the player's unit, at `budget` (iterations: deals sampled or the bot's
// iterations) and `seed` (values_bot_seed, as the protocol's `values`).
// The tiles `seat` holds as the game's view shows that seat (its "hands",
// or in Dice & Dominoes its "players"): "you drew 5-1", a seat's replay.
std::vector<std::string> own_tiles(const AnyState& st, int seat);
std::string hint_text(const AnyState& st, int seat, const GameEntry& g, const BotOptions& budget, uint64_t seed);
// What a bot's move values are counted in, for a person.
std::string value_unit(const GameEntry& g, const std::string& bot, const AnyState& st);
// Elo difference for a score share p (0..1), clamped to ±kEloClamp.
inline constexpr double kEloClamp = 800;
double elo(double p);

void add_rules(CLI::App& app);
void add_play(CLI::App& app);
void add_arena(CLI::App& app);
void add_engine(CLI::App& app);
void add_replay(CLI::App& app);
void add_bench(CLI::App& app);
void add_analyze(CLI::App& app);
void add_serve(CLI::App& app);
void add_verify(CLI::App& app);
void add_serve_bench(CLI::App& app);
void add_lobby_bench(CLI::App& app);
void add_selfplay(CLI::App& app);

// play_out (the arena's game loop) is in record/session.h: the Python
// batches share it.

// The whole number after `key` in a JSON text, without parsing it (the load
// generators read thousands of messages a second); -1 when absent.
inline int64_t number_after(std::string_view s, std::string_view key) {
  const size_t at = s.find(key);
  if (at == std::string_view::npos) return -1;
  int64_t v = 0;
  bool any = false;
  for (size_t i = at + key.size(); i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, any = true)
    v = v * 10 + (s[i] - '0');
  return any ? v : -1;
}

}  // namespace boneyard::cli
