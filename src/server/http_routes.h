#pragma once
// The HTTP API (docs/server.md), without sockets: one request in, one
// response out, so the routing can be tested and fuzzed on its own.
#include <map>
#include <string>
#include <string_view>

#include "server/tables.h"

namespace boneyard::server {

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

struct Target {
  std::string path;  // percent-decoded
  std::map<std::string, std::string> query;  // percent-decoded
};
// Splits and decodes a request target; throws ApiError(400) when malformed.
Target parse_target(std::string_view target);

// static_dir: where GET outside /api is served from ("" = nowhere).
HttpResponse handle_request(Hub& hub, const std::string& static_dir, std::string_view method, std::string_view target,
                            std::string_view body);

HttpResponse error_response(int status, const std::string& message);

}  // namespace boneyard::server
