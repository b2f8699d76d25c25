#pragma once
// A server without sockets for the route tests: an in-memory database and a
// Hub whose bots never move, reached through handle_request.
#include <boost/asio/io_context.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/game.h"
#include "server/http_routes.h"
#include "server/storage.h"
#include "server/tables.h"
#include "test_store.h"

namespace boneyard::test {

struct RoutesWorld {
  boost::asio::io_context ioc;
  server::Storage db{test_db(":memory:"), false};
  std::unique_ptr<server::Hub> hub;
  RoutesWorld() {
    register_all_games();
    server::HubConfig cfg;
    cfg.run_bots = false;
    cfg.bot_threads = 1;
    cfg.strong_ms = 5;
    hub = std::make_unique<server::Hub>(db, ioc, cfg);
  }
  std::pair<int, nlohmann::json> get(const std::string& target) {
    auto r = server::handle_request(*hub, "", "GET", target, "");
    return {r.status, nlohmann::json::parse(r.body)};
  }
  std::pair<int, nlohmann::json> post(const std::string& target, const std::string& body) {
    auto r = server::handle_request(*hub, "", "POST", target, body);
    return {r.status, nlohmann::json::parse(r.body)};
  }
};

}  // namespace boneyard::test
