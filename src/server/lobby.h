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
#include <string>
#include <vector>

#include "server/table.h"

namespace boneyard::server {

class Lobby {
 public:
  // With t.m held: the table's line in the lobby, or none (private,
  // started, full, closed); a change goes to every watcher.
  void update(const Table& t);
  nlohmann::json list();  // GET /api/lobby: the newest 100
  void subscribe(const std::shared_ptr<Subscriber>& sub);
  void unsubscribe(const Subscriber* sub);

 private:
  nlohmann::json message();  // with m_ held
  std::mutex m_;
  std::map<std::string, nlohmann::json> entries_;
  std::vector<std::weak_ptr<Subscriber>> subs_;
  uint64_t version_ = 0;
};

}  // namespace boneyard::server
