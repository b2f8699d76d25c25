// The SQLite store's social part (store.h, social.h): relations between
// players (follows, blocks), reports and the quick-match queue, each one
// statement outside the group commit (as the leases are).
#include <fmt/format.h>

#include <ctime>

#include "server/store_sqlite.h"
#include "server/store_sqlite_stmt.h"

namespace boneyard::server {

void SqliteStore::set_relation(const std::string& from, const std::string& to, int kind, bool on) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, on ? "INSERT INTO relations (player_id, other_id, kind, at) VALUES (?1, ?2, ?3, ?4) "
                    "ON CONFLICT DO NOTHING"
                  : "DELETE FROM relations WHERE player_id = ?1 AND other_id = ?2 AND kind = ?3");
  st.text(1, from);
  st.text(2, to);
  st.integer(3, kind);
  if (on) st.integer(4, static_cast<int64_t>(std::time(nullptr)));
  st.done();
}

std::vector<Relation> SqliteStore::relations(const std::string& from, int kind) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_,
          "SELECT r.player_id, r.other_id, r.at, COALESCE(p.name, '') FROM relations r LEFT JOIN players p ON p.id = "
          "r.other_id WHERE r.kind = ?1 AND (?2 = '' OR r.player_id = ?2) ORDER BY r.at, r.other_id");
  st.integer(1, kind);
  st.text(2, from);
  std::vector<Relation> out;
  while (sqlite3_step(st.s) == SQLITE_ROW)
    out.push_back(Relation{st.col_text(0), st.col_text(1), kind, sqlite3_column_int64(st.s, 2), st.col_text(3)});
  return out;
}

void SqliteStore::add_report(const StoredReport& r) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, "INSERT INTO reports (reporter, reported, table_id, reason, text, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  st.text(1, r.reporter);
  st.text(2, r.reported);
  st.text(3, r.table);
  st.text(4, r.reason);
  st.text(5, r.text);
  st.integer(6, r.at ? r.at : static_cast<int64_t>(std::time(nullptr)));
  st.done();
}

std::vector<StoredReport> SqliteStore::reports(int limit) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_,
          "SELECT r.id, r.reporter, r.reported, r.table_id, r.reason, r.text, r.at, COALESCE(a.name, ''), "
          "COALESCE(b.name, '') FROM reports r LEFT JOIN players a ON a.id = r.reporter LEFT JOIN players b ON b.id = "
          "r.reported ORDER BY r.id DESC LIMIT ?1");
  st.integer(1, limit);
  std::vector<StoredReport> out;
  while (sqlite3_step(st.s) == SQLITE_ROW)
    out.push_back(StoredReport{sqlite3_column_int64(st.s, 0), st.col_text(1), st.col_text(2), st.col_text(3),
                               st.col_text(4), st.col_text(5), sqlite3_column_int64(st.s, 6), st.col_text(7),
                               st.col_text(8)});
  return out;
}

// The fence (a lease row of this owner and epoch) is checked in the
// statement itself; SQLite runs one writer at a time, so no lease changes
// hands in between.
namespace {
constexpr const char* kSeekerFenced =
    "(?3 = '' OR EXISTS (SELECT 1 FROM leases WHERE shard = ?3 AND owner = ?4 AND epoch = ?5))";
void bind_fence(Stmt& st, const Write::Fence* f) {
  st.text(3, f ? f->shard : "");
  st.text(4, f ? f->owner : "");
  st.integer(5, f ? static_cast<int64_t>(f->epoch) : 0);
}
}  // namespace

bool SqliteStore::put_seeker(const std::string& player_id, const std::string& entry, const Write::Fence* fence) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, fmt::format("INSERT INTO quickmatch (player_id, entry) SELECT ?1, ?2 WHERE {} ON CONFLICT "
                           "(player_id) DO UPDATE SET entry = excluded.entry",
                           kSeekerFenced)
                   .c_str());
  st.text(1, player_id);
  st.text(2, entry);
  bind_fence(st, fence);
  st.done();
  return sqlite3_changes(db_) > 0;
}

bool SqliteStore::drop_seeker(const std::string& player_id, const Write::Fence* fence) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, fmt::format("SELECT {}", kSeekerFenced).c_str());
  bind_fence(st, fence);
  if (sqlite3_step(st.s) != SQLITE_ROW || sqlite3_column_int(st.s, 0) == 0) return false;
  Stmt del(db_, "DELETE FROM quickmatch WHERE player_id = ?1");
  del.text(1, player_id);
  del.done();
  return true;
}

std::vector<std::string> SqliteStore::seekers() {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, "SELECT entry FROM quickmatch ORDER BY player_id");
  std::vector<std::string> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) out.push_back(st.col_text(0));
  return out;
}

}  // namespace boneyard::server
