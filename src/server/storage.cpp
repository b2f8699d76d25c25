#include "server/storage.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include "core/error.h"

namespace boneyard::server {

namespace {
struct Stmt {
  sqlite3_stmt* s = nullptr;
  Stmt(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
      throw Error(fmt::format("storage: {}", sqlite3_errmsg(db)));
  }
  ~Stmt() { sqlite3_finalize(s); }
  void text(int i, const std::string& v) { sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
  void integer(int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
  std::string col_text(int i) {
    const auto* p = sqlite3_column_text(s, i);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(s, i))) : std::string();
  }
};
}  // namespace

Storage::Storage(const std::string& path, bool full_sync) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(fmt::format("cannot open database '{}': {}", path, msg));
  }
  sqlite3_busy_timeout(db_, 5000);
  try {
    exec("PRAGMA journal_mode=WAL");
    exec(full_sync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    exec("CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL, meta TEXT NOT NULL, "
         "created INTEGER NOT NULL DEFAULT (strftime('%s','now')))");
    exec("CREATE TABLE IF NOT EXISTS events (table_id TEXT NOT NULL, idx INTEGER NOT NULL, chance INTEGER NOT NULL, "
         "seat INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (table_id, idx))");
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

Storage::~Storage() { sqlite3_close(db_); }

void Storage::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "?";
    sqlite3_free(err);
    throw Error(fmt::format("storage: {}", msg));
  }
}

void Storage::create_table(const std::string& id, const nlohmann::json& spec, const nlohmann::json& meta) {
  std::lock_guard lk(m_);
  Stmt st(db_, "INSERT INTO tables (id, spec, meta) VALUES (?, ?, ?)");
  st.text(1, id);
  st.text(2, spec.dump());
  st.text(3, meta.dump());
  if (sqlite3_step(st.s) != SQLITE_DONE) throw Error(fmt::format("storage: {}", sqlite3_errmsg(db_)));
}

void Storage::update_meta(const std::string& id, const nlohmann::json& meta) {
  std::lock_guard lk(m_);
  Stmt st(db_, "UPDATE tables SET meta = ? WHERE id = ?");
  st.text(1, meta.dump());
  st.text(2, id);
  if (sqlite3_step(st.s) != SQLITE_DONE) throw Error(fmt::format("storage: {}", sqlite3_errmsg(db_)));
}

void Storage::append_event(const std::string& id, size_t idx, const RecordEvent& e) {
  std::lock_guard lk(m_);
  Stmt st(db_, "INSERT INTO events (table_id, idx, chance, seat, text) VALUES (?, ?, ?, ?, ?)");
  st.text(1, id);
  st.integer(2, static_cast<int64_t>(idx));
  st.integer(3, e.chance ? 1 : 0);
  st.integer(4, e.seat);
  st.text(5, e.text);
  if (sqlite3_step(st.s) != SQLITE_DONE) throw Error(fmt::format("storage: {}", sqlite3_errmsg(db_)));
}

std::vector<RecordEvent> Storage::load_events(const std::string& id) {
  std::lock_guard lk(m_);
  Stmt st(db_, "SELECT chance, seat, text FROM events WHERE table_id = ? ORDER BY idx");
  st.text(1, id);
  std::vector<RecordEvent> out;
  while (sqlite3_step(st.s) == SQLITE_ROW)
    out.push_back({sqlite3_column_int(st.s, 0) != 0, sqlite3_column_int(st.s, 1), st.col_text(2)});
  return out;
}

std::vector<StoredTable> Storage::load_all() {
  std::vector<StoredTable> out;
  {
    std::lock_guard lk(m_);
    Stmt st(db_, "SELECT id, spec, meta FROM tables ORDER BY created, rowid");
    while (sqlite3_step(st.s) == SQLITE_ROW) {
      StoredTable t;
      t.id = st.col_text(0);
      t.spec = nlohmann::json::parse(st.col_text(1), nullptr, false);
      t.meta = nlohmann::json::parse(st.col_text(2), nullptr, false);
      out.push_back(std::move(t));
    }
  }
  for (auto& t : out) t.events = load_events(t.id);
  return out;
}

}  // namespace boneyard::server
