#pragma once
// A table (docs/server.md): its setup, fixed at creation (the spec); one
// Seat per seat; what is stored as it changes (TableMeta: one writer, one
// reader); the game in play; and the storage's bookkeeping (what is
// durable, what is queued). Everything in it is guarded by its lock `m`,
// which the Hub and its modules hold while they read or change a table
// (a module's own lock is taken after it, never before).
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "record/session.h"
#include "server/public_log.h"
#include "server/storage.h"

namespace boneyard::server {

// An error for the client: an HTTP status and a message naming the problem.
struct ApiError : Error {
  int status;
  ApiError(int s, const std::string& m) : Error(m), status(s) {}
};

// A read from the storage for a request: its failure is the server's (503).
template <class F>
auto stored(F&& f) {
  try {
    return f();
  } catch (const ApiError&) {
    throw;
  } catch (const std::exception& e) {
    throw ApiError(503, fmt::format("storage failed: {}", e.what()));
  }
}

// A client that receives pushed messages (a WebSocket session). push() is
// called from any thread, with a table's lock held: it must not block and
// must not call back into the Hub.
class Subscriber {
 public:
  virtual ~Subscriber() = default;
  virtual void push(std::shared_ptr<const std::string> message) = 0;
  // The table left this node (shards.h): the connection closes once what was
  // pushed is sent, so the client reconnects through the front door to the
  // table's new node.
  virtual void moved() {}
};

// Who sits at a seat: a display name, and the player's id when the name
// came with a player key (players.cpp).
struct SeatPerson {
  std::string name, player_id;
};
// Per seat of a new table (a rematch): names and player ids.
// Why a rated table's game will not be rated: seats a and b (a < b) sat
// down from one network (docs/server.md, "Fair play").
inline std::string not_rated_one_network(size_t a, size_t b) {
  return fmt::format(
      "this game will not be rated: seats {} and {} sat down from one network (one household plays casual games "
      "together; rated games are between players apart)",
      a, b);
}

struct SeatPeople {
  std::vector<std::string> names, player_ids;
  std::vector<std::string> addresses;  // a rematch's: each person's network (Seat::address)
};

// A state message's "log": the last entries of the hand in play.
inline constexpr std::size_t kLogEntries = 40;

// A seat's turn clock (turn_clock.h): its bank and timeouts are stored.
struct SeatClock {
  int64_t bank_ms = 0;   // what is left of its time bank
  int timeouts = 0;      // moves the clock had the takeover bot play
  bool running = false;  // the seat's turn is being timed
  bool forced = false;   // timed out: the takeover bot plays this one move
  // A seat's first turn after a hand ends has time to read its result as
  // well (the next hand is dealt at once, behind the summary).
  int hands_seen = 0;      // hands finished when its last turn was timed
  int64_t reading_ms = 0;  // this turn's reading time, before its move's own
  std::chrono::steady_clock::time_point turn_start;
  uint64_t gen = 0;
  std::function<void()> cancel;  // cancels its timer
};

// One seat: who may sit there (the spec), who does (stored in the meta),
// and what is live while the table is in memory.
struct Seat {
  std::string player;  // "human" or "bot:LEVEL" (the spec)
  bool open = false;   // a public table's seat anyone may take in the lobby (the spec)
  // "" for bot seats and open seats not yet taken (an open seat's token is
  // made when taken, and stored in the meta).
  std::string token;
  std::string entropy;          // what the seat's player gave to the deal (stored)
  bool joined = false;          // (stored)
  std::string name, player_id;  // the person's display name and player id, "" when none (stored)
  std::string rematch_token;    // the rematch's token for the person who sat here (stored)
  std::unique_ptr<AnyBot> bot;  // made when first needed
  int connections = 0;          // WebSocket connections (presence.h)
  bool autopilot = false;       // a dropped human's seat, played by the takeover bot
  uint64_t drop_gen = 0;        // its drop timer (presence.h)
  std::function<void()> drop_cancel;
  SeatClock clock;
  int bot_moves = 0;  // a human seat's moves the takeover bot made (stored): not the player's own play
  // At a rated table, the network (limits.h) the person sat down from
  // (stored, never shown): two people of one network are not rated together.
  std::string address;
  // Its rating at the table's family when seated ({"rating", "rd",
  // "provisional", "games"}, null: none), and after a rated end ("change"
  // added): both stored, shown beside the name (Players::view).
  nlohmann::json rating, rated;
  bool rematch_yes = false;  // accepted the rematch offer (stored)
  bool human() const { return player == "human"; }
};

// What of a table is stored as it changes (the "meta" row): written by
// to_json only, read by read only.
struct TableMeta {
  std::vector<std::string> entropies;
  std::vector<bool> joined;
  bool started = false;
  uint64_t seed = 0;
  bool over = false;
  std::map<size_t, std::string> seat_tokens;  // open seats taken from the lobby, and seats whose invitation was claimed
  std::vector<std::string> names, player_ids;
  std::string rematch, rematch_spectate;  // the rematch's table, "" until asked for
  std::vector<std::string> rematch_tokens;
  std::optional<bool> rated_done;              // rated tables: the ratings are updated
  std::vector<int> bot_moves;                  // per seat: moves the takeover bot made for a person
  std::vector<nlohmann::json> ratings, rated;  // per seat: Seat::rating, Seat::rated
  std::vector<bool> rematch_yes;               // per seat: accepted the rematch offer
  int64_t rematch_asked = 0;                   // when the offer was made (seconds since the epoch; 0: none)
  // The takeover bot's moves for a person: (event index, "time" or "away").
  std::vector<std::pair<size_t, std::string>> bot_events;
  std::vector<std::string> addresses;  // rated tables: each person's network (Seat::address)
  std::string not_rated;               // why a rated table's game will not be rated ("" while it will)
  bool stopped = false;                // ended at the server's limit on a game's length
  std::vector<double> returns;         // over: each seat's result (the player page's wins and losses)
  // The turn clock's banks and timeouts (tables with a clock).
  std::optional<std::vector<int64_t>> bank_ms;
  std::optional<std::vector<int>> timeouts;

  // A new table's: nobody joined, the people given (names, player ids).
  static TableMeta fresh(size_t seats, const SeatPeople& people);
  nlohmann::json to_json() const;
  // Throws Error when the parts every table has are missing or do not
  // match the seats; the rest falls back to defaults.
  static TableMeta read(const nlohmann::json& j, size_t seats);
};

class Table {
 public:
  // From its stored row (a new one included); `broken` says why when it
  // cannot be read. clock_second_ms: the turn clock's second (HubConfig).
  Table(const StoredTable& st, int clock_second_ms);
  ~Table() { --alive_; }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  // Tables in memory in this process: live ones, cached finished ones, and
  // any still held by a timer or a request (/api/health "in_memory").
  static size_t alive() { return alive_; }

  std::mutex m;
  std::condition_variable idle;  // inflight fell to 0

  // The spec, fixed at creation.
  std::string id;
  nlohmann::json spec;  // as stored: game, options, players, tokens, secret, table options
  std::string game;
  OptionList options;
  int n = 0;  // seats
  std::vector<Seat> seats;
  std::string spectate;
  std::string client;  // the address that created it ("" when not known)
  int bot_delay_ms = 600, drop_delay_ms = 60000;
  std::string takeover_level = "casual";
  std::string secret, commitment;
  bool provably_fair = true;  // false: made with an explicit seed, so its secret can be guessed
  int64_t created = 0;        // seconds since the epoch
  int64_t expire_s = 86400;
  bool is_public = false;       // listed in the lobby while it has open seats
  bool rated = false;           // its end updates the ratings (ratings.h)
  int clock_s = 0, bank_s = 0;  // the turn clock (turn_clock.h); clock_s 0: off
  int64_t bank_full_ms = 0;     // a seat's whole bank

  // Stored as it changes (meta()), besides the seats' parts.
  bool started = false;
  uint64_t seed = 0;
  bool rated_done = false;
  std::string rematch, rematch_spectate;                   // the rematch once made
  int64_t rematch_asked = 0;                               // the rematch offer's time (0: none)
  std::vector<std::pair<size_t, std::string>> bot_events;  // TableMeta::bot_events
  bool aborted = false;                                    // ended before it really began (Hub::abort)
  std::string not_rated;  // a rated table's game that will not be rated: why, in players' words
  bool stopped = false;   // the game reached the server's limit on its length (--max-game-moves)

  // Live.
  std::unique_ptr<Session> session;
  PublicLogText log_text{kLogEntries};  // the session's log as text, for messages
  std::string broken;                   // a stored table that no longer replays: why
  std::vector<nlohmann::json> notices;
  uint64_t notice_seq = 0;
  bool bot_pending = false;
  bool gate_slot = false;  // a cheap bot's move in flight holds a slot of the gate (bots.h)
  std::map<std::pair<int, int>, nlohmann::json> reviews;        // (seat, hand): a finished hand's review
  std::vector<std::pair<int, std::weak_ptr<Subscriber>>> subs;  // (seat, watcher): presence.h
  // Chat (chat.h): the recent lines of the seats [0] and of the spectators
  // [1], each shown only to its own audience.
  std::deque<ChatLine> chat[2];
  uint64_t chat_n = 0;  // lines so far (stored ones and refused writes alike)

  // Storage (group commit): what is durable, what is queued, the writes in
  // flight. Nothing is broadcast while a write is in flight; a failed write
  // rolls the table back to what is durable (a new generation).
  size_t durable = 0, queued = 0;
  nlohmann::json durable_meta;
  int inflight = 0;
  uint64_t gen = 1;
  bool stalled = false;  // a write failed: resumed when the storage heals
  // Durable moves not yet broadcast: when each arrived, when it was durable.
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::chrono::steady_clock::time_point>> arrivals;

  bool human(int seat) const { return seat_at(seat).human(); }
  Seat& seat_at(int k) { return seats[static_cast<size_t>(k)]; }
  const Seat& seat_at(int k) const { return seats[static_cast<size_t>(k)]; }
  bool over() const { return session && (stopped || session->state().terminal()); }
  // Over and stored: what reveals the secret and opens the record. A final
  // move still in flight may yet be rolled back.
  bool finished() const { return over() && inflight == 0; }
  // Per seat, for records and views.
  std::vector<std::string> players() const;
  std::vector<std::string> names() const;
  std::vector<std::string> entropies() const;

  // The meta as it is now (the one writer of what is stored), and the
  // table set back to a stored meta (the one reader: a load, a rollback).
  TableMeta meta() const;
  void restore(const TableMeta& meta);
  // The seat a token holds (-1: the spectator token); throws ApiError.
  int seat_for(const std::string& token) const;
  // A request's answer shows the table as stored: it waits (briefly: one
  // group commit) for the writes in flight. With m held by lk.
  void wait_stored(std::unique_lock<std::mutex>& lk);
  void set_session(std::unique_ptr<Session> s);
  // The game replayed from its seed: the first `events` of `all`.
  void replay(const std::vector<RecordEvent>& all, size_t events);
  // Chance outcomes, in memory: stored with the move that led to them.
  void settle();
  void notice(int seat, const std::string& text);

 private:
  inline static std::atomic<size_t> alive_{0};
};

}  // namespace boneyard::server
