#include "server/store.h"

#include <fmt/format.h>

#include "core/error.h"
#include "server/store_pg.h"
#include "server/store_sqlite.h"

namespace boneyard::server {

bool is_postgres_url(const std::string& db) {
  return db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
}

// user:PASSWORD@host and ?password=PASSWORD (libpq's URI forms).
std::string redact_db(const std::string& db) {
  if (!is_postgres_url(db)) return db;
  std::string out = db;
  const size_t scheme = out.find("://") + 3;
  const size_t at = out.find('@', scheme);
  const size_t slash = out.find('/', scheme);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
    const size_t colon = out.find(':', scheme);
    if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  for (size_t p = out.find("password=", out.find('?')); out.find('?') != std::string::npos && p != std::string::npos;
       p = out.find("password=", p + 1)) {
    if (p > 0 && out[p - 1] != '?' && out[p - 1] != '&') continue;
    const size_t v = p + 9;
    const size_t end = out.find('&', v);
    out.replace(v, (end == std::string::npos ? out.size() : end) - v, "***");
  }
  return out;
}

std::string newer_schema(const std::string& what, int version) {
  return fmt::format(
      "{} has schema version {}, newer than this boneyard's ({}): it was written by a newer build; run that one, or "
      "give this one another --db",
      what, version, kSchemaVersion);
}

std::unique_ptr<Store> open_store(const std::string& db, const StoreOptions& opt) {
  if (is_postgres_url(db)) return std::make_unique<PgStore>(db, opt);
  return std::make_unique<SqliteStore>(db, opt.full_sync);
}

}  // namespace boneyard::server
