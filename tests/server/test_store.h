#pragma once
// The store the server tests run against (docs/server.md, "Storage"):
// SQLite by default; PostgreSQL when BONEYARD_TEST_STORE=postgresql, reached
// through libpq's environment (PGHOST, PGPORT, PGUSER, PGPASSWORD), which
// pg_virtualenv sets: CMake runs the server tests a second time inside one
// (ctest -R server_postgresql). A test that cannot reach it fails.
#include <fmt/format.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace boneyard::test {

inline bool testing_postgres() {
  const char* s = std::getenv("BONEYARD_TEST_STORE");
  return s && std::string(s) == "postgresql";
}

// One statement on the test cluster (libpq's environment); the first row's
// first value, if any. Throws when PostgreSQL cannot be reached.
inline std::string pg_exec(const std::string& sql) {
  PGconn* c = PQconnectdb("");
  if (PQstatus(c) != CONNECTION_OK) {
    const std::string m = PQerrorMessage(c);
    PQfinish(c);
    throw std::runtime_error("BONEYARD_TEST_STORE=postgresql, but PostgreSQL cannot be reached: " + m);
  }
  PGresult* r = PQexec(c, sql.c_str());
  const auto st = PQresultStatus(r);
  std::string out = st == PGRES_TUPLES_OK && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
  const std::string m = PQerrorMessage(c);
  PQclear(r);
  PQfinish(c);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) throw std::runtime_error("PostgreSQL: " + m + " in: " + sql);
  return out;
}

// The database a test opens where it would open the SQLite file `path`:
// under PostgreSQL, a schema of its own, the same one each time the test
// names the same path (a restart finds what it stored), a fresh one for
// each ":memory:". The URL puts the schema first on the search_path.
inline std::string test_db(const std::string& path) {
  if (!testing_postgres()) return path;
  static std::mutex m;
  static std::map<std::string, std::string> schemas;
  static int n = 0;
  std::lock_guard lk(m);
  auto it = schemas.find(path);
  if (it == schemas.end() || path == ":memory:") {
    const std::string schema = fmt::format("t{}_{}", getpid(), n++);
    pg_exec("CREATE SCHEMA " + schema);
    it = schemas.insert_or_assign(path, schema).first;
  }
  return "postgresql:///?options=-csearch_path%3D" + it->second;
}

}  // namespace boneyard::test
