// The PostgreSQL store's schema (store_pg.h): each table's CREATE, run in
// one transaction with the schema's version row (PgStore::create_schema).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "server/store_pg.h"

namespace boneyard::server {

// The schema: SQLite's (store_sqlite.cpp), in PostgreSQL's types. seq keeps
// the insertion order that SQLite's rowid gives.
const std::vector<std::string>& pg_schema() {
  static const std::vector<std::string> s = {
      fmt::format("CREATE TABLE IF NOT EXISTS tables (seq BIGSERIAL, id TEXT PRIMARY KEY, spec TEXT NOT NULL, "
                  "meta TEXT NOT NULL, created BIGINT NOT NULL DEFAULT {})",
                  "extract(epoch from now())::bigint"),
      "CREATE TABLE IF NOT EXISTS events (table_id TEXT NOT NULL, idx BIGINT NOT NULL, chance INTEGER NOT NULL, "
      "seat INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (table_id, idx))",
      fmt::format("CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT "
                  "NULL UNIQUE, password TEXT NOT NULL DEFAULT '', created BIGINT NOT NULL DEFAULT {})",
                  "extract(epoch from now())::bigint"),
      "CREATE TABLE IF NOT EXISTS player_keys (hash TEXT PRIMARY KEY, player_id TEXT NOT NULL)",
      "CREATE INDEX IF NOT EXISTS player_keys_player ON player_keys (player_id)",
      "CREATE TABLE IF NOT EXISTS player_tables (player_id TEXT NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT "
      "NULL, PRIMARY KEY (player_id, table_id, seat))",
      "CREATE TABLE IF NOT EXISTS chat (table_id TEXT NOT NULL, n BIGINT NOT NULL, audience INTEGER NOT NULL, "
      "seat INTEGER NOT NULL, text TEXT NOT NULL, phrase TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (table_id, "
      "n))",
      "ALTER TABLE chat ADD COLUMN IF NOT EXISTS name TEXT NOT NULL DEFAULT ''",
      // 5: a finished table (its meta says "over"), so a restart reads only the live ones.
      "ALTER TABLE tables ADD COLUMN IF NOT EXISTS finished BOOLEAN NOT NULL DEFAULT false",
      "CREATE TABLE IF NOT EXISTS probe (k INTEGER PRIMARY KEY, at BIGINT NOT NULL)",
      "CREATE TABLE IF NOT EXISTS leases (shard TEXT PRIMARY KEY, owner TEXT NOT NULL, epoch BIGINT NOT NULL, "
      "expires BIGINT NOT NULL)",
      "CREATE TABLE IF NOT EXISTS ratings (subject TEXT NOT NULL, family TEXT NOT NULL, rating DOUBLE PRECISION NOT "
      "NULL, rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL, PRIMARY KEY "
      "(subject, family))",
      "CREATE TABLE IF NOT EXISTS rating_history (seq BIGSERIAL, subject TEXT NOT NULL, family TEXT NOT NULL, "
      "table_id TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL, at BIGINT NOT NULL, "
      "PRIMARY KEY (subject, family, table_id))",
      "CREATE INDEX IF NOT EXISTS player_tables_table ON player_tables (table_id)",
      // Social (3): follows and blocks; reports for the operator.
      "CREATE TABLE IF NOT EXISTS relations (player_id TEXT NOT NULL, other_id TEXT NOT NULL, kind INTEGER NOT "
      "NULL, at BIGINT NOT NULL, PRIMARY KEY (player_id, kind, other_id))",
      "CREATE TABLE IF NOT EXISTS reports (id BIGSERIAL PRIMARY KEY, reporter TEXT NOT NULL, reported TEXT NOT NULL, "
      "table_id TEXT NOT NULL, reason TEXT NOT NULL, text TEXT NOT NULL, at BIGINT NOT NULL)",
      // Quick match (4): the players waiting (or just seated), one row each.
      "CREATE TABLE IF NOT EXISTS quickmatch (player_id TEXT PRIMARY KEY, entry TEXT NOT NULL)",
  };
  return s;
}

}  // namespace boneyard::server
