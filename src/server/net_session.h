#pragma once
// The network sessions' shared parts (net.cpp: HTTP and the listener;
// net_ws.cpp: WebSocket sessions): what a session is given, its counted
// connection, and the headers and errors every answer carries.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "server/limits.h"
#include "server/net.h"

namespace boneyard::server::session {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

inline std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }

struct Ctx {
  Hub* hub;
  const ServerConfig* cfg;
  net::thread_pool* slow;  // requests that think (hint, review, replay), off the io threads
  net::thread_pool* hash;  // requests that hash a password, at most passwords->capacity at once
  PasswordLane* passwords;
  Limits* limits;
  std::shared_ptr<Limits> limits_owner;  // for the connection slots
};

// One counted connection (Limits::open); released when the last session
// holding it (HTTP, then the WebSocket it became) is gone.
// It shares the Limits: a session whose handler is still queued when the
// server is torn down is destroyed with the io_context, after the Impl's
// other members.
class ConnSlot {
 public:
  ConnSlot(std::shared_ptr<Limits> l, std::string addr) : limits_(std::move(l)), addr_(std::move(addr)) {}
  ~ConnSlot() { limits_->close(addr_); }
  ConnSlot(const ConnSlot&) = delete;
  ConnSlot& operator=(const ConnSlot&) = delete;
  const std::string& addr() const { return addr_; }

 private:
  std::shared_ptr<Limits> limits_;
  std::string addr_;
};

// Every response carries these: no MIME sniffing, no Referer (a seat's
// token is in the page's URL), no framing; the app runs only its own
// script and talks only to its own server.
inline void security_headers(http::response<http::string_body>& res) {
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.set("X-Frame-Options", "DENY");
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; "
          "connect-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
}

inline std::string error_json(const std::string& msg) {
  using nlohmann::json;
  return json{{"type", "error"}, {"error", msg}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Takes over an upgraded connection: the lobby's feed, or a table's seat or
// spectators (net_ws.cpp). client: the client's address (the peer's, or
// the one a trusted proxy gave).
void start_websocket(tcp::socket&& socket, Ctx ctx, std::shared_ptr<ConnSlot> slot, bool lobby, std::string client,
                     http::request<http::string_body> req);

}  // namespace boneyard::server::session
