#pragma once
// The server's SQLite database, opened beside the running server to add and
// drop a trigger (tests that make its writes fail on purpose).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "test_store.h"

namespace boneyard::test {

// One statement on a test database (SQLite or the test's PostgreSQL
// schema, test_store.h); the first value of its first row.
inline std::string on_db(const std::string& db, const std::string& q) {
  if (testing_postgres()) return pg_exec(fmt::format("SET search_path TO {}; {}", db.substr(db.rfind("%3D") + 3), q));
  sqlite3* h = nullptr;
  std::string out;
  if (sqlite3_open(db.c_str(), &h) == SQLITE_OK) {
    sqlite3_busy_timeout(h, 10000);
    sqlite3_exec(
        h, q.c_str(),
        [](void* o, int, char** v, char**) {
          if (v[0]) *static_cast<std::string*>(o) = v[0];
          return 0;
        },
        &out, nullptr);
  }
  sqlite3_close(h);
  return out;
}

inline void sql(const std::string& db, const std::string& statement) {
  sqlite3* c = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &c), SQLITE_OK);
  sqlite3_busy_timeout(c, 10000);
  char* err = nullptr;
  const int rc = sqlite3_exec(c, statement.c_str(), nullptr, nullptr, &err);
  const std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(c);
  ASSERT_EQ(rc, SQLITE_OK) << msg;
}

}  // namespace boneyard::test
