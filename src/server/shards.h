#pragma once
// Shards (docs/server.md, "Beyond one machine"): which tables this node
// serves when several nodes share one PostgreSQL. A table belongs to one of
// `count` shards, named by its id's first byte (shard_of); a shard belongs
// to one node through a lease row (store.h: owner, epoch, expiry) that the
// node renews every lease_s / 3 seconds (at most 1 s) on a thread of its own. Each node
// also keeps a lease on "node:ID" (its heartbeat), so every node knows how
// many are alive and takes its fair share of the shards: free or expired
// ones up to ceil(count / nodes), giving back what is above it. Every write
// of a table carries its shard's fence (owner and epoch): the store refuses
// it once another node took the shard, and the Hub then drops the shard's
// tables (fenced()).
//
// A node whose process dies is seen at once, not when its leases lapse:
// each node holds its presence in the store (Store::hold_presence: a
// PostgreSQL session's advisory lock), and the others take the shards of a
// node whose presence is gone on their next round.
//
// Without a node id (one node, SQLite's default) the node owns every shard,
// writes carry no fence, and nothing here runs: enabled() is false.
//
// Owns: the set of shards held and their epochs, the losses (for
// /api/health). Its lock m_ is taken last (after the Hub's tables_m_ and a
// table's m); the hooks (the Hub's take/drop) are called from the renewal
// thread with no lock of this module held.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "server/storage.h"

namespace boneyard::server {

class Shards {
 public:
  // The Hub's side: take loads the live tables of shards just taken; drop
  // removes the tables of shards lost (why says how) from memory.
  struct Hooks {
    std::function<void(const std::set<int>&)> take;
    std::function<void(const std::set<int>&, const std::string& why)> drop;
  };

  // node "": one node, every shard its own (no leases).
  Shards(Storage& db, std::string node, int count, int lease_s);
  ~Shards();
  Shards(const Shards&) = delete;
  Shards& operator=(const Shards&) = delete;

  // Takes this node's first shards (calling take, before it returns), then
  // renews on its thread. Disabled: calls nothing.
  void start(Hooks hooks);
  // Stops the renewal thread (no hook is called after it returns).
  void stop_renewal();
  // Gives every lease back (at shutdown, once the writes are stored), so
  // another node or this one restarted takes them at once.
  void release_all();

  // Quick match's queue lives on the node that holds this shard (one queue
  // for every node: two players who come in through different nodes meet).
  static constexpr int kMatchShard = 0;

  bool enabled() const { return !node_.empty(); }
  const std::string& node() const { return node_; }
  int count() const { return count_; }
  // A table id's shard: its first byte (two hex digits) mod count; other
  // ids (tools, tests) by a hash.
  int shard_of(const std::string& table_id) const;
  static std::string lease_name(int shard);
  bool owns(int shard) const;
  // The epoch this node holds a shard under (nullopt: not held). A shard
  // lost and taken again has a new one: what was read under the old one is
  // stale (Hub::take_shards).
  std::optional<uint64_t> epoch(int shard) const;
  // The fence of a write of this table (nullopt: disabled). A shard not
  // held gets epoch 0, which no lease has: its writes are refused.
  std::optional<Write::Fence> fence(const std::string& table_id) const;
  std::optional<Write::Fence> fence_of(int shard) const;
  // A fresh table id (16 hex digits) on a shard this node holds, the shards
  // taken in turn. Throws ApiError 503 when it holds none.
  std::string new_id();
  // A write was refused by its fence (Write::fence): the shard is no longer
  // this node's; its tables are dropped on the renewal thread.
  void fenced(const std::string& shard_name, const std::string& why);
  // Who holds a shard now ("" when nobody does).
  std::string owner_of(int shard);
  // For /api/health: the node, its shards, the last losses.
  nlohmann::json health() const;
  // Where the other nodes reach this one (host:port), kept in its
  // heartbeat row's name ("node:ID@ADDRESS"), and another live node's
  // address ("" when unknown): a node forwards a request for a table it
  // does not play to its owner (net.cpp).
  void set_address(const std::string& address);
  std::string address_of(const std::string& node);
  // The other live nodes and their addresses (node -> host:port).
  std::map<std::string, std::string> peers();
  // Tests: a node whose renewal has stopped (as a paused process's).
  void pause(bool paused);
  // One renewal round now (tests; the thread runs it every lease_s / 3, at most 1 s).
  void tick();

 private:
  void loop();
  void lose(const std::set<int>& shards, const std::string& why);  // with no lock held
  void load(std::set<int> shards);                                 // the take hook, on the loader thread once started
  void load_loop();
  bool hold_presence();  // with no lock held; true: another node's absence means it died

  Storage& db_;
  const std::string node_;
  const int count_;
  const int lease_s_;
  Hooks hooks_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::map<int, uint64_t> owned_;   // shard -> epoch
  std::set<int> lost_;              // refused by a fence, to drop on the renewal thread
  std::deque<std::string> losses_;  // the last few, for /api/health
  size_t next_ = 0;                 // new_id's turn
  std::string address_;             // set_address()
  std::string heartbeat_;           // the name of this node's heartbeat row now
  bool stopping_ = false, paused_ = false;
  Store::Presence presence_ = Store::Presence::unknown;  // as of the last round
  std::chrono::steady_clock::time_point presence_since_;
  std::mutex tick_m_;  // one renewal round at a time
  std::thread thread_;
  std::deque<std::set<int>> loads_;  // shards taken, their tables to load (loader_)
  bool loading_ = false;             // the loader runs: load() queues
  std::thread loader_;
};

}  // namespace boneyard::server
