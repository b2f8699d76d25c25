#pragma once
// boneyard play: the terminal game, with its input, output and clock passed
// in so that tests drive it in-process (tests/cli/secrecy_test.cpp).
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"
#include "record/session.h"

namespace boneyard::cli {

struct PlayConfig {
  std::string name;
  std::vector<std::string> options;
  uint64_t seed = 0;
  std::string seed_text;
  // A person's game whose seed came from the clock: the seed deals every
  // hand, so it is said (and recorded) only once the game is over.
  bool seed_secret = false;
  int seat = 0;
  bool seat_given = false;  // --watch --seat N: watch as seat N sees the table
  std::string bots = "greedy";
  bool watch = false;
  double pace = -1;   // seconds between bot moves; < 0: the default (kWatchPace when watching a terminal, else 0)
  bool step = false;  // wait for Enter after each bot move
  std::string record_dir;
  std::vector<std::string> deal;
  BotOptions budget;
};

// A pause a person can follow: the default pace of --watch on a terminal.
inline constexpr double kWatchPace = 0.8;

// Where the game talks: what a person reads and types, how long it pauses
// (the pace; tests count the pauses instead of sleeping), the terminal's
// width, and a hook called after each step with what was printed since the
// last one (tests check it against what the seat may know).
struct Terminal {
  std::istream& in;
  std::ostream& out;
  std::function<void(double seconds)> pause;
  int width = 80;
  std::function<void(const Session&, const std::string& printed)> on_step;
  // The width now, asked before each print (a window can be resized mid-game).
  std::function<int()> measure = nullptr;
};

// The bots of the seats that are not the person's (none there).
std::vector<std::unique_ptr<AnyBot>> seat_bots(const PlayConfig& c, Session& s);
// What `help` prints for a family (its examples name tiles: they are no news).
std::string help_text(const GameEntry& g);
// Plays the game to its end, a quit, the end of input or a stop signal.
void play_game(const PlayConfig& c, Session& s, std::vector<std::unique_ptr<AnyBot>>& bots, RecordFile* record,
               Terminal& io);

}  // namespace boneyard::cli
