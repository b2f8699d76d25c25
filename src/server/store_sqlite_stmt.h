#pragma once
// A prepared SQLite statement for the SQLite store's sources
// (store_sqlite.cpp, store_sqlite_social.cpp, store_sqlite_leases.cpp): finalized (or, from the
// connection's cache, reset) when it goes out of scope.
#include <fmt/format.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "core/error.h"

namespace boneyard::server {

struct Stmt {
  sqlite3_stmt* s = nullptr;
  sqlite3* db;
  bool owned = true;
  Stmt(sqlite3* d, const char* sql) : db(d) {
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
      throw Error(fmt::format("storage: {}", sqlite3_errmsg(db)));
  }
  // A statement of the connection's cache (SqliteStore::cached): reset, not finalized.
  Stmt(sqlite3* d, sqlite3_stmt* cached) : s(cached), db(d), owned(false) {}
  ~Stmt() {
    if (owned) {
      sqlite3_finalize(s);
    } else {
      sqlite3_reset(s);
      sqlite3_clear_bindings(s);
    }
  }
  void text(int i, const std::string& v) {
    sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void integer(int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
  std::string col_text(int i) {
    const auto* p = sqlite3_column_text(s, i);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(s, i)))
             : std::string();
  }
  void done() {
    if (sqlite3_step(s) != SQLITE_DONE) throw Error(fmt::format("storage: {}", sqlite3_errmsg(db)));
  }
};

}  // namespace boneyard::server
