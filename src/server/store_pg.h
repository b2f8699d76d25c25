#pragma once
// The PostgreSQL store (store.h), chosen by --db postgresql://...: the same
// schema as SQLite's, through libpq. The writer has a connection of its own
// and sends each group as one transaction in pipeline mode (BEGIN, every
// write's statements, COMMIT; one round trip per few hundred statements);
// reads take a connection from a pool. Every statement is prepared once per
// connection. A broken connection (the server restarted, the network cut)
// is replaced on its next use, so the store heals when PostgreSQL is back.
// Messages never carry the password.
#include <libpq-fe.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "server/store.h"

namespace boneyard::server {

// Every CREATE of the schema, in order (store_pg_schema.cpp).
const std::vector<std::string>& pg_schema();

class PgStore : public Store {
 public:
  // Connects, then creates or migrates the schema. Throws Error (a wrong
  // password, an unknown host, a database of a newer schema version).
  PgStore(const std::string& url, const StoreOptions& opt);
  ~PgStore() override;

  std::vector<size_t> commit(const std::vector<const Write*>& group) override;

  std::vector<StoredTable> load_all(const std::function<bool(const std::string&)>& keep = {}) override;
  std::optional<StoredTable> load(const std::string& id) override;
  std::vector<RecordEvent> load_events(const std::string& id) override;
  std::vector<ChatLine> load_chat(const std::string& id, size_t recent) override;
  std::optional<StoredPlayer> player(const std::string& id) override;
  std::optional<StoredPlayer> player_by_key(const std::string& key_hash) override;
  std::optional<StoredPlayer> player_by_name(const std::string& name_key) override;
  std::vector<PlayerGame> player_games(const std::string& player_id, int limit) override;
  std::optional<StoredRating> rating(const std::string& subject, const std::string& family) override;
  std::vector<StoredRating> leaderboard(const std::string& family, bool bots, int limit) override;
  std::vector<StoredRating> ratings_of(const std::string& subject) override;
  std::vector<RatingPoint> rating_history(const std::string& subject, const std::string& family, int limit) override;
  void set_relation(const std::string& from, const std::string& to, int kind, bool on) override;
  std::vector<Relation> relations(const std::string& from, int kind) override;
  void add_report(const StoredReport& r) override;
  std::vector<StoredReport> reports(int limit) override;
  bool put_seeker(const std::string& player_id, const std::string& entry, const Write::Fence* fence) override;
  bool drop_seeker(const std::string& player_id, const Write::Fence* fence) override;
  std::vector<std::string> seekers() override;
  std::optional<Lease> acquire_lease(const std::string& shard, const std::string& owner, int ttl_s) override;
  std::vector<Lease> renew_leases(const std::vector<std::string>& shards, const std::string& owner, int ttl_s) override;
  void release_lease(const std::string& shard, const std::string& owner) override;
  std::optional<Lease> lease(const std::string& shard) override;
  std::vector<Lease> leases() override;
  Presence hold_presence(const std::string& node) override;
  std::optional<Lease> take_lease_from_absent(const std::string& shard, const std::string& owner,
                                              const std::string& absent, int ttl_s) override;

  // One connection and the statements prepared on it.
  struct Conn {
    PGconn* pg = nullptr;
    std::set<std::string> prepared;
    ~Conn();
  };
  class Result;

 private:
  std::unique_ptr<Conn> connect() const;
  void create_schema(Conn& c) const;
  std::string message(PGconn* pg) const;  // libpq's message, trimmed, without the password
  Result run(Conn& c, const char* name, const char* sql, const std::vector<std::string>& params) const;
  // A read on a pooled connection; once more on a fresh one when the
  // connection was broken (PostgreSQL restarted since its last use).
  template <class F>
  auto read(F&& f);
  std::unique_ptr<Conn> take();
  void give(std::unique_ptr<Conn> c);
  std::vector<size_t> send_group(const std::vector<const Write*>& group);

  std::string url_, shown_, password_;
  StoreOptions opt_;
  std::unique_ptr<Conn> writer_;  // the writer thread's
  std::mutex pool_m_;
  std::condition_variable pool_cv_;
  std::vector<std::unique_ptr<Conn>> idle_;
  int out_ = 0;  // pooled connections in use
  std::mutex presence_m_;
  std::unique_ptr<Conn> presence_;  // the session that holds this node's presence (hold_presence)
};

}  // namespace boneyard::server
