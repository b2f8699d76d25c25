// The SQLite store's shard leases (store.h, shards.h): each one statement
// (or one transaction) outside the group commit.
#include <fmt/format.h>

#include <ctime>

#include "server/store_sqlite.h"
#include "server/store_sqlite_stmt.h"

namespace boneyard::server {

namespace {
// Taken when free, expired or already the owner's; the epoch goes up
// whenever the shard changes hands (or its owner comes back after expiry).
constexpr const char* kAcquireLeaseSql =
    "INSERT INTO leases (shard, owner, epoch, expires) VALUES (?1, ?2, 1, ?3 + ?4) "
    "ON CONFLICT (shard) DO UPDATE SET "
    "epoch = CASE WHEN leases.owner = excluded.owner AND leases.expires > ?3 THEN leases.epoch "
    "ELSE leases.epoch + 1 END, owner = excluded.owner, expires = excluded.expires "
    "WHERE leases.owner = excluded.owner OR leases.expires <= ?3 "
    "RETURNING shard, owner, epoch, expires";
// Expired, not deleted: the epoch must keep growing.
constexpr const char* kReleaseLeaseSql = "UPDATE leases SET expires = 0 WHERE shard = ?1 AND owner = ?2";

Lease lease_row(Stmt& st) {
  return {st.col_text(0), st.col_text(1), static_cast<uint64_t>(sqlite3_column_int64(st.s, 2)),
          sqlite3_column_int64(st.s, 3)};
}
}  // namespace

std::optional<Lease> SqliteStore::acquire_lease(const std::string& shard, const std::string& owner, int ttl_s) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, kAcquireLeaseSql);
  st.text(1, shard);
  st.text(2, owner);
  st.integer(3, static_cast<int64_t>(std::time(nullptr)));
  st.integer(4, ttl_s);
  const int rc = sqlite3_step(st.s);
  if (rc == SQLITE_ROW) return lease_row(st);
  if (rc != SQLITE_DONE) throw Error(fmt::format("storage: {}", sqlite3_errmsg(db_)));
  return std::nullopt;
}

std::vector<Lease> SqliteStore::renew_leases(const std::vector<std::string>& shards, const std::string& owner,
                                             int ttl_s) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  std::vector<Lease> out;
  exec("BEGIN IMMEDIATE");
  try {
    for (const auto& shard : shards) {
      Stmt st(db_,
              "UPDATE leases SET expires = ?3 + ?4 WHERE shard = ?1 AND owner = ?2 AND expires > ?3 RETURNING shard, "
              "owner, epoch, expires");
      st.text(1, shard);
      st.text(2, owner);
      st.integer(3, now);
      st.integer(4, ttl_s);
      const int rc = sqlite3_step(st.s);
      if (rc == SQLITE_ROW)
        out.push_back(lease_row(st));
      else if (rc != SQLITE_DONE)
        throw Error(fmt::format("storage: {}", sqlite3_errmsg(db_)));
    }
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
  return out;
}

void SqliteStore::release_lease(const std::string& shard, const std::string& owner) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, kReleaseLeaseSql);
  st.text(1, shard);
  st.text(2, owner);
  st.done();
}

std::vector<Lease> SqliteStore::leases() {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, "SELECT shard, owner, epoch, expires FROM leases ORDER BY shard");
  std::vector<Lease> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) out.push_back(lease_row(st));
  return out;
}

std::optional<Lease> SqliteStore::lease(const std::string& shard) {
  std::lock_guard lk(m_);
  if (!db_) throw Error("storage: the database is not open");
  Stmt st(db_, "SELECT shard, owner, epoch, expires FROM leases WHERE shard = ?1");
  st.text(1, shard);
  if (sqlite3_step(st.s) != SQLITE_ROW) return std::nullopt;
  return lease_row(st);
}

}  // namespace boneyard::server
