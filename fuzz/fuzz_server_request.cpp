// Fuzz target: the server's request parsing and routing (http_routes.h),
// without sockets. Each input is a few requests "METHOD TARGET\nBODY" split
// by a line "---"; the first creates tables the later ones may refer to.
// Every request must get a response with a JSON body (or a static file),
// never a crash.
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <filesystem>
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
  std::string table, token;
  World() {
    boneyard::register_all_games();
    db = std::make_unique<boneyard::server::Storage>(":memory:", false);
    boneyard::server::HubConfig cfg;
    cfg.run_bots = false;  // bots would play whole games on every input
    cfg.bot_threads = 1;
    cfg.max_tables = 2000;
    hub = std::make_unique<boneyard::server::Hub>(*db, ioc, cfg);
    auto r = hub->create({{"game", "latin"}, {"seats", {"human", "bot:casual", "human", "bot:beginner"}}, {"seed", 1}});
    table = r["id"];
    token = r["tokens"]["0"];
    hub->join(table, token, std::string("x"));
    hub->join(table, r["tokens"]["2"].get<std::string>(), std::nullopt);
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World w;
  std::string in(reinterpret_cast<const char*>(data), size);
  // $T and $K stand for the live table's id and a seat's token.
  for (size_t p; (p = in.find("$T")) != std::string::npos;) in.replace(p, 2, w.table);
  for (size_t p; (p = in.find("$K")) != std::string::npos;) in.replace(p, 2, w.token);
  size_t pos = 0;
  for (int n = 0; n < 8 && pos <= in.size(); ++n) {
    size_t end = in.find("\n---\n", pos);
    if (end == std::string::npos) end = in.size();
    const std::string req = in.substr(pos, end - pos);
    pos = end + 5;
    const size_t sp = req.find(' ');
    const size_t nl = req.find('\n');
    const std::string method = req.substr(0, sp);
    const std::string target =
        sp == std::string::npos ? "" : req.substr(sp + 1, nl == std::string::npos ? std::string::npos : nl - sp - 1);
    const std::string body = nl == std::string::npos ? "" : req.substr(nl + 1);
    const auto r = boneyard::server::handle_request(*w.hub, "", method, target, body);
    if (r.status < 200 || r.status > 599) __builtin_trap();
    if (r.content_type == "application/json" && nlohmann::json::parse(r.body, nullptr, false).is_discarded())
      __builtin_trap();
  }
  return 0;
}
