#pragma once
// The network side of `boneyard serve`: one process serving HTTP and
// WebSocket with Boost.Beast on a small pool of io threads. Requests are
// routed by http_routes.h; tables live in the Hub (tables.h).
#include <memory>
#include <string>
#include <vector>

#include "server/limits.h"
#include "server/tables.h"

namespace boneyard::server {

struct ServerConfig {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;      // 0: any free port (see Server::port())
  std::string db = "boneyard.db";  // an SQLite file, or a postgresql:// URL (store.h)
  int db_pool = 4;                 // PostgreSQL: connections for reads
  std::string static_dir;          // "" = no static files
  int io_threads = 2;
  // Password hashing (argon2id, ~64 MiB and ~0.2 s each) runs on its own
  // threads; up to hash_queue more wait; beyond that, 503 with Retry-After.
  int hash_threads = 2, hash_queue = 16;
  bool full_sync = true;  // SQLite synchronous=FULL (else NORMAL; WAL either way); PostgreSQL synchronous_commit=on
  HubConfig hub;
  size_t body_limit = 1024 * 1024;           // HTTP request body (a record posted to /api/replay)
  size_t header_limit = 16 * 1024;           // HTTP request header
  size_t ws_message_limit = 16 * 1024;       // one WebSocket message from a client
  size_t ws_queue_limit = 256;               // messages waiting for a slow reader; then it is disconnected
  int ws_send_buffer = 0;                    // SO_SNDBUF of WebSocket connections (0: the system's)
  double http_rate = 100, http_burst = 200;  // requests per second per connection
  double ws_rate = 50, ws_burst = 100;       // messages per second per connection
  int read_timeout_s = 30;                   // an HTTP request must arrive within this
  int ws_subscribe_timeout_s = 10;           // a WebSocket that holds no seat or spectator place is closed after this
  // The lobby's feed is closed after this long without a {"type": "here"}
  // from its page (sent on a person's activity): an open tab nobody looks
  // at, or a script holding sockets, does not keep a connection for ever.
  int lobby_idle_s = 600;
  LimitsConfig limits;                     // fair shares per client address (limits.h)
  std::vector<std::string> allow_origins;  // WebSocket origins allowed besides the server's own
  // The front door's addresses (--trusted-proxy): only from these is the
  // client's address taken from X-Forwarded-For (client_address()).
  std::vector<std::string> trusted_proxies;
};

// Whether peer (an address as the socket gives it) is one of `trusted`.
bool is_trusted_proxy(const std::string& peer, const std::vector<std::string>& trusted);
// The client's address, for the per-address limits and the bots' fairness:
// the peer's own, unless the peer is a trusted proxy: then the address that
// proxy put last in X-Forwarded-For (forwarded_for: the headers' values in
// order; what comes before the proxy's entry came from the client and may be
// forged). A header that names no address: the peer's.
std::string client_address(const std::string& peer, const std::vector<std::string>& forwarded_for,
                           const std::vector<std::string>& trusted);

class Server {
 public:
  // Opens the database, restores every table and binds; throws Error.
  explicit Server(ServerConfig cfg);
  ~Server();
  unsigned short port() const;
  void start();  // the io threads
  void stop();   // closes everything; waits for the threads and the bots
  Hub& hub();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace boneyard::server
