#pragma once
// Tables (docs/server.md): the games being played on the server. The Hub
// owns every table, persists every event before anything is acknowledged or
// broadcast, runs the bots on a worker pool off the network threads, hands a
// dropped player's seat to a bot after a delay, and pushes each subscriber
// the view of its own seat only.
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
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "record/session.h"
#include "server/histogram.h"
#include "server/public_log.h"
#include "server/storage.h"

namespace boost::asio {
class io_context;
class thread_pool;
}  // namespace boost::asio

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
};

// The gate's default size, from the cores: 56 moves in flight per core, at
// least 112 (what 2 cores were measured to need: the broadcast threads kept
// busy, p99 arrival->broadcast short); a 16-core machine gets 896 (its
// measured best used a gate of 800; 112 held it to 26,000 moves/s on 4.8
// of its cores). --bot-pipeline overrides it.
int default_bot_pipeline();

struct HubConfig {
  double strong_ms = 150;   // "strong": the strongest fair bot, this long per decision, one thread
  double expert_ms = 1000;  // "expert": this long per decision ...
  int expert_threads = 0;   // ... on this many threads (0: up to 4, one less than the cores)
  // The pool for cheap bots (beginner, casual) (0: the number of cores, at
  // least 2); broadcasts have threads of their own. Strong and expert bots think on a pool of their
  // own, so a cheap bot never waits behind an expensive one:
  int bot_threads = 0;
  int strong_threads = 0;     // strong/expert decisions at once, server-wide (0: half the cores, at least 1)
  int strong_per_client = 2;  // ... and per address that created the tables (0: no cap)
  // Cheap bots' moves between decision and broadcast, at most (0: no cap).
  // Under load the next bot waits before it thinks (see pass_gate). By
  // default it scales with the machine (default_bot_pipeline()).
  int bot_pipeline = default_bot_pipeline();
  bool run_bots = true;  // false: bots never move (the fuzz target)
  int default_bot_delay_ms = 600;
  int default_drop_delay_ms = 60000;
  size_t max_tables = 100000;    // live tables (finished ones leave memory)
  int default_expire_s = 86400;  // a table whose game has not started is closed after this (table option expire_s)
  size_t finished_cache = 256;   // finished tables kept in memory after their end (the rest load on demand)
  bool measure = false;          // keep each move's latency (serve-bench)
  // A seat taken from the lobby is held this long for its player to connect
  // (or join); then it is free again, for someone else.
  int claim_s = 60;
  // Quick match: how long players wait for others before bots fill the
  // empty seats, and how long its table waits for all of them to join.
  double quickmatch_wait_s = 20;
  int quickmatch_expire_s = 120;
  // Glicko-2's rating period for time without games: each whole period
  // since a subject's last rated game widens its RD (docs/server.md, Ratings).
  double rating_period_s = 86400;
  // The turn clock's second in milliseconds: 1000, always, in production.
  // Tests scale it down (the same rules, faster), never the rules.
  int clock_second_ms = 1000;
};

// What serve-bench reads: each accepted move's time from its arrival (a
// request, or a bot's decision) to its broadcast (handed to every watcher's
// connection), in microseconds.
struct HubStats {
  std::mutex m;
  Histogram latency_us;
  // Of which: from arrival to durable (the group commit), from durable to
  // the broadcast's start (its queue), the broadcast (messages built, handed on).
  Histogram durable_us, queued_us, sending_us;
  Histogram gated_us;  // and before it: each cheap bot's wait at the gate, before it thinks
};

// Who sits at a seat: a display name, and the player's id when the name
// came with a player key (players.cpp).
struct SeatPerson {
  std::string name, player_id;
};
// Per seat of a new table (a rematch): names and player ids.
struct SeatPeople {
  std::vector<std::string> names, player_ids;
};

// A partnership game: seats k and k+2 are partners (Texas 42; the line
// games played in teams). options: the table's own.
bool partnership_game(const GameEntry& g, const nlohmann::json& options);

// The bot levels a seat may have: "bot:beginner" ... "bot:expert".
const std::vector<std::string>& bot_levels();

// A state message's "log": the last entries of the hand in play.
inline constexpr std::size_t kLogEntries = 40;

struct Table {
  Table() { ++alive_; }
  ~Table() { --alive_; }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  // Tables in memory in this process: live ones, cached finished ones, and
  // any still held by a timer or a request (/api/health "in_memory").
  static size_t alive() { return alive_; }
  inline static std::atomic<size_t> alive_{0};
  std::mutex m;
  std::string id;
  nlohmann::json spec;  // as stored: game, options, players, tokens, secret, table options
  std::string game;
  OptionList options;
  int n = 0;                         // seats
  std::vector<std::string> players;  // "human" or "bot:LEVEL"
  std::vector<std::string> tokens;   // per seat; "" for bot seats
  std::string spectate;
  std::string client;  // the address that created it ("" when not known)
  int bot_delay_ms = 600, drop_delay_ms = 60000;
  std::string takeover_level = "casual";
  std::string secret, commitment;
  bool provably_fair = true;  // false: made with an explicit seed, so its secret can be guessed
  // meta, stored as it changes
  std::vector<std::string> entropies;
  std::vector<bool> joined;
  bool started = false;
  uint64_t seed = 0;
  // live
  std::unique_ptr<Session> session;
  PublicLogText log_text{kLogEntries};  // the session's log as text, for messages
  void set_session(std::unique_ptr<Session> s) {
    session = std::move(s);
    log_text.clear();
  }
  std::string broken;                         // a stored table that no longer replays: why
  std::vector<std::unique_ptr<AnyBot>> bots;  // per seat, made when first needed
  std::vector<int> connections;
  std::vector<bool> autopilot;  // a dropped human's seat, played by a bot
  std::vector<uint64_t> drop_gen;
  std::vector<std::function<void()>> drop_cancel;  // per seat: cancels its drop timer
  int64_t created = 0;                             // seconds since the epoch
  int64_t expire_s = 86400;
  std::vector<nlohmann::json> notices;
  uint64_t notice_seq = 0;
  bool bot_pending = false;
  bool gate_slot = false;  // a cheap bot's move in flight holds a slot of the gate
  // The lobby: a public table lists its open seats (human seats anyone may
  // take; their tokens are made when taken, kept in the meta).
  bool is_public = false;
  // Rated (ratings.cpp): the end updates the ratings, once (rated_done in the meta).
  bool rated = false, rated_done = false;
  std::vector<bool> open;
  std::map<std::pair<int, int>, nlohmann::json> reviews;  // (seat, hand): a finished hand's review
  std::vector<std::pair<int, std::weak_ptr<Subscriber>>> subs;
  // Storage (group commit): what is durable, what is queued, the writes in
  // flight. Nothing is broadcast while a write is in flight; a failed write
  // rolls the table back to what is durable (a new generation).
  size_t durable = 0, queued = 0;
  nlohmann::json durable_meta;
  int inflight = 0;
  std::condition_variable idle;  // inflight fell to 0
  uint64_t gen = 1;
  bool stalled = false;  // a write failed: resumed when the storage heals
  // Durable moves not yet broadcast: when each arrived, when it was durable.
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::chrono::steady_clock::time_point>> arrivals;

  // Players (players.cpp): per seat, its display name and its player's id
  // ("" when none); in the meta, so a seat's name survives a restart.
  std::vector<std::string> names, player_ids;
  // The rematch, once asked for (players.cpp): the new table, and per seat
  // of this one the new table's token for the person who sat there.
  std::string rematch;
  std::vector<std::string> rematch_tokens;
  std::string rematch_spectate;
  void people_meta(nlohmann::json& meta) const;
  void read_people(const nlohmann::json& meta);
  // Turn clock (docs/server.md, "Turn clock"; turn_clock.cpp). clock_s 0: off.
  int clock_s = 0, bank_s = 0;
  std::vector<int64_t> bank_ms;     // per seat: what is left of its time bank (stored in the meta)
  std::vector<int> timeouts;        // per seat: moves the clock had the takeover bot play (stored)
  std::vector<bool> clock_running;  // the seat's turn is being timed
  std::vector<bool> clock_forced;   // timed out: the takeover bot plays this one move
  std::vector<std::chrono::steady_clock::time_point> turn_start;
  std::vector<uint64_t> clock_gen;
  std::vector<std::function<void()>> clock_cancel;
  // Chat (docs/server.md, "Chat"; chat.cpp): the recent lines of the seats
  // [0] and of the spectators [1], each shown only to its own audience.
  std::deque<ChatLine> chat[2];
  uint64_t chat_n = 0;  // lines so far (stored ones and refused writes alike)

  bool human(int seat) const { return players[static_cast<size_t>(seat)] == "human"; }
  bool over() const { return session && session->state().terminal(); }
  // Over and stored: what reveals the secret and opens the record. A final
  // move still in flight may yet be rolled back.
  bool finished() const { return over() && inflight == 0; }
  nlohmann::json meta() const;
};

class Hub {
 public:
  // Restores every stored table (replaying its events from its seed) and
  // resumes its bots.
  Hub(Storage& db, boost::asio::io_context& ioc, HubConfig cfg = {});
  ~Hub();
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;
  // Stops the bots (waits for the ones thinking); the destructor calls it.
  void shutdown();

  // Each throws ApiError (or Error: a bad request) naming the problem.
  // client: the address of the request (bot fairness is per address).
  // body "key" (a player's key): that player sits at seat "key_seat" (the
  // first human seat when absent). people: a rematch's seats.
  nlohmann::json create(const nlohmann::json& body, const std::string& client = "", const SeatPeople* people = nullptr);
  nlohmann::json get(const std::string& id, const std::string& token);
  nlohmann::json move(const std::string& id, const std::string& token, const std::string& move);
  // who: the request's body; its "key" (a player's key) or "name" (a
  // display name) names the person at the seat (players.cpp).
  nlohmann::json join(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
                      const nlohmann::json& who = nullptr);
  // Players (players.cpp, docs/server.md "Players").
  nlohmann::json create_player(const nlohmann::json& body);
  nlohmann::json login(const nlohmann::json& body);
  // Sets or changes player `id`'s password, {"key", "password"}: the key
  // must be one of that player's (403 otherwise).
  nlohmann::json set_password(const std::string& id, const nlohmann::json& body);
  nlohmann::json player(const std::string& id);
  // Quick match (quickmatch.cpp): {"key", "game", "options"?, "rated"?,
  // "level"?, "with"?} to wait; the status by the key; leaving.
  nlohmann::json quickmatch_join(const nlohmann::json& body);
  // Ratings (ratings.cpp): a family's leaderboard (players and bot levels),
  // a player's ratings per family with their history.
  nlohmann::json leaderboard(const std::string& family_or_game);
  nlohmann::json ratings_json(const std::string& subject);
  nlohmann::json quickmatch_status(const nlohmann::json& who);
  nlohmann::json quickmatch_leave(const nlohmann::json& who);
  // A finished table's rematch (made once; each seat gets its own token).
  nlohmann::json rematch(const std::string& id, const std::string& token, const std::string& client = "");
  // The lobby: the public tables waiting for players (newest first), a seat
  // taken there ({"seat"?} in the body: a given one, else the first free),
  // and its live feed (the list, then each change alone).
  nlohmann::json lobby();
  nlohmann::json sit(const std::string& id, const nlohmann::json& body);
  void lobby_subscribe(const std::shared_ptr<Subscriber>& sub);
  void lobby_unsubscribe(const Subscriber* sub);
  nlohmann::json record(const std::string& id);
  nlohmann::json fairness(const std::string& id);
  // Every legal move's value for the seat to act, by the strongest fair bot
  // from that seat's own view (the strong level's budget): the app's hint.
  nlohmann::json hint(const std::string& id, const std::string& token);
  // The graded moves of one seat in one finished hand (record/review.h).
  // A seat's token: its own seat, any finished hand. Anyone with the
  // spectator token, or any seat's when `seat` names another: only once
  // the game is over. hand 0: the last finished hand.
  nlohmann::json review(const std::string& id, const std::string& token, int hand, std::optional<int> seat);
  // Every step of a finished game with every hand shown (replay_steps);
  // refused (409) while the game is in progress.
  // One page of them from step `from` (replay_steps).
  nlohmann::json replay(const std::string& id, size_t from = 0);
  nlohmann::json health();
  // A chat line from a seat (to the seats) or from the spectator token (to
  // the spectators): {"text": ...} or {"phrase": ID}. Answers once stored.
  nlohmann::json chat(const std::string& id, const std::string& token, const nlohmann::json& body);
  // A WebSocket client: joins the seat (a human seat's connection counts as
  // presence: it takes the seat back from a bot) and receives every change.
  // Returns the seat (-1: spectator).
  int subscribe(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
                const std::shared_ptr<Subscriber>& sub);
  void unsubscribe(const std::string& id, int seat, const Subscriber* sub);
  HubStats& stats() { return stats_; }
  uint64_t storage_commits() const { return db_.commits(); }
  Storage::Checkpoints storage_checkpoints() const { return db_.checkpoints(); }
  Histogram storage_commit_us() const { return db_.commit_us(); }
  // The most cheap bots' moves ever between decision and broadcast at once.
  int gate_peak();

 private:
  std::shared_ptr<Table> table(const std::string& id);
  std::shared_ptr<Table> find(const std::string& id);
  void arm_drop(const std::shared_ptr<Table>& t, int seat);
  void release_drop(Table& t, int seat);
  void retire(const std::shared_ptr<Table>& t);
  void keep_finished(const std::shared_ptr<Table>& t);
  void expire_waiting();
  int seat_for(const Table& t, const std::string& token) const;
  nlohmann::json message(Table& t, int seat, bool with_log = true);
  std::string message_text(Table& t, int seat);
  void changed(const std::shared_ptr<Table>& t);
  void broadcast(const std::shared_ptr<Table>& t);
  void settle(Table& t);
  void rebuild(Table& t, size_t events);
  // What a change stores besides the table's events not yet queued.
  struct Change {
    bool meta = false;                  // the table's meta (who joined, names, banks, ...)
    std::vector<ChatLine> chat;         // chat lines: shown once stored
    std::vector<StoredRating> ratings;  // a rated game's end: the ratings after it (with the meta)
    std::optional<std::chrono::steady_clock::time_point> arrival;  // a move's, for the latency figures
    static Change of_meta() {
      Change c;
      c.meta = true;
      return c;
    }
    static Change of_chat(const ChatLine& line) {
      Change c;
      c.chat.push_back(line);
      return c;
    }
  };
  // Queues the change (with t->m held). Once durable it is broadcast on a
  // broadcast thread; a failed write rolls the table back (rollback()).
  // `then` gets "" once durable, or why not (after the rollback).
  void persist(const std::shared_ptr<Table>& t, Change change, std::function<void(const std::string&)> then = {});
  // The one path of a request's change (move, join, sit, rematch, chat):
  // persist(), then wait off the table's lock until it is durable, then for
  // any other write in flight (the answer shows the table as stored). Not
  // stored: ApiError 503 "storage failed; {what}: why", the table rolled back.
  void persist_and_wait(std::unique_lock<std::mutex>& lk, const std::shared_ptr<Table>& t, Change change,
                        const char* what);
  void rollback(Table& t);
  // With t->m held: the move and its chance outcomes in memory; its text and
  // the change that stores them.
  std::pair<std::string, Change> apply_move(Table& t, int seat, const std::string& move,
                                            std::chrono::steady_clock::time_point arrival);
  // The table's change is broadcast on a broadcast thread (changed()).
  void announce(const std::shared_ptr<Table>& t);
  void wait_stored(std::unique_lock<std::mutex>& lk, Table& t);
  void resume(const std::shared_ptr<Table>& t);
  void heal_loop();
  void join_locked(const std::shared_ptr<Table>& t, int seat, const std::optional<std::string>& entropy);
  void start_game(Table& t);
  int bot_seat(const Table& t) const;
  std::string bot_level(const Table& t, int seat) const;
  AnyBot& seat_bot(Table& t, int seat);
  void schedule_bot(const std::shared_ptr<Table>& t);
  void run_bot(const std::shared_ptr<Table>& t, size_t version);
  // True when the move was made and holds its gate slot until broadcast.
  bool bot_turn(const std::shared_ptr<Table>& t, size_t version, bool gated = false);
  void pass_gate(std::function<void()> turn);
  void leave_gate();
  void strong_done(const std::string& client);
  void notice(Table& t, int seat, const std::string& text);
  std::shared_ptr<Table> build(const StoredTable& st);
  // Players (players.cpp).
  std::optional<SeatPerson> person_of(const nlohmann::json& who);
  bool seat_person(Table& t, int seat, const SeatPerson& p);
  void people_view(const Table& t, int seat, nlohmann::json& m) const;
  nlohmann::json rematch_answer(const Table& t, int seat) const;
  std::mutex players_m_;  // new names are unique: one player made at a time
  std::mutex rematch_m_;  // a table's rematch is made once
  // Quick match: the players waiting (or just seated), per player id.
  struct Seeker {
    std::string player_id, name, game, pool, level, with;
    nlohmann::json options;
    int seats = 0;
    bool teams = false, rated = false;
    std::chrono::steady_clock::time_point since;  // asked (or seated)
    bool forming = false, seated = false;         // a table being made; made
    std::string table, token;
    int seat = -1;
  };
  void quickmatch_arm();
  void quickmatch_form(const std::string& pool, bool timed_out);
  void rate(const std::shared_ptr<Table>& t);
  StoredRating current_rating(const std::string& subject, const std::string& family);
  // The rating as of `now` (seconds): its RD widened by the whole rating
  // periods since its last rated game.
  StoredRating rating_now(const StoredRating& r, int64_t now) const;
  std::mutex ratings_m_;
  std::map<std::pair<std::string, std::string>, StoredRating> rating_cache_;  // queued, not yet stored
  std::mutex qm_m_;
  std::map<std::string, Seeker> seekers_;
  std::map<std::string, int> waiting_;  // per pool, those not seated yet
  bool qm_ticking_ = false;
  void restore(StoredTable st);

  Storage& db_;
  boost::asio::io_context& ioc_;
  HubConfig cfg_;
  std::shared_mutex tables_m_;
  std::map<std::string, std::shared_ptr<Table>> tables_;
  std::atomic<bool> stopping_{false};
  HubStats stats_;
  std::unique_ptr<boost::asio::thread_pool> pool_;    // cheap bots
  std::unique_ptr<boost::asio::thread_pool> bcast_;   // broadcasts: never queued behind a bot
  std::unique_ptr<boost::asio::thread_pool> strong_;  // strong and expert bots
  // Strong/expert turns: running per address, and those waiting for their
  // address's turn (run in order as its running ones finish).
  std::mutex strong_m_;
  std::map<std::string, int> strong_running_;
  std::map<std::string, std::deque<std::function<void()>>> strong_waiting_;
  // The lobby's list, kept by each public table under its own lock (then
  // lobby_m_: never the other way), and its watchers.
  void lobby_update(const Table& t);
  void claim_timer(const std::shared_ptr<Table>& t, int seat, const std::string& token);
  nlohmann::json lobby_message();  // with lobby_m_ held
  std::mutex lobby_m_;
  std::map<std::string, nlohmann::json> lobby_;
  std::vector<std::weak_ptr<Subscriber>> lobby_subs_;
  uint64_t lobby_version_ = 0;
  std::mutex gate_m_;
  int gate_used_ = 0, gate_peak_ = 0;
  std::deque<std::function<void()>> gate_waiting_;
  std::atomic<bool> stalled_{false};
  std::mutex cache_m_;
  std::map<std::string, std::shared_ptr<Table>> finished_;
  std::deque<std::string> finished_order_;
  std::mutex heal_m_;
  std::condition_variable heal_cv_;
  std::thread heal_;
  using Clock = std::chrono::steady_clock;
  void measured(Clock::time_point since, Clock::time_point durable, Clock::time_point sending);
  // Turn clock (turn_clock.cpp), each with t->m held.
  static void clock_options(const nlohmann::json& body, nlohmann::json& spec);
  void clock_load(Table& t, const nlohmann::json& meta);
  void clock_tick(const std::shared_ptr<Table>& t);
  void clock_stop(Table& t, int seat, std::chrono::steady_clock::time_point at);
  void clock_release(Table& t);
  nlohmann::json clock_json(const Table& t) const;
  // Chat (chat.cpp).
  static void chat_load(Table& t, const std::vector<ChatLine>& lines);
  static nlohmann::json chat_json(const Table& t, int seat);
};

// What a spectator may see: the game's own view for a seat that does not
// exist (every hand hidden, only public information), with "seat": null.
nlohmann::json public_view(const AnyState& st);

}  // namespace boneyard::server
