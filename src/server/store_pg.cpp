#include "server/store_pg.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <map>

#include "core/error.h"
#include "server/players.h"
#include "server/store_pg_conn.h"

namespace boneyard::server {

namespace {

// The URL's password (user:PASSWORD@ or password=PASSWORD), percent-decoded
// as libpq reads it, to be scrubbed from every message.
std::string url_password(const std::string& url) {
  auto decode = [](const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '%' && i + 2 < s.size()) {
        int v = 0;
        if (std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16).ec == std::errc()) {
          out += static_cast<char>(v);
          i += 2;
          continue;
        }
      }
      out += s[i];
    }
    return out;
  };
  const std::string shown = redact_db(url);
  // Where the redacted form says ***, the original has the password.
  const size_t star = shown.find("***");
  if (star == std::string::npos) return {};
  const size_t end = url.find_first_of("@&", star);
  return decode(url.substr(star, (end == std::string::npos ? url.size() : end) - star));
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  // libpq's several lines (one per address tried) as one.
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

constexpr const char* kNow = "extract(epoch from now())::bigint";

// The writer's statements, prepared on its connection when it connects (a
// pipeline cannot stop to prepare).
struct Sql {
  const char* name;
  std::string text;
};
const std::vector<Sql>& writer_sql() {
  static const std::vector<Sql> s = {
      {"player_insert", "INSERT INTO players (id, name, name_key, password) VALUES ($1, $2, $3, $4)"},
      {"player_password", "UPDATE players SET password = $1 WHERE id = $2"},
      {"player_key", "INSERT INTO player_keys (hash, player_id) VALUES ($1, $2)"},
      {"player_revoke", "DELETE FROM player_keys WHERE player_id = $1 AND hash <> $2"},
      {"probe",
       fmt::format("INSERT INTO probe (k, at) VALUES (1, {}) ON CONFLICT (k) DO UPDATE SET at = excluded.at", kNow)},
      // One rated game's change of one rating, exactly once: its history
      // row (subject, family, table) is the receipt. A write stored twice
      // (a commit in doubt, written again) finds it (xmax is not 0 for a row
      // updated rather than inserted): the history row is rewritten, the
      // rating is not changed again;
      // two nodes' games of one subject at once each add their change to
      // the stored rating ($9: the rating it was computed from; NaN: set).
      {"rating",
       fmt::format(
           "WITH h AS (INSERT INTO rating_history (subject, family, table_id, rating, rd, at) VALUES ($1, $2, "
           "$7, $3::double precision, $4::double precision, CASE WHEN $8::bigint > 0 THEN $8::bigint ELSE {} "
           "END) ON CONFLICT (subject, family, table_id) DO UPDATE SET seq = DEFAULT, rating = excluded.rating, "
           "rd = excluded.rd, at = excluded.at RETURNING (xmax = 0) AS fresh) "
           "INSERT INTO ratings (subject, family, rating, rd, volatility, games) SELECT $1, $2, "
           "$3::double precision, $4::double precision, $5::double precision, $6::integer FROM h WHERE h.fresh "
           "ON CONFLICT (subject, family) DO UPDATE SET rating = CASE WHEN $9::double precision = 'NaN' "
           "THEN excluded.rating ELSE ratings.rating + (excluded.rating - $9::double precision) END, "
           "rd = excluded.rd, volatility = excluded.volatility, games = ratings.games + 1",
           kNow)},
      {"erase_events", "DELETE FROM events WHERE table_id = $1"},
      {"erase_chat", "DELETE FROM chat WHERE table_id = $1"},
      {"erase_table", "DELETE FROM tables WHERE id = $1"},
      {"erase_player_tables", "DELETE FROM player_tables WHERE table_id = $1"},
      {"player_table",
       "INSERT INTO player_tables (player_id, table_id, seat) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"},
      {"table_insert", "INSERT INTO tables (id, spec, meta, finished) VALUES ($1, $2, $3, $4::boolean)"},
      {"meta", "UPDATE tables SET meta = $1, finished = $3::boolean WHERE id = $2"},
      {"chat_insert",
       "INSERT INTO chat (table_id, n, audience, seat, text, phrase, at, name) VALUES ($1, $2, $3, $4, $5, $6, $7, "
       "$8)"},
      {"event_insert", "INSERT INTO events (table_id, idx, chance, seat, text) VALUES ($1, $2, $3, $4, $5)"},
      {"events_from", "DELETE FROM events WHERE table_id = $1 AND idx >= $2"},
      {"chat_from", "DELETE FROM chat WHERE table_id = $1 AND n >= $2"},
      {"fence", "SELECT shard, owner, epoch FROM leases WHERE shard = ANY($1::text[]) FOR SHARE"},
  };
  return s;
}

// Statements sent at once before reading their results: bounds what waits
// in either side's socket buffer (a pipeline too long would deadlock).
constexpr size_t kPipelineChunk = 256;

}  // namespace

PgStore::Conn::~Conn() { PQfinish(pg); }

PgStore::PgStore(const std::string& url, const StoreOptions& opt)
    : url_(url), shown_(redact_db(url)), password_(url_password(url)), opt_(opt) {
  opt_.pool = std::max(1, opt_.pool);
  writer_ = connect();
  create_schema(*writer_);
  // One read connection now: a pool that cannot connect is found at start.
  give(connect());
}

PgStore::~PgStore() = default;

std::string PgStore::message(PGconn* pg) const {
  std::string m = trim(pg ? PQerrorMessage(pg) : "out of memory");
  if (!password_.empty())
    for (size_t p = m.find(password_); p != std::string::npos; p = m.find(password_, p))
      m.replace(p, password_.size(), "***");
  return m;
}

// Defaults first: whatever the URL says wins (expand_dbname). The keepalives
// and the user timeout make a vanished server an error within seconds,
// instead of a writer blocked for the kernel's 15 minutes.
std::unique_ptr<PgStore::Conn> PgStore::connect() const {
  const char* keys[] = {"connect_timeout",  "application_name", "keepalives_idle", "keepalives_interval",
                        "keepalives_count", "tcp_user_timeout", "dbname",          nullptr};
  const char* vals[] = {"10", "boneyard", "5", "2", "3", "10000", url_.c_str(), nullptr};
  auto c = std::make_unique<Conn>();
  c->pg = PQconnectdbParams(keys, vals, 1);
  if (!c->pg || PQstatus(c->pg) != CONNECTION_OK)
    throw Error(fmt::format("cannot connect to PostgreSQL at {}: {}", shown_, message(c->pg)));
  // CREATE ... IF NOT EXISTS says "already exists" as a notice: not for stderr.
  PQsetNoticeProcessor(
      c->pg, [](void*, const char*) {}, nullptr);
  return c;
}

PgStore::Result PgStore::run(Conn& c, const char* name, const char* sql, const std::vector<std::string>& params) const {
  if (!c.prepared.count(name)) {
    Result p(PQprepare(c.pg, name, sql, 0, nullptr));
    if (PQresultStatus(p.r()) != PGRES_COMMAND_OK) throw Error(fmt::format("PostgreSQL: {}", message(c.pg)));
    c.prepared.insert(name);
  }
  std::vector<const char*> v;
  v.reserve(params.size());
  for (const auto& p : params) v.push_back(p.c_str());
  Result r(PQexecPrepared(c.pg, name, static_cast<int>(v.size()), v.data(), nullptr, nullptr, 0));
  const auto st = PQresultStatus(r.r());
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) throw Error(fmt::format("PostgreSQL: {}", message(c.pg)));
  return r;
}

// The schema and its version row, in one transaction; an advisory lock
// keeps two nodes starting at once from racing on CREATE.
void PgStore::create_schema(Conn& c) const {
  auto exec = [&](const std::string& sql, const std::vector<std::string>& params = {}) {
    std::vector<const char*> v;
    for (const auto& p : params) v.push_back(p.c_str());
    Result r(PQexecParams(c.pg, sql.c_str(), static_cast<int>(v.size()), nullptr, v.data(), nullptr, nullptr, 0));
    const auto st = PQresultStatus(r.r());
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
      const std::string m = message(c.pg);
      Result(PQexec(c.pg, "ROLLBACK"));
      throw Error(fmt::format("PostgreSQL at {}: {}", shown_, m));
    }
    return r;
  };
  exec("BEGIN");
  exec("SELECT pg_advisory_xact_lock(7297361447)");
  exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  Result v = exec("SELECT version FROM schema_version");
  const int version = v.rows() > 0 ? static_cast<int>(v.i64(0, 0)) : 0;
  if (version > kSchemaVersion) {
    Result(PQexec(c.pg, "ROLLBACK"));
    throw Error(newer_schema(fmt::format("the PostgreSQL database at {}", shown_), version));
  }
  for (const auto& sql : pg_schema()) exec(sql);
  // Later versions' migrations go here, in order.
  if (version == 1) {
    // 2: the chat's name column is added above; names compared by skeleton
    // (a name that now matches an older one keeps its old key).
    Result players = exec("SELECT id, name FROM players");
    for (int i = 0; i < players.rows(); ++i)
      exec("UPDATE players SET name_key = $1 WHERE id = $2 AND NOT EXISTS (SELECT 1 FROM players WHERE name_key = $1)",
           {name_key(players.text(i, 1)), players.text(i, 0)});
  }
  // 3: the social tables; 4: the quick-match queue; 5: tables.finished; each
  // made above. The finished tables are marked from their meta (JSON that
  // does not parse stays live: the hub reports it when it loads).
  if (version >= 1 && version <= 4) {
    Result tables = exec("SELECT id, meta FROM tables");
    std::vector<std::string> over;
    for (int i = 0; i < tables.rows(); ++i)
      if (finished_meta(nlohmann::json::parse(tables.text(i, 1), nullptr, false))) over.push_back(tables.text(i, 0));
    exec("UPDATE tables SET finished = true WHERE id = ANY($1::text[])", {pg_text_array(over)});
    exec(fmt::format("UPDATE schema_version SET version = {}", kSchemaVersion));
  }
  if (version == 0) exec(fmt::format("INSERT INTO schema_version (version) VALUES ({})", kSchemaVersion));
  exec("COMMIT");
}

std::unique_ptr<PgStore::Conn> PgStore::take() {
  std::unique_lock lk(pool_m_);
  pool_cv_.wait(lk, [&] { return !idle_.empty() || out_ + static_cast<int>(idle_.size()) < opt_.pool; });
  ++out_;
  if (!idle_.empty()) {
    auto c = std::move(idle_.back());
    idle_.pop_back();
    return c;
  }
  lk.unlock();
  try {
    return connect();
  } catch (...) {
    lk.lock();
    --out_;
    pool_cv_.notify_one();
    throw;
  }
}

void PgStore::give(std::unique_ptr<Conn> c) {
  std::lock_guard lk(pool_m_);
  if (c && PQstatus(c->pg) == CONNECTION_OK) idle_.push_back(std::move(c));
  if (out_ > 0) --out_;
  pool_cv_.notify_one();
}

std::vector<size_t> PgStore::send_group(const std::vector<const Write*>& group) {
  PGconn* pg = writer_->pg;
  std::string err;
  size_t pending = 0;
  auto collect = [&] {
    if (!PQpipelineSync(pg)) {
      if (err.empty()) err = message(pg);
      return;
    }
    for (;;) {
      PGresult* r = PQgetResult(pg);
      if (!r) {
        if (PQstatus(pg) != CONNECTION_OK) {
          if (err.empty()) err = message(pg);
          return;
        }
        continue;  // the end of one statement's results
      }
      const auto st = PQresultStatus(r);
      if (st == PGRES_FATAL_ERROR && err.empty()) err = trim(PQresultErrorMessage(r));
      PQclear(r);
      if (st == PGRES_PIPELINE_SYNC) break;
    }
    pending = 0;
  };
  auto send = [&](const char* name, const std::vector<std::string>& params) {
    if (!err.empty()) return;
    std::vector<const char*> v;
    v.reserve(params.size());
    for (const auto& p : params) v.push_back(p.c_str());
    if (!PQsendQueryPrepared(pg, name, static_cast<int>(v.size()), v.data(), nullptr, nullptr, 0)) {
      err = message(pg);
      return;
    }
    if (++pending >= kPipelineChunk) collect();
  };
  // Fences (store.h): before the writes, in their transaction, the lease
  // rows they name are read FOR SHARE, so a takeover (which updates the row)
  // waits for this commit, and after it this node's writes see the new
  // epoch and are refused. One round trip more, only for fenced groups.
  std::vector<size_t> fenced;
  std::vector<char> skip(group.size(), 0);
  std::string shards;
  for (const Write* w : group)
    if (w->fence && shards.find("\"" + w->fence->shard + "\"") == std::string::npos)
      shards += (shards.empty() ? "\"" : ",\"") + w->fence->shard + "\"";
  const bool begun = !shards.empty();
  if (begun) {
    Result b(PQexec(pg, "BEGIN"));
    if (PQresultStatus(b.r()) != PGRES_COMMAND_OK) throw Error(fmt::format("PostgreSQL: {}", message(pg)));
    const std::string array = "{" + shards + "}";
    const char* param = array.c_str();
    Result r(PQexecPrepared(pg, "fence", 1, &param, nullptr, nullptr, 0));
    if (PQresultStatus(r.r()) != PGRES_TUPLES_OK) throw Error(fmt::format("PostgreSQL: {}", message(pg)));
    std::map<std::string, std::pair<std::string, uint64_t>> holders;
    for (int i = 0; i < r.rows(); ++i) holders[r.text(i, 0)] = {r.text(i, 1), static_cast<uint64_t>(r.i64(i, 2))};
    for (size_t i = 0; i < group.size(); ++i) {
      const auto& f = group[i]->fence;
      if (!f) continue;
      auto it = holders.find(f->shard);
      if (it == holders.end() || it->second.first != f->owner || it->second.second != f->epoch) {
        skip[i] = 1;
        fenced.push_back(i);
      }
    }
  }
  if (!PQenterPipelineMode(pg)) throw Error(fmt::format("PostgreSQL: {}", message(pg)));
  if (!begun && !PQsendQueryParams(pg, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0)) err = message(pg);
  for (size_t gi = 0; gi < group.size(); ++gi) {
    if (skip[gi]) continue;
    const Write& w = *group[gi];
    if (w.player) {
      if (!w.player_exists)
        send("player_insert", {w.player->id, w.player->name, name_key(w.player->name), w.player->password});
      else if (w.set_password)
        send("player_password", {w.player->password, w.player->id});
      if (w.revoke_keys) send("player_revoke", {w.player->id, w.keep_key_hash});
      if (!w.key_hash.empty()) send("player_key", {w.key_hash, w.player->id});
      continue;
    }
    if (w.table.empty()) {
      send("probe", {});
      continue;
    }
    for (const StoredRating& r : w.ratings) {
      send("rating",
           {r.subject, r.family, pg_num(r.rating), pg_num(r.rd), pg_num(r.volatility), pg_num(int64_t{r.games}),
            w.table, pg_num(r.last), std::isnan(r.from) ? std::string("NaN") : pg_num(r.from)});
    }
    if (w.erase) {
      for (const char* s : {"erase_events", "erase_chat", "erase_table", "erase_player_tables"}) send(s, {w.table});
      continue;
    }
    if (w.meta && w.meta->contains("player_ids") && (*w.meta)["player_ids"].is_array()) {
      const auto& ids = (*w.meta)["player_ids"];
      for (size_t k = 0; k < ids.size(); ++k)
        if (ids[k].is_string() && !ids[k].get<std::string>().empty())
          send("player_table", {ids[k].get<std::string>(), w.table, pg_num(static_cast<int64_t>(k))});
    }
    const std::string finished = w.meta && finished_meta(*w.meta) ? "true" : "false";
    if (w.spec)
      send("table_insert", {w.table, w.spec->dump(), w.meta ? w.meta->dump() : std::string("{}"), finished});
    else if (w.meta)
      send("meta", {w.meta->dump(), w.table, finished});
    if (w.replaces && !w.chat.empty()) {
      uint64_t n = w.chat.front().n;
      for (const ChatLine& c : w.chat) n = std::min(n, c.n);
      send("chat_from", {w.table, pg_num(static_cast<int64_t>(n))});
    }
    if (w.replaces && !w.events.empty()) send("events_from", {w.table, pg_num(static_cast<int64_t>(w.first))});
    for (const ChatLine& c : w.chat)
      send("chat_insert", {w.table, pg_num(static_cast<int64_t>(c.n)), pg_num(int64_t{c.audience}),
                           pg_num(int64_t{c.seat}), c.text, c.phrase, pg_num(c.at), c.name});
    for (size_t i = 0; i < w.events.size(); ++i) {
      const RecordEvent& e = w.events[i];
      send("event_insert",
           {w.table, pg_num(static_cast<int64_t>(w.first + i)), e.chance ? "1" : "0", pg_num(int64_t{e.seat}), e.text});
    }
  }
  if (err.empty() && !PQsendQueryParams(pg, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0)) err = message(pg);
  if (PQstatus(pg) == CONNECTION_OK) collect();
  PQexitPipelineMode(pg);
  if (!err.empty()) throw Error(fmt::format("PostgreSQL: {}", err));
  // COMMIT's own failure (a deferred constraint, the server gone) came back
  // as an error above; past here the transaction is durable.
  return fenced;
}

std::vector<size_t> PgStore::commit(const std::vector<const Write*>& group) {
  try {
    if (!writer_ || PQstatus(writer_->pg) != CONNECTION_OK) {
      writer_.reset();
      writer_ = connect();
    }
    if (writer_->prepared.empty()) {
      // A new connection: its session and its statements.
      if (opt_.full_sync) Result(PQexec(writer_->pg, "SET synchronous_commit = on"));
      for (const Sql& s : writer_sql()) {
        Result p(PQprepare(writer_->pg, s.name, s.text.c_str(), 0, nullptr));
        if (PQresultStatus(p.r()) != PGRES_COMMAND_OK) throw Error(fmt::format("PostgreSQL: {}", message(writer_->pg)));
        writer_->prepared.insert(s.name);
      }
    }
    return send_group(group);
  } catch (const Error&) {
    // A transaction left open by a failed statement ends here; a broken
    // connection is replaced on the next group.
    if (writer_ && PQstatus(writer_->pg) == CONNECTION_OK && PQtransactionStatus(writer_->pg) != PQTRANS_IDLE)
      Result(PQexec(writer_->pg, "ROLLBACK"));
    if (writer_ && PQstatus(writer_->pg) != CONNECTION_OK) writer_.reset();
    throw;
  }
}

// Reads.

std::vector<RecordEvent> PgStore::load_events(const std::string& id) {
  return read([&](Conn& c) {
    Result r = run(c, "load_events", "SELECT chance, seat, text FROM events WHERE table_id = $1 ORDER BY idx", {id});
    std::vector<RecordEvent> out;
    out.reserve(static_cast<size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i) out.push_back({r.i64(i, 0) != 0, static_cast<int>(r.i64(i, 1)), r.text(i, 2)});
    return out;
  });
}

std::vector<ChatLine> PgStore::load_chat(const std::string& id, size_t recent) {
  return read([&](Conn& c) {
    std::vector<ChatLine> out;
    for (int audience = 0; audience < 2; ++audience) {
      Result r = run(c, "load_chat",
                     "SELECT n, seat, text, phrase, at, name FROM chat WHERE table_id = $1 AND audience = $2 "
                     "ORDER BY n DESC LIMIT $3",
                     {id, pg_num(int64_t{audience}), pg_num(static_cast<int64_t>(recent))});
      for (int i = 0; i < r.rows(); ++i)
        out.push_back({static_cast<uint64_t>(r.i64(i, 0)), audience, static_cast<int>(r.i64(i, 1)), r.text(i, 2),
                       r.text(i, 3), r.i64(i, 4), r.text(i, 5)});
    }
    std::sort(out.begin(), out.end(), [](const ChatLine& a, const ChatLine& b) { return a.n < b.n; });
    return out;
  });
}

std::optional<StoredTable> PgStore::load(const std::string& id) {
  auto t = read([&](Conn& c) -> std::optional<StoredTable> {
    Result r = run(c, "load_table", "SELECT id, spec, meta, created FROM tables WHERE id = $1", {id});
    if (r.rows() == 0) return std::nullopt;
    StoredTable t;
    t.id = r.text(0, 0);
    t.spec = nlohmann::json::parse(r.text(0, 1), nullptr, false);
    t.meta = nlohmann::json::parse(r.text(0, 2), nullptr, false);
    t.created = r.i64(0, 3);
    return t;
  });
  if (!t) return t;
  t->events = load_events(id);
  t->chat = load_chat(id, 50);
  return t;
}

std::vector<StoredTable> PgStore::load_all(const std::function<bool(const std::string&)>& keep) {
  auto out = read([&](Conn& c) {
    Result r =
        run(c, "load_all", "SELECT id, spec, meta, created FROM tables WHERE NOT finished ORDER BY created, seq", {});
    std::vector<StoredTable> out;
    out.reserve(static_cast<size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i) {
      StoredTable t;
      t.id = r.text(i, 0);
      if (keep && !keep(t.id)) continue;
      t.spec = nlohmann::json::parse(r.text(i, 1), nullptr, false);
      t.meta = nlohmann::json::parse(r.text(i, 2), nullptr, false);
      t.created = r.i64(i, 3);
      out.push_back(std::move(t));
    }
    return out;
  });
  // Their events and recent chat, a few hundred tables a query: a node
  // taking a dead node's shards loads a thousand tables, and three round
  // trips a table were most of its takeover.
  std::map<std::string, StoredTable*> live;
  for (auto& t : out) live[t.id] = &t;
  constexpr size_t kChunk = 500;
  for (auto it = live.begin(); it != live.end();) {
    std::vector<std::string> ids;
    for (; it != live.end() && ids.size() < kChunk; ++it) ids.push_back(it->first);
    const std::string array = pg_text_array(ids);
    read([&](Conn& c) {
      Result r = run(c, "load_events_of",
                     "SELECT table_id, chance, seat, text FROM events WHERE table_id = ANY($1::text[]) ORDER BY "
                     "table_id, idx",
                     {array});
      for (int i = 0; i < r.rows(); ++i)
        live.at(r.text(i, 0))->events.push_back({r.i64(i, 1) != 0, static_cast<int>(r.i64(i, 2)), r.text(i, 3)});
      Result ch = run(c, "load_chat_of",
                      "SELECT table_id, n, audience, seat, text, phrase, at, name FROM (SELECT *, row_number() OVER "
                      "(PARTITION BY table_id, audience ORDER BY n DESC) AS k FROM chat WHERE table_id = "
                      "ANY($1::text[])) c WHERE k <= 50 ORDER BY table_id, n",
                      {array});
      for (int i = 0; i < ch.rows(); ++i)
        live.at(ch.text(i, 0))
            ->chat.push_back({static_cast<uint64_t>(ch.i64(i, 1)), static_cast<int>(ch.i64(i, 2)),
                              static_cast<int>(ch.i64(i, 3)), ch.text(i, 4), ch.text(i, 5), ch.i64(i, 6),
                              ch.text(i, 7)});
      return 0;
    });
  }
  return out;
}

std::optional<StoredPlayer> PgStore::player(const std::string& id) {
  return read([&](Conn& c) -> std::optional<StoredPlayer> {
    Result r = run(c, "player", "SELECT id, name, password, created FROM players WHERE id = $1", {id});
    if (r.rows() == 0) return std::nullopt;
    return StoredPlayer{r.text(0, 0), r.text(0, 1), r.text(0, 2), r.i64(0, 3)};
  });
}

std::optional<StoredPlayer> PgStore::player_by_key(const std::string& key_hash) {
  return read([&](Conn& c) -> std::optional<StoredPlayer> {
    Result r = run(c, "player_by_key",
                   "SELECT p.id, p.name, p.password, p.created FROM player_keys k JOIN players p ON p.id = "
                   "k.player_id WHERE k.hash = $1",
                   {key_hash});
    if (r.rows() == 0) return std::nullopt;
    return StoredPlayer{r.text(0, 0), r.text(0, 1), r.text(0, 2), r.i64(0, 3)};
  });
}

std::optional<StoredPlayer> PgStore::player_by_name(const std::string& key) {
  return read([&](Conn& c) -> std::optional<StoredPlayer> {
    Result r = run(c, "player_by_name", "SELECT id, name, password, created FROM players WHERE name_key = $1", {key});
    if (r.rows() == 0) return std::nullopt;
    return StoredPlayer{r.text(0, 0), r.text(0, 1), r.text(0, 2), r.i64(0, 3)};
  });
}

std::vector<PlayerGame> PgStore::player_games(const std::string& player_id, int limit) {
  return read([&](Conn& c) {
    Result r = run(c, "player_games",
                   "SELECT pt.table_id, pt.seat, t.spec, t.meta, t.created FROM player_tables pt JOIN tables t ON "
                   "t.id = pt.table_id WHERE pt.player_id = $1 ORDER BY t.created DESC, t.seq DESC LIMIT $2",
                   {player_id, pg_num(int64_t{limit})});
    std::vector<PlayerGame> out;
    for (int i = 0; i < r.rows(); ++i) {
      PlayerGame g;
      g.table = r.text(i, 0);
      g.seat = static_cast<int>(r.i64(i, 1));
      // Only the game's name from the spec: it also holds the table's secrets.
      const auto spec = nlohmann::json::parse(r.text(i, 2), nullptr, false);
      const auto meta = nlohmann::json::parse(r.text(i, 3), nullptr, false);
      g.game = spec.is_object() ? spec.value("game", "") : "";
      g.over = finished_meta(meta);
      g.result = seat_result(meta, g.seat);
      g.created = r.i64(i, 4);
      out.push_back(std::move(g));
    }
    return out;
  });
}

namespace {
std::vector<StoredRating> rating_rows(const PgStore::Result& r) {
  std::vector<StoredRating> out;
  for (int i = 0; i < r.rows(); ++i) {
    StoredRating s;
    s.subject = r.text(i, 0);
    s.family = r.text(i, 1);
    s.rating = r.f64(i, 2);
    s.rd = r.f64(i, 3);
    s.volatility = r.f64(i, 4);
    s.games = static_cast<int>(r.i64(i, 5));
    s.name = r.text(i, 6);
    s.last = r.i64(i, 7);
    out.push_back(std::move(s));
  }
  return out;
}
// As SQLite's: the last rated game's time from the history.
#define BONEYARD_RATING_COLS                                                                                   \
  "SELECT r.subject, r.family, r.rating, r.rd, r.volatility, r.games, COALESCE(p.name, ''), "                  \
  "COALESCE((SELECT MAX(h.at) FROM rating_history h WHERE h.subject = r.subject AND h.family = r.family), 0) " \
  "FROM ratings r LEFT JOIN players p ON p.id = r.subject "
}  // namespace

std::optional<StoredRating> PgStore::rating(const std::string& subject, const std::string& family) {
  return read([&](Conn& c) -> std::optional<StoredRating> {
    auto rows =
        rating_rows(run(c, "rating", BONEYARD_RATING_COLS "WHERE r.subject = $1 AND r.family = $2", {subject, family}));
    if (rows.empty()) return std::nullopt;
    return rows.front();
  });
}

std::vector<StoredRating> PgStore::leaderboard(const std::string& family, bool bots, int limit) {
  return read([&](Conn& c) {
    return rating_rows(run(c, "leaderboard",
                           BONEYARD_RATING_COLS "WHERE r.family = $1 AND (r.subject LIKE 'bot:%') = $2::boolean "
                                                "ORDER BY r.rating - 2 * r.rd DESC, r.rating DESC LIMIT $3",
                           {family, bots ? "t" : "f", pg_num(int64_t{limit})}));
  });
}

std::vector<StoredRating> PgStore::ratings_of(const std::string& subject) {
  return read([&](Conn& c) {
    return rating_rows(run(c, "ratings_of", BONEYARD_RATING_COLS "WHERE r.subject = $1 ORDER BY r.family", {subject}));
  });
}
#undef BONEYARD_RATING_COLS

std::vector<RatingPoint> PgStore::rating_history(const std::string& subject, const std::string& family, int limit) {
  return read([&](Conn& c) {
    Result r = run(c, "rating_history",
                   "SELECT table_id, rating, rd, at FROM rating_history WHERE subject = $1 AND family = $2 "
                   "ORDER BY at DESC, seq DESC LIMIT $3",
                   {subject, family, pg_num(int64_t{limit})});
    std::vector<RatingPoint> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.f64(i, 1), r.f64(i, 2), r.i64(i, 3)});
    return out;
  });
}

// Social: as SQLite's (store_sqlite_social.cpp).
void PgStore::set_relation(const std::string& from, const std::string& to, int kind, bool on) {
  read([&](Conn& c) {
    if (on)
      run(c, "relation_on",
          "INSERT INTO relations (player_id, other_id, kind, at) VALUES ($1, $2, $3::integer, $4::bigint) ON "
          "CONFLICT DO NOTHING",
          {from, to, pg_num(int64_t{kind}), pg_num(static_cast<int64_t>(std::time(nullptr)))});
    else
      run(c, "relation_off", "DELETE FROM relations WHERE player_id = $1 AND other_id = $2 AND kind = $3::integer",
          {from, to, pg_num(int64_t{kind})});
    return 0;
  });
}

std::vector<Relation> PgStore::relations(const std::string& from, int kind) {
  return read([&](Conn& c) {
    Result r = run(c, "relations",
                   "SELECT r.player_id, r.other_id, r.at, COALESCE(p.name, '') FROM relations r LEFT JOIN players p "
                   "ON p.id = r.other_id WHERE r.kind = $1::integer AND ($2 = '' OR r.player_id = $2) ORDER BY r.at, "
                   "r.other_id",
                   {pg_num(int64_t{kind}), from});
    std::vector<Relation> out;
    for (int i = 0; i < r.rows(); ++i)
      out.push_back(Relation{r.text(i, 0), r.text(i, 1), kind, r.i64(i, 2), r.text(i, 3)});
    return out;
  });
}

void PgStore::add_report(const StoredReport& rep) {
  read([&](Conn& c) {
    run(c, "add_report",
        "INSERT INTO reports (reporter, reported, table_id, reason, text, at) VALUES ($1, $2, $3, $4, $5, $6::bigint)",
        {rep.reporter, rep.reported, rep.table, rep.reason, rep.text,
         pg_num(rep.at ? rep.at : static_cast<int64_t>(std::time(nullptr)))});
    return 0;
  });
}

std::vector<StoredReport> PgStore::reports(int limit) {
  return read([&](Conn& c) {
    Result r = run(c, "reports",
                   "SELECT r.id, r.reporter, r.reported, r.table_id, r.reason, r.text, r.at, COALESCE(a.name, ''), "
                   "COALESCE(b.name, '') FROM reports r LEFT JOIN players a ON a.id = r.reporter LEFT JOIN players b "
                   "ON b.id = r.reported ORDER BY r.id DESC LIMIT $1::bigint",
                   {pg_num(int64_t{limit})});
    std::vector<StoredReport> out;
    for (int i = 0; i < r.rows(); ++i)
      out.push_back(StoredReport{r.i64(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4), r.text(i, 5),
                                 r.i64(i, 6), r.text(i, 7), r.text(i, 8)});
    return out;
  });
}

// Quick match: as SQLite's (store_sqlite_social.cpp).
}  // namespace boneyard::server
