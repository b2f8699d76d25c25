// The PostgreSQL store's leases (store.h, shards.h): shard leases, a
// node's presence, and the quick-match queue written under a lease.
#include <ctime>

#include "server/store_pg_conn.h"

namespace boneyard::server {

namespace {
std::optional<Lease> lease_row(const PgStore::Result& r) {
  if (r.rows() == 0) return std::nullopt;
  return Lease{r.text(0, 0), r.text(0, 1), static_cast<uint64_t>(r.i64(0, 2)), r.i64(0, 3)};
}
}  // namespace

// As SQLite's (store_sqlite.cpp): taken when free, expired or the owner's;
// the epoch goes up when the shard changes hands.
std::optional<Lease> PgStore::acquire_lease(const std::string& shard, const std::string& owner, int ttl_s) {
  return read([&](Conn& c) {
    return lease_row(
        run(c, "acquire_lease",
            "INSERT INTO leases (shard, owner, epoch, expires) VALUES ($1, $2, 1, $3::bigint + $4::bigint) "
            "ON CONFLICT (shard) DO UPDATE SET "
            "epoch = CASE WHEN leases.owner = excluded.owner AND leases.expires > $3::bigint "
            "THEN leases.epoch ELSE leases.epoch + 1 END, owner = excluded.owner, expires = "
            "excluded.expires WHERE leases.owner = excluded.owner OR leases.expires <= $3::bigint "
            "RETURNING shard, owner, epoch, expires",
            {shard, owner, pg_num(static_cast<int64_t>(std::time(nullptr))), pg_num(int64_t{ttl_s})}));
  });
}

std::vector<Lease> PgStore::renew_leases(const std::vector<std::string>& shards, const std::string& owner, int ttl_s) {
  if (shards.empty()) return {};
  const std::string array = pg_text_array(shards);
  return read([&](Conn& c) {
    Result r = run(c, "renew_leases",
                   "UPDATE leases SET expires = $3::bigint + $4::bigint WHERE shard = ANY($1::text[]) AND owner = $2 "
                   "AND expires > $3::bigint RETURNING shard, owner, epoch, expires",
                   {array, owner, pg_num(static_cast<int64_t>(std::time(nullptr))), pg_num(int64_t{ttl_s})});
    std::vector<Lease> out;
    for (int i = 0; i < r.rows(); ++i)
      out.push_back(Lease{r.text(i, 0), r.text(i, 1), static_cast<uint64_t>(r.i64(i, 2)), r.i64(i, 3)});
    return out;
  });
}

void PgStore::release_lease(const std::string& shard, const std::string& owner) {
  read([&](Conn& c) {
    run(c, "release_lease", "UPDATE leases SET expires = 0 WHERE shard = $1 AND owner = $2", {shard, owner});
    return 0;
  });
}

// A node's presence is a session-level advisory lock on ("Bony",
// hashtext(schema/node)) in this database: pg_locks shows it while the
// session lives (the schema: several stores in one database, as the tests
// have, do not share node names). Two names of one hash would make a dead node look present: its
// leases then lapse as before.
#define BONEYARD_PRESENT(owner)                                                                  \
  "(hashtext(current_schema() || '/' || " owner                                                  \
  ")::oid IN (SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = " \
  "1114598009 AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())))"

std::vector<Lease> PgStore::leases() {
  return read([&](Conn& c) {
    Result r = run(c, "leases",
                   "SELECT shard, owner, epoch, expires, " BONEYARD_PRESENT("owner") " FROM leases ORDER BY shard", {});
    std::vector<Lease> out;
    for (int i = 0; i < r.rows(); ++i)
      out.push_back(
          Lease{r.text(i, 0), r.text(i, 1), static_cast<uint64_t>(r.i64(i, 2)), r.i64(i, 3), r.text(i, 4) == "t"});
    return out;
  });
}

// Its own connection, outside the pool: the lock lives as long as it does.
Store::Presence PgStore::hold_presence(const std::string& node) {
  std::lock_guard lk(presence_m_);
  for (int attempt = 0;; ++attempt) {
    bool fresh = false;
    try {
      if (!presence_ || PQstatus(presence_->pg) != CONNECTION_OK) {
        presence_.reset();
        presence_ = connect();
        fresh = true;
      }
      // 1114598009 is "Bony" in ASCII. Asked before taken: taking it again
      // would stack one more hold each round.
      Result r = run(*presence_, "hold_presence",
                     "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = "
                     "pg_backend_pid() AND classid = 1114598009 AND objid = hashtext(current_schema() || '/' || "
                     "$1)::oid AND objsubid = 2) THEN "
                     "'held' WHEN pg_try_advisory_lock(1114598009, hashtext(current_schema() || '/' || $1)) THEN "
                     "'fresh' ELSE 'elsewhere' END",
                     {node});
      const std::string got = r.text(0, 0);
      if (got == "held") return fresh ? Presence::fresh : Presence::held;
      return got == "fresh" ? Presence::fresh : Presence::elsewhere;
    } catch (const Error&) {
      // The session broke (PostgreSQL restarted): once more on a new one.
      if (attempt > 0 || !presence_ || PQstatus(presence_->pg) == CONNECTION_OK) throw;
      presence_.reset();
    }
  }
}

std::optional<Lease> PgStore::take_lease_from_absent(const std::string& shard, const std::string& owner,
                                                     const std::string& absent, int ttl_s) {
  return read([&](Conn& c) {
    return lease_row(
        run(c, "take_lease_from_absent",
            "UPDATE leases SET owner = $2, epoch = epoch + 1, expires = $4::bigint + $5::bigint WHERE "
            "shard = $1 AND owner = $3 AND NOT " BONEYARD_PRESENT("$3") " RETURNING shard, owner, epoch, "
                                                                        "expires",
            {shard, owner, absent, pg_num(static_cast<int64_t>(std::time(nullptr))), pg_num(int64_t{ttl_s})}));
  });
}
#undef BONEYARD_PRESENT

std::optional<Lease> PgStore::lease(const std::string& shard) {
  return read([&](Conn& c) {
    return lease_row(run(c, "lease", "SELECT shard, owner, epoch, expires FROM leases WHERE shard = $1", {shard}));
  });
}

// The fence as a table's (commit): the lease row held FOR SHARE until the
// statement commits, so a node taking the queue's shard waits for it, then
// reads the queue with it; a write after that is refused.
#define BONEYARD_FENCE_CTE(shard, owner, epoch)                                                    \
  "WITH f AS (SELECT 1 FROM leases WHERE " shard " <> '' AND shard = " shard " AND owner = " owner \
  " AND epoch = " epoch "::bigint FOR SHARE) "
#define BONEYARD_FENCE_OK(shard) "(" shard " = '' OR EXISTS (SELECT 1 FROM f))"

namespace {
std::vector<std::string> fence_params(const Write::Fence* f) {
  if (!f) return {"", "", "0"};
  return {f->shard, f->owner, std::to_string(f->epoch)};
}
}  // namespace

bool PgStore::put_seeker(const std::string& player_id, const std::string& entry, const Write::Fence* fence) {
  std::vector<std::string> params{player_id, entry};
  for (auto& p : fence_params(fence)) params.push_back(std::move(p));
  return read([&](Conn& c) {
    return run(c, "put_seeker",
               BONEYARD_FENCE_CTE("$3", "$4", "$5") ", p AS (INSERT INTO quickmatch (player_id, entry) SELECT $1, $2 "
                                                    "WHERE " BONEYARD_FENCE_OK("$3") " ON CONFLICT (player_id) DO "
                                                    "UPDATE SET entry = excluded.entry RETURNING 1) SELECT " BONEYARD_FENCE_OK("$3"),
               params)
               .text(0, 0) == "t";
  });
}

bool PgStore::drop_seeker(const std::string& player_id, const Write::Fence* fence) {
  std::vector<std::string> params{player_id};
  for (auto& p : fence_params(fence)) params.push_back(std::move(p));
  return read([&](Conn& c) {
    return run(c, "drop_seeker",
               BONEYARD_FENCE_CTE("$2", "$3", "$4") ", d AS (DELETE FROM quickmatch WHERE player_id = $1 AND "
                                                    BONEYARD_FENCE_OK("$2") " RETURNING 1) SELECT " BONEYARD_FENCE_OK("$2"),
               params)
               .text(0, 0) == "t";
  });
}
#undef BONEYARD_FENCE_CTE
#undef BONEYARD_FENCE_OK

std::vector<std::string> PgStore::seekers() {
  return read([&](Conn& c) {
    Result r = run(c, "seekers", "SELECT entry FROM quickmatch ORDER BY player_id", {});
    std::vector<std::string> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
    return out;
  });
}

}  // namespace boneyard::server
