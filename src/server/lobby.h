#pragma once
// The lobby (docs/server.md, "Lobby"): the public tables waiting for
// players, one entry per table, newest first, and its live feed (the list,
// then each change alone).
//
// Owns: the entries, the feed's watchers and its version. Lock: its own
// m_, taken after a table's lock (update() is called with it held), never
// before one.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "server/table.h"

namespace boneyard::server {

class Lobby {
 public:
  // With t.m held: the table's line in the lobby, or none (private,
  // started, full, closed); a change goes to every watcher.
  void update(const Table& t);
  // GET /api/lobby: the newest 100 (local: this node's own tables only).
  nlohmann::json list(bool local = false);
  void subscribe(const std::shared_ptr<Subscriber>& sub);
  void unsubscribe(const Subscriber* sub);
  // Several nodes (peer_lobby.h): another node's open tables now; its
  // entries not among them leave, a change goes to every watcher.
  void merge(const std::string& node, const nlohmann::json& tables);
  // The other nodes still alive: the entries of any other node leave.
  void keep_nodes(const std::map<std::string, std::string>& nodes);

 private:
  nlohmann::json message(bool local = false);  // with m_ held
  // With m_ held: the entry of a table (nullopt: none), from node ("":
  // this one); a change goes to the watchers.
  void set(const std::string& id, std::optional<nlohmann::json> entry, const std::string& node);
  std::mutex m_;
  std::map<std::string, nlohmann::json> entries_;
  std::map<std::string, std::string> origin_;  // table -> the node that listed it ("" this one)
  std::vector<std::weak_ptr<Subscriber>> subs_;
  uint64_t version_ = 0;
};

}  // namespace boneyard::server
