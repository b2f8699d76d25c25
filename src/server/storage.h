#pragma once
// The server's storage (docs/server.md, "Storage"): a table is its record.
// One row per table (its spec, fixed at creation, and its meta: who joined,
// the entropies, whether it started and its derived seed) and one row per
// event, in order; players, ratings, chat. Kept by a Store (store.h):
// SQLite, the embedded default, or PostgreSQL for a postgresql:// URL.
//
// Writes go through one writer thread in groups (group commit): every write
// waiting when a transaction starts goes into that one transaction, and each
// write's `done` is called once its transaction is durable (or has failed),
// so the server acknowledges and broadcasts only what is stored, with one
// fsync for many moves. An SQLite database is locked for the process's
// life: a second server on the same file refuses to start.
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/histogram.h"
#include "server/store.h"

namespace boneyard::server {

class Storage {
 public:
  // db: an SQLite file, or a postgresql:// URL (store.h). full_sync: SQLite
  // synchronous=FULL (survives power loss), otherwise NORMAL (with WAL:
  // survives any crash of the process, SIGKILL included); PostgreSQL
  // synchronous_commit=on for the writer. Throws Error when the store cannot
  // be opened (another process holds the file, a wrong password, an unknown
  // host, a database of another schema version).
  explicit Storage(const std::string& db, bool full_sync = true);
  Storage(const std::string& db, const StoreOptions& opt);
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

  // Every table whose game is not over (meta "over"), with its events and
  // recent chat: a finished one is loaded whole on demand with load().
  std::vector<StoredTable> load_all(const std::function<bool(const std::string&)>& keep = {});
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

  // Social (store.h, social.h), straight to the store.
  void set_relation(const std::string& from, const std::string& to, int kind, bool on);
  std::vector<Relation> relations(const std::string& from, int kind);
  void add_report(const StoredReport& r);
  std::vector<StoredReport> reports(int limit);
  // The quick-match queue (store.h, quickmatch.h), straight to the store.
  bool put_seeker(const std::string& player_id, const std::string& entry, const Write::Fence* fence) {
    return store_->put_seeker(player_id, entry, fence);
  }
  bool drop_seeker(const std::string& player_id, const Write::Fence* fence) {
    return store_->drop_seeker(player_id, fence);
  }
  std::vector<std::string> seekers() { return store_->seekers(); }

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
  using Checkpoints = StoreCheckpoints;
  Checkpoints checkpoints() const;
  // Shard leases (store.h), straight to the store.
  std::optional<Lease> acquire_lease(const std::string& shard, const std::string& owner, int ttl_s);
  std::vector<Lease> renew_leases(const std::vector<std::string>& shards, const std::string& owner, int ttl_s) {
    return store_->renew_leases(shards, owner, ttl_s);
  }
  void release_lease(const std::string& shard, const std::string& owner);
  std::optional<Lease> lease(const std::string& shard);
  std::vector<Lease> leases();
  Store::Presence hold_presence(const std::string& node) { return store_->hold_presence(node); }
  std::optional<Lease> take_lease_from_absent(const std::string& shard, const std::string& owner,
                                              const std::string& absent, int ttl_s) {
    return store_->take_lease_from_absent(shard, owner, absent, ttl_s);
  }
  // serve-bench: keep each commit's duration (BEGIN to COMMIT done, the
  // fsync included), in microseconds.
  void measure_commits(bool on);
  Histogram commit_us() const;
  // Stops the writer after the writes queued so far; later submits fail.
  void stop();

 private:
  void writer();
  std::unique_ptr<Store> store_;
  mutable std::mutex q_m_;
  std::condition_variable q_cv_;
  std::deque<Write> queue_;
  bool stopping_ = false;
  std::string problem_;
  uint64_t commits_ = 0;
  bool measure_ = false;
  Histogram commit_us_;
  std::map<std::string, uint64_t> failed_gen_;  // writer thread only
  std::set<std::string> in_doubt_;              // tables whose last write failed (Write::replaces); writer thread only
  std::thread thread_;
};

}  // namespace boneyard::server
