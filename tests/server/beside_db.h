#pragma once
// The server's SQLite database, opened beside the running server to add and
// drop a trigger (tests that make its writes fail on purpose).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace boneyard::test {

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
