#pragma once
// The HTTP API (docs/server.md), without sockets: one request in, one
// response out, so the routing can be tested and fuzzed on its own.
#include <atomic>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/limits.h"
#include "server/tables.h"

namespace boneyard::server {

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type (Retry-After, ...)
};

// The password pool's load (argon2id runs there, off the network threads):
// requests running or waiting, and how many it takes before it refuses.
struct PasswordLane {
  std::atomic<int> in_flight{0};
  int capacity = 0;
};

// One request as the routes see it.
struct Request {
  std::string_view method, target, body;
  std::string_view content_type = "application/json";  // the Content-Type header ("" when absent)
  std::string client;                       // the peer's address: the key of its fair share ("" when unknown)
  Limits* limits = nullptr;                 // nullptr: no per-address limits (tests of the routes alone)
  const PasswordLane* passwords = nullptr;  // shown by /api/health (nullptr: none)
  // For the app's files: a precompressed copy (name.gz) goes to a client
  // that takes gzip; an unchanged file is answered 304 by its ETag.
  std::string_view accept_encoding{}, if_none_match{};
};

struct Target {
  std::string path;                          // percent-decoded
  std::map<std::string, std::string> query;  // percent-decoded
};
// Splits and decodes a request target; throws ApiError(400) when malformed.
Target parse_target(std::string_view target);
// A path's non-empty segments ("/api/tables/x" -> api, tables, x).
std::vector<std::string> segments(const std::string& path);

// static_dir: where GET outside /api is served from ("" = nowhere). HEAD
// is answered as GET (the caller drops the body).
HttpResponse handle_request(Hub& hub, const std::string& static_dir, const Request& req);
inline HttpResponse handle_request(Hub& hub, const std::string& static_dir, std::string_view method,
                                   std::string_view target, std::string_view body) {
  return handle_request(hub, static_dir, Request{method, target, body, "application/json", "", nullptr});
}

// Whether the route a request goes to may think for a while (a hint, a
// review, a replay): the network layer runs those on its slow pool. Read
// from the one table of routes (http_routes.cpp).
bool runs_slow(std::string_view method, std::string_view target);
// Whether it hashes a password (new players, logins, setting a password):
// those run on the bounded password pool, which refuses (503, Retry-After)
// when full, so guessing never slows the other requests.
bool hashes_password(std::string_view method, std::string_view target);

// Parses an HTTP or WebSocket JSON body: at most 64 levels deep (checked
// before parsing, so a deep value can neither exhaust the stack nor be
// echoed back), an object; throws ApiError(400) naming the problem.
nlohmann::json parse_json_object(std::string_view text, const char* what);

// The same-origin rule for WebSocket upgrades: no Origin (not a browser),
// the server's own origin (the Host header, http or https), or one listed.
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

// A stable code beside an error's English text, by HTTP status ("not_found",
// "conflict", "rate_limited"...): the browser app words it in the user's language.
std::string error_code(int status);
HttpResponse error_response(int status, const std::string& message);

// A refusal over a rate: 429, with the whole seconds to wait (Retry-After).
struct RateLimited : ApiError {
  int retry_after;
  RateLimited(int wait, const std::string& m) : ApiError(429, m), retry_after(wait) {}
};

// One chat line at table `id` from `token`, as POST .../chat and the
// WebSocket's "chat" message both send it: the line checked first (a bad
// one costs nothing), then counted per address and per token (limits may
// be nullptr: not counted), then said (Hub::chat). Throws ApiError, or
// RateLimited over a rate.
nlohmann::json say_chat(Hub& hub, const std::string& id, const std::string& token, const nlohmann::json& body,
                        Limits* limits, const std::string& client);

// One WebSocket message from a client connected to table `table` with
// `token` (subscribed: it holds a seat or the spectator place), without
// sockets: the reply to send back ("ack", "pong", a state or an error).
// limits and client: the connection's fair share (a chat line is counted
// as over HTTP); nullptr counts nothing.
std::string handle_ws_message(Hub& hub, const std::string& table, const std::string& token, bool subscribed,
                              std::string_view text, Limits* limits = nullptr, const std::string& client = "");

}  // namespace boneyard::server
