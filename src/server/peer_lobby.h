#pragma once
// The lobby of several nodes (docs/server.md, "Beyond one machine"): every
// second, this node asks each other live node (shards.h: their heartbeat
// rows) for its own open tables (GET /api/lobby?local=1) and merges them
// into its Lobby (Lobby::merge), whose feed then sends the changes to its
// watchers as it does for its own tables. So GET /api/lobby and /ws/lobby
// list the open tables of every node, a second late at most.
//
// Owns: its thread. Calls the Lobby (its own lock) and the Shards' reads;
// holds no lock of its own while it does.
#include <condition_variable>
#include <mutex>
#include <thread>

namespace boneyard::server {

class Lobby;
class Shards;

class PeerLobby {
 public:
  PeerLobby(Shards& shards, Lobby& lobby);
  ~PeerLobby();  // stops the thread
  PeerLobby(const PeerLobby&) = delete;
  PeerLobby& operator=(const PeerLobby&) = delete;

  // One round now (also what the thread does every second).
  void poll();

 private:
  Shards& shards_;
  Lobby& lobby_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace boneyard::server
