// The routes the browser app adds to the server: GET /api/games (the lobby's
// menu) and GET /api/tables/{id}/hint (the hint button), through the routing
// without sockets.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "core/game.h"
#include "server/http_routes.h"
#include "server/storage.h"
#include "server/tables.h"

namespace boneyard {
namespace {

using nlohmann::json;

struct World {
  boost::asio::io_context ioc;
  server::Storage db{":memory:", false};
  std::unique_ptr<server::Hub> hub;
  World() {
    register_all_games();
    server::HubConfig cfg;
    cfg.run_bots = false;
    cfg.bot_threads = 1;
    cfg.strong_ms = 5;
    hub = std::make_unique<server::Hub>(db, ioc, cfg);
  }
  std::pair<int, json> get(const std::string& target) {
    auto r = server::handle_request(*hub, "", "GET", target, "");
    return {r.status, json::parse(r.body)};
  }
};

TEST(WebApi, GamesListsEveryGameWithOptionsAndSeats) {
  World w;
  auto [status, j] = w.get("/api/games");
  ASSERT_EQ(status, 200);
  std::set<std::string> families, names;
  for (const auto& g : j["games"]) {
    families.insert(g["family"].get<std::string>());
    names.insert(g["name"].get<std::string>());
    EXPECT_FALSE(g["summary"].get<std::string>().empty());
    EXPECT_TRUE(g["options"].is_object());
    EXPECT_TRUE(g["catalogue"].is_object());
    EXPECT_GE(g["seats"].get<int>(), 2);
  }
  EXPECT_EQ(families, (std::set<std::string>{"line", "mexican-train", "texas-42", "dice-and-dominoes"}));
  EXPECT_EQ(names.size(), games().size());
  for (const auto& g : j["games"])
    if (g["name"] == "latin") {
      EXPECT_EQ(g["options"]["target"], 200);
      EXPECT_EQ(g["seats"], 4);
    }
  EXPECT_EQ(j["bot_levels"].size(), 4u);
}

TEST(WebApi, HintValuesEveryLegalMoveForTheSeatToActOnly) {
  World w;
  const json t = w.hub->create({{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}, {"seed", 3}});
  const std::string id = t["id"];
  for (int k = 0; k < 4; ++k) w.hub->join(id, t["tokens"][std::to_string(k)], std::nullopt);
  json st = w.hub->get(id, t["tokens"]["0"]);
  // Get past a redeal question if there is one, to a seat with tiles to play.
  ASSERT_EQ(st["actor"]["kind"], "seat");
  const int actor = st["actor"]["seat"];
  const std::string tok = t["tokens"][std::to_string(actor)];
  const json mine = w.hub->get(id, tok);
  auto [status, h] = w.get("/api/tables/" + id + "/hint?token=" + tok);
  ASSERT_EQ(status, 200) << h.dump();
  EXPECT_EQ(h["seat"], actor);
  EXPECT_EQ(h["version"], mine["version"]);
  std::set<std::string> legal(mine["legal"].begin(), mine["legal"].end()), valued;
  double last = 1e300;
  for (const auto& m : h["moves"]) {
    valued.insert(m["move"].get<std::string>());
    EXPECT_LE(m["value"].get<double>(), last);  // best first
    last = m["value"];
  }
  if (legal.size() > 1) {
    EXPECT_EQ(valued, legal);
  }
  const std::string other = t["tokens"][std::to_string((actor + 1) % 4)];
  EXPECT_EQ(w.get("/api/tables/" + id + "/hint?token=" + other).first, 409);
  EXPECT_EQ(w.get("/api/tables/" + id + "/hint?token=" + t["spectate"].get<std::string>()).first, 403);
  EXPECT_EQ(w.get("/api/tables/" + id + "/hint?token=nope").first, 403);
  EXPECT_EQ(w.get("/api/tables/nope/hint?token=" + tok).first, 404);
}

}  // namespace
}  // namespace boneyard
