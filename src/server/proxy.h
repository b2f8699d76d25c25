#pragma once
// Behind a front door and between nodes (docs/server.md, "Several nodes"):
// a request asked of the node that plays its table. The client's address
// behind a trusted proxy (client_address, is_trusted_proxy) is declared in
// net.h; both live in proxy.cpp.
#include <string>

#include "server/http_routes.h"

namespace boneyard::server {

// One HTTP request to the node at `address` (HOST:PORT), with the client's
// address in X-Forwarded-For and this node's id in X-Boneyard-Forwarded (so
// that node answers it itself); its answer. Blocks (the slow pool's
// threads only); throws on a network error.
HttpResponse forward_request(const std::string& address, const std::string& method, const std::string& target,
                             const std::string& body, const std::string& ct, const std::string& client,
                             const std::string& node, int timeout_s = 30);

}  // namespace boneyard::server
