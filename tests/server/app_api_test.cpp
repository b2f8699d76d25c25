// What the browser app reads from the API beyond the game itself (issue 21):
// 64-bit numbers as exact strings.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/game.h"
#include "server/http_routes.h"
#include "server/storage.h"
#include "server/tables.h"

namespace boneyard {
namespace {

using nlohmann::json;

struct App {
  boost::asio::io_context ioc;
  server::Storage db{":memory:", false};
  std::unique_ptr<server::Hub> hub;
  App() {
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
  // A latin table of four people played to its end, each seat's first legal move.
  json finished_table() {
    const json t = hub->create({{"game", "latin"}, {"options", {{"target", 1}}}, {"seats", {"human", "human", "human", "human"}}});
    const std::string id = t["id"];
    for (int k = 0; k < 4; ++k) hub->join(id, t["tokens"][std::to_string(k)], std::nullopt);
    for (int guard = 0; guard < 5000; ++guard) {
      if (hub->get(id, t["tokens"]["0"])["status"] == "over") return t;
      for (int k = 0; k < 4; ++k) {
        const std::string tok = t["tokens"][std::to_string(k)];
        const json mine = hub->get(id, tok);
        if (mine["to_act"] == true) { hub->move(id, tok, mine["legal"][0]); break; }
      }
    }
    ADD_FAILURE() << "the game did not end";
    return t;
  }
};

TEST(AppApi, SeedTravelsAsAnExactStringBesideTheNumber) {
  App a;
  const json t = a.finished_table();
  auto [status, f] = a.get("/api/tables/" + t["id"].get<std::string>() + "/fairness");
  ASSERT_EQ(status, 200) << f.dump();
  ASSERT_TRUE(f["seed"].is_number_unsigned()) << f.dump();
  ASSERT_TRUE(f["seed_text"].is_string()) << f.dump();
  EXPECT_EQ(f["seed_text"].get<std::string>(), std::to_string(f["seed"].get<uint64_t>()));
  const json rec = a.hub->record(t["id"]);
  EXPECT_EQ(rec["fairness"]["seed_text"].get<std::string>(), std::to_string(rec["fairness"]["seed"].get<uint64_t>()));
}

TEST(AppApi, AGameInProgressShowsNoSeed) {
  App a;
  const json t = a.hub->create({{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}});
  auto [status, f] = a.get("/api/tables/" + t["id"].get<std::string>() + "/fairness");
  ASSERT_EQ(status, 200);
  EXPECT_FALSE(f.contains("seed_text"));
  EXPECT_FALSE(f.contains("seed"));
}

}  // namespace
}  // namespace boneyard
