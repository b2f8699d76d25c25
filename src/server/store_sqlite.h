#pragma once
// The SQLite store (store.h), the embedded default: one file, WAL journal,
// locked for the process's life (a second server on the same file refuses
// to start). One connection, shared by the writer and the reads; a
// checkpointer on a connection of its own keeps the WAL short.
#include <sqlite3.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "server/store.h"

namespace boneyard::server {

class SqliteStore : public Store {
 public:
  // Throws Error when the file cannot be opened, another process holds it,
  // or its schema is newer than this build's.
  SqliteStore(const std::string& path, bool full_sync);
  ~SqliteStore() override;

  std::vector<size_t> commit(const std::vector<const Write*>& group) override;
  std::string problem_at_open() const override { return readonly_; }
  StoreCheckpoints checkpoints() const override;
  void stop() override;

  std::vector<StoredTable> load_all(const std::function<bool(const std::string&)>& keep = {}) override;
  std::optional<StoredTable> load(const std::string& id) override;
  std::vector<RecordEvent> load_events(const std::string& id) override;
  std::vector<ChatLine> load_chat(const std::string& id, size_t recent) override;
  std::optional<StoredPlayer> player(const std::string& id) override;
  std::optional<StoredPlayer> player_by_key(const std::string& key_hash) override;
  std::optional<StoredPlayer> player_by_name(const std::string& name_key) override;
  std::vector<PlayerGame> player_games(const std::string& player_id, int limit) override;
  std::optional<StoredRating> rating(const std::string& subject, const std::string& family) override;
  std::vector<StoredRating> leaderboard(const std::string& family, bool bots, int limit) override;
  std::vector<StoredRating> ratings_of(const std::string& subject) override;
  std::vector<RatingPoint> rating_history(const std::string& subject, const std::string& family, int limit) override;
  void set_relation(const std::string& from, const std::string& to, int kind, bool on) override;
  std::vector<Relation> relations(const std::string& from, int kind) override;
  void add_report(const StoredReport& r) override;
  std::vector<StoredReport> reports(int limit) override;
  bool put_seeker(const std::string& player_id, const std::string& entry, const Write::Fence* fence) override;
  bool drop_seeker(const std::string& player_id, const Write::Fence* fence) override;
  std::vector<std::string> seekers() override;
  std::optional<Lease> acquire_lease(const std::string& shard, const std::string& owner, int ttl_s) override;
  std::vector<Lease> renew_leases(const std::vector<std::string>& shards, const std::string& owner, int ttl_s) override;
  void release_lease(const std::string& shard, const std::string& owner) override;
  std::optional<Lease> lease(const std::string& shard) override;
  std::vector<Lease> leases() override;

 private:
  void open();
  void close();
  void migrate();
  sqlite3_stmt* cached(const char* sql);
  void exec(const char* sql);
  bool has_column(const char* table, const char* column);
  void checkpointer();
  void finish_checkpoint();
  static int on_wal(void* self, sqlite3* db, const char* name, int frames);
  void apply(const Write& w);
  void apply_player(const Write& w);
  std::optional<StoredPlayer> player_where(const char* sql, const std::string& arg);
  std::string path_;
  bool full_sync_;
  int lock_fd_ = -1;      // flock on PATH.lock (holds the pid for the message)
  int file_fd_ = -1;      // flock on the database file itself (a link to it is the same file)
  std::string readonly_;  // why the database could not be written when opened
  mutable std::mutex m_;  // the connection
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> stmts_;  // cached(): the connection's prepared statements
  bool reopen_ = false;
  // tables.finished exists (schema 5): not in an older database opened
  // read-only, which is not migrated; load_all then reads every row.
  bool finished_column_ = true;
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
