#pragma once
// What the server keeps, and the interface of a store that keeps it
// (docs/server.md, "Storage"): tables (spec and meta), events, chat,
// players, ratings, and shard leases. Two stores implement it: SQLite
// (store_sqlite.h, the embedded default) and PostgreSQL (store_pg.h, chosen
// by a postgresql:// URL). Storage (storage.h) puts the group commit in
// front of either: a store only runs one transaction at a time for it.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "record/session.h"

namespace boneyard::server {

// The schema this build reads and writes; kept in the database (table
// schema_version, one row). An older database is migrated at start, a newer
// one refused (another build wrote it).
// 2: chat lines keep their author's name (chat.name); players' name_key is
// the confusable skeleton (names.h).
// 3: relations (follows, blocks) between players and reports (social.h).
// 4: the quick-match queue (quickmatch.h), so it outlives its node.
// 5: tables.finished, a table's meta says "over": a restart reads only the
// live tables (load_all), however many games were finished before.
constexpr int kSchemaVersion = 5;

// One chat line (docs/server.md, "Chat"), stored with its table: n counts
// the table's lines; audience 0 is the seats' chat, 1 the spectators'. A
// line is free text or the id of a quick phrase.
struct ChatLine {
  uint64_t n = 0;
  int audience = 0;
  int seat = -1;  // -1: a spectator
  std::string text, phrase;
  int64_t at = 0;    // seconds since the epoch
  std::string name;  // the author's name when it was said ("" : none, or a spectator)
};

struct StoredTable {
  std::string id;
  nlohmann::json spec;
  nlohmann::json meta;
  std::vector<RecordEvent> events;
  int64_t created = 0;         // seconds since the epoch
  std::vector<ChatLine> chat;  // the recent lines of each audience, by n
};

// Whether a table's meta says its game is over (stored as tables.finished).
inline bool finished_meta(const nlohmann::json& meta) { return meta.is_object() && meta.value("over", false); }

// A player (docs/server.md, "Players"): never its key, only the keys' hashes.
struct StoredPlayer {
  std::string id, name;
  std::string password;  // the argon2id hash; "" when the player has none
  int64_t created = 0;
};

// A game a player sat at, newest first (GET /api/players/{id}).
struct PlayerGame {
  std::string table, game;
  int seat = 0;
  bool over = false;
  int64_t created = 0;
  std::string result;  // seat_result()
};

// A finished game's result for one seat, from its meta's "returns": "won"
// (the best, which partners share), "lost", "drawn" (all equal); "" when
// not over or stored before results were kept.
inline std::string seat_result(const nlohmann::json& meta, int seat) {
  if (!meta.is_object() || !meta.value("over", false) || !meta.contains("returns") || !meta["returns"].is_array())
    return "";
  std::vector<double> r;
  for (const auto& x : meta["returns"]) {
    if (!x.is_number()) return "";
    r.push_back(x.get<double>());
  }
  if (seat < 0 || static_cast<size_t>(seat) >= r.size()) return "";
  double best = r[0], worst = r[0];
  for (double x : r) best = std::max(best, x), worst = std::min(worst, x);
  if (best == worst) return "drawn";
  return r[static_cast<size_t>(seat)] == best ? "won" : "lost";
}

// A rating (Glicko-2) of a subject in a game family: a player's id, or a
// bot level's ("bot:casual"); with each game's result in its history.
struct StoredRating {
  std::string subject, family;
  double rating = 1500, rd = 350, volatility = 0.06;
  int games = 0;
  std::string name;  // the player's (read only)
  // When its last rated game ended (seconds since the epoch; 0: none):
  // read from its history; written as the new history entry's time ("now"
  // when 0).
  int64_t last = 0;
  // Written: the rating this game's change was computed from. PostgreSQL
  // adds the change to the stored rating rather than overwriting it, so two
  // nodes rating one subject at once (a bot level plays everywhere) both
  // count (docs/server.md, "Beyond one machine"). NaN: overwrite.
  double from = std::numeric_limits<double>::quiet_NaN();
};
struct RatingPoint {
  std::string table;
  double rating = 0, rd = 0;
  int64_t at = 0;
};

// Social (social.h): one player's relation to another (kRelFollow,
// kRelBlock), and a report of a player kept for the operator.
constexpr int kRelFollow = 1, kRelBlock = 2;
struct Relation {
  std::string from, to;
  int kind = 0;
  int64_t at = 0;    // seconds since the epoch
  std::string name;  // the other player's name (read only)
};
struct StoredReport {
  int64_t id = 0;  // (read only)
  std::string reporter, reported, table, reason, text;
  int64_t at = 0;
  std::string reporter_name, reported_name;  // (read only)
};

// One table's change, stored all or nothing: its row (at creation), its meta,
// and events first, first+1, ...
struct Write {
  std::string table;
  uint64_t gen = 0;                    // the table's generation: see Storage::submit
  std::optional<nlohmann::json> spec;  // set: insert the table's row
  std::optional<nlohmann::json> meta;  // set: its meta (with spec: the first meta)
  size_t first = 0;
  std::vector<RecordEvent> events;
  std::vector<ChatLine> chat;  // chat lines to add
  // Set by Storage on the first writes of a table after one of its writes
  // failed: a failed commit may still have been stored (PostgreSQL: the
  // connection cut while COMMIT was on its way, so the answer never came),
  // and the table has gone back to what it knew was stored. Its events from
  // `first` on, and its chat lines from the first one's n on, then replace
  // whatever is stored there. (SQLite's commit is never in doubt: it ignores it.)
  bool replaces = false;
  bool erase = false;  // instead: remove the table, its events and its chat
  // Several nodes (shards.h): the lease this write is made under. The store
  // checks it in the write's own transaction, holding the lease row (FOR
  // SHARE) until the commit, so a node that lost the shard never writes
  // behind its new owner: the write is refused (kFenced), the rest of the
  // group commits. Unset (one node): not checked.
  struct Fence {
    std::string shard, owner;
    uint64_t epoch = 0;
  };
  std::optional<Fence> fence;
  // Instead (table ""): a player's key hash, and the player's row unless
  // player_exists (a login on another device adds a key to a player).
  // set_password: the existing player's password hash is replaced by
  // player->password (no key is added when key_hash is empty).
  std::optional<StoredPlayer> player;
  bool player_exists = false;
  bool set_password = false;
  // revoke_keys: every key of the player but keep_key_hash ("" : none) is
  // removed first (sign out everywhere), then key_hash is added.
  bool revoke_keys = false;
  std::string keep_key_hash;
  std::string key_hash;
  // With the table's meta: the ratings after its game, and their history.
  std::vector<StoredRating> ratings;
  // Called on the writer thread, in submission order, with "" once durable
  // or the reason it was not stored. It must not wait for the storage.
  std::function<void(const std::string& error)> done;
};

// A shard's lease (for several nodes): who owns it until when, and the
// epoch that every write of the owner carries (fencing). The epoch goes up
// each time the shard changes owner.
// The start of the reason given to a write refused by its fence.
constexpr const char* kFenced = "fenced: ";

struct Lease {
  std::string shard, owner;
  uint64_t epoch = 0;
  int64_t expires = 0;  // seconds since the epoch
  // The owner's presence is held (Store::hold_presence); always true where
  // the store cannot tell.
  bool present = true;
};

// The checkpoints of SQLite's WAL (see Storage::checkpoints); zero elsewhere.
struct StoreCheckpoints {
  uint64_t background = 0, finished = 0, whole = 0;
};

// How a store is opened: the --db value and the knobs that go with it.
struct StoreOptions {
  // SQLite: synchronous=FULL, else NORMAL. PostgreSQL: the writer's
  // session sets synchronous_commit=on, else keeps the database's setting.
  bool full_sync = true;
  int pool = 4;  // PostgreSQL: connections for reads (the writer has its own)
};

class Store {
 public:
  virtual ~Store() = default;
  // One transaction holding every write of `group`, all or nothing; throws
  // Error saying why when it did not commit. Called by Storage's writer
  // thread only. A broken connection or file is reopened on the next call,
  // so a store heals when the cause goes away. Returns the positions in
  // `group` of the writes refused by their fence (Write::fence; not stored,
  // the others committed).
  virtual std::vector<size_t> commit(const std::vector<const Write*>& group) = 0;
  // Why writes cannot succeed from the start (a read-only database), or "".
  virtual std::string problem_at_open() const { return {}; }
  virtual StoreCheckpoints checkpoints() const { return {}; }
  // Stops the store's own threads (SQLite's checkpointer).
  virtual void stop() {}

  // Reads, from any thread (see Storage for what each returns).
  // The live tables: those not finished (a finished one is loaded on
  // demand). keep (when set): only the tables whose id it accepts (a node
  // taking some shards loads theirs only).
  virtual std::vector<StoredTable> load_all(const std::function<bool(const std::string&)>& keep = {}) = 0;
  virtual std::optional<StoredTable> load(const std::string& id) = 0;
  virtual std::vector<RecordEvent> load_events(const std::string& id) = 0;
  virtual std::vector<ChatLine> load_chat(const std::string& id, size_t recent) = 0;
  virtual std::optional<StoredPlayer> player(const std::string& id) = 0;
  virtual std::optional<StoredPlayer> player_by_key(const std::string& key_hash) = 0;
  virtual std::optional<StoredPlayer> player_by_name(const std::string& name_key) = 0;
  virtual std::vector<PlayerGame> player_games(const std::string& player_id, int limit) = 0;
  virtual std::optional<StoredRating> rating(const std::string& subject, const std::string& family) = 0;
  virtual std::vector<StoredRating> leaderboard(const std::string& family, bool bots, int limit) = 0;
  virtual std::vector<StoredRating> ratings_of(const std::string& subject) = 0;
  virtual std::vector<RatingPoint> rating_history(const std::string& subject, const std::string& family, int limit) = 0;

  // Social (atomic, outside the group commit, as leases): a relation set
  // (on) or removed; `from`'s relations of a kind (from "": everyone's);
  // a report added; the newest reports.
  virtual void set_relation(const std::string& from, const std::string& to, int kind, bool on) = 0;
  virtual std::vector<Relation> relations(const std::string& from, int kind) = 0;
  virtual void add_report(const StoredReport& r) = 0;
  virtual std::vector<StoredReport> reports(int limit) = 0;

  // Quick match (quickmatch.h; atomic, outside the group commit): a player's
  // entry in the queue (its JSON) set or replaced, removed, every entry.
  // Under the lease of the queue's shard (fence; null: one node), checked
  // in the same statement as a table's write is: false when refused (another
  // node holds the queue now), and nothing was written.
  virtual bool put_seeker(const std::string& player_id, const std::string& entry, const Write::Fence* fence) = 0;
  virtual bool drop_seeker(const std::string& player_id, const Write::Fence* fence) = 0;
  virtual std::vector<std::string> seekers() = 0;

  // Leases (atomic, outside the group commit): takes or renews `shard` for
  // `owner` for ttl_s seconds when it is free, expired or already the
  // owner's; nullopt when another owner holds it.
  virtual std::optional<Lease> acquire_lease(const std::string& shard, const std::string& owner, int ttl_s) = 0;
  // Renews, in one statement, those of `shards` that `owner` holds and that
  // have not expired (their epochs unchanged); returns them. A node's round
  // of renewals is one round trip, not one a shard: under load, 20 trips
  // in a row once took longer than the lease itself.
  virtual std::vector<Lease> renew_leases(const std::vector<std::string>& shards, const std::string& owner,
                                          int ttl_s) = 0;
  virtual void release_lease(const std::string& shard, const std::string& owner) = 0;
  virtual std::optional<Lease> lease(const std::string& shard) = 0;
  // Every lease row, expired ones included.
  virtual std::vector<Lease> leases() = 0;

  // A node's presence: held by a session of its own with the store, so the
  // other nodes see at once that its process died (PostgreSQL ends a dead
  // client's session, and the session's advisory lock goes with it)
  // instead of waiting for its leases to lapse. Called every renewal
  // round: takes the presence or checks that it is still held. A paused
  // process keeps its session: only its leases tell, and its writes are
  // fenced as before.
  enum class Presence {
    unknown,    // the store cannot tell (SQLite): leases alone
    fresh,      // taken now (the first round, or the store came back)
    held,       // held since the last round
    elsewhere,  // another session holds it (a process with the same node name)
  };
  virtual Presence hold_presence(const std::string& /*node*/) { return Presence::unknown; }
  // Takes `shard` from `absent`, whose presence is gone (Lease::present),
  // without waiting for its lease to lapse; the epoch goes up. nullopt when
  // `absent` no longer holds it or is present again.
  virtual std::optional<Lease> take_lease_from_absent(const std::string& /*shard*/, const std::string& /*owner*/,
                                                      const std::string& /*absent*/, int /*ttl_s*/) {
    return std::nullopt;
  }
};

// "postgresql://..." or "postgres://...": a PostgreSQL store; anything else
// is an SQLite file (":memory:" included; a "file:" URI is refused).
bool is_postgres_url(const std::string& db);
// The --db value fit for logs and messages: a URL's password (user:PASSWORD@
// or password=) replaced by "***".
std::string redact_db(const std::string& db);
// The store that `db` names, opened, its schema created or migrated. Throws
// Error with a clear message (never a password) when it cannot be.
std::unique_ptr<Store> open_store(const std::string& db, const StoreOptions& opt);
// For the stores: the message for a database whose schema is newer than
// this build's (`what` names the database).
std::string newer_schema(const std::string& what, int version);

}  // namespace boneyard::server
