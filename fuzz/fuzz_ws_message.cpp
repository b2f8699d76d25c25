// Fuzz target: the WebSocket messages a client may send to a table
// (handle_ws_message, what net.cpp runs for each message), without sockets.
// The first byte picks who is connected (seat 0, the spectator, a wrong
// token, or a connection that holds no seat); the rest is messages split
// by a line "---". Every reply must be one JSON object, never a crash.
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/game.h"
#include "server/http_routes.h"
#include "server/storage.h"
#include "server/tables.h"

namespace {
struct World {
  boost::asio::io_context ioc;
  std::unique_ptr<boneyard::server::Storage> db;
  std::unique_ptr<boneyard::server::Hub> hub;
  std::string table, token, spectate;
  World() {
    boneyard::register_all_games();
    db = std::make_unique<boneyard::server::Storage>(":memory:", false);
    boneyard::server::HubConfig cfg;
    cfg.run_bots = false;
    cfg.bot_threads = 1;
    hub = std::make_unique<boneyard::server::Hub>(*db, ioc, cfg);
    auto r =
        hub->create({{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}, {"seed", 1}});
    table = r["id"];
    token = r["tokens"]["0"];
    spectate = r["spectate"];
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World w;
  if (size == 0) return 0;
  const int who = data[0] % 4;
  const std::string token = who == 0 ? w.token : who == 1 ? w.spectate : "not-a-token";
  std::string in(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t pos = 0;
  for (int n = 0; n < 8 && pos <= in.size(); ++n) {
    size_t end = in.find("\n---\n", pos);
    if (end == std::string::npos) end = in.size();
    const std::string reply =
        boneyard::server::handle_ws_message(*w.hub, w.table, token, who != 3, in.substr(pos, end - pos));
    pos = end + 5;
    const auto j = nlohmann::json::parse(reply, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("type")) __builtin_trap();
  }
  return 0;
}
