#include "server/store_sqlite.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include "core/error.h"
#include "server/players.h"
#include "server/store_sqlite_stmt.h"

namespace boneyard::server {

namespace {
bool in_memory(const std::string& path) { return path.empty() || path == ":memory:"; }
}  // namespace

SqliteStore::SqliteStore(const std::string& path, bool full_sync) : path_(path), full_sync_(full_sync) {
  // A URI names a file in a way the lock below cannot see through (and
  // could open one database with other settings): a plain path only.
  if (path.rfind("file:", 0) == 0)
    throw Error(
        fmt::format("--db '{}': SQLite URIs (file:...) are not supported; give the database file's path", path));
  if (!in_memory(path)) {
    // One server per database, for the process's life: a second one would
    // write events the first never sees. flock is released by the kernel
    // when the process dies, however it dies.
    const std::string lock = path + ".lock";
    lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ < 0) lock_fd_ = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC);
    if (lock_fd_ < 0) throw Error(fmt::format("cannot open the lock file '{}': {}", lock, std::strerror(errno)));
    if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      const int e = errno;
      char buf[32] = {};
      const ssize_t n = pread(lock_fd_, buf, sizeof buf - 1, 0);
      ::close(lock_fd_);
      lock_fd_ = -1;
      if (e == EWOULDBLOCK)
        throw Error(
            fmt::format("the database '{}' is in use by another boneyard serve{}: one server per database "
                        "(stop that one, or give this one another --db)",
                        path, n > 0 ? fmt::format(" (process {})", std::string(buf, static_cast<size_t>(n))) : ""));
      throw Error(fmt::format("cannot lock '{}': {}", lock, std::strerror(e)));
    }
    if (ftruncate(lock_fd_, 0) == 0) {
      const std::string pid = std::to_string(getpid());
      if (pwrite(lock_fd_, pid.data(), pid.size(), 0) < 0) {
        // The pid is only for the message above; the lock is what counts.
      }
    }
    // The lock file above goes by the path's text; a symlink or a hard link
    // names the same file by another path. So the database file itself is
    // locked too (flock: on the file, whatever path opened it; SQLite's own
    // locks are fcntl ones, which do not meet it).
    file_fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (file_fd_ < 0) file_fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file_fd_ < 0) {
      const int e = errno;
      ::close(lock_fd_);
      lock_fd_ = -1;
      throw Error(fmt::format("cannot open the database '{}': {}", path, std::strerror(e)));
    }
    if (flock(file_fd_, LOCK_EX | LOCK_NB) != 0) {
      const int e = errno;
      ::close(file_fd_);
      ::close(lock_fd_);
      file_fd_ = lock_fd_ = -1;
      if (e == EWOULDBLOCK)
        throw Error(
            fmt::format("the database '{}' is in use by another boneyard serve under another path (a link "
                        "to the same file): one server per database (stop that one, or give this one "
                        "another --db)",
                        path));
      throw Error(fmt::format("cannot lock '{}': {}", path, std::strerror(e)));
    }
  }
  try {
    std::lock_guard lk(m_);
    open();
  } catch (...) {
    close();  // a database refused after opening (a newer schema) leaves no connection behind
    if (file_fd_ >= 0) ::close(file_fd_);
    if (lock_fd_ >= 0) ::close(lock_fd_);
    throw;
  }
  if (!in_memory(path)) checkpoint_thread_ = std::thread([this] { checkpointer(); });
}

SqliteStore::~SqliteStore() {
  stop();
  close();
  if (file_fd_ >= 0) ::close(file_fd_);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void SqliteStore::stop() {
  {
    std::lock_guard lk(ck_m_);
    ck_stop_ = true;
  }
  ck_cv_.notify_all();
  if (checkpoint_thread_.joinable()) checkpoint_thread_.join();
}

// The writer's connection: each commit says how long the WAL is. Past
// kCheckpointFrames the checkpointer copies it into the database.
int SqliteStore::on_wal(void* self, sqlite3*, const char*, int frames) {
  auto* s = static_cast<SqliteStore*>(self);
  s->wal_frames_.store(frames, std::memory_order_relaxed);
  if (frames >= kCheckpointFrames) s->ck_cv_.notify_one();
  return 0;  // SQLITE_OK
}

// Checkpoints on a connection of their own, so that copying the WAL into
// the database (and its fsync) never delays a commit. PASSIVE: it never
// blocks the writer. The writer finishes the job (finish_checkpoint).
void SqliteStore::checkpointer() {
  sqlite3* db = nullptr;
  auto due = [&] {
    const int f = wal_frames_.load(std::memory_order_relaxed);
    return f >= kCheckpointFrames && f - backfilled_.load(std::memory_order_relaxed) >= kCheckpointFrames / 2;
  };
  std::unique_lock lk(ck_m_);
  while (!ck_stop_) {
    ck_cv_.wait_for(lk, std::chrono::seconds(1), [&] { return ck_stop_ || due(); });
    if (ck_stop_) break;
    if (!due()) continue;
    lk.unlock();
    int log = 0, copied = 0, rc = 0;
    if (!db) {
      rc = sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr);
      if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(db, 0);
        sqlite3_exec(db, full_sync_ ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL", nullptr, nullptr,
                     nullptr);
      }
    }
    if (rc == SQLITE_OK) {
      std::lock_guard run(ck_run_m_);
      rc = sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
    }
    if (rc != SQLITE_OK && rc != SQLITE_BUSY) {
      // A failing disk: the writer reports it; try again on a new connection.
      sqlite3_close(db);
      db = nullptr;
    }
    lk.lock();
    if (rc == SQLITE_OK) {
      ++checkpoints_;
      backfilled_.store(copied, std::memory_order_relaxed);
      // A reader on an old snapshot holds pages back: no spinning meanwhile.
      if (log - copied >= kCheckpointFrames / 2)
        ck_cv_.wait_for(lk, std::chrono::milliseconds(5), [&] { return ck_stop_; });
    } else {
      ck_cv_.wait_for(lk, std::chrono::milliseconds(rc == SQLITE_BUSY ? 5 : 500), [&] { return ck_stop_; });
    }
  }
  lk.unlock();
  sqlite3_close(db);
}

// With m_ held, after a commit. Once the checkpointer has copied nearly all
// of the WAL, the writer copies the rest (a few pages and one fsync, between
// two transactions, so nothing is written meanwhile): its next transaction
// then starts the WAL over from the beginning. The checkpointer alone could
// not: the writer keeps appending while it copies. Past 4 times the
// threshold (a checkpointer that cannot keep up) the writer copies it all.
void SqliteStore::finish_checkpoint() {
  const int frames = wal_frames_.load(std::memory_order_relaxed);
  int copied = backfilled_.load(std::memory_order_relaxed);
  if (frames < copied) {  // the WAL started over
    backfilled_.store(0, std::memory_order_relaxed);
    copied = 0;
  }
  if (frames < kCheckpointFrames) return;
  const bool nearly = copied > 0 && frames - copied <= kCheckpointFrames / 4;
  if (!nearly && frames < kCheckpointFrames * 4) return;
  // Nearly done: only if the checkpointer is not copying (its next round
  // leaves less); too long: wait for its round to end.
  std::unique_lock run(ck_run_m_, std::defer_lock);
  if (nearly && frames < kCheckpointFrames * 4) {
    if (!run.try_lock()) return;
  } else {
    run.lock();
  }
  if (sqlite3_wal_checkpoint_v2(db_, "main", SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr) != SQLITE_OK) return;
  wal_frames_.store(0, std::memory_order_relaxed);
  backfilled_.store(0, std::memory_order_relaxed);
  ++(nearly ? finished_checkpoints_ : inline_checkpoints_);
}

void SqliteStore::close() {
  for (auto& [sql, st] : stmts_) sqlite3_finalize(st);
  stmts_.clear();
  sqlite3_close(db_);
  db_ = nullptr;
}

// With m_ held: the statement prepared once per connection (the writer's
// inserts run thousands of times a second).
sqlite3_stmt* SqliteStore::cached(const char* sql) {
  auto& st = stmts_[sql];
  if (!st && sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr) != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(db_);
    sqlite3_finalize(st);
    st = nullptr;
    throw Error(fmt::format("storage: {}", msg));
  }
  return st;
}

// With m_ held.
void SqliteStore::open() {
  close();
  if (!in_memory(path_)) {
    // SQLite makes the -wal and -shm files with the database file's mode: a
    // read-only database leaves read-only ones behind. Once the database is
    // writable again, so are they (they are ours), or it would never heal.
    struct stat db_st {};
    if (::stat(path_.c_str(), &db_st) == 0 && ::access(path_.c_str(), W_OK) == 0)
      for (const char* ext : {"-wal", "-shm"}) {
        const std::string f = path_ + ext;
        if (::access(f.c_str(), F_OK) == 0 && ::access(f.c_str(), W_OK) != 0) ::chmod(f.c_str(), db_st.st_mode & 07777);
      }
  }
  if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    close();
    throw Error(fmt::format("cannot open database '{}': {}", path_, msg));
  }
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA journal_mode=WAL");
  exec(full_sync_ ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
  if (!in_memory(path_)) {
    exec("PRAGMA wal_autocheckpoint=0");  // the checkpointer's job, off this connection
    sqlite3_wal_hook(db_, &SqliteStore::on_wal, this);
  }
  finished_column_ = has_column("tables", "finished");
  if (sqlite3_db_readonly(db_, "main") == 1) {
    // Served as it is (every table readable), loudly unhealthy; the writer
    // reopens it on each try, so it heals when the file is writable again.
    readonly_ = fmt::format("the database '{}' is read-only: moves are refused until it is writable", path_);
    reopen_ = true;
    return;
  }
  exec(
      "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL, meta TEXT NOT NULL, "
      "created INTEGER NOT NULL DEFAULT (strftime('%s','now')), finished INTEGER NOT NULL DEFAULT 0)");
  exec(
      "CREATE TABLE IF NOT EXISTS events (table_id TEXT NOT NULL, idx INTEGER NOT NULL, chance INTEGER NOT NULL, "
      "seat INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (table_id, idx)) WITHOUT ROWID");
  // Players: the hashes of their keys (one per device), and the seats they
  // hold (from each table's meta), for their recent games.
  exec(
      "CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, "
      "password TEXT NOT NULL DEFAULT '', created INTEGER NOT NULL DEFAULT (strftime('%s','now')))");
  exec("CREATE TABLE IF NOT EXISTS player_keys (hash TEXT PRIMARY KEY, player_id TEXT NOT NULL)");
  exec("CREATE INDEX IF NOT EXISTS player_keys_player ON player_keys (player_id)");  // sign out everywhere
  exec(
      "CREATE TABLE IF NOT EXISTS player_tables (player_id TEXT NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT "
      "NULL, "
      "PRIMARY KEY (player_id, table_id, seat))");
  exec(
      "CREATE TABLE IF NOT EXISTS chat (table_id TEXT NOT NULL, n INTEGER NOT NULL, audience INTEGER NOT NULL, "
      "seat INTEGER NOT NULL, text TEXT NOT NULL, phrase TEXT NOT NULL, at INTEGER NOT NULL, name TEXT NOT NULL "
      "DEFAULT '', PRIMARY KEY (table_id, n))");
  exec("CREATE TABLE IF NOT EXISTS probe (k INTEGER PRIMARY KEY, at INTEGER NOT NULL)");
  // Shard leases (several nodes; store.h).
  exec(
      "CREATE TABLE IF NOT EXISTS leases (shard TEXT PRIMARY KEY, owner TEXT NOT NULL, epoch INTEGER NOT NULL, "
      "expires INTEGER NOT NULL)");
  // Ratings per subject (a player's id, or "bot:LEVEL") and family, and
  // every rated game's result in each one's history.
  exec(
      "CREATE TABLE IF NOT EXISTS ratings (subject TEXT NOT NULL, family TEXT NOT NULL, rating REAL NOT NULL, "
      "rd REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (subject, family))");
  exec(
      "CREATE TABLE IF NOT EXISTS rating_history (subject TEXT NOT NULL, family TEXT NOT NULL, table_id TEXT NOT NULL, "
      "rating REAL NOT NULL, rd REAL NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (subject, family, table_id))");
  // Social (3): follows and blocks between players; reports for the operator.
  exec(
      "CREATE TABLE IF NOT EXISTS relations (player_id TEXT NOT NULL, other_id TEXT NOT NULL, kind INTEGER NOT NULL, "
      "at INTEGER NOT NULL, PRIMARY KEY (player_id, kind, other_id))");
  exec(
      "CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY AUTOINCREMENT, reporter TEXT NOT NULL, reported "
      "TEXT NOT NULL, table_id TEXT NOT NULL, reason TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL)");
  // Quick match (4): the players waiting (or just seated), one row each.
  exec("CREATE TABLE IF NOT EXISTS quickmatch (player_id TEXT PRIMARY KEY, entry TEXT NOT NULL)");
  migrate();
}

// With m_ held: the schema version row (store.h). Version 1 is the schema
// as it was before the row existed, so a database without the row is one.
// Each later version's migration goes here, in order, with its row.
void SqliteStore::migrate() {
  exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  int version = 0;
  {
    Stmt st(db_, "SELECT version FROM schema_version");
    if (sqlite3_step(st.s) == SQLITE_ROW) version = sqlite3_column_int(st.s, 0);
  }
  if (version > kSchemaVersion) throw Error(newer_schema(fmt::format("the database '{}'", path_), version));
  if (version == 1) {
    // 2: chat lines keep their author's name; names compared by skeleton
    // (a name that now matches an older one keeps its old key).
    exec("BEGIN IMMEDIATE");
    exec("ALTER TABLE chat ADD COLUMN name TEXT NOT NULL DEFAULT ''");
    std::vector<std::pair<std::string, std::string>> players;
    {
      Stmt st(db_, "SELECT id, name FROM players");
      while (sqlite3_step(st.s) == SQLITE_ROW) players.emplace_back(st.col_text(0), st.col_text(1));
    }
    for (const auto& [id, name] : players) {
      Stmt st(db_,
              "UPDATE players SET name_key = ?1 WHERE id = ?2 AND NOT EXISTS (SELECT 1 FROM players WHERE name_key = "
              "?1)");
      st.text(1, name_key(name));
      st.text(2, id);
      st.done();
    }
    exec(fmt::format("UPDATE schema_version SET version = {}", kSchemaVersion).c_str());
    exec("COMMIT");
  }
  // 3: the social tables; 4: the quick-match queue; each made above.
  // 5: the finished tables marked, from their meta (JSON that does not
  // parse stays live: the hub reports it when it loads). Also when the
  // column is missing at 5: a crash between version 1's transaction and
  // this one.
  if (version >= 1 && (version <= 4 || !has_column("tables", "finished"))) {
    exec("BEGIN IMMEDIATE");
    // (a database this build made, marked older by hand, has the column)
    if (!has_column("tables", "finished")) exec("ALTER TABLE tables ADD COLUMN finished INTEGER NOT NULL DEFAULT 0");
    exec(
        "UPDATE tables SET finished = 1 WHERE (CASE WHEN json_valid(meta) THEN json_extract(meta, '$.over') END) "
        "IS 1");
    exec(fmt::format("UPDATE schema_version SET version = {}", kSchemaVersion).c_str());
    exec("COMMIT");
  }
  finished_column_ = true;
  if (version == 0) {
    Stmt st(db_, "INSERT INTO schema_version (version) VALUES (?)");
    st.integer(1, kSchemaVersion);
    st.done();
  }
}

bool SqliteStore::has_column(const char* table, const char* column) {
  Stmt st(db_, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?");
  st.text(1, table);
  st.text(2, column);
  return sqlite3_step(st.s) == SQLITE_ROW;
}

void SqliteStore::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw Error(fmt::format("storage: {}", msg));
  }
}

// With m_ held, inside the writer's transaction.
void SqliteStore::apply_player(const Write& w) {
  if (!w.player_exists) {
    Stmt st(db_, "INSERT INTO players (id, name, name_key, password) VALUES (?, ?, ?, ?)");
    st.text(1, w.player->id);
    st.text(2, w.player->name);
    st.text(3, name_key(w.player->name));
    st.text(4, w.player->password);
    st.done();
  } else if (w.set_password) {
    Stmt st(db_, "UPDATE players SET password = ? WHERE id = ?");
    st.text(1, w.player->password);
    st.text(2, w.player->id);
    st.done();
  }
  if (w.revoke_keys) {
    Stmt st(db_, "DELETE FROM player_keys WHERE player_id = ? AND hash <> ?");
    st.text(1, w.player->id);
    st.text(2, w.keep_key_hash);
    st.done();
  }
  if (w.key_hash.empty()) return;
  Stmt st(db_, "INSERT INTO player_keys (hash, player_id) VALUES (?, ?)");
  st.text(1, w.key_hash);
  st.text(2, w.player->id);
  st.done();
}

void SqliteStore::apply(const Write& w) {
  if (w.player) {
    apply_player(w);
    return;
  }
  if (w.table.empty()) {  // the probe
    exec("INSERT OR REPLACE INTO probe (k, at) VALUES (1, strftime('%s','now'))");
    return;
  }
  for (const StoredRating& r : w.ratings) {
    Stmt st(
        db_,
        "INSERT OR REPLACE INTO ratings (subject, family, rating, rd, volatility, games) VALUES (?, ?, ?, ?, ?, ?)");
    st.text(1, r.subject);
    st.text(2, r.family);
    sqlite3_bind_double(st.s, 3, r.rating);
    sqlite3_bind_double(st.s, 4, r.rd);
    sqlite3_bind_double(st.s, 5, r.volatility);
    st.integer(6, r.games);
    st.done();
    Stmt h(db_,
           "INSERT OR REPLACE INTO rating_history (subject, family, table_id, rating, rd, at) "
           "VALUES (?, ?, ?, ?, ?, CASE WHEN ? > 0 THEN ? ELSE strftime('%s','now') END)");
    h.text(1, r.subject);
    h.text(2, r.family);
    h.text(3, w.table);
    sqlite3_bind_double(h.s, 4, r.rating);
    sqlite3_bind_double(h.s, 5, r.rd);
    sqlite3_bind_int64(h.s, 6, r.last);
    sqlite3_bind_int64(h.s, 7, r.last);
    h.done();
  }
  if (w.erase) {
    Stmt ev(db_, "DELETE FROM events WHERE table_id = ?");
    ev.text(1, w.table);
    ev.done();
    Stmt ch(db_, "DELETE FROM chat WHERE table_id = ?");
    ch.text(1, w.table);
    ch.done();
    Stmt tb(db_, "DELETE FROM tables WHERE id = ?");
    tb.text(1, w.table);
    tb.done();
    Stmt pt(db_, "DELETE FROM player_tables WHERE table_id = ?");
    pt.text(1, w.table);
    pt.done();
    return;
  }
  // The players seated here (a seat's player is set once).
  if (w.meta && w.meta->contains("player_ids") && (*w.meta)["player_ids"].is_array()) {
    const auto& ids = (*w.meta)["player_ids"];
    for (size_t k = 0; k < ids.size(); ++k) {
      if (!ids[k].is_string() || ids[k].get<std::string>().empty()) continue;
      Stmt pt(db_, cached("INSERT OR IGNORE INTO player_tables (player_id, table_id, seat) VALUES (?, ?, ?)"));
      pt.text(1, ids[k].get<std::string>());
      pt.text(2, w.table);
      pt.integer(3, static_cast<int64_t>(k));
      pt.done();
    }
  }
  if (w.spec) {
    Stmt st(db_, "INSERT INTO tables (id, spec, meta, finished) VALUES (?, ?, ?, ?)");
    st.text(1, w.table);
    st.text(2, w.spec->dump());
    st.text(3, w.meta ? w.meta->dump() : std::string("{}"));
    st.integer(4, w.meta && finished_meta(*w.meta));
    st.done();
  } else if (w.meta) {
    Stmt st(db_, cached("UPDATE tables SET meta = ?, finished = ? WHERE id = ?"));
    st.text(1, w.meta->dump());
    st.integer(2, finished_meta(*w.meta));
    st.text(3, w.table);
    st.done();
  }
  if (!w.chat.empty()) {
    Stmt ch(
        db_,
        cached(
            "INSERT INTO chat (table_id, n, audience, seat, text, phrase, at, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const ChatLine& c : w.chat) {
      sqlite3_reset(ch.s);
      ch.text(1, w.table);
      ch.integer(2, static_cast<int64_t>(c.n));
      ch.integer(3, c.audience);
      ch.integer(4, c.seat);
      ch.text(5, c.text);
      ch.text(6, c.phrase);
      ch.integer(7, c.at);
      ch.text(8, c.name);
      ch.done();
    }
  }
  if (w.events.empty()) return;
  Stmt st(db_, cached("INSERT INTO events (table_id, idx, chance, seat, text) VALUES (?, ?, ?, ?, ?)"));
  for (size_t i = 0; i < w.events.size(); ++i) {
    const RecordEvent& e = w.events[i];
    sqlite3_reset(st.s);
    st.text(1, w.table);
    st.integer(2, static_cast<int64_t>(w.first + i));
    st.integer(3, e.chance ? 1 : 0);
    st.integer(4, e.seat);
    st.text(5, e.text);
    st.done();
  }
}

// One group, one transaction (Storage's writer thread).
std::vector<size_t> SqliteStore::commit(const std::vector<const Write*>& group) {
  std::lock_guard lk(m_);
  std::vector<size_t> fenced;
  try {
    if (reopen_ || !db_) {
      open();
      if (sqlite3_db_readonly(db_, "main") == 1) throw Error(readonly_);
      reopen_ = false;
    }
    exec("BEGIN IMMEDIATE");
    // Fences (store.h): the write lock is held, so the lease rows read here cannot change before the commit.
    std::map<std::string, std::pair<std::string, uint64_t>> holders;
    for (size_t i = 0; i < group.size(); ++i) {
      const auto& f = group[i]->fence;
      if (!f) {
        apply(*group[i]);
        continue;
      }
      auto it = holders.find(f->shard);
      if (it == holders.end()) {
        Stmt st(db_, "SELECT owner, epoch FROM leases WHERE shard = ?1");
        st.text(1, f->shard);
        std::pair<std::string, uint64_t> h;
        if (sqlite3_step(st.s) == SQLITE_ROW)
          h = {st.col_text(0), static_cast<uint64_t>(sqlite3_column_int64(st.s, 1))};
        it = holders.emplace(f->shard, h).first;
      }
      if (it->second.first == f->owner && it->second.second == f->epoch)
        apply(*group[i]);
      else
        fenced.push_back(i);
    }
    exec("COMMIT");
    if (!in_memory(path_)) finish_checkpoint();
    return fenced;
  } catch (const std::exception& e) {
    if (db_ && sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    reopen_ = true;  // a fresh connection for the next try: a file made writable again, a new WAL
    throw Error(e.what());
  }
}

StoreCheckpoints SqliteStore::checkpoints() const {
  std::lock_guard lk(ck_m_);
  return {checkpoints_, finished_checkpoints_.load(), inline_checkpoints_.load()};
}

std::vector<RecordEvent> SqliteStore::load_events(const std::string& id) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, "SELECT chance, seat, text FROM events WHERE table_id = ? ORDER BY idx");
  st.text(1, id);
  std::vector<RecordEvent> out;
  while (sqlite3_step(st.s) == SQLITE_ROW)
    out.push_back({sqlite3_column_int(st.s, 0) != 0, sqlite3_column_int(st.s, 1), st.col_text(2)});
  return out;
}

std::optional<StoredPlayer> SqliteStore::player_where(const char* sql, const std::string& arg) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, sql);
  st.text(1, arg);
  if (sqlite3_step(st.s) != SQLITE_ROW) return std::nullopt;
  return StoredPlayer{st.col_text(0), st.col_text(1), st.col_text(2), sqlite3_column_int64(st.s, 3)};
}

namespace {
StoredRating rating_row(Stmt& st) {
  StoredRating r;
  r.subject = st.col_text(0);
  r.family = st.col_text(1);
  r.rating = sqlite3_column_double(st.s, 2);
  r.rd = sqlite3_column_double(st.s, 3);
  r.volatility = sqlite3_column_double(st.s, 4);
  r.games = sqlite3_column_int(st.s, 5);
  r.name = st.col_text(6);
  r.last = sqlite3_column_int64(st.s, 7);
  return r;
}
// The last rated game's time comes from the history (its primary key
// serves the lookup): no column of its own to keep in step.
constexpr const char* kRatingCols =
    "SELECT r.subject, r.family, r.rating, r.rd, r.volatility, r.games, COALESCE(p.name, ''), "
    "COALESCE((SELECT MAX(h.at) FROM rating_history h WHERE h.subject = r.subject AND h.family = r.family), 0) "
    "FROM ratings r LEFT JOIN players p ON p.id = r.subject ";
}  // namespace

std::optional<StoredRating> SqliteStore::rating(const std::string& subject, const std::string& family) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, (std::string(kRatingCols) + "WHERE r.subject = ? AND r.family = ?").c_str());
  st.text(1, subject);
  st.text(2, family);
  if (sqlite3_step(st.s) != SQLITE_ROW) return std::nullopt;
  return rating_row(st);
}

std::vector<StoredRating> SqliteStore::leaderboard(const std::string& family, bool bots, int limit) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, (std::string(kRatingCols) + "WHERE r.family = ? AND (r.subject LIKE 'bot:%') = ? "
                                           "ORDER BY r.rating - 2 * r.rd DESC, r.rating DESC LIMIT ?")
                   .c_str());
  st.text(1, family);
  st.integer(2, bots ? 1 : 0);
  st.integer(3, limit);
  std::vector<StoredRating> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) out.push_back(rating_row(st));
  return out;
}

std::vector<StoredRating> SqliteStore::ratings_of(const std::string& subject) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, (std::string(kRatingCols) + "WHERE r.subject = ? ORDER BY r.family").c_str());
  st.text(1, subject);
  std::vector<StoredRating> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) out.push_back(rating_row(st));
  return out;
}

std::vector<RatingPoint> SqliteStore::rating_history(const std::string& subject, const std::string& family, int limit) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_,
          "SELECT table_id, rating, rd, at FROM rating_history WHERE subject = ? AND family = ? "
          "ORDER BY at DESC, rowid DESC LIMIT ?");
  st.text(1, subject);
  st.text(2, family);
  st.integer(3, limit);
  std::vector<RatingPoint> out;
  while (sqlite3_step(st.s) == SQLITE_ROW)
    out.push_back({st.col_text(0), sqlite3_column_double(st.s, 1), sqlite3_column_double(st.s, 2),
                   sqlite3_column_int64(st.s, 3)});
  return out;
}

std::optional<StoredPlayer> SqliteStore::player(const std::string& id) {
  return player_where("SELECT id, name, password, created FROM players WHERE id = ?", id);
}

std::optional<StoredPlayer> SqliteStore::player_by_key(const std::string& key_hash) {
  return player_where(
      "SELECT p.id, p.name, p.password, p.created FROM player_keys k JOIN players p ON p.id = k.player_id WHERE k.hash "
      "= ?",
      key_hash);
}

std::optional<StoredPlayer> SqliteStore::player_by_name(const std::string& name_key) {
  return player_where("SELECT id, name, password, created FROM players WHERE name_key = ?", name_key);
}

std::vector<PlayerGame> SqliteStore::player_games(const std::string& player_id, int limit) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_,
          "SELECT pt.table_id, pt.seat, t.spec, t.meta, t.created FROM player_tables pt JOIN tables t ON t.id = "
          "pt.table_id "
          "WHERE pt.player_id = ? ORDER BY t.created DESC, t.rowid DESC LIMIT ?");
  st.text(1, player_id);
  st.integer(2, limit);
  std::vector<PlayerGame> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) {
    PlayerGame g;
    g.table = st.col_text(0);
    g.seat = sqlite3_column_int(st.s, 1);
    // Only the game's name from the spec: it also holds the table's secrets.
    const auto spec = nlohmann::json::parse(st.col_text(2), nullptr, false);
    const auto meta = nlohmann::json::parse(st.col_text(3), nullptr, false);
    g.game = spec.is_object() ? spec.value("game", "") : "";
    g.over = finished_meta(meta);
    g.result = seat_result(meta, g.seat);
    g.created = sqlite3_column_int64(st.s, 4);
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<ChatLine> SqliteStore::load_chat(const std::string& id, size_t recent) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  std::vector<ChatLine> out;
  for (int audience = 0; audience < 2; ++audience) {
    Stmt st(db_,
            "SELECT n, seat, text, phrase, at, name FROM chat WHERE table_id = ? AND audience = ? ORDER BY n DESC "
            "LIMIT ?");
    st.text(1, id);
    st.integer(2, audience);
    st.integer(3, static_cast<int64_t>(recent));
    while (sqlite3_step(st.s) == SQLITE_ROW)
      out.push_back({static_cast<uint64_t>(sqlite3_column_int64(st.s, 0)), audience, sqlite3_column_int(st.s, 1),
                     st.col_text(2), st.col_text(3), sqlite3_column_int64(st.s, 4), st.col_text(5)});
  }
  std::sort(out.begin(), out.end(), [](const ChatLine& a, const ChatLine& b) { return a.n < b.n; });
  return out;
}

std::optional<StoredTable> SqliteStore::load(const std::string& id) {
  StoredTable t;
  {
    std::lock_guard lk(m_);
    if (!db_) throw Error("storage: the database is not open");
    Stmt st(db_, "SELECT id, spec, meta, created FROM tables WHERE id = ?");
    st.text(1, id);
    if (sqlite3_step(st.s) != SQLITE_ROW) return std::nullopt;
    t.id = st.col_text(0);
    t.spec = nlohmann::json::parse(st.col_text(1), nullptr, false);
    t.meta = nlohmann::json::parse(st.col_text(2), nullptr, false);
    t.created = sqlite3_column_int64(st.s, 3);
  }
  t.events = load_events(id);
  t.chat = load_chat(id, 50);
  return t;
}

std::vector<StoredTable> SqliteStore::load_all(const std::function<bool(const std::string&)>& keep) {
  std::vector<StoredTable> out;
  {
    std::lock_guard lk(m_);
    if (!db_) throw Error("storage: the database is not open");
    Stmt st(db_, finished_column_
                     ? "SELECT id, spec, meta, created FROM tables WHERE finished = 0 ORDER BY created, rowid"
                     : "SELECT id, spec, meta, created FROM tables ORDER BY created, rowid");
    while (sqlite3_step(st.s) == SQLITE_ROW) {
      StoredTable t;
      if (t.id = st.col_text(0); keep && !keep(t.id)) continue;
      t.meta = nlohmann::json::parse(st.col_text(2), nullptr, false);
      if (finished_meta(t.meta)) continue;
      t.spec = nlohmann::json::parse(st.col_text(1), nullptr, false);
      t.created = sqlite3_column_int64(st.s, 3);
      out.push_back(std::move(t));
    }
  }
  for (auto& t : out) {
    t.events = load_events(t.id);
    t.chat = load_chat(t.id, 50);
  }
  return out;
}

}  // namespace boneyard::server
