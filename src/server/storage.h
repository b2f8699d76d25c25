#pragma once
// SQLite storage (docs/server.md, "Storage"): a table is its record. One row
// per table (its spec, fixed at creation, and its meta: who joined, the
// entropies, whether it started and its derived seed) and one row per event,
// in order. WAL journal.
//
// Writes go through one writer thread in groups (group commit): every write
// waiting when a transaction starts goes into that one transaction, and each
// write's `done` is called once its transaction is durable (or has failed),
// so the server acknowledges and broadcasts only what is stored, with one
// fsync for many moves. The database is locked for the process's life: a
// second server on the same file refuses to start.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "record/session.h"
#include "server/histogram.h"

struct sqlite3;
struct sqlite3_stmt;

namespace boneyard::server {

// One chat line (docs/server.md, "Chat"), stored with its table: n counts
// the table's lines; audience 0 is the seats' chat, 1 the spectators'. A
// line is free text or the id of a quick phrase.
struct ChatLine {
  uint64_t n = 0;
  int audience = 0;
  int seat = -1;  // -1: a spectator
  std::string text, phrase;
  int64_t at = 0;  // seconds since the epoch
};

struct StoredTable {
  std::string id;
  nlohmann::json spec;
  nlohmann::json meta;
  std::vector<RecordEvent> events;
  int64_t created = 0;         // seconds since the epoch
  std::vector<ChatLine> chat;  // the recent lines of each audience, by n
};

// A player (docs/server.md, "Players"): never its key, only the keys' hashes.
struct StoredPlayer {
  std::string id, name;
  std::string password;  // the argon2id hash; "" when the player has none
  int64_t created = 0;
};

// A game a player sat at, newest first (GET /api/players/{id}).
struct PlayerGame {
  std::string table, game;
  int seat = 0;
  bool over = false;
  int64_t created = 0;
};

// A rating (Glicko-2) of a subject in a game family: a player's id, or a
// bot level's ("bot:casual"); with each game's result in its history.
struct StoredRating {
  std::string subject, family;
  double rating = 1500, rd = 350, volatility = 0.06;
  int games = 0;
  std::string name;  // the player's (read only)
  // When its last rated game ended (seconds since the epoch; 0: none):
  // read from its history; written as the new history entry's time ("now"
  // when 0).
  int64_t last = 0;
};
struct RatingPoint {
  std::string table;
  double rating = 0, rd = 0;
  int64_t at = 0;
};

// One table's change, stored all or nothing: its row (at creation), its meta,
// and events first, first+1, ...
struct Write {
  std::string table;
  uint64_t gen = 0;                    // the table's generation: see Storage::submit
  std::optional<nlohmann::json> spec;  // set: insert the table's row
  std::optional<nlohmann::json> meta;  // set: its meta (with spec: the first meta)
  size_t first = 0;
  std::vector<RecordEvent> events;
  std::vector<ChatLine> chat;  // chat lines to add
  bool erase = false;          // instead: remove the table, its events and its chat
  // Instead (table ""): a player's key hash, and the player's row unless
  // player_exists (a login on another device adds a key to a player).
  // set_password: the existing player's password hash is replaced by
  // player->password (no key is added when key_hash is empty).
  std::optional<StoredPlayer> player;
  bool player_exists = false;
  bool set_password = false;
  std::string key_hash;
  // With the table's meta: the ratings after its game, and their history.
  std::vector<StoredRating> ratings;
  // Called on the writer thread, in submission order, with "" once durable
  // or the reason it was not stored. It must not wait for the storage.
  std::function<void(const std::string& error)> done;
};

class Storage {
 public:
  // full_sync: synchronous=FULL (survives power loss); otherwise NORMAL
  // (with WAL: survives any crash of the process, SIGKILL included).
  // Throws Error when the file cannot be opened or another process holds it.
  explicit Storage(const std::string& path, bool full_sync = true);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  // Queues a write. When a write of table T fails, every later write of T
  // with a generation up to the failed one's is refused too (it was made on
  // top of the lost one): the table rolls back to what is stored and goes on
  // with a higher generation. Returns false (and calls nothing) when the
  // storage is stopping.
  bool submit(Write w);
  // submit() and wait; throws Error when not stored. Never call it while
  // holding a lock that a `done` takes.
  void write(Write w);
  // The same for single changes (tools and tests).
  void create_table(const std::string& id, const nlohmann::json& spec, const nlohmann::json& meta);
  void update_meta(const std::string& id, const nlohmann::json& meta);
  void append_event(const std::string& id, size_t idx, const RecordEvent& e);

  // Every table; the events only of those whose game is not over (meta
  // "over"): a finished one is loaded whole on demand with load().
  std::vector<StoredTable> load_all();
  std::optional<StoredTable> load(const std::string& id);
  std::vector<RecordEvent> load_events(const std::string& id);
  // The last `recent` lines of each audience, oldest first.
  std::vector<ChatLine> load_chat(const std::string& id, size_t recent = 50);

  // Players, by id, by the hash of one of their keys, by name_key(name).
  std::optional<StoredPlayer> player(const std::string& id);
  std::optional<StoredPlayer> player_by_key(const std::string& key_hash);
  std::optional<StoredPlayer> player_by_name(const std::string& name_key);
  // The tables a player sits at (recorded from each table's meta
  // "player_ids"), newest first.
  std::vector<PlayerGame> player_games(const std::string& player_id, int limit);
  // Ratings: one subject's in a family (none yet: nullopt), a family's best
  // (players, or bot levels), a subject's history in a family (newest first).
  std::optional<StoredRating> rating(const std::string& subject, const std::string& family);
  std::vector<StoredRating> leaderboard(const std::string& family, bool bots, int limit);
  std::vector<StoredRating> ratings_of(const std::string& subject);
  std::vector<RatingPoint> rating_history(const std::string& subject, const std::string& family, int limit);

  // "" while the last write succeeded; else why writes fail (disk full,
  // read-only database, ...). A failing database is reopened on the next
  // write, so it heals when the cause goes away.
  std::string problem() const;
  // Writes nothing but checks that a write transaction commits (the heal
  // timer's probe while unhealthy); returns problem().
  std::string probe();
  // Groups committed and writes stored so far (serve-bench).
  uint64_t commits() const;
  // Checkpoints: by the checkpointer; finished by the writer (a few pages
  // left); made whole by the writer (only when the checkpointer could not
  // keep up).
  struct Checkpoints {
    uint64_t background = 0, finished = 0, whole = 0;
  };
  Checkpoints checkpoints() const;
  // serve-bench: keep each commit's duration (BEGIN to COMMIT done, the
  // fsync included), in microseconds.
  void measure_commits(bool on);
  Histogram commit_us() const;
  // Stops the writer after the writes queued so far; later submits fail.
  void stop();

 private:
  void open();
  void close();
  sqlite3_stmt* cached(const char* sql);
  void exec(const char* sql);
  void writer();
  void checkpointer();
  void finish_checkpoint();
  static int on_wal(void* self, sqlite3* db, const char* name, int frames);
  void apply(const Write& w);
  void apply_player(const Write& w);
  std::optional<StoredPlayer> player_where(const char* sql, const std::string& arg);
  std::string path_;
  bool full_sync_;
  int lock_fd_ = -1;
  mutable std::mutex m_;  // the connection
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> stmts_;  // cached(): the connection's prepared statements
  bool reopen_ = false;
  mutable std::mutex q_m_;
  std::condition_variable q_cv_;
  std::deque<Write> queue_;
  bool stopping_ = false;
  std::string problem_;
  uint64_t commits_ = 0;
  bool measure_ = false;
  Histogram commit_us_;
  std::map<std::string, uint64_t> failed_gen_;  // writer thread only
  std::thread thread_;
  // The checkpointer (file databases): past this many WAL pages it copies
  // the WAL into the database, on its own connection.
  static constexpr int kCheckpointFrames = 1000;
  std::atomic<int> wal_frames_{0};
  std::atomic<int> backfilled_{0};  // WAL pages the checkpointer has copied
  std::atomic<uint64_t> finished_checkpoints_{0}, inline_checkpoints_{0};
  mutable std::mutex ck_m_;
  std::mutex ck_run_m_;  // held while a checkpoint copies (the checkpointer's or the writer's)
  std::condition_variable ck_cv_;
  bool ck_stop_ = false;
  uint64_t checkpoints_ = 0;
  std::thread checkpoint_thread_;
};

}  // namespace boneyard::server
