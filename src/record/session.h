#pragma once
// A game being played, with its full record: every front-end (play, arena,
// engine, replay) drives a game through a Session, so every game can be
// written down and reproduced exactly.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace boneyard {

struct RecordEvent {
  bool chance = false;
  int seat = -1;
  std::string text;  // the move's canonical text, or the chance outcome
};

class Session {
 public:
  // A new game by registered name, option overrides and seed.
  Session(std::string_view game, const OptionList& options, uint64_t seed);
  // Rebuilds a game from a record (format: docs/records.md), applying every
  // event; checks each hand's result against the recorded one. Throws Error
  // naming the first problem. With upto >= 0, stops after that many events.
  static Session from_record(const nlohmann::json& record, int upto = -1);
  // The game a record starts from, before any event, and its events
  // (checked for form only); for stepping through a record.
  static Session start_of_record(const nlohmann::json& record);
  static std::vector<RecordEvent> record_events(const nlohmann::json& record);
  void apply_event(const RecordEvent& e);

  AnyState& state() { return *state_; }
  const AnyState& state() const { return *state_; }
  const GameEntry& entry() const { return *entry_; }
  uint64_t seed() const { return seed_; }
  const std::vector<RecordEvent>& events() const { return events_; }
  // The index of the event that ended each finished hand, in order.
  const std::vector<std::size_t>& hand_ends() const { return hand_ends_; }
  std::vector<std::string>& players() { return players_; }

  std::string apply(int seat, std::string_view move);  // returns canonical text
  std::string chance();                                // own Rng; returns outcome
  void chance(std::string_view outcome);
  std::string bot_move(int seat, AnyBot& bot);
  // Resolves pending chance events with the game's own Rng.
  void settle_chance();

  nlohmann::json record() const;
  // The record's "result": over, scores, returns when over.
  nlohmann::json result_json() const;

 private:
  Session() = default;
  void push(RecordEvent e);  // an event applied: kept, and a hand's end noted
  const GameEntry* entry_ = nullptr;
  OptionList options_;
  uint64_t seed_ = 0;
  std::unique_ptr<AnyState> state_;
  std::vector<RecordEvent> events_;
  std::vector<std::size_t> hand_ends_;
  std::vector<std::string> players_;
};

// Refuses JSON text nested deeper than max_depth before it is parsed:
// copying, comparing and printing a JSON value recurse once per level, and
// 100000 levels overflow the stack. Throws Error.
void check_json_depth(std::string_view text, int max_depth = 64);
// Parses a record file's text; throws Error naming what is wrong.
nlohmann::json parse_record_text(std::string_view text);
// "number out of range: '1e400' does not fit in a number", from the error
// nlohmann::json throws for such a number.
std::string json_number_error(const std::exception& e);

// A JSON integer in [lo, hi], else Error "<what> must be a whole number from
// lo to hi, not ...": 1.0, "1", true and numbers out of range are refused,
// never converted or wrapped.
int64_t whole_number(const nlohmann::json& v, std::string_view what, int64_t lo, int64_t hi);
// A seed: a JSON integer from 0 to 2^64-1.
uint64_t whole_number_u64(const nlohmann::json& v, std::string_view what);
// Seats in a record are checked against the game when applied; this bounds
// them first so that no number is cut to an int.
inline constexpr int64_t kMaxRecordSeat = 255;
// Creates the record folder if needed and checks that a file can be
// written in it; throws Error naming the folder and why not.
void check_record_dir(const std::string& dir);
// A folder to write in (what: "the --out folder"), made when missing (with the
// folders above it when parents), and written once: else an Error naming it,
// never a filesystem exception that ends the program.
void make_folder(const std::string& dir, std::string_view what, bool parents);

// Writes text to path through a synced temporary file in the same folder,
// renamed over it: the file is always whole, old or new (records,
// checkpoints, manifests). Throws Error.
void write_file_atomically(const std::string& path, const std::string& text);

// One game's record file, kept up to date as the game goes on. The first
// write claims a name nobody has, <game>-<seed>[-<tag>][-2, -3, ...].json
// (an existing file is never overwritten); every write goes to a temporary
// file that is then renamed over the record, so the file is always a whole
// record, the latest one written.
class RecordFile {
 public:
  RecordFile(std::string dir, std::string tag = "") : dir_(std::move(dir)), tag_(std::move(tag)) {}
  // A person's game whose seed is secret (it deals every hand): the file is
  // named by the time it started, and its seed is 0 until the write at the end.
  void hide_seed_until_end();
  const std::string& write(const Session& s, bool at_end = false);  // returns the path
  const std::string& path() const { return path_; }                 // empty before the first write

 private:
  std::string dir_, tag_, path_, started_;  // started_: set while the seed is hidden
};

// The whole record once, in a new file under dir; returns the path.
std::string write_record(const Session& s, const std::string& dir, const std::string& tag = "");

nlohmann::json summary_json(const HandSummary& h);

// The seed of the bot that values a seat's moves (the protocol's `values`,
// the terminal's `hint`, `analyze`): the same seed and budget give the same
// values everywhere.
inline uint64_t values_bot_seed(uint64_t game_seed, int seat) {
  return game_seed * 1000003u + static_cast<uint64_t>(seat) + 29;
}

// Plays a game to its end with one bot per seat (chance by the game's own
// generator); between moves, returns false as soon as stop() says so. The
// arena's game loop: the CLI's arena and selfplay, and the Python batches.
// decided, when given, hears each bot decision's seat and milliseconds.
bool play_out(Session& s, std::vector<std::unique_ptr<AnyBot>>& bots, const std::function<bool()>& stop,
              const std::function<void(int seat, double ms)>& decided = {});

}  // namespace boneyard
