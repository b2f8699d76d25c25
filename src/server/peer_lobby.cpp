// The other nodes' open tables in this node's lobby (peer_lobby.h).
#include "server/peer_lobby.h"

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "server/lobby.h"
#include "server/proxy.h"
#include "server/shards.h"

namespace boneyard::server {

PeerLobby::PeerLobby(Shards& shards, Lobby& lobby) : shards_(shards), lobby_(lobby) {
  thread_ = std::thread([this] {
    std::unique_lock lk(m_);
    while (!stopping_) {
      cv_.wait_for(lk, std::chrono::seconds(1));
      if (stopping_) return;
      lk.unlock();
      poll();
      lk.lock();
    }
  });
}

PeerLobby::~PeerLobby() {
  {
    std::lock_guard lk(m_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PeerLobby::poll() {
  std::map<std::string, std::string> peers;
  try {
    peers = shards_.peers();
  } catch (const std::exception&) {
    return;  // the store is down: the lobby stays as it was
  }
  std::set<std::string> answered;
  for (const auto& [node, address] : peers) {
    try {
      // A short timeout: a paused or dying node must not hold the others' lobbies.
      HttpResponse r = forward_request(address, "GET", "/api/lobby?local=1", "", "", "", shards_.node(), 2);
      if (r.status != 200) continue;
      auto j = nlohmann::json::parse(r.body, nullptr, false);
      if (!j.is_object() || !j.contains("tables") || !j["tables"].is_array()) continue;
      lobby_.merge(node, j["tables"]);
      answered.insert(node);
    } catch (const std::exception&) {
      // Not answering now: its tables stay listed until it is gone from the leases.
    }
  }
  // Nodes gone (their heartbeat expired): their tables leave the list (the
  // node that takes a table over lists it again as its own).
  lobby_.keep_nodes(peers);
}

}  // namespace boneyard::server
