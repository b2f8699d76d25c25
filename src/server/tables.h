#pragma once
// The Hub (docs/server.md): the games being played on the server, and the
// one place where the server's modules are wired together (as lila's Env
// wires its modules). The Hub itself holds the tables: their creation,
// lookup and retention (finished ones leave memory, unjoined ones expire),
// the one path that stores a table's change (persist_and_wait: nothing is
// acknowledged or broadcast before it is durable; a failed write rolls the
// table back), the broadcasts (on threads of their own) and the bots' turns.
// Its sources: tables.cpp (wiring, creation, lookup, retention, requests),
// hub_storage.cpp (stored changes, rollback, healing, broadcasts),
// hub_bots.cpp (the bots' turns).
//
// Its modules, each with its own header (what it owns, which lock):
//   table.h       a Table: one Seat per seat, its stored meta (TableMeta)
//   bots.h        the bots' pools, the gate, the per-address queues
//   presence.h    watchers, connections, drop timers
//   lobby.h       the public tables waiting for players, and their feed
//   views.h       each watcher's state message
//   analysis.h    hint, review, replay, record, fairness
//   players.h     accounts, and who sits at a seat
//   quickmatch.h  players waiting for a table together
//   ratings.h     Glicko-2 ratings, leaderboards
//   turn_clock.h  the turn clock's timers
//   chat.h        a table's chat lines
//   shards.h      several nodes: the shards this node holds (leases, fences)
//   social.h      follows, blocks, reports, challenges
//
// Locks, in the order they may be taken: the Hub's tables_m_ (the live
// tables) alone; a table's m; then one module's own lock (lobby, ratings,
// the gate...). A module never calls back into the Hub with its lock held.
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
#include <set>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/analysis.h"
#include "server/bots.h"
#include "server/chat.h"
#include "server/histogram.h"
#include "server/hub_config.h"
#include "server/lobby.h"
#include "server/peer_lobby.h"
#include "server/players.h"
#include "server/presence.h"
#include "server/quickmatch.h"
#include "server/ratings.h"
#include "server/shards.h"
#include "server/social.h"
#include "server/storage.h"
#include "server/table.h"
#include "server/turn_clock.h"
#include "server/views.h"

namespace boost::asio {
class io_context;
class thread_pool;
}  // namespace boost::asio

namespace boneyard::server {

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
  // version: the table's version the move was decided at; another (a retry
  // of a move already played, a move decided on an old state) is refused.
  nlohmann::json move(const std::string& id, const std::string& token, const std::string& move,
                      std::optional<int64_t> version = std::nullopt);
  // who: the request's body; its "key" (a player's key) or "name" (a
  // display name) names the person at the seat (players.h).
  // client: the request's network (a rated table's two people of one are not rated).
  nlohmann::json join(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
                      const nlohmann::json& who = nullptr, const std::string& client = "");
  // A finished table's rematch (made once; each seat gets its own token).
  // A rematch by consent (docs/server.md): the first ask offers it, each
  // seat accepts (or declines: accept false, the offer ends); it is made
  // once every person accepted or, after rematch_wait_s, left.
  nlohmann::json rematch(const std::string& id, const std::string& token, const std::string& client = "",
                         bool accept = true);
  // A game that never really started (never_moved_seat): any other person
  // at the table ends it, unrated and not kept.
  nlohmann::json abort(const std::string& id, const std::string& token);
  // A seat of a public table taken in the lobby ({"seat"?} in the body: a
  // given one, else the first free).
  nlohmann::json sit(const std::string& id, const nlohmann::json& body, const std::string& client = "");
  // An invitation link opened: its seat gets a new token, for the person
  // who opened it alone; the link's token is void from then on (whoever
  // else holds the link, its sender included, no longer sees that hand).
  nlohmann::json claim(const std::string& id, const std::string& token);
  // A chat line from a seat (to the seats) or from the spectator token (to
  // the spectators): {"text": ...} or {"phrase": ID}. Answers once stored.
  nlohmann::json chat(const std::string& id, const std::string& token, const nlohmann::json& body);
  // A WebSocket client: joins the seat (a human seat's connection counts as
  // presence: it takes the seat back from a bot) and receives every change.
  // Returns the seat (-1: spectator).
  int subscribe(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
                const std::shared_ptr<Subscriber>& sub);
  void unsubscribe(const std::string& id, int seat, const Subscriber* sub);
  nlohmann::json health();

  // The modules' requests, through the Hub (routes call these).
  nlohmann::json create_player(const nlohmann::json& body) { return players_.create(body); }
  nlohmann::json login(const nlohmann::json& body) { return players_.login(body); }
  nlohmann::json set_password(const std::string& id, const nlohmann::json& body) {
    return players_.set_password(id, body);
  }
  nlohmann::json sign_out_everywhere(const std::string& id, const nlohmann::json& body) {
    return players_.sign_out_everywhere(id, body);
  }
  // A player's page, with the live games of theirs that may be watched
  // (watch.cpp).
  nlohmann::json player(const std::string& id);
  // Watch (watch.cpp): the live games anyone may watch, best rated first.
  nlohmann::json watch();
  nlohmann::json quickmatch_join(const nlohmann::json& body, const std::string& client = "") {
    matchmaker_here();
    return quickmatch_.join(body, client);
  }
  nlohmann::json quickmatch_status(const nlohmann::json& who) {
    matchmaker_here();
    return quickmatch_.status(who);
  }
  nlohmann::json quickmatch_leave(const nlohmann::json& who) {
    matchmaker_here();
    return quickmatch_.leave(who);
  }
  nlohmann::json leaderboard(const std::string& family_or_game) { return ratings_.leaderboard(family_or_game); }
  nlohmann::json ratings_json(const std::string& subject) { return ratings_.of(subject); }
  // local: this node's tables only (what the other nodes poll: peer_lobby.h).
  nlohmann::json lobby(bool local = false) { return lobby_.list(local); }
  // Social (social.h; mine: watch.cpp, with who of those I follow is playing).
  Social& social() { return social_; }
  nlohmann::json social_mine(const std::string& key);
  void lobby_subscribe(const std::shared_ptr<Subscriber>& sub) { lobby_.subscribe(sub); }
  void lobby_unsubscribe(const Subscriber* sub) { lobby_.unsubscribe(sub); }
  nlohmann::json record(const std::string& id) { return Analysis::record(*table(id)); }
  nlohmann::json fairness(const std::string& id) { return Analysis::fairness(*table(id)); }
  nlohmann::json hint(const std::string& id, const std::string& token) { return Analysis::hint(*table(id), token); }
  nlohmann::json review(const std::string& id, const std::string& token, int hand, std::optional<int> seat) {
    return Analysis::review(*table(id), token, hand, seat);
  }
  nlohmann::json replay(const std::string& id, size_t from = 0) { return Analysis::replay(*table(id), from); }

  HubStats& stats() { return stats_; }
  uint64_t storage_commits() const { return db_.commits(); }
  Storage::Checkpoints storage_checkpoints() const { return db_.checkpoints(); }
  Histogram storage_commit_us() const { return db_.commit_us(); }
  // The most cheap bots' moves ever between decision and broadcast at once.
  int gate_peak() { return bots_.gate_peak(); }
  // Several nodes: this node's shards (tests pause its renewal).
  Shards& shards() { return shards_; }

 private:
  using Clock = std::chrono::steady_clock;
  // What a change stores besides the table's events not yet queued.
  struct Change {
    bool meta = false;                         // the table's meta (who joined, names, banks, ...)
    std::vector<ChatLine> chat;                // chat lines: shown once stored
    std::vector<StoredRating> ratings;         // a rated game's end: the ratings after it (with the meta)
    std::optional<Clock::time_point> arrival;  // a move's, for the latency figures
    static Change of_meta() {
      Change c;
      c.meta = true;
      return c;
    }
  };

  // Lookup and retention.
  std::shared_ptr<Table> table(const std::string& id);  // a live, cached or stored finished table; or 404
  std::shared_ptr<Table> find(const std::string& id);   // in memory only
  std::shared_ptr<Table> build(const StoredTable& st);
  // still_ours (a shard's tables taken over): asked with tables_m_ held
  // before the table goes in; false: the shard was lost meanwhile, and the
  // table read is not kept.
  void restore(StoredTable st, const std::function<bool()>& still_ours = {});
  void retire(const std::shared_ptr<Table>& t);
  void keep_finished(const std::shared_ptr<Table>& t);
  void expire_waiting();
  // With t.m held: the table ends without a result (expired, aborted): out
  // of memory and, in one write, of the database.
  void close_table(Table& t);
  // Several nodes (hub_shards.cpp): the live tables of shards just taken
  // (nullptr: every shard, one node) loaded and resumed; those of shards
  // lost dropped from memory.
  void take_shards(const std::set<int>* shards);
  void drop_shards(const std::set<int>& shards, const std::string& why);
  // A write refused by its fence (with t->m held): the table stops here.
  void fenced(Table& t, const std::string& why);
  // Several nodes: quick match is played on the node holding the matchmaker's
  // shard (Shards::kMatchShard); elsewhere ApiError 421 (net.cpp forwards it).
  void matchmaker_here();

  // Storage: the one path of a stored change.
  // Queues the change (with t->m held). Once durable it is broadcast on a
  // broadcast thread; a failed write rolls the table back (rollback()).
  // `then` gets "" once durable, or why not (after the rollback).
  void persist(const std::shared_ptr<Table>& t, Change change, std::function<void(const std::string&)> then = {});
  // The path of a request's change (move, join, sit, rematch, chat):
  // persist(), then wait off the table's lock until it is durable, then for
  // any other write in flight (the answer shows the table as stored). Not
  // stored: ApiError 503 "storage failed; {what}: why", the table rolled back.
  void persist_and_wait(std::unique_lock<std::mutex>& lk, const std::shared_ptr<Table>& t, Change change,
                        const char* what);
  void rollback(Table& t);  // with t.m held: back to what is durable, a new generation
  void resume(const std::shared_ptr<Table>& t);
  void heal_loop();

  // Changes in memory, each with t->m held.
  std::pair<std::string, Change> apply_move(Table& t, int seat, const std::string& move, Clock::time_point arrival);
  void join_locked(const std::shared_ptr<Table>& t, int seat, const std::optional<std::string>& entropy);
  void start_game(Table& t);
  void claim_timer(const std::shared_ptr<Table>& t, int seat, const std::string& token);
  void rate(const std::shared_ptr<Table>& t);
  // With rematch_m_ held: the rematch made if every person accepted or
  // left (after the wait); else its offer as it stands.
  nlohmann::json make_rematch(const std::shared_ptr<Table>& t, int seat, const std::string& client);
  void rematch_timer(const std::shared_ptr<Table>& t, double after_s, int rounds);

  // Broadcasts: announce() queues one on a broadcast thread; changed() is it
  // (with t->m held): every watcher's message, the lobby, the clock, and
  // what follows (the gate's slot, the ratings, retirement, the next bot).
  void announce(const std::shared_ptr<Table>& t);
  void broadcast(const std::shared_ptr<Table>& t);
  void changed(const std::shared_ptr<Table>& t);
  void measured(Clock::time_point since, Clock::time_point durable, Clock::time_point sending);

  // The bots' turns (Bots runs them), each with t->m held but bot_turn.
  void schedule_bot(const std::shared_ptr<Table>& t);
  void run_bot(const std::shared_ptr<Table>& t, size_t version);
  // True when the move was made and holds its gate slot until broadcast.
  bool bot_turn(const std::shared_ptr<Table>& t, size_t version, bool gated = false);

  Storage& db_;
  boost::asio::io_context& ioc_;
  HubConfig cfg_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> stalled_{false};  // a write failed: the heal loop probes the storage
  HubStats stats_;
  // The modules, wired here (constructed in this order).
  Ratings ratings_;
  Players players_;
  TurnClock clock_;
  TableViews views_;
  Lobby lobby_;
  Presence presence_;
  Bots bots_;
  QuickMatch quickmatch_;
  Shards shards_;
  Social social_;
  std::unique_ptr<boost::asio::thread_pool> bcast_;  // broadcasts: never queued behind a bot
  // The live tables, and the finished ones kept a while (cache_m_).
  std::shared_mutex tables_m_;
  std::map<std::string, std::shared_ptr<Table>> tables_;
  std::mutex cache_m_;
  std::map<std::string, std::shared_ptr<Table>> finished_;
  std::deque<std::string> finished_order_;
  std::mutex rematch_m_;  // a table's rematch is made once
  // Watch (watch.cpp): the list as last built, rebuilt at most once a second.
  std::mutex watch_m_;
  nlohmann::json watch_cache_;
  Clock::time_point watch_at_{};
  std::mutex heal_m_;
  std::condition_variable heal_cv_;
  std::thread heal_;
  std::unique_ptr<PeerLobby> peer_lobby_;  // several nodes: the others' open tables in lobby_
};

}  // namespace boneyard::server
